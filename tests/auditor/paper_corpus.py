"""Wrong certificates of the paper kinds (hierarchy-exact/1, block-composition/1, minimum-deletion/1,
minimum-depth/1) for the auditor tests: tampered values, each resealed (:mod:`tests.reseal`) so that
only the tampered claim is wrong.

Each corpus function takes an honest certificate and returns ``[(label, wrong certificate)]``;
every entry must be refused (FAIL or MALFORMED).  Certificates come from the reference directory
or from the producer's command line (the auditor tests never look inside the producer).
"""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from auditor.api import verify_certificate
from auditor.rationals import write_rational
from tests.reseal import get_at, resealed, set_at, with_value
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "certificates" / "paper"
REFUSED = (1, 2)      # FAIL, MALFORMED


def reference(name):
    return json.loads((PAPER / name).read_text(encoding="utf-8"))


def produce(tmp_dir, name, *args):
    """Run ``producer ARGS -o FILE --quiet`` and return the certificate."""
    path = Path(tmp_dir) / f"{name}.json"
    done = subprocess.run([sys.executable, "-m", "producer", *args, "-o", str(path), "--quiet"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text(encoding="utf-8"))


def verdict(cert):
    """The auditor's report of an in-memory certificate."""
    return verify_certificate(cert)


def shifted(cert, path, delta):
    """A resealed copy with the rational at ``path`` moved by ``delta``."""
    return with_value(cert, path, write_rational(Fraction(get_at(cert, path)) + Fraction(delta)))


def flipped(cert, path):
    return with_value(cert, path, not get_at(cert, path))


def swapped(cert, path_a, path_b):
    def edit(bad):
        a, b = get_at(bad, path_a), get_at(bad, path_b)
        set_at(bad, path_a, b)
        set_at(bad, path_b, a)
    return resealed(cert, edit)


def _integer_moved(cert, path, delta):
    value = get_at(cert, path)
    return with_value(cert, path, str(int(value) + delta) if isinstance(value, str) else value + delta)


# hierarchy-exact/1 ---------------------------------------------------------------
def hierarchy_exact_corpus(cert):
    """Tampers of a hierarchy-exact certificate whose first model has a graph and one of which is a portfolio."""
    res = cert["result"]
    out = [
        ("a value off by 1/3888", shifted(cert, ("result", "models", 0, "values", 0), Fraction(1, 3888))),
        ("the last value off by 1/3888", shifted(cert, ("result", "models", len(res["models"]) - 1, "values", 0),
                                                 Fraction(-1, 3888))),
        ("a pending count + 1", _integer_moved(cert, ("result", "models", 0, "graph", "pending"), 1)),
        ("a branch count − 1", _integer_moved(cert, ("result", "models", 0, "graph", "branches"), -1)),
        ("a free count + 1", _integer_moved(cert, ("result", "models", 0, "graph", "free"), 1)),
        ("a wrong name", with_value(cert, ("result", "models", 0, "name"), "P_9")),
        ("the first gap off by 1/3888", shifted(cert, ("result", "chain", 0, "gaps", 0), Fraction(1, 3888))),
        ("strictly_increasing flipped", flipped(cert, ("result", "chain", 0, "strictly_increasing"))),
        ("non_decreasing flipped", flipped(cert, ("result", "chain", 0, "non_decreasing"))),
        ("a chain prior changed", with_value(cert, ("result", "chain", 0, "prior"), "1/3")),
        ("the input prior changed", with_value(cert, ("input", "priors", 0), "1/3")),
        ("a graph dropped", with_value(cert, ("result", "models", 0, "graph"), None)),
        ("an extra value", resealed(cert, lambda bad: bad["result"]["models"][0]["values"].append("1"))),
        ("a model entry dropped", resealed(cert, lambda bad: bad["result"]["models"].pop())),
        ("a different law", with_value(cert, ("input", "law", "weights", 0), "2")),
        ("a different budget", with_value(cert, ("input", "budget"), cert["input"]["budget"] - 1)),
        ("the echoed model changed", with_value(cert, ("result", "models", 0, "model"), {"game": "depth", "depth": 9})),
    ]
    gaps = res["chain"][0]["gaps"]
    swap = next((i for i in range(len(gaps) - 1) if gaps[i] != gaps[i + 1]), None)
    if swap is not None:
        out.append(("two gaps swapped", swapped(cert, ("result", "chain", 0, "gaps", swap),
                                                ("result", "chain", 0, "gaps", swap + 1))))
    for i, m in enumerate(res["models"]):
        if m["portfolio"] is None:
            continue
        P = ("result", "models", i, "portfolio")
        out += [
            ("selectors − 1", _integer_moved(cert, P + ("selectors",), -1)),
            ("distinct_roots − 1", _integer_moved(cert, P + ("distinct_roots",), -1)),
            ("selector states reversed", with_value(cert, P + ("states",), m["portfolio"]["states"][::-1])),
            ("a selector state dropped", with_value(cert, P + ("states",), m["portfolio"]["states"][1:])),
            ("a portfolio with a graph", with_value(cert, ("result", "models", i, "graph"), res["models"][0]["graph"])),
            ("a graph model with portfolio fields", with_value(cert, ("result", "models", 0, "portfolio"),
                                                               m["portfolio"])),
        ]
    return out


def hierarchy_exact_malformed(cert):
    """Questions outside the domain: MALFORMED."""
    n = len(cert["input"]["models"])
    return [
        ("a prior above 1", with_value(cert, ("input", "priors", 0), "3/2")),
        ("repeated priors", with_value(cert, ("input", "priors"), ["1/2", "1/2"])),
        ("a repeated model", with_value(cert, ("input", "models"), [cert["input"]["models"][0]] * n)),
        ("cuts not increasing", with_value(cert, ("input", "models", 0), {"game": "cuts", "cuts": [1, 0]})),
        ("a cut beyond C − 2", with_value(cert, ("input", "models", 0), {"game": "cuts",
                                                                         "cuts": [cert["input"]["budget"] - 1]})),
        ("γ = 3/2", with_value(cert, ("input", "gamma"), "3/2")),
        ("γ not reduced", with_value(cert, ("input", "gamma"), "2/4")),
        ("no mass", with_value(cert, ("input", "law", "weights"), ["0", "0", "0"])),
    ]


# block-composition/1 ---------------------------------------------------------------
def block_composition_corpus(cert):
    res = cert["result"]
    M = ("result", "methods")
    out = [
        ("a block's vertex count + 1", _integer_moved(cert, ("result", "blocks", 2, "vertices"), 1)),
        ("a block's vertex count − 1", _integer_moved(cert, ("result", "blocks", 0, "vertices"), -1)),
        ("two block types swapped", swapped(cert, ("result", "blocks", 0), ("result", "blocks", 1))),
        ("start classes wrong", with_value(cert, ("result", "blocks", 1, "classes"), 3)),
        ("a finite_upper off by 10^-30", shifted(cert, M + (0, "finite_upper"), Fraction(1, 10 ** 30))),
        ("a finite_lower off by −10^-30", shifted(cert, M + (1, "finite_lower"), Fraction(-1, 10 ** 30))),
        ("a bound lowered", shifted(cert, M + (2, "bound"), Fraction(-1, 10 ** 12))),
        ("a display rounded down", with_value(cert, M + (0, "bound_display"), "0.000101103642524426")),
        ("the transfer halved", with_value(cert, ("result", "transfer"),
                                           write_rational(Fraction(res["transfer"]) / 2))),
        ("draws 2T", with_value(cert, ("result", "draws"), 2 * cert["input"]["budget"])),
        ("τ halved", with_value(cert, ("result", "tau"), write_rational(Fraction(res["tau"]) / 2))),
        ("λ₋ above e^ε", with_value(cert, ("result", "threshold", "lower"), "149")),
        ("the deadline upper of another split", with_value(cert, ("result", "deadline", "upper"),
                                                           res["methods"][1]["bound"])),
        ("the deadline lower raised", shifted(cert, ("result", "deadline", "lower"), Fraction(1, 10 ** 20))),
        ("two splits swapped in the result", swapped(cert, M + (1,), M + (2,))),
        ("a source weight moved", _symmetric_weight_moved(cert)),
    ]
    for i, m in enumerate(res["methods"]):
        for j, d in enumerate(m["decisions"]):
            other = "undecided" if d != "undecided" else "certifies"
            out.append((f"decision {i}/{j} {d} → {other}", with_value(cert, M + (i, "decisions", j), other)))
    return out


def _symmetric_weight_moved(cert):
    """One unit moved from w_0 to w_±1 each (sum and symmetry kept): the law changes."""
    def edit(bad):
        w = bad["result"]["source"]["weights"]
        L = bad["result"]["source"]["radius"]
        w[L] = str(int(w[L]) - 2)
        w[L - 1] = str(int(w[L - 1]) + 1)
        w[L + 1] = str(int(w[L + 1]) + 1)
    return resealed(cert, edit)


def block_composition_malformed(cert):
    T = cert["input"]["budget"]
    return [
        ("a split not summing to T", with_value(cert, ("input", "splits", 0), [1] * (T + 1))),
        ("repeated splits", with_value(cert, ("input", "splits"), [[T], [T]])),
        ("low above high", with_value(cert, ("input", "targets", 0), {"low": "1/1000", "high": "1/10000"})),
        ("γ = 5/4", with_value(cert, ("input", "gamma"), "5/4")),
    ]


# minimum-deletion/1 and minimum-depth/1 ------------------------------------------------
def _lowers(cert):
    res = cert["result"]
    if "lowers" in res:
        return [("result", "lowers", k) for k in range(len(res["lowers"]))]
    return [("result", "lower")]


def capacity_corpus(cert):
    """Tampers common to minimum-deletion/1 and minimum-depth/1."""
    res = cert["result"]
    lo = _lowers(cert)[0]
    up = ("result", "upper")
    lower = get_at(cert, lo)
    i = len(lower["root_lines"]["a"]) // 2
    j = next(k for k, e in enumerate(res["upper"]["root_excess"]) if int(e) > 0)
    answer = "minimum_removed" if "minimum_removed" in res else "minimum_depth"
    H = cert["input"].get("depth", len(cert["input"].get("removed", [])))
    out = [
        ("a lower line a raised by one unit", _integer_moved(cert, lo + ("root_lines", "a", i), 1)),
        ("a lower line b raised by one unit", _integer_moved(cert, lo + ("root_lines", "b", 0), 1)),
        ("the last lower line b lowered by one unit", _integer_moved(cert, lo + ("root_lines", "b", -1), -1)),
        ("an upper table entry lowered", _integer_moved(cert, up + ("root_excess", j), -1)),
        ("an upper table entry raised", _integer_moved(cert, up + ("root_excess", j), 1)),
        ("the answer changed", with_value(cert, ("result", answer), None if res[answer] is not None else H)),
        ("the line index + 1", _integer_moved(cert, lo + ("line", "index"), 1)),
        ("the line's a + 1", _integer_moved(cert, lo + ("line", "a"), 1)),
        ("finite_lower raised", shifted(cert, lo + ("finite_lower",), Fraction(1, 10 ** 30))),
        ("lower raised", shifted(cert, lo + ("lower",), Fraction(1, 10 ** 30))),
        ("lower display raised", with_value(cert, lo + ("lower_display",),
                                            _display_moved(lower["lower_display"], +1))),
        ("above_delta flipped", flipped(cert, lo + ("above_delta",))),
        ("t₊ wrong", with_value(cert, lo + ("prior",), res["upper"]["prior"])),
        ("a lower graph count + 1", _integer_moved(cert, lo + ("graph", "branches"), 1)),
        ("the lower model changed", with_value(cert, lo + ("model",), res["upper"]["model"])),
        ("line_bits changed", with_value(cert, lo + ("line_bits",), lower["line_bits"] + 1)),
        ("a lower grid prior dropped", resealed(cert, lambda bad: get_at(bad, lo + ("grid", "numerators")).pop(1))),
        ("finite_upper lowered", shifted(cert, up + ("finite_upper",), Fraction(-1, 10 ** 30))),
        ("upper lowered", shifted(cert, up + ("upper",), Fraction(-1, 10 ** 30))),
        ("upper display lowered", with_value(cert, up + ("upper_display",),
                                             _display_moved(res["upper"]["upper_display"], -1))),
        ("below_delta flipped", flipped(cert, up + ("below_delta",))),
        ("an upper graph count − 1", _integer_moved(cert, up + ("graph", "pending"), -1)),
        ("the upper model changed", with_value(cert, up + ("model",), lower["model"])),
        ("t₋ wrong", with_value(cert, up + ("prior",), lower["prior"])),
        ("the transfer lowered", with_value(cert, ("result", "transfer"),
                                            write_rational(Fraction(res["transfer"]) / 2))),
        ("τ halved", with_value(cert, ("result", "tau"), write_rational(Fraction(res["tau"]) / 2))),
        ("a source weight moved", _symmetric_weight_moved(cert)),
        ("δ changed", with_value(cert, ("input", "delta"), "1/3")),
    ]
    if "draws" in res:
        out.append(("draws C", with_value(cert, ("result", "draws"), cert["input"]["budget"])))
    if "lowers" in res:
        other = [0] if lower["removed"] != [0] else [1]
        out.append(("a lower's removed set changed", with_value(cert, lo + ("removed",), other)))
    return out


def _display_moved(text, step):
    whole, _, frac = text.partition(".")
    n = int(whole + frac) + step
    digits = str(n).rjust(len(frac) + 1, "0")
    return f"{digits[:-len(frac)]}.{digits[-len(frac):]}"


def capacity_malformed(cert):
    out = [
        ("δ above 1", with_value(cert, ("input", "delta"), "3/2")),
        ("ε above 64", with_value(cert, ("input", "epsilon"), "65")),
        ("γ = 4/3", with_value(cert, ("input", "gamma"), "4/3")),
        ("σ² = 0", with_value(cert, ("input", "sigma2"), "0")),
    ]
    C = cert["input"]["budget"]
    if "removed" in cert["input"]:
        out += [("removed not increasing", with_value(cert, ("input", "removed"), [1, 0])),
                ("a removed cut beyond C − 2", with_value(cert, ("input", "removed"), [C - 1]))]
    else:
        out += [("depth above C", with_value(cert, ("input", "depth"), C + 1))]
    return out


KEY_TAMPERS = ("a lower line a raised by one unit", "an upper table entry lowered", "the answer changed",
               "above_delta flipped", "below_delta flipped", "lower raised", "upper lowered")


def key_tampers(cert):
    """The capacity tampers named in KEY_TAMPERS (one of each)."""
    picked = [w for w in capacity_corpus(cert) if w[0] in KEY_TAMPERS]
    assert len(picked) == len(KEY_TAMPERS)
    return picked


def plain_root_lines(cert, entry):
    """The root lines of a lower entry by tests/reference_hierarchy.PlainLines, as the certificate writes them."""
    from tests.reference_hierarchy import PlainLines
    res = cert["result"]
    plain = {"input": {"gamma": cert["input"]["gamma"], "budget": cert["input"]["budget"], "model": entry["model"]},
             "result": {"source": res["source"], "grid": entry["grid"], "scale_bits": entry["line_bits"]}}
    lines = PlainLines(plain).root_lines()
    return {"a": [str(a) for a, _ in lines], "b": [str(b) for _, b in lines]}


def refused(pairs):
    """The labels of the pairs the auditor does not refuse (FAIL/MALFORMED), with their outcome."""
    missed = []
    for label, cert in pairs:
        report = verdict(cert)
        if report.status not in REFUSED:
            missed.append((label, report.outcome, report.error or report.unchecked))
    return missed
