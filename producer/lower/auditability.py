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
"""

from gmpy2 import mpz

from producer.errors import LimitError

MAX_WINDOW = 10 ** 5
MAX_WORK = 3 * 10 ** 8
MAX_DIGITS = 10_000
MAX_STRING_CHARS = 20_002

__all__ = ["estimated_work", "check_auditable_deadlines"]


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
