"""The brace, brace-compare and brace-plot commands and the reference run."""

import json
import os

import pytest
from gmpy2 import mpq

from producer.cli import main
from producer.references import brace as reference

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "brace")
SYN = os.path.join(DATA, "synthetic.json")
BASE = ["--bank", SYN, "--query", "0.3,0.2", "--r2", "16/25", "--horizon", "3", "--kappa", "128",
        "--epsilon", "128", "--delta", "1e-5", "--seed", "5"]


def _run(args, tmp_path, name="out.json"):
    out = tmp_path / name
    rc = main(args + ["-o", str(out)])
    return rc, (json.loads(out.read_text()) if out.exists() else None), out


def test_brace_run_is_deterministic_and_private(tmp_path):
    rc, cert, p1 = _run(["brace"] + BASE, tmp_path, "a.json")
    rc2, _, p2 = _run(["brace"] + BASE, tmp_path, "b.json")
    assert rc == rc2 == 0 and p1.read_bytes() == p2.read_bytes()
    res = cert["result"]
    assert res["claim"]["status"] == "private"
    assert all(s["bracket"]["method"] == "non-activation" and s["H"] == 0 for s in res["steps"])
    for s in res["steps"]:
        assert mpq(s["variance"]) == mpq(res["constants"]["variance_constant"]) * mpq(s["scale"]) ** 2


def test_beta_gives_r2(tmp_path):
    args = [a for a in BASE]
    i = args.index("--r2")
    args[i:i + 2] = ["--beta", "3.125"]
    rc, cert, _ = _run(["brace"] + args, tmp_path)
    assert rc == 0 and cert["input"]["r2"] == "16/25"


def test_uncalibrated_gamma_refused_with_message(tmp_path, capsys):
    rc, cert, _ = _run(["brace"] + BASE + ["--gamma", "0.25"], tmp_path)
    assert rc == 2 and cert is None
    err = capsys.readouterr().err
    assert "violates eq. (8)" in err and "--gamma auto" in err


def test_noise_below_required_refused(tmp_path, capsys):
    rc, _, _ = _run(["brace"] + BASE + ["--noise-multiplier", "1/2"], tmp_path)
    assert rc == 2 and "below" in capsys.readouterr().err


def test_allow_uncalibrated_says_not_private(tmp_path):
    rc, cert, _ = _run(["brace"] + BASE + ["--gamma", "1/4", "--allow-uncalibrated"], tmp_path)
    assert rc == 0 and cert["result"]["claim"]["status"] == "not private"
    assert cert["result"]["calibration"]["gamma_admissible"] is False


def test_fallback_regime_uses_constant_scale(tmp_path):
    args = BASE[:]
    args[args.index("--kappa") + 1] = "1/1000"
    rc, cert, _ = _run(["brace"] + args, tmp_path)
    assert rc == 0
    for s in cert["result"]["steps"]:
        assert s["bracket"]["method"] == "fallback" and s["gamma_prime"] == "0"
        assert s["scale"] == "8/5"


@pytest.mark.parametrize("bad", [["--query", "1,2,3"], ["--horizon", "0"], ["--r2", "-1"],
                                 ["--bank", "/nonexistent.json"]])
def test_bad_input_exit_2(tmp_path, bad):
    args = BASE[:]
    i = args.index(bad[0])
    args[i + 1] = bad[1]
    rc, _, _ = _run(["brace"] + args, tmp_path)
    assert rc == 2


def test_compare_shares_draws_and_start(tmp_path):
    rc, cert, _ = _run(["brace-compare"] + BASE, tmp_path)
    assert rc == 0
    res = cert["result"]
    assert res["clean"][0] == cert["input"]["query"]
    assert len(res["baselines"]["naive"]["steps"]) == 3 and len(res["baselines"]["endpoint"]["steps"]) == 1
    for s in res["baselines"]["naive"]["steps"]:
        assert mpq(s["scale"]) == mpq(2) * mpq(4, 5) / max(1, s["count"])


def test_reference_generation_is_deterministic(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    pa, pb = reference.generate(str(a)), reference.generate(str(b))
    assert [open(x, "rb").read() for x in pa] == [open(x, "rb").read() for x in pb]
    cert = json.loads(open(pa[0]).read())
    assert cert["schema"] == "brace-run/1" and cert["result"]["claim"]["status"] == "private"
    assert cert["input"]["epsilon"] == "128" and cert["input"]["delta"] == "1/100000"
    assert len(cert["input"]["bank"]["points"]) == 256


def test_plot_writes_pngs(tmp_path):
    pytest.importorskip("matplotlib")
    rc, _, out = _run(["brace-compare"] + BASE, tmp_path)
    t, e = tmp_path / "t.png", tmp_path / "e.png"
    assert main(["brace-plot", "--compare", str(out), "--trajectories", str(t), "--errors", str(e)]) == 0
    assert t.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and e.stat().st_size > 1000


def test_plot_rejects_non_compare(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"schema": "brace-run/1"}')
    assert main(["brace-plot", "--compare", str(p), "--trajectories", "a.png", "--errors", "b.png"]) == 2


@pytest.mark.parametrize("text, words", [
    ('{"schema": "brace-compare/1", "schema": "brace-run/1"}', "has the key 'schema' twice in one object"),
    ("[" * 100000, "is nested too deep to read"),
])
def test_plot_refuses_a_certificate_json_would_read_by_its_last_key_in_one_line(tmp_path, capsys, text, words):
    p = tmp_path / "x.json"
    p.write_text(text)
    assert main(["brace-plot", "--compare", str(p), "--trajectories", "a.png", "--errors", "b.png"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"compare: {p} is not a certificate: it {words}" in err, err


def test_a_bank_file_with_a_byte_order_mark_keeps_its_first_row(tmp_path):
    bank = tmp_path / "bank.csv"
    bank.write_bytes(b"\xef\xbb\xbf" + "\n".join(f"{i % 7},{i % 5}" for i in range(8)).encode())
    args = BASE[:]
    args[args.index("--bank") + 1] = str(bank)
    rc, cert, _ = _run(["brace"] + args, tmp_path)
    assert rc == 0 and len(cert["input"]["bank"]["points"]) == 8


def test_doc_reference_table_matches_certificate(tmp_path):
    paths = reference.generate(str(tmp_path))
    cert = json.loads(open(paths[0]).read())
    with open(os.path.join(DATA, "..", "..", "docs", "brace.md"), encoding="utf-8") as fh:
        doc = fh.read()
    assert f"γ = auto = {float(mpq(cert['result']['gamma'])):.12f}" in doc
    for s in cert["result"]["steps"]:
        lo, hi = s["bracket"]["display"]
        row = (f"| {s['t']} | {len(s['clean_gate'])} | {len(s['released_gate'])} | [{lo}, {hi}] | "
               f"{s['bracket']['argmax_k']} |")
        assert row in doc, row
