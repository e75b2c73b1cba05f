"""A non-editable install behaves like the editable one.

The JSON Schemas live once, in the repository's ``schemas/``; pyproject.toml
ships them as the data package ``auditor.schemas``.  The slow test builds the
wheel from a copy of the repository, installs it into a fresh virtual
environment and runs the installed ``auditor`` over every reference
certificate (but the two largest brackets, :data:`LARGE_BRACKETS`) from an
unrelated working directory, so nothing can be picked up from the checkout by
accident.
"""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from auditor.certificate import schema_dir
from tests.untimed import HANG_GUARD_SECONDS

REPO = Path(__file__).resolve().parent.parent
CERTIFICATES = sorted((REPO / "certificates").rglob("*.json"))  # every reference, subfolders too
assert CERTIFICATES, "no certificates/**/*.json found"


def _auditor_checks(path):
    """Whether the auditor has checks for the certificate's kind (every reference kind has them)."""
    from auditor.checks import checker_for
    kind = json.loads(path.read_text(encoding="utf-8"))["schema"].split("/")[0]
    return checker_for(kind) is not None


# Every reference but the C = 32 and C = 64 hierarchy-witness brackets (about 5 minutes of checking, the
# kind and route of the C = 8 bracket verified here): `make certificates` verifies those from the same source.
LARGE_BRACKETS = {f"epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c{c}-delta1e-4.json" for c in (32, 64)}
VERIFIABLE = [p for p in CERTIFICATES if _auditor_checks(p) and p.name not in LARGE_BRACKETS]
SKIP_WHEN_COPYING = shutil.ignore_patterns(
    ".git", ".venv", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis")


def _package_dirs():
    """Every importable package under producer/ and auditor/, dotted."""
    found = set()
    for top in ("producer", "auditor"):
        for init in (REPO / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(REPO).parts))
    return found


def test_every_package_directory_is_listed_in_pyproject():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    assert _package_dirs() <= listed, f"add to pyproject.toml: {sorted(_package_dirs() - listed)}"
    assert listed - _package_dirs() == {"auditor.schemas"}
    assert config["tool"]["setuptools"]["package-dir"]["auditor.schemas"] == "schemas"


def test_schema_dir_holds_a_schema_for_every_reference_kind():
    kinds = {json.loads(p.read_text(encoding="utf-8"))["schema"] for p in CERTIFICATES}
    assert kinds, "no reference certificates found"
    for name in kinds:
        kind, version = name.split("/")
        assert (schema_dir() / f"{kind}-{version}.schema.json").is_file(), name


def test_environment_variable_overrides_the_schema_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("DP_CERTIFY_SCHEMAS", str(tmp_path))
    assert schema_dir() == tmp_path


def _run(args, cwd):
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited {done.returncode}:\n" \
                                 f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.mark.slow
def test_installed_wheel_verifies_every_reference_certificate(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=SKIP_WHEN_COPYING)
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, source],
         cwd=tmp_path)
    (wheel,) = wheels.glob("dp_certify-*.whl")

    env_dir = tmp_path / "fresh-venv"
    venv.create(env_dir, with_pip=True)  # fresh: no system site-packages
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", wheel], cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clean_env = {k: v for k, v in os.environ.items()
                 if k not in ("DP_CERTIFY_SCHEMAS", "PYTHONPATH")}
    found = subprocess.run(
        [bin_dir / "python", "-c", "from auditor.certificate import schema_dir; print(schema_dir())"],
        cwd=elsewhere, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, env=clean_env)
    schemas = Path(found.stdout.strip()).resolve()
    assert schemas.is_relative_to(env_dir.resolve()), f"installed auditor reads schemas from {schemas}"
    assert sorted(p.name for p in schemas.glob("*.schema.json")) == \
        sorted(p.name for p in (REPO / "schemas").glob("*.schema.json"))
    copies = []
    for cert in VERIFIABLE:
        shutil.copy(cert, elsewhere / cert.name)
        copies.append(cert.name)
    done = subprocess.run([bin_dir / "auditor", "verify", *copies], cwd=elsewhere,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, env=clean_env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.count(": OK") == len(copies)

    # The installed producer works too, and its output verifies.
    _run([bin_dir / "producer", "game", "--gamma", "1/3", "--weights", "1,2,1", "--budget", "2",
          "--threshold", "1/2", "-o", "example.json"], cwd=elsewhere)
    done = subprocess.run([bin_dir / "auditor", "verify", "example.json"], cwd=elsewhere,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, env=clean_env)
    assert done.returncode == 0, done.stdout + done.stderr
