"""The ``separation/1`` certificate: a certified lower end strictly above a certified upper end.

Claims (SPEC-lower 7.2–7.4; docs/lower-certificates.md §2):

- ``finite-relaxation``: exact G_2 (privacy value) < G_2^(1) < W(2,0)
  (relaxation values) on a small finite law;
- ``dg-relaxation``: the DG interval of a relaxation (one-digit or offset,
  Coupling A with 4 draws) has its lower end above a separator above the
  upper end of an embedded dg-interval/1 for Δ*_2(ε);
- ``offset-event``: an explicit offset-class event on the exact DG whose payoff
  lower end is above a separator above the Δ*_2(ε) upper end;
- ``binary-pair``: the family-envelope binary pair, likewise, with its D_∞;
- ``renyi-cover``: the 29 bands U_r < L_l of B.2 and the order-16 tail.

The roles are explicit: lower ends of relaxations bound only the
relaxations; upper ends of privacy bounds bound the mechanism.
"""

from functools import lru_cache

from gmpy2 import mpq, mpz

from producer.certificates.canonical import make_certificate
from producer.errors import InputError
from producer.laws import FiniteLaw, Gamma
from producer.lower import events, renyi
from producer.lower.relaxations import OffsetRelaxation, OneDigitRelaxation
from producer.lower.threshold import grid_threshold
from producer.rationals import decimal_outward, format_rational
from producer.sources.discrete_gaussian import DiscreteGaussianSource

KIND, VERSION = "separation", 1
DIGITS = 22
CLAIMS = ("finite-relaxation", "dg-relaxation", "offset-event", "binary-pair", "renyi-cover")


def _interval(lower, upper, digits=DIGITS):
    return {"lower": format_rational(lower), "upper": format_rational(upper),
            "lower_display": decimal_outward(lower, digits, -1),
            "upper_display": decimal_outward(upper, digits, +1)}


def _source_json(source):
    out = source.as_json()
    out["tau"] = format_rational(source.tau)
    return out


@lru_cache(maxsize=4)
def privacy_bound(gamma, sigma2, epsilon, radius, scale):
    """An embedded dg-interval/1 certificate for Δ*_2(ε) (the autonomous upper end)."""
    from producer.certificates.dg_interval import DgRequest, build
    return build(DgRequest(gamma, mpq(sigma2), 2, mpq(epsilon), radius=radius, scale=mpz(scale)))


def _privacy_upper(certificate):
    return mpq(certificate["result"]["interval"]["upper"])


def _check_separated(upper, separator, lower, what):
    if not upper < separator < lower:
        raise InputError(f"{what}: no strict separation: upper {float(upper):.6e}, "
                         f"separator {float(separator):.6e}, lower {float(lower):.6e}")


def finite_relaxation(law_weights, offset, gamma, x, y):
    from producer.game.api import root_value
    law, gamma = FiniteLaw(law_weights, offset), Gamma.from_string(gamma)
    x, y = mpq(x), mpq(y)
    auto = root_value(law, gamma, 2, x, y).value - y
    one = OneDigitRelaxation(law, gamma).value(x, y) - y
    off = OffsetRelaxation(law, gamma).value(x, y) - y
    if not auto < one < off:
        raise InputError(f"finite relaxation: the chain {auto} < {one} < {off} is not strict")
    return {"claim": "finite-relaxation", "law": law.as_json(), "gamma": str(gamma),
            "x": format_rational(x), "y": format_rational(y), "autonomous": format_rational(auto),
            "one_digit": format_rational(one), "offset": format_rational(off),
            "order": "autonomous < one_digit < offset"}


def dg_relaxation(relaxation, gamma, sigma2, epsilon, radius, scale, denominator, separator):
    gamma_ = Gamma.from_string(gamma)
    source = DiscreteGaussianSource.from_radius_scale(mpq(sigma2), radius, mpz(scale))
    lam_lo, lam_hi = grid_threshold(mpq(epsilon), mpz(denominator))
    solver = {"one-digit": OneDigitRelaxation, "offset": OffsetRelaxation}[relaxation]
    finite = solver(source.law, gamma_).value(1, lam_lo)
    b = (1 + lam_hi) * (1 - (1 - source.tau) ** 4)
    v = finite - lam_lo
    lower, upper = v - (lam_hi - lam_lo) - b, v + b
    bound = privacy_bound(gamma, mpq(sigma2), mpq(epsilon), radius, int(scale))
    separator = mpq(separator)
    _check_separated(_privacy_upper(bound), separator, lower, f"{relaxation} relaxation")
    return {"claim": "dg-relaxation", "relaxation": relaxation, "gamma": gamma,
            "sigma2": format_rational(mpq(sigma2)), "epsilon": format_rational(mpq(epsilon)), "budget": 2,
            "source": _source_json(source),
            "threshold": {"lower": format_rational(lam_lo), "upper": format_rational(lam_hi)},
            "finite_value": format_rational(finite), "transfer": format_rational(b),
            "relaxation_interval": _interval(lower, upper), "privacy_bound": bound,
            "separator": format_rational(separator)}


def offset_event(sigma2, epsilon, low, high, radius, scale, separator):
    atoms, payoff = events.offset_event(mpq(sigma2), mpq(epsilon), low, high)
    bound = privacy_bound("1/3", mpq(sigma2), mpq(epsilon), radius, int(scale))
    separator = mpq(separator)
    _check_separated(_privacy_upper(bound), separator, payoff.lo, "offset event")
    return {"claim": "offset-event", "gamma": "1/3", "sigma2": format_rational(mpq(sigma2)),
            "epsilon": format_rational(mpq(epsilon)),
            "program": {"x_P": [0, 0], "x_Q": [1, 1], "offsets": "s_1 = 0, s_2 = (1 - Y_1) mod 3",
                        "coordinates": "f1 = Y_1 - 1, f2 = Y_2 - 1 + ceil(f1/3)"},
            "box": {"low": low, "high": high}, "atoms": [list(a) for a in sorted(atoms)],
            "count": len(atoms), "payoff": _interval(payoff.lo, payoff.hi),
            "privacy_bound": bound, "separator": format_rational(separator)}


def binary_pair(p, q, epsilon, sigma2, radius, scale, separator):
    payoff = events.binary_pair_payoff(mpq(p), mpq(q), mpq(epsilon))
    bound = privacy_bound("1/3", mpq(sigma2), mpq(epsilon), radius, int(scale))
    separator = mpq(separator)
    _check_separated(_privacy_upper(bound), separator, payoff.lo, "binary pair")
    d_inf = renyi.round_to(renyi.binary_d_infinity_upper(mpq(p), mpq(q)), 15, +1)
    return {"claim": "binary-pair", "p": format_rational(mpq(p)), "q": format_rational(mpq(q)),
            "epsilon": format_rational(mpq(epsilon)), "payoff": _interval(payoff.lo, payoff.hi),
            "privacy_bound": bound, "separator": format_rational(separator),
            "d_infinity_upper": format_rational(d_inf), "d_infinity_display": decimal_outward(d_inf, 15, +1)}


def renyi_cover(sigma2, p, q, scale, low, high):
    layers, bands, top = renyi.cover(mpq(sigma2), mpq(p), mpq(q), mpz(scale), low, high)
    for left, right, lower, upper in bands:
        if not upper < lower:
            raise InputError(f"renyi cover: band [{left}, {right}] is not covered ({upper} >= {lower})")
    order, top_lower, top_dinf = top
    if not top_dinf < top_lower:
        raise InputError("renyi cover: the order-16 bound does not exceed D_∞ of the binary pair")
    return {"claim": "renyi-cover", "sigma2": format_rational(mpq(sigma2)), "gamma": "1/3",
            "p": format_rational(mpq(p)), "q": format_rational(mpq(q)),
            "layer_scale": str(int(scale)), "box": {"low": low, "high": high},
            "layers": [{"d": d, "j": j, "p": [[str(int(x)) for x in row] for row in P],
                        "q": [[str(int(x)) for x in row] for row in Q]} for d, j, P, Q in layers],
            "bands": [{"left": format_rational(l), "right": format_rational(r),
                       "lower": format_rational(lo), "upper": format_rational(up)}
                      for l, r, lo, up in bands],
            "top": {"order": format_rational(order), "lower": format_rational(top_lower),
                    "d_infinity_upper": format_rational(top_dinf),
                    "lower_display": decimal_outward(top_lower, renyi.TOP_DIGITS, -1)}}


BUILDERS = {"finite-relaxation": finite_relaxation, "dg-relaxation": dg_relaxation,
            "offset-event": offset_event, "binary-pair": binary_pair, "renyi-cover": renyi_cover}


def _json_parameters(parameters):
    out = {}
    for key, value in sorted(parameters.items()):
        if isinstance(value, (list, tuple)):
            out[key] = [str(v) for v in value]
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
        else:
            out[key] = format_rational(value) if not isinstance(value, str) else value
    return out


def build(claim, **parameters):
    """The separation certificate of ``claim`` with the builder's parameters."""
    if claim not in BUILDERS:
        raise InputError(f"separation: unknown claim {claim!r} (known: {', '.join(CLAIMS)})")
    result = BUILDERS[claim](**parameters)
    return make_certificate(KIND, VERSION, {"claim": claim, "parameters": _json_parameters(parameters)}, result)


S24, N30 = 10 ** 24, 10 ** 30
REFERENCES = [
    ("separation-finite-relaxation-121-g1_3.json",
     dict(claim="finite-relaxation", law_weights=[1, 2, 1], offset=-1, gamma="1/3", x=mpq(1), y=mpq(1, 2))),
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
     dict(claim="binary-pair", p=mpq(23, 10000), q=mpq(27, 100000), epsilon=mpq(2), sigma2=mpq(9),
          radius=24, scale=S24, separator=mpq(1, 10000))),
    ("separation-renyi-cover.json",
     dict(claim="renyi-cover", sigma2=mpq(9), p=mpq(23, 10000), q=mpq(27, 100000), scale=10 ** 18,
          low=-24, high=24)),
]


def build_reference(fields):
    fields = dict(fields)
    return build(fields.pop("claim"), **fields)
