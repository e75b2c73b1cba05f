"""The ``calibration-lower/1`` certificate: ε*_C(δ) >= ε_lo from one witness line (SPEC-lower 7.0, 7.5).

A witness with coordinates p <= P_ν(A), q >= Q_ν(A) on the finite source and
a coupling r >= 1 − (1 − τ)^draws gives p⁻ = p − r <= P_g(A) and
q⁺ = q + r >= Q_g(A).  If p⁻ > δ, every e^ε < λ_crit = (p⁻ − δ)/q⁺ has
P_g(A) − e^ε·Q_g(A) > δ, so ε*_C(δ) >= log λ_crit >= ε_lo, where ε_lo is a
decimal with e^{ε_lo} <= λ_crit (checked by an arb upper bound of e^{ε_lo}).

Claims: ``capped-preparation`` (K.2, Coupling B with T draws) and
``target-zero`` (G.5 line tree, Coupling A with 2C draws).
"""

import sys
import time

import numpy as np
from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.laws import Gamma
from producer.lower import capped, target_lines
from producer.lower.suffix import RowCache
from producer.rationals import decimal_outward, format_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2
from producer.sources.enclosures import exp_enclosure, log_enclosure

KIND, VERSION = "calibration-lower", 1
EPSILON_DIGITS = 12
MAX_TARGET_BUDGET = 24
MAX_GRID = 20001
MAX_LINE_WORK = 3 * 10 ** 9  # the auditor's limit on nodes × priors × outputs (docs/certificates.md)


def _progress(message, quiet):
    if not quiet:
        print(f"calibration-lower: {message}", file=sys.stderr, flush=True)


def epsilon_lower(lam_crit, digits=EPSILON_DIGITS):
    """A decimal ε_lo with e^{ε_lo} <= λ_crit (largest multiple of 10^-digits found)."""
    scale = mpz(10) ** digits
    lo = log_enclosure(lam_crit, bits=128).lo * scale
    k = lo.numerator // lo.denominator
    while exp_enclosure(mpq(k, scale), bits=160).hi > lam_crit:
        k -= 1
    return mpq(k, scale)


def line_fields(gamma, sigma2, budget, delta, source, draws, p, q):
    """The common fields of a witness line; raises when p⁻ <= δ (no lower bound)."""
    r = 1 - (1 - source.tau) ** draws
    p_lower, q_upper = p - r, q + r
    if p_lower <= delta:
        raise InputError(f"witness: p⁻ = {float(p_lower):.6e} does not exceed δ = {float(delta):.6e}")
    lam_crit = (p_lower - delta) / q_upper
    eps = epsilon_lower(lam_crit) if lam_crit > 1 else mpq(0)
    src = source.as_json()
    src["tau"] = format_rational(source.tau)
    return {"gamma": str(gamma), "sigma2": format_rational(sigma2), "budget": budget,
            "delta": format_rational(delta), "source": src, "draws": draws,
            "coupling": format_rational(r), "p": format_rational(p), "q": format_rational(q),
            "p_lower": format_rational(p_lower), "q_upper": format_rational(q_upper),
            "lambda_crit": format_rational(lam_crit), "epsilon_lower": format_rational(eps),
            "epsilon_lower_display": decimal_outward(eps, EPSILON_DIGITS, -1)}


def capped_preparation(gamma, sigma2, budget, delta, radius, scale, start, target, cap, signs,
                       horizon, event_threshold, quiet=True):
    gamma_, sigma2, delta = Gamma.from_string(gamma), check_sigma2(sigma2), mpq(delta)
    signs = tuple(int(j) for j in signs)
    if sum(1 for j in signs if j) > budget:
        raise InputError(f"signs: {sum(1 for j in signs if j)} participations exceed the budget {budget}")
    if horizon < cap + len(signs):
        raise InputError(f"horizon: T = {horizon} < cap + suffix = {cap + len(signs)}")
    source = DiscreteGaussianSource.from_radius_scale(sigma2, radius, mpz(scale))
    rows = RowCache(source.law, gamma_)
    hit, (low, high) = capped.first_hit_probability(rows, start, target, cap)
    _progress(f"first hit of {target} within {cap}: {float(hit):.12f}; suffix test", quiet)
    sp, sq, atoms = capped.suffix_event(rows, target, signs, mpq(event_threshold))
    fields = line_fields(gamma_, sigma2, budget, delta, source, horizon, hit * sp, hit * sq)
    fields.update({"claim": "capped-preparation",
                   "program": {"start": start, "target": target, "cap": cap, "signs": list(signs),
                               "horizon": horizon, "event_threshold": format_rational(mpq(event_threshold))},
                   "window": {"low": low, "high": high}, "hit": format_rational(hit),
                   "suffix_p": format_rational(sp), "suffix_q": format_rational(sq), "atoms": atoms})
    return fields


def _check_line_work(nodes, priors, radius):
    """Refuse a line tree the auditor would answer UNCHECKED: nodes × priors × (2L + 2) <= MAX_LINE_WORK."""
    work = nodes * priors * (2 * radius + 2)
    if work > MAX_LINE_WORK:
        raise LimitError(f"priors: {nodes} nodes × {priors} priors × {2 * radius + 2} outputs = {work} exceed the "
                         f"auditor's line-tree limit {MAX_LINE_WORK}; use fewer priors, a smaller radius or C")


def target_zero(gamma, sigma2, budget, delta, radius, scale, grid_first, grid_ratio, grid_count,
                scale_bits=60, quiet=True):
    gamma_, sigma2, delta = Gamma.from_string(gamma), check_sigma2(sigma2), mpq(delta)
    if not 1 <= budget <= MAX_TARGET_BUDGET:
        raise LimitError(f"budget: target-zero lines support 1 <= C <= {MAX_TARGET_BUDGET}, got {budget}")
    if not 1 <= grid_count <= MAX_GRID:
        raise LimitError(f"grid: 1..{MAX_GRID} priors, got {grid_count}")
    start = time.monotonic()
    source = DiscreteGaussianSource.from_radius_scale(sigma2, radius, mpz(scale))
    grid = target_lines.Grid(grid_first, grid_ratio, grid_count)
    game = target_lines.TargetZeroGame(source.law, gamma_, budget, grid, scale_bits, quiet=quiet)
    _check_line_work(len(game.nodes), grid_count, source.radius)
    _progress(f"{len(game.nodes)} nodes x {grid_count} priors: float lines", quiet)
    P, Q = game.choose()
    r = float(1 - (1 - source.tau) ** (2 * budget))
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(P - r > float(delta), (P - r - float(delta)) / (Q + r), 0.0)
    root = int(np.argmax(lam))
    _progress(f"root prior index {root} (float log λ_crit {np.log(lam[root]):.9f}) after "
              f"{time.monotonic() - start:.1f} s; exact lines", quiet)
    ranges = target_lines.reachable_ranges(game, root)
    if target_lines.limbs_apply(game):
        a_arr, c_arr, lo = target_lines.exact_lines_limbs(game, ranges)[game.root()]
        a, c = mpz(target_lines.limbs_value(a_arr, root - lo)), mpz(target_lines.limbs_value(c_arr, root - lo))
    else:
        a_arr, c_arr, lo = target_lines.exact_lines(game, ranges)[game.root()]
        a, c = mpz(a_arr[root - lo]), mpz(c_arr[root - lo])
    one = game.one
    fields = line_fields(gamma_, sigma2, budget, delta, source, 2 * budget, mpq(a, one), mpq(c, one))
    nodes = sorted(game.nodes, key=lambda nd: (len(nd), nd))
    fields.update({"claim": "target-zero",
                   "grid": {"first": format_rational(grid.first), "ratio": format_rational(grid.ratio),
                            "count": grid.count},
                   "scale_bits": int(scale_bits),
                   "nodes": [{"node": list(nd), "actions": target_lines.run_length(game.actions[nd])}
                             for nd in nodes],
                   "root": {"index": root, "a": str(int(a)), "c": str(int(c))}})
    _progress(f"ε_lo = {fields['epsilon_lower_display']} in {time.monotonic() - start:.1f} s", quiet)
    return fields


BUILDERS = {"capped-preparation": capped_preparation, "target-zero": target_zero}


def _json_parameters(parameters):
    out = {}
    for key, value in sorted(parameters.items()):
        if key == "quiet":
            continue
        if isinstance(value, (list, tuple)):
            out[key] = [int(v) for v in value]
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
        elif isinstance(value, str):
            out[key] = value
        else:
            out[key] = format_rational(value)
    return out


def build(claim, quiet=True, **parameters):
    if claim not in BUILDERS:
        raise InputError(f"calibration-lower: unknown claim {claim!r} (known: {', '.join(BUILDERS)})")
    result = BUILDERS[claim](quiet=quiet, **parameters)
    return make_certificate(KIND, VERSION, {"claim": claim, "parameters": _json_parameters(parameters)}, result)


K2 = dict(claim="capped-preparation", gamma="1/2", sigma2=mpq(1), budget=4, delta=mpq(1, 10 ** 4),
          radius=8, scale=2 ** 80, start=0, target=2, cap=29, signs=[1, 1, 1, 1, 0], horizon=34,
          event_threshold=mpq(2221685))
TARGET_GRID = dict(grid_first=mpq(1, 10 ** 10), grid_ratio=mpq(87, 86), grid_count=4001)
TARGET_C8 = dict(claim="target-zero", gamma="1/3", sigma2=mpq(9), budget=8, delta=mpq(1, 10 ** 4),
                 radius=28, scale=2 ** 60, scale_bits=60, **TARGET_GRID)
TARGET_C16 = dict(TARGET_C8, budget=16)

REFERENCES = [("calibration-lower-k2-capped-c4.json", K2)]
SLOW_REFERENCES = [("calibration-lower-target-zero-c8.json", TARGET_C8),
                   ("calibration-lower-target-zero-c16.json", TARGET_C16)]


def build_reference(fields):
    fields = dict(fields)
    return build(fields.pop("claim"), quiet=False, **fields)
