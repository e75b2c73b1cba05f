"""Work limits of the resource-law checks, estimated from the certificate's sizes before any work.

Beyond a limit the certificate is UNCHECKED (exit 3), naming the field, the
estimate and the limit.  The producer's own limits (docs/resource-laws.md §5)
lie within every one of them (docs/certificates.md).

- Rewards (:mod:`auditor.resource.kl`): with Y the summation length at the
  precision p (Y ≈ sqrt(2σ²·log 2·(p + 16))), the work is
  (20·Λ·(Y + 3) + 9·k·(2Y + 1))·ceil(P/64), Λ <= 2k the phases whose logarithms
  are tabulated and k the residues of the reward table, P ≈ p + guard bits;
  estimated for the first pass and its retry at RETRY_FACTOR·p, at most
  :data:`MAX_REWARD_WORK` (about a minute on the development machine).
- Rows (:mod:`auditor.resource.rows`): hidden states × (2L + 1) weights at most
  :data:`MAX_ROW_WORK`.
- ``rate/1``: the period N with 6BN + 2N <= :data:`MAX_PERIOD_COLUMNS` (the
  producer's LP size limit; the rows checked are 6BN participation rows with
  at most min(N, 2L + 2) terms each and 2BN echo rows).
"""

from fractions import Fraction
from math import isqrt

from auditor.decide import RETRY_FACTOR
from auditor.outcomes import Unchecked
from auditor.resource.kl import LN2_UPPER

__all__ = ["MAX_REWARD_WORK", "MAX_ROW_WORK", "MAX_PERIOD_COLUMNS", "reward_work", "refuse_rewards",
           "refuse_rows", "refuse_period"]

MAX_REWARD_WORK = 3 * 10 ** 8
MAX_ROW_WORK = 2 * 10 ** 7
MAX_PERIOD_COLUMNS = 1000


def _length(sigma2, bits):
    need = 2 * Fraction(sigma2) * LN2_UPPER * (bits + 16)
    return isqrt(need.numerator // need.denominator) + 8


def reward_work(params, residues, bits):
    """Estimated work units of the reward enclosures (first pass and retry)."""
    total = 0
    for p in (bits, RETRY_FACTOR * bits):
        Y = _length(params.sigma2, p)
        P = p + 3 * Y.bit_length() + params.B.bit_length() + 16
        phases = min(params.B, 2 * residues + 2)
        total += (20 * phases * (Y + 3) + 9 * residues * (2 * Y + 1)) * (P // 64 + 1)
    return total


def refuse_rewards(params, residues, bits, pointer):
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
