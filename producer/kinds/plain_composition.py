"""The ``plain-composition/1`` certificate: certified δ(ε) of the C-fold plain composition.

Input: the noise (discrete Gaussian σ² or discrete Laplace t), the budget C,
the strictly increasing ε and the width W.  Result: one point per ε with
exact rationals lower <= δ(ε) <= upper, upper − lower <= W, and decimal
displays rounded outward (lower down, upper up) at the places of
:func:`producer.kinds.dg_interval.display_digits` (8 places beyond the
first significant place of W, at least 12).  The maths and the proofs of the
enclosures: :mod:`producer.plain`.
"""

import sys

from producer.certificates.canonical import make_certificate
from producer.kinds.dg_interval import display_digits
from producer.plain.enclose import points
from producer.rationals import decimal_outward, format_rational

KIND, VERSION = "plain-composition", 1


def point_json(point, digits):
    return {
        "epsilon": format_rational(point.epsilon),
        "lower": format_rational(point.lower),
        "upper": format_rational(point.upper),
        "lower_display": decimal_outward(point.lower, digits, -1),
        "upper_display": decimal_outward(point.upper, digits, +1),
    }


def build(request, quiet=True):
    """The plain-composition certificate (a dict) for ``request`` (a PlainRequest)."""
    def log(message):
        if not quiet:
            print(f"plain: {message}", file=sys.stderr, flush=True)
    digits = display_digits(request.width)
    result = {"points": [point_json(p, digits) for p in points(request, log)]}
    return make_certificate(KIND, VERSION, request.as_json(), result)
