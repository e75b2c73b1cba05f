"""Checks of ``brace-run/1`` certificates (*BRACE: Differential Privacy for Dense Associative
Memory with LSR Energy*, Algorithm 1): see :mod:`auditor.brace.replay`."""

from auditor.brace.replay import verify_run
from auditor.claims import number as _q, rational_text


def verify(cert, report):
    verify_run(cert["input"], cert["result"], report, "/result")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def run_text(inp, run):
    """``(128, 1/100000)-DP private, T = 5 steps on a 256-point bank, gamma = ...``: a run's DP claim."""
    stated = run["claim"]
    return (f"({rational_text(_q(stated['epsilon']))}, {rational_text(_q(stated['delta']))})-DP "
            f"{stated['status']}, T = {inp['horizon']} steps on a {len(inp['bank']['points'])}-point "
            f"bank, gamma = {rational_text(_q(run['gamma']))}")


def claim(cert):
    """``BRACE run (128, 1/100000)-DP private, T = 5 steps on a 256-point bank, ...``."""
    return "BRACE run " + run_text(cert["input"], cert["result"])
