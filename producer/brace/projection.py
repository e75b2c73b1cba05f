"""Exact ball projections, truncated toward the centre onto a dyadic grid.

The mechanism projects onto closed balls B(c, R) with R^2 rational but R
possibly irrational.  We define the projection used by the mechanism as

    P_g(c, p, R^2) = p                                 if ||p - c||^2 <= R^2,
                     c + trunc_g(R (p - c) / ||p - c||)  otherwise,

and the *release* rounding as ``c + trunc_g(u)`` of the (exact) projected
offset u, where trunc_g rounds each coordinate toward zero onto 2^-g Z.

Claim: the result lies in B(c, R).  Proof: every coordinate of trunc_g(u) has
absolute value at most that of u, so ||trunc_g(u)|| <= ||u|| <= R.

Exactness: for u_i = R w_i / ||w|| the integer floor(|u_i| 2^g) equals
isqrt(floor(R^2 w_i^2 4^g / ||w||^2)), because floor(sqrt(x)) =
isqrt(floor(x)) for every rational x >= 0 (sqrt is increasing and maps the
integers k^2 to k).  So no square root is ever approximated.
"""

from gmpy2 import isqrt, mpq, mpz

from producer.brace.retrieval import squared_norm, sub


def _trunc(x, g):
    """x rounded toward zero onto 2^-g Z (x rational)."""
    s = mpz(1) << g
    n = abs(x.numerator) * s // x.denominator
    return mpq(-n if x < 0 else n, s)


def truncate_offset(w, g):
    """trunc_g(w), coordinatewise toward zero."""
    return tuple(_trunc(mpq(c), g) for c in w)


def truncate_scaled_offset(w, R2, g):
    """trunc_g(R w / ||w||) exactly (w != 0), via integer square roots."""
    n2 = squared_norm(w)
    s4 = mpz(1) << (2 * g)
    out = []
    for c in w:
        x = R2 * c * c * s4 / n2  # = (R |c| 2^g / ||w||)^2
        k = isqrt(x.numerator // x.denominator)
        out.append(mpq(-k if c < 0 else k, mpz(1) << g))
    return tuple(out)


def project_internal(center, point, R2, g):
    """The mechanism's projection of ``point`` onto B(center, R): exact inside,
    radially projected and truncated toward ``center`` outside."""
    w = sub(point, center)
    if squared_norm(w) <= R2:
        return tuple(point), False
    off = truncate_scaled_offset(w, R2, g)
    return tuple(c + o for c, o in zip(center, off)), True


def project_and_round(center, point, R2, g):
    """The released point: projection onto B(center, R), then rounded toward
    ``center`` onto the grid center + 2^-g Z^d.  Returns (Y, projected?)."""
    w = sub(point, center)
    if squared_norm(w) <= R2:
        off, projected = truncate_offset(w, g), False
    else:
        off, projected = truncate_scaled_offset(w, R2, g), True
    return tuple(c + o for c, o in zip(center, off)), projected
