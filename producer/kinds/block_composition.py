"""``block-composition/1``: what block accounting certifies for T = C releases, beside the full computation.

The program: T physical releases of the hidden integer feedback mechanism
from the zero start K_0 = 0, every release a possible participation (C = T),
the analyst adaptive.  A *split* (k_1, …, k_m), Σ k_i = T, cuts the releases
into blocks of k_i consecutive releases.  Block accounting takes each block's
exact dominating pair — the first block from the zero start, every later block
over every state pair it can start in (producer.blocks.deadline) — and
composes them adaptively (producer.blocks.composition): a valid upper bound
that forgets how the blocks' states are tied together.  The split (T) is the
full computation: the exact deadline-T game from the zero start.

For the discrete Gaussian the finite source ν (TV(ν, g_σ) <= τ) is charged
with all T physical draws: every method's certified bound is

    bound = D^ν_split(λ₋) + (1 + λ₊)·(1 − (1 − τ)^T) >= δ_T(ε) of the DG program,

with λ₋ <= e^ε <= λ₊.  *Exact Compilation and Resource Laws for Hidden Integer
Feedback*, §7.1 and Table 2 (γ = 1/2, σ = 2, T = C = 3, ε = 5).

Documented limits (the auditor's too): 1 <= T <= 4; B <= 16; support of the
law (2L + 1, or the number of weights) <= 65; for every block type used,
(start classes) × (support + 2)^k <= 2·10^6, where the classes are 1 from the
zero start and 3·B^k otherwise; at most 16 splits and 16 targets.  The
producer's own: those terms times the 64-bit limbs of D^k at most 2·10^7 in
all (producer.blocks.work).
"""

from math import isqrt

from gmpy2 import mpq, mpz

from producer.blocks.composition import product_hockey_stick
from producer.blocks.deadline import DeadlineCurves
from producer.blocks.work import check_block_work
from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.laws import FiniteLaw, Gamma, parse_gamma
from producer.names import option
from producer.rationals import (decimal_outward, describe_rational, format_rational, parse_integer, parse_rational,
                                parse_scale)
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_threshold

KIND, VERSION = "block-composition", 1
MAX_T, MAX_B, MAX_SUPPORT, MAX_BLOCK_WORK = 4, 16, 65, 2 * 10 ** 6
MAX_SPLITS, MAX_TARGETS, MAX_EPSILON = 16, 16, 64
THRESHOLD_GAP = mpq(1, mpz(2) ** 64)
DEFAULT_SCALE = mpz(2) ** 64
BOUND_DIGITS = 18
GAUSSIAN = "discrete-gaussian"


def default_radius(sigma2):
    """L = 8·ceil(σ) (σ = 3 gives 24, the project's usual source radius)."""
    s = isqrt(int(mpq(sigma2).numerator // mpq(sigma2).denominator))
    while mpq(s * s) < mpq(sigma2):
        s += 1
    return max(4, 8 * s)


def all_splits(total):
    """Every split of ``total`` into blocks, most blocks first, then larger first blocks: for 3,
    (1,1,1), (2,1), (1,2), (3)."""
    out = []

    def extend(prefix, left):
        if left == 0:
            out.append(tuple(prefix))
        for k in range(1, left + 1):
            extend(prefix + [k], left - k)
    extend([], total)
    return sorted(out, key=lambda s: (-len(s), [-k for k in s]))


def parse_splits(text, total):
    """``1+1+1,2+1,1+2,3`` (blocks joined by +, splits by commas); None or "all" for every split."""
    if text is None or text == "all":
        return all_splits(total)
    items = text.split(",") if isinstance(text, str) else list(text)
    splits = []
    for item in items:
        parts = item.split("+") if isinstance(item, str) else list(item)
        splits.append(tuple(parse_integer(p.strip() if isinstance(p, str) else p, "block length") for p in parts))
    return splits


def parse_targets(text):
    """``1e-4,4e-5:6e-5``: single δ or intervals lo:hi."""
    if text is None:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for item in items:
        if isinstance(item, str):
            ends = item.split(":")
            if len(ends) not in (1, 2):
                raise InputError(f"targets: cannot read {item!r} (write δ or lo:hi)")
            pair = [parse_rational(e.strip(), "target") for e in ends]
        else:
            pair = [parse_rational(e, "target") for e in (item if isinstance(item, (list, tuple)) else [item])]
        out.append((pair[0], pair[-1]))
    return out


class Request:
    """γ, the innovations (discrete Gaussian σ² with its source, or a finite law), T = C, ε, splits, targets."""

    __slots__ = ("gamma", "sigma2", "radius", "scale", "law", "budget", "epsilon", "splits", "targets")

    def __init__(self, gamma, budget, epsilon, splits=None, targets=(), sigma2=None, law=None, radius=None,
                 scale=None):
        gamma = gamma if isinstance(gamma, Gamma) else parse_gamma(gamma)
        if gamma.B > MAX_B:
            raise LimitError(f"gamma: B = {gamma.B} exceeds the limit B <= {MAX_B} of block accounting")
        if (sigma2 is None) == (law is None):
            raise InputError("innovations: give exactly one of sigma2 (discrete Gaussian) or weights (finite law)")
        if sigma2 is not None:
            sigma2 = check_sigma2(sigma2)
            radius = default_radius(sigma2) if radius is None else int(radius)
            scale = DEFAULT_SCALE if scale is None else mpz(scale)
            support = 2 * radius + 1
        else:
            if radius is not None or scale is not None:
                raise InputError(f"radius/scale: only for the discrete Gaussian ({option('sigma2')})")
            support = len(law.weights)
        if support > MAX_SUPPORT:
            raise LimitError(f"support: {support} points exceed the limit of {MAX_SUPPORT} for block accounting")
        budget = int(budget)
        if not 1 <= budget <= MAX_T:
            raise (InputError if budget < 1 else LimitError)(f"budget: T = C must lie in 1..{MAX_T}, got {budget}")
        epsilon = mpq(epsilon)
        if not 0 <= epsilon <= MAX_EPSILON:
            raise InputError(f"epsilon: must lie in [0, {MAX_EPSILON}], got {describe_rational(epsilon)}")
        splits = tuple(tuple(int(k) for k in s) for s in (all_splits(budget) if splits is None else splits))
        _check_splits(splits, budget)
        targets = tuple((mpq(lo), mpq(hi)) for lo, hi in targets)
        _check_targets(targets)
        _check_work(splits, gamma.B, support, scale if law is None else law.total)
        for name, value in (("gamma", gamma), ("sigma2", sigma2), ("radius", radius), ("scale", scale),
                            ("law", law), ("budget", budget), ("epsilon", epsilon), ("splits", splits),
                            ("targets", targets)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("a Request is immutable")

    @classmethod
    def from_strings(cls, gamma, budget, epsilon, sigma2=None, weights=None, offset=None, splits=None,
                     targets=None, radius=None, scale=None):
        law = None
        if weights is not None:
            items = list(weights) if isinstance(weights, (list, tuple)) else weights  # no str(): long integers
            law = FiniteLaw.from_strings(items, offset)
        elif offset is not None:
            raise InputError(f"offset: only with {option('weights')}")
        budget = parse_integer(budget, "budget")
        return cls(parse_gamma(gamma), budget, parse_rational(epsilon, "epsilon"),
                   splits=parse_splits(splits, budget), targets=parse_targets(targets),
                   sigma2=None if sigma2 is None else parse_rational(sigma2, "sigma2"), law=law,
                   radius=None if radius is None else parse_integer(radius, "radius"),
                   scale=None if scale is None else parse_scale(scale, "scale"))

    def innovations_json(self):
        if self.sigma2 is not None:
            return {"noise": GAUSSIAN, "sigma2": format_rational(self.sigma2), "radius": self.radius,
                    "scale": str(int(self.scale))}
        return {"noise": "finite", "law": self.law.as_json()}

    def as_json(self):
        return {"gamma": str(self.gamma), "innovations": self.innovations_json(), "budget": self.budget,
                "epsilon": format_rational(self.epsilon), "splits": [list(s) for s in self.splits],
                "targets": [{"low": format_rational(lo), "high": format_rational(hi)} for lo, hi in self.targets]}


def _check_splits(splits, budget):
    if not splits:
        raise InputError("splits: give at least one split")
    if len(splits) > MAX_SPLITS:
        raise LimitError(f"splits: {len(splits)} splits exceed the limit of {MAX_SPLITS}")
    if len(set(splits)) != len(splits):
        raise InputError("splits: each split once")
    for s in splits:
        if not s or any(k < 1 for k in s) or sum(s) != budget:
            raise InputError(f"splits: {'+'.join(map(str, s))} must be positive block lengths summing to T = {budget}")


def _check_targets(targets):
    if len(targets) > MAX_TARGETS:
        raise LimitError(f"targets: {len(targets)} targets exceed the limit of {MAX_TARGETS}")
    for lo, hi in targets:
        if not 0 < lo <= hi < 1:
            raise InputError(f"targets: need 0 < low <= high < 1, got {describe_rational(lo)}:{describe_rational(hi)}")


def block_types(splits):
    """The distinct (length, start) blocks of the splits, in first-use order."""
    seen = []
    for s in splits:
        for i, k in enumerate(s):
            t = (k, "zero" if i == 0 else "any")
            if t not in seen:
                seen.append(t)
    return seen


def _check_work(splits, B, support, total):
    """The auditor's term limit per block type, then the producer's estimate with the numbers' sizes (S the
    weights' total)."""
    types = [(k, 1 if start == "zero" else 3 * B ** k) for k, start in block_types(splits)]
    for k, classes in types:
        work = classes * (support + 2) ** k
        if work > MAX_BLOCK_WORK:
            where = "the zero start" if classes == 1 else "every state"
            raise LimitError(f"blocks: a block of {k} releases from {where} "
                             f"needs {classes} × {support + 2}^{k} = {work} curve terms, above the limit "
                             f"{MAX_BLOCK_WORK} (use fewer releases, shorter blocks or a smaller source radius)")
    check_block_work(types, support, int(B * total).bit_length())


def _decision(bound, finite_lower, lo, hi):
    if bound <= lo:
        return "certifies"
    if finite_lower > hi:
        return "fails"
    return "undecided"


def build(request, progress=None):
    """The sealed block-composition/1 certificate."""
    say = progress or (lambda message: None)
    if request.sigma2 is not None:
        source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
        law, tau, source_json = source.law, source.tau, source.as_json()
    else:
        law, tau, source_json = request.law, mpq(0), None
    lam_lo, lam_hi = exp_threshold(request.epsilon, THRESHOLD_GAP)
    T = request.budget
    transfer = (1 + lam_hi) * (1 - (1 - tau) ** T)
    curves = DeadlineCurves(law, request.gamma, progress=say)
    D = curves.D
    blocks = {}
    for k, start in block_types(request.splits):
        say(f"block of {k} ({start} start)")
        blocks[(k, start)] = curves.dominating(k, start)
    methods = []
    for split in request.splits:
        say(f"split {'+'.join(map(str, split))}")
        chain = [blocks[(k, "zero" if i == 0 else "any")] for i, k in enumerate(split)]
        upper_at = product_hockey_stick(chain, D ** T, lam_lo)
        lower_at = product_hockey_stick(chain, D ** T, lam_hi)
        bound = upper_at + transfer
        methods.append({
            "split": list(split),
            "finite_upper": format_rational(upper_at),
            "finite_lower": format_rational(lower_at),
            "bound": format_rational(bound),
            "bound_display": decimal_outward(bound, BOUND_DIGITS, +1),
            "decisions": [_decision(bound, lower_at, lo, hi) for lo, hi in request.targets],
        })
    full = next((m for m in methods if m["split"] == [T]), None)
    deadline = None if full is None else {
        "lower": format_rational(max(mpq(0), mpq(full["finite_lower"]) - transfer)), "upper": full["bound"]}
    result = {
        "source": source_json,
        "tau": format_rational(tau),
        "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(lam_hi)},
        "draws": T,
        "transfer": format_rational(transfer),
        "blocks": [{"length": k, "start": start, "classes": 1 if start == "zero" else 3 * request.gamma.B ** k,
                    "vertices": len(blocks[(k, start)])} for k, start in blocks],
        "methods": methods,
        "deadline": deadline,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def claim(cert):
    """``T = C = 3 releases, ε = 5: 1+1+1 ≤ 1.01e-4, … ; 10^-4: certified by 2+1, 1+2, 3``."""
    inp, res = cert["input"], cert["result"]
    inn = inp["innovations"]
    law = f"σ² = {inn['sigma2']}" if inn["noise"] == GAUSSIAN else f"ν ∝ ({', '.join(inn['law']['weights'])})"
    parts = [f"{'+'.join(map(str, m['split']))} ≤ {_short(m['bound'])}" for m in res["methods"]]
    text = f"δ(ε) of T = C = {inp['budget']} releases from 0 at ε = {inp['epsilon']}: {'; '.join(parts)}"
    for i, t in enumerate(inp["targets"]):
        target = t["low"] if t["low"] == t["high"] else f"[{_short(t['low'])}, {_short(t['high'])}]"
        ok = ["+".join(map(str, m["split"])) for m in res["methods"] if m["decisions"][i] == "certifies"]
        text += f"; {_short(target) if t['low'] == t['high'] else target} certified by {', '.join(ok) or 'none'}"
    return f"{text} (block accounting vs full computation; γ = {inp['gamma']}, {law})"


def _short(text):
    from producer.rationals import significant_outward
    return significant_outward(mpq(text), 4, +1)
