"""Separations: relaxation recursions against brute force, published values.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.3, §4.1 and Appendices B.1–B.5.)
"""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer.game.values import root_value
from producer.laws import FiniteLaw, Gamma
from producer.lower import events, renyi
from producer.kinds import separation as sep
from producer.lower.relaxations import OffsetRelaxation, OneDigitRelaxation
from tests.producer.kinds.edges import built_edge_verifies, built_refused

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "separation-1.schema.json").read_text())
REFS = dict((name, fields) for name, fields in sep.REFERENCES)


# ---- brute force: the offset class with literal integer states and offsets (the paper's Appendix B.4)

def _nu(law, z):
    return mpq(law.weight(z), law.total)


def brute_offset(law, gamma, c, kp, kq, x, y, depth_echo=2):
    """W by literal play: states (kP, kQ), offsets s chosen freely each step, rows by counting U."""
    if x == 0 or y == 0:
        return x + y
    best = max(x, y)
    if c == 0 and kp == kq:
        return best
    a, B = gamma.a, gamma.B
    for s in range(B):
        for j in (-1, 0, 1):
            if abs(j) > c or (kp == kq and j == 0) or depth_echo == 0 and j == 0:
                continue
            outs = {}
            for world, k in (("P", kp), ("Q", kq)):
                for u in range(B):
                    h = (a * k + u + s) // B
                    for z in range(law.low, law.high + 1):
                        if law.weight(z):
                            # world P's output is shifted by the sign: y = K^P + j
                            yv = z - h + (j if world == "P" else 0)
                            outs.setdefault(yv, [mpq(0), mpq(0)])[0 if world == "P" else 1] += _nu(law, z) / B
            total = mpq(0)
            for yv, (p, q) in outs.items():
                total += brute_offset(law, gamma, c - abs(j), yv - j, yv, x * p, y * q,
                                      depth_echo - (j == 0))
            best = max(best, total)
    return best


small_laws = st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(lambda w: sum(w) > 0)


@settings(max_examples=12, deadline=None)
@given(small_laws, st.sampled_from([Gamma(1, 2), Gamma(1, 3)]), st.sampled_from([mpq(1, 2), mpq(2)]))
def test_offset_recursion_matches_literal_play(weights, gamma, lam):
    law = FiniteLaw(weights, -(len(weights) // 2))
    assert OffsetRelaxation(law, gamma).value(1, lam) == brute_offset(law, gamma, 2, 0, 0, mpq(1), lam)


@settings(max_examples=12, deadline=None)
@given(small_laws, st.sampled_from([Gamma(1, 2), Gamma(1, 3), Gamma(2, 3)]),
       st.sampled_from([mpq(1, 3), mpq(1), mpq(5, 2)]))
def test_relaxation_chain_on_random_laws(weights, gamma, lam):
    law = FiniteLaw(weights, -(len(weights) // 2))
    auto = root_value(law, gamma, 2, 1, lam).value
    one = OneDigitRelaxation(law, gamma).value(1, lam)
    off = OffsetRelaxation(law, gamma).value(1, lam)
    assert auto <= one <= off


def test_published_exact_relaxations():
    cert = sep.build_reference(REFS["separation-finite-relaxation-121-g1_3.json"])
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    assert (r["autonomous"], r["one_digit"], r["offset"]) == ("5/6", "107/128", "965/1152")
    assert mpq(r["one_digit"]) - mpq(r["autonomous"]) == mpq(1, 384)


def _digits(display, n):
    return display[:n]


def test_one_digit_dg_separation():
    cert = sep.build_reference(REFS["separation-one-digit-dg-c2-eps2.json"])
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    lo, hi = mpq(r["relaxation_interval"]["lower"]), mpq(r["relaxation_interval"]["upper"])
    # the paper's Appendix B.5: [8.5171599419016474997e−5, 8.5171599434796337393e−5], inside the published bracket
    assert r["relaxation_interval"]["lower_display"].startswith("0.0000851715994190164749")
    assert mpq(85171599419016474997, 10 ** 24) <= lo and hi <= mpq(85171599434796337393, 10 ** 24)
    assert mpq(84985942152780, 10 ** 18) <= lo and hi <= mpq(85481094193635, 10 ** 18)
    upper = mpq(r["privacy_bound"]["result"]["interval"]["upper"])
    assert upper < mpq(423, 5000000) < lo
    assert lo - upper > mpq(67395, 10 ** 11)


def test_offset_dg_relaxation_interval():
    r = sep.build_reference(REFS["separation-offset-dg-c2-eps2.json"])["result"]
    lo, hi = mpq(r["relaxation_interval"]["lower"]), mpq(r["relaxation_interval"]["upper"])
    assert mpq(15667681204482804028, 10 ** 23) <= lo and hi <= mpq(15667681206060790269, 10 ** 23)
    assert mpq(156515262735100, 10 ** 18) <= lo and hi <= mpq(157204453248391, 10 ** 18)


def test_offset_event_330_atoms():
    cert = sep.build_reference(REFS["separation-offset-event-eps2.json"])
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    assert r["count"] == len(r["atoms"]) == 330
    assert mpq(r["payoff"]["lower"]) >= mpq(118891298210654, 10 ** 18)
    assert mpq(r["privacy_bound"]["result"]["interval"]["upper"]) < mpq(1, 10 ** 4) < mpq(r["payoff"]["lower"])


@pytest.mark.parametrize("weights", [[1, 3, 2, 5], [2, 0, 1], [1, 1, 1, 1, 4]])
def test_offset_event_formula_matches_literal_transcripts(weights):
    law = FiniteLaw(weights, -1)
    literal = events.offset_event_transcripts(law)

    def nu(z):
        return _nu(law, z)

    for f1 in range(-6, 6):
        for f2 in range(-6, 6):
            P, Q = literal.get((f1, f2), (0, 0))
            assert P == nu(f1 + 1) * (mpq(2, 3) * nu(f2 + 1) + mpq(1, 3) * nu(f2 + 2))
            assert Q == nu(f1) * nu(f2)


def test_binary_pair_separation():
    r = sep.build_reference(REFS["separation-binary-pair-eps2.json"])["result"]
    assert mpq(r["payoff"]["lower"]) > mpq(304954853288724, 10 ** 18)
    assert mpq(r["d_infinity_upper"]) < mpq(2142242442919, 10 ** 12)


PUBLISHED_BANDS = [
    "0.05555555 0.00678736", "0.23855697 0.01515136", "0.31820043 0.07444798", "0.47802809 0.29367530",
    "0.63934506 0.46773989", "0.72102910 0.64316711", "0.80378065 0.79840642", "0.88799973 0.86674433",
    "0.93081348 0.92917867", "0.97419258 0.95833010", "0.99611895 0.98619268", "1.01821718 1.01283378",
    "1.04049814 1.03831972", "1.06297295 1.06271478", "1.08565292 1.07452258", "1.09707341 1.08608052",
    "1.10854945 1.10847547", "1.13167394 1.12995490", "1.15503765 1.15057082", "1.17865163 1.17037201",
    "1.20252653 1.18940411", "1.22667246 1.20770977", "1.25109885 1.24229851", "1.30082623 1.27442605",
    "1.35176389 1.33226896", "1.45737977 1.38288860", "1.56789659 1.46725974", "1.80125931 1.58998371",
    "2.28698666 1.73725270"]


def test_renyi_cover_every_printed_digit():
    cert = sep.build_reference(REFS["separation-renyi-cover.json"])
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    assert len(r["bands"]) == 29
    from producer.rationals import decimal_outward
    for band, printed in zip(r["bands"], PUBLISHED_BANDS):
        lower, upper = printed.split()
        assert decimal_outward(mpq(band["lower"]), 8, -1) == lower
        assert decimal_outward(mpq(band["upper"]), 8, +1) == upper
        assert mpq(band["upper"]) < mpq(band["lower"])
    assert r["top"]["lower_display"].startswith("3.158140151588")
    assert mpq(r["top"]["lower"]) > mpq(3158140151588, 10 ** 12)


def test_unrounded_layers_give_a_higher_order_16_bound():
    # the paper's Appendix B.2: without layer rounding D_16 >= 3.158436772333, so S = 10^18 matters
    coarse = renyi.layer_weights(9, mpz(10) ** 18, -24, 24)
    fine = renyi.layer_weights(9, mpz(10) ** 40, -24, 24)
    assert renyi.renyi_lower(fine, mpz(10) ** 40, -24, 16) > mpq(3158436, 10 ** 6) > \
        renyi.renyi_lower(coarse, mpz(10) ** 18, -24, 16)


def test_unknown_claim_is_refused():
    from producer.errors import InputError
    with pytest.raises(InputError, match="unknown claim"):
        sep.Request.of("nonsense")


def _fields(name, **changes):
    fields = dict(REFS[name])
    fields.update(changes)
    return fields


@pytest.mark.parametrize("name", sorted(REFS))
def test_the_input_is_the_typed_question_and_the_result_repeats_none_of_it(name):
    cert = sep.build_reference(REFS[name])
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    assert "parameters" not in inp and inp["claim"] == REFS[name]["claim"]
    assert not set(inp) & set(res), sorted(set(inp) & set(res))
    if "privacy_bound" in res:
        bound = res["privacy_bound"]["input"]
        assert bound == {"gamma": inp["gamma"], "sigma2": inp["sigma2"], "budget": 2, "epsilon": inp["epsilon"],
                         "source": {"radius": inp["radius"], "scale": inp["scale"]}, "method": None}


@pytest.mark.parametrize("name", ["separation-binary-pair-eps2.json", "separation-one-digit-dg-c2-eps2.json"])
def test_a_privacy_bound_for_gamma_zero_is_refused(name):
    from producer.errors import InputError
    with pytest.raises(InputError, match="γ = 0 is plain composition"):
        sep.build_reference(_fields(name, gamma="0"))


def test_the_privacy_bound_is_for_the_claims_gamma(monkeypatch):
    from producer.errors import InputError
    from producer.lower import bounds
    built = bounds.dg_upper_certificate

    def other_gamma(gamma, sigma2, budget, epsilon, radius, scale):
        return built("1/2", sigma2, budget, epsilon, radius, scale)   # a bound for another mechanism

    monkeypatch.setattr(sep, "dg_upper_certificate", other_gamma)
    with pytest.raises(InputError, match="claim's own mechanism"):
        sep.build_reference(REFS["separation-binary-pair-eps2.json"])


def test_the_offset_programs_are_those_of_gamma_one_third():
    from producer.errors import InputError
    with pytest.raises(InputError, match="built for γ = 1/3"):
        sep.build_reference(_fields("separation-offset-event-eps2.json", gamma="1/2"))
    with pytest.raises(InputError, match="built for γ = 1/3"):
        sep.build_reference(_fields("separation-renyi-cover.json", gamma="1/5"))


@pytest.mark.parametrize("name, changes, words", [
    ("separation-finite-relaxation-121-g1_3.json", dict(law=([1] * 81, -40)), "81 atoms"),
    ("separation-finite-relaxation-121-g1_3.json", dict(gamma="1/13"), "denominator 13"),
    ("separation-one-digit-dg-c2-eps2.json", dict(radius=40), "81 atoms"),
    ("separation-offset-event-eps2.json", dict(low=-90, high=91), "33124 atoms"),
    ("separation-renyi-cover.json", dict(low=-200, high=201), "width 401"),
    ("separation-binary-pair-eps2.json", dict(p=1), "(0, 1)"),
])
def test_beyond_the_auditors_separation_limits_is_refused_before_work(name, changes, words):
    from producer.errors import InputError
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        sep.build_reference(_fields(name, **changes))


# ---- the auditor's limits at their edge (docs/certificates.md) ------------------------------


def _separation(claim, **fields):
    from producer.kinds import separation as sep
    return lambda: sep.build(sep.Request.of(claim, **fields))


def test_renyi_box_at_the_limit_verifies_and_beyond_is_refused(tmp_path):
    from gmpy2 import mpq
    args = dict(sigma2=9, p=mpq(23, 10000), q=mpq(27, 100000), scale=10 ** 18)
    built_edge_verifies(_separation("renyi-cover", low=-200, high=200, **args), tmp_path / "edge.json")
    built_refused(_separation("renyi-cover", low=-200, high=201, **args), "width 401 exceeds the auditor's limit 400")


@pytest.mark.slow
def test_offset_event_box_at_the_reader_limit_verifies(tmp_path):
    from gmpy2 import mpq
    built_edge_verifies(_separation("offset-event", sigma2=9, epsilon=2, low=-90, high=90, radius=24, scale=10 ** 24,
                                     separator=mpq(1, 10000)), tmp_path / "edge.json")


def test_offset_event_box_beyond_the_reader_limit_is_refused():
    from gmpy2 import mpq
    built_refused(_separation("offset-event", sigma2=9, epsilon=2, low=-90, high=91, radius=24, scale=10 ** 24,
                               separator=mpq(1, 10000)), "at most 181 columns")


@pytest.mark.slow
def test_finite_relaxation_at_the_auditors_law_limits_verifies(tmp_path):
    from gmpy2 import mpq
    built_edge_verifies(_separation("finite-relaxation", law=([1] * 80, -40), gamma="5/12", x=mpq(1), y=mpq(1, 2)),
                         tmp_path / "edge.json")


def test_finite_relaxation_beyond_the_auditors_law_limits_is_refused():
    from gmpy2 import mpq
    built_refused(_separation("finite-relaxation", law=([1] * 81, -40), gamma="5/12", x=1, y=mpq(1, 2)),
                   "81 atoms exceeds the auditor's limit of 80")
    built_refused(_separation("finite-relaxation", law=([1] * 80, -40), gamma="5/13", x=1, y=mpq(1, 2)),
                   "denominator 13 exceeds the auditor's limit 12")
    built_refused(_separation("dg-relaxation", relaxation="one-digit", gamma="1/3", sigma2=9, epsilon=2, radius=40,
                               scale=10 ** 24, denominator=10 ** 30, separator=mpq(423, 5000000)), "radius <= 39")


def test_separation_limits_are_the_auditors():
    from auditor.checks import separation as audit
    from auditor.lower import renyi as audit_renyi
    from producer.kinds import separation as sep
    assert (sep.MAX_LAW_LENGTH, sep.MAX_GAMMA_DENOMINATOR, sep.MAX_ATOMS, sep.MAX_RENYI_BOX) == \
        (audit.MAX_LAW_LENGTH, audit.MAX_GAMMA_DENOMINATOR, audit.MAX_ATOMS, audit_renyi.MAX_BOX)
    assert sep.MAX_EVENT_BOX ** 2 * 3 + 1000 <= 100_000 < (sep.MAX_EVENT_BOX + 1) ** 2 * 3 + 1000
