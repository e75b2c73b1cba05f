"""``auditor verify FILE... [--json]``.

Exit 0 when every file verifies, 1 when any claim fails, 2 when any file is
unreadable or malformed (2 wins over 1).
"""

import argparse
import json
import sys

from auditor import __version__
from auditor.certificate import Malformed, digest, load, validate
from auditor.checks import checker_for
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
    return (0 if report.ok else 1), report


def _print_text(report, status):
    if status == 0:
        print(f"{report.path}: OK ({report.checked} checks)")
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
    worst = 0
    reports = []
    for path in args.files:
        status, report = verify_file(path)
        worst = max(worst, status)
        reports.append(report.as_dict() | {"status": status})
        if not args.json:
            _print_text(report, status)
    if args.json:
        json.dump({"ok": worst == 0, "files": reports}, sys.stdout, indent=2, sort_keys=True)
        print()
    return worst


if __name__ == "__main__":
    sys.exit(main())
