"""The upper side's single-step array: connect-the-dots on the grid jh, rounded up.

"Connect the Dots: Tighter Discrete Approximations of Privacy Loss
Distributions" (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, 2022, §3):
the mass of a loss bucket B = [jh, (j+1)h) with P-mass P_B and Q-mass Q_B
is split between the two grid points so that both masses are kept,

    b = (P_B − e^{jh}·Q_B)/(1 − e^{−h})  at (j+1)h,      a = P_B − b  at jh,

each atom at kh carrying Q-mass e^{−kh} times its P-mass.  Since
e^{−(j+1)h}·P_B <= Q_B <= e^{−jh}·P_B on B, 0 <= b <= P_B.  Losses below lo·h
go to the atom at lo·h (P-mass kept, Q-mass lowered), losses at or above hi·h
to an atom at +∞ (P-mass only).  The result (U, U_∞) dominates the step: a
Markov kernel maps it back onto the true pair, and lowering Q-mass only raises
every hockey-stick divergence (docs/dpsgd.md, "The upper side").

Only P-masses are stored: the Q-mass of the atom at kh is e^{−kh}·U[k] for
every k, and this tie survives convolution.  Each U[k] is rounded up to
the fixed point 2^-K.
"""

from producer.pld.masses import ceil_scaled, scaled_ceilings
from producer.sources.enclosures import to_arb, working_precision


class PrecisionError(ArithmeticError):
    """An enclosure too wide to round at the fixed point: raise the working precision."""


def upper_values(side, h, bits, precision):
    """(lo, values, atom): integers U[lo..hi] >= 2^K·(split masses) and U_∞ >= 2^K·P(loss >= hi·h).

    ``side`` is an :class:`producer.pld.masses.Oriented`; K = ``bits``.
    """
    lo, hi = side.lo, side.hi
    with working_precision(precision):
        widen = 1 / (1 - to_arb(-h).exp())
        step = to_arb(h).exp()
        level = to_arb(lo * h).exp()
        balls = [side.low[0]] + [None] * (hi - lo)
        for k in range(hi - lo):
            p, q = side.P[k], side.Q[k]
            b = (p - level * q) * widen
            balls[k] += p - b
            balls[k + 1] = b
            level *= step
        out = scaled_ceilings(balls, bits)
        if out is None:
            raise PrecisionError("connect-the-dots mass enclosure too wide")
        atom = ceil_scaled(side.high[0], bits)
    return lo, [max(0, v) for v in out], max(0, atom)
