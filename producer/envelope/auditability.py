"""The auditor's documented limits on an ``envelope/1`` certificate, checked before any work.

docs/certificates.md (``envelope/1``) lists what the auditor refuses as
UNCHECKED, from the input alone; the producer refuses the same requests with
one line naming the limit.  With H histograms, N = (2k)^J transcripts, T the
universe size and b the certificate's precision:

- H·N <= 20,000 and H²·N <= 10⁶ (already :meth:`Instance.check_limits`);
- T·(H + N) <= 2·10⁶ (implied by the two above, since T <= H; restated);
- the exponents γJ, η and ε·max(n, 2)/2 <= 10,000;
- (H²·N + 1000)·max(1, ⌊2b/128⌋)² <= 10⁷: the auditor's work at twice the
  stated precision.  An explicit precision beyond it is refused; the automatic
  escalation (128, 256, 512 bits) stops at the last precision within it.
- JSON values: the file's reader counts at most 10⁵; the certificate holds at
  least H·(6N + T + k + 22) + N·(3k + J + 2) + 3n of them, so a request above
  is refused here (the exact count is checked again when the file is sealed,
  :mod:`producer.certificates.readability`).
"""

from gmpy2 import mpq

from producer.errors import LimitError
from producer.names import option
from producer.rationals import describe_rational

MAX_CELLS = 2_000_000
MAX_EXPONENT = 10_000
# the sampler's own: its weights are exact exponentials (10^7: 0.4 s; 10^9: 42 s and 6.5 GB; 10^11: GMP aborts)
MAX_SAMPLER_EXPONENT = 10 ** 7
MAX_WORK = 10_000_000
CONSTANT_UNITS = 1000
MAX_VALUES = 100_000

__all__ = ["check_auditable_instance", "auditable_precision", "auditor_work"]


def auditor_work(instance, bits):
    """The auditor's work estimate for a certificate stated at ``bits`` (it checks at 2·bits)."""
    H, N = instance.histogram_count, instance.transcript_count
    return (H * H * N + CONSTANT_UNITS) * max(1, (2 * bits) // 128) ** 2


def auditable_precision(instance, bits):
    """Whether a certificate at ``bits`` bits stays within the auditor's work limit."""
    return auditor_work(instance, bits) <= MAX_WORK


def least_values(instance):
    """A lower bound on the JSON values of the certificate (databases, answers, transcripts, discounts)."""
    H, N, T, k = instance.histogram_count, instance.transcript_count, instance.universe, instance.k
    return H * (6 * N + T + k + 22) + N * (3 * k + instance.rounds + 2) + 3 * instance.records


def check_exponents(instance, largest, whose, why):
    """LimitError naming the first exponent of the envelope's weights above ``largest`` (``whose`` limit)."""
    exponents = (("hedge", "γJ", instance.hedge * instance.rounds), ("select", "η", instance.select),
                 ("epsilon", "ε·max(n, 2)/2", instance.epsilon * max(instance.records, 2) / 2))
    for parameter, name, x in exponents:
        if mpq(x) > largest:
            raise LimitError(f"{option(parameter)}: the exponent {name} = {describe_rational(x)} exceeds {whose} "
                             f"{largest} {why}")


def check_auditable_instance(instance, precision=None):
    """LimitError (one line, naming the value and the limit) if the auditor would answer UNCHECKED."""
    H, N, T = instance.histogram_count, instance.transcript_count, instance.universe
    if T * (H + N) > MAX_CELLS:
        raise LimitError(f"universe: T·(H + N) = {T * (H + N)} table cells exceed the auditor's limit {MAX_CELLS}")
    check_exponents(instance, MAX_EXPONENT, "the auditor's limit", "for an exp it recomputes")
    values = least_values(instance)
    if values > MAX_VALUES:
        raise LimitError(f"enumeration: the certificate would hold at least {values} JSON values, above the "
                         f"auditor's limit {MAX_VALUES}; reduce T, n, k or J")
    if precision is not None and not auditable_precision(instance, precision):
        raise LimitError(f"{option('precision')}: {precision} bits needs auditor work "
                         f"{auditor_work(instance, precision)} "
                         f"(H²·N + 1000)·(2·bits/128)², above its limit {MAX_WORK}; use a lower precision")
