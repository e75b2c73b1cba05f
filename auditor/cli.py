"""``auditor verify FILE... [--json]``.

Exit statuses are those of :mod:`auditor.outcomes`: 0 OK, 1 FAIL,
2 MALFORMED, 3 UNCHECKED (beyond the documented limits).
"""

import argparse
import json
import sys

from auditor import __version__
from auditor.certificate import Malformed, digest, load, validate
from auditor.checks import checker_for
from auditor.outcomes import Unchecked, worst as worst_status
from auditor.rationals import MalformedNumber
from auditor.report import Report


def verify_file(path):
    """Verify one file; return (status, report) with status 0, 1 or 2."""
    report = Report(path)
    try:
        cert = load(path)
        kind = validate(cert)
        checker = checker_for(kind)
        if checker is None:
            raise Malformed(f"/schema: the auditor has no checks for kind {kind!r}")
        report.check(cert["digest"] == digest(cert), "/digest", cert["digest"],
                     digest(cert), "digest does not match the certificate body")
        checker.verify(cert, report)
    except (Malformed, MalformedNumber) as exc:
        report.fail("", "", "", f"malformed: {exc}")
        return 2, report
    except Unchecked as exc:
        report.unchecked = str(exc)
        return 3, report
    return (0 if report.ok else 1), report


def _print_text(report, status):
    if status == 0:
        print(f"{report.path}: OK ({report.checked} checks)")
        return
    if status == 3:
        print(f"{report.path}: UNCHECKED {report.unchecked}")
        return
    for f in report.failures:
        if f["pointer"] == "" and f["reason"].startswith("malformed"):
            print(f"{report.path}: {f['reason']}")
        else:
            print(f"{report.path}: FAIL {f['pointer']}: {f['reason']}: "
                  f"certificate says {f['claimed']}, auditor finds {f['recomputed']}")


def _parser():
    p = argparse.ArgumentParser(prog="auditor", description="Independently verify certificates.")
    p.add_argument("--version", action="version", version=f"auditor {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    v = sub.add_parser("verify", help="verify certificate files")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--json", action="store_true", help="print a machine-readable report")
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    statuses = []
    reports = []
    for path in args.files:
        status, report = verify_file(path)
        statuses.append(status)
        reports.append(report.as_dict() | {"status": status})
        if not args.json:
            _print_text(report, status)
    worst = worst_status(statuses)
    if args.json:
        json.dump({"ok": worst == 0, "files": reports}, sys.stdout, indent=2, sort_keys=True)
        print()
    return worst


if __name__ == "__main__":
    sys.exit(main())
