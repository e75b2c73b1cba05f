"""The ``brace-run/1`` certificate: a BRACE private retrieval run with certified brackets and calibration.

A :class:`Request` is the question: the bank, the public query and
parameters (r², T, κ, the grid), the privacy target (ε, δ), γ (or "auto")
and the seed.  :func:`build` executes BRACE (*BRACE: Differential Privacy
for Dense Associative Memory with LSR Energy*, Algorithm 1; the maths in
producer/brace/), checks the calibration (eq. (8), Appendix C.2) and seals
every step's sensitivity bracket, noise and release.  docs/brace.md has the
fields; ``brace-compare/1`` (:mod:`producer.kinds.brace_compare`) asks the
same question.

Limits: T <= :data:`MAX_HORIZON`, γ <= :data:`MAX_GAMMA`, grid bits <=
:data:`MAX_GRID_BITS`, a bank of at most :data:`MAX_VALUES` JSON values and a
seed below 2^256.
"""

import os

from gmpy2 import mpq

from producer.brace.algorithm import DEFAULT_GRID_BITS, run_brace
from producer.brace.bank import Bank, parse_point
from producer.brace.calibration import QUARTER, Calibration
from producer.brace.draws import NOISE_TOLERANCE
from producer.brace.enclosures import ENCLOSURE_BITS
from producer.brace.sensitivity import SCALE_BITS
from producer.certificates.canonical import make_certificate
from producer.display import rational, show
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.names import option
from producer.rationals import (decimal_outward, format_rational, list_items, parse_integer, parse_rational, parse_seed,
                                parse_switch)

KIND, VERSION = "brace-run", 1
MAX_HORIZON = 64  # documented limit on T
MAX_GAMMA = 64  # documented limit on γ: e^-64 > 2^-92 keeps the 128-bit lower end of e^-γ positive
# The auditor reads at most 10^5 JSON values per file; the bank alone is points × (dimension + 1) of them
# (the rest of the certificate is counted exactly when it is sealed, producer.certificates.readability).
# This also keeps the auditor's replay work T × points × dimension <= 64 × 10^5 below its limit 10^7.
MAX_VALUES = 100_000
MAX_GRID_BITS = 256

METHOD = ("BRACE Algorithm 1 in exact arithmetic: exact gates on squared distances, "
          "projections truncated onto a dyadic grid, count-envelope brackets under "
          "universal or history non-activation, constant 2r fallback otherwise, arb enclosures")


def fr(x):
    return format_rational(x)


def vec(v):
    return [fr(c) for c in v]


def pair(p):
    return [fr(p[0]), fr(p[1])]


class Request(Immutable):
    """The full BRACE request (everything recorded in ``input``), validated here."""

    __slots__ = ("bank", "bank_name", "query", "r2", "horizon", "kappa", "epsilon",
                 "delta", "gamma", "seed", "grid_bits", "noise_multiplier",
                 "allow_uncalibrated")

    def __init__(self, bank, query, r2, horizon, kappa, epsilon, delta, gamma, seed,
                 grid_bits=DEFAULT_GRID_BITS, noise_multiplier=1,
                 allow_uncalibrated=False, bank_name="bank"):
        if r2 <= 0:
            raise InputError(f"r2: must be positive, got {fr(r2)}")
        if not 1 <= horizon <= MAX_HORIZON:
            raise LimitError(f"horizon: T = {horizon} is outside 1..{MAX_HORIZON}")
        if kappa <= 0:
            raise InputError(f"kappa: must be positive, got {fr(kappa)}")
        if gamma != "auto" and not mpq(gamma) > 0:
            raise InputError(f"gamma: must be positive or 'auto', got {gamma}")
        if gamma != "auto" and mpq(gamma) > MAX_GAMMA:
            raise LimitError(f"gamma: γ = {fr(mpq(gamma))} exceeds the limit {MAX_GAMMA} (e^-γ is published with "
                             f"{ENCLOSURE_BITS}-bit dyadic ends, whose lower end must stay positive; a private run "
                             f"needs γ <= 1/4 anyway: use {option('gamma', 'auto')})")
        if not 1 <= grid_bits <= MAX_GRID_BITS:
            raise InputError(f"grid bits: {grid_bits} is outside 1..{MAX_GRID_BITS}")
        if noise_multiplier <= 0:
            raise InputError("noise multiplier: must be positive")
        if len(query) != bank.dimension:
            raise InputError(f"query: {len(query)} coordinates, the bank has dimension {bank.dimension}")
        bank_values = len(bank.points) * (bank.dimension + 1)
        if bank_values > MAX_VALUES:
            raise LimitError(f"bank: {len(bank.points)} points of dimension {bank.dimension} are {bank_values} JSON "
                             f"values in the certificate, above the auditor's limit {MAX_VALUES}; use a smaller bank")
        self.bank, self.bank_name, self.query = bank, bank_name, tuple(query)
        self.r2, self.horizon, self.kappa = mpq(r2), int(horizon), mpq(kappa)
        self.epsilon, self.delta, self.gamma = mpq(epsilon), mpq(delta), gamma
        self.seed, self.grid_bits = int(seed), int(grid_bits)
        self.noise_multiplier = mpq(noise_multiplier)
        self.allow_uncalibrated = parse_switch(allow_uncalibrated, "allow_uncalibrated")

    @classmethod
    def from_strings(cls, bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
                     grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None):
        """Parse user values exactly: ``bank`` a JSON/CSV path or a list of points, ``query`` ``"x,y"`` or a
        sequence, the radius as ``r2`` or as ``beta`` (r² = 2/β), ``gamma`` a rational or "auto"."""
        bank, default_name = _bank(bank)
        if isinstance(query, str):
            query = parse_point(query, bank.dimension)
        else:
            query = tuple(parse_rational(c, "query") for c in list_items(query, "query"))
        if (r2 is None) == (beta is None):
            raise InputError("give the retrieval radius as r2 (r^2) or as beta (r^2 = 2/beta), exactly one")
        if r2 is not None:
            r2 = parse_rational(r2, "r2")
        else:
            beta = parse_rational(beta, "beta")
            if beta <= 0:
                raise InputError("beta: must be positive")
            r2 = 2 / beta
        if not (isinstance(gamma, str) and gamma.strip() == "auto"):
            gamma = parse_rational(gamma, "gamma")
        else:
            gamma = "auto"
        return cls(bank, query, r2, parse_integer(horizon, "horizon"), parse_rational(kappa, "kappa"),
                   parse_rational(epsilon, "epsilon"), parse_rational(delta, "delta"), gamma, parse_seed(seed),
                   parse_integer(DEFAULT_GRID_BITS if grid_bits is None else grid_bits, "grid bits"),
                   parse_rational(noise_multiplier, "noise multiplier"), allow_uncalibrated,
                   bank_name=bank_name or default_name)

    def as_input(self):
        return {
            "bank": {"name": os.path.basename(self.bank_name), "points": self.bank.to_strings()},
            "query": vec(self.query),
            "r2": fr(self.r2),
            "horizon": self.horizon,
            "kappa": fr(self.kappa),
            "epsilon": fr(self.epsilon),
            "delta": fr(self.delta),
            "gamma": "auto" if self.gamma == "auto" else fr(self.gamma),
            "seed": self.seed,
            "grid_bits": self.grid_bits,
            "noise_multiplier": fr(self.noise_multiplier),
            "allow_uncalibrated": self.allow_uncalibrated,
        }


def _bank(bank):
    """(Bank, its name) from a file path or a list of points."""
    if isinstance(bank, (str, os.PathLike)):
        return Bank.from_path(os.fspath(bank)), os.fspath(bank)
    if isinstance(bank, (list, tuple)):
        return Bank.from_strings(bank), "in-memory"
    raise InputError(f"bank: expected a file path or a list of points, got {type(bank).__name__}")


def _step_json(s):
    b = s.bracket
    return {
        "t": s.t,
        "clean_gate": list(s.I),
        "released_gate": list(s.J),
        "z": vec(s.z), "a": vec(s.a), "R": vec(s.R), "R_norm2": fr(s.R_norm2),
        "H": s.H, "Q": vec(s.Q), "Q_projected": s.Q_projected,
        "bracket": {"lo": fr(b.lo), "hi": fr(b.hi), "method": b.method,
                    "argmax_k": b.argmax,
                    "display": [decimal_outward(b.lo, 9, -1), decimal_outward(b.hi, 9, 1)]},
        "scale": fr(b.scale),
        "gamma_prime": fr(b.gamma_prime),
        "eq8": s.eq8,
        "required_variance": fr(s.required_variance),
        "variance": fr(s.variance),
        "zeta": vec(s.zeta), "xi": vec(s.xi),
        "Y": vec(s.Y), "Y_projected": s.Y_projected,
    }


def execute(req, progress=None):
    """Run the request; return (calibration, gamma, constants, steps)."""
    cal = Calibration.from_request(req.epsilon, req.delta, req.horizon, req.bank.dimension)
    gamma = cal.auto_gamma() if req.gamma == "auto" else mpq(req.gamma)
    consts, steps = run_brace(req.bank.points, req.query, req.r2, req.horizon, req.kappa,
                              cal, gamma, req.seed, req.grid_bits, req.noise_multiplier,
                              progress)
    return cal, gamma, consts, steps


def result_json(req, cal, gamma, consts, steps):
    """The ``result`` object; raises InputError for an uncalibrated request
    unless ``allow_uncalibrated`` (then the claim says "not private")."""
    gamma_ok = cal.holds(gamma)
    eq8_ok = gamma_ok and all(s.eq8 for s in steps)
    noise_ok = req.noise_multiplier >= 1
    max_gp = max(s.bracket.gamma_prime for s in steps)
    problems = []
    if not gamma_ok:
        problems.append(
            f"gamma {fr(gamma)} violates eq. (8): it exceeds the certified bound "
            f"{decimal_outward(cal.admissible, 12, -1)} (use {option('gamma', 'auto')} for {fr(cal.auto_gamma())})")
    elif not eq8_ok:
        bad = [s for s in steps if not s.eq8][0]
        problems.append(
            f"gamma {fr(gamma)} violates eq. (8) at step {bad.t}: gamma' = "
            f"{decimal_outward(bad.bracket.gamma_prime, 12, 1)} exceeds the certified bound "
            f"{decimal_outward(cal.admissible, 12, -1)} (use {option('gamma', 'auto')} for {fr(cal.auto_gamma())})")
    if not noise_ok:
        problems.append(f"noise multiplier {fr(req.noise_multiplier)} < 1 gives a variance below "
                        "the required T*hi^2/(2*rho_lo)")
    if problems and not req.allow_uncalibrated:
        raise InputError("; ".join(problems) + f" (pass {option('allow_uncalibrated', True)} to write a 'not private' "
                         f"certificate)")
    if problems:
        claim = {"status": "not private", "epsilon": fr(req.epsilon), "delta": fr(req.delta),
                 "reason": "; ".join(problems)}
    else:
        claim = {"status": "private", "epsilon": fr(req.epsilon), "delta": fr(req.delta),
                 "reason": ("every step draws Gaussian noise of variance at least T*s_t^2/(2*rho) "
                            "with a noise scale s_t >= local sensitivity that is gamma'_t-smooth, "
                            "and eq. (8) holds for every gamma'_t; Theorem 2 / Appendix C.2 give "
                            "central (epsilon, delta)-DP of the released trajectory")}
    return {
        "method": METHOD,
        "gamma": fr(gamma),
        "constants": {
            "r": pair(consts.r),
            "exp_neg_gamma": pair(consts.exp_neg_gamma),
            "log_inv_delta": pair(cal.log_inv_delta),
            "rho": pair(cal.rho),
            "alpha": pair(cal.alpha),
            "eq8": {"quarter": fr(QUARTER), "alpha_bound": pair(cal.bound_alpha),
                    "divergence_bound": pair(cal.bound_divergence),
                    "admissible": fr(cal.admissible),
                    "admissible_display": decimal_outward(cal.admissible, 12, -1)},
            "variance_constant": fr(cal.variance_constant()),
            "scale_bits": SCALE_BITS,
            "noise_tolerance": fr(NOISE_TOLERANCE),
        },
        "steps": [_step_json(s) for s in steps],
        "calibration": {"gamma_admissible": gamma_ok, "eq8_holds": eq8_ok, "noise_sufficient": noise_ok,
                        "max_gamma_prime": fr(max_gp),
                        "admissible": fr(cal.admissible)},
        "claim": claim,
    }


def build(request, progress=None):
    """The brace-run certificate (a dict) for a validated request."""
    cal, gamma, consts, steps = execute(request, progress)
    return make_certificate(KIND, VERSION, request.as_input(), result_json(request, cal, gamma, consts, steps))


def inputs_text(inp):
    """The question of a brace-run or brace-compare certificate, for the claim line."""
    n, d = len(inp["bank"]["points"]), len(inp["query"])
    return (f"bank '{inp['bank']['name']}' (n = {n}, d = {d}), T = {inp['horizon']}, "
            f"r² = {show(rational(inp['r2']))}, κ = {show(rational(inp['kappa']))}, seed {inp['seed']}")


def privacy_text(res):
    """The (ε, δ)-DP status and the γ used, from a brace-run result."""
    claim = res["claim"]
    return (f"({show(rational(claim['epsilon']))}, {show(rational(claim['delta']))})-DP: {claim['status']} "
            f"at γ = {show(rational(res['gamma']))}")


def claim(cert):
    return f"BRACE run: {privacy_text(cert['result'])} for {inputs_text(cert['input'])}"
