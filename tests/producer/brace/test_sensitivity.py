"""Brute-force local sensitivity of BRACE's query Q_t never exceeds the
certified bracket, on tiny banks, over replacement grids that contain every
gate boundary case (records at distance exactly r from the released and the
clean states, just inside, just outside, duplicates, far away)."""

import itertools

import pytest
from gmpy2 import mpq

from producer.brace.enclosures import exp_neg_bounds
from producer.brace.projection import project_internal
from producer.brace.retrieval import add, phi, squared_distance, squared_norm, sub
from producer.brace.sensitivity import SensitivityBracket, count_envelope, universally_inactive

R2 = mpq(1)  # r = 1, so boundary points are rational
R = (mpq(1), mpq(1))
G = 24

UNIT_DIRECTIONS = [(1, 0), (0, 1), (-1, 0), (0, -1), (mpq(3, 5), mpq(4, 5)), (mpq(-4, 5), mpq(3, 5)),
                   (mpq(-3, 5), mpq(-4, 5)), (mpq(4, 5), mpq(-3, 5))]


def query_at_step(points, history, t, kappa, horizon):
    """Q_t(B; y_<t) by Steps 1–4 with the history fixed (clean path recomputed)."""
    z = history[0]
    for _ in range(t - 1):
        z = phi(points, z, R2)[1]
    z_t = phi(points, z, R2)[1]
    J, a = phi(points, history[t - 1], R2)
    Rv = sub(z_t, a)
    H = 1 if squared_norm(Rv) > mpq(kappa) * horizon * R2 else 0
    target = add(a, Rv) if H else a
    return project_internal(history[t - 1], target, R2, G)[0], len(J), H


def boundary_grid(centres, records):
    """Candidate replacements: every boundary case around each centre."""
    out = set()
    for c in centres:
        for u in UNIT_DIRECTIONS:
            for f in (mpq(1), mpq(99, 100), mpq(101, 100), mpq(1, 2), mpq(2)):
                out.add(tuple(ci + f * ui for ci, ui in zip(c, u)))
        out.add(tuple(c))
    out.update(tuple(p) for p in records)
    out.add((mpq(50), mpq(-50)))
    return sorted(out)


def local_sensitivity_sq(points, history, t, kappa, horizon):
    Q, m, _ = query_at_step(points, history, t, kappa, horizon)
    clean = [history[0]]
    for _ in range(t):
        clean.append(phi(points, clean[-1], R2)[1])
    cand = boundary_grid(list(history[:t]) + clean, points)
    best = mpq(0)
    for j in range(len(points)):
        for x in cand:
            pts = list(points)
            pts[j] = x
            Q2 = query_at_step(pts, history, t, kappa, horizon)[0]
            best = max(best, squared_distance(Q, Q2))
    return best, m


BANKS = [
    [(mpq(0), mpq(0)), (mpq(1), mpq(0)), (mpq(1, 2), mpq(1, 2))],
    [(mpq(0), mpq(0)), (mpq(0), mpq(0)), (mpq(3, 5), mpq(4, 5)), (mpq(2), mpq(0))],
    [(mpq(-1), mpq(0)), (mpq(1), mpq(0)), (mpq(0), mpq(1)), (mpq(0), mpq(-1))],
]
HISTORIES = [
    [(mpq(0), mpq(0)), (mpq(1, 5), mpq(0)), (mpq(1, 2), mpq(-1, 4))],
    [(mpq(1, 2), mpq(0)), (mpq(0), mpq(0)), (mpq(1), mpq(1, 2))],
]


@pytest.mark.parametrize("bank", BANKS)
@pytest.mark.parametrize("history", HISTORIES)
def test_local_sensitivity_below_bracket_non_activation(bank, history):
    kappa, horizon = mpq(5), 3  # (2t+1)^2 <= 15 for t = 1: non-activation at t = 1
    gamma = mpq(1, 200)
    E = exp_neg_bounds(gamma)
    for t in (1,):
        assert universally_inactive(t, kappa, horizon)
        ls2, m = local_sensitivity_sq(bank, history, t, kappa, horizon)
        br = SensitivityBracket.from_count(m, len(bank), R, E, gamma)
        assert ls2 <= br.hi ** 2
        assert ls2 <= (2 * R[1] / max(1, m)) ** 2  # the paper's B.1 bound, which L_t is
        assert br.lo <= br.hi


@pytest.mark.parametrize("bank", BANKS)
def test_local_sensitivity_below_fallback(bank):
    history = HISTORIES[0]
    kappa, horizon = mpq(1, 100), 3  # corrections may activate: fallback rule
    for t in (1, 2, 3):
        assert not universally_inactive(t, kappa, horizon)
        ls2, _ = local_sensitivity_sq(bank, history, t, kappa, horizon)
        br = SensitivityBracket.fallback(len(bank), R)
        assert ls2 <= br.hi ** 2
        assert br.gamma_prime == 0


def test_brute_force_envelope_matches_count_formula():
    """sup over banks within Hamming distance k of 2r/max(1, |I(B, y)|) is
    2r/max(1, m-k): enumerate all banks from a boundary grid (n = 3)."""
    y = (mpq(0), mpq(0))
    bank = [(mpq(0), mpq(0)), (mpq(1), mpq(0)), (mpq(3, 5), mpq(-4, 5))]
    cand = boundary_grid([y], bank)[:14] + [(mpq(50), mpq(-50))]
    e = mpq(9, 10)
    n = len(bank)
    best = 2 * R[1] / n
    for k in range(n + 1):
        sup = mpq(0)
        for js in itertools.combinations(range(n), k):
            for xs in itertools.product(cand, repeat=k):
                pts = list(bank)
                for j, x in zip(js, xs):
                    pts[j] = x
                sup = max(sup, 2 * R[1] / max(1, len(phi(pts, y, R2)[0])))
        best = max(best, e ** k * sup)
    m = len(phi(bank, y, R2)[0])
    assert count_envelope(m, n, R[1], e)[0] == best


@pytest.mark.parametrize("m", [0, 1, 2, 5, 17, 40])
def test_scale_is_smooth_between_neighbour_counts(m):
    """hi(m) <= e^gamma' hi(m +- 1): checked exactly as hi(m) Ē <= hi(m') (1 + 2^-p)."""
    n, gamma = 40, mpq(1, 50)
    E = exp_neg_bounds(gamma)
    b = SensitivityBracket.from_count(m, n, R, E, gamma)
    for m2 in (m - 1, m + 1):
        if 0 <= m2 <= n:
            b2 = SensitivityBracket.from_count(m2, n, R, E, gamma)
            assert b.hi * E[1] <= b2.hi * (1 + mpq(1, 2 ** 96))
            assert b.gamma_prime >= gamma


def test_envelope_dominates_plain_count_and_floor():
    n = 30
    E = exp_neg_bounds(mpq(1, 4))
    for m in range(n + 1):
        b = SensitivityBracket.from_count(m, n, R, E, mpq(1, 4))
        assert b.hi >= 2 * R[1] / max(1, m)
        assert b.lo >= 0 and b.hi >= 2 * R[1] / n
        assert b.hi <= 2 * R[1] * (1 + mpq(1, 2 ** 90))


def _activations(points, history, t, kappa, horizon):
    """H_1..H_t of a bank at a fixed history (clean path recomputed)."""
    z = history[0]
    hs = []
    for s in range(1, t + 1):
        z_s = phi(points, z, R2)[1]
        a = phi(points, history[s - 1], R2)[1]
        hs.append(1 if squared_norm(sub(z_s, a)) > mpq(kappa) * horizon * R2 else 0)
        z = z_s
    return hs


@pytest.mark.parametrize("bank", BANKS)
def test_history_non_activation_is_sound(bank):
    """kappa T = 20: universal non-activation stops at t = 1, the history test
    certifies t = 2 for a history that stayed near q.  Every enumerated
    neighbour then has H_1 = H_2 = 0 and the brute-force sensitivity is below
    the envelope bracket."""
    from producer.brace.sensitivity import history_inactive
    kappa, horizon, t = mpq(20, 3), 3, 2
    q = (mpq(0), mpq(0))
    history = [q, (mpq(1, 5), mpq(1, 10))]
    assert not universally_inactive(t, kappa, horizon)
    assert history_inactive(history, q, R2, kappa, horizon)
    cand = boundary_grid(history, bank)
    for j in range(len(bank)):
        for x in cand:
            pts = list(bank)
            pts[j] = x
            assert _activations(pts, history, t, kappa, horizon) == [0, 0]
    gamma = mpq(1, 200)
    ls2, m = local_sensitivity_sq(bank, history, t, kappa, horizon)
    br = SensitivityBracket.from_count(m, len(bank), R, exp_neg_bounds(gamma), gamma)
    assert ls2 <= br.hi ** 2


def test_history_condition_exact_boundary():
    """(s+1) r + ||y - q|| = sqrt(kT) r exactly is accepted, a hair more is not."""
    from producer.brace.sensitivity import history_inactive
    q = (mpq(0), mpq(0))
    # s = 2: 3 + ||y_1|| <= sqrt(16) = 4 with r = 1: ||y_1|| = 1 is the boundary
    assert history_inactive([q, (mpq(3, 5), mpq(4, 5))], q, R2, mpq(16, 3), 3)
    assert not history_inactive([q, (mpq(3, 5), mpq(4, 5) + mpq(1, 10 ** 9))], q, R2, mpq(16, 3), 3)
    # universal implies history: ||y_{s-1} - q|| <= s r
    assert history_inactive([q, (mpq(1), mpq(0))], q, R2, mpq(25, 3), 3)
