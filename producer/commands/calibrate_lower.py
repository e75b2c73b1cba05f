"""``producer calibrate-lower``: ε*_C(δ) >= ε_lo from a witness line (calibration-lower/1)."""

import sys

from producer.certificates.canonical import write_certificate
from producer.errors import InputError
from producer.lower.calibration_lower import K2, TARGET_C8, build
from producer.rationals import parse_integer, parse_rational

HELP = "a certified lower end of ε*_C(δ) from a physical witness line: K.2 capped preparation or target-{0} lines (calibration-lower)"


def add_arguments(parser):
    parser.add_argument("--claim", required=True, choices=["capped-preparation", "target-zero"])
    parser.add_argument("--budget", help="C (target-zero; default 8)")
    parser.add_argument("--delta", help="δ in (0, 1) (default 1e-4)")
    parser.add_argument("--sigma2", help="σ² (target-zero; default 9)")
    parser.add_argument("--gamma", help="γ = A/B (target-zero; default 1/3)")
    parser.add_argument("--radius", help="source radius L (target-zero; default 28)")
    parser.add_argument("--scale", help="source scale S (target-zero; default 2^60)")
    parser.add_argument("--priors", help="number of grid priors (target-zero; default 4001)")
    parser.add_argument("--bracket", metavar="CALIBRATION_JSON",
                        help="a calibration/1 certificate for the same (γ, σ², C, δ): print the two-sided bracket "
                             "(witness lower end, its upper end) on stderr")
    parser.add_argument("-o", "--output", help="write the certificate here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _integer(text, what):
    value = parse_rational(text, what)
    if value.denominator != 1 or value < 1:
        raise InputError(f"{what}: {text!r} is not a positive integer")
    return int(value.numerator)


def run(args):
    if args.claim == "capped-preparation":
        if any(v is not None for v in (args.budget, args.sigma2, args.gamma, args.radius, args.scale, args.priors)):
            raise InputError("capped-preparation: only --delta may be changed (the K.2 program is fixed)")
        fields = dict(K2)
    else:
        fields = dict(TARGET_C8)
        if args.budget is not None:
            fields["budget"] = parse_integer(args.budget, "budget")
        if args.sigma2 is not None:
            fields["sigma2"] = parse_rational(args.sigma2, "sigma2")
        if args.gamma is not None:
            fields["gamma"] = args.gamma
        if args.radius is not None:
            fields["radius"] = _integer(args.radius, "radius")
        if args.scale is not None:
            fields["scale"] = _integer(args.scale, "scale")
        if args.priors is not None:
            fields["grid_count"] = _integer(args.priors, "priors")
    if args.delta is not None:
        fields["delta"] = parse_rational(args.delta, "delta")
        if not 0 < fields["delta"] < 1:
            raise InputError(f"delta: must lie in (0, 1), got {args.delta}")
    claim = fields.pop("claim")
    upper = None if args.bracket is None else _upper_end(args.bracket, fields)
    certificate = build(claim, quiet=args.quiet, **fields)
    write_certificate(certificate, args.output)
    if upper is not None:
        lower = parse_rational(certificate["result"]["epsilon_lower"], "epsilon_lower")
        display_hi, hi = upper
        if lower > hi:
            raise InputError(f"--bracket: the witness lower end {float(lower):.12f} exceeds the upper end "
                             f"{display_hi}: the two certificates contradict each other")
        print(f"calibrate-lower: eps*_{fields['budget']}({float(fields['delta']):g}) in "
              f"[{certificate['result']['epsilon_lower_display']}, {display_hi}] "
              f"(lower: {claim} witness, upper: calibration/1)", file=sys.stderr)
    return 0


def _upper_end(path, fields):
    """(display, exact) upper end ε_hi of a calibration/1 certificate matching the request."""
    import json
    try:
        with open(path, encoding="utf-8") as fh:
            cert = json.load(fh)
        inp, res = cert["input"], cert["result"]
        same = (cert["schema"] == "calibration/1" and inp["gamma"] == str(fields["gamma"])
                and parse_rational(inp["sigma2"]) == fields["sigma2"] and inp["budget"] == fields["budget"]
                and parse_rational(inp["delta"]) == fields["delta"])
        hi = parse_rational(res["epsilon_hi"], "epsilon_hi")
        display = res["epsilon_hi_display"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"--bracket: {path}: not a readable calibration/1 certificate ({exc})")
    if not same:
        raise InputError(f"--bracket: {path} answers a different request (γ, σ², C, δ)")
    return display, hi
