"""Exact prototype of a body/tail split of the single step (a design measurement, not a certificate).

    python bench/split_prototype.py [--q Q] [--sigma S] [--steps T] [--grid N] [--epsilon E]
                                    [--delta D] [--rel-width R] [--epsilon-cap C] [--tail-mass M]
                                    [--factor R] [--order remove|add]

Why.  Every array of a chain holds the single step's far tail: at q = 256/60000,
σ = 1.1 and h = 1/102000 one step's loss reaches about 2.86 with P-mass near
10^-20 there, and the windows must keep that mass, since each of the T copies
of a step may be the one in the tail.  So the first products of every chain are
as long as the single step (about 290 000 entries), while the step's bulk lies
within a few hundredths of 0.

The split.  Label each atom of the single step's (rounded) arrays "body" or
"tail" by its index.  The T-fold product measure is the sum, over the 2^T label
patterns, of products of labelled parts, and the hockey-stick divergence
H_α(A‖B) = sup_E A(E) − α·B(E) adds over labelled parts (the supremum splits
along the labels).  Grouping the patterns by their number k of tail steps:

    δ(ε) <= H(body^T) + T·H(body^(T−1) ⊗ tail) + Σ_{k>=2} C(T, k)·m^k·b^(T−k),

b and m the body's and the tail's P-mass; the last sum, where each H is bounded
by its P-mass, is at most C(T, 2)·m²·(b + m)^(T−2).  A lower bound keeps the
first two terms (every H is >= 0).  The cross term holds little mass (T·m), so
its arrays may be coarse: body^(T−1) regridded by R, the tail by G·R (G the
chain's own regrid factor), each by the shares of a regrid (dominating).  The
chain itself composes only the body: T − 1 steps, then one more product.

This script builds the producer's single-step arrays at one plan, then runs
the forward (``remove``) or backward (``add``) upper chain and the lower chain
of that order both ways, and prints CPU seconds, lengths and F(ε) of the upper
side (floats: a measurement, no claim).  The masses of the body's buckets alone
are timed too (a split would enclose the tail's on a coarse grid).
"""

import argparse
import math
import time
from fractions import Fraction

from producer.kinds.dpsgd import Request
from producer.pld import composition as comp
from producer.pld.enclose import _Attempt, _regrids
from producer.pld.masses import step_masses
from producer.pld.mechanism import BACKWARD, FORWARD, Stage
from producer.pld.parameters import Sizing
from producer.pld.regrid import regrid, shares
from producer.pld.search import mass_precision, plan_at
from producer.pld.subsampled_gaussian import SubsampledGaussian


def upper_f(array, spacing, bits, epsilon):
    """F(ε) = Σ_{kg > ε} v_k·(1 − e^{ε − kg})/2^K + atom/2^K, in floats."""
    total = 0.0
    for k, v in enumerate(array.values):
        loss = (array.offset + k) * spacing
        if loss > epsilon and v:
            total -= float(v) * math.expm1(epsilon - loss)
    return (total + float(array.atom)) / 2.0 ** bits


def cut(array, lo, hi, keep_atom):
    start, stop = max(lo, array.offset), min(hi, array.last)
    return comp.Array(start, array.values[start - array.offset:stop - array.offset + 1],
                      array.atom if keep_atom else 0)


def timed(function, *args):
    start = time.process_time()
    out = function(*args)
    return out, time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--q", default="256/60000")
    parser.add_argument("--sigma", default="11/10")
    parser.add_argument("--steps", type=int, default=14063)
    parser.add_argument("--grid", type=int, default=102000)
    parser.add_argument("--epsilon", type=float, default=2.38169)
    parser.add_argument("--delta", default="1/100000")
    parser.add_argument("--rel-width", default="1/1000000")
    parser.add_argument("--epsilon-cap", type=float, default=3.91)
    parser.add_argument("--tail-mass", type=float, default=3e-11)
    parser.add_argument("--factor", type=int, default=4)
    parser.add_argument("--order", choices=("remove", "add"), default="remove")
    args = parser.parse_args()
    steps, order = args.steps, FORWARD if args.order == "remove" else BACKWARD
    stage = Stage(SubsampledGaussian(Fraction(args.q), Fraction(args.sigma)), steps)
    delta, rel_width = Fraction(args.delta), Fraction(args.rel_width)
    request = Request([stage], delta=delta, rel_width=rel_width)
    sizing = Sizing(request.stages)
    plan = plan_at(sizing, 1 / args.grid, float(delta * rel_width) / 64, args.epsilon_cap, grid=args.grid)
    attempt = _Attempt(request, plan, print, sizing)
    _, seconds = timed(attempt.prepare)
    print(f"{plan}: single step prepared in {seconds:.2f} s")
    K, Kq, h, regrids = plan.p_bits, plan.q_bits, Fraction(1, args.grid), attempt.regrids
    G = math.prod(g.factor for g in regrids)
    early = _regrids([Stage(stage.law, steps - 1)],
                     plan) if regrids else ()     # the regrid rule for the products of T − 1
    upper = attempt.sides[0][order]["upper"]

    def chain(base, count, kinds, bits, chooser, regs):
        return comp.power(base, count, kinds, bits, comp.Windows(choose=chooser), None, regs)

    (full,), t_full = timed(chain, [upper], steps, [comp.UPPER], [K], attempt._upper_chooser(), regrids)
    f_full = upper_f(full, float(G * h), K, args.epsilon)
    print(f"upper, whole step: {t_full:.2f} s, F = {f_full:.12g}")

    values, run = upper.values, 0
    if order == FORWARD:                      # the tail: the top entries holding at most the tail mass
        stop = len(values)
        while stop > 0 and (run + values[stop - 1]) / 2 ** K <= args.tail_mass:
            run, stop = run + values[stop - 1], stop - 1
        body, tail = cut(upper, upper.offset, upper.offset + stop - 1, True), cut(upper, upper.offset + stop,
                                                                                   upper.last, False)
    else:                                     # the add order's far tail is its low end
        start = 0
        while start < len(values) and (run + values[start]) / 2 ** K <= args.tail_mass:
            run, start = run + values[start], start + 1
        body, tail = cut(upper, upper.offset + start, upper.last, True), cut(upper, upper.offset,
                                                                              upper.offset + start - 1, False)
    m = run / 2 ** K
    (power,), t_power = timed(chain, [body], steps - 1, [comp.UPPER], [K], attempt._upper_chooser(), early)
    base = body.packed()
    for g in early:
        base = regrid(base, True, g.factor, g.shares, g.bits)
    whole, t_last = timed(comp.multiply, power, comp.Array.from_packed(base), comp.UPPER, K)
    bits = K + 32
    start = time.process_time()
    coarse = regrid(power.packed(), True, args.factor, shares(G * h, args.factor, bits), bits)
    tail_coarse = regrid(tail.packed(), True, G * args.factor, shares(h, G * args.factor, bits), bits)
    cross = comp.multiply(comp.Array.from_packed(coarse), comp.Array.from_packed(tail_coarse), comp.UPPER, K)
    t_cross = time.process_time() - start
    binomial = steps * (steps - 1) / 2 * m * m
    f0, f1 = upper_f(whole, float(G * h), K, args.epsilon), upper_f(cross, float(G * args.factor * h), K, args.epsilon)
    split = f0 + steps * f1 + binomial
    print(f"upper, split: body {body.offset}..{body.last}, tail mass m = {m:.3g}; body^(T-1) {t_power:.2f} s, "
          f"the last product {t_last:.2f} s, the cross term {t_cross:.2f} s ({coarse.length} x {tail_coarse.length})")
    print(f"  F = {f0:.12g} + T·{f1:.6g} + C(T,2)·m² {binomial:.3g} = {split:.12g}; "
          f"relative excess over the whole step {(split - f_full) / f_full:.3g}")

    lower_p, lower_q = attempt.sides[0][order]["lower"]
    kinds = [comp.LOWER_P, comp.LOWER_Q]
    _, t_lower = timed(chain, [lower_p, lower_q], steps, kinds, [K, Kq], attempt._lower_chooser(), regrids)
    body_pq = [cut(a, body.offset, body.last, True) for a in (lower_p, lower_q)]
    _, t_lower_body = timed(chain, body_pq, steps - 1, kinds, [K, Kq], attempt._lower_chooser(), early)
    print(f"lower, whole step: {t_lower:.2f} s; body^(T-1): {t_lower_body:.2f} s")

    (lo, hi), = attempt.ranges
    precision = mass_precision(plan, lo, hi)
    body_hi = body.last if order == FORWARD else -body.offset
    _, t_all = timed(step_masses, stage.law, plan.h, lo, hi, precision)
    _, t_body = timed(step_masses, stage.law, plan.h, lo, body_hi, precision)
    print(f"single-step masses: buckets {lo}..{hi} {t_all:.2f} s; the body's {lo}..{body_hi} {t_body:.2f} s")


if __name__ == "__main__":
    main()
