"""Validation shared by the resource-law kinds (rate/1, frontier/1, window-request/1, finite-budget/1).

Limits (docs/resource-laws.md, "Limits"; the auditor adopts them):
0 < γ = a/B < 1 reduced with B <= MAX_B; σ² rational in [1/100, 10^4].
"""

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.laws import parse_gamma
from producer.names import entry
from producer.rationals import describe_rational, format_rational, parse_rational

MIN_SIGMA2, MAX_SIGMA2 = mpq(1, 100), mpq(10) ** 4
MAX_B = 1000


def check_gamma(value):
    gamma = parse_gamma(value)
    if gamma.is_zero:
        raise InputError(f"gamma: the resource laws need hidden feedback, 0 < γ < 1 (γ = 0 is plain composition; "
                         f"use '{entry('plain')}')")
    if gamma.B > MAX_B:
        raise LimitError(f"gamma: the denominator B = {gamma.B} exceeds the limit B <= {MAX_B}")
    return gamma


def check_sigma2(value):
    sigma2 = mpq(parse_rational(value, "sigma2"))
    if sigma2 <= 0:
        raise InputError(f"sigma2: must be positive, got {format_rational(sigma2)}")
    if not MIN_SIGMA2 <= sigma2 <= MAX_SIGMA2:
        raise LimitError(f"sigma2: {describe_rational(sigma2)} is outside the limits [1/100, 10^4]")
    return sigma2


def check_positive(value, what):
    number = mpq(parse_rational(value, what))
    if number <= 0:
        raise InputError(f"{what}: must be positive, got {format_rational(number)}")
    return number


def check_integer_range(value, what, low, high):
    from producer.rationals import parse_integer
    number = parse_integer(value, what) if not isinstance(value, int) else value
    if number < low:
        raise InputError(f"{what}: must be at least {low}, got {number}")
    if number > high:
        raise LimitError(f"{what}: {number} exceeds the limit {high}")
    return int(number)


def check_window_auditable(gamma, sigma2, radius, source, reward_bits):
    """The auditor's limits on a window kind's rewards and rows (docs/certificates.md), before any work."""
    from producer.resource import auditability
    auditability.check_rewards(gamma.B, sigma2, auditability.window_residues(gamma.B, radius), reward_bits)
    auditability.check_source_radius(source.radius)
    auditability.check_rows(2 * radius + 1, source.radius, "radius")
