"""Thresholds on a decimal grid: λ₋ = floor(N·e^ε)/N and λ₊ = λ₋ + 1/N.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.1.)

The floor is certified by an arb enclosure of e^ε whose two ends have the same
floor after scaling by N; the precision is raised until they do.
"""

from gmpy2 import mpq, mpz

from producer.errors import InputError
from producer.rationals import describe_rational
from producer.sources.enclosures import check_auditor_threshold, exp_enclosure, log2_exp_bits

MAX_PRECISION_BITS = 1 << 14


def check_threshold_size(epsilon, denominator):
    """LimitError, before any work, when λ± = floor(N·e^ε)/N (+ 1/N) has more bits than the auditor decides."""
    N = mpz(denominator)
    check_auditor_threshold(log2_exp_bits(epsilon) + N.bit_length() + 1,
                            f"the threshold floor(N·e^ε)/N at ε = {describe_rational(mpq(epsilon))} and "
                            f"N = 10^{len(str(N)) - 1}",
                            "use a smaller ε or threshold denominator")


def floor_scaled(value_enclosure, N):
    """floor(N·t) if both ends of the enclosure of t agree on it, else None."""
    lo, hi = value_enclosure.lo * N, value_enclosure.hi * N
    f_lo = lo.numerator // lo.denominator
    f_hi = hi.numerator // hi.denominator
    return f_lo if f_lo == f_hi else None


def grid_threshold(epsilon, denominator):
    """(λ₋, λ₊) = (floor(N·e^ε)/N, floor(N·e^ε)/N + 1/N) for N = ``denominator``."""
    epsilon, N = mpq(epsilon), mpz(denominator)
    if N < 1:
        raise InputError(f"threshold denominator: must be a positive integer, got {N}")
    if epsilon < 0:
        raise InputError(f"epsilon: must be >= 0, got {epsilon}")
    check_threshold_size(epsilon, N)
    bits = int(N.bit_length()) + 64
    while bits <= MAX_PRECISION_BITS:
        f = floor_scaled(exp_enclosure(epsilon, bits=bits), N)
        if f is not None:
            return mpq(f, N), mpq(f + 1, N)
        bits *= 2
    raise ArithmeticError(f"could not decide floor(N·e^ε) for ε = {epsilon}, N = {N}")
