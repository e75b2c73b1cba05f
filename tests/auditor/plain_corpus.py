"""Builds plain-composition/1 certificates for the auditor tests (never with the producer).

Each point is the auditor's own enclosure at a higher precision, widened
outward onto a decimal grid finer than W/4 (so the claim contains δ(ε) and is
narrower than W), with displays rounded outward at DISPLAY_PLACES places and
the digest of :func:`auditor.certificate.digest`.  Also runnable as a script
to write certificates for timing: ``python -m tests.auditor.plain_corpus OUT
dg 1 1024 1,2,4,8 1/1000000000000000``.
"""

import json
import sys
from fractions import Fraction
from pathlib import Path

from auditor.certificate import digest
from auditor.common import outward_decimal
from auditor.plain import gaussian, laplace
from auditor.rationals import write_rational

DISPLAY_PLACES = 20
PRODUCER = {"name": "dp-certify-tests", "version": "0"}


def noise(family, parameter):
    if family == "dg":
        return {"family": "discrete-gaussian", "sigma2": write_rational(Fraction(parameter))}
    return {"family": "discrete-laplace", "t": write_rational(Fraction(parameter))}


def enclosures(family, parameter, budget, epsilons, width):
    bits = (width.denominator // width.numerator).bit_length() + 24
    module = gaussian if family == "dg" else laplace
    return module.delta_bounds(Fraction(parameter), budget, epsilons, bits)


def grid_places(width):
    """Decimal places d with 10^-d <= W/4."""
    d = 0
    while Fraction(1, 10 ** d) > width / 4:
        d += 1
    return d


def point(epsilon, lo, hi, places):
    scale = 10 ** places
    lower = max(Fraction(0), Fraction((lo * scale).__floor__() - 1, scale))
    upper = min(Fraction(1), Fraction((hi * scale).__ceil__() + 1, scale))
    if lo == hi == 0:
        lower = upper = Fraction(0)
    return make_point(epsilon, lower, upper)


def make_point(epsilon, lower, upper):
    return {"epsilon": write_rational(epsilon), "lower": write_rational(lower), "upper": write_rational(upper),
            "lower_display": outward_decimal(lower, DISPLAY_PLACES, -1),
            "upper_display": outward_decimal(upper, DISPLAY_PLACES, +1)}


def certificate(family, parameter, budget, epsilons, width):
    """A true certificate (the auditor must say OK) built from the auditor's own enclosure."""
    epsilons = [Fraction(e) for e in epsilons]
    width = Fraction(width)
    places = grid_places(width)
    found = enclosures(family, parameter, budget, epsilons, width)
    cert = {"schema": "plain-composition/1", "producer": dict(PRODUCER),
            "input": {"noise": noise(family, parameter), "budget": budget,
                      "epsilons": [write_rational(e) for e in epsilons], "width": write_rational(width)},
            "result": {"points": [point(e, lo, hi, places) for e, (lo, hi) in zip(epsilons, found)]}}
    return seal(cert)


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def main(argv):
    out, family, parameter, budget, epsilons, width = argv
    cert = certificate(family, Fraction(parameter), int(budget),
                       [Fraction(e) for e in epsilons.split(",")], Fraction(width))
    Path(out).write_text(json.dumps(cert, sort_keys=True, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
