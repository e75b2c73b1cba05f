"""No test asserts a duration (CONTRIBUTING.md, "Tests are untimed"); the tools of tests/untimed.py work.

A scan of every Python file under ``tests/`` but :mod:`tests.untimed` fails on

* reading a clock: the ``time`` module, ``perf_counter``, ``monotonic``,
  ``process_time``, ``thread_time``, ``time()``, ``getrusage``, ``os.times``,
  ``datetime.now``, or an alarm (``signal.alarm``);
* a ``timeout=`` other than :data:`tests.untimed.HANG_GUARD_SECONDS`, in a
  call or as a parameter's default;
* a constant of seconds or a timeout of its own (``PROBE_SECONDS = 5``);
* a hypothesis ``deadline=`` other than None;
* an assertion that compares a measured duration (``took``, ``elapsed``,
  ``seconds``, ...).

Refusals are tested by their outcome and by work counters
(:func:`tests.untimed.check_calls`, :func:`tests.untimed.must_not_call`);
timings belong to ``make bench``.
"""

import ast
import json
import re
from pathlib import Path

import pytest
from hypothesis import settings

from tests.untimed import MustNotBeCalled, check_calls, cpu_bound, json_values, must_not_call, reaches

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HELPER = TESTS / "untimed.py"
GUARD = "HANG_GUARD_SECONDS"

CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time", "process_time_ns",
          "thread_time", "thread_time_ns", "time_ns", "getrusage", "alarm", "setitimer", "now", "utcnow"}
DURATION = re.compile(r"(^|_)(took|elapsed|duration|seconds|secs|wall|cpu|start|t0|t1)($|_)", re.IGNORECASE)
TIMING_CONSTANT = re.compile(r"(SECONDS|TIMEOUT)")


def _name(node):
    """The last name of ``a.b.c`` or ``c``, else None."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _dotted(node):
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else None


def _is_guard(node):
    return _name(node) == GUARD


def _measured(node):
    """Whether an operand of a comparison names a measured duration."""
    return any(isinstance(n, (ast.Name, ast.Attribute)) and DURATION.search(_name(n) or "") for n in ast.walk(node))


def violations(source, path="<source>"):
    """Every timed construct in ``source``: (line, what)."""
    found = []
    for node in ast.walk(ast.parse(source, path)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import) and any(a.name == "time" for a in node.names):
            found.append((line, "imports the time module"))
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found.append((line, "imports from the time module"))
        elif isinstance(node, ast.Call):
            called, dotted = _name(node.func), _dotted(node.func)
            if called in CLOCKS or dotted in ("time.time", "os.times"):
                found.append((line, f"reads a clock: {dotted or called}()"))
            for keyword in node.keywords:
                if keyword.arg == "timeout" and not _is_guard(keyword.value):
                    found.append((line, f"timeout={ast.unparse(keyword.value)} (only {GUARD}, a hang guard)"))
                if keyword.arg == "deadline" and not (isinstance(keyword.value, ast.Constant)
                                                      and keyword.value.value is None):
                    found.append((line, f"deadline={ast.unparse(keyword.value)} (hypothesis: deadline=None)"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            positional = args.posonlyargs + args.args
            pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            for arg, default in pairs:
                if arg.arg == "timeout" and not _is_guard(default):
                    found.append((line, f"a timeout parameter defaulting to {ast.unparse(default)}"))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = _name(target)
                if name and name != GUARD and name.isupper() and TIMING_CONSTANT.search(name):
                    found.append((line, f"a timing constant {name}"))
        elif isinstance(node, ast.Assert):
            for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
                if any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in compare.ops) and \
                        any(_measured(operand) for operand in [compare.left, *compare.comparators]):
                    found.append((line, f"asserts a measured duration: {ast.unparse(compare)}"))
    return sorted(found)


def _test_files():
    return sorted(p for p in TESTS.rglob("*.py") if p != HELPER)


def test_no_test_reads_a_clock_or_times_out_but_by_the_hang_guard():
    problems = [f"{path.relative_to(ROOT)}:{line}: {what}"
                for path in _test_files() for line, what in violations(path.read_text(encoding="utf-8"), str(path))]
    assert not problems, "timed tests (see tests/untimed.py):\n" + "\n".join(problems)


@pytest.mark.parametrize("source", [
    "import time\n",
    "from time import perf_counter\n",
    "start = perf_counter()\n",
    "x = time.monotonic()\n",
    "x = time.time()\n",
    "x = os.times()\n",
    "signal.alarm(60)\n",
    "subprocess.run(args, timeout=600)\n",
    "proc.communicate(timeout=TIMEOUT)\n",
    "def run(args, timeout=5):\n    pass\n",
    "PROBE_SECONDS = 5\n",
    "TIMEOUT = 20\n",
    "@settings(deadline=200)\ndef test(): pass\n",
    "assert took < 1.0\n",
    "assert report.outcome == 'OK' and seconds < SECONDS_LIMIT\n",
    "assert 1.0 > elapsed\n",
])
def test_the_scan_finds_each_timed_construct(source):
    assert violations(source), source


@pytest.mark.parametrize("source", [
    "subprocess.run(args, timeout=HANG_GUARD_SECONDS)\n",
    "proc.communicate(timeout=untimed.HANG_GUARD_SECONDS)\n",
    "@settings(max_examples=5, deadline=None)\ndef test(): pass\n",
    "assert work.calls <= work.bound\n",
    "assert report.outcome == 'UNCHECKED'\n",
    "monkeypatch.setattr(parallel, 'CONNECT_TIMEOUT_SECONDS', 2)\n",
    "assert deadline_count == 3 and 'deadline' in text\n",
])
def test_the_scan_leaves_untimed_code_alone(source):
    assert violations(source) == [], source


def test_hypothesis_has_no_deadline():
    """The loaded profile (tests/conftest.py): a slow example is never a failure."""
    assert settings().deadline is None


# ---- the tools themselves ------------------------------------------------------------------------

def _reference(name):
    return json.loads((ROOT / "certificates" / name).read_text(encoding="utf-8"))


def test_check_calls_tells_a_refusal_from_the_work():
    from auditor.api import verify_certificate
    from tests.reseal import reseal
    honest = _reference("brace-synthetic.json")
    with check_calls() as work:
        assert verify_certificate(honest).outcome == "OK"
    assert work.verifies == 1 and work.values == json_values(honest)
    assert not work.before_the_work, work                   # the checks did the work
    hostile = _reference("brace-synthetic.json")
    hostile["input"]["horizon"] = 10 ** 12
    with check_calls() as work:
        assert verify_certificate(reseal(hostile)).outcome == "UNCHECKED"
    assert work.verifies == 1 and work.before_the_work, work
    with check_calls() as work:
        assert verify_certificate({"schema": "finite-game/1"}).outcome == "MALFORMED"
    assert (work.verifies, work.calls) == (0, 0)            # the schema refused it: no kind's check ran


def test_json_values_counts_as_the_reader():
    assert json_values({"a": [1, "2", {"b": None}], "c": {}}) == 7


def test_must_not_call_stops_the_work(monkeypatch):
    from auditor.api import verify_certificate
    from auditor.checks import finite_game
    must_not_call(monkeypatch, finite_game, "verify")
    with pytest.raises(MustNotBeCalled, match="finite_game.verify was called"):
        verify_certificate(_reference("finite-game-c2-121-g1_3.json"))
    with pytest.raises(AttributeError):
        must_not_call(monkeypatch, finite_game, "no_such_function")


def test_reaches_stops_an_accepted_run_and_restores():
    from auditor.checks import finite_game
    original = finite_game.verify
    assert reaches(finite_game, "verify", lambda: finite_game.verify({}, None)) == (True, None)
    assert reaches(finite_game, "verify", lambda: 42) == (False, 42)
    assert finite_game.verify is original


def test_cpu_bound_fails_beyond_its_bound():
    with cpu_bound():
        sum(range(1000))
    with pytest.raises(AssertionError, match="above the generous bound"):
        with cpu_bound(-1):
            pass
