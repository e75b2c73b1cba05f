"""Builds ``epsilon-bracket/1`` certificates for the auditor tests.

The embedded certificates come from the producer as a black box: its command
line (``producer plain``) for the product-pair witnesses, the committed
references for the hierarchy-witness route.  The bracket around them is
assembled here by hand: canonical JSON, outward displays of the auditor's own
:func:`auditor.common.outward_decimal`, and the digest of
:func:`auditor.certificate.digest` (:func:`tests.reseal.seal`).
"""

import json
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from auditor.common import outward_decimal
from auditor.rationals import write_rational
from tests.reseal import seal
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
PRODUCER = {"name": "dp-certify-tests", "version": "0"}
HIERARCHY_C8 = ROOT / "certificates" / "hierarchy" / "hierarchy-c8-p4-delta1e-4.json"
TARGET_ZERO_C8 = ROOT / "certificates" / "slow" / "calibration-lower-target-zero-c8.json"

# The product pair of the tests: C = 8, σ² = 9, δ = 10^-5, found with a few `producer plain` calls:
# δ(4) ≈ 1.46e-5, δ(81/20) ≈ 1.207e-5, δ(41/10) ≈ 9.43e-6, δ(4.5) ≈ 1.44e-6, so δ(85/21) > δ >= δ(37/9)
# (ends without a finite decimal, so that a display rounded the wrong way differs).
SIGMA2, BUDGET, DELTA = "9", 8, "1/100000"
EPS_LO, EPS_HI, WIDTH = "85/21", "37/9", "1/10"
DISPLAY_PLACES = 6


@lru_cache(maxsize=None)
def _produced(args):
    done = subprocess.run([sys.executable, "-m", "producer", *args, "--quiet"], capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def plain(epsilon, sigma2=SIGMA2, budget=BUDGET, laplace=None):
    """A fresh plain-composition/1 certificate at the single ε ``epsilon``, written by the producer
    (the discrete Gaussian σ², or the discrete Laplace of scale ``laplace``)."""
    noise = ("--laplace", laplace) if laplace is not None else ("--sigma2", sigma2)
    return json.loads(_produced(("plain", *noise, "--budget", str(budget), "--epsilons", epsilon)))


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def display(value, direction):
    return None if value is None else outward_decimal(Fraction(value), DISPLAY_PLACES, direction)


def bracket(inp, route, eps_lo, eps_hi, upper, lower, reason=None):
    """The sealed bracket of ``inp`` with the given ends and witnesses (status from ε_hi)."""
    lo = None if eps_lo is None else write_rational(Fraction(eps_lo))
    hi = write_rational(Fraction(eps_hi))
    cert = {"schema": "epsilon-bracket/1", "producer": PRODUCER, "input": inp,
            "result": {"route": route, "status": "zero" if Fraction(hi) == 0 else "enclosed",
                       "epsilon_lo": lo, "epsilon_lo_display": display(lo, -1),
                       "epsilon_hi": hi, "epsilon_hi_display": display(hi, +1),
                       "lower_witness": lower, "lower_reason": reason, "upper_witness": upper}}
    return seal(cert)


def product_pair_input(delta=DELTA, width=WIDTH, sigma2=SIGMA2, budget=BUDGET):
    return {"gamma": "0", "noise": {"family": "discrete-gaussian", "sigma2": sigma2}, "budget": budget,
            "delta": delta, "width": width}


def product_pair():
    """C = 8, σ² = 9, δ = 10^-5: ε* in [85/21, 37/9]."""
    return bracket(product_pair_input(), "product-pair", EPS_LO, EPS_HI, plain(EPS_HI), plain(EPS_LO))


def product_pair_zero():
    """δ = 1/2 >= δ(0) ≈ 0.362: ε* = 0, no lower witness."""
    return bracket(product_pair_input(delta="1/2"), "product-pair", "0", "0", plain("0"), None,
                   reason="status zero: epsilon* = 0 is the least possible value")


# The discrete Laplace t = 2, C = 2, δ = 10^-6: the ends of
# certificates/plain/calibration-plain-laplace-t2-c2-delta1e-6.json.
LAPLACE_LO, LAPLACE_HI = "33554339/33554432", "67108727/67108864"


def laplace_pair():
    inp = {"gamma": "0", "noise": {"family": "discrete-laplace", "t": "2"}, "budget": 2, "delta": "1/1000000",
           "width": "1/1000000"}
    return bracket(inp, "product-pair", LAPLACE_LO, LAPLACE_HI, plain(LAPLACE_HI, budget=2, laplace="2"),
                   plain(LAPLACE_LO, budget=2, laplace="2"))


def hierarchy_witness(lower=True):
    """γ = 1/3, σ² = 9, C = 8, δ = 10^-4 from the committed references (or with a null lower end)."""
    upper = load(HIERARCHY_C8)
    inp = {"gamma": "1/3", "noise": {"family": "discrete-gaussian", "sigma2": "9"}, "budget": 8,
           "delta": "1/10000", "width": None}
    hi = upper["result"]["epsilon"]
    if not lower:
        return bracket(inp, "hierarchy-witness", None, hi, upper, None,
                       reason="beyond the target-zero witness's budget limit")
    witness = load(TARGET_ZERO_C8)
    return bracket(inp, "hierarchy-witness", witness["result"]["epsilon_lower"], hi, upper, witness)


# A small hierarchy-witness question (C = 2, δ = 1/1000), fast to make and to verify: the producer's
# `hierarchy` δ query (cut game, ε_hi ≈ 1.59) and `calibrate-lower --claim target-zero` (here ε_lo = 0).
SMALL = {"gamma": "1/3", "sigma2": "9", "budget": 2, "delta": "1/1000"}
SMALL_UPPER = ("hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--cuts", "0", "--delta", "1/1000",
               "--priors", "200", "--radius", "24", "--source-scale", "2^48")
SMALL_LOWER = ("calibrate-lower", "--claim", "target-zero", "--gamma", "1/3", "--sigma2", "9", "--budget", "2",
               "--delta", "1/1000", "--radius", "20", "--priors", "401", "--scale", "2^50")


def small_input(gamma=SMALL["gamma"], sigma2=SMALL["sigma2"], delta=SMALL["delta"]):
    return {"gamma": gamma, "noise": {"family": "discrete-gaussian", "sigma2": sigma2}, "budget": SMALL["budget"],
            "delta": delta, "width": None}


def small_upper():
    return json.loads(_produced(SMALL_UPPER))


def small_lower():
    return json.loads(_produced(SMALL_LOWER))


def small_hierarchy_witness(lower=True, inp=None):
    """The C = 2 bracket with the target-zero lower witness, or with a null lower end and its reason."""
    upper = small_upper()
    inp = small_input() if inp is None else inp
    if not lower:
        return bracket(inp, "hierarchy-witness", None, upper["result"]["epsilon"], upper, None,
                       reason="no lower construction requested")
    witness = small_lower()
    return bracket(inp, "hierarchy-witness", witness["result"]["epsilon_lower"], upper["result"]["epsilon"],
                   upper, witness)
