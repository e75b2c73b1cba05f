"""``producer plot``: the PNG of a finite-game/1 testing curve, and its refusals."""

import json
import struct
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from producer import api, cli
from producer.curve_plot import DPI, FIGURE_SIZE, picture_of, touching_vertices
from tests.untimed import HANG_GUARD_SECONDS

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_size(data):
    """(width, height) from the PNG's IHDR chunk."""
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def curve_certificate(tmp_path_factory):
    path = tmp_path_factory.mktemp("curve") / "game.json"
    cert = api.finite_game("1/3", "1,2,1", 2, thresholds=["1/2"], points=["1,2"], curve=True)
    path.write_bytes(cert.to_json())
    return path


def test_plot_writes_a_png_of_the_figure_size(curve_certificate, tmp_path, capsys):
    out = tmp_path / "curve.png"
    assert cli.main(["plot", str(curve_certificate), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert len(data) > 1000
    assert _png_size(data) == (FIGURE_SIZE[0] * DPI, FIGURE_SIZE[1] * DPI)
    assert b"Software" not in data  # fixed metadata: no matplotlib version in the file
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "12 vertices and 2 queries" in err, err


def test_plot_reads_standard_input(curve_certificate, tmp_path):
    out = tmp_path / "stdin.png"
    run = subprocess.run([sys.executable, "-m", "producer", "plot", "-", "-o", str(out), "--quiet"],
                         input=curve_certificate.read_bytes(), capture_output=True, timeout=HANG_GUARD_SECONDS,
                         cwd=ROOT)
    assert run.returncode == 0 and run.stderr == b"", run.stderr
    assert _png_size(out.read_bytes()) == (FIGURE_SIZE[0] * DPI, FIGURE_SIZE[1] * DPI)


def _refusal(tmp_path, cert_bytes, *extra):
    path = tmp_path / "cert.json"
    path.write_bytes(cert_bytes)
    out = tmp_path / "never.png"
    run = subprocess.run([sys.executable, "-m", "producer", "plot", str(path), "-o", str(out), *extra],
                         capture_output=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT, text=True)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert not out.exists()
    return run.stderr


def test_plot_refuses_a_kind_without_a_curve(tmp_path):
    dg = api.dg_interval("1/3", "9", 1, "1", width="1/10")
    err = _refusal(tmp_path, dg.to_json())
    assert "is a dg-interval/1 certificate, which has no testing curve" in err, err


def test_plot_refuses_a_game_written_without_curve(tmp_path):
    game = api.finite_game("1/3", "1,2,1", 1, thresholds=["1"])
    err = _refusal(tmp_path, game.to_json())
    assert "written without --curve" in err, err


@pytest.mark.parametrize("data, phrase", [
    (b"{not json", "is not JSON"),
    (b'{"a": NaN}', "is not JSON"),
    (b"[1, 2]", "is not a certificate"),
    (b'{"schema": "finite-game/1", "result": {"curve": [["1/2"]], "queries": []}}', "/result/curve/0"),
    (b'{"schema": "finite-game/1", "result": {"curve": [["1/2", "x"]], "queries": []}}', "/result/curve/0/1"),
    (b'{"schema": "finite-game/1", "schema": "dg-interval/1"}', "it has the key 'schema' twice in one object"),
])
def test_plot_refuses_malformed_input_in_one_line(tmp_path, data, phrase):
    assert phrase in _refusal(tmp_path, data)


def test_plot_without_matplotlib_is_one_clear_line(curve_certificate, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    status = cli.main(["plot", str(curve_certificate), "-o", str(tmp_path / "never.png")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "needs matplotlib" in err and "[plots]" in err, err
    assert not (tmp_path / "never.png").exists()


def test_marked_vertices_attain_each_certified_query(curve_certificate):
    picture = picture_of(json.loads(curve_certificate.read_text()))
    assert len(picture.queries) == 2
    for x, y, value in picture.queries:
        touched = touching_vertices(picture.vertices, x, y, value)
        assert touched
        assert all(x * picture.vertices[i][0] + y * picture.vertices[i][1] == value for i in touched)


@given(st.lists(st.tuples(st.fractions(0, 1), st.fractions(0, 1)), min_size=1, max_size=8),
       st.fractions(0, 3), st.fractions(0, 3))
def test_touching_vertices_is_the_brute_force_argmax(vertices, x, y):
    best = max(x * a + y * b for a, b in vertices)
    assert touching_vertices(vertices, x, y, best) == [
        i for i, (a, b) in enumerate(vertices) if x * a + y * b == best]
    assert touching_vertices(vertices, x, y, best + Fraction(1, 7)) == []
