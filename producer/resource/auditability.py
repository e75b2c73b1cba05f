"""The auditor's documented limits on the resource-law certificates, restated by the producer.

A certificate nobody can check is worthless, so the producer refuses (one
line, exit 2) what the auditor would answer UNCHECKED.  The limits restated
here are those of docs/certificates.md ("rate/1, frontier/1,
window-request/1, finite-budget/1"); the limits on B, σ² and the period are
checked by the requests themselves (:mod:`producer.kinds.resource_common`,
:mod:`producer.kinds.rate`), the discrete-Gaussian source limits when the
source is built (:mod:`producer.sources.auditability`).  Estimates that a test
compares with the auditor's own code (tests/producer/resource/test_auditability.py):

- rewards: starting precision p <= MAX_REWARD_BITS (160 bits, or for a window
  request log2(1/η_g) + 16), and the work of the first pass
  Λ·(Y + 3)·w² + 9k·(2Y + 1)·w <= MAX_REWARD_WORK, with k the residues of the
  table, Λ = min(B, 2k + 2), Y = isqrt(2σ²·LN2_UPPER·(p + 16)) + 8 and
  w = (p + 3·bits(Y) + bits(B) + 16)//64 + 1;
- rows: hidden states × (2L + 1) source weights <= MAX_ROW_WORK (states: the
  B·N residues plus the 2W + 1 descent states for ``rate/1``, the 2M + 1 window
  states otherwise);
- source radius L <= MAX_SOURCE_RADIUS;
- every potential layer (h(·, e) of each sign or layer, φ, ψ, the primal z)
  has a common denominator of at most MAX_DENOMINATOR_BITS bits.  This one is
  known only once the exact LP is solved, so it is checked after the work and
  before the certificate is written (the producer's potentials are multiples
  of 2^-128 or 2^-60, or the exact dual/primal of an LP basis: about 10³ bits
  for the reference certificates, far inside the limit).

Within the requests' own limits (docs/resource-laws.md §5) the reward, row and
radius estimates are never reached (the largest, ``rate/1`` at B = 166,
σ² = 10⁴, N = 1, is 2.7·10⁷ reward work units); the checks keep it so if a
limit is ever raised.
"""

from math import lcm

from gmpy2 import isqrt, mpq

from producer.errors import LimitError

MAX_REWARD_BITS = 4096
MAX_REWARD_WORK = 10 ** 8
MAX_ROW_WORK = 2 * 10 ** 7
MAX_SOURCE_RADIUS = 20_000
MAX_DENOMINATOR_BITS = 1 << 17
REWARD_START_BITS = 160              # the auditor's starting precision (rate, frontier, finite budget)
LN2_UPPER = mpq(6932, 10000)         # the auditor's upper bound of log 2 in its summation length

__all__ = ["MAX_REWARD_BITS", "MAX_REWARD_WORK", "MAX_ROW_WORK", "MAX_SOURCE_RADIUS", "MAX_DENOMINATOR_BITS",
           "REWARD_START_BITS", "reward_bits", "reward_work", "window_residues", "check_rewards", "check_rows",
           "check_source_radius", "check_denominators", "layer_denominator_bits", "window_layers"]


def reward_bits(reward_error=None):
    """The auditor's starting precision of the reward enclosures: 160, or log2(1/η_g) + 16 (window requests)."""
    if reward_error is None:
        return REWARD_START_BITS
    eta = mpq(reward_error)
    return int(eta.denominator // eta.numerator).bit_length() + 16


def window_residues(B, radius):
    """k: the residues {x mod B : |x| <= M} of a window kind's reward table."""
    return len({x % B for x in range(-radius, radius + 1)})


def _summation_length(sigma2, bits):
    need = 2 * mpq(sigma2) * LN2_UPPER * (bits + 16)
    return int(isqrt(need.numerator // need.denominator)) + 8


def reward_work(B, sigma2, residues, bits):
    """The auditor's estimated work units of one pass of the reward enclosures (k residues at ``bits``)."""
    Y = _summation_length(sigma2, bits)
    w = (bits + 3 * Y.bit_length() + int(B).bit_length() + 16) // 64 + 1
    phases = min(int(B), 2 * residues + 2)
    return phases * (Y + 3) * w * w + 9 * residues * (2 * Y + 1) * w


def check_rewards(B, sigma2, residues, bits):
    """LimitError when the auditor's first pass of the reward enclosures is beyond its limits."""
    if bits > MAX_REWARD_BITS:
        raise LimitError(f"bits: the auditor encloses the rewards at {bits} bits, above its limit "
                         f"{MAX_REWARD_BITS}; ask for fewer bits")
    work = reward_work(B, sigma2, residues, bits)
    if work > MAX_REWARD_WORK:
        raise LimitError(f"sigma2: the auditor's reward enclosures ({residues} residues at {bits} bits) are "
                         f"estimated at {work} work units, above its limit {MAX_REWARD_WORK}; use a smaller σ² "
                         f"or radius")


def check_rows(states, source_radius, what):
    """LimitError when states × (2L + 1) exceeds the auditor's row limit; ``what`` names the option."""
    work = states * (2 * source_radius + 1)
    if work > MAX_ROW_WORK:
        raise LimitError(f"{what}: {states} hidden states x {2 * source_radius + 1} source weights = {work} "
                         f"exceed the auditor's row limit {MAX_ROW_WORK}; use a smaller {what}")


def check_source_radius(radius):
    if radius > MAX_SOURCE_RADIUS:
        raise LimitError(f"sigma2: the source needs radius {radius}, above the auditor's limit "
                         f"{MAX_SOURCE_RADIUS}; use a smaller σ²")


def layer_denominator_bits(values):
    """Bits of the least common denominator of the exact rationals ``values`` (None entries skipped)."""
    den = 1
    for v in values:
        if v is not None:
            den = lcm(den, int(mpq(v).denominator))
    return den.bit_length()


def check_denominators(layers, advice):
    """LimitError when a layer's common denominator has more than MAX_DENOMINATOR_BITS bits.

    ``layers`` maps a name (the certificate field) to its values; checked after
    the exact solve and before the certificate is written.
    """
    for name, values in layers.items():
        bits = layer_denominator_bits(values)
        if bits > MAX_DENOMINATOR_BITS:
            raise LimitError(f"{name}: the exact potential's common denominator has {bits} bits, above the "
                             f"auditor's limit {MAX_DENOMINATOR_BITS}; {advice}")


def window_layers(name, values):
    """{"name[d]": [values at (x, d)]} for d = −1, 0, 1 of a window potential (a dict (x, d) -> value)."""
    layers = {}
    for (_x, d), v in sorted(values.items()):
        layers.setdefault(f"{name}[d={d}]", []).append(v)
    return layers
