"""Shared helpers for the lower-certificate auditor tests: make, mutate, reseal, verify.

Certificates are made with the producer's command line (the auditor tests
never look inside the producer); every mutation is resealed (:mod:`tests.reseal`)
so that only the mutated claim is wrong.
"""

import json
import subprocess
import sys
from fractions import Fraction

from auditor.cli import verify_file
from auditor.rationals import read_rational, write_rational
from tests.reseal import get_at, reseal, seal, set_at, with_value
from tests.untimed import HANG_GUARD_SECONDS

__all__ = ["produce", "seal", "run", "pointers", "number_leaves", "mutated", "set_at", "get_at", "with_mutation",
           "reseal", "nudged", "sample_paths"]


def produce(tmp_path_factory, name, *args):
    """Run ``producer ARGS -o FILE`` and return the certificate."""
    path = tmp_path_factory.mktemp("lower") / f"{name}.json"
    cmd = [sys.executable, "-m", "producer", *args, "-o", str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


def run(tmp_path, cert, name="c.json"):
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    return verify_file(str(path))


def pointers(report):
    return {f["pointer"] for f in report.failures}


def number_leaves(node, path=()):
    """Every (path, value) whose value is a number: a rational string, an int, a decimal display."""
    if isinstance(node, dict):
        for k in sorted(node):
            if k == "digest":
                continue
            yield from number_leaves(node[k], path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from number_leaves(v, path + (i,))
    elif isinstance(node, bool):
        return
    elif isinstance(node, int):
        yield path, node
    elif isinstance(node, str) and _is_number(node):
        yield path, node


def _is_number(text):
    try:
        read_rational(text, "")
        return True
    except ValueError:
        return _is_decimal(text)


def _is_decimal(text):
    body = text[1:] if text.startswith("-") else text
    head, _, tail = body.partition(".")
    return head.isdigit() and (tail == "" or tail.isdigit()) and "." in body


def mutated(value):
    """A nearby different number of the same JSON type."""
    if isinstance(value, int):
        return value + 1
    if _is_decimal(value):
        last = value[-1]
        return value[:-1] + ("1" if last == "0" else "0")
    q = read_rational(value, "")
    if q.denominator == 1:
        return write_rational(q + 1)
    return write_rational(q + Fraction(1, q.denominator))


def with_mutation(cert, path, value=None):
    """A copy with the number at ``path`` changed (to a nearby one by default), resealed."""
    return with_value(cert, path, mutated(get_at(cert, path)) if value is None else value)


def nudged(value, sign):
    """``value`` moved by about 2% (at least one unit of its last place) up (+1) or down (−1)."""
    if isinstance(value, int):
        return value + sign
    if _is_decimal(value):
        return mutated(value)
    q = read_rational(value, "")
    step = max(Fraction(1, q.denominator), abs(q) / 50)
    return write_rational(q + sign * step)


def sample_paths(paths, limit):
    """At most ``limit`` paths spread evenly over ``paths`` (first and last included)."""
    paths = list(paths)
    if len(paths) <= limit:
        return paths
    step = (len(paths) - 1) / (limit - 1)
    return sorted({paths[round(i * step)] for i in range(limit)})
