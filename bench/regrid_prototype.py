"""Float prototype of a coarser grid during the power (a design measurement, not a certificate).

    python bench/regrid_prototype.py [--q Q] [--sigma S] [--steps T] [--epsilon E] [--grids N,N,...]

The upper chain of docs/dpsgd.md composes connect-the-dots arrays on one grid h
for all T steps, so its late products, whose laws are about √T times wider than
one step's, hold about √T times more entries than the early ones.  A block of
2^i composed steps could move to a grid r·g·h (g·h its own) by connect-the-dots
again: the atom at (r·m + i)·g·h sends the share

    β_i = (1 − e^{−i·g·h}) / (1 − e^{−r·g·h})

of its mass to (m + 1)·r·g·h and the rest to m·r·g·h.  The split keeps each
atom's Q-mass (a·e^{−m r g h} + b·e^{−(m+1) r g h} = u·e^{−(r m + i) g h}), so a
kernel maps the coarse pair back onto the fine one, as for the single step
(connect-the-dots, §3 of Doroshenko et al. 2022): the coarse pair dominates,
and rounding the two shares up keeps the order ⪰ of docs/dpsgd.md §4.  The
factors depend on i only, so a regrid is r products by constants and a
gather.  Its price is accuracy: each block regridded adds about (r·g·h)²/6 of
loss variance per copy, and the block has T/2^i copies in the end.

This script measures that trade in floats (numpy FFT convolution, windows
that move tails of mass below 10^-13 to the ends; no exactness, no
certificate): the cost Σ n·log2 n over the products of both orders' upper
chains, and the excess of the upper δ(ε) over a chain on a 4 times finer
grid, for the fixed grid and for a grid factor g_i = the largest power of two
with (2 g_i)² ≤ c·2^i / (bit length of T) at the block of 2^i steps (right-to-
left powering, so every block is a power of two).  The single step's arrays
are dp_accounting's connect-the-dots PLD (an optional extra).
"""

import argparse
import math

import numpy as np
from scipy.signal import fftconvolve

TAU = 1e-13


class Arr:
    """Masses at (lo + k)·g·h0 (k = 0 … len(p) − 1) and an atom at +∞."""

    __slots__ = ("lo", "p", "inf", "g")

    def __init__(self, lo, p, inf, g):
        self.lo, self.p, self.inf, self.g = lo, p, inf, g


def single_step(q, sigma, h):
    from dp_accounting.pld import privacy_loss_distribution as pldlib
    pld = pldlib.from_gaussian_mechanism(sigma, sampling_prob=q, value_discretization_interval=h,
                                         use_connect_dots=True, log_mass_truncation_bound=-60)
    return [Arr(int(pm._lower_loss), np.asarray(pm._probs, dtype=float), float(pm._infinity_mass), 1)
            for pm in (pld._pmf_remove, pld._pmf_add)]


def product(a, b, cost):
    """a·b, then the window: mass below TAU at either end moved to the low end or to +∞."""
    c = np.maximum(fftconvolve(a.p, b.p), 0.0)
    cost[0] += len(c) * max(1.0, math.log2(len(c)))
    cost[1] = max(cost[1], len(c))
    inf = a.inf * (b.p.sum() + b.inf) + a.p.sum() * b.inf
    lo = int(np.searchsorted(np.cumsum(c), TAU, side="right"))
    hi = len(c) - int(np.searchsorted(np.cumsum(c[::-1]), TAU, side="right"))
    lo = min(lo, hi - 1)
    p = c[lo:hi].copy()
    p[0] += c[:lo].sum()
    return Arr(a.lo + b.lo + lo, p, inf + c[hi:].sum(), a.g)


def regrid(a, r, h0):
    """Connect-the-dots of ``a`` onto the grid r·g·h0 (the module docstring's β_i)."""
    h = a.g * h0
    m0 = a.lo // r
    idx = np.arange(len(a.p)) + (a.lo - m0 * r)
    m, i = idx // r, idx % r
    beta = (1 - np.exp(-i * h)) / (1 - np.exp(-r * h))
    out = np.zeros(int(m[-1]) + 2)
    np.add.at(out, m, a.p * (1 - beta))
    np.add.at(out, m + 1, a.p * beta)
    return Arr(m0, out, a.inf, a.g * r)


def upper_delta(a, eps, h0):
    k = np.arange(len(a.p)) + a.lo
    return float((a.p * np.maximum(0.0, 1 - np.exp(eps - k * a.g * h0))).sum() + a.inf)


def power(base, steps, h0, plan, cost):
    """base^steps, right to left; the block of 2^i steps on the grid factor plan(i)."""
    acc, block, i = None, base, 0
    while True:
        if (steps >> i) & 1:
            if acc is not None:
                while acc.g < block.g:
                    acc = regrid(acc, block.g // acc.g, h0)
                acc = product(acc, block, cost)
            else:
                acc = block
        if steps >> (i + 1) == 0:
            return acc
        block = product(block, block, cost)
        i += 1
        if plan(i) > block.g:
            block = regrid(block, plan(i) // block.g, h0)


def upper(q, sigma, steps, eps, n, plan):
    """(max over the orders of the upper δ(ε), cost, longest product) on the grid 1/n."""
    cost = [0.0, 0]
    value = max(upper_delta(power(a, steps, 1 / n, plan, cost), eps, 1 / n) for a in single_step(q, sigma, 1 / n))
    return value, cost[0], cost[1]


def plan_for(c, steps):
    bits = steps.bit_length()

    def plan(i):
        g = 1
        while (2 * g) ** 2 <= c * 2 ** i / bits:
            g *= 2
        return g
    return plan


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--q", type=float, default=256 / 60000)
    ap.add_argument("--sigma", type=float, default=1.1)
    ap.add_argument("--steps", type=int, default=14063)
    ap.add_argument("--epsilon", type=float, default=2.3817)
    ap.add_argument("--grids", default="20000,40000,80000")
    ap.add_argument("--c", default="1,0.25,0.0625")
    ap.add_argument("--reference", type=int, default=None,
                    help="the grid 1/N of the reference chain (default 4 times the finest; 0: none)")
    args = ap.parse_args()
    grids = [int(x) for x in args.grids.split(",")]
    n_ref = 4 * max(grids) if args.reference is None else args.reference
    truth = upper(args.q, args.sigma, args.steps, args.epsilon, n_ref, lambda i: 1)[0] if n_ref else None
    print(f"q = {args.q:g}, σ = {args.sigma:g}, T = {args.steps}, ε = {args.epsilon:g}; reference upper δ"
          + (f" on the grid 1/{n_ref}: {truth:.12e}" if truth is not None else ": none") + "\n")
    print("| grid | grid factors g_i | upper δ | its excess | cost Σ n log2 n | cost / fixed | longest product |")
    print("|---|---|---|---|---|---|---|")

    def excess(value):
        return f"{value - truth:.3e}" if truth is not None else ""
    for n in grids:
        fixed, fixed_cost, longest = upper(args.q, args.sigma, args.steps, args.epsilon, n, lambda i: 1)
        print(f"| 1/{n} | fixed | {fixed:.6e} | {excess(fixed)} | {fixed_cost:.3e} | 1 | {longest} |", flush=True)
        for c in (float(x) for x in args.c.split(",")):
            plan = plan_for(c, args.steps)
            value, cost, longest = upper(args.q, args.sigma, args.steps, args.epsilon, n, plan)
            factors = ",".join(str(plan(i)) for i in range(args.steps.bit_length()))
            print(f"| 1/{n} | c = {c:g}: {factors} | {value:.6e} | {excess(value)} | {cost:.3e} "
                  f"| {cost / fixed_cost:.3f} | {longest} |", flush=True)


if __name__ == "__main__":
    main()
