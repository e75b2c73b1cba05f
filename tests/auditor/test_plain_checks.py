"""The auditor on γ = 0 (plain composition) and on the discrete Laplace source.

docs/plain-composition.md.  Reference certificates are made by the producer
CLI (a separate process); the auditor must verify them, every mutated number
must be rejected, γ = 0 game values must equal a brute-force adaptive
composition, and the Laplace enclosures must contain mpmath's values.
"""

import copy
import json
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.game import rows, values
from auditor.api import verify_certificate
from auditor.certificate import digest
from auditor import common
from auditor.enclosures import laplace
from auditor.outcomes import FAIL, MALFORMED, OK, UNCHECKED, MalformedInput
from tests.auditor.verdicts import only_unproved
from tests.reference_game import ReferenceGame

mpmath.mp.prec = 800


def produce(*args):
    out = subprocess.run([sys.executable, "-m", "producer", *args, "-o", "-", "--quiet"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


REQUESTS = {
    "dg-gauss": ("dg", "--gamma", "0", "--sigma2", "9", "--budget", "2", "--epsilon", "2", "--width", "1e-14"),
    "dg-laplace": ("dg", "--gamma", "0", "--laplace", "2", "--budget", "2", "--epsilon", "1",
                   "--width", "1e-6"),
    "dg-laplace-feedback": ("dg", "--gamma", "1/3", "--laplace", "3/2", "--budget", "1", "--epsilon", "1/2",
                            "--radius", "6", "--scale", "4096"),
    "cal-gauss": ("calibrate", "--gamma", "0", "--sigma2", "9", "--budget", "2", "--delta", "1/10000",
                  "--width", "1/100", "--method", "reduced"),   # the game route (without --method: product pair)
    "cal-laplace": ("calibrate", "--gamma", "0", "--laplace", "2", "--budget", "2", "--delta", "1/10000",
                    "--width", "1/100", "--method", "reduced"),
    "game": ("game", "--gamma", "0", "--weights", "1,3,2,1", "--offset", "-1", "--budget", "3",
             "--threshold", "2", "--point", "1/2,3", "--curve"),
    "game-pending": ("game", "--gamma", "0", "--weights", "2,1,1", "--offset", "-1", "--budget", "2",
                     "--threshold", "1", "--pending", "1,0"),
}


@pytest.fixture(scope="module")
def certs():
    return {name: produce(*args) for name, args in REQUESTS.items()}


def reseal(cert):
    """Recompute the digests, innermost first (embedded witnesses carry their own)."""
    for value in cert.values():
        if isinstance(value, dict):
            for inner in value.values():
                if isinstance(inner, dict) and "digest" in inner and "kind" in inner:
                    inner["digest"] = digest(inner)
    cert["digest"] = digest(cert)
    return cert


def status(cert):
    return verify_certificate(cert).status


# ---- the references verify ---------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_reference_certificates_verify(certs, name):
    report = verify_certificate(certs[name])
    assert report.status == OK, report.failures or report.error
    assert "gamma = " in report.claim


def test_plain_dg_value_is_certified_within_1e_14(certs):
    """Issue 13's 'done when': σ² = 9, C = 2, ε = 2, γ = 0, width <= 10^-14."""
    iv = certs["dg-gauss"]["result"]["interval"]
    assert Fraction(iv["upper"]) - Fraction(iv["lower"]) <= Fraction(1, 10**14)
    assert Fraction(iv["lower"]) > 0


def test_summaries_name_the_law_and_gamma(certs):
    assert "discrete Laplace t = 2" in verify_certificate(certs["dg-laplace"]).claim
    assert "(discrete Laplace)" in verify_certificate(certs["dg-laplace"]).claim
    assert "discrete Laplace t = 2" in verify_certificate(certs["cal-laplace"]).claim
    assert "gamma = 0, sigma^2 = 9" in verify_certificate(certs["dg-gauss"]).claim


# ---- γ: the single canonical form "0" ------------------------------------------------------

@pytest.mark.parametrize("text", ["0/1", "-0", "0/5", "00", "0.0", "1/1", "1"])
def test_gamma_non_canonical_zero_is_malformed(text):
    with pytest.raises(MalformedInput):
        common.gamma(text, "/input/gamma")


def test_gamma_zero_reads_as_a0_B1():
    assert common.gamma("0", "/input/gamma") == (0, 1)
    assert common.gamma("1/3", "/input/gamma") == (1, 3)


@pytest.mark.parametrize("name", ["game", "dg-gauss", "dg-laplace", "cal-laplace"])
@pytest.mark.parametrize("text", ["0/1", "-0"])
def test_certificate_with_gamma_0_over_1_is_malformed(certs, name, text):
    cert = copy.deepcopy(certs[name])
    cert["input"]["gamma"] = text
    for w in ("upper_witness", "lower_witness"):
        if cert["result"].get(w):
            cert["result"][w]["input"]["gamma"] = text
    assert status(reseal(cert)) == MALFORMED


# ---- B = 1: rows and the game --------------------------------------------------------------

@given(st.lists(st.integers(0, 5), min_size=1, max_size=5).filter(any), st.integers(-3, 3),
       st.integers(-50, 50))
def test_rows_at_gamma_zero_are_the_law(weights, offset, k):
    """a = 0, B = 1: count(0, h) = [h = 0], so row_k = ν for every state k."""
    assert rows.count(0, 0, 1) == 1 and rows.count(0, 1, 1) == 0 and rows.count(0, -1, 1) == 0
    expected = {offset + i: w for i, w in enumerate(weights) if w}
    assert rows.row(weights, offset, 0, 1, k) == expected
    law = rows.Law(weights, offset, 0, 1)
    assert law.D == sum(weights)
    m, f = law.shifted_row(k)
    assert m == 0 and f == expected


def adaptive_composition(nu, budget, x, y):
    """Brute force: V_c(x, y) = max(x, y, max_j Σ_n V_{c−1}(x·ν(n − j), y·ν(n))), j = ±1.

    The analyst stops or spends one participation on a sign chosen from the past
    (an echo, P = Q = ν, is uninformative: by homogeneity it leaves V unchanged).
    """
    support = sorted(nu)

    @lru_cache(maxsize=None)
    def V(c, x, y):
        best = max(x, y)
        if c == 0 or x == 0 or y == 0:
            return best
        for j in (1, -1):
            outputs = set(support) | {z + j for z in support}
            total = sum((V(c - 1, x * nu.get(n - j, 0), y * nu.get(n, 0)) for n in outputs), Fraction(0))
            best = max(best, total)
        return best

    return V(budget, Fraction(x), Fraction(y))


laws = st.tuples(st.lists(st.integers(0, 4), min_size=1, max_size=3).filter(any), st.integers(-2, 1))
thresholds = st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=6)


@settings(max_examples=40, deadline=None)
@given(laws, st.integers(0, 3), thresholds)
def test_gamma_zero_game_is_adaptive_composition(law, budget, y):
    weights, offset = law
    S = sum(weights)
    nu = {offset + i: Fraction(w, S) for i, w in enumerate(weights) if w}
    expected = adaptive_composition(nu, budget, 1, y)
    assert values.root_value(rows.Law(weights, offset, 0, 1), budget, Fraction(1), y) == expected
    assert ReferenceGame(weights, offset, 0, 1).G(budget, 1, y) == expected
    if budget >= 1:  # any preparation k attains the same (rows do not depend on k)
        best = max(values.root_action_value(rows.Law(weights, offset, 0, 1), budget, Fraction(1), y, k, j)
                   for j in (1, -1) for k in (0, 5))
        assert max(best, max(Fraction(1), y)) == expected


@settings(max_examples=15, deadline=None)
@given(laws, st.integers(1, 2))
def test_gamma_zero_curve_is_adaptive_composition(law, budget):
    weights, offset = law
    S = sum(weights)
    nu = {offset + i: Fraction(w, S) for i, w in enumerate(weights) if w}
    curve = values.root_curve(rows.Law(weights, offset, 0, 1), budget)
    for y in (Fraction(1, 3), Fraction(1), Fraction(5, 2)):
        assert max(A + y * Bq for A, Bq in curve) == adaptive_composition(nu, budget, 1, y)


# ---- the discrete Laplace enclosures against mpmath ----------------------------------------

def mp_of(q):
    return mpmath.mpf(q.numerator) / q.denominator


def mp_r(t):
    return mpmath.exp(-1 / mp_of(Fraction(t)))


def assert_encloses(lo, hi, true, bits):
    slack = abs(true) * mpmath.mpf(2) ** -700
    assert mp_of(lo) <= true + slack and true - slack <= mp_of(hi)
    assert mp_of(hi - lo) <= abs(true) * mpmath.mpf(2) ** -(bits - 12)


SCALES = [Fraction(1, 1000), Fraction(1, 3), Fraction(1), Fraction(5, 2), Fraction(7), Fraction(1000)]


@pytest.mark.parametrize("t", SCALES)
def test_ratio_and_centre_against_mpmath(t):
    r = mp_r(t)
    bits = 100
    lo, hi = laplace.ratio_bounds(t, bits)
    assert_encloses(lo, hi, r, bits)
    lo, hi = laplace.centre_bounds(t, bits)
    assert_encloses(lo, hi, (1 - r) / (1 + r), bits)


@pytest.mark.parametrize("t", [Fraction(1, 3), Fraction(1), Fraction(5, 2), Fraction(40)])
def test_closed_form_normaliser_against_a_direct_sum(t):
    """Σ_n r^{|n|} = (1 + r)/(1 − r) and the tail 2r^{L+1}/(1 + r): mpmath sums them directly."""
    r = mp_r(t)
    direct = 1 + 2 * mpmath.nsum(lambda n: r ** n, [1, mpmath.inf])
    assert abs(direct - (1 + r) / (1 - r)) < mpmath.mpf(10) ** -150 * direct
    for L in (0, 3, 17):
        tail = 2 * mpmath.nsum(lambda n: r ** n * (1 - r) / (1 + r), [L + 1, mpmath.inf])
        lo, hi = laplace.tail_bounds(L, t, 100)
        assert mp_of(lo) <= tail * (1 + mpmath.mpf(10) ** -100) and tail * (1 - mpmath.mpf(10) ** -100) <= mp_of(hi)


@pytest.mark.parametrize("t", SCALES)
@pytest.mark.parametrize("n", [0, 1, -1, 5, 40, -333])
def test_atoms_against_mpmath(t, n):
    r = mp_r(t)
    bits = 90
    lo, hi = laplace.atom_bounds(n, t, bits)
    assert_encloses(lo, hi, r ** abs(n) * (1 - r) / (1 + r), bits)


def test_certificate_atoms_and_tau_against_mpmath(certs):
    """Independently of the auditor: every weight below S·L_t(n), and τ >= ν(0) − L_t(0)."""
    for name in ("dg-laplace", "dg-laplace-feedback"):
        res = certs[name]["result"]
        src = res["source"]
        t = Fraction(src["noise"]["t"])
        r = mp_r(t)
        S, L = int(src["scale"]), src["radius"]
        weights = [int(w) for w in src["weights"]]
        for i, w in enumerate(weights):
            n = i - L
            if n:
                assert w <= S * r ** abs(n) * (1 - r) / (1 + r)
        assert mp_of(Fraction(res["tau"])) >= mpmath.mpf(weights[L]) / S - (1 - r) / (1 + r)


# ---- false claims, undecided claims and limits --------------------------------------------

def failing_pointers(cert):
    report = verify_certificate(cert)
    return report.status, {f["pointer"] for f in report.failures}


def test_atom_above_its_laplace_mass_fails(certs):
    cert = copy.deepcopy(certs["dg-laplace-feedback"])
    src = cert["result"]["source"]
    L = src["radius"]
    w = [int(x) for x in src["weights"]]
    w[L + 1] += 40  # move mass from the centre to n = 1: the sum S is kept
    w[L] -= 40
    src["weights"] = [str(x) for x in w]
    got, where = failing_pointers(reseal(cert))
    assert got == FAIL and f"/result/source/weights/{L + 1}" in where


def test_tau_below_tv_fails(certs):
    cert = copy.deepcopy(certs["dg-laplace"])
    res = cert["result"]
    tau = Fraction(res["tau"])
    res["tau"] = str(tau / 2)
    got, where = failing_pointers(reseal(cert))
    assert got == FAIL and "/result/tau" in where


def test_undecided_enclosure_is_not_established(certs, monkeypatch):
    """An enclosure too wide to decide at both precisions: not established (a FAIL), never OK or UNCHECKED."""
    real = laplace.atom_bounds
    monkeypatch.setattr(laplace, "atom_bounds", lambda n, t, bits=128, centre=None: (Fraction(0), Fraction(1)))
    only_unproved(verify_certificate(certs["dg-laplace-feedback"]))
    monkeypatch.setattr(laplace, "atom_bounds", real)
    assert status(certs["dg-laplace-feedback"]) == OK


@pytest.mark.parametrize("t, expected", [("1/100000", UNCHECKED), ("0", MALFORMED)])
def test_laplace_scale_limits_and_domain(certs, t, expected):
    cert = copy.deepcopy(certs["dg-laplace-feedback"])
    cert["input"]["noise"]["t"] = t
    cert["result"]["source"]["noise"]["t"] = t
    assert status(reseal(cert)) == expected


def test_laplace_envelope_below_2c_over_t_fails(certs):
    cert = copy.deepcopy(certs["cal-laplace"])
    res = cert["result"]
    budget, t = cert["input"]["budget"], Fraction(cert["input"]["noise"]["t"])
    assert Fraction(res["envelope"]) >= 2 * budget / t
    res["envelope"] = str(Fraction(res["epsilon_hi"]))  # still >= ε_hi, but below 2C/t
    got, where = failing_pointers(reseal(cert))
    assert got == FAIL and where == {"/result/envelope"}


def test_witness_with_another_noise_fails(certs):
    cert = copy.deepcopy(certs["cal-laplace"])
    cert["result"]["upper_witness"]["input"]["noise"]["t"] = "3"
    got, where = failing_pointers(reseal(cert))
    assert got == FAIL and "/result/upper_witness/input/noise" in where


def test_gaussian_certificate_with_a_noise_in_its_source_fails(certs):
    cert = copy.deepcopy(certs["dg-gauss"])
    cert["result"]["source"]["noise"] = {"family": "discrete-laplace", "t": "2"}
    assert status(reseal(cert)) in (FAIL, MALFORMED)


def test_requested_width_and_delta_are_checked(certs):
    """The inequality fields moved across their boundary: width = the interval's, δ = a witness end."""
    cert = copy.deepcopy(certs["dg-laplace"])
    cert["input"]["source"]["width"] = cert["result"]["interval"]["width"]
    assert failing_pointers(reseal(cert)) == (FAIL, {"/result/interval/width"})
    cal = certs["cal-laplace"]
    cert = copy.deepcopy(cal)
    cert["input"]["width"] = str(Fraction(cal["result"]["epsilon_hi"]) - Fraction(cal["result"]["epsilon_lo"]))
    assert failing_pointers(reseal(cert)) == (FAIL, {"/result/epsilon_hi"})
    cert = copy.deepcopy(cal)
    cert["input"]["delta"] = cal["result"]["lower_witness"]["result"]["interval"]["lower"]
    assert failing_pointers(reseal(cert)) == (FAIL, {"/result/lower_witness/result/interval/lower"})
    cert = copy.deepcopy(cal)
    up = Fraction(cal["result"]["upper_witness"]["result"]["interval"]["upper"])
    cert["input"]["delta"] = str(up / 2)
    status_, where = failing_pointers(reseal(cert))
    assert status_ == FAIL and "/result/upper_witness/result/interval/upper" in where


# ---- every number mutated is rejected ------------------------------------------------------

def number_paths(node, prefix=()):
    """Paths to every number: JSON integers and rational or decimal strings (not the digest)."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        path = prefix + (key,)
        if key in ("digest", "kind", "family", "action", "status", "method", "producer"):
            continue
        if isinstance(value, (dict, list)):
            out += number_paths(value, path)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            out.append(path)
        elif isinstance(value, str):
            try:
                Fraction(value)
                out.append(path)
            except ValueError:
                pass
    return out


def bumped(value, direction):
    """The number moved slightly up (+1) or down (−1), in the same written form."""
    if isinstance(value, int):
        return value + direction
    if "/" not in value and "." in value:  # a decimal display: change its last digit
        places = len(value.split(".")[1])
        return str(common.outward_decimal(Fraction(value) + Fraction(direction, 10 ** places), places, -1))
    q = Fraction(value)
    changed = q + Fraction(direction, 2 * q.denominator)
    return f"{changed.numerator}/{changed.denominator}" if changed.denominator != 1 else str(changed.numerator)


def at(cert, path):
    for key in path[:-1]:
        cert = cert[key]
    return cert


def still_true(path, direction):
    """Mutations after which the claim is still true (so OK is right), with the reason.

    - a witness ``k`` at γ = 0: every preparation gives the same value (rows do not depend on k);
    - a changed requested width (``input/source/width``, the calibration's ``input/width``) or
      the calibration's δ: these are inequalities (width < W; the witnesses' ends against δ)
      that a small change may keep true; :func:`test_requested_width_and_delta_are_checked`
      moves them across the boundary instead;
    - a larger calibration envelope: E >= 2C/t and ε_hi <= E still hold;
    - ``queries``: a count of the producer's work, not a claim.
    - a finite-game law's ``offset`` and the ``pending`` states at γ = 0: a shift of ν leaves
      every shift experiment ν(· − j) against ν the same, and rows do not depend on the state.
    """
    keys = [k for k in path if isinstance(k, str)]
    if keys[-1] == "k" and "witness" in keys:
        return True
    if keys in (["input", "law", "offset"], ["input", "pending"]):
        return True
    if keys[-1] == "queries":
        return True
    if keys[-1] == "width" and keys[-2] in ("source", "input"):
        return True
    if keys == ["input", "delta"]:
        return True
    return keys == ["result", "envelope"] and direction > 0


def mutants(cert):
    for path in number_paths(cert):
        for direction in (1, -1):
            if still_true(path, direction):
                continue
            m = copy.deepcopy(cert)
            parent = at(m, path)
            parent[path[-1]] = bumped(parent[path[-1]], direction)
            yield path, direction, reseal(m)


@pytest.mark.parametrize("name", ["dg-laplace-feedback", "dg-laplace", "game", "game-pending"])
def test_every_mutated_number_is_rejected(certs, name):
    survivors = [(path, d) for path, d, m in mutants(certs[name]) if status(m) == OK]
    assert not survivors


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dg-gauss", "cal-gauss", "cal-laplace"])
def test_every_mutated_number_is_rejected_large(certs, name):
    survivors = [(path, d) for path, d, m in mutants(certs[name]) if status(m) == OK]
    assert not survivors


PLAIN_REFERENCES = sorted((Path(__file__).resolve().parents[2] / "certificates" / "plain").glob("*.json"))


@pytest.mark.parametrize("path", PLAIN_REFERENCES, ids=lambda p: p.name)
def test_plain_reference_files_verify(path):
    from auditor.checks import checker_for
    kind = json.loads(path.read_text(encoding="utf-8"))["schema"].split("/")[0]
    if checker_for(kind) is None:
        pytest.skip(f"{kind} checks are not in this auditor yet (they arrive with the auditor branch)")
    report = verify_certificate(path.read_bytes(), name=path.name)
    assert report.status == OK, report.failures or report.error


def test_with_r_the_first_level_is_sized_from_the_claims_not_the_floor_w():
    """The default widths: W = 10^-60 is a floor beside R = 1/1000.  A point meeting R at δ ≈ 10^-5 (the
    releases bracket's upper witness, resealed with both widths) starts at far fewer bits than W alone asks
    (208), and still verifies; a point meeting only W ([0, 4.8e-386]) starts from its own claimed width."""
    from auditor.checks import plain_composition as pc
    from auditor.report import Report
    root = Path(__file__).resolve().parents[2] / "certificates" / "plain"
    bracket = json.loads((root / "epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json").read_text())
    witness = bracket["result"]["upper_witness"]
    witness["input"].update(width="1/1" + "0" * 60, rel_width="1/1000")
    witness["digest"] = digest(witness)
    default = json.loads((root / "plain-composition-dg-sigma2_9-c1-eps20-default.json").read_text())
    for cert, at_most in ((witness, 100), (default, 2000)):
        p = pc.parse(cert)
        claims = [c for c in pc._check_shape(cert, p, Report("")) if pc.OPEN in c["sides"].values()]
        assert pc.MIN_BITS <= pc._first_bits(p, claims) <= at_most
        assert verify_certificate(cert).status == OK
    assert pc._first_bits(pc.parse(default), claims) > pc._bits_for(pc.MIN_WIDTH)   # what W decides, not R
