"""The producer's Python API: one function per certificate kind.

Each function takes Python values - rationals as ``Fraction``, ``int`` or
strings (``"1/3"``, ``"4.91"``, ``"1e-6"``, read exactly; floats are refused
because they are binary approximations) - validates them exactly as the
command line does, computes, and returns an immutable :class:`Certificate`.
The ``producer`` commands are thin layers over these functions, so a
certificate's bytes are the same from Python and from the command line.

=======================  ==================  =====================================
function                 certificate kind    what it certifies
=======================  ==================  =====================================
:func:`finite_game`      ``finite-game/1``   exact G_C (or F_C) values of a finite law
:func:`dg_interval`      ``dg-interval/1``   an interval for Δ*_C(ε), discrete Gaussian
:func:`calibration`      ``calibration/1``   an enclosure of ε*_C(δ), discrete Gaussian
:func:`pmw_envelope`         ``envelope/1``      PMW envelope claims on a small instance
:func:`brace_run`        ``brace-run/1``     a BRACE retrieval run and its calibration
:func:`brace_compare`    ``brace-compare/1`` BRACE against its baselines
:func:`hierarchy_upper`  ``hierarchy/1``     an upper end of Δ*_C(ε) or ε*_C(δ), large C
:func:`deadline_witness` ``deadline-witness/1`` lower bounds at finite deadlines T
:func:`workload`         ``workload/1``      δ(ε) of the static-workload matrix program
:func:`separation`       ``separation/1``    a lower end strictly above an upper end
:func:`calibration_lower` ``calibration-lower/1`` a lower end ε_lo ≤ ε*_C(δ)
:func:`plain_composition` ``plain-composition/1`` δ(ε) of the C-fold plain composition, any C ≤ 1024
=======================  ==================  =====================================

Bad input raises :class:`producer.errors.InputError` (a ``ValueError``; its
subclass :class:`~producer.errors.LimitError` for a size beyond a documented
limit) with a message naming the value.
"""

import copy
import json
import os
import sys
from fractions import Fraction
from math import isqrt

from gmpy2 import mpz

from producer.certificates.canonical import render
from producer.claims import claim_of
from producer.errors import InputError, LimitError
from producer.laws import FiniteLaw, parse_gamma
from producer.output import write_file_atomic
from producer.rationals import format_rational, parse_integer, parse_rational
from producer.sources.auditability import MAX_EXPONENT as AUDITOR_MAX_EXPONENT

__all__ = ["Certificate", "bracket", "finite_game", "dg_interval", "calibration", "pmw_envelope",
           "pmw_parameters", "brace_run", "brace_compare", "hierarchy_upper", "deadline_witness", "workload",
           "separation", "calibration_lower", "plain_composition", "rate", "frontier", "window_request",
           "finite_budget", "dpsgd", "InputError"]


class Certificate:
    """A sealed certificate; immutable.

    ``kind`` is its schema name (``"finite-game/1"``, ...); ``input`` and
    ``result`` are (copies of) its two JSON objects; ``digest`` its SHA-256;
    ``claim`` the one-line human summary the command line prints.
    ``to_json()`` gives the exact canonical bytes the command line writes,
    ``write(path)`` writes them atomically, ``as_dict()`` the whole JSON object.
    """

    __slots__ = ("_data", "_bytes", "_claim")

    def __init__(self, data):
        data = copy.deepcopy(data)
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_bytes", render(data))
        object.__setattr__(self, "_claim", claim_of(data))

    def __setattr__(self, name, value):
        raise AttributeError("a Certificate is immutable")

    def __delattr__(self, name):
        raise AttributeError("a Certificate is immutable")

    @property
    def kind(self):
        return self._data["schema"]

    @property
    def input(self):
        return copy.deepcopy(self._data["input"])

    @property
    def result(self):
        return copy.deepcopy(self._data["result"])

    @property
    def digest(self):
        return self._data["digest"]

    @property
    def claim(self):
        return self._claim

    def as_dict(self):
        """The whole certificate as a (fresh) JSON-ready dict."""
        return copy.deepcopy(self._data)

    def to_json(self):
        """The canonical bytes: sorted keys, no whitespace, UTF-8, then a newline."""
        return self._bytes

    def write(self, path):
        """Write :meth:`to_json` to ``path`` atomically (temporary file, then rename)."""
        write_file_atomic(path, self._bytes)

    def __eq__(self, other):
        return isinstance(other, Certificate) and self._bytes == other._bytes

    def __hash__(self):
        return hash(self._bytes)

    def __repr__(self):
        return f"<Certificate {self.kind}: {self._claim}>"


def _reporter(progress, prefix=None):
    """A progress callback: ``progress`` itself if callable, stderr if true, else None."""
    if callable(progress):
        return progress
    if progress:
        lead = f"{prefix}: " if prefix else ""
        return lambda message: print(f"{lead}{message}", file=sys.stderr, flush=True)
    return None


def _optional(value, parse, what):
    return None if value is None else parse(value, what)


def _items(value, what):
    """A list from a comma-separated string or a sequence."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise InputError(f"{what}: expected 'A,B' or a pair, got {value!r}")


def _pair(value, parse, what, form):
    parts = _items(value, what)
    if len(parts) != 2:
        raise InputError(f"{what}: {value!r} must be two numbers {form}")
    return tuple(parse(p, what) for p in parts)


def _nonnegative(value, what):
    if value < 0:
        raise InputError(f"{what}: must be >= 0, got {value}")
    return value


def _budget(value):
    """C from the input, refused before any work when beyond the game's limit C <= MAX_BUDGET."""
    from producer.game.api import MAX_BUDGET
    budget = parse_integer(value, "budget")
    if budget < 0:
        raise InputError(f"budget: C must be >= 0, got {mpz(budget)}")
    if budget > MAX_BUDGET:
        raise LimitError(f"budget: C = {mpz(budget)} exceeds the limit C <= {MAX_BUDGET}")
    return budget


def _method(method):
    from producer.game.api import check_method
    check_method(method)
    return method


# ---- finite-game/1 ---------------------------------------------------------

MAX_PENDING_STATE = 10**6  # |kP|, |kQ|: 10^6 takes about a second, 10^8 half a minute

def finite_game(gamma, weights, budget, *, offset=None, thresholds=(), points=(), pending=None,
                curve=False, method=None, progress=False):
    """Exact values of the hidden integer feedback game for a finite law (finite-game/1).

    ``weights`` are the nonnegative integer weights w_z of the law ν(z) = w_z/S
    on z = offset, offset+1, ... (default offset −(len−1)//2), as a list or
    ``"1,2,1"``.  Each threshold L asks for G_C(1, L) and its hockey-stick
    G_C(1, L) − L; each point (x, y) for G_C(x, y); ``pending=(kP, kQ)``
    evaluates F_C((kP, kQ); x, y) instead; ``curve=True`` adds the testing
    curve's vertices.  ``method``: "enumerate", "reduced", "compiled" or None
    (the smallest proved one).
    """
    from producer.certificates.finite_game import build
    gamma = parse_gamma(gamma)
    law = FiniteLaw.from_strings(weights if isinstance(weights, str) else list(weights),
                                 _optional(offset, parse_integer, "offset"))
    budget = _budget(budget)
    if isinstance(thresholds, (str, int)) or not hasattr(thresholds, "__iter__"):
        thresholds = [thresholds]
    thresholds = [_nonnegative(parse_rational(t, "threshold"), "threshold") for t in thresholds]
    if isinstance(points, str):
        points = [points]
    points = [tuple(_nonnegative(v, "point") for v in _pair(p, parse_rational, "point", "X,Y")) for p in points]
    pending = None if pending is None else _pair(pending, parse_integer, "pending", "KP,KQ")
    if pending is not None and max(abs(k) for k in pending) > MAX_PENDING_STATE:
        raise LimitError(f"pending: hidden states beyond ±{MAX_PENDING_STATE} are refused "
                         f"(the work grows with |k|)")
    if not thresholds and not points and not curve:
        raise InputError("nothing to compute: give a threshold, a point or the curve")
    report = _reporter(progress, "game")
    if report is not None and len(thresholds) + len(points) <= 3:
        report = None  # a few queries finish quickly; no progress lines
    data = build(law, gamma, budget, thresholds, points, pending, bool(curve), report, _method(method))
    return Certificate(data)


# ---- dg-interval/1 and calibration/1 ----------------------------------------

# σ² below this makes even the first atom exp(−1/(2σ²)) of the discrete Gaussian
# an exact number of more than a million bits (at σ² = 10^-10 the arithmetic
# library aborts); such a law is a point mass at 0 for every allowed scale.
MIN_SIGMA2 = Fraction(1, 10**6)
# An explicit source's outermost atom exp(−L²/(2σ²)) must not be smaller than
# e^-MAX_EDGE_EXPONENT: the auditor's documented limit on exponents
# (producer/sources/auditability.py); such atoms are 0 at every allowed scale anyway.
MAX_EDGE_EXPONENT = AUDITOR_MAX_EXPONENT


def _sigma2(value):
    sigma2 = parse_rational(value, "sigma2")
    if 0 < sigma2 < MIN_SIGMA2:
        raise LimitError(f"sigma2: {format_rational(sigma2)} is below the limit 1/{MIN_SIGMA2.denominator} "
                         f"(the discrete Gaussian is then a point mass at 0)")
    return sigma2


def _radius(value, sigma2):
    if value is None:
        return None
    radius = parse_integer(value, "radius")
    if sigma2 > 0 and radius > 0 and radius * radius > 2 * sigma2 * MAX_EDGE_EXPONENT:
        largest = isqrt(int(2 * sigma2 * MAX_EDGE_EXPONENT))
        raise LimitError(f"radius: L = {mpz(radius)} is too large for σ² = {format_rational(sigma2)}: atoms beyond "
                         f"L = {largest} are below e^-{MAX_EDGE_EXPONENT}, the auditor's limit on exponents")
    return radius


def _laplace(value):
    return None if value is None else parse_rational(value, "laplace")


def _sigma2_or_none(value, laplace):
    """σ² (discrete Gaussian) or None (discrete Laplace); exactly one of the two is given."""
    if (value is None) == (laplace is None):
        raise InputError("give exactly one innovation law: sigma2=Q (discrete Gaussian) or laplace=T "
                         "(discrete Laplace), the other None")
    return None if value is None else _sigma2(value)


def dg_interval(gamma, sigma2, budget, epsilon, *, width=None, radius=None, scale=None, method=None,
                progress=False, laplace=None):
    """A certified interval for Δ*_C(ε) (dg-interval/1).

    Δ*_C(ε) is the hockey-stick profile at e^ε of the hidden integer feedback
    mechanism with feedback coefficient γ, C participations and
    discrete-Gaussian innovations of variance parameter σ² (not plain
    discrete-Gaussian composition, except at γ = 0: then it is exactly the
    adaptive C-fold composition).  With ``sigma2=None, laplace=t`` the
    innovations are discrete Laplace, L_t(n) ∝ e^{−|n|/t}.  Give ``width=W``
    (the producer picks a finite source so that the interval is narrower than
    W) or an explicit finite source ``radius=L, scale=S``.
    """
    from producer.certificates.dg_interval import DgRequest, build
    if width is None and (radius is None or scale is None) or width is not None and (
            radius is not None or scale is not None):
        raise InputError("give width=W, or radius=L together with scale=S (exactly one of the two)")
    laplace = _laplace(laplace)
    sigma2 = _sigma2_or_none(sigma2, laplace)
    request = DgRequest(parse_gamma(gamma), sigma2, _budget(budget),
                        parse_rational(epsilon, "epsilon"),
                        radius=_radius(radius, sigma2) if sigma2 is not None else
                        _optional(radius, parse_integer, "radius"),
                        scale=_optional(scale, parse_integer, "scale"),
                        width=_optional(width, parse_rational, "width"), method=_method(method),
                        laplace=laplace)
    return Certificate(build(request, quiet=not progress))


def calibration(gamma, sigma2, budget, delta, *, width=None, method=None, progress=False, laplace=None):
    """An enclosure [ε_lo, ε_hi] of ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ} (calibration/1).

    The enclosure is narrower than ``width`` (default 10^-6); the certificate
    carries the two dg-interval certificates that prove it.  The law is the
    discrete Gaussian (``sigma2``) or, with ``sigma2=None, laplace=t``, the
    discrete Laplace; γ = 0 is plain composition.
    """
    from producer.certificates.calibration import CalibrationRequest, build
    laplace = _laplace(laplace)
    request = CalibrationRequest(parse_gamma(gamma), _sigma2_or_none(sigma2, laplace),
                                 _budget(budget), parse_rational(delta, "delta"),
                                 width=_optional(width, parse_rational, "width"), method=_method(method),
                                 laplace=laplace)
    return Certificate(build(request, quiet=not progress))


# ---- plain-composition/1 ---------------------------------------------------

DEFAULT_PLAIN_WIDTH = "1/1000000000000000"


def _epsilon_list(epsilons):
    """ε values from one number, ``"a,b,c"`` or a sequence."""
    if isinstance(epsilons, str):
        parts = [part.strip() for part in epsilons.split(",")]
    elif isinstance(epsilons, (list, tuple)):
        parts = list(epsilons)
    else:
        parts = [epsilons]
    return [parse_rational(e, "epsilon") for e in parts]


def plain_composition(sigma2, budget, epsilons, *, width=DEFAULT_PLAIN_WIDTH, laplace=None, progress=False):
    """Certified δ(ε) of the C-fold plain (feedback-free) composition (plain-composition/1).

    The release is x + N with sensitivity 1 and N the discrete Gaussian of
    variance parameter ``sigma2`` (or, with ``sigma2=None, laplace=t``, the
    discrete Laplace ∝ e^{−|n|/t}); δ(ε) = Σ_x (N^C(x) − e^ε N(· − 1)^C(x))₊,
    the hockey-stick divergence of the product pair, which dominates the
    adaptive C-fold composition.  ``epsilons``: one value, ``"a,b,c"`` or a
    list (sorted; a repeated ε is refused).  Every point is enclosed with
    upper − lower <= ``width`` (default 10^-15).  1 <= C <= 1024.
    """
    from producer.certificates.plain_composition import build
    from producer.plain.request import PlainRequest
    if (sigma2 is None) == (laplace is None):
        raise InputError("give exactly one noise law: sigma2=Q (discrete Gaussian) or laplace=T "
                         "(discrete Laplace), the other None")
    budget = parse_integer(budget, "budget")
    request = PlainRequest(budget, _epsilon_list(epsilons), parse_rational(width, "width"),
                           sigma2=_optional(sigma2, parse_rational, "sigma2"),
                           laplace=_optional(laplace, parse_rational, "laplace"))
    return Certificate(build(request, quiet=not progress))


# ---- envelope/1 -----------------------------------------------------------

MIN_PRECISION, MAX_PRECISION = 8, 4096


def _query_rows(queries):
    """Query values from a list of lists, a ``{"queries": ...}`` dict or that dict's JSON text."""
    if isinstance(queries, (str, bytes)):
        try:
            queries = json.loads(queries)
        except ValueError as exc:
            raise InputError(f"queries: not valid JSON ({exc})") from None
    if isinstance(queries, dict):
        queries = queries.get("queries")
    if not isinstance(queries, (list, tuple)):
        raise InputError('queries: expected a list of queries [[q(0), ..., q(T-1)], ...] '
                         '(or JSON {"queries": [...]})')
    rows = []
    for j, row in enumerate(queries):
        if not isinstance(row, (list, tuple)):
            raise InputError(f"queries: query {j} is not a list of rationals")
        rows.append([parse_rational(v, f"queries: q_{j}({d})") for d, v in enumerate(row)])
    return rows


def _precision(precision):
    if precision is None:
        return None
    bits = parse_integer(precision, "precision")
    if not MIN_PRECISION <= bits <= MAX_PRECISION:
        raise InputError(f"precision: {bits} bits is outside {MIN_PRECISION}..{MAX_PRECISION}")
    return bits


# Every histogram is stored with every transcript, so H x (2k)^J <= MAX_STORED
# with H >= max(T, n) and (2k)^J >= 2^J: larger T, n or J are refused before
# the counts (binomials, powers) are even formed.
MAX_ENVELOPE_ROUNDS = 64
MAX_PROPOSAL_SIZE = 10**6  # T, n and k for pmw_parameters (it counts C(n+T-1, T-1) exactly)
MAX_PROPOSAL_SMALLER = 1000  # min(T - 1, n): keeps that count below 4,000 digits


def _envelope_sizes(universe, records, rounds):
    from producer.envelope.instance import MAX_STORED
    # H = C(n+T-1, T-1) >= T (n >= 1), and >= n + 1 when T >= 2; and whatever T, the
    # certificate stores the n + 1 discount factors exp(-(ε/2)j), j = 0..n
    for what, value in (("universe", universe), ("records", records)):
        if value > MAX_STORED:
            raise LimitError(f"{what}: {mpz(value)} exceeds {MAX_STORED}: the enumeration stores at least that "
                             f"many enclosures (limit {MAX_STORED} stored enclosures)")
    if rounds > MAX_ENVELOPE_ROUNDS:
        raise LimitError(f"rounds: J = {rounds} exceeds {MAX_ENVELOPE_ROUNDS}: the enumeration has at least 2^J "
                         f"transcripts (limit {MAX_STORED} stored enclosures)")


def envelope_instance(universe, records, queries, rounds, hedge, select, epsilon, variant="selection"):
    """The validated envelope instance (see :func:`pmw_envelope`)."""
    from producer.envelope.instance import Instance
    universe, records = parse_integer(universe, "universe"), parse_integer(records, "records")
    rounds = parse_integer(rounds, "rounds")
    _envelope_sizes(universe, records, rounds)
    return Instance(universe, records, _query_rows(queries), rounds, parse_rational(hedge, "hedge"),
                    parse_rational(select, "select"), parse_rational(epsilon, "epsilon"), variant)


def pmw_envelope(universe, records, queries, rounds, hedge, select, epsilon, *, variant="selection",
             precision=None, progress=False):
    """Pure-DP, normaliser and error claims of the selection-only PMW envelope (envelope/1).

    Universe {0, ..., T−1} (``universe`` = T), ``records`` = n, ``queries`` a
    list of k queries, each T values in [0, 1]; J = ``rounds`` rounds, Hedge
    step ``hedge``, selection parameter ``select`` (η), privacy parameter ε.
    ``variant`` "selection" or "sign".  ``precision`` in bits (default: 128,
    raised to 256 and 512 while a claim is unresolved).
    """
    from producer.envelope.certify import certify
    instance = envelope_instance(universe, records, queries, rounds, hedge, select, epsilon, variant)
    return Certificate(certify(instance, _precision(precision), progress=bool(progress)))


def pmw_parameters(universe, records, query_count, epsilon, alpha):
    """The paper's suggested (γ, J, η) for target error ``alpha``, with their checks (a dict)."""
    from producer.envelope.parameters import propose
    universe, records = parse_integer(universe, "universe"), parse_integer(records, "records")
    query_count = parse_integer(query_count, "query count")
    for what, value in (("universe", universe), ("records", records), ("query count", query_count)):
        if value > MAX_PROPOSAL_SIZE:
            raise LimitError(f"{what}: {value} exceeds the limit {MAX_PROPOSAL_SIZE} of the parameter proposal")
    if min(universe - 1, records) > MAX_PROPOSAL_SMALLER:
        raise LimitError(f"universe and records: min(T - 1, n) = {min(universe - 1, records)} exceeds the limit "
                         f"{MAX_PROPOSAL_SMALLER} of the parameter proposal (the histogram count "
                         f"C(n+T-1, T-1) would have thousands of digits)")
    return propose(universe, query_count, records, parse_rational(epsilon, "epsilon"),
                   parse_rational(alpha, "alpha"))


# ---- brace-run/1 and brace-compare/1 ----------------------------------------

MAX_SEED_BITS = 256


def parse_seed(value):
    """A seed: an integer with |seed| < 2^256 (it is recorded as a JSON integer)."""
    seed = parse_integer(value, "seed")
    if abs(seed).bit_length() > MAX_SEED_BITS:
        raise LimitError(f"seed: more than {MAX_SEED_BITS} bits (the limit)")
    return seed


def _bank(bank):
    from producer.brace.bank import Bank
    if isinstance(bank, (str, os.PathLike)):
        return Bank.from_path(os.fspath(bank)), os.fspath(bank)
    if isinstance(bank, (list, tuple)):
        return Bank.from_strings(bank), "in-memory"
    raise InputError(f"bank: expected a file path or a list of points, got {type(bank).__name__}")


def brace_request(bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
                  grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None):
    """The validated BRACE request (see :func:`brace_run`)."""
    from producer.brace.algorithm import DEFAULT_GRID_BITS
    from producer.brace.bank import parse_point
    from producer.brace.record import Request
    bank, default_name = _bank(bank)
    if isinstance(query, str):
        query = parse_point(query, bank.dimension)
    else:
        query = tuple(parse_rational(c, "query") for c in query)
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
    return Request(bank, query, r2, parse_integer(horizon, "horizon"), parse_rational(kappa, "kappa"),
                   parse_rational(epsilon, "epsilon"), parse_rational(delta, "delta"), gamma,
                   parse_seed(seed),
                   parse_integer(DEFAULT_GRID_BITS if grid_bits is None else grid_bits, "grid bits"),
                   parse_rational(noise_multiplier, "noise multiplier"), bool(allow_uncalibrated),
                   bank_name=bank_name or default_name)


def brace_run(bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
              grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None, progress=False):
    """A BRACE private retrieval run with certified sensitivity brackets and calibration (brace-run/1).

    ``bank``: a JSON/CSV file path or a list of points (rows of rationals);
    ``query``: the public query point; the radius as ``r2`` or ``beta``
    (r² = 2/β); T = ``horizon`` released steps, activation threshold
    ``kappa``, target (ε, δ); ``gamma`` the smoothing parameter or "auto".
    An uncalibrated request raises InputError unless ``allow_uncalibrated``.
    """
    from producer.commands.brace import certificate_for
    request = brace_request(bank, query, horizon=horizon, kappa=kappa, epsilon=epsilon, delta=delta,
                            seed=seed, r2=r2, beta=beta, gamma=gamma, grid_bits=grid_bits,
                            noise_multiplier=noise_multiplier, allow_uncalibrated=allow_uncalibrated,
                            bank_name=bank_name)
    return Certificate(certificate_for(request, _reporter(progress)))


def brace_compare(bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
                  grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None,
                  progress=False):
    """BRACE against the naive, global-noise and clean-endpoint baselines on the same bank,
    draws and start (brace-compare/1); arguments as :func:`brace_run`."""
    from producer.commands.brace_compare import certificate_for
    request = brace_request(bank, query, horizon=horizon, kappa=kappa, epsilon=epsilon, delta=delta,
                            seed=seed, r2=r2, beta=beta, gamma=gamma, grid_bits=grid_bits,
                            noise_multiplier=noise_multiplier, allow_uncalibrated=allow_uncalibrated,
                            bank_name=bank_name)
    return Certificate(certificate_for(request, _reporter(progress)))


def bracket(lower, upper):
    """The two-sided bracket lo ≤ ε*_C(δ) ≤ hi of two certificates for the same (γ, σ², C, δ).

    ``lower`` (calibration-lower/1 or calibration/1) and ``upper`` (calibration/1
    or hierarchy/1) are Certificates, dicts or paths.  Returns a
    :class:`producer.brackets.Bracket` (``.line()``, ``.as_dict()``); it combines
    two certificates and proves nothing itself: verify both with the auditor.
    """
    from producer import brackets

    def as_dict(cert):
        if isinstance(cert, Certificate):
            return cert.as_dict()
        if isinstance(cert, dict):
            return cert
        return brackets.read_certificate(cert)

    return brackets.bracket(as_dict(lower), as_dict(upper))


# ---- hierarchy/1 -------------------------------------------------------------

def _source_scale(value):
    """S as an integer, ``"2^k"`` or ``"1e24"`` (a positive integer)."""
    if isinstance(value, str) and value.strip().startswith("2^"):
        bits = parse_integer(value.strip()[2:], "source scale exponent")
        if not 0 <= bits <= 4096:
            raise LimitError(f"source scale: 2^{bits} is outside 2^0..2^4096")
        return 2 ** bits
    return _whole(value, "source scale")


def _whole(value, what, minimum=1):
    """An integer >= ``minimum`` written as an integer or an exact decimal (``1e24``)."""
    number = parse_rational(value, what)
    if number.denominator != 1:
        raise InputError(f"{what}: {value!r} is not an integer")
    if number < minimum:
        raise InputError(f"{what}: must be >= {minimum}, got {number}")
    return int(number.numerator)


def hierarchy_upper(gamma, sigma2, budget, *, depth=None, cuts=None, delta=None, epsilon=None, priors=None,
              logit_range=None, radius=None, source_scale=None, scale_bits=None, grid_bits=None,
              progress=False):
    """A certified upper bound through a commitment hierarchy (hierarchy/1).

    The model is the proof hierarchy P_H (``depth=H``) or the cut game U_S
    (``cuts=S``: a list of cut indices or ``"all"``, ``"all-minus:1,3"``,
    ``"all-minus-mod:4:1"``); exactly one.  The question is exactly one of
    ``delta=δ`` (an ε_hi with ε*_C(δ) ≤ ε_hi) or ``epsilon=ε`` (an upper bound
    on Δ*_C(ε)).  The numerics (grid ``priors``, ``logit_range``, source
    ``radius`` and ``source_scale``, ``scale_bits``, ``grid_bits``) default to
    those of docs/hierarchy.md.
    """
    from producer.certificates.hierarchy import HierarchyRequest, build
    from producer.hierarchy.models import parse_cuts
    if (depth is None) == (cuts is None):
        raise InputError("model: give exactly one of depth=H (--depth) or cuts=S (--cuts)")
    if (delta is None) == (epsilon is None):
        raise InputError("query: give exactly one of delta=δ (--delta) or epsilon=ε (--epsilon)")
    budget = parse_integer(budget, "budget")
    if budget < 1:
        raise InputError(f"budget: C must be >= 1, got {budget}")
    if cuts is not None:
        cuts = parse_cuts(cuts if isinstance(cuts, str) else ",".join(str(c) for c in cuts), budget)
    numerics = {
        "priors": _optional(priors, parse_integer, "priors"),
        "logit_range": _optional(logit_range, parse_rational, "logit range"),
        "radius": _optional(radius, parse_integer, "radius"),
        "source_scale": None if source_scale is None else _source_scale(source_scale),
        "scale_bits": _optional(scale_bits, parse_integer, "scale bits"),
        "grid_bits": _optional(grid_bits, parse_integer, "grid bits"),
    }
    request = HierarchyRequest(parse_gamma(gamma), _sigma2(sigma2), budget,
                               depth=_optional(depth, parse_integer, "depth"), cuts=cuts,
                               delta=_optional(delta, parse_rational, "delta"),
                               epsilon=_optional(epsilon, parse_rational, "epsilon"), **numerics)
    return Certificate(build(request, quiet=not progress))


# ---- deadline-witness/1 --------------------------------------------------------

READINGS = ("fixed", "max")


def deadline_witness(gamma, sigma2, epsilon, radius, scale, deadlines, *, threshold_denominator="1e30",
                     reading="fixed", reference_upper=None, progress=False):
    """Lower bounds H_{e^ε}(P_T‖Q_T) ≥ LB_T of the physical DG program at deadlines T (deadline-witness/1).

    The source is the discrete Gaussian of variance parameter σ² on [−L, L]
    (``radius`` = L) with integer total weight ``scale`` = S; the threshold
    e^ε is bracketed by λ₋ = floor(N·e^ε)/N, λ₊ = λ₋ + 1/N (N =
    ``threshold_denominator``).  ``deadlines``: one horizon T or several;
    ``reading``: "fixed" (the suffix (+1, +1, echo)) or "max" (the best of
    the four sign patterns per start state).
    """
    from producer.lower.deadline_witness import FIXED, MAX_READING, DeadlineRequest, build
    if reading not in READINGS:
        raise InputError(f"reading: {reading!r} is not one of {', '.join(READINGS)}")
    if isinstance(deadlines, (str, int)):
        deadlines = _items(deadlines, "deadlines") if isinstance(deadlines, str) else [deadlines]
    horizons = sorted(set(parse_integer(t, "deadline") for t in deadlines))
    sigma2 = _sigma2(sigma2)
    request = DeadlineRequest(parse_gamma(gamma), sigma2, parse_rational(epsilon, "epsilon"),
                              _radius(radius, sigma2), _whole(scale, "scale"),
                              _whole(threshold_denominator, "threshold denominator"),
                              FIXED if reading == "fixed" else MAX_READING, horizons,
                              _optional(reference_upper, parse_rational, "reference upper"))
    return Certificate(build(request, quiet=not progress))


# ---- workload/1 ------------------------------------------------------------------

def workload(*, dimension=100, diagonal=15, ones=1, sigma2=1444, scale=2**33, epsilon=2, theta=6,
             identity=True):
    """An upper bound on δ(ε) of the matrix program A = d·I + e·J with finite DG draws (workload/1).

    ``dimension`` = n, ``diagonal`` = d, ``ones`` = e, each of the n draws a
    discrete Gaussian of variance parameter σ² on a finite source of total
    weight ``scale``; θ is the order of the moment bound.  ``identity=True``
    adds the published checks of the G.6 identity.  The defaults are the
    published static workload.
    """
    from producer.lower.workload import PUBLISHED_IDENTITY_CASES, WorkloadRequest, build
    request = WorkloadRequest(parse_integer(dimension, "dimension"), parse_integer(diagonal, "diagonal"),
                              parse_integer(ones, "ones"), _sigma2(sigma2), _whole(scale, "scale"),
                              parse_rational(epsilon, "epsilon"), parse_integer(theta, "theta"),
                              PUBLISHED_IDENTITY_CASES if identity else [])
    return Certificate(build(request))


# ---- separation/1 ------------------------------------------------------------------

def _separation_references():
    from producer.lower.separation import REFERENCES
    return {fields["claim"] + ("" if fields["claim"] != "dg-relaxation" else ":" + fields["relaxation"]): fields
            for _, fields in REFERENCES}


SEPARATION_CLAIMS = ("binary-pair", "dg-relaxation:offset", "dg-relaxation:one-digit", "finite-relaxation",
                     "offset-event", "renyi-cover")


def separation(claim, *, separator=None):
    """A certified strict separation at the published parameters (separation/1).

    ``claim``: one of :data:`SEPARATION_CLAIMS` (``dg-relaxation:one-digit``
    and ``dg-relaxation:offset`` name the relaxation).  A certified lower end
    lies strictly above the separator s, which lies strictly above a certified
    upper end; ``separator`` overrides s where the claim has one.
    """
    from producer.lower.separation import build_reference
    known = _separation_references()
    if claim not in known:
        raise InputError(f"separation: unknown claim {claim!r} (known: {', '.join(sorted(known))})")
    fields = dict(known[claim])
    if separator is not None:
        if "separator" not in fields:
            raise InputError(f"separator: the claim {claim} has no separator")
        fields["separator"] = parse_rational(separator, "separator")
    return Certificate(build_reference(fields))


# ---- calibration-lower/1 ------------------------------------------------------------

LOWER_CLAIMS = ("capped-preparation", "target-zero")


def calibration_lower(claim, *, delta=None, budget=None, sigma2=None, gamma=None, radius=None, scale=None,
                      priors=None, progress=False):
    """A certified lower end ε_lo ≤ ε*_C(δ) from a physical witness line (calibration-lower/1).

    ``claim``: "capped-preparation" (the fixed K.2 program at γ = 1/2, σ² = 1,
    C = 4; only ``delta`` may change) or "target-zero" (target-{0} line trees;
    defaults C = 8, δ = 10^-4, σ² = 9, γ = 1/3, source L = 28 and S = 2^60,
    4001 grid priors).  C ≥ 8 takes minutes.
    """
    from producer.lower.calibration_lower import K2, TARGET_C8, build
    if claim not in LOWER_CLAIMS:
        raise InputError(f"claim: {claim!r} is not one of {', '.join(LOWER_CLAIMS)}")
    changes = dict(budget=budget, sigma2=sigma2, gamma=gamma, radius=radius, scale=scale, priors=priors)
    if claim == "capped-preparation":
        given = sorted(k for k, v in changes.items() if v is not None)
        if given:
            raise InputError(f"capped-preparation: only delta may be changed (the K.2 program is fixed), "
                             f"got {', '.join(given)}")
        fields = dict(K2)
    else:
        fields = dict(TARGET_C8)
        if budget is not None:
            fields["budget"] = _whole(budget, "budget")
        if sigma2 is not None:
            fields["sigma2"] = _sigma2(sigma2)
        if gamma is not None:
            fields["gamma"] = str(parse_gamma(gamma))
        if radius is not None:
            fields["radius"] = _whole(radius, "radius")
        if scale is not None:
            fields["scale"] = _source_scale(scale)
        if priors is not None:
            fields["grid_count"] = _whole(priors, "priors")
    if delta is not None:
        fields["delta"] = parse_rational(delta, "delta")
        if not 0 < fields["delta"] < 1:
            raise InputError(f"delta: must lie in (0, 1), got {format_rational(fields['delta'])}")
    fields.pop("claim")
    return Certificate(build(claim, quiet=not progress, **fields))


# ---- resource laws: rate/1, frontier/1, window-request/1, finite-budget/1 -------------

def rate(gamma, sigma2, *, period=None, progress=False):
    """The participation rate a* ∈ [lower, upper] and the disclosed rate ρ (rate/1).

    ``period`` N = B^m of the Bellman upper (default 32 at γ = 1/2); the
    lower end is the descent certificate at γ = 1/2 and None otherwise.
    """
    from producer.kinds import rate as kind
    request = kind.Request.from_strings(gamma, sigma2, period)
    return Certificate(kind.build(request, _reporter(progress, "rate")))


def frontier(gamma, sigma2, *, radius=None, taus=None, progress=False):
    """Certified enclosures of the hard-resource frontier Φ(τ) at each τ (frontier/1).

    ``radius`` M of the window (default 12); ``taus`` a list or ``"1,2,5,10"``
    (the default).
    """
    from producer.kinds import frontier as kind
    request = kind.Request.from_strings(gamma, sigma2, radius, taus)
    return Certificate(kind.build(request, _reporter(progress, "frontier")))


def window_request(gamma, sigma2, tau, bits, *, progress=False):
    """Φ(τ) to width <= 2^-bits by the rational window algorithm (window-request/1)."""
    from producer.kinds import window_request as kind
    request = kind.Request.from_strings(gamma, sigma2, tau, bits)
    return Certificate(kind.build(request, _reporter(progress, "window")))


def finite_budget(gamma, sigma2, budget, deadline, delta, *, radius=None, progress=False):
    """An upper bound ε*_{C,T}(δ) <= ε for C participations within T steps (finite-budget/1)."""
    from producer.kinds import finite_budget as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, deadline, delta, radius)
    return Certificate(kind.build(request, _reporter(progress, "finite-budget")))
# ---- dpsgd/1 -----------------------------------------------------------------------

def dpsgd(sampling_rate=None, noise_multiplier=None, steps=None, *, stages=(), delta=None, epsilons=None,
          rel_width=None, progress=False):
    """Certified ε(δ) or δ(ε) of DP-SGD: the Poisson-subsampled Gaussian, composed (dpsgd/1).

    One stage from ``sampling_rate`` q, ``noise_multiplier`` σ and ``steps``
    T, and/or ``stages`` as ``"q:σxT"`` strings (a schedule, composed in
    order); exactly one of ``delta`` (→ ``result.epsilon_lo/epsilon_hi``) and
    ``epsilons`` (a list or ``"1,2,4"`` → ``result.points``); ``rel_width`` R
    (default 1/1000): ε_hi − ε_lo <= R·ε_hi, or upper − lower <= R·upper.
    Sensitivity 1, add/remove neighbours (δ is the larger of the two orders).
    """
    from producer.kinds.dpsgd import Request, build, progress_printer
    request = Request.from_strings(sampling_rate, noise_multiplier, steps, stages=stages, delta=delta,
                                   epsilons=epsilons, rel_width=rel_width)
    return Certificate(build(request, progress=progress_printer() if progress else None))
# ---- kinds born in producer/kinds/ (issue 23): hierarchy-exact/1, block-composition/1, minimum-deletion/1 ----

def hierarchy_exact(gamma, weights, budget, priors, models="G,P3,P2,Q2,P1", *, offset=None, progress=False):
    """Exact values of hierarchy games for a finite law at priors t, with their chain (hierarchy-exact/1).

    ``weights``: "1,1,1" or a list; ``priors``: "1/2" or a list; ``models``:
    "G,P3,P2,Q2,P1,U:1+2" or a list of such names (G = G_C, P<H>, Q<H> the
    fixed-selector portfolio, U:<cuts> a cut game).
    """
    from producer.kinds import hierarchy_exact as kind
    weights = ",".join(str(w) for w in weights) if isinstance(weights, (list, tuple)) else weights
    request = kind.Request.from_strings(gamma, weights, budget, priors, models, offset=offset)
    return Certificate(kind.build(request, progress=_reporter(progress, "hierarchy-exact")))


def block_composition(gamma, budget, epsilon, *, sigma2=None, weights=None, offset=None, splits=None,
                      targets=None, radius=None, scale=None, progress=False):
    """δ(ε) of T = C releases from the zero start by block accounting beside the full computation
    (block-composition/1).

    The innovations are the discrete Gaussian (``sigma2``; source ``radius``,
    ``scale``) or a finite law (``weights``).  ``splits``: "1+1+1,2+1,1+2,3"
    (default: every split of C into blocks); ``targets``: "1e-4,4e-5:6e-5".
    """
    from producer.kinds import block_composition as kind
    request = kind.Request.from_strings(gamma, budget, epsilon, sigma2=sigma2, weights=weights, offset=offset,
                                        splits=splits, targets=targets, radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "block-composition")))


def minimum_deletion(gamma, sigma2, budget, epsilon, delta, *, remove="1", upper_priors=None, lower_priors=None,
                     radius=None, scale=None, progress=False):
    """The minimum number of cuts removed from S_all for the cut-game model to certify δ at ε
    (minimum-deletion/1): a proof-function lower of every model with one cut fewer removed above δ and a
    certified upper of S_all ∖ ``remove`` below δ.  Statements about the models, not attacks on the mechanism.
    """
    from producer.kinds import minimum_deletion as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, epsilon, delta, remove=remove,
                                        upper_priors=upper_priors, lower_priors=lower_priors,
                                        radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "minimum-deletion")))


def minimum_depth(gamma, sigma2, budget, epsilon, delta, depth, *, upper_priors=None, lower_priors=None,
                  radius=None, scale=None, progress=False):
    """The smallest proof depth H whose model P_H certifies δ at ε (minimum-depth/1): a proof-function lower of
    P_{H−1} above δ and a certified upper of P_H below it.  Statements about the models, not the mechanism.
    """
    from producer.kinds import minimum_depth as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, epsilon, delta, depth, upper_priors=upper_priors,
                                        lower_priors=lower_priors, radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "minimum-depth")))


__all__ += ["hierarchy_exact", "block_composition", "minimum_deletion", "minimum_depth"]
