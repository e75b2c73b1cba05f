"""Work limits of the resource-law checks, estimated from the certificate's sizes before any work.

Beyond a limit the certificate is UNCHECKED (exit 3), naming the field, the
estimate and the limit.  The producer's own limits (docs/resource-laws.md §5)
lie within every one of them (docs/certificates.md).

- Rewards (:mod:`auditor.resource.kl`): at most :data:`MAX_REWARD_BITS` bits of
  starting precision p, and with Y the summation length at p
  (Y ≈ sqrt(2σ²·log 2·(p + 16))) and w = P/64 + 1 (P ≈ p + guard bits) the work
  Λ·(Y + 3)·w² + 9·k·(2Y + 1)·w (Λ <= 2k + 2 the phases whose logarithms are
  tabulated, k the residues of the table; about a microsecond a unit) at most
  :data:`MAX_REWARD_WORK`.  The retry at RETRY_FACTOR·p is estimated the same
  way for the entries still open, before it starts; beyond the limit they stay
  undecided, so not established (FAIL).
- Rows (:mod:`auditor.resource.rows`): hidden states × (2L + 1) weights at most
  :data:`MAX_ROW_WORK`.
- ``rate/1``: the period N with 6BN + 2N <= :data:`MAX_PERIOD_COLUMNS` (the
  producer's LP size limit; the rows checked are 6BN participation rows with
  at most min(N, 2L + 2) terms each and 2BN echo rows).
"""

from fractions import Fraction
from math import isqrt

from auditor.outcomes import Unchecked
from auditor.rationals import floor
from auditor.resource.kl import LN2_UPPER

__all__ = ["MAX_REWARD_WORK", "MAX_REWARD_BITS", "MAX_ROW_WORK", "MAX_PERIOD_COLUMNS", "reward_work", "refuse_rewards",
           "refuse_rows", "refuse_period"]

MAX_REWARD_WORK = 10 ** 8
MAX_REWARD_BITS = 4096
MAX_ROW_WORK = 2 * 10 ** 7
MAX_PERIOD_COLUMNS = 1000


def _length(sigma2, bits):
    need = 2 * Fraction(sigma2) * LN2_UPPER * (bits + 16)
    return isqrt(floor(need)) + 8


def reward_work(params, residues, bits):
    """Estimated work units of one pass of the reward enclosures for ``residues`` residues at ``bits``."""
    Y = _length(params.sigma2, bits)
    w = (bits + 3 * Y.bit_length() + params.B.bit_length() + 16) // 64 + 1
    phases = min(params.B, 2 * residues + 2)
    return phases * (Y + 3) * w * w + 9 * residues * (2 * Y + 1) * w


def refuse_rewards(params, residues, bits, pointer):
    """UNCHECKED when the first pass of the reward enclosures is beyond the limits."""
    if bits > MAX_REWARD_BITS:
        raise Unchecked(pointer, bits, MAX_REWARD_BITS, "starting precision of the reward enclosures (bits)")
    work = reward_work(params, residues, bits)
    if work > MAX_REWARD_WORK:
        raise Unchecked(pointer, work, MAX_REWARD_WORK, "estimated work of the reward enclosures")


def refuse_rows(states, radius, pointer):
    work = states * (2 * radius + 1)
    if work > MAX_ROW_WORK:
        raise Unchecked(pointer, work, MAX_ROW_WORK, "estimated work of the rows (states x source weights)")


def refuse_period(B, N, pointer="/input/period"):
    columns = 6 * B * N + 2 * N
    if columns > MAX_PERIOD_COLUMNS:
        raise Unchecked(pointer, columns, MAX_PERIOD_COLUMNS, "period LP columns 6BN + 2N")
