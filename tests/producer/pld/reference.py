"""Independent references for DP-SGD accounting, in mpmath (no producer code).

One step of the Poisson-subsampled Gaussian: P = (1 − q)N(0, σ²) + qN(1, σ²),
Q = N(0, σ²).  The loss ℓ(x) = log(1 − q + q·exp((2x − 1)/(2σ²))) is
increasing, so the optimal event of the remove order is {x > x(ε)} and that
of the add order {x < x(−ε)}: δ of one step is a pair of Gaussian tails.
Two and three steps: the optimal event {ℓ(x₁) + … > ε} has, for fixed
x₁ (, x₂), a last coordinate beyond a threshold, so the divergence is a 1-D
(2-D) integral of closed-form inner tails, computed by mpmath.quad.
"""

import mpmath as mp


def phi(z):
    return mp.ncdf(z)


def phi_bar(z):
    return mp.ncdf(-z)


def loss(q, s, x):
    return mp.log(1 - q + q * mp.exp((2 * x - 1) / (2 * s * s)))


def preimage(q, s, y):
    """x(y), or −inf when e^y <= 1 − q."""
    if q == 1:
        return mp.mpf(1) / 2 + s * s * y
    arg = mp.exp(y) - 1 + q
    if arg <= 0:
        return mp.ninf
    return mp.mpf(1) / 2 + s * s * mp.log(arg / q)


def tail_p(q, s, x):
    """P(X > x)."""
    if x == mp.ninf:
        return mp.mpf(1)
    return (1 - q) * phi_bar(x / s) + q * phi_bar((x - 1) / s)


def tail_q(q, s, x):
    return mp.mpf(1) if x == mp.ninf else phi_bar(x / s)


def one_step(q, s, eps, order):
    """δ of one step, remove order H(P‖Q) or add order H(Q‖P), at e^ε."""
    q, s, eps = mp.mpf(q), mp.mpf(s), mp.mpf(eps)
    if order == "remove":
        x = preimage(q, s, eps)
        return tail_p(q, s, x) - mp.exp(eps) * tail_q(q, s, x)
    x = preimage(q, s, -eps)
    if x == mp.ninf:
        return mp.mpf(0)
    return (1 - tail_q(q, s, x)) - mp.exp(eps) * (1 - tail_p(q, s, x))


def one_step_delta(q, s, eps):
    return max(one_step(q, s, eps, "remove"), one_step(q, s, eps, "add"))


def gaussian_delta(mu, eps):
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return phi(-eps / mu + mu / 2) - mp.exp(eps) * phi(-eps / mu - mu / 2)


def _density_p(q, s, x):
    return ((1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, 1, s))


def _density_q(q, s, x):
    return mp.npdf(x, 0, s)


def two_step(q, s, eps, order, q2=None, s2=None):
    """δ of two steps of one order by a 1-D quadrature over the first coordinate.

    The first step has (q, s), the second (q2, s2) (default: the same).
    """
    q, s, eps = mp.mpf(q), mp.mpf(s), mp.mpf(eps)
    q2 = q if q2 is None else mp.mpf(q2)
    s2 = s if s2 is None else mp.mpf(s2)
    first, second = (_density_p, _density_q) if order == "remove" else (_density_q, _density_p)

    def integrand(x):
        if order == "remove":  # {ℓ(x) + ℓ₂(x₂) > ε}: x₂ > x₂(ε − ℓ(x))
            t = preimage(q2, s2, eps - loss(q, s, x))
            a, b = tail_p(q2, s2, t), tail_q(q2, s2, t)
        else:  # {−ℓ(x) − ℓ₂(x₂) > ε}: x₂ < x₂(−ε − ℓ(x))
            t = preimage(q2, s2, -eps - loss(q, s, x))
            if t == mp.ninf:
                return mp.mpf(0)
            a, b = 1 - tail_q(q2, s2, t), 1 - tail_p(q2, s2, t)
        return first(q, s, x) * a - mp.exp(eps) * second(q, s, x) * b
    lo, hi = -14 * s - 1, 15 * s + 2
    points = {lo, mp.mpf(0), mp.mpf(1) / 2, mp.mpf(1), hi}
    if q2 < 1:  # where the inner event becomes everything (remove) or nothing (add): a kink
        level = eps - mp.log(1 - q2) if order == "remove" else -eps - mp.log(1 - q2)
        kink = preimage(q, s, level)
        if kink != mp.ninf and lo < kink < hi:
            points.add(kink)
    return mp.quad(integrand, sorted(points))


def two_step_delta(q, s, eps, q2=None, s2=None):
    return max(two_step(q, s, eps, "remove", q2, s2), two_step(q, s, eps, "add", q2, s2))


# ---- noise on the integers ------------------------------------------------------------------------------

def integer_pmf(family, parameter, tail=200):
    """(pmf, half-width of a window holding all but about e^-tail of it) of the discrete Laplace ("laplace",
    parameter a: tanh(a/2)·e^{−a|x|}) or the discrete Gaussian ("gaussian", parameter σ²: e^{−x²/(2σ²)}/Z, Z summed by
    mpmath); ``parameter`` an mpf."""
    if family == "laplace":
        a = parameter
        return (lambda x: mp.tanh(a / 2) * mp.exp(-a * abs(x))), int(tail / a) + 2
    s2 = parameter
    z = mp.nsum(lambda k: mp.exp(-mp.mpf(k) ** 2 / (2 * s2)), [-mp.inf, mp.inf])
    return (lambda x: mp.exp(-mp.mpf(x) ** 2 / (2 * s2)) / z), int(mp.sqrt(2 * tail * s2)) + 2
