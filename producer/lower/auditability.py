"""The auditor's documented limits on a ``deadline-witness/1`` certificate, checked before the work.

docs/certificates.md (``deadline-witness/1``): the auditor answers UNCHECKED
beyond a window of 10⁵ states or an estimated work of 3·10⁸ units
(``estimated_work`` below restates its formula: experiment atoms, prefix
bisections and the waiting recursion on numerators of about T·bits(D) bits);
its reader refuses a string longer than 20,002 characters and a number with
more than 10,000 digits in its numerator or denominator.  The deadline numbers
p, q, payoff and lower are fractions over D^T (times the threshold's
denominator), and each stopping string has one letter per window state, so
those sizes are refused here too, once the window is known and before the
suffix tables and the recursion run.  (The source limits, scale <= 4,096 bits
and radius <= 20,000, are within the producer's own: 4,096 bits and 2,048.)

The file's budget (docs/certificates.md, "The budget of one file"), restated
for :mod:`producer.audit_budget`:

- ``deadline-witness/1``: 200 × the work estimate above, plus its reference's
  (a ``dg-interval/1``: 400 × its game's work); each within one budget by its
  own limit, so the two need at most two (:func:`deadline_cost`);
- ``calibration-lower/1`` ``target-zero``: 70 × nodes × priors × (2L + 2) work
  units and 3/2 byte per unit of nodes × priors × (2L + 2) of memory, so
  nodes × priors × (2L + 2) <= 857,142,857 fits the default budget; the
  auditor's own line limit (3·10⁹) allows up to four budgets
  (:func:`target_zero_cost`);
- ``capped-preparation``: 1200 × its work estimate (its own limit, 5·10⁷, is
  one whole budget), no memory counted (:func:`capped_cost`).
"""

from gmpy2 import mpz

from producer import audit_budget
from producer.errors import LimitError
from producer.game.auditability import dg_interval_cost
from producer.laws import parse_gamma

MAX_WINDOW = 10 ** 5
MAX_WORK = 3 * 10 ** 8
MAX_DIGITS = 10_000
MAX_STRING_CHARS = 20_002
DEADLINE_UNITS = 200     # budget work units per unit of the deadline witness's work estimate
TARGET_UNITS = 70        # budget work units per unit of nodes × priors × (2L + 2)
TARGET_BYTES = (3, 2)    # budget bytes per unit of nodes × priors × (2L + 2): 3/2, rounded down
CAPPED_UNITS = 1200      # budget work units per unit of the capped-preparation work estimate

__all__ = ["estimated_work", "check_auditable_deadlines", "deadline_cost", "line_units", "target_zero_cost",
           "capped_cost"]


def estimated_work(B, radius, scale, window, patterns, max_T):
    """The auditor's work units: 4·atoms + leaves·(2d·bits(M) + 2) + 2·recursion, with M = 2L + 2."""
    M = 2 * radius + 2
    m = len(patterns[0])
    d = min(m, 2)
    leaves = window * len(patterns) * M ** (m - d)
    experiments = min(len(patterns) * B ** d, leaves)
    atoms = experiments * M ** d
    bits_D = int(mpz(B) * mpz(scale)).bit_length()
    recursion = max(0, max_T - m) * window * M * (1 + max_T * bits_D // 2048)
    return 4 * atoms + leaves * (2 * d * M.bit_length() + 2) + 2 * recursion


def _digits(n):
    return len(str(mpz(n)))


def check_auditable_deadlines(request, low, high, threshold_denominator):
    """LimitError (one line) if the certificate of ``request`` with window [low, high] is beyond the auditor."""
    window, max_T, m = high - low + 1, request.deadlines[-1], request.length
    if window > MAX_WINDOW:
        raise LimitError(f"window: {window} states exceed the auditor's limit {MAX_WINDOW} (use a smaller radius "
                         f"or a γ with a smaller denominator)")
    if max_T > m and window > MAX_STRING_CHARS:
        raise LimitError(f"window: {window} states make stopping strings longer than the auditor's limit of "
                         f"{MAX_STRING_CHARS} characters")
    B = request.gamma.B
    work = estimated_work(B, request.radius, request.scale, window, request.patterns, max_T)
    if work > MAX_WORK:
        raise LimitError(f"deadlines: T = {max_T} with a window of {window} states and radius {request.radius} "
                         f"needs auditor work {work}, above its limit {MAX_WORK}; use a smaller T, radius or scale")
    D = mpz(B) * request.scale
    digits = _digits(D ** max_T * threshold_denominator)
    if digits > MAX_DIGITS:
        raise LimitError(f"deadlines: at T = {max_T} the exact numbers have denominators up to D^T·N of {digits} "
                         f"digits (D = B·S), above the auditor's limit {MAX_DIGITS}; use a smaller T or scale")


def deadline_cost(cert):
    """The file's budget cost of a ``deadline-witness/1`` certificate (dict): its own work and its reference's."""
    inp, res = cert["input"], cert["result"]
    window = res["window"]["high"] - res["window"]["low"] + 1
    work = estimated_work(parse_gamma(inp["gamma"]).B, inp["radius"], mpz(inp["scale"]), window,
                          inp["patterns"], max(inp["deadlines"]))
    own = audit_budget.AuditCost(DEADLINE_UNITS * work, 0, "the deadline witness", "a smaller T, radius or scale")
    reference = None if res["reference"] is None else dg_interval_cost(res["reference"])
    return audit_budget.together([own, reference])


def line_units(nodes, priors, radius, scale_bits):
    """The auditor's line-tree work: nodes × priors × outputs (2L + 2) × ⌈(b + 192)/256⌉, the last factor for
    lines at the fixed point 2^b (1 up to b = 64; the packed fields widen with b)."""
    return nodes * priors * (2 * radius + 2) * -(-(scale_bits + 192) // 256)


def target_zero_cost(nodes, priors, radius, scale_bits=60):
    """The file's budget cost of a target-zero line tree: 70 × units of work (:func:`line_units`), 3/2 byte a
    unit of memory."""
    units = line_units(nodes, priors, radius, scale_bits)
    numerator, denominator = TARGET_BYTES
    return audit_budget.AuditCost(TARGET_UNITS * units, numerator * units // denominator, "the line tree",
                                  "fewer priors, a smaller radius or a smaller C")


def capped_cost(work):
    """The file's budget cost of a capped-preparation check of ``work`` (its own estimate): 1200 × it."""
    return audit_budget.AuditCost(CAPPED_UNITS * work, 0, "the capped preparation",
                                  "a smaller cap, radius or suffix")
