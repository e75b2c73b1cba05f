"""``producer hierarchy-exact``, ``blocks``, ``minimum-deletion`` and ``minimum-depth`` on the command line."""

import json
import os
import subprocess
import sys

import jsonschema
import pytest

from tests.untimed import HANG_GUARD_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS)


def schema(name):
    with open(os.path.join(ROOT, "schemas", f"{name}.schema.json"), encoding="utf-8") as fh:
        return json.load(fh)


def test_hierarchy_exact_writes_the_chain_and_states_it(tmp_path):
    out = tmp_path / "chain.json"
    p = run("hierarchy-exact", "--gamma", "1/2", "--weights", "1,1,1", "--budget", "3", "--prior", "1/2,1/4",
            "--models", "G,P2,P1", "-o", str(out))
    assert p.returncode == 0, p.stderr
    cert = json.loads(out.read_text())
    jsonschema.validate(cert, schema("hierarchy-exact-1"))
    assert len(cert["result"]["chain"]) == 2
    assert p.stderr.strip().splitlines()[-1].startswith("(G_3, P_2, P_1)(1/2) = ")


def test_blocks_with_a_finite_law(tmp_path):
    p = run("blocks", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "2", "--epsilon", "1/2",
            "--targets", "1/10", "--quiet")
    assert p.returncode == 0 and p.stderr == ""
    jsonschema.validate(json.loads(p.stdout), schema("block-composition-1"))


@pytest.mark.parametrize("args, message", [
    (("hierarchy-exact", "--gamma", "1/2", "--weights", "1,1,1", "--budget", "7", "--prior", "1/2"), "1..6"),
    (("hierarchy-exact", "--gamma", "1/2", "--weights", "1,1,1", "--budget", "3", "--prior", "1/2",
      "--models", "P0"), "depth H >= 1"),
    (("blocks", "--gamma", "1/2", "--weights", "1,1", "--budget", "2", "--epsilon", "1", "--splits", "3"),
     "summing to T = 2"),
    (("blocks", "--gamma", "1/2", "--sigma2", "4", "--weights", "1,1", "--budget", "2", "--epsilon", "1"),
     "not allowed with argument"),
    (("minimum-deletion", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--epsilon", "5", "--delta", "1e-4",
      "--remove", "0,1,2"), "lower models"),
    (("minimum-depth", "--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--epsilon", "5", "--delta", "1e-4",
      "--depth", "9"), "2 <= H <= C"),
])
def test_refusals_are_one_line_and_exit_2(args, message):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and message in p.stderr, p.stderr
