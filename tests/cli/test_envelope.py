"""The ``envelope`` and ``envelope-sample`` subcommands."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUERIES = str(ROOT / "data" / "envelope" / "t2-k1.json")
BASE = ["--universe", "2", "--records", "2", "--queries", QUERIES, "--rounds", "2", "--hedge", "1/2",
        "--select", "1", "--epsilon", "1"]


def run(*args):
    return subprocess.run([sys.executable, "-m", "producer", *args], cwd=ROOT, capture_output=True, text=True)


def test_envelope_writes_a_certificate(tmp_path):
    out = tmp_path / "c.json"
    r = run("envelope", *BASE, "-o", str(out))
    assert r.returncode == 0, r.stderr
    cert = json.loads(out.read_text())
    assert cert["schema"] == "envelope/1"
    assert out.read_bytes().endswith(b"}\n")


def test_envelope_sample_and_bad_database():
    r = run("envelope-sample", *BASE, "--database", "0,1", "--seed", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["histogram"] == [1, 1] and len(out["transcript"]) == 2
    r = run("envelope-sample", *BASE, "--database", "0,5", "--seed", "3")
    assert r.returncode == 2 and "outside 0..1" in r.stderr and "Traceback" not in r.stderr


def test_limit_message_and_exit_status():
    r = run("envelope", "--universe", "6", "--records", "6", "--queries", str(ROOT / "data/envelope/t2-k1.json"),
            "--rounds", "2", "--hedge", "1", "--select", "1", "--epsilon", "1")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "has 2 values" in r.stderr
    r = run("envelope", "--universe", "2", "--records", "40", "--queries", QUERIES, "--rounds", "9",
            "--hedge", "1", "--select", "1", "--epsilon", "1")
    assert r.returncode == 2 and "enumeration too large" in r.stderr and "limit" in r.stderr


def test_propose():
    r = run("envelope", "--universe", "4", "--records", "3", "--queries", QUERIES, "--epsilon", "1",
            "--propose", "1/2")
    assert r.returncode == 0, r.stderr
    p = json.loads(r.stdout)
    assert p["hedge"] == "1/20" and p["enumerable"] is False
