"""The split by tail steps (auditor/pld/split.py, docs/dpsgd.md §6): the division by hand, the bounds against brute
force on tiny arrays, the work estimate against the arrays actually made, and whole certificates with a split
inserted (windows replayed here, resealed; the producer's code is not read)."""

import copy
import itertools
import random
from fractions import Fraction
from math import comb

import mpmath
import pytest

from auditor.api import verify_certificate
from auditor.certificate import Malformed
from auditor.checks import accounting, dpsgd
from auditor.pld import answer, composition, masses, recipe, regrid, split
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array
from auditor.pld.regrid import Regrid
from auditor.report import DISPROVED, NOT_ESTABLISHED, Report
from tests.auditor.test_pld_regrid import DELTA, _loosened, _reference, true_shares
from tests.reseal import reseal

P = "/result/discretisation/split"
ACCOUNTING = "accounting-poisson-gaussian-composition-q0_01-s1_1-s10-x1000-delta1e-5.json"


# ---- 1. the division ----------------------------------------------------------------------------------------

def test_divide_by_hand():
    A = Array(-2, [1, 2, 3, 4, 5, 6], 7)           # indices −2 ... 3
    body, tail = split.divide(A, (0, 1), True)      # strictly inside: the tail spans the range, zeros in the body
    assert body == Array(0, [3, 4], 7) and tail == Array(-2, [1, 2, 0, 0, 5, 6], 0)
    body, tail = split.divide(A, (-9, 0), False)    # clipped below; the atom with the tail (it holds the top)
    assert body == Array(-2, [1, 2, 3], 0) and tail == Array(1, [4, 5, 6], 7)
    body, tail = split.divide(A, (1, 99), True)
    assert body == Array(1, [4, 5, 6], 7) and tail == Array(-2, [1, 2, 3], 0)
    assert split.divide(A, (-2, 3), True) == (A, None)


def test_sizes_are_the_lengths_divide_makes():
    stage = masses.Stage(None, 10, -3, 5, 0, 0)     # forward [−3, 5], backward [−5, 3]
    for a in range(-8, 7):
        for b in range(a, 8):
            cut = split.Split({"f": (a, b), "b": (a, b)}, None, P)
            for order in ("f", "b"):
                LO, HI = split.order_range(stage, ("f", "b"), order)
                if b < LO or a > HI:
                    continue
                body, tail = split.divide(Array(LO, list(range(1, HI - LO + 2))), (a, b), True)
                assert split.sizes(cut, stage, ("f", "b"), order) == (len(body.values),
                                                                     len(tail.values) if tail else 0)


# ---- 2. the bounds against brute force ------------------------------------------------------------------------

def _trimmed(C, rng):
    """A window of C's index range, trimmed by 0 or 1 at each end now and then (any window is sound)."""
    lo, hi = C.offset, C.offset + len(C.values) - 1
    if rng.random() < 0.3 and hi - lo >= 2:
        lo, hi = lo + rng.randint(0, 1), hi - rng.randint(0, 1)
    return lo, hi


def _windows(bases, steps, scales, regrids, rng):
    """Windows of the split chain of ``bases`` [(array, kind)] (one window list for all): the power of T − 1, then
    one product by the base; list form, the windows chosen from the product of the first base."""
    coarse = {rg.after: rg for rg in regrids}
    As, Bs, out = [b for b, _ in bases], [b for b, _ in bases], []
    kinds = [k for _, k in bases]
    for j, square in enumerate(list(composition.products(steps - 1)) + [False]):
        Cs = [composition.product(A, A if square else B, k, s) for A, B, k, s in zip(As, Bs, kinds, scales)]
        w = _trimmed(Cs[0], rng)
        out.append(w)
        As = [composition.window(C, *w, k) for C, k in zip(Cs, kinds)]
        if j in coarse and j < composition.products_in_power(steps - 1):
            As = [regrid.coarsen(A, k, coarse[j]) for A, k in zip(As, kinds)]
            Bs = [regrid.coarsen(B, k, coarse[j]) for B, k in zip(Bs, kinds)]
    return out


def _law(rng, n, total, excess):
    """n nonnegative integers summing to total + excess (a rounded law)."""
    cuts = sorted(rng.randint(0, total) for _ in range(n - 1))
    values = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    for _ in range(excess):
        values[rng.randrange(n)] += 1
    return values


def _exact(arrays):
    """The exact product of ``arrays`` (UPPER: atoms at +∞), integers over 2^(K·len)."""
    A = arrays[0]
    for B in arrays[1:]:
        A = composition.product(A, B, UPPER, 0)       # scale 0: no rounding
    return A


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


def _true_upper(A, bits, N, epsilon):
    """F(ε) of the exact array A over 2^bits (the hockey stick of its tied pair), by mpmath (60 digits)."""
    total = mpmath.mpf(A.atom)
    for t, v in enumerate(A.values):
        if Fraction(A.offset + t, N) > epsilon:
            total += v * (1 - mpmath.exp(_mp(epsilon) - mpmath.mpf(A.offset + t) / N))
    return total / mpmath.mpf(2) ** bits


def _true_lower(p, q, tail, steps, K, K_q, lam):
    """[part with no tail step, part with the tail at step 1]: Σ over those index vectors of (P − λ·Q)_+, exact,
    P = p/2^K, Q = q/2^K′ (X in q's last entry) — the sup over events inside each part."""
    parts = [Fraction(0), Fraction(0)]
    for vector in itertools.product(range(len(p)), repeat=steps):
        labels = [i in tail for i in vector]
        if any(labels[1:]):
            continue
        a = b = 1
        for i in vector:
            a, b = a * p[i], b * q[i]
        parts[labels[0]] += max(Fraction(a, 1 << (K * steps)) - lam * Fraction(b, 1 << (K_q * steps)), 0)
    return parts


def random_coarsenings(rng, steps, N, S):
    """(regrids, G, r) of a brute-force case: for T = 5 now and then a regrid of 2 after product 0 or 1 (true
    shares), and a split factor r of 2 or 3."""
    regrids, G = [], 1
    if steps == 5 and rng.random() < 0.5:
        after = rng.randint(0, 1)
        regrids.append(Regrid(after, 2, S, tuple(true_shares(N, 1, 2, S)), f"/x/{after}"))
        G = 2
    return regrids, G, rng.choice((2, 3))


@pytest.mark.parametrize("seed", range(30))
def test_the_split_bounds_hold_the_brute_force_values(seed):
    """Tiny single steps (T = 2, 3, 5; up to 5 indices, a regrid now and then and a split factor of 2 or 3 with
    the true shares, windows trimmed now and then), part by part: F(W0) >= F of the exact body^T, F(W1) >= F of the
    exact body^(T−1)·tail, B2 >= the exact mass of the patterns with two tail steps or more, and so the bound >= F
    of the exact T-fold product; L(W0) and L(W1) at most the exact hockey sticks of their parts, and
    L(W0) + T·L(W1) at most that of the patterns with one tail step at most."""
    rng = random.Random(seed)
    steps = (2, 3, 5)[seed % 3]
    N, K, K_q, S = 4, 24, 26, 40
    n = rng.randint(2, 5 if steps < 5 else 4)
    LO = rng.randint(-3, 1)
    HI = LO + n - 1
    upper = _law(rng, n, (1 << K) - 9, rng.randint(0, n))
    lower_p = _law(rng, n, (1 << K) - 3, 0)
    lower_q = _law(rng, n, 1 << K_q, n)
    one = masses.SingleStep("f", LO, HI, upper, 9, lower_p, lower_q[:-1] + [0], lower_q[-1])
    a = rng.randint(LO - 1, HI)
    body = (a, rng.randint(max(a, LO), HI + 1))
    regrids, G, r = random_coarsenings(rng, steps, N, S)
    cut = split.Split({"f": body}, Regrid(None, r, S, tuple(true_shares(N, G, r, S)), P), P)
    U_body, U_tail = split.divide(Array(LO, upper, 9), body, True)
    P_body = split.divide(Array(LO, lower_p), body, True)[0]
    Q_body = split.divide(Array(LO, one.lower_q, one.lower_atom), body, body[1] >= HI)[0]
    chains = {"upper": ([_windows([(U_body, UPPER)], steps, (K,), regrids, rng)], []),
              "lower": ([_windows([(P_body, LOWER_P), (Q_body, LOWER_Q)], steps, (K, K_q), regrids, rng)], [])}
    up, low = split.bounds([one], steps, cut, chains, tuple(regrids), (K, K_q), N, 80)
    assert isinstance(up, split.Upper) and (up.cross is None) == (U_tail is None)
    b, m = Fraction(sum(U_body.values) + 9, 1 << K), Fraction(sum(U_tail.values) if U_tail else 0, 1 << K)
    assert up.rest >= sum(comb(steps, k) * m ** k * b ** (steps - k) for k in range(2, steps + 1))
    tail = {i for i in range(n) if not body[0] <= LO + i <= body[1]}
    for epsilon in (Fraction(0), Fraction(1, 3), Fraction(3, 4), Fraction(2)):
        with mpmath.workdps(60):
            tiny = mpmath.mpf(10) ** -50
            assert _mp(up.body.bound(epsilon)) >= _true_upper(_exact([U_body] * steps), K * steps, N, epsilon) - tiny
            if U_tail is not None:
                cross = _exact([U_body] * (steps - 1) + [U_tail])
                assert _mp(up.cross.bound(epsilon)) >= _true_upper(cross, K * steps, N, epsilon) - tiny
            whole = _exact([Array(LO, upper, 9)] * steps)
            assert _mp(up.bound(epsilon)) >= _true_upper(whole, K * steps, N, epsilon) - tiny
        lam = Fraction(mpmath.nstr(mpmath.exp(_mp(epsilon)), 20))
        none, first = _true_lower(lower_p, lower_q, tail, steps, K, K_q, lam)
        assert low.body.bound(lam) <= none
        assert low.cross is None or low.cross.bound(lam) <= first
        assert low.bound(lam) <= none + steps * first


def test_a_part_whose_every_event_is_negative_adds_nothing():
    """The Q atom X lies in every threshold event, so a part's best event can be negative; its divergence is still
    at least 0 (the empty event), and the lower bound adds 0 for it, not the negative value."""
    K = K_q = 10
    body = answer.LowerEvents(Array(0, [0, 0]), Array(0, [0, 0], 5), K, K_q)          # only X: P − λQ < 0
    cross = answer.LowerEvents(Array(0, [0, 64]), Array(0, [0, 8]), K, K_q)           # 64/1024 − λ·8/1024
    lam = Fraction(2)
    assert body.bound(lam) < 0 < cross.bound(lam) == Fraction(48, 1024)
    assert split.Lower(body, cross, 3).bound(lam) == 3 * Fraction(48, 1024)
    assert split.Lower(cross, None, 3).bound(lam) == Fraction(48, 1024)


def test_the_remainder_by_hand():
    """B2 = T(T − 1)/2·m²·(1 + 2(T − 2)·x): m the tail's upper mass (its atom included), x the single step's excess
    over 1 (body and tail, atoms included)."""
    K = 10
    body, tail = Array(0, [968, 30], 2), Array(3, [16, 0, 16])      # m = 32/1024, x = 8/1024
    assert split.remainder(2, body, tail, K) == Fraction(1, 1024)              # T = 2: m², x unused
    assert split.remainder(5, body, tail, K) == 10 * Fraction(1, 1024) * (1 + 6 * Fraction(8, 1024))
    assert split.remainder(5, Array(0, [1000, 20], 2), None, K) == 0          # below 2^K: x = 0; no tail
    # a coarse tail holds its atom: the same m and x with 2 units of the tail's mass in its atom
    assert split.remainder(5, Array(0, [968, 30], 2), Array(3, [16, 0, 14], 2), K) == split.remainder(5, body, tail, K)
    # (T − 2)·x > 1: not established (x = 1/2, T = 5)
    assert split.remainder(5, Array(0, [1024 - 32, 512]), tail, K) is None
    assert split.remainder(4, Array(0, [1024 - 32, 512]), tail, K) is not None


# ---- 3. whole certificates ------------------------------------------------------------------------------------

def _trim(C, kind):
    """The smallest window that moves at most total/2^48 off each end."""
    cut, values = sum(C.values) >> 48, C.values
    lo, below = 0, 0
    while lo < len(values) - 1 and below + values[lo] <= cut:
        below, lo = below + values[lo], lo + 1
    hi, above = len(values) - 1, 0
    while hi > lo and above + values[hi] <= cut:
        above, hi = above + values[hi], hi - 1
    return C.offset + lo, C.offset + hi


def _replay(bases, steps, scales, regrids):
    """Windows of the split chain (the power of T − 1 and one more product) of ``bases`` [(array, kind)]: each the
    union of the bases' trimmed products."""
    coarse = {rg.after: rg for rg in regrids}
    kinds = [k for _, k in bases]
    As = Bs = [b for b, _ in bases]
    out = []
    for j, square in enumerate(list(composition.products(steps - 1)) + [False]):
        Cs = [composition.product(A, A if square else B, k, s) for A, B, k, s in zip(As, Bs, kinds, scales)]
        ends = [_trim(C, k) for C, k in zip(Cs, kinds)]
        w = (min(e[0] for e in ends), max(e[1] for e in ends))
        out.append(list(w))
        As = [composition.window(C, *w, k) for C, k in zip(Cs, kinds)]
        if j in coarse:
            As = [regrid.coarsen(A, k, coarse[j]) for A, k in zip(As, kinds)]
            Bs = [regrid.coarsen(B, k, coarse[j]) for B, k in zip(Bs, kinds)]
    return out


def _kind(cert):
    return accounting if cert["schema"].startswith("accounting") else dpsgd


def _plan(cert):
    kind = _kind(cert)
    p = kind.parse(cert)
    return p, kind._plan(p, cert)


def _split_json(bodies, r, S, shares):
    return {"body": {o: list(b) for o, b in bodies.items()}, "factor": r, "share_bits": S,
            "shares": [[str(b), str(d)] for b, d in shares]}


def _with_split(cert, bodies, r=2, S=64, regrids=()):
    """``cert`` with a split of ``bodies`` {order: (a, b)} and ``regrids`` [(after, factor)] of the power of T − 1,
    the true shares, and windows replayed from the auditor's own single step; resealed."""
    _, plan = _plan(cert)
    stage, (K, K_q, N) = plan["stages"][0], (plan["K"], plan["K_q"], plan["N"])
    rgs, g = [], 1
    for after, factor in regrids:
        rgs.append(Regrid(after, factor, S, tuple(true_shares(N, g, factor, S)), ""))
        g *= factor
    one = masses.single_step(stage, N, K, K_q, names=plan["names"], lower=plan["named"])
    out = copy.deepcopy(cert)
    d = out["result"]["discretisation"]
    for order in plan["names"]:
        s = one[order]
        cut = bodies[order]
        U = split.divide(Array(s.LO, s.upper, s.upper_atom), cut, True)[0]
        d["windows"][order]["upper"]["stages"] = [_replay([(U, UPPER)], stage.steps, (K,), rgs)]
        if d["windows"][order]["lower"] is not None and order in plan["named"]:
            P_ = split.divide(Array(s.LO, s.lower_p), cut, True)[0]
            Q_ = split.divide(Array(s.LO, s.lower_q, s.lower_atom), cut, cut[1] >= s.HI)[0]
            d["windows"][order]["lower"]["stages"] = [_replay([(P_, LOWER_P), (Q_, LOWER_Q)], stage.steps, (K, K_q),
                                                              rgs)]
        elif d["windows"][order]["lower"] is not None:
            d["windows"][order]["lower"]["stages"] = copy.deepcopy(d["windows"][order]["upper"]["stages"])
    d["split"] = _split_json(bodies, r, S, true_shares(N, g, r, S))
    if rgs:
        d["regrids"] = [{"after": rg.after, "factor": rg.factor, "share_bits": S,
                         "shares": [[str(b), str(e)] for b, e in rg.shares]} for rg in rgs]
    return reseal(out)


REMOVE_ADD = {"remove": (-12, 1500), "add": (-1500, 12)}


@pytest.fixture(scope="module")
def with_split():
    return _with_split(_reference(DELTA), REMOVE_ADD)


def test_a_split_keeps_the_claims_of_the_reference(with_split):
    report = verify_certificate(with_split)
    assert report.outcome == "OK", report.as_dict()


def estimated_and_made(p, plan, monkeypatch):
    """(the operand lengths the estimate assumes, those of the products the bounds make, the estimate), product by
    product and chain by chain."""
    estimated, actual = [], []
    field = recipe._field_bits
    monkeypatch.setattr(recipe, "_field_bits", lambda s, a, b: estimated.append((a, b)) or field(s, a, b))
    cost = recipe.estimate_plan(plan, p["total"])
    product = composition._product
    monkeypatch.setattr(composition, "_product", lambda A, B, *rest: actual.append((A.length, B.length)) or
                        product(A, B, *rest))
    recipe.bounds(plan, 96, 0)
    return estimated, actual, cost


def test_the_estimate_bounds_every_product_the_bounds_make(with_split, monkeypatch):
    """The operand lengths the estimate assumes, product by product and chain by chain (the power of T − 1, the
    last product, the cross term), bound those of the arrays actually multiplied."""
    p, plan = _plan(with_split)
    estimated, actual, cost = estimated_and_made(p, plan, monkeypatch)
    assert len(estimated) == len(actual)
    assert all(ea >= aa and eb >= ab for (ea, eb), (aa, ab) in zip(estimated, actual))
    # per order: the upper chain at K, the lower at K and K′ (named orders), each with its cross term
    per_chain = composition.products_in_power(999) + 2
    assert len(actual) == per_chain * (2 + 2 * len(plan["named"])) and cost.work > 0


def test_a_split_with_a_regrid_and_an_accounting_certificate():
    cert = _loosened(_reference(DELTA), Fraction(1, 2 ** 11))
    last = composition.products_in_power(999) - 1
    report = verify_certificate(_with_split(cert, REMOVE_ADD, r=3, regrids=[(last, 2)]))
    assert report.outcome == "OK", report.as_dict()
    acc = _reference(ACCOUNTING, "accounting")
    _, plan = _plan(acc)
    st = plan["stages"][0]
    bodies = {"forward": (st.lo, st.lo + (st.hi - st.lo) // 2), "backward": (-st.hi + (st.hi - st.lo) // 2, -st.lo)}
    report = verify_certificate(_with_split(acc, bodies))
    assert report.outcome == "OK", report.as_dict()


def test_a_body_that_changes_the_answer_is_not_established(with_split):
    """A body ending at a loss of 0.25: the tail's mass m near 2·10^−5 makes B2 about 10^−4, above δ."""
    bad = copy.deepcopy(with_split)
    bad["result"]["discretisation"]["split"]["body"]["remove"] = [-12, 300]
    report = verify_certificate(reseal(bad))
    assert report.outcome == "FAIL"
    assert "/result/epsilon_hi" in {f["pointer"] for f in report.failures}
    assert {f["verdict"] for f in report.failures} == {NOT_ESTABLISHED}


def a_lowered_share_fails_naming_it(cert, which, monkeypatch):
    """The split's first share pair with its ``which`` entry one unit lower FAILs there, before any bound."""
    bad = copy.deepcopy(cert)
    shares = bad["result"]["discretisation"]["split"]["shares"]
    shares[0][which] = str(int(shares[0][which]) - 1)

    def never(*args):
        raise AssertionError("the bounds were computed with an unconfirmed share")
    monkeypatch.setattr(dpsgd, "_pld_bounds", never)
    report = verify_certificate(reseal(bad))
    assert [(f["pointer"], f["verdict"]) for f in report.failures] == [(f"{P}/shares/0/{which}", DISPROVED)]


def test_a_lowered_share_fails_naming_it_and_nothing_is_composed(with_split, monkeypatch):
    a_lowered_share_fails_naming_it(with_split, 0, monkeypatch)


def test_shares_of_the_grid_before_the_regrids_are_refused():
    """The split's shares are a regrid's at the final spacing G/N: those of h (not 2h) after a regrid of 2 fail."""
    N, S = 1180, 64
    rg = Regrid(0, 2, S, tuple(true_shares(N, 1, 2, S)), "/result/discretisation/regrids/0")
    wrong = Regrid(None, 2, S, tuple(true_shares(N, 1, 2, S)), P)
    report = Report("x")
    assert not regrid.check_shares([rg, wrong], N, report)
    assert [f["pointer"] for f in report.failures] == [f"{P}/shares/0/0"]


def test_an_unestablished_remainder_fails_naming_the_split(with_split, monkeypatch):
    """(T − 2)·x > 1 cannot happen under the rounding-excess check (x <= 2^−K·(n + 1) units and 2^K >= 12·T·n);
    forced here, the claims needing the upper bounds are not established and the split is named."""
    monkeypatch.setattr(split, "remainder", lambda *args: None)
    report = verify_certificate(with_split)
    assert report.outcome == "FAIL"
    pointers = {f["pointer"]: f["verdict"] for f in report.failures}
    assert pointers[P] == NOT_ESTABLISHED and pointers["/result/epsilon_hi"] == NOT_ESTABLISHED
    assert sum(1 for f in report.failures if f["pointer"] == P) == 2       # once per order, not per pass


def test_the_remainder_is_far_from_its_limit_on_the_reference(with_split):
    _, plan = _plan(with_split)
    one = masses.single_step(plan["stages"][0], plan["N"], plan["K"], plan["K_q"], names=plan["names"])
    for order in plan["names"]:
        s = one[order]
        x = Fraction(max(0, sum(s.upper) + s.upper_atom - (1 << plan["K"])), 1 << plan["K"])
        assert 998 * x < Fraction(1, 10 ** 6)


# ---- 4. shape ------------------------------------------------------------------------------------------------

def _edited(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad["result"]["discretisation"])
    return bad


BEYOND_SCHEMA = {f"{P}/share_bits", f"{P}/factor"}     # the schema refuses these first


@pytest.mark.parametrize("edit, pointer", [
    (lambda d: d["split"]["body"].update(remove=[5, 4]), f"{P}/body/remove"),
    (lambda d: d["split"]["body"].update(add=[13, 20]), f"{P}/body/add"),
    (lambda d: d["split"]["body"].update(remove=[-99, -13]), f"{P}/body/remove"),
    (lambda d: d["split"].update(shares=d["split"]["shares"] * 2), f"{P}/shares"),
    (lambda d: d["split"].update(factor=3), f"{P}/shares"),
    (lambda d: d["split"].update(shares=[[str(2 ** 64 + 1), "1"]]), f"{P}/shares/0/0"),
    (lambda d: d["split"].update(share_bits=4097), f"{P}/share_bits"),
    (lambda d: d["split"].update(factor=65, shares=[["1", "1"]] * 64), f"{P}/factor"),
    (lambda d: d["windows"]["remove"]["upper"]["stages"][0].pop(), "/result/discretisation/windows/remove/upper"),
    (lambda d: d["windows"]["add"]["upper"]["stages"][0].append([0, 1]), "/result/discretisation/windows/add/upper"),
    (lambda d: d["windows"]["remove"]["lower"]["stages"][0].pop(), "/result/discretisation/windows/remove/lower"),
    (lambda d: d.update(regrids=[{"after": composition.products_in_power(999), "factor": 2, "share_bits": 8,
                                  "shares": [["1", "1"]]}]), "/result/discretisation/regrids/0/after"),
])
def test_misshapen_splits_are_malformed(with_split, edit, pointer):
    bad = _edited(with_split, edit)
    with pytest.raises(Malformed) as exc:
        _plan(bad)
    assert str(exc.value).startswith(pointer), exc.value
    report = verify_certificate(reseal(bad))
    assert report.outcome == "MALFORMED", report.as_dict()
    assert pointer in BEYOND_SCHEMA or pointer in report.error, report.error


def test_the_window_count_is_that_of_the_power_of_t_minus_one_and_one_more(with_split):
    assert len(with_split["result"]["discretisation"]["windows"]["remove"]["upper"]["stages"][0]) == \
        composition.products_in_power(999) + 1 != composition.products_in_power(1000)
    # the last regrid allowed is after the power's last product
    ok = _edited(with_split, lambda d: d.update(regrids=[{"after": composition.products_in_power(999) - 1,
                                                          "factor": 2, "share_bits": 8, "shares": [["1", "1"]]}]))
    assert _plan(ok)[1]["regrids"][0].after == composition.products_in_power(999) - 1


def test_a_split_of_two_stages_or_of_one_step_is_malformed():
    two = _reference("dpsgd-schedule-two-stages-delta1e-6.json")
    d = two["result"]["discretisation"]
    d["split"] = _split_json({"remove": (0, 10), "add": (-10, 0)}, 2, 8, [(1, 1)])
    with pytest.raises(Malformed, match="2 stages"):
        _plan(two)
    stage = [masses.Stage(None, 1, -3, 5, 0, 0)]
    with pytest.raises(Malformed, match="T >= 2"):
        split.read(_split_json({"f": (0, 1), "b": (0, 1)}, 2, 8, [(1, 1)]), stage, ("f", "b"), P)


def test_the_spacing_limit_counts_the_split(with_split):
    """G·r beyond 64·N is UNCHECKED at the split, before any share is checked."""
    from auditor.outcomes import Unchecked
    p, plan = _plan(with_split)
    far = dict(plan, split=plan["split"]._replace(grid=plan["split"].grid._replace(factor=64)),
               regrids=(Regrid(0, 64, 8, (), ""), Regrid(1, 64, 8, (), "")))
    with pytest.raises(Unchecked) as exc:
        recipe.estimate_plan(far, p["total"])
    assert exc.value.pointer == P


def test_a_rounding_excess_beyond_the_bits_names_the_split():
    """Shares of 2^S each make the split's excess alone exceed 2^K: UNCHECKED at p_bits, naming the split's excess
    (the reference's regrids are named too when they take part)."""
    import json
    from pathlib import Path
    cert = json.loads((Path(__file__).resolve().parents[2] / "certificates" / "dpsgd" /
                       "dpsgd-q0_01-s1-t1001-epsilons.json").read_text())
    d = cert["result"]["discretisation"]
    d["split"]["shares"] = [[str(1 << d["split"]["share_bits"])] * 2 for _ in d["split"]["shares"]]
    report = verify_certificate(reseal(cert)).as_dict()
    assert report["outcome"] == "UNCHECKED"
    assert "/result/discretisation/p_bits" in report["unchecked"] and "the split's excess" in report["unchecked"]
