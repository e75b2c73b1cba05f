"""The ``separation/1`` certificate: a certified lower end strictly above a certified upper end.

Claims (*Exact Compilation and Resource Laws for Hidden Integer Feedback*,
§3.3, §4.1 and Appendices B.1–B.5; docs/lower-certificates.md §2):

- ``finite-relaxation``: exact G_2 (privacy value) < G_2^(1) < W(2,0)
  (relaxation values) on a small finite law;
- ``dg-relaxation``: the DG interval of a relaxation (one-digit or offset,
  Coupling A with 4 draws) has its lower end above a separator above the
  upper end of an embedded dg-interval/1 for Δ*_2(ε);
- ``offset-event``: an explicit offset-class event on the exact DG whose payoff
  lower end is above a separator above the Δ*_2(ε) upper end;
- ``binary-pair``: the family-envelope binary pair, likewise, with its D_∞;
- ``renyi-cover``: the 29 bands U_r < L_l of Appendix B.2 and the order-16 tail.

The roles are explicit: lower ends of relaxations bound only the
relaxations; upper ends of privacy bounds bound the mechanism.  Every
embedded privacy bound is a dg-interval/1 for the claim's own mechanism:
γ > 0 (the γ of the claim), σ², C = 2, ε and the claim's source; the
producer refuses anything else.  ``input`` is the claim's whole request,
typed per claim (one :class:`Request` subclass per claim); ``result`` holds
only computed claims.  :data:`REFERENCES` are the published parameters the
command line offers (``producer separation --claim``).

Limits: the auditor's (law length and γ denominator of a recomputed
relaxation, the offset event's box within its reader, the Rényi box width),
refused before the work.
"""

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.display import down, law_text, rational, show, show_value, up
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.laws import FiniteLaw
from producer.lower import events, renyi
from producer.lower.bounds import check_same_mechanism, dg_upper_certificate, positive_gamma, upper_end
from producer.lower.fields import source_claims
from producer.lower.relaxations import OffsetRelaxation, OneDigitRelaxation
from producer.lower.threshold import check_threshold_size, grid_threshold
from producer.game.values import root_value
from producer.rationals import decimal_outward, describe_rational, format_rational, parse_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource, check_sigma2

KIND, VERSION = "separation", 1
DIGITS = 22
CLAIMS = ("finite-relaxation", "dg-relaxation", "offset-event", "binary-pair", "renyi-cover")
BUDGET = 2                       # every separation is about the budget-2 mechanism
OFFSET_GAMMA = "1/3"             # the offset-event program and the Rényi layers are built for γ = 1/3
# The auditor's documented limits (docs/certificates.md, separation/1), refused here before any work.
MAX_LAW_LENGTH = 80              # atoms of a law whose relaxation values are recomputed
MAX_GAMMA_DENOMINATOR = 12       # B of γ for the relaxation values
MAX_ATOMS = 10 ** 5              # atoms of an offset event (at most the box's (high − low + 1)²)
# An offset event lists up to (high − low + 1)² atoms of 3 JSON values each: within the reader's
# 100,000 values (with 1,000 to spare for the rest) the box has at most 181 columns.
MAX_EVENT_BOX = 181
MAX_RENYI_BOX = 400              # width high − low of a Rényi box


def _interval(lower, upper, digits=DIGITS):
    return {"lower": format_rational(lower), "upper": format_rational(upper),
            "lower_display": decimal_outward(lower, digits, -1),
            "upper_display": decimal_outward(upper, digits, +1)}


def _check_separated(upper, separator, lower, what):
    if not upper < separator < lower:
        raise InputError(f"{what}: no strict separation: upper {describe_rational(upper)}, "
                         f"separator {describe_rational(separator)}, lower {describe_rational(lower)}")


def _nonnegative(value, what):
    value = mpq(value)
    if value < 0:
        raise InputError(f"{what}: must be >= 0, got {format_rational(value)}")
    return value


def _probability(value, what):
    value = mpq(value)
    if not 0 < value < 1:
        raise InputError(f"{what}: must lie in (0, 1), got {format_rational(value)}")
    return value


def _box(low, high, what, max_width=None):
    low, high = int(low), int(high)
    if not low <= high:
        raise InputError(f"{what}: need low <= high, got [{low}, {high}]")
    if max_width is not None and high - low > max_width:
        raise LimitError(f"{what}: width {high - low} exceeds the auditor's limit {max_width}")
    return low, high


def _relaxation_game(n_weights, gamma, what):
    """Refuse a relaxation the auditor would not recompute (law length, γ denominator)."""
    if n_weights > MAX_LAW_LENGTH:
        raise LimitError(f"{what}: a law of {n_weights} atoms exceeds the auditor's limit of {MAX_LAW_LENGTH} "
                         f"for relaxation values (radius <= {(MAX_LAW_LENGTH - 1) // 2})")
    if gamma.B > MAX_GAMMA_DENOMINATOR:
        raise LimitError(f"gamma: denominator {gamma.B} exceeds the auditor's limit {MAX_GAMMA_DENOMINATOR} "
                         f"for relaxation values")


class Request(Immutable):
    """A separation request: one subclass per claim (:meth:`of` picks it by name)."""

    __slots__ = ()
    CLAIM = None

    @staticmethod
    def of(claim, **fields):
        """The validated request of ``claim`` (a name of :data:`CLAIMS`) with the given fields."""
        if claim not in REQUESTS:
            raise InputError(f"separation: unknown claim {claim!r} (known: {', '.join(CLAIMS)})")
        return REQUESTS[claim](**fields)

    @classmethod
    def from_strings(cls, claim, separator=None):
        """A published claim (a name of :data:`PUBLISHED_CLAIMS`), its separator optionally overridden."""
        if claim not in PUBLISHED:
            raise InputError(f"separation: unknown claim {claim!r} (known: {', '.join(sorted(PUBLISHED))})")
        fields = dict(PUBLISHED[claim])
        if separator is not None:
            if "separator" not in fields:
                raise InputError(f"separator: the claim {claim} has no separator")
            fields["separator"] = parse_rational(separator, "separator")
        return cls.of(fields.pop("claim"), **fields)


class _Mechanism(Request):
    """The budget-2 mechanism a privacy bound is about: γ > 0, σ², ε, and the explicit source (L, S)."""

    __slots__ = ()

    def _set_mechanism(self, gamma, sigma2, epsilon, radius, scale):
        self.gamma = positive_gamma(gamma)
        self.sigma2 = check_sigma2(sigma2)
        self.epsilon = _nonnegative(epsilon, "epsilon")
        self.radius, self.scale = int(radius), mpz(scale)
        if self.radius < 1 or self.scale < 1:
            raise InputError("radius and scale: each must be a positive integer")

    def _mechanism_json(self):
        return {"gamma": str(self.gamma), "sigma2": format_rational(self.sigma2),
                "epsilon": format_rational(self.epsilon), "radius": self.radius, "scale": str(int(self.scale))}

    def privacy_bound(self):
        """The embedded dg-interval/1 for Δ*_2(ε) of exactly this mechanism (checked to be so)."""
        bound = dg_upper_certificate(self.gamma, self.sigma2, BUDGET, self.epsilon, self.radius, self.scale)
        check_same_mechanism(bound, self.gamma, self.sigma2, BUDGET, self.epsilon, self.radius, self.scale,
                             "privacy bound")
        return bound


class FiniteRelaxationRequest(Request):
    """Exact G_2 < G_2^(1) < W(2, 0) at (x, y) on a small finite law."""

    __slots__ = ("law", "gamma", "x", "y")
    CLAIM = "finite-relaxation"

    def __init__(self, law, gamma, x, y):
        self.law = law if isinstance(law, FiniteLaw) else FiniteLaw(*law)
        self.gamma = positive_gamma(gamma)
        _relaxation_game(len(self.law.weights), self.gamma, "law")
        self.x, self.y = _nonnegative(x, "x"), _nonnegative(y, "y")

    def as_json(self):
        return {"claim": self.CLAIM, "law": self.law.as_json(), "gamma": str(self.gamma),
                "x": format_rational(self.x), "y": format_rational(self.y)}


class DgRelaxationRequest(_Mechanism):
    """A relaxation's DG interval above a separator above the budget-2 privacy bound."""

    __slots__ = ("relaxation", "gamma", "sigma2", "epsilon", "radius", "scale", "denominator", "separator")
    CLAIM = "dg-relaxation"

    def __init__(self, relaxation, gamma, sigma2, epsilon, radius, scale, denominator, separator):
        if relaxation not in ("one-digit", "offset"):
            raise InputError(f"relaxation: {relaxation!r} is not one-digit or offset")
        self.relaxation = relaxation
        self._set_mechanism(gamma, sigma2, epsilon, radius, scale)
        _relaxation_game(2 * self.radius + 1, self.gamma, "radius")
        self.denominator = mpz(denominator)
        if self.denominator < 1:
            raise InputError(f"threshold denominator: must be a positive integer, got {self.denominator}")
        check_threshold_size(self.epsilon, self.denominator)
        self.separator = _nonnegative(separator, "separator")

    def as_json(self):
        out = {"claim": self.CLAIM, "relaxation": self.relaxation, **self._mechanism_json(),
               "threshold_denominator": str(int(self.denominator)), "separator": format_rational(self.separator)}
        return out


class OffsetEventRequest(_Mechanism):
    """The offset-class event on [low, high]² above a separator above the γ = 1/3 privacy bound."""

    __slots__ = ("gamma", "sigma2", "epsilon", "radius", "scale", "low", "high", "separator")
    CLAIM = "offset-event"

    def __init__(self, sigma2, epsilon, low, high, radius, scale, separator, gamma=OFFSET_GAMMA):
        if str(gamma) != OFFSET_GAMMA:
            raise InputError(f"gamma: the offset-event program is built for γ = {OFFSET_GAMMA}, got {gamma}")
        self._set_mechanism(gamma, sigma2, epsilon, radius, scale)
        self.low, self.high = _box(low, high, "box")
        side = self.high - self.low + 1
        if side > MAX_EVENT_BOX or side ** 2 > MAX_ATOMS:
            raise LimitError(f"box: [{self.low}, {self.high}]² may hold {side ** 2} atoms of 3 JSON values each, "
                             f"beyond the auditor's reader (at most {MAX_EVENT_BOX} columns)")
        self.separator = _nonnegative(separator, "separator")

    def as_json(self):
        return {"claim": self.CLAIM, **self._mechanism_json(), "box": {"low": self.low, "high": self.high},
                "separator": format_rational(self.separator)}


class BinaryPairRequest(_Mechanism):
    """The binary pair ((p, 1 − p), (q, 1 − q)) above a separator above the budget-2 privacy bound."""

    __slots__ = ("gamma", "sigma2", "epsilon", "radius", "scale", "p", "q", "separator")
    CLAIM = "binary-pair"

    def __init__(self, p, q, epsilon, sigma2, radius, scale, separator, gamma=OFFSET_GAMMA):
        self._set_mechanism(gamma, sigma2, epsilon, radius, scale)
        self.p, self.q = _probability(p, "p"), _probability(q, "q")
        self.separator = _nonnegative(separator, "separator")

    def as_json(self):
        return {"claim": self.CLAIM, **self._mechanism_json(), "p": format_rational(self.p),
                "q": format_rational(self.q), "separator": format_rational(self.separator)}


class RenyiCoverRequest(Request):
    """The 29 Rényi bands of the γ = 1/3 three-step experiment against the binary pair (p, q)."""

    __slots__ = ("gamma", "sigma2", "p", "q", "scale", "low", "high")
    CLAIM = "renyi-cover"

    def __init__(self, sigma2, p, q, scale, low, high, gamma=OFFSET_GAMMA):
        if str(gamma) != OFFSET_GAMMA:
            raise InputError(f"gamma: the Rényi layers are built for γ = {OFFSET_GAMMA}, got {gamma}")
        self.gamma = positive_gamma(gamma)
        self.sigma2 = check_sigma2(sigma2)
        self.p, self.q = _probability(p, "p"), _probability(q, "q")
        self.scale = mpz(scale)
        if self.scale < 1:
            raise InputError(f"layer scale: must be a positive integer, got {self.scale}")
        self.low, self.high = _box(low, high, "box", MAX_RENYI_BOX)

    def as_json(self):
        return {"claim": self.CLAIM, "gamma": str(self.gamma), "sigma2": format_rational(self.sigma2),
                "p": format_rational(self.p), "q": format_rational(self.q), "layer_scale": str(int(self.scale)),
                "box": {"low": self.low, "high": self.high}}


def finite_relaxation(request):
    law, gamma, x, y = request.law, request.gamma, request.x, request.y
    auto = root_value(law, gamma, BUDGET, x, y).value - y
    one = OneDigitRelaxation(law, gamma).value(x, y) - y
    off = OffsetRelaxation(law, gamma).value(x, y) - y
    if not auto < one < off:
        raise InputError(f"finite relaxation: the chain {auto} < {one} < {off} is not strict")
    return {"autonomous": format_rational(auto), "one_digit": format_rational(one), "offset": format_rational(off),
            "order": "autonomous < one_digit < offset"}


def dg_relaxation(request):
    source = DiscreteGaussianSource.from_radius_scale(request.sigma2, request.radius, request.scale)
    lam_lo, lam_hi = grid_threshold(request.epsilon, request.denominator)
    bound = request.privacy_bound()
    solver = {"one-digit": OneDigitRelaxation, "offset": OffsetRelaxation}[request.relaxation]
    finite = solver(source.law, request.gamma).value(1, lam_lo)
    b = (1 + lam_hi) * (1 - (1 - source.tau) ** (2 * BUDGET))
    v = finite - lam_lo
    lower, upper = v - (lam_hi - lam_lo) - b, v + b
    _check_separated(upper_end(bound), request.separator, lower, f"{request.relaxation} relaxation")
    return {"source": source_claims(source),
            "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(lam_hi)},
            "finite_value": format_rational(finite), "transfer": format_rational(b),
            "relaxation_interval": _interval(lower, upper), "privacy_bound": bound}


def offset_event(request):
    bound = request.privacy_bound()
    atoms, payoff = events.offset_event(request.sigma2, request.epsilon, request.low, request.high)
    _check_separated(upper_end(bound), request.separator, payoff.lo, "offset event")
    return {"program": {"x_P": [0, 0], "x_Q": [1, 1], "offsets": "s_1 = 0, s_2 = (1 - Y_1) mod 3",
                        "coordinates": "f1 = Y_1 - 1, f2 = Y_2 - 1 + ceil(f1/3)"},
            "atoms": [list(a) for a in sorted(atoms)], "count": len(atoms), "payoff": _interval(payoff.lo, payoff.hi),
            "privacy_bound": bound}


def binary_pair(request):
    bound = request.privacy_bound()
    payoff = events.binary_pair_payoff(request.p, request.q, request.epsilon)
    _check_separated(upper_end(bound), request.separator, payoff.lo, "binary pair")
    d_inf = renyi.round_to(renyi.binary_d_infinity_upper(request.p, request.q), 15, +1)
    return {"payoff": _interval(payoff.lo, payoff.hi), "privacy_bound": bound,
            "d_infinity_upper": format_rational(d_inf), "d_infinity_display": decimal_outward(d_inf, 15, +1)}


def renyi_cover(request):
    layers, bands, top = renyi.cover(request.sigma2, request.p, request.q, request.scale, request.low, request.high)
    for left, right, lower, upper in bands:
        if not upper < lower:
            raise InputError(f"renyi cover: band [{left}, {right}] is not covered ({upper} >= {lower})")
    order, top_lower, top_dinf = top
    if not top_dinf < top_lower:
        raise InputError("renyi cover: the order-16 bound does not exceed D_∞ of the binary pair")
    return {"layers": [{"d": d, "j": j, "p": [[str(int(x)) for x in row] for row in P],
                        "q": [[str(int(x)) for x in row] for row in Q]} for d, j, P, Q in layers],
            "bands": [{"left": format_rational(l), "right": format_rational(r),
                       "lower": format_rational(lo), "upper": format_rational(up)}
                      for l, r, lo, up in bands],
            "top": {"order": format_rational(order), "lower": format_rational(top_lower),
                    "d_infinity_upper": format_rational(top_dinf),
                    "lower_display": decimal_outward(top_lower, renyi.TOP_DIGITS, -1)}}


REQUESTS = {"finite-relaxation": FiniteRelaxationRequest, "dg-relaxation": DgRelaxationRequest,
            "offset-event": OffsetEventRequest, "binary-pair": BinaryPairRequest, "renyi-cover": RenyiCoverRequest}
BUILDERS = {"finite-relaxation": finite_relaxation, "dg-relaxation": dg_relaxation,
            "offset-event": offset_event, "binary-pair": binary_pair, "renyi-cover": renyi_cover}


def build(request, progress=None):
    """The separation certificate of ``request`` (quick enough for no progress lines)."""
    return make_certificate(KIND, VERSION, request.as_json(), BUILDERS[request.CLAIM](request))


S24, N30 = 10 ** 24, 10 ** 30
REFERENCES = [
    ("separation-finite-relaxation-121-g1_3.json",
     dict(claim="finite-relaxation", law=([1, 2, 1], -1), gamma="1/3", x=mpq(1), y=mpq(1, 2))),
    ("separation-one-digit-dg-c2-eps2.json",
     dict(claim="dg-relaxation", relaxation="one-digit", gamma="1/3", sigma2=mpq(9), epsilon=mpq(2),
          radius=24, scale=S24, denominator=N30, separator=mpq(423, 5000000))),
    ("separation-offset-dg-c2-eps2.json",
     dict(claim="dg-relaxation", relaxation="offset", gamma="1/3", sigma2=mpq(9), epsilon=mpq(2),
          radius=24, scale=S24, denominator=N30, separator=mpq(1, 10000))),
    ("separation-offset-event-eps2.json",
     dict(claim="offset-event", sigma2=mpq(9), epsilon=mpq(2), low=-20, high=20, radius=24, scale=S24,
          separator=mpq(1, 10000))),
    ("separation-binary-pair-eps2.json",
     dict(claim="binary-pair", gamma="1/3", p=mpq(23, 10000), q=mpq(27, 100000), epsilon=mpq(2), sigma2=mpq(9),
          radius=24, scale=S24, separator=mpq(1, 10000))),
    ("separation-renyi-cover.json",
     dict(claim="renyi-cover", sigma2=mpq(9), p=mpq(23, 10000), q=mpq(27, 100000), scale=10 ** 18,
          low=-24, high=24)),
]


# "claim" or "claim:relaxation" -> the published fields (what `producer separation --claim` offers)
PUBLISHED = {fields["claim"] + (":" + fields["relaxation"] if "relaxation" in fields else ""): fields
             for _, fields in REFERENCES}
PUBLISHED_CLAIMS = tuple(sorted(PUBLISHED))


def build_reference(fields):
    fields = dict(fields)
    return build(Request.of(fields.pop("claim"), **fields))


def _privacy_upper(res):
    return up(res["privacy_bound"]["result"]["interval"]["upper"])


def claim(cert):
    inp, res = cert["input"], cert["result"]
    name = inp["claim"]
    if name == "finite-relaxation":
        return (f"autonomous {show_value(rational(res['autonomous']))[2:]} < one-digit "
                f"{show_value(rational(res['one_digit']))[2:]} < offset {show_value(rational(res['offset']))[2:]} "
                f"at (x, y) = ({show(rational(inp['x']))}, {show(rational(inp['y']))}) for γ = {inp['gamma']}, "
                f"{law_text(inp['law'])}, C = 2 (separation, finite relaxations)")
    if name == "renyi-cover":
        top = res["top"]
        return (f"Rényi lower bounds exceed the binary pair's at every order in "
                f"[{res['bands'][0]['left']}, {res['bands'][-1]['right']}] and at order {top['order']} "
                f"{down(top['lower'])} > D_∞ ≤ {up(top['d_infinity_upper'])} for γ = {inp['gamma']}, σ² = "
                f"{show(rational(inp['sigma2']))}, p = {show(rational(inp['p']))}, q = {show(rational(inp['q']))} "
                f"(separation, Rényi cover)")
    lower = res["relaxation_interval"] if name == "dg-relaxation" else res["payoff"]
    what = {"dg-relaxation": f"{inp.get('relaxation')} relaxation", "offset-event": "offset event",
            "binary-pair": "binary pair"}[name]
    eps = show(rational(inp["epsilon"]))
    return (f"{what} ≥ {down(lower['lower'])} > s = {show(rational(inp['separator']))} > Δ*_2({eps}) ≤ "
            f"{_privacy_upper(res)} for γ = {inp['gamma']}, σ² = {show(rational(inp['sigma2']))}, C = 2, ε = {eps} "
            f"(separation, {name})")
