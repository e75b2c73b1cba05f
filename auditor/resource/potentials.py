"""Window potentials and their Bellman/Poisson rows (kinds.md S5).

A potential is a list over the window states in state order (x = −M … M,
then d = −1, 0, 1); entries may be null where a certificate leaves a state
out.  span_j = max_x h(x, j) − min_x h(x, j) over the listed entries of layer
d = j (0 for an empty layer), ``span`` = max_j span_j; ``lipschitz`` =
max |h(x + 1, d) − h(x, d)| over pairs with both entries listed.

Row sums Σ_y K(x, y)·h(y, j) are computed in integers: h's layer j over the
common denominator of its entries, K over D = B·S.  A common denominator of
more than MAX_DENOMINATOR_BITS bits is refused (UNCHECKED) before any row is
summed; the producer's potentials are multiples of 2^-128 or the exact dual
of one LP basis.
"""

from fractions import Fraction
from math import lcm

from auditor.certificate import Malformed
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational
from auditor.resource.model import SIGNS, state

__all__ = ["MAX_DENOMINATOR_BITS", "read_potential", "span", "lipschitz", "layer_sums", "reachable"]

MAX_DENOMINATOR_BITS = 1 << 17


def read_potential(texts, M, pointer, nulls=False):
    """[Fraction or None] of length 3(2M + 1); a null only with ``nulls``."""
    if len(texts) != 3 * (2 * M + 1):
        raise Malformed(f"{pointer}: {len(texts)} entries, expected 3(2M + 1) = {3 * (2 * M + 1)} (M = {M})")
    out = []
    for i, text in enumerate(texts):
        if text is None:
            if not nulls:
                raise Malformed(f"{pointer}/{i}: null, but this potential is defined at every state")
            out.append(None)
        else:
            out.append(read_rational(text, f"{pointer}/{i}"))
    return out


def _layer(h, M, d):
    return [h[state(x, d, M)] for x in range(-M, M + 1)]


def span(h, M):
    """max over d of (max − min) of the listed entries of layer d."""
    best = Fraction(0)
    for d in SIGNS:
        listed = [v for v in _layer(h, M, d) if v is not None]
        if listed:
            best = max(best, max(listed) - min(listed))
    return best


def lipschitz(h, M):
    """max |h(x + 1, d) − h(x, d)| over neighbouring pairs that are both listed."""
    best = Fraction(0)
    for d in SIGNS:
        layer = _layer(h, M, d)
        for left, right in zip(layer, layer[1:]):
            if left is not None and right is not None:
                best = max(best, abs(right - left))
    return best


def common_denominator(values, pointer):
    """(numerators, denominator) of Fractions over their least common denominator (bounded size)."""
    den = 1
    for v in values:
        den = lcm(den, v.denominator)
        if den.bit_length() > MAX_DENOMINATOR_BITS:
            raise Unchecked(pointer, den.bit_length(), MAX_DENOMINATOR_BITS,
                            "bits of the common denominator of the potential's entries")
    return [v.numerator * (den // v.denominator) for v in values], den


def layer_sums(K, D, h, M, layers, pointer):
    """{j: [Σ_y K(x, y)·h(y, j) for x = −M … M]} (Fractions) for each layer j in ``layers`` (fully listed)."""
    out = {}
    for j in layers:
        nums, den = common_denominator(_layer(h, M, j), pointer)
        scale = D * den
        out[j] = [Fraction(sum(k * v for k, v in zip(line, nums) if k), scale) for line in K]
    return out


def reachable(actions, M):
    """S*(π): the closure of {(0, 0)} under s ↦ {(y, π(s)) : y ∈ [−M, M]} (a set of state indices)."""
    seen = {state(0, 0, M)}
    layers, todo = set(), [state(0, 0, M)]
    while todo:
        e = actions[todo.pop()]
        if e in layers:
            continue
        layers.add(e)
        for y in range(-M, M + 1):
            s = state(y, e, M)
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return seen
