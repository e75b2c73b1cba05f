"""Regrids (auditor/pld/regrid.py, docs/dpsgd.md §6): the rule against a brute force, its dominance, the shares'
check against mpmath, the work estimate against the arrays actually made, and whole certificates with a regrid
inserted (resealed; the producer's code is not read here)."""

import copy
import json
import random
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.api import verify_certificate
from auditor.certificate import Malformed
from auditor.checks import dpsgd
from auditor.claims import outward
from auditor.outcomes import MalformedInput, Unchecked
from auditor.pld import answer, composition, masses, pairs, recipe, regrid
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array
from auditor.pld.regrid import Regrid
from auditor.report import DISPROVED, NOT_ESTABLISHED, Report
from auditor.rationals import write_rational
from tests.reseal import reseal

ROOT = Path(__file__).resolve().parents[2]
DELTA = "dpsgd-q0_01-s1-t1000-delta1e-5.json"
SHARE = "/result/discretisation/regrids"


def _reference(name, folder="dpsgd"):
    return json.loads((ROOT / "certificates" / folder / name).read_text())


def true_shares(N, g, r, S, digits=200):
    """[(⌈2^S·β_i⌉, ⌈2^S·(1 − β_i)⌉)] for i = 1 ... r − 1, β_i = (1 − e^{−i·g/N})/(1 − e^{−r·g/N}), by mpmath;
    asserts no 2^S·β_i is within 10^−40 of an integer (so the ceilings are those of the true values)."""
    with mpmath.workdps(digits):
        y = mpmath.exp(-mpmath.mpf(g) / N)
        out = []
        for i in range(1, r):
            beta = (1 - y ** i) / (1 - y ** r)
            for v in (beta * 2 ** S, (1 - beta) * 2 ** S):
                assert abs(v - mpmath.nint(v)) > mpmath.mpf(10) ** -40
            out.append((int(mpmath.ceil(beta * 2 ** S)), int(mpmath.ceil((1 - beta) * 2 ** S))))
    return out


def _brute(A, kind, r, S, shares):
    """The rule of docs/dpsgd.md §6, index by index."""
    first = A.offset // r
    last = (A.offset + len(A.values) - 1) // r + (1 if kind == UPPER else 0)
    out = {m: 0 for m in range(first, last + 1)}
    for t, v in enumerate(A.values):
        k = A.offset + t
        m, i = k // r, k % r
        if kind != UPPER or i == 0:
            out[m] += v
        else:
            b, d = shares[i - 1]
            out[m] += -(-v * d // 2 ** S)
            out[m + 1] += -(-v * b // 2 ** S)
    return Array(first, [out[m] for m in range(first, last + 1)], A.atom)


def _rg(r, S, shares, after=0):
    return Regrid(after, r, S, tuple(tuple(p) for p in shares), f"{SHARE}/0")


@st.composite
def cases(draw):
    r = draw(st.integers(2, 7))
    S = draw(st.integers(8, 20))
    shares = [(draw(st.integers(0, 2 ** S)), draw(st.integers(0, 2 ** S))) for _ in range(r - 1)]
    offset = draw(st.integers(-40, 40))
    values = draw(st.lists(st.integers(0, 2 ** 80), min_size=1, max_size=30))
    return r, S, shares, Array(offset, values, draw(st.integers(0, 2 ** 30)))


# ---- 1. the rule ---------------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(cases(), st.sampled_from([UPPER, LOWER_P, LOWER_Q]))
def test_coarsen_is_the_rule_index_by_index(case, kind):
    r, S, shares, A = case
    if kind == LOWER_P:
        A = Array(A.offset, A.values)
    got = regrid.coarsen(A, kind, _rg(r, S, shares))
    want = _brute(A, kind, r, S, shares)
    assert (got.offset, [int(v) for v in got.values], got.atom) == tuple(want)
    # the lengths the work estimate assumes: exactly ⌊hi/r⌋ − ⌊lo/r⌋ + 2 (+ 1), at most ⌈(n − 1)/r⌉ + 2 (+ 1)
    n, extra = len(A.values), 1 if kind == UPPER else 0
    assert len(got.values) == (A.offset + n - 1) // r - A.offset // r + 1 + extra <= -(-(n - 1) // r) + 1 + extra
    if kind != UPPER:
        assert sum(got.values) == sum(A.values)          # exact sums


def test_coarsen_by_hand():
    # indices −3 ... 2 at r = 3: −3 → m = −1 (i = 0), −2 → (−1, i = 1), −1 → (−1, i = 2), 0 → (0, 0), 1 → (0, 1), ...
    A = Array(-3, [8, 16, 32, 64, 128, 256], 5)
    shares = [(3, 14), (9, 8)]                      # over 2^4
    up = regrid.coarsen(A, UPPER, _rg(3, 4, shares))
    # m = −1: 8 + ⌈16·14/16⌉ + ⌈32·8/16⌉ = 8 + 14 + 16; m = 0: ⌈16·3/16⌉ + ⌈32·9/16⌉ + 64 + ⌈128·14/16⌉ + ⌈256·8/16⌉
    # = 3 + 18 + 64 + 112 + 128; m = 1: ⌈128·3/16⌉ + ⌈256·9/16⌉ = 24 + 144
    assert (up.offset, list(up.values), up.atom) == (-1, [38, 325, 168], 5)
    low = regrid.coarsen(A, LOWER_Q, _rg(3, 4, shares))
    assert (low.offset, list(low.values), low.atom) == (-1, [56, 448], 5)


def test_the_power_regrids_itself_and_its_base_after_the_named_products():
    rng = random.Random(7)
    for _ in range(30):
        scale, steps = 24, rng.randint(2, 40)
        base = Array(rng.randint(-6, 3), [rng.randint(0, 2 ** 24) for _ in range(rng.randint(1, 7))],
                     rng.randint(0, 9))
        products = list(composition.products(steps))
        assert len(products) == composition.products_in_power(steps)
        windows = []
        for _ in products:
            lo = rng.randint(-30, 0)
            windows.append((lo, lo + rng.randint(0, 30)))
        chosen = sorted(rng.sample(range(len(products)), rng.randint(1, len(products))))
        regrids = {}
        for j in chosen:
            r, S = rng.randint(2, 5), rng.randint(8, 30)
            regrids[j] = _rg(r, S, [(rng.randint(0, 2 ** S), rng.randint(0, 2 ** S)) for _ in range(r - 1)], j)
        for kind in (UPPER, LOWER_P, LOWER_Q):
            B = base if kind != LOWER_P else Array(base.offset, base.values)
            got = composition.power(B, steps, windows, kind, scale,
                                    {j: (lambda a, rg=rg, kind=kind: regrid.coarsen(a, kind, rg))
                                     for j, rg in regrids.items()})
            A = B
            for j, (square, w) in enumerate(zip(products, windows)):
                A = composition.window(composition.product(A, A if square else B, kind, scale), *w, kind)
                if j in regrids:
                    rg = regrids[j]
                    A, B = (_brute(X, kind, rg.factor, rg.bits, rg.shares) for X in (A, B))
            assert (got.offset, [int(v) for v in got.values], got.atom) == (A.offset, A.values, A.atom)


# ---- 2. dominance ------------------------------------------------------------------------------------------

def _tails(A):
    """{k: A([k, +∞])} for every index, the atom included, plus one past the end."""
    out, running = {}, A.atom
    out[A.offset + len(A.values)] = running
    for t in range(len(A.values) - 1, -1, -1):
        running += A.values[t]
        out[A.offset + t] = running
    return out


def _dominates(big, small, slack=0):
    tb, ts = _tails(big), _tails(small)
    keys = range(min(tb) - 1, max(max(tb), max(ts)) + 2)

    def at(t, k):
        return t[k] if k in t else (t[min(t)] if k < min(t) else t[max(t)])
    return all(at(tb, k) >= at(ts, k) - slack for k in keys)


def _exact(A, r, N, g=1):
    """The regrid with the true β_i (mpmath, 80 digits): masses (1 − β_i)·v at m and β_i·v at m + 1."""
    with mpmath.workdps(80):
        y = mpmath.exp(-mpmath.mpf(g) / N)
        beta = [(1 - y ** i) / (1 - y ** r) for i in range(r)]
        first = A.offset // r
        out = [mpmath.mpf(0)] * ((A.offset + len(A.values) - 1) // r - first + 2)
        for t, v in enumerate(A.values):
            m, i = divmod(A.offset + t, r)
            out[m - first] += (1 - beta[i]) * v
            out[m - first + 1] += beta[i] * v
    return Array(first, out, A.atom)


def test_upper_regrid_keeps_the_order_and_dominates_the_exact_one():
    """A ⪰ A′ ⇒ regrid(A) ⪰ exact regrid(A) ⪰ exact regrid(A′) (the stored chain dominates the exact chain), with
    the true shares rounded up; and the order is kept between rounded regrids up to the ceilings (2 units an
    entry)."""
    rng = random.Random(11)
    N, S = 50, 40
    for _ in range(60):
        r = rng.randint(2, 6)
        shares = true_shares(N, 1, r, S)
        small = Array(rng.randint(-20, 20), [rng.randint(0, 10 ** 6) for _ in range(rng.randint(1, 25))],
                      rng.randint(0, 100))
        values, atom = list(small.values), small.atom
        for _ in range(rng.randint(0, 6)):          # mass moved up, or added
            t = rng.randrange(len(values))
            moved = rng.randint(0, values[t])
            values[t] -= moved
            if t + 1 < len(values) and rng.random() < 0.7:
                values[t + 1 + rng.randrange(len(values) - t - 1)] += moved
            else:
                atom += moved + rng.randint(0, 5)
        big = Array(small.offset, values, atom)
        assert _dominates(big, small)
        coarse_big = regrid.coarsen(big, UPPER, _rg(r, S, shares))
        exact_big, exact_small = _exact(big, r, N), _exact(small, r, N)
        tiny = mpmath.mpf(10) ** -40
        assert all(c >= e - tiny for c, e in zip(coarse_big.values, exact_big.values))
        assert _dominates(exact_big, exact_small, slack=tiny)
        assert _dominates(coarse_big, exact_small, slack=tiny)
        n = len(small.values)
        assert _dominates(coarse_big, regrid.coarsen(small, UPPER, _rg(r, S, shares)), slack=2 * n)


def _functional(A, h, epsilon):
    """Σ_k A[k]·(1 − e^{ε − k·h})₊ + atom: the hockey-stick divergence of the tied pair on the grid h."""
    with mpmath.workdps(60):
        e = mpmath.mpf(epsilon.numerator) / epsilon.denominator
        total = mpmath.mpf(A.atom)
        for t, v in enumerate(A.values):
            loss = mpmath.mpf((A.offset + t) * h.numerator) / h.denominator
            if loss > e:
                total += v * (1 - mpmath.exp(e - loss))
    return total


def test_upper_functional_on_the_coarse_grid_is_at_least_the_fine_one():
    rng = random.Random(5)
    N, S, K = 40, 64, 40
    epsilons = [Fraction(0), Fraction(1, 7), Fraction(1, 2), Fraction(3, 4), Fraction(1), Fraction(5, 2)]
    for _ in range(25):
        r, g = rng.randint(2, 5), rng.choice([1, 2, 3])
        shares = true_shares(N, g, r, S)
        A = Array(rng.randint(-30, 60), [rng.randint(0, 2 ** 30) for _ in range(rng.randint(1, 40))],
                  rng.randint(0, 2 ** 10))
        C = regrid.coarsen(A, UPPER, _rg(r, S, shares))
        fine, coarse = Fraction(g, N), Fraction(g * r, N)
        tail = answer.UpperTail(C, K, N, 160, factor=g * r)
        for eps in epsilons:
            f, c = _functional(A, fine, eps), _functional(C, coarse, eps)
            assert c >= f
            bound = tail.bound(eps) * 2 ** K                # the answer's F on the coarse grid, scaled
            assert mpmath.mpf(bound.numerator) / bound.denominator >= c
            assert mpmath.mpf(bound.numerator) / bound.denominator <= c + sum(C.values) * mpmath.mpf(2) ** -100


def test_upper_tail_on_a_coarser_grid_is_the_tail_of_grid_n_over_factor():
    rng = random.Random(2)
    for _ in range(30):
        r = rng.randint(1, 6)
        N = r * rng.randint(1, 300)
        A = Array(rng.randint(-50, 50), [rng.randint(0, 2 ** 50) for _ in range(rng.randint(1, 30))], rng.randint(0, 9))
        a, b = answer.UpperTail(A, 48, N, 120, factor=r), answer.UpperTail(A, 48, N // r, 120)
        for eps in (Fraction(0), Fraction(1, 3), Fraction(rng.randint(0, 400), rng.randint(1, 97)), Fraction(7)):
            assert a.bound(eps) == b.bound(eps)


# ---- 3. the shares --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("N, S, factors", [(1180, 16, [2]), (1180, 64, [3, 2]), (400, 24, [7]),
                                          (2_000_000, 100, [64]), (3, 8, [2, 5])])
def test_true_shares_are_confirmed_and_one_unit_less_is_refused(N, S, factors):
    regrids, g = [], 1
    for j, r in enumerate(factors):
        regrids.append(Regrid(j, r, S, tuple(true_shares(N, g, r, S)), f"{SHARE}/{j}"))
        g *= r
    report = Report("x")
    assert regrid.check_shares(regrids, N, report) and report.ok
    assert report.checked == sum(2 * (r - 1) for r in factors)
    rng = random.Random(N + S)
    for _ in range(6):
        j = rng.randrange(len(regrids))
        i, n = rng.randrange(factors[j] - 1), rng.randrange(2)
        wrong = [list(map(list, rg.shares)) for rg in regrids]
        wrong[j][i][n] -= 1
        bad = [rg._replace(shares=tuple(map(tuple, s))) for rg, s in zip(regrids, wrong)]
        report = Report("x")
        assert not regrid.check_shares(bad, N, report)
        assert [(f["pointer"], f["verdict"]) for f in report.failures] == [(f"{SHARE}/{j}/shares/{i}/{n}", DISPROVED)]


@pytest.mark.parametrize("bits", [8, 16, 40, 200])
def test_the_sums_of_powers_enclose_the_true_ones(bits):
    """lo[i] <= 2^bits·Σ_{j<i} e^{−j·x} <= hi[i] (mpmath, 80 digits), even at a few bits where the rounding of
    every power shows."""
    for x in (Fraction(1, 3), Fraction(1, 1180), Fraction(7, 40), Fraction(64, 2_000_000)):
        for r in (2, 5, 64):
            lo, hi = regrid._sums(x, r, bits)
            with mpmath.workdps(80):
                y = mpmath.exp(-mpmath.mpf(x.numerator) / x.denominator)
                for i in range(r + 1):
                    true = sum(y ** j for j in range(i)) * 2 ** bits
                    assert lo[i] <= true <= hi[i]
                    assert hi[i] - lo[i] <= 4 * r * r + 4


def test_shares_of_the_wrong_grid_are_refused():
    """The second regrid's β is that of the grid g·h = 2h; shares computed for h are too small for b_i."""
    N, S = 1180, 32
    first = Regrid(0, 2, S, tuple(true_shares(N, 1, 2, S)), f"{SHARE}/0")
    second = Regrid(3, 3, S, tuple(true_shares(N, 1, 3, S)), f"{SHARE}/1")
    report = Report("x")
    assert not regrid.check_shares([first, second], N, report)
    assert {f["pointer"] for f in report.failures} == {f"{SHARE}/1/shares/0/0", f"{SHARE}/1/shares/1/0"}


def test_an_undecided_share_is_not_established(monkeypatch):
    """Enclosures too wide to decide (each y^j in [0, 2]) leave the shares open at both precisions: not
    established, a FAIL."""
    monkeypatch.setattr(regrid, "_sums", lambda x, r, bits: ([0] * (r + 1), [(2 * i) << bits for i in range(r + 1)]))
    N, S = 1180, 16
    report = Report("x")
    assert not regrid.check_shares([Regrid(0, 2, S, tuple(true_shares(N, 1, 2, S)), f"{SHARE}/0")], N, report)
    assert [(f["pointer"], f["verdict"]) for f in report.failures] == [
        (f"{SHARE}/0/shares/0/0", NOT_ESTABLISHED), (f"{SHARE}/0/shares/0/1", NOT_ESTABLISHED)]


def test_excess_counts_only_the_shares_above_two_to_the_s():
    assert regrid.excess(_rg(3, 16, [(2 ** 15, 2 ** 15), (2 ** 16, 0)]), 70) == 0
    assert regrid.excess(_rg(2, 16, [(2 ** 15 + 1, 2 ** 15 + 1)]), 70) == 2 ** 56
    assert regrid.excess(_rg(2, 16, [(2 ** 16, 2 ** 16)]), 70) == 2 ** 71


# ---- the estimate -------------------------------------------------------------------------------------------------

def _plan(cert):
    p = dpsgd.parse(cert)
    return p, dpsgd._plan(p, cert)


def _with(cert, regrids, path=()):
    """A resealed copy with ``regrids`` in the discretisation (of the certificate embedded at ``path``)."""
    out = copy.deepcopy(cert)
    node = out
    for key in path:
        node = node[key]
    node["result"]["discretisation"]["regrids"] = regrids
    return reseal(out)


def _regrid_json(after, r, S, shares):
    return {"after": after, "factor": r, "share_bits": S, "shares": [[str(b), str(d)] for b, d in shares]}


def test_the_estimate_bounds_every_product_the_bounds_make(monkeypatch):
    """The operand lengths the estimate assumes, product by product and chain by chain, bound those of the arrays
    actually multiplied (regrids at products 3 and 9: the base and the power shrink)."""
    cert = _reference(DELTA)
    N = cert["result"]["discretisation"]["grid"]
    cert = _with(cert, [_regrid_json(3, 2, 64, true_shares(N, 1, 2, 64)),
                        _regrid_json(9, 3, 64, true_shares(N, 2, 3, 64))])
    p, plan = _plan(cert)
    estimated, actual = [], []
    field = recipe._field_bits
    monkeypatch.setattr(recipe, "_field_bits", lambda s, a, b: estimated.append((a, b)) or field(s, a, b))
    without = dict(plan, regrids=())
    recipe.estimate_plan(without, p["total"])
    plain = list(estimated)
    estimated.clear()
    cost = recipe.estimate_plan(plan, p["total"])
    step = composition._step
    monkeypatch.setattr(composition, "_step", lambda A, B, *rest: actual.append((A.length, B.length)) or
                        step(A, B, *rest))
    recipe.bounds(plan, 96, 0)
    assert len(estimated) == len(actual) == len(plain)
    assert all(ea >= aa and eb >= ab for (ea, eb), (aa, ab) in zip(estimated, actual))
    # the regrids shrink the base: the products by it after product 3 are estimated smaller than without
    assert sum(a + b for a, b in estimated) < sum(a + b for a, b in plain)
    assert cost.work > 0


def test_a_regrid_counts_at_least_its_measured_work():
    """A regrid after the last product with S = 4096 (the schema's largest) costs at least 1.7 units an entry ×
    (scale + S + 256) bits of every chain's last window (measured, docs of recipe.REGRID_BITS): the estimate grows
    by at least that."""
    cert = _reference(DELTA)
    d = cert["result"]["discretisation"]
    N, S = d["grid"], 4096
    p, plan = _plan(_with(cert, [_regrid_json(_last(cert), 2, S, true_shares(N, 1, 2, S, digits=1400))]))
    with_regrid = recipe.estimate_plan(plan, p["total"]).work
    without = recipe.estimate_plan(dict(plan, regrids=()), p["total"]).work
    entries = 0
    for chains in plan["chains"].values():
        for side, scales in (("upper", (plan["K"],)), ("lower", (plan["K"], plan["K_q"]))):
            if chains[side] is not None:
                lo, hi = chains[side][0][0][-1]
                entries += sum((hi - lo + 1) * (scale + S + 256) for scale in scales)
    assert with_regrid - without >= 1.7 * entries


def test_shares_far_above_two_to_the_s_are_refused_by_the_rounding_excess_check():
    cert = _reference(DELTA)
    S = 32
    cert = _with(cert, [_regrid_json(13, 2, S, [(2 ** S, 2 ** S)])])
    p, plan = _plan(cert)
    with pytest.raises(Unchecked) as exc:
        recipe.estimate_plan(plan, p["total"])
    assert exc.value.pointer == "/result/discretisation/p_bits"
    report = verify_certificate(cert)
    assert report.outcome == "UNCHECKED", report.as_dict()


def test_a_final_grid_beyond_the_spacing_limit_is_unchecked_before_any_enclosure(monkeypatch):
    """Factors whose product puts the final grid above 64 loss units (here 64^4 on the grid 1/1180) would ask the
    share check for e^{−x} at x near 2·10^5 and beyond (an enclosure's cost grows with x, a hang at 64^7): the
    estimate refuses them first, naming the field; none of the exponentials is computed."""
    cert = _reference(DELTA)
    S = 16
    ones = [(1 << S, 1)] * 63
    cert = _with(cert, [_regrid_json(j, 64, S, ones) for j in range(4)])
    monkeypatch.setattr(regrid, "check_shares", lambda *args: pytest.fail("shares checked past the limit"))
    report = verify_certificate(cert)
    assert report.outcome == "UNCHECKED", report.as_dict()
    assert "/result/discretisation/regrids" in json.dumps(report.as_dict())


# ---- 4. whole certificates ------------------------------------------------------------------------------------

def _last(cert):
    return len(cert["result"]["discretisation"]["windows"]["remove"]["upper"]["stages"][0]) - 1


def test_a_regrid_after_the_last_product_keeps_the_claims_of_the_reference():
    cert = _reference(DELTA)
    N = cert["result"]["discretisation"]["grid"]
    ok = _with(cert, [_regrid_json(_last(cert), 2, 64, true_shares(N, 1, 2, 64))])
    report = verify_certificate(ok)
    assert report.outcome == "OK", report.as_dict()
    # a factor 3 coarsens past the producer's margins: neither end is established any more
    three = _with(cert, [_regrid_json(_last(cert), 3, 64, true_shares(N, 1, 3, 64))])
    report = verify_certificate(three)
    assert report.outcome == "FAIL"
    assert {f["pointer"] for f in report.failures} == {"/result/epsilon_hi", "/result/epsilon_lo"}
    assert {f["verdict"] for f in report.failures} == {NOT_ESTABLISHED}


def _loosened(cert, by):
    """The ends moved apart by ``by`` (the width still within R), displays rewritten."""
    out = copy.deepcopy(cert)
    res = out["result"]
    lo, hi = Fraction(res["epsilon_lo"]) - by, Fraction(res["epsilon_hi"]) + by
    assert hi - lo <= Fraction(cert["input"]["rel_width"]) * hi
    res["epsilon_lo"], res["epsilon_hi"] = write_rational(lo), write_rational(hi)
    res["epsilon_lo_display"], res["epsilon_hi_display"] = outward(lo, 10)[0], outward(hi, 10)[1]
    return out


def test_a_coarser_regrid_holds_loosened_claims_and_two_regrids_compose():
    cert = _loosened(_reference(DELTA), Fraction(1, 2 ** 12))
    N, last = cert["result"]["discretisation"]["grid"], _last(cert)
    assert verify_certificate(reseal(copy.deepcopy(cert))).outcome == "OK"
    three = _with(cert, [_regrid_json(last, 3, 64, true_shares(N, 1, 3, 64))])
    assert verify_certificate(three).outcome == "OK"
    # two regrids after the last two products (the last window is read in the grid 2h: still a superset)
    two = _with(cert, [_regrid_json(last - 1, 2, 64, true_shares(N, 1, 2, 64)),
                       _regrid_json(last, 2, 64, true_shares(N, 2, 2, 64))])
    report = verify_certificate(two)
    assert report.outcome == "OK", report.as_dict()
    # the same factors with the second regrid's shares for the grid h (not 2h): b_1 too small
    wrong = _with(cert, [_regrid_json(last - 1, 2, 64, true_shares(N, 1, 2, 64)),
                         _regrid_json(last, 2, 64, true_shares(N, 1, 2, 64))])
    report = verify_certificate(wrong)
    assert report.outcome == "FAIL"
    assert [f["pointer"] for f in report.failures] == [f"{SHARE}/1/shares/0/0"]


@pytest.mark.parametrize("regrids", [[(9, 2)], [(3, 2), (9, 2)], [(11, 4)], [(5, 2), (9, 2)]])
def test_regrids_inside_the_power_hold_loosened_claims(regrids):
    """Regrids before later products (T = 1000: products 5, 7 and 10 multiply by the coarsened base): the
    reference's windows, read in the coarser grids, still hold every mass, and the bounds hold the claims loosened
    by 2^−11; the reference's own claims are then beyond them, never disproved (the lower bounds stay below the
    upper)."""
    cert = _reference(DELTA)
    N, g, items = cert["result"]["discretisation"]["grid"], 1, []
    for after, r in regrids:
        items.append(_regrid_json(after, r, 64, true_shares(N, g, r, 64)))
        g *= r
    report = verify_certificate(_with(_loosened(cert, Fraction(1, 2 ** 11)), items))
    assert report.outcome == "OK", report.as_dict()
    report = verify_certificate(_with(cert, items))
    assert report.outcome == "FAIL" and {f["verdict"] for f in report.failures} == {NOT_ESTABLISHED}


def test_a_wrong_share_fails_naming_it_and_nothing_is_composed(monkeypatch):
    cert = _reference(DELTA)
    N = cert["result"]["discretisation"]["grid"]
    shares = true_shares(N, 1, 3, 64)
    shares[1] = (shares[1][0] - 1, shares[1][1])
    bad = _with(cert, [_regrid_json(_last(cert), 3, 64, shares)])

    def never(*args):
        raise AssertionError("the bounds were computed with an unconfirmed share")
    monkeypatch.setattr(dpsgd, "_pld_bounds", never)
    report = verify_certificate(bad)
    assert report.outcome == "FAIL"
    assert [(f["pointer"], f["verdict"]) for f in report.failures] == [(f"{SHARE}/0/shares/1/0", DISPROVED)]
    assert "regrid would lose mass" in report.failures[0]["reason"]


@pytest.mark.parametrize("edit, pointer", [
    (lambda d, s: d.update(regrids=[_regrid_json(3, 2, 16, s(2)), _regrid_json(3, 2, 16, s(2))]), "/1/after"),
    (lambda d, s: d.update(regrids=[_regrid_json(5, 2, 16, s(2)), _regrid_json(4, 2, 16, s(2))]), "/1/after"),
    (lambda d, s: d.update(regrids=[_regrid_json(14, 2, 16, s(2))]), "/0/after"),
    (lambda d, s: d.update(regrids=[_regrid_json(2, 3, 16, s(2))]), "/0/shares"),
    (lambda d, s: d.update(regrids=[_regrid_json(2, 2, 16, s(3))]), "/0/shares"),
    (lambda d, s: d.update(regrids=[_regrid_json(2, 2, 16, [(2 ** 16 + 1, 2 ** 15)])]), "/0/shares/0/0"),
    (lambda d, s: d.update(regrids=[_regrid_json(2, 2, 16, [(2 ** 15, 2 ** 16 + 1)])]), "/0/shares/0/1"),
])
def test_misshapen_regrids_are_malformed(edit, pointer):
    cert = _reference(DELTA)
    N = cert["result"]["discretisation"]["grid"]
    bad = copy.deepcopy(cert)
    edit(bad["result"]["discretisation"], lambda r: true_shares(N, 1, r, 16))
    report = verify_certificate(reseal(bad))
    assert report.outcome == "MALFORMED", report.as_dict()
    assert f"{SHARE}{pointer}" in report.error
    p = dpsgd.parse(bad)
    with pytest.raises(Malformed):
        dpsgd._plan(p, bad)


def test_regrids_of_a_schedule_of_two_stages_are_malformed():
    cert = _reference("dpsgd-schedule-two-stages-delta1e-6.json")
    N = cert["result"]["discretisation"]["grid"]
    report = verify_certificate(_with(cert, [_regrid_json(0, 2, 16, true_shares(N, 1, 2, 16))]))
    assert report.outcome == "MALFORMED"
    assert SHARE in report.error and "2 stages" in report.error


def test_read_checks_the_bounds_the_schema_states_too():
    stage = [masses.Stage(pairs.SampledGaussian(Fraction(1, 100), Fraction(1)), 1000, -12, 3990)]
    for item, pointer in ((_regrid_json(0, 65, 16, [(1, 1)] * 64), "/0/factor"),
                          (_regrid_json(0, 1, 16, []), "/0/factor"),
                          (_regrid_json(0, 2, 4097, [(1, 1)]), "/0/share_bits"),
                          (_regrid_json(0, 2, 7, [(1, 1)]), "/0/share_bits"),
                          (_regrid_json(-1, 2, 8, [(1, 1)]), "/0/after"),
                          (dict(_regrid_json(0, 2, 8, [(1, 1)]), shares=[["1", "1", "1"]]), "/0/shares/0"),
                          (dict(_regrid_json(0, 2, 8, [(1, 1)]), shares=[[1, "1"]]), "/0/shares/0/0"),
                          (dict(_regrid_json(0, 2, 8, [(1, 1)]), shares=[["1", "-1"]]), "/0/shares/0/1"),
                          (dict(_regrid_json(0, 2, 8, [(1, 1)]), shares=[["1", "01"]]), "/0/shares/0/1")):
        with pytest.raises(MalformedInput) as exc:   # Malformed, or MalformedNumber for a share's text
            regrid.read([item], stage, SHARE)
        assert str(exc.value).startswith(SHARE + pointer), (item, exc.value)
    assert regrid.read(None, stage, SHARE) == ()


def test_accounting_certificates_regrid_too(monkeypatch):
    cert = _reference("accounting-poisson-gaussian-composition-q0_01-s1_1-s10-x1000-delta1e-5.json", "accounting")
    d = cert["result"]["discretisation"]
    N, last = d["grid"], len(d["windows"]["forward"]["upper"]["stages"][0]) - 1
    calls = []
    coarsen = regrid.coarsen
    monkeypatch.setattr(regrid, "coarsen", lambda *a, **k: calls.append(1) or coarsen(*a, **k))
    report = verify_certificate(_with(cert, [_regrid_json(last, 2, 64, true_shares(N, 1, 2, 64))]))
    assert report.outcome in ("OK", "FAIL") and calls, report.as_dict()
    if report.outcome == "FAIL":
        assert {f["verdict"] for f in report.failures} == {NOT_ESTABLISHED}
    shares = true_shares(N, 1, 2, 64)
    shares[0] = (shares[0][0], shares[0][1] - 1)
    report = verify_certificate(_with(cert, [_regrid_json(last, 2, 64, shares)]))
    assert [(f["pointer"], f["verdict"]) for f in report.failures] == [(f"{SHARE}/0/shares/0/1", DISPROVED)]


def test_an_embedded_dpsgd_certificate_is_checked_with_its_regrids():
    name = "dpsgd-calibration-sampling-rate-s1-t1000-eps2-delta1e-5.json"
    cert = _reference(name)
    inner = cert["result"]["meets"]
    N, last = inner["result"]["discretisation"]["grid"], _last(inner)
    shares = true_shares(N, 1, 2, 64)
    shares[0] = (shares[0][0] - 1, shares[0][1])
    report = verify_certificate(_with(cert, [_regrid_json(last, 2, 64, shares)], ("result", "meets")))
    assert report.outcome == "FAIL"
    assert [f["pointer"] for f in report.failures] == [f"/result/meets{SHARE}/0/shares/0/0"]
