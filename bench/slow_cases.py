"""The test cases `make test` leaves to `make references`: tests/slow_cases.txt, from a measured run.

    SLOW_CASES_OFF=1 .venv/bin/python -m pytest -n 2 -p no:cacheprovider --junitxml=J.xml
    python bench/slow_cases.py J.xml [--threshold S] [--write]

The run above is the default suite with the list switched off, so every case
it lists is measured.  A case whose time in the report (setup, call and
teardown) is at least S seconds (default 0.8) goes into the list; with
``--write`` the file is rewritten, otherwise the list is printed.  The cases
still run in CI (`make references` runs every case marked ``slow``): the split
keeps the default run within its few minutes on the 2-core machine, it drops
nothing.  Timings here only choose which run a case belongs to; no test
reads them.
"""

import argparse
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "tests", "slow_cases.txt")

HEADER = """\
# Test cases (pytest node ids) marked `slow` by tests/conftest.py: each took at least {threshold} s of one
# pytest-xdist worker in a measured default run on the 2-core machine. `make test` leaves them out,
# `make references` (and CI) runs them. Regenerate with the commands in bench/slow_cases.py.
"""


def node_id(classname, name):
    """pytest's node id of a JUnit case: the module's path, then any class, then the case's name."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        path = "/".join(parts[:cut]) + ".py"
        if os.path.isfile(os.path.join(ROOT, path)):
            return "::".join([path, *parts[cut:], name])
    raise ValueError(f"no test module for the JUnit class name {classname!r}")


def node_ids(report, threshold):
    """The node ids of the cases of a JUnit XML report that took at least ``threshold`` seconds."""
    return sorted({node_id(case.get("classname"), case.get("name"))
                   for case in ET.parse(report).iter("testcase")
                   if float(case.get("time", "0")) >= threshold})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="a JUnit XML report of the default suite run with SLOW_CASES_OFF=1")
    parser.add_argument("--threshold", type=float, default=0.8, help="seconds (default 0.8)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {os.path.relpath(LIST, ROOT)}")
    args = parser.parse_args(argv)
    ids = node_ids(args.report, args.threshold)
    text = HEADER.format(threshold=args.threshold) + "".join(f"{nid}\n" for nid in ids)
    if args.write:
        with open(LIST, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"{len(ids)} cases written to {os.path.relpath(LIST, ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
