"""Producer certificates through the auditor: originals accepted, every mutation rejected."""

import copy
import json
import re
import subprocess
import sys

import pytest

from auditor.cli import verify_file
from producer.kinds.finite_game import Request, build
from producer.laws import FiniteLaw, Gamma
from gmpy2 import mpq
from tests.reseal import get_at, resealed, with_value
from tests.untimed import HANG_GUARD_SECONDS

RATIONAL = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")

def certificate(*fields):
    """The sealed finite-game certificate of the request fields (law, γ, C, thresholds, points, pending, curve)."""
    return build(Request(*fields))


CASES = {
    "asymmetric-c2": lambda: certificate(FiniteLaw([2, 0, 1, 3], -1), Gamma(2, 5), 2, [mpq(1, 3), mpq(2)],
                                   [(mpq(3, 2), mpq(1))], None, True),
    "pending-c1": lambda: certificate(FiniteLaw([1, 3, 0, 1], -2), Gamma(2, 3), 1, [mpq(1, 2)], [], (4, 3), True),
    "c1-curve": lambda: certificate(FiniteLaw([1, 4, 0, 2, 1], -3), Gamma(3, 7), 1, [mpq(3)], [], None, True),
}


def numeric_leaves(node, path=()):
    """Paths of every number (rational string or JSON integer) under input and result."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from numeric_leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from numeric_leaves(v, path + (i,))
    elif isinstance(node, bool):
        return
    elif isinstance(node, int) or (isinstance(node, str) and RATIONAL.match(node)):
        yield path


def bumped(value):
    if isinstance(value, int):
        return -value if value in (1, -1) else value + 1
    num, _, den = value.partition("/")
    den = int(den or 1)
    return f"{int(num) + den}/{den}" if den != 1 else str(int(num) + 1)


def rebuilt(cert):
    """The producer's certificate for the same input."""
    inp = cert["input"]
    a, B = map(int, inp["gamma"].split("/"))
    law = FiniteLaw([int(w) for w in inp["law"]["weights"]], inp["law"]["offset"])
    return certificate(law, Gamma(a, B), inp["budget"], [mpq(t) for t in inp["thresholds"]],
                 [(mpq(x), mpq(y)) for x, y in inp["points"]],
                 None if inp["pending"] is None else tuple(inp["pending"]), inp["curve"])


def audit(cert, tmp_path, name="c.json"):
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    return verify_file(str(path))[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_original_is_accepted_and_every_mutation_rejected(case, tmp_path):
    cert = CASES[case]()
    assert audit(cert, tmp_path) == 0
    paths = [("input",) + p for p in numeric_leaves(cert["input"])] + \
            [("result",) + p for p in numeric_leaves(cert["result"])]
    assert len(paths) > 10
    rejected = 0
    for path in paths:
        bad = with_value(cert, path, bumped(get_at(cert, path)))
        if audit(bad, tmp_path) != 0:
            rejected += 1
            continue
        # Accepted: only honest if the mutated input really has the same result
        # (e.g. a law translated by one can give the same game values).
        assert path[0] == "input", f"mutation at {'/'.join(map(str, path))} was accepted"
        assert rebuilt(bad)["result"] == bad["result"], f"mutation at {'/'.join(map(str, path))} was accepted"
    assert rejected >= len(paths) - 2


@pytest.mark.parametrize("case", sorted(CASES))
def test_structural_mutations_are_rejected(case, tmp_path):
    cert = CASES[case]()
    mutations = []
    dropped = copy.deepcopy(cert)
    dropped["result"]["queries"].pop()
    mutations.append(dropped)
    swapped = copy.deepcopy(cert)
    q = swapped["result"]["queries"][0]
    q["x"], q["y"] = q["y"], q["x"]
    mutations.append(swapped)
    no_curve = copy.deepcopy(cert)
    no_curve["result"]["curve"] = no_curve["result"]["curve"][:-1]
    mutations.append(no_curve)
    version = copy.deepcopy(cert)
    version["schema"] = "finite-game/2"
    mutations.append(version)
    for bad in mutations:
        assert audit(resealed(bad), tmp_path) != 0
    stale = copy.deepcopy(cert)
    stale["result"]["queries"][0]["value"] = bumped(stale["result"]["queries"][0]["value"])
    assert audit(stale, tmp_path) == 1          # digest not recomputed: a failed claim
    (tmp_path / "broken.json").write_text(json.dumps(cert)[:-7])
    assert verify_file(str(tmp_path / "broken.json"))[0] == 2


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def test_reruns_are_byte_identical(tmp_path):
    argv = ["producer", "game", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "2",
            "--threshold", "1/2", "--point", "2,3/4", "--curve"]
    a, b = run(*argv), run(*argv)
    assert a.returncode == 0 and a.stdout and a.stdout == b.stdout
    out = tmp_path / "x.json"
    assert run(*argv, "-o", str(out)).returncode == 0
    assert out.read_text() == a.stdout


@pytest.mark.parametrize("args, fragment", [
    (["--gamma", "2/6"], "not reduced"),
    (["--gamma", "3/3"], "0 < a < B"),
    (["--gamma", "5/3"], "0 < a < B"),
    (["--weights", "1,-1,1"], "negative"),
    (["--weights", "0,0,0"], "all weights are zero"),
    (["--threshold", "1/0"], "zero denominator"),
    (["--threshold", "abc"], "not a rational"),
    (["--point", "1"], "X,Y"),
    (["--budget", "7"], "limit"),
    (["--budget", "-1"], ">= 0"),
    (["--weights", ",".join(["1"] * 41), "--gamma", "86/257", "--budget", "3"], "estimated work"),
])
def test_bad_input_gives_one_clear_line(args, fragment):
    base = {"--gamma": "1/3", "--weights": "1,2,1", "--budget": "2", "--threshold": "1/2"}
    argv = []
    for k, v in base.items():
        if k not in args:
            argv += [k, v]
    res = run("producer", "game", *argv, *args)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_auditor_exit_codes(tmp_path):
    missing = run("auditor", "verify", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stdout
    (tmp_path / "bad.json").write_text("{not json")
    assert run("auditor", "verify", str(tmp_path / "bad.json")).returncode == 2
    (tmp_path / "odd.json").write_text(json.dumps({"schema": "unknown-kind/1"}))
    assert run("auditor", "verify", str(tmp_path / "odd.json")).returncode == 2
