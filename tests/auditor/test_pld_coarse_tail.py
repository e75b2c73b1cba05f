"""The split's coarse tail (auditor/pld/split.py, docs/dpsgd.md §6, The tail on a coarse grid): the two parts'
single steps against the whole one, the bounds against brute force on tiny arrays, against the unsplit recipe and
against the Gaussian's closed form, the shape, whole certificates with a coarse tail inserted (windows replayed
here, resealed; the producer's code is not read) and the work estimate against the work done."""

import copy
import random
from fractions import Fraction
from math import comb

import mpmath
import pytest

from auditor.api import verify_certificate
from auditor.certificate import Malformed
from auditor.checks import accounting
from auditor.claims import outward
from auditor.pld import composition, masses, pairs, recipe, regrid, split
from auditor.pld.composition import LOWER_P, LOWER_Q, UPPER, Array
from auditor.pld.regrid import Regrid
from auditor.report import DISPROVED
from tests.auditor.dpsgd_reference import delta_gaussian
from tests.auditor.test_pld_regrid import DELTA, _loosened, _reference, true_shares
from tests.auditor.test_pld_split import (ACCOUNTING, BEYOND_SCHEMA, _edited, _exact, _law, _mp, _plan, _split_json,
                                          _trim, _true_lower, _true_upper, _windows, a_lowered_share_fails_naming_it,
                                          estimated_and_made, random_coarsenings)
from tests.reseal import reseal

P = "/result/discretisation/split"
D = "/result/discretisation"
ORDERS = ("remove", "add")


# ---- 1. the two parts' single steps -----------------------------------------------------------------------------

def _cut(c, rho, names=ORDERS, lo=None, r=2, S=8, shares=((1, 1),)):
    """A coarse-tail split at c with ρ (the split's own factor r; its shares matter only where they are checked)."""
    body = {names[0]: (lo, c), names[1]: (-c, -lo)} if lo is not None else {}
    return split.Split(body, Regrid(None, r, S, tuple(shares), P), P, (c, rho))


@pytest.mark.parametrize("q, sigma, N, lo, hi, c, rho", [
    (Fraction(1, 20), 1, 24, -2, 96, 24, 2),
    (Fraction(1), 1, 12, -24, 24, 6, 3),          # q = 1: both tails hold mass
    (Fraction(1), 2, 12, -36, 36, -6, 6),         # c below 0
])
def test_the_parts_hold_every_outcome_once(q, sigma, N, lo, hi, c, rho):
    """The body part [lo, c] on N and the tail part [c/ρ, hi/ρ] on N/ρ hold the whole single step's masses once:
    their totals add up to the whole's (each to within its rounding), the forward atoms (P and X of ℓ >= hi/N) are
    the tail's, the backward ones (of ℓ < lo/N) the body's, and the body's entries below c are the whole's."""
    K, K_q = 64, 80
    stage = masses.Stage(pairs.SampledGaussian(q, sigma), 3, lo, hi)
    whole = masses.single_step(stage, N, K, K_q, names=ORDERS, lower=ORDERS)
    (body_stage, N_b, kept_b), (tail_stage, N_t, kept_t) = split.parts(_cut(c, rho), stage, N)
    assert (body_stage.lo, body_stage.hi, N_b, tail_stage.lo, tail_stage.hi, N_t) == (lo, c, N, c // rho, hi // rho,
                                                                                      N // rho)
    body = masses.single_step(body_stage, N, K, K_q, names=ORDERS, lower=ORDERS, tails=kept_b)
    tail = masses.single_step(tail_stage, N_t, K, K_q, names=ORDERS, lower=ORDERS, tails=kept_t)
    slack = (hi - lo) + 4

    def near(a, b, units):
        assert abs(a - b) <= units, (a, b)

    for order, (own, none) in zip(ORDERS, ((tail, body), (body, tail))):
        w, o, z = whole[order], own[order], none[order]
        assert z.upper_atom == 0 and z.lower_atom == 0           # the other part's outcomes are left out
        near(o.upper_atom, w.upper_atom, 1)
        near(o.lower_atom, w.lower_atom, 1)
        b, t = body[order], tail[order]
        near(sum(b.upper) + b.upper_atom + sum(t.upper) + t.upper_atom, sum(w.upper) + w.upper_atom, slack)
        near(sum(b.lower_p) + sum(t.lower_p), sum(w.lower_p), slack)
        near(sum(b.lower_q) + b.lower_atom + sum(t.lower_q) + t.lower_atom, sum(w.lower_q) + w.lower_atom, slack)
    b, w = body[ORDERS[0]], whole[ORDERS[0]]
    for k in range(lo, c):          # the body's own buckets: the whole's (at a slightly different precision)
        for name in ("upper", "lower_p", "lower_q"):
            near(getattr(b, name)[k - lo], getattr(w, name)[k - lo], 1)


def test_the_parts_name_the_tails_they_leave_out():
    """Each part's single step drops exactly the tail the other part holds (masses.single_step's ``tails``)."""
    stage = masses.Stage(pairs.SampledGaussian(1, 1), 3, -24, 24)
    keep = masses.single_step(stage, 12, 64, 80, names=ORDERS, lower=ORDERS)
    high = masses.single_step(stage, 12, 64, 80, names=ORDERS, lower=ORDERS, tails=(True, False))
    low = masses.single_step(stage, 12, 64, 80, names=ORDERS, lower=ORDERS, tails=(False, True))
    assert high["remove"].upper_atom == high["remove"].lower_atom == 0 < keep["remove"].upper_atom
    assert low["add"].upper_atom == low["add"].lower_atom == 0 < keep["add"].upper_atom
    assert low["remove"].upper[0] < keep["remove"].upper[0]          # the low tail's P sits at LO
    assert low["remove"].lower_q[0] < keep["remove"].lower_q[0]      # ... and its Q
    assert high["remove"].lower_p[-1] == 0 < keep["remove"].lower_p[-1]


# ---- 2. the bounds against brute force ------------------------------------------------------------------------

def _on_fine_grid(A, rho):
    """A coarse array (index j: loss j·ρ/N) on the fine grid (index jρ), zeros between."""
    values = [0] * ((len(A.values) - 1) * rho + 1)
    values[::rho] = A.values
    return Array(A.offset * rho, values, A.atom)


def _sum(A, B):
    """A + B entry by entry (atoms added)."""
    lo, hi = min(A.offset, B.offset), max(A.offset + len(A.values), B.offset + len(B.values))
    values = [0] * (hi - lo)
    for X in (A, B):
        for t, v in enumerate(X.values):
            values[X.offset - lo + t] += v
    return Array(lo, values, A.atom + B.atom)


def _lower_part(rng, n, total_p, total_q):
    """(P_L, Q_L, X) of n entries (Q_L's last 0), and Q with X on the last index (the brute force's)."""
    p, q = _law(rng, n, total_p, 0), _law(rng, n, total_q, n)
    return p, q[:-1] + [0], q[-1], q


@pytest.mark.parametrize("seed", range(30))
def test_the_coarse_tail_bounds_hold_the_brute_force_values(seed):
    """Tiny parts (T = 2, 3, 5; a body of up to 5 fine indices [LO, c], a tail of 2 or 3 coarse ones from c/ρ, both
    with atoms; a regrid now and then and a split factor of 2 or 3 with the true shares; windows trimmed now and
    then): F(W0) >= F of the exact body^T, F(W1) >= F of the exact body^(T−1)·tail with the tail's coarse index j at
    the loss j·ρ/N, B2 >= the exact mass of the patterns with two tail steps or more (the tail's atom in m), so the
    bound >= F of the exact (body + tail)^T; L(W0), L(W1) at most the exact hockey sticks of their parts."""
    rng = random.Random(1000 + seed)
    steps = (2, 3, 5)[seed % 3]
    N, K, K_q, S = 12, 24, 26, 40
    regrids, G, r = random_coarsenings(rng, steps, N, S)
    rho = G * r
    c = rng.randint(-1, 1) * rho
    n_b, n_t = rng.randint(2, 5 if steps < 5 else 4), rng.randint(2, 3 if steps < 5 else 2)
    LO = c - n_b + 1
    # masses: the tail's a sizeable share now and then (B2 then matters), its atom up to all of it
    tail_mass = rng.randint(1, (1 << K) // rng.choice((4, 64)))
    tail_atom = rng.randint(1, tail_mass)
    body_atom = rng.randint(0, 9)
    body_up = _law(rng, n_b, (1 << K) - tail_mass - body_atom, rng.randint(0, n_b))
    tail_up = _law(rng, n_t, tail_mass - tail_atom, rng.randint(0, n_t))
    tail_p = rng.randint(1, (1 << K) // 8)
    bp, bq, bX, bq_brute = _lower_part(rng, n_b, (1 << K) - tail_p - 3, (1 << K_q) - (1 << K_q) // 8)
    tp, tq, tX, tq_brute = _lower_part(rng, n_t, tail_p, (1 << K_q) // 8)
    body_one = masses.SingleStep("f", LO, c, body_up, body_atom, bp, bq, bX)
    tail_one = masses.SingleStep("f", c // rho, c // rho + n_t - 1, tail_up, tail_atom, tp, tq, tX)
    cut = split.Split({"f": (LO, c)}, Regrid(None, r, S, tuple(true_shares(N, G, r, S)), P), P, (c, rho))
    U_body, U_tail = Array(LO, body_up, body_atom), Array(c // rho, tail_up, tail_atom)
    chains = {"upper": ([_windows([(U_body, UPPER)], steps, (K,), regrids, rng)], []),
              "lower": ([_windows([(Array(LO, bp), LOWER_P), (Array(LO, bq, bX), LOWER_Q)], steps, (K, K_q), regrids,
                                  rng)], [])}
    up, low = split.bounds([body_one, tail_one], steps, cut, chains, tuple(regrids), (K, K_q), N, 80)
    b, m = Fraction(sum(body_up) + body_atom, 1 << K), Fraction(tail_mass, 1 << K)
    assert up.rest >= sum(comb(steps, k) * m ** k * b ** (steps - k) for k in range(2, steps + 1))
    fine_tail = _on_fine_grid(U_tail, rho)
    for epsilon in (Fraction(0), Fraction(1, 3), Fraction(3, 4), Fraction(2)):
        with mpmath.workdps(60):
            tiny = mpmath.mpf(10) ** -50
            assert _mp(up.body.bound(epsilon)) >= _true_upper(_exact([U_body] * steps), K * steps, N, epsilon) - tiny
            cross = _exact([U_body] * (steps - 1) + [fine_tail])
            assert _mp(up.cross.bound(epsilon)) >= _true_upper(cross, K * steps, N, epsilon) - tiny
            whole = _exact([_sum(U_body, fine_tail)] * steps)
            assert _mp(up.bound(epsilon)) >= _true_upper(whole, K * steps, N, epsilon) - tiny
        lam = Fraction(mpmath.nstr(mpmath.exp(_mp(epsilon)), 20))
        none, first = _true_lower(bp + tp, bq_brute + tq_brute, set(range(n_b, n_b + n_t)), steps, K, K_q, lam)
        assert low.body.bound(lam) <= none
        assert low.cross.bound(lam) <= first
        assert low.bound(lam) <= none + steps * first


def test_the_tail_is_not_coarsened_again():
    """One step of the tail's coarse index is one step of the cross term's: the power of T − 1 = 1 step of a body at
    0 times a tail atom at coarse index 2 (the loss 2ρ/N) is an atom at 2 on the grid ρ/N."""
    N, K, S, r = 12, 16, 40, 3
    one = masses.SingleStep("f", 0, 0, [1 << K], 0, None, None, None)
    tail = masses.SingleStep("f", 0, 2, [0, 0, 1 << 4], 0, None, None, None)
    cut = split.Split({"f": (0, 0)}, Regrid(None, r, S, tuple(true_shares(N, 1, r, S)), P), P, (0, r))
    chains = {"upper": ([[(0, 0)]], []), "lower": None}
    up, _ = split.bounds([one, tail], 2, cut, chains, (), (K, K), N, 80)
    assert (up.cross.offset, up.cross.suffix[:3]) == (0, [16, 16, 16])
    # F(W1) at ε just below the atom's loss 2·3/12 = 1/2 is positive, at 1/2 it is 0
    assert up.cross.bound(Fraction(1, 2) - Fraction(1, 10 ** 6)) > 0 == up.cross.bound(Fraction(1, 2))


# ---- 3. a sampled Gaussian: against the unsplit recipe and the closed form --------------------------------------

def _replayed(bases, squares, scales, regrids):
    """Windows of one chain of ``bases`` [(array, kind)] through the products ``squares`` (True: a squaring), each
    the union of the bases' products trimmed by 2^−48 of their mass at each end, the regrids after their product."""
    coarse = {rg.after: rg for rg in regrids}
    kinds = [k for _, k in bases]
    As = Bs = [b for b, _ in bases]
    out = []
    for j, square in enumerate(squares):
        Cs = [composition.product(A, A if square else B, k, s) for A, B, k, s in zip(As, Bs, kinds, scales)]
        ends = [_trim(C, k) for C, k in zip(Cs, kinds)]
        w = (min(e[0] for e in ends), max(e[1] for e in ends))
        out.append(w)
        As = [composition.window(C, *w, k) for C, k in zip(Cs, kinds)]
        if j in coarse:
            As = [regrid.coarsen(A, k, coarse[j]) for A, k in zip(As, kinds)]
            Bs = [regrid.coarsen(B, k, coarse[j]) for B, k in zip(Bs, kinds)]
    return out


def _chains(one, squares, scales, regrids):
    """{"upper", "lower"} chains (a plan's) of one order's single step ``one``, windows replayed; no lower chain
    without lower arrays."""
    U = Array(one.LO, one.upper, one.upper_atom)
    if one.lower_p is None:
        return {"upper": ([_replayed([(U, UPPER)], squares, scales[:1], regrids)], []), "lower": None}
    lower = [(Array(one.LO, one.lower_p), LOWER_P), (Array(one.LO, one.lower_q, one.lower_atom), LOWER_Q)]
    return {"upper": ([_replayed([(U, UPPER)], squares, scales[:1], regrids)], []),
            "lower": ([_replayed(lower, squares, scales, regrids)], [])}


def _gaussian_plans(q, sigma, steps, N, lo, hi, c, r, regrids=()):
    """(the unsplit recipe, the coarse-tail recipe) of one stage, plan dicts as :func:`recipe.read_plan` makes
    them, windows replayed; ``regrids`` [(after, factor)] of the coarse tail's power of T − 1."""
    K, K_q, S = 64, 80, 64
    stage = masses.Stage(pairs.SampledGaussian(q, sigma), steps, lo, hi)
    rgs, g = [], 1
    for after, factor in regrids:
        rgs.append(Regrid(after, factor, S, tuple(true_shares(N, g, factor, S)), ""))
        g *= factor
    cut = _cut(c, g * r, lo=lo, r=r, S=S, shares=true_shares(N, g, r, S))
    whole = masses.single_step(stage, N, K, K_q, names=ORDERS, lower=ORDERS)
    body = masses.single_step(masses.Stage(stage.pair, steps, lo, c), N, K, K_q, names=ORDERS, lower=ORDERS,
                              tails=(True, False))
    base = {"N": N, "K": K, "K_q": K_q, "stages": [stage], "named": set(ORDERS), "names": ORDERS}
    unsplit = dict(base, regrids=(), split=None,
                   chains={o: _chains(whole[o], list(composition.products(steps)), (K, K_q), ()) for o in ORDERS})
    squares = list(composition.products(steps - 1)) + [False]
    coarse = dict(base, regrids=tuple(rgs), split=cut,
                  chains={o: _chains(body[o], squares, (K, K_q), rgs) for o in ORDERS})
    return unsplit, coarse


def _ends(plan, epsilon):
    """(max over the orders of F(ε), max over the orders of L at a rational λ >= e^ε)."""
    found = recipe.bounds(plan, 96, 0)
    lam = Fraction(mpmath.nstr(mpmath.exp(_mp(epsilon)), 30)) + Fraction(1, 10 ** 25)
    return (max(found["upper"][o].bound(epsilon) for o in ORDERS),
            max(found["lower"][o].bound(lam) for o in ORDERS))


EPSILONS = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2))


@pytest.mark.parametrize("steps", range(3, 10))
def test_coarse_tail_bounds_and_the_unsplit_ones_bracket_each_other(steps):
    """q = 1/20, σ = 1 on N = 24 (a loss from −2/24 to 5, the tail from 2): each recipe's lower bound is at most the
    other's upper one, and the coarse tail costs little width: its upper bound within 2 % of the unsplit one, 20 %
    with a regrid after the first product (on this coarse grid, most of the difference)."""
    regrids = [(0, 2)] if steps >= 5 else []
    unsplit, coarse = _gaussian_plans(Fraction(1, 20), 1, steps, 24, -2, 120, 48, 3 if steps % 2 else 2, regrids)
    for epsilon in EPSILONS:
        (F_u, L_u), (F_c, L_c) = _ends(unsplit, epsilon), _ends(coarse, epsilon)
        assert L_c <= F_u and L_u <= F_c, (epsilon, F_u, L_u, F_c, L_c)
        assert 0 < L_c and F_c <= F_u * (Fraction(6, 5) if regrids else Fraction(51, 50)), (epsilon, F_u, F_c)


@pytest.mark.parametrize("steps", range(3, 10))
def test_coarse_tail_bounds_hold_the_gaussian_closed_form(steps):
    """q = 1 (both tails hold mass), σ = 1 on N = 12 over [−10, 10] with a coarse tail from the loss 4: upper >=
    δ(ε) of the Gaussian with μ² = T >= lower (mpmath at 50 digits)."""
    regrids = [(0, 2)] if steps >= 5 else []
    _, coarse = _gaussian_plans(Fraction(1), 1, steps, 12, -120, 120, 48, 2, regrids)
    for epsilon in EPSILONS:
        F, L = _ends(coarse, epsilon)
        exact = delta_gaussian(steps, epsilon)
        assert _mp(L) <= exact <= _mp(F), (epsilon, F, exact, L)
        assert F - L < Fraction(1, 20), (epsilon, F, L)


# ---- 4. whole certificates ------------------------------------------------------------------------------------

def _with_coarse_tail(cert, c, r=2, S=64, regrids=(), hi=None):
    """``cert`` (one stage) with a coarse tail from c (``hi`` the range's new top, if given): the forward body
    [lo, c], the backward [−c, −lo], a split of factor r after ``regrids`` [(after, factor)] of the power of T − 1,
    the true shares, and windows replayed from the auditor's own body part; resealed."""
    out = copy.deepcopy(cert)
    d = out["result"]["discretisation"]
    if hi is not None:
        d["ranges"][0][1] = hi
    _, plan = _plan(out)
    stage, names, (K, K_q, N) = plan["stages"][0], plan["names"], (plan["K"], plan["K_q"], plan["N"])
    rgs, g = [], 1
    for after, factor in regrids:
        rgs.append(Regrid(after, factor, S, tuple(true_shares(N, g, factor, S)), ""))
        g *= factor
    body_stage = masses.Stage(stage.pair, stage.steps, stage.lo, c, stage.guard, stage.parts)
    body = masses.single_step(body_stage, N, K, K_q, names=names, lower=plan["named"], tails=(True, False))
    squares = list(composition.products(stage.steps - 1)) + [False]
    for order in names:
        chains = _chains(body[order], squares, (K, K_q), rgs)
        d["windows"][order]["upper"]["stages"] = [[list(w) for w in chains["upper"][0][0]]]
        if d["windows"][order]["lower"] is not None:       # a lower chain no claim names: the upper's windows
            windows = (chains["lower"] or chains["upper"])[0][0]
            d["windows"][order]["lower"]["stages"] = [[list(w) for w in windows]]
    bodies = {names[0]: (stage.lo, c), names[1]: (-c, -stage.lo)}
    d["split"] = dict(_split_json(bodies, r, S, true_shares(N, g, r, S)), coarse_tail=True)
    if rgs:
        d["regrids"] = [{"after": rg.after, "factor": rg.factor, "share_bits": S,
                         "shares": [[str(b), str(e)] for b, e in rg.shares]} for rg in rgs]
    return reseal(out)


@pytest.fixture(scope="module")
def coarse():
    """The reference q = 1/100, σ = 1, T = 1000 (N = 1180, [−12, 3990]) with a coarse tail from the loss 1.27
    (c = 1500) on the grid 2/N."""
    return _with_coarse_tail(_reference(DELTA), 1500)


def test_a_coarse_tail_keeps_the_claims_of_the_reference(coarse):
    report = verify_certificate(coarse)
    assert report.outcome == "OK", report.as_dict()


def test_a_coarse_tail_with_a_regrid_and_an_accounting_certificate():
    """ρ = G·r = 2·5 (hi raised to 4000, a multiple of 10); and an accounting/1 reference (N = 1350) with ρ = 2."""
    cert = _loosened(_reference(DELTA), Fraction(1, 2 ** 11))
    last = composition.products_in_power(999) - 1
    report = verify_certificate(_with_coarse_tail(cert, 1500, r=5, regrids=[(last, 2)], hi=4000))
    assert report.outcome == "OK", report.as_dict()
    report = verify_certificate(_with_coarse_tail(_reference(ACCOUNTING, "accounting"), 1800))
    assert report.outcome == "OK", report.as_dict()


def test_a_tightened_claim_fails(coarse):
    """ε_hi lowered to ε_lo: δ(ε_lo) > δ is proved, so δ(ε_hi) <= δ is disproved."""
    bad = copy.deepcopy(coarse)
    res = bad["result"]
    res["epsilon_hi"], res["epsilon_hi_display"] = res["epsilon_lo"], outward(Fraction(res["epsilon_lo"]), 10)[1]
    report = verify_certificate(reseal(bad))
    assert report.outcome == "FAIL"
    assert {(f["pointer"], f["verdict"]) for f in report.failures} == {("/result/epsilon_hi", DISPROVED)}


def test_a_lowered_share_fails_naming_it_and_nothing_is_composed(coarse, monkeypatch):
    a_lowered_share_fails_naming_it(coarse, 1, monkeypatch)


# ---- 5. shape -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edit, pointer", [
    (lambda d: d["split"].update(coarse_tail=False), f"{P}/coarse_tail"),
    (lambda d: d["split"].update(coarse_tail=1), f"{P}/coarse_tail"),
    (lambda d: d["split"]["body"].update(remove=[-11, 1500]), f"{P}/body/remove"),        # not from lo
    (lambda d: d["split"]["body"].update(remove=[-12, -12], add=[12, 12]), f"{P}/body/remove"),      # c = lo
    (lambda d: d["split"]["body"].update(remove=[-12, 3990], add=[-3990, 12]), f"{P}/body/remove"),  # c = hi
    (lambda d: d["split"]["body"].update(add=[-1500, 11]), f"{P}/body/add"),               # not [−c, −lo]
    (lambda d: d["split"]["body"].update(add=[-1498, 12]), f"{P}/body/add"),
    (lambda d: d["split"]["body"].update(remove=[-12, 1501], add=[-1501, 12]), f"{P}/body/remove/1"),  # ρ ∤ c
    (lambda d: d["split"].update(factor=3, shares=[["1", "1"]] * 2), f"{D}/grid"),           # 3 ∤ N = 1180
    (lambda d: d["ranges"][0].__setitem__(1, 3991), f"{D}/ranges/0/1"),                    # 2 ∤ hi
])
def test_misshapen_coarse_tails_are_malformed(coarse, edit, pointer):
    bad = _edited(coarse, edit)
    with pytest.raises(Malformed) as exc:
        _plan(bad)
    assert str(exc.value).startswith(pointer), exc.value
    assert "\n" not in str(exc.value)
    report = verify_certificate(reseal(bad))
    assert report.outcome == "MALFORMED", report.as_dict()
    refused_by_the_schema = not isinstance(bad["result"]["discretisation"]["split"]["coarse_tail"], bool)
    assert pointer in BEYOND_SCHEMA or refused_by_the_schema or pointer in report.error, report.error


def test_a_coarse_tail_of_a_symmetrised_stage_is_malformed():
    """The pairs sampled without replacement need the loss level 0 in every range: the tail part [c/ρ, hi/ρ] with
    c > 0 does not hold it."""
    cert = _reference("accounting-replace-without-replacement-gaussian-m256-n60000-s1_1-x1000-delta1e-5.json",
                      "accounting")
    d = cert["result"]["discretisation"]
    need = composition.products_in_power(999) + 1
    for order in ("forward", "backward"):
        for side in ("upper", "lower"):
            if d["windows"][order][side] is not None:
                d["windows"][order][side]["stages"] = [[[-10, 10]] * need]
    d["grid"], d["ranges"][0][1] = 600, 6050        # ρ = 2 divides N and hi
    d["split"] = dict(_split_json({"forward": (-6049, 10), "backward": (-10, 6049)}, 2, 8, [(1, 1)]),
                      coarse_tail=True)
    with pytest.raises(Malformed, match=f"^{P}/coarse_tail: .*must both hold the loss level 0"):
        accounting._plan(accounting.parse(cert), cert)


# ---- 6. the work estimate -------------------------------------------------------------------------------------

def test_the_estimate_bounds_every_product_the_bounds_make(coarse, monkeypatch):
    """The operand lengths the estimate assumes, product by product and chain by chain (the power of T − 1, the
    last product, the cross term with the tail part as it is), bound those of the arrays actually multiplied."""
    p, plan = _plan(coarse)
    estimated, actual, cost = estimated_and_made(p, plan, monkeypatch)
    assert len(estimated) == len(actual)
    assert all(ea >= aa and eb >= ab for (ea, eb), (aa, ab) in zip(estimated, actual))
    per_chain = composition.products_in_power(999) + 2
    assert len(actual) == per_chain * (2 + 2 * len(plan["named"])) and cost.work > 0
    # the cross term's tail is the tail part whole: (hi − c)/ρ + 1 entries, as estimated
    assert {b for (_, b) in estimated[per_chain - 1::per_chain]} == {(3990 - 1500) // 2 + 1}


def test_the_estimate_counts_the_masses_of_the_two_parts(coarse, monkeypatch):
    """The masses estimated are those computed: the body part [lo, c] on N and the tail part [c/ρ, hi/ρ] on N/ρ, at
    the working precision of each part, and their buckets only; far fewer than the plain split's."""
    p, plan = _plan(coarse)
    counted, made = [], []
    cls = pairs.SampledGaussian
    mass_work, bucket_masses = cls.mass_work, cls.bucket_masses
    monkeypatch.setattr(cls, "mass_work", lambda self, n, W, parts: counted.append((n, W)) or
                        mass_work(self, n, W, parts))
    monkeypatch.setattr(cls, "bucket_masses", lambda self, N, lo, hi, W, at: made.append((N, lo, hi, W)) or
                        bucket_masses(self, N, lo, hi, W, at))
    cost = recipe.estimate_plan(plan, p["total"])
    recipe.bounds(plan, 96, 0)
    assert [(N, lo, hi) for N, lo, hi, _ in made] == [(1180, -12, 1500), (590, 750, 1995)]
    assert counted == [(hi - lo + 1, W) for _, lo, hi, W in made]
    plain = dict(plan, split=plan["split"]._replace(coarse=None))
    counted.clear()
    plain_cost = recipe.estimate_plan(plain, p["total"])
    assert counted == [(3990 + 12 + 1, counted[0][1])] and plain_cost.work > cost.work
