"""The ``hierarchy/1`` certificate: Δ*_C(ε) <= upper (and so ε*_C(δ) <= ε) through a game above G_C.

Fields and how each is re-checked: docs/hierarchy.md.
"""

import sys
import time

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError, LimitError
from producer.hierarchy.auditability import check_auditable_hierarchy
from producer.hierarchy.dg_bound import bound_at, smallest_epsilon
from producer.hierarchy.grid import log_odds_grid
from producer.hierarchy.models import CutModel, DepthModel
from producer.hierarchy.sampled import Sandwich
from producer.laws import Gamma
from producer.rationals import decimal_outward, format_rational, parse_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2

KIND, VERSION = "hierarchy", 1
# F = 56 and S = 2^48 keep every line coefficient below 2^58 and every row numerator below 2^50,
# so the exact int64 limb path applies (producer.hierarchy.limbs); larger values use Python integers.
DEFAULTS = {"radius": 24, "source_scale": mpz(2) ** 48, "scale_bits": 56, "grid_bits": 64,
            "priors": 1500, "logit_range": mpq(10)}
MAX_PRIORS = 20000
MAX_WORK = 10**9  # perspective-sum terms; C8 P_4 at 603 priors is 1.6·10^8 (about 1.5 min here)
UPPER_DIGITS = 18


class HierarchyRequest:
    """γ, σ², C, a model (depth H or cut set S), a query (δ or ε) and the numerics."""

    def __init__(self, gamma, sigma2, budget, depth=None, cuts=None, delta=None, epsilon=None, **numerics):
        self.gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
        if self.gamma.is_zero:  # hierarchy/1 is defined for hidden feedback only
            raise InputError("gamma: the hierarchy needs hidden feedback, 0 < γ < 1 (γ = 0 is plain "
                             "composition: use producer dg or calibrate)")
        self.sigma2 = check_sigma2(sigma2)
        self.budget = int(budget)
        if (depth is None) == (cuts is None):
            raise InputError("model: give exactly one of --depth H or --cuts S")
        self.model = DepthModel(self.budget, depth) if depth is not None else CutModel(self.budget, cuts)
        if (delta is None) == (epsilon is None):
            raise InputError("query: give exactly one of --delta or --epsilon")
        self.delta = None if delta is None else mpq(delta)
        self.epsilon = None if epsilon is None else mpq(epsilon)
        if self.delta is not None and not 0 < self.delta < 1:
            raise InputError(f"delta: need 0 < δ < 1, got {self.delta}")
        if self.epsilon is not None and self.epsilon < 0:
            raise InputError(f"epsilon: must be >= 0, got {self.epsilon}")
        self.numerics = dict(DEFAULTS)
        self.numerics.update({k: v for k, v in numerics.items() if v is not None})
        self._check_numerics()

    def _check_numerics(self):
        n = self.numerics
        unknown = set(n) - set(DEFAULTS)
        if unknown:
            raise InputError(f"numerics: unknown option(s) {sorted(unknown)}")
        n["radius"], n["scale_bits"], n["grid_bits"], n["priors"] = (
            int(n["radius"]), int(n["scale_bits"]), int(n["grid_bits"]), int(n["priors"]))
        n["source_scale"], n["logit_range"] = mpz(n["source_scale"]), mpq(n["logit_range"])
        if not 8 <= n["scale_bits"] <= 256:
            raise InputError(f"scale bits: F must lie in 8..256, got {n['scale_bits']}")
        if not 1 <= n["priors"] <= MAX_PRIORS:
            raise InputError(f"priors: must lie in 1..{MAX_PRIORS}, got {n['priors']}")
        if n["logit_range"] <= 0:
            raise InputError(f"logit range: must be positive, got {n['logit_range']}")

    def as_json(self):
        n = self.numerics
        query = {"delta": format_rational(self.delta)} if self.delta is not None else \
            {"epsilon": format_rational(self.epsilon)}
        return {
            "gamma": str(self.gamma),
            "sigma2": format_rational(self.sigma2),
            "budget": self.budget,
            "model": self.model.as_json(),
            "query": query,
            "numerics": {"radius": n["radius"], "source_scale": str(int(n["source_scale"])),
                         "scale_bits": n["scale_bits"], "grid_bits": n["grid_bits"], "priors": n["priors"],
                         "logit_range": format_rational(n["logit_range"])},
        }


def build(request, quiet=True):
    """The hierarchy/1 certificate for ``request`` (progress on stderr unless quiet)."""
    start = time.monotonic()

    def log(message):
        if not quiet:
            print(f"hierarchy: {message} ({time.monotonic() - start:.1f} s)", file=sys.stderr, flush=True)

    n = request.numerics
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, n["radius"], n["source_scale"])
    grid = log_odds_grid(n["priors"], n["grid_bits"], float(n["logit_range"]))
    log(f"{request.model} at C = {request.budget}: source L = {source.radius}, tau <= {float(source.tau):.3e}, "
        f"{len(grid)} priors")
    check_auditable_hierarchy(request.model, request.gamma.B, len(source.as_json()["weights"]), len(grid),
                              n["source_scale"], n["scale_bits"], n["grid_bits"])
    sandwich = Sandwich(request.model, source.law, request.gamma, grid, n["grid_bits"], n["scale_bits"], progress=log)
    if sandwich.work() > MAX_WORK:
        raise LimitError(f"work: {sandwich.graph.counts()['branches']} branches × {len(grid)} priors = "
                         f"{sandwich.work():.3e} terms exceed the limit {MAX_WORK:.0e} "
                         "(fewer priors or a smaller model)")
    table = [int(e) for e in sandwich.solve()]

    def evaluate(epsilon):
        return bound_at(epsilon, table, grid, n["grid_bits"], n["scale_bits"], source.tau, request.budget)

    if request.delta is not None:
        bound = smallest_epsilon(request.delta, evaluate)
    else:
        bound = evaluate(request.epsilon)
    log(f"eps = {float(bound.epsilon):.6f}: upper {float(bound.upper):.12e}")
    meets = None if request.delta is None else bool(bound.upper <= request.delta)
    if meets is False:  # smallest_epsilon only returns bounds that meet δ
        raise ArithmeticError("hierarchy: the bound found does not meet δ")
    result = {
        "source": source.as_json(),
        "tau": format_rational(source.tau),
        "grid": {"bits": n["grid_bits"], "numerators": [str(g) for g in grid]},
        "scale_bits": n["scale_bits"],
        "graph": sandwich.graph.counts(),
        "root_excess": [str(e) for e in table],
        "epsilon": format_rational(bound.epsilon),
        "epsilon_display": decimal_outward(bound.epsilon, 6, +1),
        "threshold": {"lower": format_rational(bound.lam_lo), "upper": format_rational(bound.lam_hi)},
        "prior": format_rational(bound.prior),
        "finite_upper": format_rational(bound.finite),
        "transfer": format_rational(bound.transfer),
        "upper": format_rational(bound.upper),
        "upper_display": decimal_outward(bound.upper, UPPER_DIGITS, +1),
        "delta": None if request.delta is None else format_rational(request.delta),
        "meets_delta": meets,
    }
    return make_certificate(KIND, VERSION, request.as_json(), result)


def parse_numerics(args):
    """The numerics options of the command line (None where not given)."""
    return {
        "radius": None if args.radius is None else int(args.radius),
        "source_scale": None if args.source_scale is None else _scale(args.source_scale),
        "scale_bits": args.scale_bits,
        "grid_bits": args.grid_bits,
        "priors": args.priors,
        "logit_range": None if args.logit_range is None else parse_rational(args.logit_range, "logit range"),
    }


def _scale(text):
    text = str(text).strip()
    try:
        if text.startswith("2^"):
            return mpz(2) ** int(text[2:])
        return mpz(int(text))
    except ValueError:
        raise InputError(f"source scale: {text!r} is not an integer or 2^k") from None
