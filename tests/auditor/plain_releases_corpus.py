"""Builds plain-composition/1 certificates of the releases form (and relative widths) for the auditor tests.

The points come from an independent brute force (never the producer, never
the auditor's lattice): per draw, the masses of P = N and of Q = N(· − s)
grouped by the exact (Fraction) value of the privacy loss, convolved as
dictionaries, and δ(ε) = Σ_ℓ (P(ℓ) − e^ε Q(ℓ))_+ with mpmath at 400 bits (Q
summed directly, not through the tilt the auditor uses).  The draws are
truncated where the mass left (below e^-400 of the normaliser) is far below
every claimed width; the claims are the brute force widened outward onto a
decimal grid (absolute: 10^-45 places around ±10^-60; relative: 1 ± 10^-7),
sealed with :func:`tests.reseal.seal`.
"""

import copy
from fractions import Fraction
from functools import lru_cache

import mpmath

from auditor.common import outward_decimal
from auditor.rationals import write_rational
from tests.reseal import seal

PREC = 400
FAMILY = {"dg": "discrete-gaussian", "dl": "discrete-laplace"}
KEY = {"dg": "sigma2", "dl": "t"}
PRODUCER = {"name": "dp-certify-tests", "version": "0"}


def _mp(q):
    q = Fraction(q)
    return mpmath.mpf(q.numerator) / q.denominator


def _weight(family, scale, n):
    """The unnormalised mass of n: exp(−n²/(2σ²)) or exp(−|n|/t)."""
    if family == "dg":
        return mpmath.exp(-mpmath.mpf(n * n) / (2 * _mp(scale)))
    return mpmath.exp(-abs(n) / _mp(scale))


def _loss(family, scale, s, x):
    """log N(x)/N(x − s), exactly: (s² − 2sx)/(2σ²) or (|x − s| − |x|)/t."""
    if family == "dg":
        return Fraction(s * s - 2 * s * x) / (2 * scale)
    return Fraction(abs(x - s) - abs(x)) / scale


@lru_cache(maxsize=None)
def _draw(family, scale, s):
    """{loss (Fraction): (P mass, Q mass)} of one draw, by direct sums over a truncated range."""
    scale = Fraction(scale)
    with mpmath.workprec(PREC):
        radius = (int(mpmath.sqrt(2 * _mp(scale) * PREC)) if family == "dg" else int(PREC * scale)) + s + 5
        total = mpmath.fsum(_weight(family, scale, n) for n in range(-4 * radius, 4 * radius + 1))
        out = {}
        for x in range(-radius, radius + 1):
            key = _loss(family, scale, s, x)
            p, q = out.get(key, (0, 0))
            out[key] = (p + _weight(family, scale, x) / total, q + _weight(family, scale, x - s) / total)
    return out


@lru_cache(maxsize=None)
def _product(spec):
    acc = {Fraction(0): (mpmath.mpf(1), mpmath.mpf(1))}
    with mpmath.workprec(PREC):
        for family, scale, s, k in spec:
            one = _draw(family, scale, s)
            for _ in range(k):
                nxt = {}
                for la, (pa, qa) in acc.items():
                    for lb, (pb, qb) in one.items():
                        p, q = nxt.get(la + lb, (0, 0))
                        nxt[la + lb] = (p + pa * pb, q + qa * qb)
                acc = nxt
    return acc


def brute_delta(spec, epsilon):
    """δ(ε) of the product pair, by brute force (0 exactly where every release is a discrete Laplace and
    ε >= Σ k·s/t, the largest loss)."""
    if all(f == "dl" for f, *_ in spec) and epsilon >= sum(k * Fraction(s) / Fraction(t) for _, t, s, k in spec):
        return mpmath.mpf(0)
    with mpmath.workprec(PREC):
        e = mpmath.exp(_mp(epsilon))
        return mpmath.fsum(max(mpmath.mpf(0), p - e * q) for p, q in _product(spec).values())


def _outward(v, places, direction):
    scaled = v * mpmath.mpf(10) ** places
    n = int(mpmath.floor(scaled)) - 1 if direction < 0 else int(mpmath.ceil(scaled)) + 1
    return max(Fraction(0), Fraction(n, 10 ** places))


def point(epsilon, lower, upper):
    return {"epsilon": write_rational(epsilon), "lower": write_rational(lower), "upper": write_rational(upper),
            "lower_display": outward_decimal(lower, 20, -1), "upper_display": outward_decimal(upper, 20, +1)}


def noise(family, scale):
    return {"family": FAMILY[family], KEY[family]: write_rational(Fraction(scale))}


def make(spec, epsilons, width=Fraction(1, 10 ** 40), rel_width=None, relative=False):
    """A true certificate of the releases form (or of the single-law form for one release (dg|dl, x, 1, C)
    when spec is a tuple ('single', family, x, C)); relative: claims within 1 ± 10^-7 of the truth."""
    epsilons = [Fraction(e) for e in epsilons]
    if spec[0] == "single":
        _, family, scale, budget = spec
        inp = {"noise": noise(family, scale), "budget": budget}
        spec = ((family, scale, 1, budget),)
    else:
        inp = {"releases": [{"noise": noise(f, x), "sensitivity": s, "count": k} for f, x, s, k in spec]}
    inp.update({"epsilons": [write_rational(e) for e in epsilons],
                "width": None if width is None else write_rational(width)})
    if rel_width is not None or width is None:
        inp["rel_width"] = None if rel_width is None else write_rational(rel_width)
    with mpmath.workprec(PREC):         # every mpmath step at 400 bits, whatever the global precision
        points = [_point(spec, e, relative) for e in epsilons]
    cert = {"schema": "plain-composition/1", "producer": dict(PRODUCER), "input": inp,
            "result": {"points": points}}
    return seal(cert)


def _point(spec, e, relative):
    """The brute force widened outward: relative (1 ± 10^-7) or absolute (± 10^-60, 45 places)."""
    v = brute_delta(spec, e)
    if v == 0:
        return point(e, Fraction(0), Fraction(0))
    if relative:
        places = int(-mpmath.floor(mpmath.log10(v))) + 8
        slack = mpmath.mpf(10) ** -7
        lo, hi = _outward(v * (1 - slack), places, -1), _outward(v * (1 + slack), places, +1)
    else:
        lo, hi = _outward(v - mpmath.mpf(10) ** -60, 45, -1), _outward(v + mpmath.mpf(10) ** -60, 45, +1)
    return point(e, lo, min(Fraction(1), hi))


MIXED = (("dg", 2, 1, 2), ("dg", 3, 2, 1), ("dl", 1, 1, 2), ("dl", 2, 3, 1))
SMALL = (("dg", 1, 3, 1), ("dl", Fraction(1, 2), 2, 2))
LAPLACE = (("dl", 1, 1, 1), ("dl", 2, 2, 1))          # largest loss 1 + 1 = 2
TINY = (("dg", 1, 1, 1), ("dg", 1, 2, 1))             # δ(50) about 10^-100


@lru_cache(maxsize=None)
def _built(name):
    return {
        "mixed": lambda: make(MIXED, ["0", "1/2", "2", "5"]),
        "small": lambda: make(SMALL, ["1", "4"]),
        "laplace": lambda: make(LAPLACE, ["1/2", "2", "3"]),
        "tiny-relative": lambda: make(TINY, ["40", "50"], width=None, rel_width=Fraction(1, 1000), relative=True),
        "single-relative": lambda: make(("single", "dg", 1, 3), ["30"], width=None, rel_width=Fraction(1, 1000),
                                        relative=True),
        "single-both": lambda: make(("single", "dl", 1, 4), ["1"], width=Fraction(1, 10 ** 30),
                                    rel_width=Fraction(1, 1000)),
    }[name]()


def built(name):
    """A fresh copy of a true certificate of the corpus (the names of :func:`_built`)."""
    return copy.deepcopy(_built(name))
