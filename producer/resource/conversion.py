"""Exact conversions between gmpy2 and python-flint rationals (the LP solves in flint, the rest in gmpy2)."""

from flint import fmpq, fmpz
from gmpy2 import mpq


def fq(v):
    """gmpy2 mpq (or int) -> flint fmpq."""
    v = mpq(v)
    return fmpq(fmpz(int(v.numerator)), fmpz(int(v.denominator)))


def mq(v):
    """flint fmpq -> gmpy2 mpq."""
    return mpq(int(v.p), int(v.q))
