"""A randomised sweep of resource-law requests through the producer and the auditor (both as commands).

    .venv/bin/python bench/resource_sweep.py [--count N] [--seed S] [--out DIR] [--timeout SECONDS]

Draws requests of every resource kind (γ = a/B with B up to 101, several σ²,
periods, radii, τ, bits, budgets), runs ``producer <kind> … -o FILE`` on
each, then ``auditor verify`` on every certificate written, and prints one
line per request (producer exit status and time, auditor outcome) and a
summary.  A producer refusal must be exit 2 with one line on stderr; any
other producer exit, and any auditor outcome but OK, is a finding.  Not part
of the tests (it takes minutes); docs/resource-laws.md reports a run.
"""

import argparse
import os
import random
import subprocess
import sys
import time
from fractions import Fraction
from math import gcd

PY = sys.executable
SIGMA2 = ["1/100", "1/37", "1/4", "1/2", "1", "3/2", "2", "7/3", "10", "100", "1000", "10000"]


def gamma(rng, max_b=101):
    B = rng.choice([2, 3, 4, 5, 7, 10, 12, 13, 32, 33, 50, 64, 97, 101, rng.randint(2, max_b)])
    while True:
        a = rng.randint(1, B - 1)
        if gcd(a, B) == 1:
            return f"{a}/{B}", B


def sigma2(rng):
    if rng.random() < 0.25:
        return str(Fraction(rng.randint(1, 400), rng.randint(1, 40)))
    return rng.choice(SIGMA2)


def tau(rng, low=Fraction(1, 1000), high=Fraction(1000)):
    choice = rng.random()
    if choice < 0.3:
        return str(rng.choice([1, 2, 3, 5, 10]))
    value = Fraction(rng.randint(1, 4000), rng.randint(1, 400))
    return str(min(max(value, low), high))


def rate_request(rng):
    g, B = gamma(rng)
    args = ["rate", "--gamma", g, "--sigma2", sigma2(rng)]
    periods = [1]
    while 6 * B * periods[-1] * B + 2 * periods[-1] * B <= 1000:
        periods.append(periods[-1] * B)
    if rng.random() < 0.6:
        args += ["--period", str(rng.choice(periods))]
    return args


def frontier_request(rng):
    g, _B = gamma(rng)
    args = ["frontier", "--gamma", g, "--sigma2", sigma2(rng)]
    if rng.random() < 0.7:
        args += ["--radius", str(rng.choice([1, 2, 3, 5, 8, 12, 16, 24, 32]))]
    if rng.random() < 0.7:
        args += ["--tau", ",".join(tau(rng) for _ in range(rng.randint(1, 5)))]
    return args


def window_request(rng):
    g, _B = gamma(rng)
    bits = rng.choice([1, 2, 4, 6, 8, 10, 12, 16, 20, 24, 32])
    return ["window", "--gamma", g, "--sigma2", sigma2(rng), "--tau", tau(rng, high=Fraction(50)), "--bits",
            str(bits)]


def finite_request(rng):
    g, _B = gamma(rng)
    C = rng.choice([1, 3, 10, 100, 1000, 10 ** 5, 10 ** 6, 10 ** 9, 10 ** 15])
    T = min(10 ** 15, C * rng.choice([1, 2, 3, 10]) + rng.randint(0, 5))
    delta = rng.choice(["1/2", "1e-2", "1e-4", "1e-6", "1e-9", "1e-12"])
    args = ["finite-budget", "--gamma", g, "--sigma2", sigma2(rng), "--budget", str(C), "--deadline", str(T),
            "--delta", delta]
    if rng.random() < 0.7:
        args += ["--radius", str(rng.choice([4, 8, 12, 16, 24, 32]))]
    return args


KINDS = (rate_request, frontier_request, window_request, finite_request)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--out", default="build/resource-sweep")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    findings, written, refused = [], [], 0
    for i in range(args.count):
        request = KINDS[i % len(KINDS)](rng)
        path = os.path.join(args.out, f"{i:03d}-{request[0]}.json")
        start = time.perf_counter()
        try:
            run = subprocess.run([PY, "-m", "producer", *request, "-o", path, "--quiet"], capture_output=True,
                                 text=True, timeout=args.timeout)
            code, err = run.returncode, run.stderr.strip()
        except subprocess.TimeoutExpired:
            code, err = "timeout", ""
        seconds = time.perf_counter() - start
        line = f"{i:03d} {' '.join(request)}: producer {code} {seconds:.1f}s"
        if code == 0:
            written.append((path, line))
        elif code == 2 and err and "\n" not in err and "Traceback" not in err:
            refused += 1
            print(f"{line} refused: {err}", flush=True)
        else:
            findings.append(f"{line} {err[-300:]}")
            print(f"{line} FINDING {err[-300:]}", flush=True)
    for path, line in written:
        start = time.perf_counter()
        run = subprocess.run([PY, "-m", "auditor", "verify", path], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        status = {0: "OK", 1: "FAIL", 2: "MALFORMED", 3: "UNCHECKED", 4: "ERROR"}.get(run.returncode, run.returncode)
        text = (run.stdout + run.stderr).strip().splitlines()
        print(f"{line}; auditor {status} {seconds:.1f}s", flush=True)
        if status != "OK":
            findings.append(f"{line}; auditor {status}: {' | '.join(text[:3])[:600]}")
    print(f"\n{args.count} requests: {len(written)} certificates, {refused} refusals (exit 2, one line), "
          f"{len(findings)} findings")
    for f in findings:
        print("FINDING", f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
