"""Explicit witness events on the exact discrete Gaussian.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendices B.3, B.4.)

Offset-class event: inputs x^P = (0, 0), x^Q = (1, 1), offsets s_1 = 0,
s_2 = (1 − Y_1) mod 3, coordinates f1 = Y_1 − 1, f2 = Y_2 − 1 + ceil(f1/3).
Counting U_1, U_2 gives, for any innovation law g,

    p(f1, f2) = g(f1 + 1)·((2/3)·g(f2 + 1) + (1/3)·g(f2 + 2)),   q(f1, f2) = g(f1)·g(f2)

(:func:`offset_event_transcripts` checks this by literal enumeration on a
finite law).  The event accepts the atoms of a box with p > e^ε·q.

Binary pair: H_{e^ε}(P_b‖Q_b) = max(0, p − e^ε q) + max(0, (1−p) − e^ε(1−q)).

Transcendental numbers are arb balls (python-flint) read outward.
"""

from gmpy2 import mpq

from producer.sources.discrete_gaussian import kernel_ball, normaliser_ball
from producer.sources.enclosures import enclosure_of, to_arb, working_precision

PRECISION = 256


class GaussianMasses:
    """arb balls of g(n) = exp(−n²/(2σ²))/Z, cached (use inside working_precision)."""

    def __init__(self, sigma2, bits=PRECISION):
        self.sigma2, self.bits = mpq(sigma2), bits
        self.z = normaliser_ball(self.sigma2, bits)
        self._cache = {}

    def __call__(self, n):
        ball = self._cache.get(n)
        if ball is None:
            ball = self._cache[n] = kernel_ball(n, self.sigma2) / self.z
        return ball


def offset_event_masses(g, f1, f2):
    """(p, q) balls of the offset-class transcript (f1, f2)."""
    p = g(f1 + 1) * (2 * g(f2 + 1) + g(f2 + 2)) / 3
    q = g(f1) * g(f2)
    return p, q


def offset_event(sigma2, epsilon, low, high):
    """The atoms {(f1,f2) ∈ [low,high]² : p > e^ε q} and an enclosure of P(A) − e^ε Q(A)."""
    with working_precision(PRECISION + 64):
        g = GaussianMasses(sigma2)
        lam = to_arb(mpq(epsilon)).exp()
        atoms, total = [], to_arb(0)
        for f1 in range(low, high + 1):
            for f2 in range(low, high + 1):
                p, q = offset_event_masses(g, f1, f2)
                gap = p - lam * q
                if gap > 0:
                    atoms.append((f1, f2))
                    total += gap
                elif not gap < 0 and not gap == 0:
                    raise ArithmeticError(f"offset event: cannot decide p > e^ε q at {(f1, f2)}")
        return atoms, enclosure_of(total)


def binary_pair_payoff(p, q, epsilon):
    """Enclosure of H_{e^ε}(P_b‖Q_b) for P_b = (p, 1 − p), Q_b = (q, 1 − q)."""
    p, q = mpq(p), mpq(q)
    with working_precision(PRECISION + 64):
        lam = to_arb(mpq(epsilon)).exp()
        parts = [to_arb(p) - lam * to_arb(q), to_arb(1 - p) - lam * to_arb(1 - q)]
        total = to_arb(0)
        for part in parts:
            if part > 0:
                total += part
            elif not part < 0:
                raise ArithmeticError("binary pair: cannot decide the sign of a likelihood-test term")
        return enclosure_of(total)


def offset_event_transcripts(law, x_p=(0, 0), x_q=(1, 1)):
    """Literal transcript laws {(f1,f2): (P, Q)} of the offset program on a finite law (γ = 1/3).

    Enumerates η_1, U_1, η_2, U_2 with the mechanism K_t = η_t − floor((K_{t−1} + U_t + s_t)/3),
    Y_t = x_t + K_t, s_1 = 0, s_2 = (1 − Y_1) mod 3 (a function of the public Y_1 only).
    """
    out = {}
    support = [(z, mpq(law.weight(z), law.total)) for z in range(law.low, law.high + 1) if law.weight(z)]
    for world, xs in (("P", x_p), ("Q", x_q)):
        for eta1, w1 in support:
            for u1 in range(3):
                k1 = eta1 - (0 + u1 + 0) // 3
                y1 = xs[0] + k1
                s2 = (1 - y1) % 3
                for eta2, w2 in support:
                    for u2 in range(3):
                        k2 = eta2 - (k1 + u2 + s2) // 3
                        y2 = xs[1] + k2
                        f1 = y1 - 1
                        f2 = y2 - 1 + (-((-f1) // 3))
                        mass = w1 * w2 / 9
                        pq = out.setdefault((f1, f2), [mpq(0), mpq(0)])
                        pq[0 if world == "P" else 1] += mass
    return out
