"""Checks of ``block-composition/1`` certificates (docs/paper-claims.md §2).

Re-proved by the auditor's own route, in this order:

1. the input's domain (γ reduced with 0 < a < B, or "0"; σ² > 0 or a law of
   non-negative weights with a positive total; every split a list of positive
   block lengths summing to T, distinct; 0 < low <= high < 1): otherwise MALFORMED;
2. the limits (§2.4), before any curve: B <= 16, ε <= 64, support <= 65 and for
   every block type (start classes) × (support + 2)^k <= 2·10^6, and the
   enclosure limits of the source and threshold claims: beyond, UNCHECKED;
3. the finite source and τ (discrete Gaussian, three-way as for
   ``hierarchy/1``) or a null source and τ = 0 (finite law); λ₋ <= e^ε <= λ₊;
   draws = T and the transfer (1 + λ₊)(1 − (1 − τ)^T);
4. every block type's dominating curve (:mod:`auditor.blocks`: W_k from the
   zero start, or the envelope over the 3·B^k start classes) and its vertex
   count;
5. per split, the product pair's H_λ at λ₋ and λ₊ (``finite_upper``,
   ``finite_lower``), ``bound``, its display and the decisions; ``deadline``.
"""

from fractions import Fraction

from auditor.blocks.compose import block_curve, product_value
from auditor.blocks.deadline import DeadlineGame
from auditor.certificate import Malformed
from auditor.common import check_display, gamma as read_gamma, integer
from auditor.claims import rational_text, upper_text
from auditor.decide import fail_undecided
from auditor.enclosure_limits import refuse_dg_source, refuse_threshold
from auditor.hierarchy.source import check_dg_source, threshold_pair
from auditor.outcomes import Unchecked
from auditor.rationals import read_integer, read_rational

__all__ = ["verify", "claim", "MAX_B", "MAX_SUPPORT", "MAX_BLOCK_WORK", "MAX_EPSILON"]

I, R = "/input", "/result"

MAX_B = 16
MAX_SUPPORT = 65
MAX_BLOCK_WORK = 2 * 10 ** 6
MAX_EPSILON = 64


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    a, B, T, eps, splits, targets = _input(inp)
    types = block_types(splits)
    _refuse_beyond_limits(inp, res, B, eps, types)
    undecided = []
    law = _source(inp, res, report, undecided)
    if law is not None:
        _verify(res, law, a, B, T, eps, types, splits, targets, report, undecided)
    fail_undecided(undecided, report, cert)


# 1. input ----------------------------------------------------------------
def _input(inp):
    a, B = read_gamma(inp["gamma"], I + "/gamma")
    noise = inp["innovations"]
    if noise["noise"] == "discrete-gaussian":
        if read_rational(noise["sigma2"], I + "/innovations/sigma2") <= 0:
            raise Malformed(f"{I}/innovations/sigma2: {noise['sigma2']} is not positive")
        read_integer(noise["scale"], I + "/innovations/scale")
    else:
        weights = [read_integer(w, f"{I}/innovations/law/weights/{i}") for i, w in enumerate(noise["law"]["weights"])]
        integer(noise["law"]["offset"], I + "/innovations/law/offset")
        if sum(weights) <= 0:
            raise Malformed(f"{I}/innovations/law/weights: the weights sum to {sum(weights)}, not a law")
    T = inp["budget"]
    eps = read_rational(inp["epsilon"], I + "/epsilon")
    splits = [tuple(s) for s in inp["splits"]]
    for i, split in enumerate(splits):
        if sum(split) != T:
            raise Malformed(f"{I}/splits/{i}: {list(split)} does not sum to T = {T}")
    if len(set(splits)) != len(splits):
        raise Malformed(f"{I}/splits: the splits are not distinct")
    targets = []
    for i, target in enumerate(inp["targets"]):
        low = read_rational(target["low"], f"{I}/targets/{i}/low")
        high = read_rational(target["high"], f"{I}/targets/{i}/high")
        if not 0 < low <= high < 1:
            raise Malformed(f"{I}/targets/{i}: [{target['low']}, {target['high']}] is not 0 < low <= high < 1")
        targets.append((low, high))
    return a, B, T, eps, splits, targets


def block_types(splits):
    """Every distinct (length, start) of the splits in order of first use."""
    types = []
    for split in splits:
        for i, k in enumerate(split):
            t = (k, "zero" if i == 0 else "any")
            if t not in types:
                types.append(t)
    return types


# 2. limits ---------------------------------------------------------------
def _support(inp):
    noise = inp["innovations"]
    if noise["noise"] == "discrete-gaussian":
        return 2 * noise["radius"] + 1
    return len(noise["law"]["weights"])


def _refuse_beyond_limits(inp, res, B, eps, types):
    if B > MAX_B:
        raise Unchecked(I + "/gamma", B, MAX_B, "the denominator B of γ")
    if eps > MAX_EPSILON:
        raise Unchecked(I + "/epsilon", eps, MAX_EPSILON, "ε")
    support = _support(inp)
    if support > MAX_SUPPORT:
        raise Unchecked(I + "/innovations", support, MAX_SUPPORT, "support of the law")
    for k, start in types:
        classes = 1 if start == "zero" else 3 * B ** k
        work = classes * (support + 2) ** k
        if work > MAX_BLOCK_WORK:
            raise Unchecked(I + "/splits", work, MAX_BLOCK_WORK, f"(start classes) × (support + 2)^k of a {k}-block")
    noise = inp["innovations"]
    if noise["noise"] == "discrete-gaussian":
        src = res["source"]
        if src is not None:
            refuse_dg_source(read_rational(noise["sigma2"], I + "/innovations/sigma2"), src["radius"],
                             read_integer(src["scale"], R + "/source/scale"), len(src["weights"]),
                             I + "/innovations/sigma2", R + "/source")
    sides = [read_rational(res["threshold"][side], f"{R}/threshold/{side}") for side in ("lower", "upper")]
    refuse_threshold(eps, sides, I + "/epsilon", R + "/threshold")


# 3. source, threshold, transfer --------------------------------------------
def _source(inp, res, report, undecided):
    """(weights, offset, τ) of the law the blocks are computed on, or None."""
    noise = inp["innovations"]
    if noise["noise"] == "finite":
        report.check(res["source"] is None, R + "/source", "a source", None, "a finite law has no source")
        tau = read_rational(res["tau"], R + "/tau")
        report.equal(R + "/tau", tau, 0, "τ of a finite law")
        law = noise["law"]
        return [read_integer(w, "") for w in law["weights"]], law["offset"], tau
    src = res["source"]
    if not report.check(src is not None, R + "/source", None, "the finite source", "a discrete Gaussian has a source"):
        return None
    sigma2 = read_rational(noise["sigma2"], I + "/innovations/sigma2")
    return check_dg_source(src, sigma2, noise["radius"], read_integer(noise["scale"], I + "/innovations/scale"),
                           res["tau"], report, undecided, R + "/source", R + "/tau")


def _verify(res, law, a, B, T, eps, types, splits, targets, report, undecided):
    weights, offset, tau = law
    pair = threshold_pair(res["threshold"], eps, report, undecided, R + "/threshold")
    if pair is None:
        return
    lam_lo, lam_hi = pair
    report.equal(R + "/draws", res["draws"], T, "draws (every one of the T releases)")
    transfer = (1 + lam_hi) * (1 - (1 - tau) ** T)
    report.equal(R + "/transfer", read_rational(res["transfer"], R + "/transfer"), transfer,
                 "(1 + λ₊)(1 − (1 − τ)^T)")

    game = DeadlineGame(weights, offset, a, B)
    curves = _blocks(res, game, B, types, report)
    methods = _methods(res, curves, splits, targets, lam_lo, lam_hi, transfer, report)
    _deadline(res, methods, splits, T, transfer, report)


# 4. blocks ------------------------------------------------------------------
def _blocks(res, game, B, types, report):
    curves = {t: block_curve(game, *t) for t in types}
    claimed = res["blocks"]
    if report.equal(R + "/blocks", len(claimed), len(types), "number of block types (distinct (length, start))"):
        for i, (entry, (k, start)) in enumerate(zip(claimed, types)):
            P = f"{R}/blocks/{i}"
            report.equal(P + "/length", entry["length"], k, "block length (order of first use)")
            report.equal(P + "/start", entry["start"], start, "block start (order of first use)")
            report.equal(P + "/classes", entry["classes"], 1 if start == "zero" else 3 * B ** k, "start classes")
            report.equal(P + "/vertices", entry["vertices"], len(curves[(k, start)]),
                         "vertices of the block's dominating curve")
    return curves


# 5. methods -------------------------------------------------------------------
def _methods(res, curves, splits, targets, lam_lo, lam_hi, transfer, report):
    entries = res["methods"]
    if not report.equal(R + "/methods", len(entries), len(splits), "number of methods (one per split)"):
        return None
    out = []
    for i, (entry, split) in enumerate(zip(entries, splits)):
        P = f"{R}/methods/{i}"
        report.equal(P + "/split", tuple(entry["split"]), split, "split (input.splits[i])")
        chains = [curves[(k, "zero" if n == 0 else "any")] for n, k in enumerate(split)]
        upper = Fraction(product_value(chains, 1, lam_lo)) - lam_lo
        lower = Fraction(product_value(chains, 1, lam_hi)) - lam_hi
        report.equal(P + "/finite_upper", read_rational(entry["finite_upper"], P + "/finite_upper"), upper,
                     "H_λ₋ of the composed pairs")
        report.equal(P + "/finite_lower", read_rational(entry["finite_lower"], P + "/finite_lower"), lower,
                     "H_λ₊ of the composed pairs")
        bound = upper + transfer
        claimed = read_rational(entry["bound"], P + "/bound")
        report.equal(P + "/bound", claimed, bound, "finite_upper + transfer")
        check_display(entry["bound_display"], claimed, +1, P + "/bound_display", report)
        decisions = [decision(bound, lower, low, high) for low, high in targets]
        if report.equal(P + "/decisions", len(entry["decisions"]), len(targets),
                        "number of decisions (one per target)"):
            for j, (text, mine) in enumerate(zip(entry["decisions"], decisions)):
                report.equal(f"{P}/decisions/{j}", text, mine, "decision (certifies: bound <= low; "
                             "fails: finite_lower > high; else undecided)")
        out.append((upper, lower, bound))
    return out


def decision(bound, finite_lower, low, high):
    if bound <= low:
        return "certifies"
    if finite_lower > high:
        return "fails"
    return "undecided"


def _deadline(res, methods, splits, T, transfer, report):
    claimed = res["deadline"]
    full = splits.index((T,)) if (T,) in splits else None
    if full is None or methods is None:
        report.check(claimed is None or methods is None, R + "/deadline", "an interval", None,
                     "without the split [T] there is no deadline interval")
        return
    if not report.check(claimed is not None, R + "/deadline", None, "an interval",
                        "with the split [T] the deadline interval is stated"):
        return
    _, lower, bound = methods[full]
    report.equal(R + "/deadline/lower", read_rational(claimed["lower"], R + "/deadline/lower"),
                 max(Fraction(0), lower - transfer), "max(0, finite_lower of [T] − transfer)")
    report.equal(R + "/deadline/upper", read_rational(claimed["upper"], R + "/deadline/upper"), bound,
                 "bound of [T]")


# summary ------------------------------------------------------------------------
def claim(cert):
    """``delta(5) <= 0.0001011036426 (1+1+1), ...; full computation in [..] for gamma = 1/2, ...``."""
    inp, res = cert["input"], cert["result"]
    eps = rational_text(read_rational(inp["epsilon"], ""))
    shown = []
    for m in res["methods"]:
        label = "+".join(str(k) for k in m["split"])
        verdicts = ", ".join(m["decisions"])
        shown.append(f"{label}: delta({eps}) <= {upper_text(read_rational(m['bound'], ''))}"
                     + (f" ({verdicts})" if verdicts else ""))
    noise = inp["innovations"]
    law = (f"sigma^2 = {rational_text(read_rational(noise['sigma2'], ''))}" if noise["noise"] == "discrete-gaussian"
           else "a finite law")
    return (f"block accounting of T = {inp['budget']} releases: {'; '.join(shown)} "
            f"for gamma = {inp['gamma']}, {law}")
