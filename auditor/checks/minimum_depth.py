"""Checks of ``minimum-depth/1`` certificates (docs/paper-claims.md §4).

As ``minimum-deletion/1`` (:mod:`auditor.checks.minimum_deletion`), with these
differences: the question has a depth 2 <= H <= C (MALFORMED otherwise); one
lower side for P_{H−1} (proof-function lines with the multi-group tangents)
and one upper side for P_H (the ``hierarchy/1`` recursion, Cvx at
multi-group nodes); the transfer is (1 + λ₊)·2C·τ (TV stability of the proof
hierarchy); ``minimum_depth`` is H exactly when the upper is below δ and the
lower above it.
"""

from auditor.certificate import Malformed
from auditor.checks.minimum_deletion import (capacity_text, check_common, count_line_terms, read_question,
                                             refuse_model)
from auditor.claims import rational_text
from auditor.decide import fail_undecided
from auditor.hierarchy.model import Model
from auditor.hierarchy.sides import check_lower, check_upper
from auditor.rationals import read_rational

__all__ = ["verify", "claim"]

I, R = "/input", "/result"


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    q = read_question(inp)
    H = inp["depth"]
    if not 2 <= H <= q.C:
        raise Malformed(f"{I}/depth: {H} is not in 2..C = 2..{q.C}")
    lower_model, upper_model = Model(q.C, depth=H - 1), Model(q.C, depth=H)
    count = refuse_model(lower_model, q, res, res["lower"], R + "/lower", lower=True)
    refuse_model(upper_model, q, res, res["upper"], R + "/upper", lower=False)
    graphs = {}
    if count:
        count_line_terms(lower_model, q, res, res["lower"], R + "/lower", graphs)
    undecided = []
    side = check_common(inp, res, q, None, report, undecided, graphs)
    if side is not None:
        above = check_lower(res["lower"], R + "/lower", {"game": "depth", "depth": H - 1}, lower_model, side,
                            q.line_bits, q.K, q.lower_points, report)
        below = check_upper(res["upper"], R + "/upper", {"game": "depth", "depth": H}, upper_model, side,
                            q.scale_bits, q.K, q.upper_points, report)
        expected = H if below and above else None
        report.check(res["minimum_depth"] == expected, R + "/minimum_depth", res["minimum_depth"], expected,
                     "minimum_depth is H exactly when the upper is below δ and the lower above it")
    fail_undecided(undecided, report, cert)


def claim(cert):
    """``minimum depth = 3: D_{P_2}(491/100) >= … vs delta = 1/10000; D_{P_3}(491/100) <= … for …``."""
    inp, res = cert["input"], cert["result"]
    H = inp["depth"]
    eps = rational_text(read_rational(inp["epsilon"], ""))
    head = f"minimum depth = {res['minimum_depth']}" if res["minimum_depth"] is not None else \
        "minimum depth not established"
    return (f"{head}: {capacity_text(f'P_{H - 1}', eps, read_rational(res['lower']['lower'], ''), -1)} vs "
            f"delta = {rational_text(read_rational(inp['delta'], ''))}; "
            f"{capacity_text(f'P_{H}', eps, read_rational(res['upper']['upper'], ''), +1)} "
            f"for gamma = {rational_text(read_rational(inp['gamma'], ''))}, "
            f"sigma^2 = {rational_text(read_rational(inp['sigma2'], ''))}, C = {inp['budget']} "
            f"(capacities of the proof-hierarchy models, not attacks on the mechanism)")
