"""The ``calibration-lower/1`` certificate: ε*_C(δ) >= ε_lo from one witness line.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.2,
§7.2 and Appendices G.5, K.2; docs/lower-certificates.md §3.)

A witness with coordinates p <= P_ν(A), q >= Q_ν(A) on the finite source and
a coupling r >= 1 − (1 − τ)^draws gives p⁻ = p − r <= P_g(A) and
q⁺ = q + r >= Q_g(A).  If p⁻ > δ, every e^ε < λ_crit = (p⁻ − δ)/q⁺ has
P_g(A) − e^ε·Q_g(A) > δ, so ε*_C(δ) >= log λ_crit >= ε_lo, where ε_lo is a
decimal with e^{ε_lo} <= λ_crit (checked by an arb upper bound of e^{ε_lo}).

Claims: ``capped-preparation`` (Appendix K.2, Coupling B with T draws) and
``target-zero`` (the Appendix G.5 line tree, Coupling A with 2C draws).  Both programs
start where the mechanism starts, at K_0 = 0, and are legal for the budget C
(validated in the requests and, for the line tree, before writing).  The
``input`` is the whole request (the question γ, σ², C, δ, the source (L, S)
and the program's parameters); the ``result`` holds only computed claims.

Limits: target-zero budgets C <= :data:`MAX_TARGET_BUDGET` and at most
:data:`MAX_GRID` priors; the auditor's line-tree and capped-preparation work
and its reader's digits (:data:`MAX_LINE_WORK`, :data:`MAX_CAPPED_WORK`,
:data:`MAX_DIGITS`), refused before the witness is computed.  The auditor's
budget of one file (:mod:`producer.lower.auditability`) binds the line tree
first: beyond nodes × priors × (2L + 2) = 857,142,857 the certificate needs
``auditor verify --budget N`` (N <= 4 within the line limit; the published
program at C = 32 and 64 needs 2 and 3), which the producer states
(:mod:`producer.audit_budget`); it is checked, with the budget ``spent`` by a
certificate embedding this one, once the nodes are known and before the
lines are computed.
"""

import time

import numpy as np
from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import rational, show
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer import audit_budget
from producer.lower import capped, target_lines
from producer.lower.auditability import capped_cost, line_units, target_zero_cost
from producer.lower.bounds import positive_gamma
from producer.lower.fields import source_claims
from producer.lower.suffix import RowCache
from producer.lower.waiting import invariant_window
from producer.output import stderr_progress
from producer.laws import parse_gamma
from producer.rationals import decimal_outward, format_rational, parse_rational, parse_scale, parse_whole
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_enclosure, log_enclosure

KIND, VERSION = "calibration-lower", 1
EPSILON_DIGITS = 12
MAX_TARGET_BUDGET = 64
MAX_GRID = 20001
MAX_LINE_WORK = 3 * 10 ** 9  # the auditor's limit on nodes × priors × outputs (docs/certificates.md)
MAX_CAPPED_WORK = 5 * 10 ** 7  # the auditor's limit on a capped-preparation check (docs/certificates.md)
MAX_DIGITS = 10_000  # the auditor's reader: digits of a numerator or denominator


def epsilon_lower(lam_crit, digits=EPSILON_DIGITS):
    """A decimal ε_lo with e^{ε_lo} <= λ_crit (largest multiple of 10^-digits found)."""
    scale = mpz(10) ** digits
    lo = log_enclosure(lam_crit, bits=128).lo * scale
    k = lo.numerator // lo.denominator
    while exp_enclosure(mpq(k, scale), bits=160).hi > lam_crit:
        k -= 1
    return mpq(k, scale)


def line_fields(request, source, draws, p, q):
    """The common claims of a witness line; raises when p⁻ <= δ (no lower bound)."""
    delta = request.delta
    r = 1 - (1 - source.tau) ** draws
    p_lower, q_upper = p - r, q + r
    if p_lower <= delta:
        raise InputError(f"witness: p⁻ = {float(p_lower):.6e} does not exceed δ = {float(delta):.6e}")
    lam_crit = (p_lower - delta) / q_upper
    eps = epsilon_lower(lam_crit) if lam_crit > 1 else mpq(0)
    return {"source": source_claims(source), "coupling": format_rational(r), "p": format_rational(p),
            "q": format_rational(q), "p_lower": format_rational(p_lower), "q_upper": format_rational(q_upper),
            "lambda_crit": format_rational(lam_crit), "epsilon_lower": format_rational(eps),
            "epsilon_lower_display": decimal_outward(eps, EPSILON_DIGITS, -1)}


class Request(Immutable):
    """The question every witness line answers: ε*_C(δ) for (γ, σ², C) and the finite source (L, S);
    one subclass per claim (:meth:`of` picks it by name)."""

    __slots__ = ()
    COMMON = ("gamma", "sigma2", "budget", "delta", "radius", "scale")
    CLAIM = None

    @staticmethod
    def of(claim, **fields):
        """The validated request of ``claim`` (``capped-preparation`` or ``target-zero``)."""
        if claim not in REQUESTS:
            raise InputError(f"calibration-lower: unknown claim {claim!r} (known: {', '.join(REQUESTS)})")
        return REQUESTS[claim](**fields)

    @classmethod
    def from_strings(cls, claim, *, delta=None, budget=None, sigma2=None, gamma=None, radius=None, scale=None,
                     priors=None):
        """The published program of ``claim`` with the given changes, read exactly: capped-preparation is the
        fixed K.2 program (only δ may change); target-zero takes any of the fields (``scale`` may be 2^k)."""
        if claim not in CLAIMS:
            raise InputError(f"claim: {claim!r} is not one of {', '.join(CLAIMS)}")
        changes = dict(budget=budget, sigma2=sigma2, gamma=gamma, radius=radius, scale=scale, priors=priors)
        if claim == "capped-preparation":
            given = sorted(k for k, v in changes.items() if v is not None)
            if given:
                raise InputError(f"capped-preparation: only delta may be changed (the K.2 program is fixed), "
                                 f"got {', '.join(given)}")
            fields = dict(K2)
        else:
            parse = dict(budget=parse_whole, sigma2=parse_rational, gamma=lambda v, what: parse_gamma(v),
                         radius=parse_whole, scale=lambda v, what: parse_scale(v), priors=parse_whole)
            given = {("grid_count" if key == "priors" else key): parse[key](value, key)
                     for key, value in changes.items() if value is not None}
            fields = target_program(given.get("budget", TARGET_C8["budget"]))
            fields.update(given)
        if delta is not None:
            fields["delta"] = parse_rational(delta, "delta")
        return cls.of(fields.pop("claim"), **fields)

    def _set_common(self, gamma, sigma2, budget, delta, radius, scale):
        self.gamma = positive_gamma(gamma)
        self.sigma2 = check_sigma2(sigma2)
        self.budget = _integer(budget, "budget", 1)
        self.delta = mpq(delta)
        if not 0 < self.delta < 1:
            raise InputError(f"delta: must lie in (0, 1), got {format_rational(self.delta)}")
        self.radius = _integer(radius, "radius", 1)
        self.scale = mpz(_integer(scale, "scale", 1))

    def _common_json(self):
        return {"claim": self.CLAIM, "gamma": str(self.gamma), "sigma2": format_rational(self.sigma2),
                "budget": self.budget, "delta": format_rational(self.delta), "radius": self.radius,
                "scale": str(int(self.scale))}


def _integer(value, what, minimum=None):
    if isinstance(value, (bool, str)) or int(value) != value:
        raise InputError(f"{what}: expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InputError(f"{what}: must be >= {minimum}, got {mpz(int(value))}")
    return int(value)


class CappedRequest(Request):
    """The K.2 capped-preparation program: from K_0 = 0 wait (at most ``cap`` releases) for ``target``,
    then the suffix ``signs`` from (target, target), padded to ``horizon`` releases; event at λ_E.

    Legal for the budget C: the suffix participates at most C times, and the
    horizon holds the waiting and the suffix (T >= cap + m).
    """

    __slots__ = Request.COMMON + ("target", "cap", "signs", "horizon", "event_threshold")
    CLAIM = "capped-preparation"

    def __init__(self, gamma, sigma2, budget, delta, radius, scale, target, cap, signs, horizon, event_threshold):
        self._set_common(gamma, sigma2, budget, delta, radius, scale)
        self.target = _integer(target, "target")
        self.cap = _integer(cap, "cap", 0)
        self.signs = tuple(int(j) for j in signs)
        if not self.signs or any(j not in (-1, 0, 1) for j in self.signs):
            raise InputError(f"signs: need one or more signs in {{-1, 0, 1}}, got {list(self.signs)}")
        participations = sum(1 for j in self.signs if j)
        if participations > self.budget:
            raise InputError(f"signs: {participations} participations exceed the budget C = {self.budget} "
                             f"(an illegal program for C)")
        self.horizon = _integer(horizon, "horizon", 1)
        if self.horizon < self.cap + len(self.signs):
            raise InputError(f"horizon: T = {self.horizon} < cap + suffix = {self.cap + len(self.signs)}")
        self.event_threshold = mpq(event_threshold)
        if self.event_threshold < 0:
            raise InputError(f"event threshold: must be >= 0, got {format_rational(self.event_threshold)}")

    @property
    def draws(self):
        return self.horizon   # Coupling B: every release of the padded program is a coupled draw

    def as_json(self):
        out = self._common_json()
        out.update({"target": self.target, "cap": self.cap, "signs": list(self.signs), "horizon": self.horizon,
                    "event_threshold": format_rational(self.event_threshold)})
        return out


class TargetZeroRequest(Request):
    """Target-{0} line trees at budget C on a geometric grid of priors (ρ_0, β, n) with b-bit lines."""

    __slots__ = Request.COMMON + ("grid_first", "grid_ratio", "grid_count", "scale_bits")
    CLAIM = "target-zero"

    def __init__(self, gamma, sigma2, budget, delta, radius, scale, grid_first, grid_ratio, grid_count,
                 scale_bits=60):
        self._set_common(gamma, sigma2, budget, delta, radius, scale)
        if self.budget > MAX_TARGET_BUDGET:
            raise LimitError(f"budget: target-zero lines support 1 <= C <= {MAX_TARGET_BUDGET}, got {self.budget}")
        self.grid_first, self.grid_ratio = mpq(grid_first), mpq(grid_ratio)
        if self.grid_first <= 0 or self.grid_ratio <= 1:
            raise InputError("grid: need a first prior ρ_0 > 0 and a ratio β > 1")
        self.grid_count = _integer(grid_count, "priors", 1)
        if self.grid_count > MAX_GRID:
            raise LimitError(f"grid: 1..{MAX_GRID} priors, got {self.grid_count}")
        self.scale_bits = _integer(scale_bits, "scale bits", 1)

    @property
    def draws(self):
        return 2 * self.budget   # Coupling A: two draws per participation in the informative graph

    def as_json(self):
        out = self._common_json()
        out.update({"grid_first": format_rational(self.grid_first), "grid_ratio": format_rational(self.grid_ratio),
                    "grid_count": self.grid_count, "scale_bits": self.scale_bits})
        return out


def capped_work(cap, window, radius, m, B, scale):
    """The auditor's work estimate of a capped-preparation check (docs/certificates.md):
    ⌈cap·|K|·M·(1 + ⌊cap·b/64⌋)/200⌉ + M^max(0, m−2)·20 + B²·M², b the bits of the chain's denominator B·S
    (the masses after t releases are integers over its t-th power, so the chain's work grows like cap²)."""
    M = 2 * radius + 2
    limbs = cap * window * M * (1 + cap * (B * scale).bit_length() // 64)
    return -(-limbs // 200) + M ** max(0, m - 2) * 20 + B ** 2 * M ** 2


def _check_capped_work(request, low, high, spent=None):
    work = capped_work(request.cap, high - low + 1, request.radius, len(request.signs), request.gamma.B,
                       request.scale)
    if work > MAX_CAPPED_WORK:
        raise LimitError(f"cap: {request.cap} releases over a window of {high - low + 1} states need auditor work "
                         f"{work}, above its limit {MAX_CAPPED_WORK}; use a smaller cap, radius or suffix")
    audit_budget.check(_with_spent(capped_cost(work), spent), "cap")


def _digits(n):
    return len(mpz(n).digits(10))


def line_digits(request, source, witness_digits):
    """A bound on the digits of every number of the line, known before the witness is computed.

    p and q have denominators with at most ``witness_digits`` digits; r = 1 − (1 − τ)^draws has its
    denominator dividing den(τ)^draws; p⁻ − δ and q⁺ then have denominators dividing the products,
    and λ_crit = (p⁻ − δ)/q⁺ has numerator and denominator of at most the two together (+1).
    """
    one = witness_digits + request.draws * _digits(mpq(source.tau).denominator) + _digits(request.delta.denominator)
    return 2 * one + 1


def _check_line_digits(request, source, witness_digits, what):
    digits = line_digits(request, source, witness_digits)
    if digits > MAX_DIGITS:
        raise LimitError(f"{what}: the line's exact numbers may have up to {digits} digits (p, q over "
                         f"{witness_digits}-digit denominators, τ to the power {request.draws}), above the auditor's "
                         f"reader limit of {MAX_DIGITS}; use a smaller {what}")


def capped_preparation(request, progress, spent=None):
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
    rows = RowCache(source.law, request.gamma)
    low, high = invariant_window(rows, 0)
    if not low <= request.target <= high:
        raise InputError(f"target: {request.target} is outside the window [{low}, {high}] of states reachable "
                         f"from 0 (the hit probability would be 0)")
    _check_capped_work(request, low, high, spent)
    # hit is over D^cap and the suffix masses over D^m
    _check_line_digits(request, source, (request.cap + len(request.signs)) * _digits(rows.denominator) + 1, "cap")
    hit, _ = capped.first_hit_probability(rows, 0, request.target, request.cap)   # the mechanism starts at K_0 = 0
    if progress:
        progress(f"first hit of {request.target} within {request.cap}: {float(hit):.12f}; suffix test")
    sp, sq, atoms = capped.suffix_event(rows, request.target, request.signs, request.event_threshold)
    fields = line_fields(request, source, request.draws, hit * sp, hit * sq)
    fields.update({"window": {"low": low, "high": high}, "hit": format_rational(hit),
                   "suffix_p": format_rational(sp), "suffix_q": format_rational(sq), "atoms": atoms})
    return fields


def _check_line_work(nodes, priors, radius, spent=None, scale_bits=60):
    """Refuse a line tree the auditor would answer UNCHECKED: nodes × priors × (2L + 2) × ⌈(b + 192)/256⌉ <=
    MAX_LINE_WORK, and the file's budget (with ``spent``, an embedding certificate's other parts) within the
    producer's multiple."""
    work = line_units(nodes, priors, radius, scale_bits)
    width = work // (nodes * priors * (2 * radius + 2))
    if work > MAX_LINE_WORK:
        raise LimitError(f"priors: {nodes} nodes × {priors} priors × {2 * radius + 2} outputs"
                         f"{f' × {width} (scale bits {scale_bits})' if width > 1 else ''} = {work} exceed the "
                         f"auditor's line-tree limit {MAX_LINE_WORK}; use fewer priors, a smaller radius or C")
    audit_budget.check(_with_spent(target_zero_cost(nodes, priors, radius, scale_bits), spent), "priors")


def _with_spent(own, spent):
    """This certificate's cost with the rest of the file (``spent``), named and advised as this one's."""
    if spent is None:
        return own
    return audit_budget.together([spent, own], f"{own.what} with the rest of its file", own.advice)


def check_line_tree(game):
    """The line tree is a legal program for the budget C (an internal invariant, checked before writing).

    The root is [C]; a synchronised node [c] has 0 <= c <= C and a pending
    node [q, kP, kQ] has 0 <= q < C participations left; every action is
    legal at its node (no participation with none left, no echo when
    synchronised), so every path participates at most C times.
    """
    C = game.budget
    if game.root() != (C,) or game.root() not in game.actions:
        raise ArithmeticError("line tree: the root is not the synchronised node [C]")
    for node, actions in game.actions.items():
        left = node[0]
        if not (0 <= left <= C if len(node) == 1 else len(node) == 3 and 0 <= left < C):
            raise ArithmeticError(f"line tree: node {list(node)} is not a node of the budget-{C} tree")
        illegal = set(actions) - set(game.legal(node))
        if illegal or len(actions) != game.grid.count:
            raise ArithmeticError(f"line tree: node {list(node)} has illegal actions {sorted(illegal)}")


def target_zero(request, progress, spent=None):
    start = time.monotonic()
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
    grid = target_lines.Grid(request.grid_first, request.grid_ratio, request.grid_count)
    _check_line_digits(request, source, _digits(mpz(2) ** request.scale_bits), "scale bits")  # p, q over 2^b
    game = target_lines.TargetZeroGame(source.law, request.gamma, request.budget, grid, request.scale_bits,
                                       progress=progress)
    _check_line_work(len(game.nodes), request.grid_count, source.radius, spent, request.scale_bits)
    report = progress or (lambda message: None)
    report(f"{len(game.nodes)} nodes x {request.grid_count} priors: float lines")
    P, Q = game.choose()
    check_line_tree(game)
    delta = float(request.delta)
    r = float(1 - (1 - source.tau) ** request.draws)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(P - r > delta, (P - r - delta) / (Q + r), 0.0)
    root = int(np.argmax(lam))
    log_crit = float(np.log(lam[root])) if lam[root] > 0 else float("-inf")  # -inf: no prior clears δ
    report(f"root prior index {root} (float log λ_crit {log_crit:.9f}) after "
           f"{time.monotonic() - start:.1f} s; exact lines")
    ranges = target_lines.reachable_ranges(game, root)
    if target_lines.limbs_apply(game):
        a_arr, c_arr, lo = target_lines.exact_lines_limbs(game, ranges)[game.root()]
        a, c = mpz(target_lines.limbs_value(a_arr, root - lo)), mpz(target_lines.limbs_value(c_arr, root - lo))
    else:
        a_arr, c_arr, lo = target_lines.exact_lines(game, ranges)[game.root()]
        a, c = mpz(a_arr[root - lo]), mpz(c_arr[root - lo])
    one = game.one
    fields = line_fields(request, source, request.draws, mpq(a, one), mpq(c, one))
    nodes = sorted(game.nodes, key=lambda nd: (len(nd), nd))
    fields.update({"nodes": [{"node": list(nd), "actions": target_lines.run_length(game.actions[nd])}
                             for nd in nodes],
                   "root": {"index": root, "a": str(int(a)), "c": str(int(c))}})
    report(f"ε_lo = {fields['epsilon_lower_display']} in {time.monotonic() - start:.1f} s")
    return fields


REQUESTS = {"capped-preparation": CappedRequest, "target-zero": TargetZeroRequest}
BUILDERS = {"capped-preparation": capped_preparation, "target-zero": target_zero}


def build(request, progress=None, spent=None):
    """The calibration-lower certificate of ``request`` (progress lines to ``progress``).

    ``spent``: the auditor's budget cost of the other certificates checked in the same file (an embedding
    epsilon-bracket's upper end), counted with this one's before its work.
    """
    fields = BUILDERS[request.CLAIM](request, progress, spent)
    return make_certificate(KIND, VERSION, request.as_json(), fields)


def auditor_cost(cert):
    """The auditor's budget estimate of a calibration-lower certificate (producer.lower.auditability)."""
    inp, res = cert["input"], cert["result"]
    if inp["claim"] == "target-zero":
        return target_zero_cost(len(res["nodes"]), inp["grid_count"], inp["radius"], inp["scale_bits"])
    window = res["window"]["high"] - res["window"]["low"] + 1
    return capped_cost(capped_work(inp["cap"], window, inp["radius"], len(inp["signs"]),
                                   parse_gamma(inp["gamma"]).B, int(inp["scale"])))


K2 = dict(claim="capped-preparation", gamma="1/2", sigma2=mpq(1), budget=4, delta=mpq(1, 10 ** 4),
          radius=8, scale=2 ** 80, target=2, cap=29, signs=[1, 1, 1, 1, 0], horizon=34,
          event_threshold=mpq(2221685))
TARGET_GRID = dict(grid_first=mpq(1, 10 ** 10), grid_ratio=mpq(87, 86), grid_count=4001)
TARGET_C8 = dict(claim="target-zero", gamma="1/3", sigma2=mpq(9), budget=8, delta=mpq(1, 10 ** 4),
                 radius=28, scale=2 ** 60, scale_bits=60, **TARGET_GRID)
TARGET_C16 = dict(TARGET_C8, budget=16)
# Beyond C = 32 the root prior ρ ≈ e^{ε_lo} (C = 64: about e^18.6 ≈ 10^8) comes close to the top
# of [10^-10, 10^10], where child lines are clipped; the same 4001 geometric priors from 10^-6
# cover [10^-6, 10^14] (clipping is sound either way: any child line is a feasible line).
WIDE_BUDGET = 32
TARGET_GRID_WIDE = dict(TARGET_GRID, grid_first=mpq(1, 10 ** 6))


def target_program(budget):
    """The default target-zero program at budget C: the published grid for C <= 32, the wide one beyond."""
    grid = TARGET_GRID if int(budget) <= WIDE_BUDGET else TARGET_GRID_WIDE
    return dict(TARGET_C8, budget=budget, **grid)

REFERENCES = [("calibration-lower-k2-capped-c4.json", K2)]
SLOW_REFERENCES = [("calibration-lower-target-zero-c8.json", TARGET_C8),
                   ("calibration-lower-target-zero-c16.json", TARGET_C16)]


CLAIMS = tuple(REQUESTS)


def build_reference(fields):
    fields = dict(fields)
    return build(Request.of(fields.pop("claim"), **fields), stderr_progress("calibration-lower"))


def claim(cert):
    inp, res = cert["input"], cert["result"]
    C, delta = inp["budget"], show(rational(inp["delta"]))
    draws = inp["horizon"] if inp["claim"] == "capped-preparation" else 2 * C
    return (f"ε*_{C}({delta}) ≥ {res['epsilon_lower_display']} for γ = {inp['gamma']}, "
            f"σ² = {show(rational(inp['sigma2']))}, C = {C} ({inp['claim']} witness line from K_0 = 0, {draws} draws)")
