"""Shared helpers for the BRACE auditor tests: small certificates and mutations."""

import copy
import hashlib
import json
import os
import re
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SYN = os.path.join(ROOT, "data", "brace", "synthetic.json")
RATIONAL = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")


def small_bank(tmp_path, step=8):
    with open(SYN, encoding="utf-8") as fh:
        pts = json.load(fh)["points"][::step]
    p = tmp_path / "small.json"
    p.write_text(json.dumps({"points": pts}))
    return str(p)


def produce(tmp_path, kind, extra=(), name="cert.json", kappa="128", horizon="2"):
    """Run the producer CLI (tests may use it; the auditor package may not)."""
    from producer.cli import main
    out = tmp_path / name
    args = [kind, "--bank", small_bank(tmp_path), "--query", "0.3,0.2", "--r2", "16/25",
            "--horizon", horizon, "--kappa", kappa, "--epsilon", "128", "--delta", "1e-5",
            "--seed", "11", "-o", str(out)] + list(extra)
    assert main(args) == 0
    return json.loads(out.read_text())


def reseal(cert):
    body = {k: v for k, v in cert.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    cert["digest"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cert


def write(tmp_path, cert, name="m.json"):
    p = tmp_path / name
    p.write_text(json.dumps(cert))
    return str(p)


def fmt(x):
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


_ENCLOSURES = ("r", "exp_neg_gamma", "log_inv_delta", "rho", "alpha", "alpha_bound", "divergence_bound")


def inward(pointer, value):
    """Mutate a rational so that a true claim becomes false (enclosure ends move inward)."""
    parts = pointer.split("/")
    d = Fraction(1, 3)
    if len(parts) >= 2 and parts[-2] in _ENCLOSURES and parts[-1] == "1":
        d = -d
    if parts[-1] == "hi":
        d = -d
    return fmt(Fraction(value) + d)


def leaves(obj, pointer=""):
    """(pointer, value) for every leaf of a JSON tree."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from leaves(v, f"{pointer}/{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from leaves(v, f"{pointer}/{i}")
    else:
        yield pointer, obj


def set_at(cert, pointer, value):
    parts = pointer.strip("/").split("/")
    node = cert
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


INFORMATIONAL = ("/display", "_display", "/method", "/reason", "/rule")


def mutations(cert, root="/result"):
    """Every meaningful single-leaf mutation of ``cert[result]`` (digest resealed)."""
    for pointer, value in leaves(cert["result"], root):
        if any(pointer.endswith(s) or (s + "/") in pointer for s in INFORMATIONAL):
            continue
        if isinstance(value, bool):
            new = not value
        elif isinstance(value, int):
            new = value - 1 if pointer.endswith("scale_bits") else value + 1
        elif isinstance(value, str) and RATIONAL.match(value):
            new = inward(pointer, value)
        elif value is None:
            new = 0
        elif isinstance(value, str) and pointer.endswith("/status"):
            new = "not private" if value == "private" else "private"
        else:
            continue
        m = copy.deepcopy(cert)
        set_at(m, pointer, new)
        yield pointer, reseal(m)
