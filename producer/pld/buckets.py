"""The lower side's single-step arrays: the law of the bucket index under each of the two laws.

Each step's output x is mapped to its bucket index j(x) = ⌊ℓ(x)/h⌋ (in the
loss of the order).  This map is deterministic, so the pair of index laws
(π_P, π_Q) is a post-processing of the step, and the T-fold product of index
laws is the law of the index vector under the composed pair.  For any event
E of the index vector, P^T(E) − e^ε·Q^T(E) <= δ(ε).

The arrays are rounded so that each side of that difference moves the safe
way, in the order "mass at or above k" for every k:

- P[j] <= 2^K·P(bucket j) (rounded down); the P-mass of losses at or above
  hi·h is put at index hi (its true indices are >= hi: moved down); the
  P-mass below lo·h is dropped;
- Q[j] >= 2^K'·Q(bucket j) (rounded up, K' = ``q_bits``); the Q-mass below
  lo·h is put at index lo (moved up); the Q-mass at or above hi·h goes to an
  atom X counted in every event.
"""

from producer.pld.connect_dots import PrecisionError
from producer.pld.masses import ceil_scaled, radius_ok, scaled_ceilings, scaled_floors
from producer.sources.enclosures import working_precision


def _checked(ball, bits):
    if not radius_ok(ball, bits):
        raise PrecisionError("bucket mass enclosure too wide")
    return ball


def lower_values(side, p_bits, q_bits, precision):
    """(lo, P values, Q values, X) over the indices lo..hi of an :class:`Oriented` step."""
    with working_precision(precision):
        P, Q = scaled_floors(side.P + [side.high[0]], p_bits), scaled_ceilings(side.Q, q_bits)
        if P is None or Q is None:
            raise PrecisionError("bucket mass enclosure too wide")
        Q.append(0)
        if Q:
            Q[0] += ceil_scaled(_checked(side.low[1], q_bits), q_bits)
        excess = ceil_scaled(_checked(side.high[1], q_bits), q_bits)
    return side.lo, P, [max(0, v) for v in Q], max(0, excess)
