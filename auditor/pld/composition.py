"""Exact products, windows and powers of the fixed-point loss arrays (docs/dpsgd.md §6).

An array is a list of nonnegative integers on consecutive indices
offset, offset + 1, ... and, for two of the three kinds, an atom:

=========  =======  ========  ========================  =========================
kind       scale    rounding  mass below a window       mass above a window
=========  =======  ========  ========================  =========================
UPPER      K        ceil      added to its first index  added to the atom (+∞)
LOWER_P    K        floor     dropped                   added to its last index
LOWER_Q    K′       ceil      added to its first index  added to the atom X
=========  =======  ========  ========================  =========================

Products.  c_k = Σ_i A[i]·B[k − i] exactly, by Kronecker substitution: each
array is packed into one integer with fields of s = bits(max A) +
bits(max B) + bits(min(n_A, n_B)) bits (every c_k is a sum of at most
min(n_A, n_B) products below 2^{bits(max A) + bits(max B)}, so below 2^s: no
field overflows into the next), the integers are multiplied by GMP, and the
fields read back.  Then C[k] = ⌈c_k/2^scale⌉ (⌊⌋ for LOWER_P) and the atom
⌈(a·(ΣB + b) + ΣA·b)/2^scale⌉ (+∞ plus anything is +∞; "in every event"
stays in every event).

Why the rounding and the windows are safe: each moves mass the way its side
tolerates (upper and Q arrays: up, towards the atom; P arrays: down or away),
and convolution with a nonnegative array keeps the order A ⪰ B (every upper
tail sum at least as large), so the composed arrays dominate (upper, Q) or
are dominated by (P) the exact composed laws; docs/dpsgd.md §4 (iv) and §5.
"""

from typing import NamedTuple

import gmpy2

__all__ = ["UPPER", "LOWER_P", "LOWER_Q", "Array", "product", "window", "power", "compose",
           "products_in_power"]

UPPER, LOWER_P, LOWER_Q = "upper", "lower_p", "lower_q"
# where a window puts the mass below and above it (the table of the module docstring; None: dropped)
_WINDOW_RULES = {UPPER: ("first", "atom"), LOWER_P: (None, "last"), LOWER_Q: ("first", "atom")}


class Array(NamedTuple):
    """Integers ``values`` on indices offset, offset + 1, ..., and an ``atom`` (0 for LOWER_P)."""

    offset: int
    values: list
    atom: int = 0


def products_in_power(steps):
    """Number of products of the T-fold power: (bit length of T − 1) + (popcount of T − 1)."""
    return steps.bit_length() - 1 + bin(steps).count("1") - 1


def exact_convolution(a, b):
    """The exact integer convolution of two lists of nonnegative ints (Kronecker substitution)."""
    count = len(a) + len(b) - 1
    top_a, top_b = max(a), max(b)
    if top_a == 0 or top_b == 0:
        return [0] * count
    field = top_a.bit_length() + top_b.bit_length() + min(len(a), len(b)).bit_length()
    packed_a = gmpy2.pack(a, field)
    packed = packed_a * packed_a if a is b else packed_a * gmpy2.pack(b, field)
    out = gmpy2.unpack(packed, field)
    if len(out) < count:
        out.extend([0] * (count - len(out)))
    return out[:count]


def product(A, B, kind, scale):
    """A·B of one kind at fixed point ``scale`` (K or K′), rounded as the kind requires."""
    exact = exact_convolution(A.values, B.values)
    if kind == LOWER_P:
        return Array(A.offset + B.offset, [c >> scale for c in exact])
    mask = (1 << scale) - 1
    values = [(c + mask) >> scale for c in exact]
    sum_a = sum(A.values)
    sum_b = sum(B.values) if B is not A else sum_a
    atom = (A.atom * (sum_b + B.atom) + sum_a * B.atom + mask) >> scale
    return Array(A.offset + B.offset, values, atom)


def window(A, lo, hi, kind):
    """A on exactly the indices lo ... hi, the mass outside moved as ``kind`` requires."""
    values, n, length = A.values, len(A.values), hi - lo + 1
    start, stop = lo - A.offset, hi - A.offset + 1     # positions of lo and of hi + 1 in A
    a, b = min(max(start, 0), n), max(min(stop, n), 0)
    below, above = sum(values[:a]), sum(values[b:])
    if a < b:
        kept = [0] * (a - start) + values[a:b]
        kept.extend([0] * (length - len(kept)))
    else:
        kept = [0] * length
    to_below, to_above = _WINDOW_RULES[kind]
    if to_below == "first":
        kept[0] += below
    if to_above == "last":
        kept[-1] += above
    return Array(lo, kept, A.atom + (above if to_above == "atom" else 0))


def power(base, steps, windows, kind, scale):
    """The ``steps``-fold power of ``base``, windowed after each product as ``windows`` lists them."""
    windows = iter(windows)
    A = base
    for bit in bin(steps)[3:]:
        lo, hi = next(windows)
        A = window(product(A, A, kind, scale), lo, hi, kind)
        if bit == "1":
            lo, hi = next(windows)
            A = window(product(A, base, kind, scale), lo, hi, kind)
    return A


def compose(powers, windows, kind, scale):
    """The stage powers multiplied in order, windowed after each product."""
    result = powers[0]
    for array, (lo, hi) in zip(powers[1:], windows):
        result = window(product(result, array, kind, scale), lo, hi, kind)
    return result
