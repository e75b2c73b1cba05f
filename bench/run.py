"""Benchmarks: wall time, CPU time and peak memory of whole producer and auditor processes.

    python bench/run.py [targets|growth|game|dg|hierarchy|plain|product|noise|calibrate|budgets|resource|dpsgd|
                         accounting|paper|refusals|references|all]
        [--runs N] [--auditor-timeout S | --no-auditor]

Each producer figure is the median over N runs (default 3) of a fresh process,
so it includes start-up and imports; peak memory is the child's maximum
resident set size (as /usr/bin/time -v reports it).  The auditor runs once on
the certificate the producer wrote, capped at --auditor-timeout seconds
(default 120; "> S s" when the cap is hit).  Results are printed as Markdown
tables and written to bench/results/.  Nothing here is a test: timings never
decide anything.

``targets`` (the default with ``growth``) are the rows of issue 10: each
request as ``producer dg`` (the certified discrete-Gaussian source) and as
``producer game`` on that same reference law at the certificate's threshold
λ₋.  ``growth`` is the C = 3 time against ℓ = 2L + 1 up to L = 32 with the
fitted exponent.  ``refusals`` is the CPU time the auditor takes to refuse
hostile files, at the reader's limits and at a kind's limit after the schema
(the figures of docs/certificates.md; the tests assert refusals by their
outcome and the checks' work, never by a time).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
SCALE = str(10 ** 24)


class Run:
    __slots__ = ("wall", "cpu", "mib", "status")

    def __init__(self, wall, cpu, mib, status):
        self.wall, self.cpu, self.mib, self.status = wall, cpu, mib, status


def measure(argv, timeout=None):
    """One child process: wall s, user+sys CPU s, peak RSS MiB, exit status (None on timeout)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = None if timeout is None else start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if deadline is not None and time.monotonic() > deadline:
            proc.kill()
            _pid, status, usage = os.wait4(proc.pid, 0)
            return Run(time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, None)
        time.sleep(0.02)
    return Run(time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
               os.waitstatus_to_exitcode(status))


def median_of(argv, runs, timeout=None):
    results = [measure(argv, timeout) for _ in range(runs)]
    statuses = [r.status for r in results]
    status = None if None in statuses else max(statuses)
    return Run(statistics.median(r.wall for r in results), statistics.median(r.cpu for r in results),
               max(r.mib for r in results), status)


def producer(*args):
    return [PY, "-m", "producer", *args]


def dg_argv(gamma, budget, radius, out, method=None):
    argv = producer("dg", "--gamma", gamma, "--sigma2", "9", "--budget", str(budget), "--epsilon", "2",
                    "--radius", str(radius), "--scale", SCALE, "--quiet", "-o", out)
    return argv + (["--method", method] if method else [])


def reference_game_argv(dg_certificate, out, method=None):
    """``producer game`` on the dg certificate's own source law at its threshold λ₋."""
    with open(dg_certificate, encoding="utf-8") as fh:
        cert = json.load(fh)
    source = cert["result"]["source"]
    argv = producer("game", "--gamma", cert["input"]["gamma"], "--weights", ",".join(source["weights"]),
                    "--offset", str(source["offset"]), "--budget", str(cert["input"]["budget"]),
                    "--threshold", cert["result"]["threshold"]["lower"], "-o", out)
    return argv + (["--method", method] if method else [])


TARGETS = [
    # (label, gamma, budget, radius, method, target)
    ("C=2, L=24, B=3", "1/3", 2, 24, None, "≤ 0.3 s"),
    ("C=3, L=24, B=3", "1/3", 3, 24, None, "≤ 3 s, ≤ 400 MB"),
    ("C=4, L=12, B=3", "1/3", 4, 12, None, "≤ 20 s, ≤ 600 MB"),
    ("C=4, L=16, B=3", "1/3", 4, 16, None, "≤ 60 s, ≤ 1 GB"),
    ("C=2, L=16, B=257 reduced", "86/257", 2, 16, "reduced", "≤ 1 s"),
]


def fmt(run, cap=None):
    if run is None:
        return "skipped | "
    if run.status is None:
        return f"> {cap:.0f} s | |"
    tail = "" if run.status == 0 else f" (exit {run.status})"
    return f"{run.wall:.2f} / {run.cpu:.2f}{tail} | {run.mib:.0f} |"


def audit(cert, args):
    if args.no_auditor or not os.path.exists(cert):
        return None
    # --budget 8: the most the producer writes a certificate for (a C = 4 calibration needs 2); a budget only
    # limits, so a certificate within the default one is checked with the same work
    return measure([PY, "-m", "auditor", "verify", "--budget", "8", cert], timeout=args.auditor_timeout)


def targets_table(args):
    rows = ["| request | command | target | producer wall / cpu s | producer MiB | auditor wall / cpu s "
            "| auditor MiB |", "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, gamma, budget, radius, method, target in TARGETS:
            dg_cert = os.path.join(tmp, "dg.json")
            run = median_of(dg_argv(gamma, budget, radius, dg_cert, method), args.runs)
            rows.append(f"| {label} | dg | {target} | {fmt(run)} {fmt(audit(dg_cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
            if run.status != 0:
                continue
            game_cert = os.path.join(tmp, "game.json")
            run = median_of(reference_game_argv(dg_cert, game_cert, method), args.runs)
            rows.append(f"| {label} | game (same law) | {target} | {fmt(run)} "
                        f"{fmt(audit(game_cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
            for path in (dg_cert, game_cert):
                if os.path.exists(path):
                    os.remove(path)
    rows.append("\nwall / cpu: median wall-clock and user+sys CPU seconds of whole processes; "
                "the auditor once, capped at " + ("(not run)" if args.no_auditor else f"{args.auditor_timeout:.0f} s"))
    _write(args.out, "targets", rows)


def reference_argv(cert, out):
    """The producer command that writes the finite-game or dg-interval reference ``cert`` again."""
    i = cert["input"]
    if cert["schema"] == "dg-interval/1":
        source = i["source"]
        size = (["--width", source["width"]] if "width" in source
                else ["--radius", str(source["radius"]), "--scale", source["scale"]])
        argv = producer("dg", "--gamma", i["gamma"], "--sigma2", i["sigma2"], "--budget", str(i["budget"]),
                        "--epsilon", i["epsilon"], *size)
    else:
        argv = producer("game", "--gamma", i["gamma"], "--weights", ",".join(i["law"]["weights"]),
                        "--offset", str(i["law"]["offset"]), "--budget", str(i["budget"]))
        argv += [a for t in i["thresholds"] for a in ("--threshold", t)]
        argv += [a for x, y in i["points"] for a in ("--point", f"{x},{y}")]
        argv += ["--pending", ",".join(map(str, i["pending"]))] if i["pending"] else []
        argv += ["--curve"] if i["curve"] else []
    return argv + (["--method", i["method"]] if i.get("method") else []) + ["--quiet", "-o", out]


def references_table(args):
    """Every finite-game and dg-interval reference: producer and auditor whole processes, turn about, medians."""
    rows = ["| reference | producer cpu s | auditor cpu s | auditor / producer |", "|---|---|---|---|"]
    names = sorted(n for n in os.listdir(os.path.join(ROOT, "certificates"))
                   if n.startswith(("finite-game-", "dg-interval-")))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            with open(os.path.join(ROOT, "certificates", name), encoding="utf-8") as fh:
                cert = json.load(fh)
            out = os.path.join(tmp, name)
            pairs = [(measure(reference_argv(cert, out)), measure([PY, "-m", "auditor", "verify", out]))
                     for _ in range(args.runs)]
            made, checked = (statistics.median(run.cpu for run in side) for side in zip(*pairs))
            failed = [run.status for pair in pairs for run in pair if run.status != 0]
            rows.append(f"| {name} | {made:.3f} | {checked:.3f} | {checked / made:.2f}"
                        f"{f' (exit {failed[0]})' if failed else ''} |")
            print(rows[-1], flush=True)
    rows.append("\ncpu: user+sys seconds of whole processes (start-up and imports included), the producer "
                "writing the reference again and the auditor checking what it wrote, in turn; medians of "
                f"{args.runs} pairs")
    _write(args.out, "references", rows)


GROWTH_L = (4, 8, 12, 16, 24, 32)


def growth_table(args):
    """γ = 1/3, σ² = 9, C = 3: producer time against ℓ = 2L + 1, with the fitted exponent."""
    rows = ["| L | ℓ = 2L+1 | wall s | cpu s | MiB |", "|---|---|---|---|---|"]
    points = []
    with tempfile.TemporaryDirectory() as tmp:
        for L in GROWTH_L:
            run = median_of(dg_argv("1/3", 3, L, os.path.join(tmp, f"c3-{L}.json")), args.runs)
            ell = 2 * L + 1
            rows.append(f"| {L} | {ell} | {run.wall:.2f} | {run.cpu:.2f} | {run.mib:.0f} |"
                        if run.status == 0 else f"| {L} | {ell} | exit {run.status} | | |")
            print(rows[-1], flush=True)
            if run.status == 0 and L >= 12:
                points.append((math.log(ell), math.log(run.cpu)))
    if len(points) >= 2:
        mx = sum(p[0] for p in points) / len(points)
        my = sum(p[1] for p in points) / len(points)
        slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
        rows.append(f"\nfitted exponent of CPU time in ℓ over L >= 12: {slope:.2f} (target <= 3.5)")
        print(rows[-1], flush=True)
    _write(args.out, "growth", rows)


def dg_like_weights(radius, sigma2=9, scale=10**24):
    # Only a stand-in law for timing; certified sources come from `producer dg`.
    return ",".join(str(int(scale * math.exp(-n * n / (2 * sigma2)))) for n in range(-radius, radius + 1))


def coprime_near_third(B):
    a = max(1, round(B / 3))
    while math.gcd(a, B) != 1:
        a += 1
    return a


def game_table(args):
    rows = ["| C | radius | B | producer wall / cpu s | producer MiB | auditor wall / cpu s | auditor MiB |",
            "|---|---|---|---|---|---|---|"]
    cases = [(c, r, 3) for c in (1, 2, 3) for r in (1, 4, 8, 16, 24)]
    cases += [(2, 16, B) for B in (31, 97, 257)]
    with tempfile.TemporaryDirectory() as tmp:
        for c, radius, B in cases:
            cert = os.path.join(tmp, f"g-{c}-{radius}-{B}.json")
            gamma = f"{coprime_near_third(B)}/{B}"
            run = median_of(producer("game", "--gamma", gamma, "--weights", dg_like_weights(radius),
                                     "--budget", str(c), "--threshold", "7389/1000", "-o", cert), args.runs)
            rows.append(f"| {c} | {radius} | {B} | {fmt(run)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "game", rows)


def dg_table(args):
    rows = ["| B | a | reduced wall / cpu s | MiB | enumerate wall / cpu s | MiB |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for B in (3, 31, 97, 257):
            a = coprime_near_third(B)
            cert = os.path.join(tmp, f"dg-{B}.json")
            red = median_of(dg_argv(f"{a}/{B}", 2, 16, cert, "reduced"), args.runs) if B > 3 else None
            enum = median_of(dg_argv(f"{a}/{B}", 2, 16, cert, "enumerate"), args.runs)
            rows.append(f"| {B} | {a} | {fmt(red)} {fmt(enum)}")
            print(rows[-1], flush=True)
    _write(args.out, "dg", rows)


def hierarchy_table(args):
    """hierarchy/1 at γ = 1/3, σ² = 9, δ = 10^-4 (targets: producer ≤ 3 min, auditor ≤ 2× the producer)."""
    import json
    rows = ["| model | C | ε_hi | producer wall / cpu s | producer MiB | auditor wall / cpu s | auditor MiB |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for budget, depth in ((8, 4), (16, 3)):
            cert = os.path.join(tmp, f"h-{budget}-{depth}.json")
            prod = median_of(producer("hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", str(budget),
                                      "--depth", str(depth), "--delta", "1e-4", "--quiet", "-o", cert), args.runs)
            eps = json.load(open(cert))["result"]["epsilon_display"] if prod.status == 0 else "?"
            rows.append(f"| P_{depth} | {budget} | {eps} | {fmt(prod)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "hierarchy", rows)


def plain_table(args):
    """Plain composition (γ = 0) next to hidden feedback (γ = 1/3) at the same law, C = 2, both certified."""
    import json
    rows = ["| law | ε | γ | certified Δ*_2(ε) | width | producer wall / cpu s | producer MiB |",
            "|---|---|---|---|---|---|---|"]
    cases = [("σ² = 9", ["--sigma2", "9"], "2", "1e-14"), ("Laplace t = 2", ["--laplace", "2"], "1/2", "1e-10")]
    with tempfile.TemporaryDirectory() as tmp:
        for law, law_args, eps, width in cases:
            for gamma in ("0", "1/3"):
                cert = os.path.join(tmp, "plain.json")
                run = median_of(producer("dg", "--gamma", gamma, *law_args, "--budget", "2", "--epsilon", eps,
                                         "--width", width, "--quiet", "-o", cert), args.runs)
                interval = json.load(open(cert))["result"]["interval"] if run.status == 0 else None
                shown = (f"[{interval['lower_display']}, {interval['upper_display']}]"
                         if interval else "?")
                wide = f"{float(Fraction(interval['width'])):.2e}" if interval else "?"
                rows.append(f"| {law} | {eps} | {gamma} | {shown} | {wide} | {fmt(run)}")
                print(rows[-1], flush=True)
    _write(args.out, "plain", rows)


def product_table(args):
    """`producer plain` (plain-composition/1, the product route) at growing C and σ²."""
    rows = ["| noise | C | ε | W | producer wall / cpu s | producer MiB |", "|---|---|---|---|---|---|"]
    cases = [(["--sigma2", "9"], "8", "1/2,1,2,4", "1e-15"), (["--sigma2", "1"], "64", "1/2,1,2,4", "1e-15"),
             (["--sigma2", "1"], "1024", "1/2,1,2,4", "1e-15"), (["--sigma2", "1"], "1024", "1/2,1,2,4", "1e-60"),
             (["--sigma2", "100000"], "1024", "1/10,1", "1e-15"), (["--laplace", "2"], "1024", "1/2,1,2,4", "1e-15")]
    with tempfile.TemporaryDirectory() as tmp:
        for law_args, budget, eps, width in cases:
            cert = os.path.join(tmp, "product.json")
            run = median_of(producer("plain", *law_args, "--budget", budget, "--epsilons", eps, "--width", width,
                                     "--quiet", "-o", cert), args.runs)
            rows.append(f"| {' '.join(law_args)} | {budget} | {eps} | {width} | {fmt(run)}")
            print(rows[-1], flush=True)
    _write(args.out, "product", rows)


NOISE_CASES = [  # (label, producer noise arguments); issue 22's target: a noise calibration <= 30 s
    ("σ², C = 100, ε = 2", ["--epsilon", "2", "--budget", "100"]),
    ("σ², C = 1000, ε = 2", ["--epsilon", "2", "--budget", "1000"]),
    ("σ², C = 1000, ε = 1", ["--epsilon", "1", "--budget", "1000"]),
    ("t, C = 1000, ε = 2", ["--epsilon", "2", "--budget", "1000", "--laplace"]),
    ("σ², γ = 1/3, C = 2, ε = 1", ["--epsilon", "1", "--budget", "2", "--gamma", "1/3"]),
    ("factor f, dg:9x100 + dl:2x5 + dg:4:2x20, ε = 2", ["--epsilon", "2", "--release", "dg:9x100", "--release",
                                                       "dl:2x5", "--release", "dg:4:2x20"]),
]


def noise_table(args):
    """`producer noise` (noise/1) at δ = 10^-5, R = 1/1000: the answer, the producer's and the auditor's times."""
    import json
    rows = ["| question | answer (noise / below) | producer wall / cpu s | producer MiB | auditor wall / cpu s "
            "| auditor MiB |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, noise_args in NOISE_CASES:
            cert = os.path.join(tmp, "noise.json")
            run = median_of(producer("noise", *noise_args, "--delta", "1e-5", "--quiet", "-o", cert), args.runs)
            res = json.load(open(cert))["result"] if run.status == 0 else None
            key = "laplace" if "--laplace" in noise_args else "factor" if "--release" in noise_args else "sigma2"
            shown = " / ".join(f"{float(Fraction(res[k])):.6g}" for k in (key, key + "_below")) if res else "?"
            rows.append(f"| {label} | {shown} | {fmt(run)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "noise", rows)


CALIBRATE_CASES = [  # (label, producer calibrate arguments); issue 22's targets: C = 1000 plain <= 5 s (auditor
    # <= 2x that), the two-sided C = 8 feedback answer <= 60 s for the producer and for the auditor each
    ("plain σ² = 9, C = 1000, δ = 10^-5", ["--gamma", "0", "--sigma2", "9", "--budget", "1000", "--delta", "1e-5"]),
    ("plain dg:9x100 + dl:2x5 + dg:4:2x20, δ = 10^-5", ["--gamma", "0", "--release", "dg:9x100", "--release",
                                                        "dl:2x5", "--release", "dg:4:2x20", "--delta", "1e-5"]),
    ("γ = 1/3, σ² = 9, C = 8, δ = 10^-4", ["--gamma", "1/3", "--sigma2", "9", "--budget", "8", "--delta", "1e-4"]),
]


def calibrate_table(args):
    """`producer calibrate` (epsilon-bracket/1) on each route: the answer, the producer's and the auditor's times."""
    rows = ["| question | route | ε* ∈ | producer wall / cpu s | producer MiB | auditor wall / cpu s | auditor MiB |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, calibrate_args in CALIBRATE_CASES:
            cert = os.path.join(tmp, "bracket.json")
            run = median_of(producer("calibrate", *calibrate_args, "--quiet", "-o", cert), args.runs)
            res = json.load(open(cert))["result"] if run.status == 0 else None
            shown = f"[{res['epsilon_lo_display']}, {res['epsilon_hi_display']}]" if res else "?"
            route = res["route"] if res else "?"
            rows.append(f"| {label} | {route} | {shown} | {fmt(run)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "calibrate", rows)


BUDGET_CASES = [  # issue 33: the exact game at budgets 3, 4 and 5 (γ = 1/3, σ² = 9)
    ("dg C = 3, L = 24, ε = 2", ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--epsilon", "2",
                                 "--radius", "24", "--scale", SCALE]),
    ("dg C = 4, L = 12, ε = 2", ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "4", "--epsilon", "2",
                                 "--radius", "12", "--scale", SCALE]),
    ("dg C = 4, L = 16, ε = 3.118", ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "4", "--epsilon", "3.118",
                                     "--radius", "16", "--scale", SCALE]),
    ("calibrate C = 4, δ = 10⁻⁴", ["calibrate", "--gamma", "1/3", "--sigma2", "9", "--budget", "4",
                                   "--delta", "1e-4"]),
    ("dg C = 5, ε = 2, width 10⁻³", ["dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "5", "--epsilon", "2",
                                      "--width", "1e-3"]),
]


def budgets_table(args):
    """The exact game at C = 3, 4, 5: producer and auditor CPU and peak memory, the route and the answer's width."""
    rows = ["| request | route | relative width | producer wall / cpu s | producer MiB | auditor wall / cpu s "
            "| auditor MiB |", "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, argv in BUDGET_CASES:
            cert = os.path.join(tmp, "budget.json")
            if os.path.exists(cert):
                os.remove(cert)
            run = median_of(producer(*argv, "--quiet", "-o", cert), args.runs)
            route, width = "refused (exit 2)" if run.status == 2 else "?", ""
            if run.status == 0:
                res = json.load(open(cert))["result"]
                route = res.get("route", "exact game")
                lo, hi = _ends(res)
                width = f"{float((hi - lo) / hi):.2g}" if lo is not None and hi else ""
            rows.append(f"| {label} | {route} | {width} | {fmt(run)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "budgets", rows)


def _ends(result):
    """The certified interval of a dg-interval or epsilon-bracket result, as Fractions (None when not found)."""
    if "epsilon_lo" in result and "epsilon_hi" in result:
        return Fraction(result["epsilon_lo"]), Fraction(result["epsilon_hi"])
    interval = result.get("interval")
    if isinstance(interval, dict) and "lower" in interval and "upper" in interval:
        return Fraction(interval["lower"]), Fraction(interval["upper"])
    return None, None


RESOURCE_CASES = [
    ("rate, γ = 1/2, σ² = 1, period 32", ["rate", "--gamma", "1/2", "--sigma2", "1"], "≤ 5 s"),
    ("rate, γ = 1/2, σ² = 1/4, period 32", ["rate", "--gamma", "1/2", "--sigma2", "1/4"], "≤ 5 s"),
    ("rate, γ = 1/2, σ² = 1, period 64 (129 × 896)", ["rate", "--gamma", "1/2", "--sigma2", "1", "--period", "64"],
     "stretch ≤ 2 min"),
    ("rate, γ = 1/3, σ² = 2, period 27", ["rate", "--gamma", "1/3", "--sigma2", "2"], "≤ 5 s"),
    ("frontier, γ = 1/2, σ² = 1/4, M = 12", ["frontier", "--gamma", "1/2", "--sigma2", "1/4"], "≤ 5 s"),
    ("frontier, γ = 2/5, σ² = 1, M = 24", ["frontier", "--gamma", "2/5", "--sigma2", "1", "--radius", "24"], ""),
    ("window, γ = 1/2, σ² = 1/4, τ = 2, b = 4", ["window", "--gamma", "1/2", "--sigma2", "1/4", "--tau", "2",
                                                "--bits", "4"], "≤ 2 s"),
    ("window, γ = 1/3, σ² = 1/4, τ = 2, b = 8", ["window", "--gamma", "1/3", "--sigma2", "1/4", "--tau", "2",
                                                "--bits", "8"], "≤ 2 s"),
    ("window, γ = 1/2, σ² = 1/4, τ = 2, b = 12", ["window", "--gamma", "1/2", "--sigma2", "1/4", "--tau", "2",
                                                 "--bits", "12"], "≤ 2 s"),
    ("window, γ = 3/7, σ² = 2, τ = 3/2, b = 12", ["window", "--gamma", "3/7", "--sigma2", "2", "--tau", "3/2",
                                                 "--bits", "12"], "≤ 2 s"),
    ("finite-budget, γ = 1/2, σ² = 1/4, C = 10^5, T = 2C", ["finite-budget", "--gamma", "1/2", "--sigma2", "1/4",
                                                         "--budget", "100000", "--deadline", "200000",
                                                         "--delta", "1e-4"], "≤ 5 s"),
]


def resource_table(args):
    """The resource-law kinds (rate/1, frontier/1, window-request/1, finite-budget/1); producer only."""
    rows = ["| request | target | producer wall / cpu s | producer MiB |", "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, argv, target in RESOURCE_CASES:
            cert = os.path.join(tmp, "resource.json")
            run = median_of(producer(*argv, "--quiet", "-o", cert), args.runs, timeout=600)
            rows.append(f"| {label} | {target} | {fmt(run, 600)}")
            print(rows[-1], flush=True)
    _write(args.out, "resource", rows)


DPSGD_PEER = """
import sys
from dp_accounting.pld import privacy_loss_distribution as pld
q, sigma, steps, delta = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
one = pld.from_gaussian_mechanism(sigma, sampling_prob=q)
print(one.self_compose(steps).get_epsilon_for_delta(delta))
"""
DPSGD_CASES = [("0.01", "1", 1000, "1e-5"), ("0.01", "1", 10000, "1e-5"), ("0.01", "1", 100000, "1e-5")]


def dpsgd_table(args):
    """dpsgd/1 against dp_accounting's PLD accountant (default discretisation), whole processes, same run.

    Target (issue 24): q = 0.01, σ = 1, T = 10^4, δ = 10^-5: relative width <= 10^-3 within 10× the
    peer's time; T = 10^5 in minutes at most.
    """
    rows = ["| q | σ | T | δ | certified ε | rel. width | producer wall / cpu s | producer MiB "
            "| dp_accounting PLD ε | peer wall / cpu s | producer / peer (cpu) |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for q, sigma, steps, delta in DPSGD_CASES:
            cert = os.path.join(tmp, "dpsgd.json")
            runs = 1 if steps > 10000 else args.runs
            run = median_of(producer("dpsgd", "--sampling-rate", q, "--noise-multiplier", sigma, "--steps",
                                     str(steps), "--delta", delta, "--quiet", "-o", cert), runs)
            shown, width = "?", "?"
            if run.status == 0:
                res = json.load(open(cert))["result"]
                lo, hi = Fraction(res["epsilon_lo"]), Fraction(res["epsilon_hi"])
                shown = f"[{res['epsilon_lo_display']}, {res['epsilon_hi_display']}]"
                width = f"{float((hi - lo) / hi):.2e}"
            peer = median_of([PY, "-c", DPSGD_PEER, q, sigma, str(steps), delta], runs)
            eps = "?"
            if peer.status == 0:
                done = subprocess.run([PY, "-c", DPSGD_PEER, q, sigma, str(steps), delta], capture_output=True,
                                      text=True, cwd=ROOT)
                eps = done.stdout.strip()[:10] if done.returncode == 0 else "?"
            else:
                eps = "not installed" if peer.status == 1 else f"exit {peer.status}"
            ratio = f"{run.cpu / peer.cpu:.1f}×" if peer.status == 0 and run.status == 0 else ""
            rows.append(f"| {q} | {sigma} | {steps} | {delta} | {shown} | {width} | {fmt(run)} {eps} | "
                        f"{peer.wall:.2f} / {peer.cpu:.2f} | {ratio} |")
            print(rows[-1], flush=True)
    rows.append("\nwall / cpu: median wall-clock and user+sys CPU seconds of whole processes (imports included); "
                "the peer is dp_accounting's `from_gaussian_mechanism(σ, sampling_prob=q)`, `self_compose(T)`, "
                "`get_epsilon_for_delta(δ)` (pessimistic connect-the-dots, default discretisation 10^-4)")
    _write(args.out, "dpsgd", rows)


ACCOUNTING_PEER = """
import json, sys
sys.path.insert(0, sys.argv[5])
from dp_accounting.pld import pld_privacy_accountant
from dp_events import dp_accounting_event, neighboring_relation

event, relation, delta, interval = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
acc = pld_privacy_accountant.PLDAccountant(neighboring_relation(relation), value_discretization_interval=interval)
acc.compose(dp_accounting_event(event))
print(acc.get_epsilon(delta))
"""


def _gaussian_steps(q, sigma, steps):
    inner = {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}
    return {"class_name": "SelfComposedDpEvent", "count": steps,
            "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": inner}}


def _repeated(steps, event):
    return {"class_name": "SelfComposedDpEvent", "count": steps, "event": event}


# (label, event, relation, δ, rel. width or None for the default, producer timeout s[, opt-in --effort N])
ACCOUNTING_CASES = [
    ("DP-SGD q = 256/60000, σ = 1.1, T = 14063", _gaussian_steps("256/60000", "1.1", 14063), "add_or_remove_one",
     "1e-5", None, 600),
    ("the same", _gaussian_steps("256/60000", "1.1", 14063), "add_or_remove_one", "1e-5", "1e-5", 600),
    ("the same", _gaussian_steps("256/60000", "1.1", 14063), "add_or_remove_one", "1e-5", "1e-6", 600),
    ("q = 0.001, σ = 0.6, T = 10^5", _gaussian_steps("0.001", "0.6", 10**5), "add_or_remove_one", "1e-5",
     "1e-4", 600),
    ("q = 0.001, σ = 0.6, T = 10^6", _gaussian_steps("0.001", "0.6", 10**6), "add_or_remove_one", "1e-5",
     "1e-5", 600),
    ("q = 0.001, σ = 1, T = 10^6", _gaussian_steps("0.001", "1", 10**6), "add_or_remove_one", "1e-5",
     "1e-5", 600),
    ("the same", _gaussian_steps("0.001", "1", 10**6), "add_or_remove_one", "1e-5", "1e-6", 900),
    ("q = 10^-5, σ = 0.4, T = 10^4", _gaussian_steps("1e-5", "0.4", 10**4), "add_or_remove_one", "1e-5", None,
     600),
    ("q = 10^-6, σ = 0.8, T = 10^5", _gaussian_steps("1e-6", "0.8", 10**5), "add_or_remove_one", "1e-5", None,
     600),
    ("the same", _gaussian_steps("1e-6", "0.8", 10**5), "add_or_remove_one", "1e-5", "0.3", 600),
    ("q = 10^-6, σ = 0.5, T = 10^6", _gaussian_steps("1e-6", "0.5", 10**6), "add_or_remove_one", "1e-5", "0.05",
     600),
    ("q = 10^-7, σ = 0.3, T = 10^6", _gaussian_steps("1e-7", "0.3", 10**6), "add_or_remove_one", "1e-5", None,
     600),
    ("Laplace b = 1, T = 100", _repeated(100, {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}),
     "add_or_remove_one", "1e-5", None, 600),
    ("randomized response p = 1/2, k = 2, T = 100",
     _repeated(100, {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "1/2", "num_buckets": 2}),
     "replace_one", "1e-5", None, 600),
    ("the same, replace_special (against the uniform answer)",
     _repeated(100, {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "1/2", "num_buckets": 2}),
     "replace_special", "1e-5", None, 600),
    ("randomized response p = 99/100, k = 2, T = 10^6, replace_special",
     _repeated(10**6, {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "99/100", "num_buckets": 2}),
     "replace_special", "1e-5", None, 600),
    ("randomized response p = 9/10, k = 2, T = 10^4",
     _repeated(10**4, {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "9/10", "num_buckets": 2}),
     "replace_one", "1e-5", None, 600),
    ("randomized response p = 99/100, k = 4, T = 10^6",
     _repeated(10**6, {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "99/100", "num_buckets": 4}),
     "replace_one", "1e-5", None, 600),
    ("discrete Laplace a = 1/2, s = 2, T = 50",
     _repeated(50, {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 2}),
     "add_or_remove_one", "1e-5", None, 600),
    ("batches of 256 of 60000 without replacement, σ = 1.1, T = 1000",
     _repeated(1000, {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                      "sample_size": 256, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1.1"}}),
     "replace_one", "1e-5", None, 600),
    ("batches of 256 of 60000 without replacement, Laplace b = 2, T = 1000",
     _repeated(1000, {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                      "sample_size": 256, "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "2"}}),
     "replace_one", "1e-5", None, 600),
    ("replace-one: a gradient and a count (σ = 1.1, 10) in one Poisson sampling q = 0.01, T = 1000",
     _repeated(1000, {"class_name": "PoissonSampledDpEvent", "sampling_probability": "0.01",
                      "event": {"class_name": "ComposedDpEvent", "events": [
                          {"class_name": "GaussianDpEvent", "noise_multiplier": "1.1"},
                          {"class_name": "GaussianDpEvent", "noise_multiplier": "10"}]}}),
     "replace_one", "1e-5", None, 600),
    ("the same on batches of 256 of 60000 without replacement",
     _repeated(1000, {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                      "sample_size": 256, "event": {"class_name": "ComposedDpEvent", "events": [
                          {"class_name": "GaussianDpEvent", "noise_multiplier": "1.1"},
                          {"class_name": "GaussianDpEvent", "noise_multiplier": "10"}]}}),
     "replace_one", "1e-5", None, 600),
    ("replace-one: Laplace b = 1 in a Poisson sampling q = 0.1, T = 100",
     _repeated(100, {"class_name": "PoissonSampledDpEvent", "sampling_probability": "0.1",
                     "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}}),
     "replace_one", "1e-5", None, 600),
    ("replace-one: discrete Gaussian σ² = 4, s = 1 in a Poisson sampling q = 0.1, T = 100",
     _repeated(100, {"class_name": "PoissonSampledDpEvent", "sampling_probability": "0.1",
                     "event": {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "4", "sensitivity": 1}}),
     "replace_one", "1e-5", None, 600),
    ("batches of 10 of 1000 without replacement, discrete Laplace a = 1/2, s = 1, T = 100",
     _repeated(100, {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000,
                     "sample_size": 10,
                     "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 1}}),
     "replace_one", "1e-5", None, 600),
    ("mixture σ = 2, Δ = [1, 2], p = [1/2, 1/2], T = 50",
     _repeated(50, {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": "2",
                    "sensitivities": ["1", "2"], "sampling_probs": ["1/2", "1/2"]}),
     "add_or_remove_one", "1e-5", None, 600),
    ("Poisson samples q = 256/60000 of n = 60000 truncated to B = 300, σ = 1.1, T = 1000",
     _repeated(1000, {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 60000,
                      "sampling_probability": "256/60000", "truncated_batch_size": 300, "noise_multiplier": "1.1"}),
     "add_or_remove_one", "1e-5", None, 600),
    ("a large batch: Poisson samples q = 32768/1281167 of n = 1281167 truncated to B = 33000, σ = 2, T = 1000",
     _repeated(1000, {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1281167,
                      "sampling_probability": "32768/1281167", "truncated_batch_size": 33000,
                      "noise_multiplier": "2"}),
     "add_or_remove_one", "1e-5", None, 600),
]
ACCOUNTING_INTERVALS = ("1e-4", "1e-5")


def _peer_epsilon(event_file, relation, delta, interval):
    argv = [PY, "-c", ACCOUNTING_PEER, event_file, relation, delta, interval, os.path.join(ROOT, "bench")]
    run = median_of(argv, 1, timeout=600)
    if run.status != 0:
        return run, ("not installed or refused" if run.status is not None else "> 600 s")
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=900)
    return run, (done.stdout.strip()[:10] if done.returncode == 0 else "?")


def accounting_table(args):
    """accounting/1 (the mechanism engine) beside dp_accounting's PLD accountant, whole processes, same run.

    Targets (issue 31): relative width 10^-6 within 2× the peer's time at discretisation 10^-5 for the DP-SGD
    rows; 10^-5 at T = 10^6; q down to 10^-7 and σ down to 0.3 at T up to 10^6; the auditor at most the
    producer's time.  A refused request shows the producer's one-line reason.
    """
    rows = ["| request | δ | R | certified ε | producer wall / cpu s | MiB | auditor cpu s "
            + "".join(f"| dp_accounting PLD ε ({i}) | peer cpu s " for i in ACCOUNTING_INTERVALS) + "|",
            "|---|---|---|---|---|---|---|" + "---|---|" * len(ACCOUNTING_INTERVALS)]
    with tempfile.TemporaryDirectory() as tmp:
        for label, event, relation, delta, width, timeout, *effort in ACCOUNTING_CASES:
            event_file, cert = os.path.join(tmp, "event.json"), os.path.join(tmp, "accounting.json")
            with open(event_file, "w", encoding="utf-8") as fh:
                json.dump(event, fh)
            argv = producer("account", "--event", event_file, "--delta", delta, "--relation", relation,
                            "--quiet", "-o", cert, *(["--rel-width", width] if width else []),
                            *(["--effort", str(effort[0])] if effort else []))
            if os.path.exists(cert):
                os.remove(cert)
            run = median_of(argv, 1, timeout=timeout)
            shown, audit_cpu = "?", ""
            if run.status == 0:
                res = json.load(open(cert))["result"]
                shown = f"[{res['epsilon_lo_display']}, {res['epsilon_hi_display']}]"
                if not args.no_auditor:
                    from producer.audit_budget import multiple_of   # the `auditor verify --budget N` it names
                    n = multiple_of(json.load(open(cert)))
                    a = measure([PY, "-m", "auditor", "verify", "--budget", str(n), cert],
                                timeout=max(args.auditor_timeout, 300 * n))
                    audit_cpu = f"{a.cpu:.2f}" if a.status == 0 else f"exit {a.status} ({a.cpu:.1f})"
            elif run.status is not None:
                done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=timeout + 60)
                shown = "refused: " + (done.stderr.strip().splitlines() or ["?"])[-1][:110].replace("|", "/")
            peers = []
            for interval in ACCOUNTING_INTERVALS:
                peer, eps = _peer_epsilon(event_file, relation, delta, interval)
                peers.append(f"| {eps} | {peer.cpu:.2f} ")
            rows.append(f"| {label} | {delta} | {width or 'default'} | {shown} | {fmt(run, timeout)} {audit_cpu} "
                        + "".join(peers) + "|")
            print(rows[-1], flush=True)
    rows.append("\nwall / cpu: wall-clock and user+sys CPU seconds of one whole process (imports included); the "
                "peer is dp_accounting's `PLDAccountant` (pessimistic, connect-the-dots) composing the same event "
                "tree at the value discretisation in the column header, then `get_epsilon(δ)`")
    _write(args.out, "accounting", rows)


PAPER_REFERENCES = [
    "hierarchy-exact-c4-uniform-g1_2-chain.json", "hierarchy-exact-c4-uniform-g1_2-depths.json",
    "hierarchy-exact-c4-uniform-g1_2-cuts.json", "block-composition-table2-g1_2-sigma2_4-c3-eps5.json",
    "minimum-deletion-c8-g1_3-sigma2_9-eps5.json", "minimum-depth-c8-g1_3-sigma2_9-eps4_91.json",
    "minimum-depth-c8-g1_3-sigma2_9-eps4_94.json",
]


def paper_table(args):
    """The paper references (certificates/paper/): producer reference module and auditor, whole processes."""
    rows = ["| reference | producer wall / cpu s | producer MiB | auditor wall / cpu s | auditor MiB |",
            "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in PAPER_REFERENCES:
            prod = median_of([PY, "-m", "producer.references.paper", tmp, name], args.runs)
            cert = os.path.join(tmp, name)
            rows.append(f"| {name} | {fmt(prod)} {fmt(audit(cert, args), args.auditor_timeout)}")
            print(rows[-1], flush=True)
    _write(args.out, "paper", rows)


REFUSAL_PROBE = """
import sys, time
from auditor import api
start = time.process_time()
report = api.verify_file(sys.argv[1])
print(f"{time.process_time() - start:.3f} {report.outcome} {report.unchecked or report.error or ''}")
"""


def _sealed(name, edit):
    """A reference certificate from certificates/ with ``edit`` applied and its digest recomputed."""
    from auditor.certificate import digest
    with open(os.path.join(ROOT, "certificates", name), encoding="utf-8") as fh:
        cert = json.load(fh)
    edit(cert)
    cert["digest"] = digest(cert)
    return json.dumps(cert).encode()


def _bank(points):
    def edit(cert):
        cert["input"]["bank"]["points"] = [cert["input"]["bank"]["points"][0]] * points
    return edit


def _weights(count):
    def edit(cert):
        cert["input"]["law"]["weights"] = ["1"] * count
    return edit


def _hostile_files(tmp):
    """(label, path) of hostile files refused by the reader's limits and by a kind's limit after the schema.

    Each file is built only when its turn comes, so that the children forked to measure it do not
    inherit the others' bytes in their peak memory.
    """
    cap = 64 * 1024 * 1024
    files = [
        ("100 MiB sparse file (file size, from fstat)", None),
        ("64 MiB: one string (string length, after parsing)", lambda: b'{"a": "' + b"1" * (cap - 10) + b'"}'),
        ("64 MiB: 33.5 million zeros (value count, before parsing)",
         lambda: b"[" + b"0," * (cap // 2 - 2) + b"0]"),
        ("10^6 nested arrays (value count, before parsing)", lambda: b"[" * 10 ** 6 + b"]" * 10 ** 6),
        ("JSON integer of 5000 digits", lambda: b'{"budget": ' + b"7" * 5000 + b"}"),
        ("brace-run, 20,001 bank points (the kind's limit 20,000)",
         lambda: _sealed("brace-synthetic.json", _bank(20_001))),
        ("brace-run, 32,000 bank points", lambda: _sealed("brace-synthetic.json", _bank(32_000))),
        ("finite-game, 99,900 weights (the kind's limit 5,000)",
         lambda: _sealed("finite-game-c2-121-g1_3.json", _weights(99_900))),
    ]
    for i, (label, build) in enumerate(files):
        path = os.path.join(tmp, f"hostile-{i}.json")
        with open(path, "wb") as fh:
            if build is None:
                fh.truncate(100 * 1024 * 1024)
            else:
                fh.write(build())
        yield label, path
        os.remove(path)


def refusals_table(args):
    """Hostile files: the auditor's CPU seconds to refuse each (in the process, after the imports) and the
    whole process; the JSON values the schema validates first when a kind's limit refuses (docs/certificates.md)."""
    rows = ["| hostile file | outcome | refusal cpu s (in process) | JSON values | µs a value "
            "| auditor wall / cpu s |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, path in _hostile_files(tmp):
            probes = [subprocess.run([PY, "-c", REFUSAL_PROBE, path], capture_output=True, text=True, cwd=ROOT)
                      for _ in range(args.runs)]
            cpu = statistics.median(float(p.stdout.split()[0]) for p in probes)
            outcome = probes[0].stdout.split()[1]
            values = _json_values(path) if outcome == "UNCHECKED" else None
            count, per_value = (f"{values:,}", f"{cpu / values * 1e6:.0f}") if values else ("", "")
            run = median_of([PY, "-m", "auditor", "verify", path], args.runs)
            rows.append(f"| {label} | {outcome} | {cpu:.2f} | {count} | {per_value} | {run.wall:.2f} / {run.cpu:.2f} |")
            print(rows[-1], flush=True)
    rows.append("\nrefusal cpu s: `auditor.api.verify_file` alone (process_time, median); JSON values and µs a "
                "value: of a certificate within the reader's limits refused by its kind after the schema; "
                "auditor wall / cpu: the whole `auditor verify` process (start-up and imports included); no memory "
                "column: a child's peak includes what this process held when it forked")
    _write(args.out, "refusals", rows)


def _json_values(path):
    """The JSON values of a certificate the reader accepts (None for the others)."""
    try:
        with open(path, "rb") as fh:
            if fh.read(1) != b"{":
                return None
            fh.seek(0)
            value = json.load(fh)
    except (ValueError, RecursionError):
        return None
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count if "schema" in value else None


def _write(out, name, rows):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(rows) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("which", nargs="?", default="default",
                   choices=["default", "targets", "growth", "game", "dg", "hierarchy", "plain", "product", "noise",
                            "calibrate", "budgets", "resource", "dpsgd", "accounting", "paper", "refusals",
                            "references", "all"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--auditor-timeout", type=float, default=120.0, help="seconds per auditor run (default 120)")
    p.add_argument("--no-auditor", action="store_true", help="do not run the auditor")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = p.parse_args()
    print(f"# benchmarks ({args.runs} runs each, median; {os.cpu_count()} cores)", flush=True)
    which = {"default": ("targets", "growth"), "all": ("targets", "growth", "game", "dg", "hierarchy",
                                                                        "plain", "product", "noise", "calibrate",
                                                                        "budgets", "resource", "dpsgd", "accounting",
                                                                        "paper", "refusals", "references")}.get(
        args.which, (args.which,))
    tables = {"targets": targets_table, "growth": growth_table, "game": game_table, "dg": dg_table,
              "hierarchy": hierarchy_table, "plain": plain_table, "product": product_table, "noise": noise_table,
              "calibrate": calibrate_table, "budgets": budgets_table,
              "resource": resource_table, "dpsgd": dpsgd_table, "accounting": accounting_table,
              "paper": paper_table, "refusals": refusals_table, "references": references_table}
    for name in which:
        print(f"\n## {name}", flush=True)
        tables[name](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
