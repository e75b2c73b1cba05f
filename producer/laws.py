"""Finite innovation laws and the rounding parameter γ.

A finite law is integer weights w_z >= 0 on z = offset, ..., offset+len-1 with
S = Σ w_z > 0, and ν(z) = w_z / S (docs/mechanism.md §1).  γ = a/B is a reduced fraction
with 0 < a < B, or γ = 0 (a = 0, B = 1: no hidden feedback, K_t = η_t, so every
row is ν itself and the game is the plain adaptive composition of ν's shift
experiments; docs/plain-composition.md).
"""

from fractions import Fraction
from math import gcd

from gmpy2 import mpq, mpz

from producer.errors import InputError, LimitError
from producer.rationals import is_numpy_number, parse_integer, parse_rational

MAX_LAW_LENGTH = 4097  # documented limit on the support length of a finite law
MAX_OFFSET = 10**6  # |offset| of a law read from input (the engine's work grows with it)


class Gamma:
    """The feedback coefficient γ = a/B (reduced, 0 < a < B), or γ = 0 as a = 0, B = 1."""

    __slots__ = ("a", "B")

    def __init__(self, a, B):
        a, B = int(a), int(B)
        shown_a, shown_B = mpz(a), mpz(B)  # gmpy2 prints any size (Python's int str has a limit)
        if (a, B) == (0, 1):  # γ = 0: plain composition
            self.a, self.B = a, B
            return
        if B < 2:
            raise InputError(f"gamma: denominator B = {shown_B} must be at least 2 (γ = a/B with 0 < a < B)")
        if not 0 < a < B:
            raise InputError(f"gamma: {shown_a}/{shown_B} is not in (0, 1): need 0 < a < B")
        if gcd(a, B) != 1:
            raise InputError(f"gamma: {shown_a}/{shown_B} is not reduced (gcd {mpz(gcd(a, B))}); "
                             f"write it in lowest terms")
        self.a, self.B = a, B

    @classmethod
    def from_string(cls, text):
        text = str(text).strip()
        if "/" not in text:  # 0, or an exact decimal (0.5 is 1/2, 0.0 is 0), read like every other rational
            value = parse_rational(text, "gamma")
            if value.denominator == 1 and value != 0:
                raise InputError(f"gamma: {text!r} is not in (0, 1): write γ = a/B with 0 < a < B, e.g. 1/3")
            return cls(value.numerator, value.denominator)
        num, den = text.split("/", 1)
        return cls(parse_integer(num, "gamma numerator"), parse_integer(den, "gamma denominator"))

    @property
    def is_zero(self):
        """γ = 0: no hidden feedback."""
        return self.a == 0

    def __str__(self):
        if self.is_zero:
            return "0"
        return f"{mpz(self.a)}/{mpz(self.B)}"

    def __repr__(self):
        return f"Gamma({self.a}, {self.B})"

    def __eq__(self, other):
        return isinstance(other, Gamma) and (self.a, self.B) == (other.a, other.B)

    def __hash__(self):
        return hash((self.a, self.B))


def parse_gamma(value):
    """γ from ``"a/B"``, a ``Fraction`` (or gmpy2 mpq), a float (its shortest decimal) or a :class:`Gamma`.

    A string ``a/B`` must be reduced with 0 < a < B ("2/6" and "3/3" are refused
    with the same message everywhere); an exact decimal is read exactly like any
    other rational ("0.5" is 1/2, "0.25" is 1/4, "0.0" is γ = 0); a Fraction is
    reduced by construction (Fraction(0) is γ = 0, as is the integer 0).
    """
    if isinstance(value, Gamma):
        return value
    if isinstance(value, str):
        return Gamma.from_string(value)
    if isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return Gamma(0, 1)
    if isinstance(value, float) or is_numpy_number(value):
        value = parse_rational(value, "gamma")   # a float as its shortest decimal, like every rational here
    if isinstance(value, (Fraction, type(mpq(0)))):
        num, den = parse_integer(value.numerator, "gamma numerator"), \
            parse_integer(value.denominator, "gamma denominator")
        return Gamma(num, den)
    raise InputError(f"gamma: expected a/B as a string like '1/3' or a Fraction, got {value!r}")


class FiniteLaw:
    """Integer weights on a window of integers; immutable.

    ``weight(z)`` is w_z (0 outside the window); ``total`` is S.
    """

    __slots__ = ("weights", "offset", "total", "_hash")

    def __init__(self, weights, offset):
        ws = tuple(mpz(w) for w in weights)
        if not ws:
            raise InputError("weights: the law needs at least one weight")
        if len(ws) > MAX_LAW_LENGTH:
            raise InputError(f"weights: {len(ws)} weights exceed the limit of {MAX_LAW_LENGTH}")
        for i, w in enumerate(ws):
            if w < 0:
                raise InputError(f"weights: weight {i} (at z = {offset + i}) is negative: {int(w)}")
        total = sum(ws, mpz(0))
        if total == 0:
            raise InputError("weights: all weights are zero; the law needs positive total mass")
        self.weights = ws
        self.offset = int(offset)
        self.total = total
        self._hash = hash((ws, self.offset))

    @classmethod
    def from_strings(cls, weights_text, offset=None):
        """From ``"w1,w2,..."`` (or a list of strings); default offset −(len−1)//2."""
        items = weights_text.split(",") if isinstance(weights_text, str) else list(weights_text)
        if len(items) > MAX_LAW_LENGTH:
            raise LimitError(f"weights: {len(items)} weights exceed the limit of {MAX_LAW_LENGTH}")
        ws = [parse_integer(s.strip() if isinstance(s, str) else s, f"weight {i}") for i, s in enumerate(items)]
        if offset is None:
            offset = -((len(ws) - 1) // 2)
        offset = parse_integer(offset, "offset")
        if abs(offset) > MAX_OFFSET:
            raise LimitError(f"offset: {mpz(offset)} is outside the limit ±{MAX_OFFSET}")
        return cls(ws, offset)

    @property
    def low(self):
        return self.offset

    @property
    def high(self):
        return self.offset + len(self.weights) - 1

    def weight(self, z):
        i = z - self.offset
        if 0 <= i < len(self.weights):
            return self.weights[i]
        return mpz(0)

    def is_symmetric(self):
        """ν(z) = ν(−z) for every z."""
        return all(self.weight(z) == self.weight(-z) for z in range(self.low, self.high + 1))

    def trimmed(self):
        """The same law with zero weights removed from both ends of the window."""
        ws = list(self.weights)
        lo = 0
        while ws[lo] == 0:
            lo += 1
        hi = len(ws)
        while ws[hi - 1] == 0:
            hi -= 1
        return FiniteLaw(ws[lo:hi], self.offset + lo)

    def as_json(self):
        return {"weights": [str(mpz(w)) for w in self.weights], "offset": self.offset}   # gmpy2: no digit limit

    def __eq__(self, other):
        return isinstance(other, FiniteLaw) and (self.weights, self.offset) == (other.weights, other.offset)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"FiniteLaw({[int(w) for w in self.weights]}, offset={self.offset})"
