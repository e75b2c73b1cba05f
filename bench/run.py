"""Benchmarks: wall time and peak memory of whole producer and auditor processes.

    python bench/run.py [game|dg|growth|hierarchy|all] [--runs N]

Each figure is the median over N runs (default 3) of a fresh process, so it
includes start-up and imports. Peak memory is the child's maximum resident
set size. Results are printed as Markdown tables and written to
bench/results/. Nothing here is a test: timings never decide anything.
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable


def measure(argv, timeout=3600):
    """(wall seconds, peak RSS MiB, exit status) of one child process."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.stderr.close()
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def median_of(argv, runs):
    results = [measure(argv) for _ in range(runs)]
    status = max(r[2] for r in results)
    return statistics.median(r[0] for r in results), max(r[1] for r in results), status


def dg_like_weights(radius, sigma2=9, scale=10**24):
    # Only a stand-in law for timing; certified sources come from `producer dg`.
    return ",".join(str(int(scale * math.exp(-n * n / (2 * sigma2)))) for n in range(-radius, radius + 1))


def coprime_near_third(B):
    a = max(1, round(B / 3))
    while math.gcd(a, B) != 1:
        a += 1
    return a


def game_table(runs, out):
    rows = ["| C | radius | B | producer s | producer MiB | auditor s | auditor MiB |",
            "|---|---|---|---|---|---|---|"]
    cases = [(c, r, 3) for c in (1, 2, 3) for r in (1, 4, 8, 16, 24)]
    cases += [(2, 16, B) for B in (31, 97, 257)]
    with tempfile.TemporaryDirectory() as tmp:
        for c, radius, B in cases:
            cert = os.path.join(tmp, f"g-{c}-{radius}-{B}.json")
            gamma = f"{coprime_near_third(B)}/{B}"
            prod = [PY, "-m", "producer", "game", "--gamma", gamma, "--weights", dg_like_weights(radius),
                    "--budget", str(c), "--threshold", "7389/1000", "-o", cert]
            pt, pm, ps = median_of(prod, runs)
            at, am, st = median_of([PY, "-m", "auditor", "verify", cert], runs) if ps == 0 else (0, 0, -1)
            row = (f"| {c} | {radius} | {B} | {pt:.2f} | {pm:.0f} | "
                   + (f"{at:.2f} | {am:.0f} |" if st == 0 else f"exit {st} | |"))
            rows.append(row)
            print(row, flush=True)
    _write(out, "game", rows)


def dg_table(runs, out):
    rows = ["| B | a | reduced s | enumerate s | ratio | seed 004 ratio (C++) | auditor s |",
            "|---|---|---|---|---|---|---|"]
    paper = {97: "3.46", 257: "25.40"}
    with tempfile.TemporaryDirectory() as tmp:
        for B in (3, 31, 97, 257):
            a = coprime_near_third(B)
            base = [PY, "-m", "producer", "dg", "--gamma", f"{a}/{B}", "--sigma2", "9", "--budget", "2",
                    "--epsilon", "2", "--radius", "16", "--scale", str(10**24), "--quiet"]
            cert = os.path.join(tmp, f"dg-{B}.json")
            rt, _, rs = median_of(base + ["--method", "reduced", "-o", cert], runs) if B > 3 else (None, 0, 0)
            et, _, es = median_of(base + ["--method", "enumerate", "-o", cert], runs)
            at, _, st = median_of([PY, "-m", "auditor", "verify", cert], 1)
            red = f"{rt:.2f}" if rt is not None else "n/a (B² small)"
            ratio = f"{et / rt:.2f}" if rt else ""
            row = (f"| {B} | {a} | {red} | {et:.2f} | {ratio} | {paper.get(B, '')} | "
                   + (f"{at:.2f} |" if st == 0 else f"exit {st} |"))
            rows.append(row)
            print(row, flush=True)
    _write(out, "dg", rows)


def growth_table(runs, out):
    """γ = 1/3, σ² = 9, C = 3: producer time against ℓ = L + 1, with the fitted exponent."""
    rows = ["| L | ℓ = L+1 | producer s |", "|---|---|---|"]
    points = []
    with tempfile.TemporaryDirectory() as tmp:
        for L in (4, 8, 12, 16, 24):
            cert = os.path.join(tmp, f"c3-{L}.json")
            argv = [PY, "-m", "producer", "dg", "--gamma", "1/3", "--sigma2", "9", "--budget", "3",
                    "--epsilon", "2", "--radius", str(L), "--scale", str(10**24), "--quiet", "-o", cert]
            t, _, status = median_of(argv, runs)
            rows.append(f"| {L} | {L + 1} | {t:.2f} |" if status == 0 else f"| {L} | {L + 1} | exit {status} |")
            print(rows[-1], flush=True)
            points.append((math.log(L + 1), math.log(t)))
    # least-squares slope of log(time) against log(ℓ) over the three largest ℓ
    tail = points[-3:]
    mx = sum(p[0] for p in tail) / len(tail)
    my = sum(p[1] for p in tail) / len(tail)
    slope = sum((x - mx) * (y - my) for x, y in tail) / sum((x - mx) ** 2 for x, _ in tail)
    rows.append(f"\nfitted exponent over ℓ = {', '.join(str(L + 1) for L in (12, 16, 24))}: {slope:.2f} "
                f"(theory: ℓ^7 with the G_2 precomputation, ℓ^6 point work)")
    print(rows[-1], flush=True)
    _write(out, "growth", rows)


def hierarchy_table(runs, out):
    """hierarchy/1 at γ = 1/3, σ² = 9, δ = 10^-4 (issue 14 target: producer <= 3 min, auditor <= 2x)."""
    rows = ["| model | C | ε_hi | producer s | producer MiB | auditor s | auditor MiB |",
            "|---|---|---|---|---|---|---|"]
    import json
    with tempfile.TemporaryDirectory() as tmp:
        for budget, depth in ((8, 4), (16, 3)):
            cert = os.path.join(tmp, f"h-{budget}-{depth}.json")
            prod = [PY, "-m", "producer", "hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", str(budget),
                    "--depth", str(depth), "--delta", "1e-4", "--quiet", "-o", cert]
            pt, pm, ps = median_of(prod, runs)
            eps = json.load(open(cert))["result"]["epsilon_display"] if ps == 0 else "?"
            at, am, st = median_of([PY, "-m", "auditor", "verify", cert], runs) if ps == 0 else (0, 0, -1)
            row = (f"| P_{depth} | {budget} | {eps} | {pt:.1f} | {pm:.0f} | "
                   + (f"{at:.1f} | {am:.0f} |" if st == 0 else f"exit {st} | |"))
            rows.append(row)
            print(row, flush=True)
    _write(out, "hierarchy", rows)


def _write(out, name, rows):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(rows) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("which", nargs="?", default="all", choices=["game", "dg", "growth", "hierarchy", "all"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = p.parse_args()
    print(f"# benchmarks ({args.runs} runs each, median; {os.cpu_count()} cores)")
    if args.which in ("game", "all"):
        game_table(args.runs, args.out)
    if args.which in ("dg", "all"):
        dg_table(args.runs, args.out)
    if args.which in ("growth", "all"):
        growth_table(args.runs, args.out)
    if args.which in ("hierarchy", "all"):
        hierarchy_table(args.runs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
