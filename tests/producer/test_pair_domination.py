"""Numerical checks of the dominating-pair theorems of the accounting/1 kind.

A. Laplace noise on several coordinates (docs/mechanisms/laplace.md): for a shift c with
   ||c||_1 <= 1 the product pair (L(c_1, b) x L(c_2, b), L(0, b) x L(0, b)) has, at every
   alpha >= 0 and in both orders, a hockey-stick divergence at most that of the one-coordinate
   pair (L(1, b), L(0, b)).
C. Discrete Laplace noise on several integer coordinates (docs/mechanisms/discrete.md): for
   integer shifts c_1, ..., c_k >= 1, the product pair of the (optionally Poisson-sampled)
   shifts is dominated by the single shift c_1 + ... + c_k, at every alpha, in both orders.
B. The replace-one Poisson-subsampled Gaussian (docs/mechanisms/poisson-subsampling.md): for
   contributions v, v' in the unit ball of R^d, the pair ((1 - q)N(0, s^2 I) + qN(v, s^2 I),
   (1 - q)N(0, s^2 I) + qN(v', s^2 I)) is dominated by the antipodal pair v' = -v, |v| = 1.
D. The replace-one Poisson-subsampled Laplace (the same page), on one and two coordinates.
E. The replace-one Poisson-subsampled discrete Laplace and discrete Gaussian (docs/mechanisms/discrete.md), on one
   integer coordinate: contributions v, v' in [-s, s] are dominated by v = s, v' = -s.

The pages prove them; these tests recompute the divergences with mpmath by routes that do not
use the proofs (quadrature of the exact laws), so a false theorem would fail them. Each family
also has a check that the comparison has teeth: a pair outside the hypothesis beats the bound.
"""

import itertools

import pytest
from mpmath import mp, mpf

DPS = 30
# relative slack for quadrature error; every divergence compared here is computed to ~20 digits
REL = mpf(10) ** -12
TINY = mpf(10) ** -25


def _at_most(value, bound):
    return value <= bound * (1 + REL) + TINY


# ---------------------------------------------------------------- A. Laplace, several coordinates


def _laplace_hs(c, alpha):
    """H_alpha(L(c, 1) || L(0, 1)) for c >= 0, in closed form (the same for the reversed order)."""
    if c == 0:
        return max(1 - alpha, mpf(0))
    if alpha == 0:
        return mpf(1)
    lam = mp.log(alpha)
    if lam >= c:
        return mpf(0)
    if lam <= -c:
        return 1 - alpha
    return 1 - mp.exp((lam - c) / 2)


def _laplace_hs_quad(c, alpha, reverse=False):
    """The same divergence as the integral of (p - alpha*q)_+ over the line, with no closed form."""
    def p(x):
        return mp.exp(-abs(x - c)) / 2

    def q(x):
        return mp.exp(-abs(x)) / 2

    first, second = (q, p) if reverse else (p, q)
    cuts = [-mp.inf, mpf(0), c, mp.inf]
    if alpha > 0 and -c < mp.log(alpha) < c:
        # the kink of the integrand: the one point where p = alpha*q (or q = alpha*p)
        lam = mp.log(alpha)
        cuts.insert(2, (c - lam) / 2 if reverse else (c + lam) / 2)
    return mp.quad(lambda x: max(first(x) - alpha * second(x), mpf(0)), cuts)


def _laplace_product_hs(c1, c2, alpha, backward=False):
    """H_alpha of (L(c1) x L(c2), L(0) x L(0)), or of the reversed pair, scale 1, c1, c2 >= 0.

    Conditioning on the first coordinate: H_alpha(P1 x P2 || Q1 x Q2) = E_{P1}[H_{alpha/L1}(P2 || Q2)]
    with L1 = dP1/dQ1, and H_alpha(Q1 x Q2 || P1 x P2) = E_{Q1}[H_{alpha*L1}(Q2 || P2)].  The law of
    the first coordinate is written out (two atoms of L1 and a density between), not a loss law.
    """
    def inner(ratio):   # ratio = the first coordinate's dP1/dQ1 at the output
        beta = alpha * ratio if backward else alpha / ratio
        return _laplace_hs(c2, beta)

    if c1 == 0:
        return inner(mpf(1))
    top, bottom = mp.exp(c1), mp.exp(-c1)      # L1 on x >= c1 and on x <= 0
    if backward:   # the law Q1 = L(0, 1)
        atoms = bottom / 2 * inner(top) + inner(bottom) / 2
        density = mp.quad(lambda x: mp.exp(-x) / 2 * inner(mp.exp(2 * x - c1)), [0, c1])
    else:          # the law P1 = L(c1, 1)
        atoms = inner(top) / 2 + bottom / 2 * inner(bottom)
        density = mp.quad(lambda x: mp.exp(x - c1) / 2 * inner(mp.exp(2 * x - c1)), [0, c1])
    return atoms + density


def _epsilon_grid(top):
    # from well below 0 (alpha < 1) to past the largest loss `top`
    return [mpf(k) * top / 8 for k in range(-12, 11)]


@pytest.mark.parametrize("c", [mpf(1) / 3, mpf(1), mpf(5) / 2])
@pytest.mark.parametrize("eps", [mpf(-3), mpf(-1) / 2, mpf(0), mpf(1) / 5, mpf(9) / 10, mpf(3)])
def test_laplace_closed_form_is_the_integral_in_both_orders(c, eps):
    with mp.workdps(DPS):
        alpha = mp.exp(eps)
        closed = _laplace_hs(c, alpha)
        for reverse in (False, True):
            assert abs(_laplace_hs_quad(c, alpha, reverse) - closed) < mpf(10) ** -20


@pytest.mark.parametrize("split", [(1, 1), pytest.param((3, 7), marks=pytest.mark.slow),
                                   pytest.param((1, 9), marks=pytest.mark.slow), (1, 3)])
@pytest.mark.parametrize("b", [pytest.param(mpf(1) / 2, marks=pytest.mark.slow), mpf(1),
                               pytest.param(mpf(2), marks=pytest.mark.slow)])
def test_laplace_split_shift_is_dominated_by_one_coordinate(split, b):
    # a shift of L1 norm 1 cut into two coordinates, noise scale b: both orders, every epsilon
    with mp.workdps(DPS):
        total = mpf(sum(split))
        c1, c2 = (mpf(part) / total / b for part in split)
        single = 1 / b
        strictly_smaller = 0
        for eps in _epsilon_grid(single):
            alpha = mp.exp(eps)
            bound = _laplace_hs(single, alpha)
            for backward in (False, True):
                value = _laplace_product_hs(c1, c2, alpha, backward)
                assert _at_most(value, bound), (split, b, eps, backward, value, bound)
                strictly_smaller += value < bound * (1 - mpf(10) ** -6)
        # splitting really loses something (the check is not an identity)
        assert strictly_smaller > 0


def test_laplace_shorter_shift_is_dominated():
    # ||c||_1 < 1: (1/4, 1/2) against the unit shift
    with mp.workdps(DPS):
        for eps in _epsilon_grid(mpf(1)):
            alpha = mp.exp(eps)
            bound = _laplace_hs(mpf(1), alpha)
            for backward in (False, True):
                assert _at_most(_laplace_product_hs(mpf(1) / 4, mpf(1) / 2, alpha, backward), bound)


def test_laplace_check_has_teeth():
    # a split of L1 norm 6/5 > 1 is not dominated by the unit shift: past epsilon = 1 the unit
    # shift's divergence is 0 and the product's is not
    with mp.workdps(DPS):
        alpha = mp.exp(mpf(11) / 10)
        assert _laplace_hs(mpf(1), alpha) == 0
        assert _laplace_product_hs(mpf(3) / 5, mpf(3) / 5, alpha) > mpf(10) ** -3


@pytest.mark.parametrize("c1, c2", [(mpf(1) / 4, mpf(3) / 4), (mpf(1) / 2, mpf(1) / 2), (mpf(2), mpf(3))])
def test_laplace_survival_of_the_sufficient_statistic(c1, c2):
    # the proof's key computation: under L(0, 1) x L(0, 1) the statistic T = clip(x1, 0, c1) +
    # clip(x2, 0, c2) has P(T > t) = e^{-t}·h(t)/2 with h = (3 + t)/2, (2 + c1)/2, (1 + s - t)/2 on
    # [0, c1), [c1, c2), [c2, s) (c1 <= c2, s = c1 + c2), against e^{-t}/2 for one coordinate
    with mp.workdps(DPS):
        s = c1 + c2

        def survival_2(v):   # P(clip(x2, 0, c2) > v)
            return mpf(1) if v < 0 else (mp.exp(-v) / 2 if v < c2 else mpf(0))

        for t in [s * k / 17 for k in range(17)]:
            numeric = (survival_2(t) / 2 + mp.exp(-c1) / 2 * survival_2(t - c1)
                       + mp.quad(lambda u, t=t: mp.exp(-u) / 2 * survival_2(t - u),
                                 sorted({mpf(0), min(max(t - c2, 0), c1), min(t, c1), c1})))
            h = (3 + t) / 2 if t < c1 else ((2 + c1) / 2 if t < c2 else (1 + s - t) / 2)
            assert abs(numeric - mp.exp(-t) * h / 2) < mpf(10) ** -20


# ------------------------------------------- B. replace-one Poisson-subsampled Gaussian, R^2


def _mixture_hs(a, b, rho, q, alpha):
    """H_alpha((1 - q)N(0, I) + qN(mu, I) || (1 - q)N(0, I) + qN(mu', I)) in R^2, |mu| = a, |mu'| = b,
    cos(angle(mu, mu')) = rho (noise scale 1: mu = v/sigma).

    With Z ~ N(0, I), X = <mu, Z>, Y = <mu', Z> the divergence is E[(k + q·e^{X - a²/2}
    - q·alpha·e^{Y - b²/2})_+], k = (1 - q)(1 - alpha).  Given X = x, Y is normal and the
    expectation over Y is the closed form of E[(c - d·e^Y)_+]; the integral over x is quadrature.
    """
    k = (1 - q) * (1 - alpha)
    d = q * alpha * mp.exp(-b * b / 2)

    def given(c, mean, var):   # E[(c - d·e^Y)_+], Y ~ N(mean, var)
        if c <= 0:
            return mpf(0)
        if d == 0:
            return c
        if var == 0:
            return max(c - d * mp.exp(mean), mpf(0))
        sd = mp.sqrt(var)
        z = (mp.log(c / d) - mean) / sd
        return c * mp.ncdf(z) - d * mp.exp(mean + var / 2) * mp.ncdf(z - sd)

    if a == 0:
        return given(k + q, mpf(0), b * b)
    slope, var = rho * b / a, b * b * (1 - rho * rho)

    def integrand(z):
        x = a * z
        return given(k + q * mp.exp(x - a * a / 2), slope * x, var) * mp.npdf(z)

    # |z| > 40 carries normal mass below 10^-340: finite ends keep the quadrature short, and cuts
    # near 0 keep it from sampling only where the integrand vanishes
    cuts = [mpf(j) for j in (-40, -12, -6, -3, -1, 1, 3, 6, 12, 40)]
    if k < 0:   # c > 0 exactly above this point
        cuts.insert(1, (a * a / 2 + mp.log(-k / q)) / a)
    if var == 0:   # collinear or v' = 0: kinks where c = d·e^{slope·x}, located by a scan
        g = lambda z: k + q * mp.exp(a * z - a * a / 2) - d * mp.exp(slope * a * z)  # noqa: E731
        grid = [mpf(j) / 8 for j in range(-160, 161)]
        for lo, hi in itertools.pairwise(grid):
            if g(lo) == 0:
                cuts.append(lo)
            elif g(lo) * g(hi) < 0:
                cuts.append(_bisect(g, lo, hi))
    return mp.quad(integrand, sorted(c for c in set(cuts) if -40 <= c <= 40))


def _bisect(f, lo, hi):
    flo = f(lo)
    for _ in range(120):
        mid = (lo + hi) / 2
        if (f(mid) < 0) == (flo < 0):
            lo, flo = mid, f(mid)
        else:
            hi = mid
    return (lo + hi) / 2


def _antipodal_hs(m, q, alpha):
    """H_alpha((1 - q)N(0, 1) + qN(m, 1) || (1 - q)N(0, 1) + qN(-m, 1)): the loss is increasing,
    so the optimal event is x > t with loss(t) = log(alpha)."""
    lam = mp.log(alpha)

    def loss(x):
        return (mp.log(1 - q + q * mp.exp(m * x - m * m / 2))
                - mp.log(1 - q + q * mp.exp(-m * x - m * m / 2)))

    lo, hi = mpf(-1), mpf(1)
    while loss(lo) > lam:
        lo *= 2
    while loss(hi) < lam:
        hi *= 2
    t = _bisect(lambda x: loss(x) - lam, lo, hi)

    def upper(shift):
        return mp.ncdf(shift - t)

    return (1 - q) * upper(0) + q * upper(m) - alpha * ((1 - q) * upper(0) + q * upper(-m))


EPSILONS_B = [mpf(-2), mpf(-1) / 2, mpf(-1) / 10, mpf(0), mpf(1) / 10, mpf(1) / 2, mpf(1), mpf(2), mpf(4)]


def _configurations(m):
    # (|mu|, |mu'|, cos angle): antipodal with shorter ends, v' = 0 and v = 0 (the add/remove pair in
    # both orders), equal norms at 0°, 60°, 90°, 120°, 150°, unequal norms at an angle
    half = m / 2
    return [(m, mpf(0), mpf(0)), (mpf(0), m, mpf(0)), (m, half, mpf(-1)), (half, m, mpf(-1)),
            (m, m, mpf(1)), (m, m, mpf(1) / 2), (m, m, mpf(0)), (m, m, mpf(-1) / 2),
            (m, m, -mp.sqrt(3) / 2), (m, half, mpf(-1) / 2), (half, m, mpf(-4) / 5), (half, half, mpf(-1))]


def _check_replace_one(sigma, q, epsilons=EPSILONS_B):
    m = 1 / sigma
    for eps in epsilons:
        alpha = mp.exp(eps)
        bound = _antipodal_hs(m, q, alpha)
        for a, b, rho in _configurations(m):
            value = _mixture_hs(a, b, rho, q, alpha)
            assert _at_most(value, bound), (sigma, q, eps, a, b, rho, value, bound)


@pytest.mark.slow
def test_replace_one_sampled_gaussian_antipodal_dominates():
    # one (sigma, q) at three epsilons by default; the wide grid below runs in `make references`
    with mp.workdps(DPS):
        _check_replace_one(mpf(1), mpf(1) / 20, [mpf(-1) / 2, mpf(1) / 2, mpf(2)])


@pytest.mark.slow
@pytest.mark.parametrize("sigma", [mpf(1) / 2, mpf(1), mpf(2)])
@pytest.mark.parametrize("q", [mpf(1) / 100, mpf(1) / 20, mpf(1) / 2, mpf(9) / 10])
def test_replace_one_sampled_gaussian_antipodal_dominates_wide(sigma, q):
    with mp.workdps(DPS):
        _check_replace_one(sigma, q)


@pytest.mark.parametrize("eps", [mpf(-1), mpf(0), mpf(1) / 2, mpf(2)])
def test_two_routes_agree_on_the_antipodal_pair(eps):
    # the generic R^2 routine at angle 180° is the one-dimensional antipodal pair
    with mp.workdps(DPS):
        alpha = mp.exp(eps)
        for sigma, q in [(mpf(1), mpf(1) / 20), (mpf(1) / 2, mpf(1) / 2)]:
            m = 1 / sigma
            generic = _mixture_hs(m, m, mpf(-1), q, alpha)
            assert abs(generic - _antipodal_hs(m, q, alpha)) <= generic * REL + TINY


@pytest.mark.parametrize("eps", [mpf(-1), mpf(1) / 10, mpf(1) / 2, mpf(2)])
def test_generic_routine_on_the_add_remove_pair(eps):
    # v' = 0 is the add/remove pair ((1 - q)N(0) + qN(m), N(0)); its loss log(1 - q + q·e^{mx - m²/2})
    # crosses log(alpha) at one point t (when alpha > 1 - q), so its divergence is a difference of
    # normal tails at t; the backward order follows from H_a(A||B) = 1 - a + a·H_{1/a}(B||A)
    with mp.workdps(DPS):
        q, m = mpf(1) / 20, mpf(1)

        def forward(alpha):
            if alpha <= 1 - q:
                return 1 - alpha
            t = (m * m / 2 + mp.log((alpha - 1 + q) / q)) / m
            return (1 - q) * mp.ncdf(-t) + q * mp.ncdf(m - t) - alpha * mp.ncdf(-t)

        alpha = mp.exp(eps)
        exact = {"forward": forward(alpha), "backward": 1 - alpha + alpha * forward(1 / alpha)}
        generic = {"forward": _mixture_hs(m, mpf(0), mpf(0), q, alpha),
                   "backward": _mixture_hs(mpf(0), m, mpf(0), q, alpha)}
        for order in exact:
            assert abs(generic[order] - exact[order]) <= exact[order] * REL + TINY


@pytest.mark.slow
def test_divergence_falls_as_the_angle_opens():
    # the proof's Gaussian comparison: for fixed norms the divergence decreases in cos(angle)
    with mp.workdps(DPS):
        q, m = mpf(1) / 5, mpf(1)
        for eps in [mpf(-1), mpf(1) / 2, mpf(2)]:
            alpha = mp.exp(eps)
            values = [_mixture_hs(m, m / 2, rho, q, alpha) for rho in (mpf(9) / 10, mpf(0), mpf(-9) / 10)]
            assert values[0] < values[1] < values[2]


def test_replace_one_check_has_teeth():
    # contributions of norm 3/2 (outside the unit ball) beat the antipodal unit pair
    with mp.workdps(DPS):
        q, m = mpf(1) / 20, mpf(1)
        alpha = mp.exp(mpf(1))
        assert _mixture_hs(3 * m / 2, 3 * m / 2, mpf(-1) / 2, q, alpha) > _antipodal_hs(m, q, alpha) * (1 + mpf(1) / 10)


# ------------------------------------------------- C. discrete Laplace, several integer coordinates

def _dlap(a, lo=-400, hi=400):
    """DLap(a) as {x: pmf} on [lo, hi] from its pmf tanh(a/2)·e^{-a|x|} (the tails beyond are below 10^-40
    for a >= 1/4; smaller a take a wider range)."""
    width = max(hi, int(100 / a))
    c = mp.tanh(a / 2)
    return {x: c * mp.exp(-a * abs(x)) for x in range(-width, width + 1)}


def _clip_law(pmf, c):
    """The law of min(max(x, 0), c) under ``pmf``, summed from the pmf."""
    law = {}
    for x, p in pmf.items():
        u = min(max(x, 0), c)
        law[u] = law.get(u, 0) + p
    return law


def _sum_law(*laws):
    out = {0: mpf(1)}
    for law in laws:
        nxt = {}
        for t, p in out.items():
            for u, w in law.items():
                nxt[t + u] = nxt.get(t + u, 0) + p * w
        out = nxt
    return out


@pytest.mark.parametrize("c1, c2", [(1, 1), (1, 3), (2, 3), (3, 5)])
@pytest.mark.parametrize("a", [mpf(1) / 4, mpf(1), mpf(3)])
def test_discrete_laplace_survival_of_the_sufficient_statistic(c1, c2, a):
    # the proof's key computation: P(t >= tau) = r^tau·h(tau)/(1 + r), r = e^{-a}, with h piecewise linear
    with mp.workdps(DPS):
        r, s = mp.exp(-a), c1 + c2
        law = _sum_law(_clip_law(_dlap(a), c1), _clip_law(_dlap(a), c2))
        signs = []
        for tau in range(1, s + 1):
            survival = sum(p for t, p in law.items() if t >= tau)
            if tau <= c1:
                h = 1 + (1 + (tau - 1) * (1 - r)) / (1 + r)
            elif tau <= c2:
                h = (2 + (c1 - 1) * (1 - r)) / (1 + r)
            else:
                h = (1 + (s - tau) * (1 - r)) / (1 + r)
            assert abs(survival - r ** tau * h / (1 + r)) < mpf(10) ** -25
            signs.append(h > 1)
        assert signs == sorted(signs, reverse=True)   # h - 1 > 0 first, <= 0 after: one crossing


def _atoms_hs(p_law, q_law, alpha):
    """H_alpha(P||Q) = sum over outputs of (P - alpha·Q)_+, the laws given as {output: mass}."""
    return sum(max(p - alpha * q_law.get(x, 0), 0) for x, p in p_law.items())


def _dlap_pair(a, shifts, q):
    """((1 - q)·N^k + q·(shifted N^k), N^k) as laws of the sufficient statistic t = sum of the clipped
    coordinates: the ratio is a function of t alone (docs/mechanisms/discrete.md), so H_alpha is the same."""
    pmf = _dlap(a)
    n_law = _sum_law(*(_clip_law(pmf, c) for c in shifts))
    s = sum(shifts)
    ratio = {t: mp.exp(a * (2 * t - s)) for t in n_law}
    return {t: (1 - q) * m + q * ratio[t] * m for t, m in n_law.items()}, n_law


@pytest.mark.parametrize("split", [(1, 1), (1, 2), (2, 3), (1, 4), (1, 1, 1), (1, 2, 2)])
@pytest.mark.parametrize("a, q", [(mpf(1) / 10, mpf(1)), (mpf(1) / 2, mpf(3) / 10), (mpf(2), mpf(1))])
def test_discrete_laplace_split_shift_is_dominated_by_one_coordinate(split, a, q):
    with mp.workdps(DPS):
        p_prod, q_prod = _dlap_pair(a, split, q)
        p_one, q_one = _dlap_pair(a, (sum(split),), q)
        for k in range(0, 61, 3):
            alpha = mp.exp(mpf(k) / 10)
            assert _at_most(_atoms_hs(p_prod, q_prod, alpha), _atoms_hs(p_one, q_one, alpha))
            assert _at_most(_atoms_hs(q_prod, p_prod, alpha), _atoms_hs(q_one, p_one, alpha))


def test_discrete_laplace_check_has_teeth():
    # a split of norm 3 beats the single shift 2 (outside the hypothesis)
    with mp.workdps(DPS):
        a, alpha = mpf(1) / 2, mp.exp(mpf(3) / 5)
        p_prod, q_prod = _dlap_pair(a, (1, 2), mpf(1))
        p_one, q_one = _dlap_pair(a, (2,), mpf(1))
        assert _atoms_hs(p_prod, q_prod, alpha) > _atoms_hs(p_one, q_one, alpha) * (1 + mpf(1) / 100)


# ------------------------------------ D. replace-one Poisson-subsampled Laplace, one and two coordinates
#
# docs/mechanisms/poisson-subsampling.md: for contributions v, v' with ||v||_1, ||v'||_1 <= 1 and noise
# L(0, b) per coordinate, ((1 - q)L(0) + qL(v), (1 - q)L(0) + qL(v')) is dominated by the one-coordinate pair
# v = 1, v' = -1.  The divergences here are exact sums of exponentials on the cells between the kinks (one
# coordinate), and one quadrature over x of those exact inner integrals (two coordinates): no use of the proof.

def _exp_positive_part(a, b, lo, hi):
    """The integral of (a*e^x + b*e^-x)_+ over (lo, hi) (a = 0 when lo = -inf, b = 0 when hi = inf)."""
    def antiderivative(x):
        if x == -mp.inf or x == mp.inf:
            return mpf(0)
        return a * mp.exp(x) - b * mp.exp(-x)

    if a <= 0 and b <= 0:
        return mpf(0)
    if a >= 0 and b >= 0:
        return antiderivative(hi) - antiderivative(lo)
    root = mp.log(-b / a) / 2                    # the one sign change; positive above it when a > 0
    lo, hi = (max(lo, root), hi) if a > 0 else (lo, min(hi, root))
    return antiderivative(hi) - antiderivative(lo) if lo < hi else mpf(0)


def _laplace_terms_hs(p_terms, q_terms, alpha):
    """H_alpha(P || Q) for P = sum of w * L(s, 1), Q likewise (unnormalised weights allowed), exactly."""
    terms = [(w, s) for w, s in p_terms] + [(-alpha * w, s) for w, s in q_terms]
    edges = [-mp.inf] + sorted({s for _, s in terms}) + [mp.inf]
    total = mpf(0)
    for lo, hi in zip(edges, edges[1:]):
        inside = lo + 1 if hi == mp.inf else (hi - 1 if lo == -mp.inf else (lo + hi) / 2)
        a = sum(w * mp.exp(-s) / 2 for w, s in terms if inside < s)     # e^{x - s}/2 left of s
        b = sum(w * mp.exp(s) / 2 for w, s in terms if inside > s)      # e^{s - x}/2 right of s
        total += _exp_positive_part(a, b, lo, hi)
    return total


def _sampled_replace_laplace_hs(v, w, q, alpha):
    """H_alpha(M_v || M_w) for M_u = (1 - q)L(0) + qL(u) on one or two coordinates (scale 1)."""
    if len(v) == 1:
        return _laplace_terms_hs([(1 - q, 0), (q, v[0])], [(1 - q, 0), (q, w[0])], alpha)

    def density(x, s):
        return mp.exp(-abs(x - s)) / 2

    def inner(x):   # the y-integral at x: weights (1 - q)f(x) and q f(x - v1) on L(0) and L(v2), likewise for Q
        return _laplace_terms_hs([((1 - q) * density(x, 0), 0), (q * density(x, v[0]), v[1])],
                                 [((1 - q) * density(x, 0), 0), (q * density(x, w[0]), w[1])], alpha)
    cuts = [-mp.inf] + sorted({mpf(0), v[0], w[0]}) + [mp.inf]
    return mp.quad(inner, cuts)


def _check_replace_laplace(b, q, configurations, epsilons=(-2, -1 / 2, 0, 1 / 4, 1, 3)):
    worst = mpf(0)
    for eps in epsilons:
        alpha = mp.exp(mpf(eps))
        bound = _sampled_replace_laplace_hs((1 / b,), (-1 / b,), q, alpha)
        for v, w in configurations:
            value = _sampled_replace_laplace_hs(tuple(c / b for c in v), tuple(c / b for c in w), q, alpha)
            assert _at_most(value, bound), (b, q, v, w, eps, value, bound)
            worst = max(worst, value / bound if bound else mpf(0))
    return worst


ONE_COORDINATE = [((v,), (w,)) for v in (mpf(-1), mpf(-1) / 2, mpf(0), mpf(1) / 3, mpf(1))
                  for w in (mpf(-1), mpf(-1) / 3, mpf(0), mpf(1) / 2, mpf(1))]


@pytest.mark.parametrize("b", [mpf(1) / 2, mpf(1), mpf(3)])
@pytest.mark.parametrize("q", [mpf(1) / 10, mpf(1) / 2, mpf(9) / 10])
def test_replace_one_sampled_laplace_is_dominated_on_one_coordinate(b, q):
    with mp.workdps(DPS):
        assert _check_replace_laplace(b, q, ONE_COORDINATE) <= 1 + REL


@pytest.mark.parametrize("b, q", [(mpf(1), mpf(1) / 10), pytest.param(mpf(1) / 2, mpf(1) / 2, marks=pytest.mark.slow)])
def test_replace_one_sampled_laplace_is_dominated_on_two_coordinates(b, q):
    half = mpf(1) / 2
    configurations = [((1, 0), (0, 1)), ((half, half), (-half, half)), ((half, half), (half, -half)),
                      ((half, half), (-half, -half)), ((1, 0), (-half, -half)), ((mpf(1) / 4, 0), (0, -1))]
    with mp.workdps(20):
        _check_replace_laplace(b, q, [(tuple(map(mpf, v)), tuple(map(mpf, w))) for v, w in configurations],
                               epsilons=(-1, 0, 1 / 2, 2))


def test_replace_one_sampled_laplace_check_has_teeth():
    # a contribution of L1 norm 3/2 beats the bound: the hypothesis ||v||_1 <= 1 matters
    with mp.workdps(DPS), pytest.raises(AssertionError):
        _check_replace_laplace(mpf(1), mpf(1) / 2, [((mpf(3) / 2,), (mpf(-1),))], epsilons=(1 / 4,))
    # and the exact one-coordinate sum agrees with quadrature of (p - alpha q)_+
    with mp.workdps(DPS):
        q, alpha = mpf(1) / 3, mp.exp(mpf(1) / 4)

        def gap(x):
            p = (1 - q) * mp.exp(-abs(x)) / 2 + q * mp.exp(-abs(x - 1)) / 2
            r = (1 - q) * mp.exp(-abs(x)) / 2 + q * mp.exp(-abs(x + 1)) / 2
            return max(p - alpha * r, 0)
        kink = _bisect(lambda x: (1 - q) * mp.exp(-abs(x)) + q * mp.exp(-abs(x - 1))
                       - alpha * ((1 - q) * mp.exp(-abs(x)) + q * mp.exp(-abs(x + 1))), mpf(0), mpf(1))
        quad = mp.quad(gap, [-mp.inf, -1, 0, kink, 1, mp.inf])
        assert abs(quad - _sampled_replace_laplace_hs((mpf(1),), (mpf(-1),), q, alpha)) < mpf(10) ** -20


# ------------------------- E. replace-one Poisson-subsampled discrete Laplace and discrete Gaussian, one coordinate
#
# docs/mechanisms/discrete.md: for integer contributions v, v' with |v|, |v'| <= s, the pair
# ((1 - q)N + qN_v, (1 - q)N + qN_v') is dominated by v = s, v' = -s (N the noise law on the integers, N_c its
# shift by c).  The divergences are sums over a window of integers holding all but e^-60 of both laws.

def _integer_noise(family, parameter):
    """(pmf on the integers, half-width of the window)."""
    if family == "laplace":
        a = mpf(parameter)
        return (lambda x: mp.tanh(a / 2) * mp.exp(-a * abs(x))), int(60 / a) + 2
    s2 = mpf(parameter)
    z = mp.nsum(lambda k: mp.exp(-mpf(k) ** 2 / (2 * s2)), [-mp.inf, mp.inf])
    return (lambda x: mp.exp(-mpf(x) ** 2 / (2 * s2)) / z), int(mp.sqrt(120 * s2)) + 2


def _sampled_integer_hs(f, width, q, v, w, alpha):
    """H_alpha(M_v || M_w), M_u = (1 - q)N + qN_u, summed over the window."""
    span = width + max(abs(v), abs(w))
    return mp.fsum(max((1 - q) * f(x) + q * f(x - v) - alpha * ((1 - q) * f(x) + q * f(x - w)), 0)
                   for x in range(-span, span + 1))


def _check_replace_integer(family, parameter, s, q, contributions, epsilons=(-2, -1 / 2, 0, 1 / 4, 1, 3)):
    f, width = _integer_noise(family, parameter)
    for eps in epsilons:
        alpha = mp.exp(mpf(eps))
        bound = _sampled_integer_hs(f, width, q, s, -s, alpha)
        for v, w in contributions:
            value = _sampled_integer_hs(f, width, q, v, w, alpha)
            assert _at_most(value, bound), (family, parameter, s, q, v, w, eps, value, bound)


@pytest.mark.parametrize("family, parameter", [("laplace", 1), ("laplace", 3), ("gaussian", mpf(1) / 2),
                                               ("gaussian", 4)])
@pytest.mark.parametrize("s", [1, 2])
@pytest.mark.parametrize("q", [mpf(1) / 10, mpf(1) / 2, mpf(9) / 10])
def test_replace_one_sampled_discrete_noise_is_dominated_by_opposite_shifts(family, parameter, s, q):
    # x -> -x maps the pair of (v, w) to that of (-v, -w): v >= 0 suffices
    contributions = [(v, w) for v in range(0, s + 1) for w in range(-s, s + 1)]
    with mp.workdps(20):
        _check_replace_integer(family, parameter, s, q, contributions, epsilons=(-1 / 2, 0, 1 / 4, 1, 3))


def test_replace_one_sampled_discrete_check_has_teeth():
    # a contribution beyond the sensitivity beats the bound
    with mp.workdps(DPS), pytest.raises(AssertionError):
        _check_replace_integer("gaussian", 1, 1, mpf(1) / 2, [(2, -1)], epsilons=(1 / 4,))
