"""The pairs' single-step bucket masses (auditor/pld/pairs.py, families.py, bounded.py, roots.py) against mpmath.

For every family of docs/accounting.md §4 the auditor's enclosures of P(I_i), Q(I_i) and of the tails must contain
the masses :mod:`tests.auditor.accounting_reference` computes independently (closed forms, mpmath's root finder,
exact atoms), and be narrow; the single-step arrays must bound one step's δ(ε) of both orders from above and
below (connect-the-dots above, bucket-index events below).
"""

from fractions import Fraction

import mpmath
import pytest

from auditor.certificate import Malformed
from auditor.checks import accounting
from auditor.pld import answer, bounded, families, masses, pairs, roots
from auditor.pld.composition import Array
from tests.auditor import accounting_reference as ref
from tests.auditor.accounting_reference import mp

ORDERS = ("forward", "backward")
POINTER = "/result/discretisation/ranges/0"


def _level(i, N):
    return Fraction(i, N)


def _check_masses(pair, law, N, lo, hi, W=140, every=1, accurate=120, narrow=None):
    """Every ``every``-th bucket, the last one and both tails contain the reference masses, each enclosure narrower
    than 2^−``accurate`` (``narrow`` units of 2^−Wt when given); returns the widest."""
    Wt, p_list, q_list, (p_low, q_low), (p_high, q_high) = pair.bucket_masses(N, lo, hi, W, POINTER)
    narrow = narrow or 2 ** (Wt - accurate)
    assert len(p_list) == len(q_list) == hi - lo
    scale = mpmath.mpf(2) ** Wt
    widest = 0

    def inside(enclosure, true, what):
        nonlocal widest
        assert enclosure[0] / scale <= true <= enclosure[1] / scale, (what, enclosure, true * scale)
        widest = max(widest, enclosure[1] - enclosure[0])

    for k in sorted(set(range(0, hi - lo, every)) | {hi - lo - 1}):
        y1, y2 = _level(lo + k, N), _level(lo + k + 1, N)
        inside(p_list[k], ref.bucket_mass(law, y1, y2, "P"), ("P", lo + k))
        inside(q_list[k], ref.bucket_mass(law, y1, y2, "Q"), ("Q", lo + k))
    inside(p_low, ref.bucket_mass(law, None, _level(lo, N), "P"), "P low")
    inside(q_low, ref.bucket_mass(law, None, _level(lo, N), "Q"), "Q low")
    inside(p_high, ref.bucket_mass(law, _level(hi, N), None, "P"), "P high")
    inside(q_high, ref.bucket_mass(law, _level(hi, N), None, "Q"), "Q high")
    assert widest < narrow, widest
    return widest


# ---- the Gaussian families ------------------------------------------------------------------------------------

@pytest.mark.parametrize("q, sigma, N, lo, hi", [
    pytest.param(Fraction(1, 10), Fraction(3, 2), 50, -300, 300, marks=pytest.mark.slow),
    pytest.param(Fraction(1, 2), Fraction(1, 2), 40, -400, 380, marks=pytest.mark.slow),
    (Fraction(1, 100), Fraction(1, 10), 4, -200, 200),      # c = e^{−50}: t's factor 1/c is 2^72
    (Fraction(9, 10), Fraction(40), 2000, -10, 12),
])
def test_replace_one_gaussian_masses(q, sigma, N, lo, hi):
    pair = families.gaussian(sigma, q, families.REPLACE)
    assert isinstance(pair, families.ReplaceGaussian)
    _check_masses(pair, ref.replace_gaussian(q, sigma), N, lo, hi, W=140 + pair.guard_bits(), every=7)


def test_replace_one_unsampled_gaussian_is_the_gaussian_of_half_the_noise():
    """N(1, σ²) against N(−1, σ²): the add/remove pair of noise σ/2 and q = 1 (the same loss at every output)."""
    pair = families.gaussian(Fraction(3), Fraction(1), families.REPLACE)
    assert isinstance(pair, pairs.SampledGaussian) and (pair.q, pair.sigma) == (1, Fraction(3, 2))
    s = mp(3)
    law = ref.Law(lambda y: s * s * y / 2, lambda x: ref.Phi((x - 1) / s), lambda x: ref.Phi((x + 1) / s))
    _check_masses(pair, law, 20, -100, 100, every=11)


@pytest.mark.parametrize("sigma, sensitivities, probabilities, q, N, lo, hi", [
    (Fraction(1), ["1", "2"], ["1/2", "1/2"], Fraction(1, 4), 40, -12, 240),
    (Fraction(1, 2), ["0", "1/2", "3"], ["1/5", "2/5", "2/5"], Fraction(1), 20, -33, 200),
    (Fraction(5), ["1/2", "1", "3"], ["1/3", "1/3", "1/3"], Fraction(1), 100, -60, 60),   # no weight at Δ = 0
    (Fraction(1, 10), ["50", "100"], ["1/2", "1/2"], Fraction(1, 2), 10, -7, 120),         # d = 500 and 1000
])
def test_mixture_masses(sigma, sensitivities, probabilities, q, N, lo, hi):
    pair = families.mixture(sigma, [Fraction(d) for d in sensitivities], [Fraction(p) for p in probabilities], q)
    assert isinstance(pair, families.GaussianMixture)
    law = ref.mixture(sigma, [Fraction(d) for d in sensitivities], [Fraction(p) for p in probabilities], q)
    _check_masses(pair, law, N, lo, hi, W=140 + pair.guard_bits(), every=9)


def test_a_mixture_with_one_positive_sensitivity_is_a_sampled_gaussian():
    """{0: 1/4, 2: 3/4} sampled with q = 1/2 is (1 − 3/8)·N(0, σ²) + (3/8)·N(2, σ²): noise σ/2, q = 3/8."""
    pair = families.mixture(Fraction(3), [Fraction(0), Fraction(2)], [Fraction(1, 4), Fraction(3, 4)], Fraction(1, 2))
    assert isinstance(pair, pairs.SampledGaussian) and (pair.q, pair.sigma) == (Fraction(3, 8), Fraction(3, 2))
    law = ref.mixture(Fraction(3), [0, 2], [Fraction(1, 4), Fraction(3, 4)], Fraction(1, 2))
    _check_masses(pair, law, 30, -15, 200, every=13)


def test_mixture_levels_below_the_infimum_are_minus_infinity():
    # a_0 = 1/2 + 1/2·1/5 = 3/5: e^{i/N} <= 3/5 exactly for i <= ⌊20·log(3/5)⌋ = −11
    components = [(Fraction(0), Fraction(3, 5)), (Fraction(1), Fraction(1, 5)), (Fraction(2), Fraction(1, 5))]
    z = roots.brackets(components, 20, -13, -8, 100, POINTER)
    assert [b is None for b in z] == [True, True, True, False, False, False]
    assert roots.at_or_below(Fraction(-11, 20), Fraction(3, 5), POINTER)
    assert not roots.at_or_below(Fraction(-10, 20), Fraction(3, 5), POINTER)


# ---- a Poisson sampling of a composition of Gaussian events: the sampled Gaussian given by σ² -------------------

def _composition_law(q, variance):
    """The reference of a ``gaussian_composition`` stage, in mpmath with σ = √σ²: the loss ℓ(x) =
    log(1 − q + q·e^{(2x − 1)/(2σ²)}) has the preimage x(y) = 1/2 + σ²·log((e^y − 1 + q)/q) (−∞ when
    e^y <= 1 − q), P(X < x) = (1 − q)·Φ(x/σ) + q·Φ((x − 1)/σ) and Q(X < x) = Φ(x/σ)."""
    q, v = mp(q), mp(variance)
    s = mpmath.sqrt(v)

    def preimage(y):
        u = mpmath.exp(y) - (1 - q)
        return None if u <= 0 else mpmath.mpf(1) / 2 + v * mpmath.log(u / q)
    return ref.Law(preimage, lambda x: (1 - q) * ref.Phi(x / s) + q * ref.Phi((x - 1) / s), lambda x: ref.Phi(x / s))


COMPOSITION_CASES = [   # (q, σ², N, lo, hi)
    (Fraction(1, 100), Fraction(1, 2), 100, -3, 500),      # two Gaussian events of σ = 1
    (Fraction(1, 4), Fraction(4, 7), 60, -20, 300),        # σ = 1 and three of σ = 2
    (Fraction(1, 2), Fraction(1, 99), 20, -14, 900),       # σ just above 1/10
    (Fraction(9, 10), Fraction(10 ** 7, 3), 400, -900, 60),
    (Fraction(1, 1000), Fraction(2), 50, -1, 200),
]


@pytest.mark.parametrize("q, variance, N, lo, hi", COMPOSITION_CASES)
def test_gaussian_composition_masses(q, variance, N, lo, hi):
    """The single-step bucket masses (T = 1) of a ``gaussian_composition`` stage enclose the reference's, σ
    irrational."""
    pair = families.gaussian_composition(variance, q, families.ADD_OR_REMOVE)
    assert isinstance(pair, pairs.SampledGaussian) and pair.sigma is None and pair.variance == variance
    _check_masses(pair, _composition_law(q, variance), N, lo, hi, W=140 + pair.guard_bits(), every=7)


@pytest.mark.parametrize("q, sigma", [(Fraction(1, 100), Fraction(1)), (Fraction(1, 3), Fraction(3, 2)),
                                      (Fraction(1, 2), Fraction(1, 10)), (Fraction(1), Fraction(5, 7))])
def test_a_square_sigma_squared_is_the_gaussian_of_that_sigma(q, sigma):
    """σ² = (n/d)²: the same masses, to the unit, and the same guard as the ``gaussian`` stage of σ = n/d."""
    composition = families.gaussian_composition(sigma * sigma, q, families.ADD_OR_REMOVE)
    gaussian = families.gaussian(sigma, q, families.ADD_OR_REMOVE)
    assert composition.guard_bits() == gaussian.guard_bits()
    N, lo, hi = 40, -30, 200
    assert composition.bucket_masses(N, lo, hi, 130, POINTER) == gaussian.bucket_masses(N, lo, hi, 130, POINTER)


@pytest.mark.parametrize("q, variance, floor_sigma", [
    (Fraction(1, 100), Fraction(1, 2), 0), (Fraction(1, 4), Fraction(4, 7), 0), (Fraction(1, 2), Fraction(2), 1),
    (Fraction(3, 10), Fraction(9, 4), 1), (Fraction(1, 7), Fraction(10 ** 8, 3), 5773), (Fraction(1, 2), 4, 2),
    (Fraction(1, 3), Fraction(35, 1), 5), (Fraction(1, 3), Fraction(36, 1), 6),
])
def test_gaussian_composition_guard_parts_and_work(q, variance, floor_sigma):
    """guard = 24 + bits(⌊1/q⌋) + 2·bits(⌊σ⌋ + 1) with ⌊σ⌋ = isqrt(⌊σ²⌋), parts = bits(q) + bits(σ²), the sampled
    Gaussian's units per bucket."""
    pair = families.gaussian_composition(variance, q, families.ADD_OR_REMOVE)
    assert pair.floor_sigma() == floor_sigma == int(mpmath.floor(mpmath.sqrt(mp(variance))))
    assert pair.guard_bits() == 24 + (q.denominator // q.numerator).bit_length() + 2 * (floor_sigma + 1).bit_length()
    assert pair.parts() == pairs.bits(q) + pairs.bits(variance)
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, pairs.MASS_NS)


def test_a_sampled_gaussian_takes_sigma_or_its_square():
    with pytest.raises(TypeError, match="not both or neither"):
        pairs.SampledGaussian(Fraction(1, 2))
    with pytest.raises(TypeError, match="not both or neither"):
        pairs.SampledGaussian(Fraction(1, 2), 1, sigma_squared=1)
    assert repr(families.gaussian_composition(Fraction(1, 2), Fraction(1, 3), families.ADD_OR_REMOVE)) == \
        "SampledGaussian(q=1/3, sigma_squared=1/2)"


# ---- a composition of Gaussian events under replace-one and without replacement: the pairs given by σ² -----------

IRRATIONAL_VARIANCE = 1 / (1 / Fraction(121, 100) + Fraction(1, 100))      # σ = 1.1 and σ = 10: 12100/10121
REPLACE_COMPOSITION_CASES = [   # (q, σ², N, lo, hi)
    (Fraction(1, 100), IRRATIONAL_VARIANCE, 50, -200, 200),
    (Fraction(1, 4), Fraction(4, 7), 20, -150, 150),                         # σ = 1 and three of σ = 2
    (Fraction(1, 2), Fraction(1, 99), 4, -100, 100),                         # σ just above 1/10: 1/c = e^{49.5}
    (Fraction(9, 10), Fraction(10 ** 7, 3), 2000, -10, 12),
]


def _sqrt(variance):
    return mpmath.sqrt(mp(variance))


@pytest.mark.parametrize("q, variance, N, lo, hi", REPLACE_COMPOSITION_CASES)
def test_replace_one_gaussian_composition_masses(q, variance, N, lo, hi):
    """The replace-one sampled Gaussian at σ = √σ² irrational: its masses enclose the reference's (the root
    finder's preimages, mpmath's σ)."""
    pair = families.gaussian_composition(variance, q, families.REPLACE)
    assert isinstance(pair, families.ReplaceGaussian) and pair.sigma is None and pair.variance == variance
    _check_masses(pair, ref.replace_gaussian(q, _sqrt(variance)), N, lo, hi, W=140 + pair.guard_bits(), every=9)


WOR_COMPOSITION_CASES = [   # (γ, σ², N, lo, hi)
    (Fraction(8, 1875), IRRATIONAL_VARIANCE, 50, -300, 300),
    (Fraction(1, 10), Fraction(2, 3), 40, -200, 250),                       # σ = 1 and two of σ = 2
    (Fraction(1, 2), Fraction(1, 99), 10, -100, 100),
    (Fraction(99, 100), Fraction(10 ** 7, 3), 2000, -15, 20),
    (Fraction(1, 4), Fraction(1, 2), 20, 0, 60),                           # the low tail {ℓ < 0}: the atom in bucket 0
]


@pytest.mark.parametrize("gamma, variance, N, lo, hi", WOR_COMPOSITION_CASES)
def test_without_replacement_composition_masses(gamma, variance, N, lo, hi):
    """The symmetrised pair at σ = √σ² irrational ((A, B) the sampled Gaussian of σ²/4, the atom with 1/σ enclosed):
    its masses enclose the reference's."""
    pair = families.composition_without_replacement(variance, gamma)
    assert isinstance(pair, families.WithoutReplacementGaussian) and pair.sigma is None
    assert pair.mechanism == "gaussian_composition_without_replacement"
    _check_masses(pair, ref.without_replacement(gamma, _sqrt(variance)), N, lo, hi, W=140 + pair.guard_bits(),
                  every=9)


@pytest.mark.parametrize("gamma, variance", [(Fraction(8, 1875), IRRATIONAL_VARIANCE),
                                             (Fraction(1, 2), Fraction(1, 99)),
                                             (Fraction(999, 1000), Fraction(10 ** 8, 3))])
def test_without_replacement_composition_atom(gamma, variance):
    """m0 = (1 − γ)·(Φ(1/σ) − Φ(−1/σ)) at σ = √σ², within a few units of 2^−100."""
    Wt, (lo, hi) = families.composition_without_replacement(variance, gamma).atom(100)
    s = _sqrt(variance)
    closed = (1 - mp(gamma)) * (ref.Phi(1 / s) - ref.Phi(-1 / s))
    assert lo <= closed * mpmath.mpf(2) ** Wt <= hi and hi - lo < 1 << (Wt - 100 + 2)


def _outside(pair, law, N, lo, hi):
    """(outside, checked): how many bucket enclosures (both laws, every third bucket) the reference ``law`` falls
    outside, of how many."""
    Wt, p_list, q_list, _, _ = pair.bucket_masses(N, lo, hi, 140 + pair.guard_bits(), POINTER)
    scale = mpmath.mpf(2) ** Wt
    outside = checked = 0
    for k in range(0, hi - lo, 3):
        y1, y2 = _level(lo + k, N), _level(lo + k + 1, N)
        for enclosure, which in ((p_list[k], "P"), (q_list[k], "Q")):
            true = ref.bucket_mass(law, y1, y2, which)
            outside += not enclosure[0] / scale <= true <= enclosure[1] / scale
            checked += 1
    return outside, checked


@pytest.mark.parametrize("kind", ["replace", "without-replacement"])
def test_a_perturbed_variance_or_sampling_falls_outside_the_enclosures(kind):
    """Teeth: the reference at σ² or at q (γ) moved by one part in 10^6 lies outside most enclosures, the honest one
    inside all of them."""
    v, q, nudge = IRRATIONAL_VARIANCE, Fraction(8, 1875), 1 + Fraction(1, 10 ** 6)
    if kind == "replace":
        pair, law = families.gaussian_composition(v, q, families.REPLACE), ref.replace_gaussian
    else:
        pair, law = families.composition_without_replacement(v, q), ref.without_replacement
    N, lo, hi = 50, -60, 60
    assert _outside(pair, law(q, _sqrt(v)), N, lo, hi)[0] == 0
    for moved in (law(q, _sqrt(v * nudge)), law(q * nudge, _sqrt(v))):
        outside, checked = _outside(pair, moved, N, lo, hi)
        assert outside > checked // 2, (outside, checked)


@pytest.mark.parametrize("q, sigma", [(Fraction(1, 100), Fraction(1)), (Fraction(1, 3), Fraction(3, 2)),
                                      (Fraction(1, 2), Fraction(1, 10)), (Fraction(9, 10), Fraction(40)),
                                      (Fraction(8, 1875), Fraction(11, 10))])
def test_a_square_sigma_squared_is_the_pair_of_that_sigma(q, sigma, monkeypatch):
    """σ² = (n/d)²: the replace-one and the without-replacement pairs given by σ² compute the same masses, to the
    unit, and the same guard as those given by σ = n/d, never through an integer square root."""
    monkeypatch.setattr(families, "root_fixed", lambda *args: pytest.fail("enclosed a rational σ"))
    N, lo, hi = 40, -60, 80
    composition = families.gaussian_composition(sigma * sigma, q, families.REPLACE)
    gaussian = families.gaussian(sigma, q, families.REPLACE)
    assert composition.guard_bits() == gaussian.guard_bits()
    assert composition.bucket_masses(N, lo, hi, 130, POINTER) == gaussian.bucket_masses(N, lo, hi, 130, POINTER)
    composition = families.composition_without_replacement(sigma * sigma, q)
    alone = families.without_replacement(sigma, q)
    assert composition.guard_bits() == alone.guard_bits()
    assert composition.atom(130) == alone.atom(130)
    assert composition.bucket_masses(N, lo, hi, 130, POINTER) == alone.bucket_masses(N, lo, hi, 130, POINTER)


@pytest.mark.parametrize("q, variance, floor_sigma", [
    (Fraction(1, 100), IRRATIONAL_VARIANCE, 1), (Fraction(1, 4), Fraction(4, 7), 0), (Fraction(1, 2), Fraction(2), 1),
    (Fraction(1, 7), Fraction(10 ** 8, 3), 5773), (Fraction(1, 3), Fraction(35, 1), 5), (Fraction(1, 3), 36, 6),
])
def test_composition_pairs_guard_parts_and_work(q, variance, floor_sigma):
    """Replace-one: guard 24 + bits(⌊1/q⌋) + 2·bits(⌊σ⌋ + 1) + ⌈3/(4σ²)⌉ with ⌊σ⌋ = isqrt(⌊σ²⌋), parts bits(q) +
    bits(σ²), REPLACE_NS units per bucket; without replacement: the sampled Gaussian's guard at σ²/4 (⌊σ/2⌋),
    parts bits(γ) + bits(σ²), WITHOUT_REPLACEMENT_NS units per bucket."""
    assert floor_sigma == int(mpmath.floor(_sqrt(variance)))
    replace = families.gaussian_composition(variance, q, families.REPLACE)
    guard = 24 + (q.denominator // q.numerator).bit_length() + 2 * (floor_sigma + 1).bit_length()
    assert replace.guard_bits() == guard + int(mpmath.ceil(mpmath.mpf(3) / 4 / mp(variance)))
    assert replace.parts() == pairs.bits(q) + pairs.bits(variance)
    assert replace.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, families.REPLACE_NS)
    wor = families.composition_without_replacement(variance, q)
    half = int(mpmath.floor(_sqrt(variance) / 2))
    assert wor.guard_bits() == pairs.declared_guard(q, half)
    assert wor.parts() == pairs.bits(q) + pairs.bits(variance)
    assert wor.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, families.WITHOUT_REPLACEMENT_NS)


def test_the_composition_pairs_take_sigma_or_its_square():
    for make in (families.ReplaceGaussian, families.WithoutReplacementGaussian):
        with pytest.raises(TypeError, match="not both or neither"):
            make(Fraction(1, 2))
        with pytest.raises(TypeError, match="not both or neither"):
            make(Fraction(1, 2), 1, sigma_squared=1)
    assert repr(families.gaussian_composition(Fraction(1, 2), Fraction(1, 3), families.REPLACE)) == \
        "ReplaceGaussian(q=1/3, sigma_squared=1/2)"
    assert repr(families.composition_without_replacement(Fraction(1, 2), Fraction(1, 3))) == \
        "WithoutReplacementGaussian(gamma=1/3, sigma_squared=1/2)"


def test_a_without_replacement_composition_range_must_hold_level_zero():
    pair = families.composition_without_replacement(Fraction(1, 2), Fraction(1, 10))
    with pytest.raises(Malformed, match="gaussian_composition_without_replacement stage must hold"):
        pair.bucket_masses(20, 1, 50, 100, POINTER)


# ---- sampling without replacement: the symmetrised pair ------------------------------------------------------

WOR_CASES = [   # (γ, σ, N, lo, hi)
    (Fraction(1, 10), Fraction(1), 50, -400, 400),
    (Fraction(1, 2), Fraction(1, 10), 20, -300, 300),       # noise σ/2 = 1/20 for the (A, B) pair
    (Fraction(99, 100), Fraction(3), 100, -200, 200),
    (Fraction(1, 1000), Fraction(2), 200, -30, 500),        # asymmetric: the low tail at level 30, the high at 500
    (Fraction(1, 3), Fraction(1, 2), 40, -250, 7),          # and the other way round
    (Fraction(1, 4), Fraction(1), 20, 0, 60),               # the low tail {ℓ < 0}: the atom in bucket 0
]


@pytest.mark.parametrize("gamma, sigma, N, lo, hi", WOR_CASES)
def test_without_replacement_masses(gamma, sigma, N, lo, hi):
    pair = families.without_replacement(sigma, gamma)
    _check_masses(pair, ref.without_replacement(gamma, sigma), N, lo, hi, W=140 + pair.guard_bits(), every=7)


@pytest.mark.parametrize("gamma, sigma, N, lo, hi", WOR_CASES + [(Fraction(1, 4), Fraction(1), 10, 0, 0),
                                                                 (Fraction(1, 4), Fraction(1), 10, -5, 0)])
def test_without_replacement_masses_sum_to_one(gamma, sigma, N, lo, hi):
    """Σ X and Σ Y (buckets and both tails, the atom once) enclose 1 exactly, within a few units of the target
    precision 2^−120 per bucket (the tail table works 2^(Wt − 120) finer)."""
    Wt, p_list, q_list, low, high = families.without_replacement(sigma, gamma).bucket_masses(N, lo, hi, 120, POINTER)
    one = 1 << Wt
    for side, masses_ in ((0, p_list), (1, q_list)):
        parts = masses_ + [low[side], high[side]]
        total_lo, total_hi = sum(m[0] for m in parts), sum(m[1] for m in parts)
        assert total_lo <= one <= total_hi, (side, total_lo, total_hi)
        assert total_hi - total_lo < len(parts) << (Wt - 120 + 2), (side, total_lo, total_hi)


@pytest.mark.parametrize("gamma, sigma, N, lo, hi", WOR_CASES[:3])
def test_without_replacement_bucket_ratios(gamma, sigma, N, lo, hi):
    """X = e^ℓ·Y on every bucket: e^{−(j+1)h}·X_j <= Y_j <= e^{−jh}·X_j, checked on the enclosures (the lower end
    of one side against the upper end of the other), the atom's bucket 0 included."""
    Wt, p_list, q_list, _, _ = families.without_replacement(sigma, gamma).bucket_masses(N, lo, hi, 120, POINTER)
    for k, ((x_lo, x_hi), (y_lo, y_hi)) in enumerate(zip(p_list, q_list)):
        j = lo + k
        assert mpmath.exp(-mp(Fraction(j + 1, N))) * x_lo <= y_hi, j
        assert y_lo <= mpmath.exp(-mp(Fraction(j, N))) * x_hi, j


def test_without_replacement_buckets_are_mirrored():
    """Bucket i and bucket −i − 1 hold the same two enclosures, swapped (the atom's bucket 0 and −1 aside), and
    on a symmetric range the low tail is the high tail swapped."""
    N, H = 30, 120
    Wt, p_list, q_list, low, high = families.without_replacement(Fraction(1), Fraction(1, 5)).bucket_masses(
        N, -H, H, 100, POINTER)
    for i in range(1, H):
        assert (p_list[H + i], q_list[H + i]) == (q_list[H - i - 1], p_list[H - i - 1]), i
    assert low == (high[1], high[0])
    _, m0 = families.without_replacement(Fraction(1), Fraction(1, 5)).atom(100)
    assert p_list[H] == (q_list[H - 1][0] + m0[0], q_list[H - 1][1] + m0[1])


@pytest.mark.parametrize("gamma, sigma", [(Fraction(1, 10), Fraction(1)), (Fraction(1, 2), Fraction(1, 10)),
                                          (Fraction(999, 1000), Fraction(10 ** 4)), (Fraction(1, 7), Fraction(3, 2))])
def test_without_replacement_atom(gamma, sigma):
    """m0 = (1 − γ)·(Φ(1/σ) − Φ(−1/σ)) = 1 − A(x > 1) − B(x > 1), enclosed within a few units of 2^−100."""
    Wt, (lo, hi) = families.without_replacement(sigma, gamma).atom(100)
    closed = (1 - mp(gamma)) * (ref.Phi(1 / mp(sigma)) - ref.Phi(-1 / mp(sigma)))
    law = ref.without_replacement(gamma, sigma)
    assert abs(closed - law.m0) < mpmath.mpf(10) ** -35
    assert lo <= closed * mpmath.mpf(2) ** Wt <= hi and hi - lo < 1 << (Wt - 100 + 2)


def test_without_replacement_range_must_hold_level_zero():
    pair = families.without_replacement(Fraction(1), Fraction(1, 10))
    for lo, hi in ((1, 50), (-50, -1)):
        with pytest.raises(Malformed, match="must hold"):
            pair.bucket_masses(20, lo, hi, 100, POINTER)


def test_without_replacement_guard_and_work_are_the_sampled_gaussians():
    """The guard of the sampled Gaussian of q = γ and noise σ/2, and the closed-form preimages' constant."""
    pair = families.without_replacement(Fraction(5), Fraction(1, 100))
    assert pair.guard_bits() == pairs.declared_guard(Fraction(1, 100), Fraction(5, 2))
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, families.WITHOUT_REPLACEMENT_NS)
    assert families.WITHOUT_REPLACEMENT_NS == pairs.MASS_NS == 160


# the reference itself: its δ(ε) by the mixture identity against the loss, and the ordering of the two profiles

@pytest.mark.parametrize("gamma, sigma", [(Fraction(1, 10), Fraction(1)), (Fraction(1, 2), Fraction(1, 3)),
                                          (Fraction(9, 10), Fraction(4))])
def test_reference_without_replacement_delta(gamma, sigma):
    """H_{e^ε}(A‖B) = γ·H_{α′}(N(2, σ²)‖N(0, σ²)), α′ = 1 + (e^ε − 1)/γ, for ε >= 0 (the mixture identity), and the
    preimage inverts the loss."""
    law = ref.without_replacement(gamma, sigma)
    for e in (Fraction(0), Fraction(1, 3), Fraction(2), Fraction(5)):
        direct = ref.hockey_ab(gamma, sigma, mpmath.exp(mp(e)), "AB")
        assert abs(direct - ref.delta_without_replacement(gamma, sigma, e)) < mpmath.mpf(10) ** -30, e
        assert abs(law.loss_ab(law.preimage_ab(mp(e))) - mp(e)) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize("gamma, sigma", [(Fraction(1, 10), Fraction(1)), (Fraction(1, 2), Fraction(1, 3)),
                                          (Fraction(9, 10), Fraction(4)), (Fraction(1, 100), Fraction(1, 10))])
def test_reference_without_replacement_orders(gamma, sigma):
    """For α >= 1, H_α(A‖B) >= H_α(B‖A): the profile of f_γ dominates its inverse's, so the symmetrised pair's
    profile is H_α(A‖B) (checked on a grid of α)."""
    for k in range(0, 41):
        alpha = mpmath.exp(mpmath.mpf(k) / 8)
        ab, ba = ref.hockey_ab(gamma, sigma, alpha, "AB"), ref.hockey_ab(gamma, sigma, alpha, "BA")
        assert ab >= ba - mpmath.mpf(10) ** -35, (k, ab, ba)


# ---- sampling without replacement of the Laplace mechanism ---------------------------------------------------

def _a_plus(gamma, b):
    return mpmath.log(1 - mp(gamma) + mp(gamma) * mpmath.exp(2 / mp(b)))


def _top(gamma, b, N, beyond=2):
    """A level ``beyond`` grid steps past the bucket of a₊ (the loss's largest value)."""
    return int(mpmath.floor(_a_plus(gamma, b) * N)) + beyond


LAPLACE_WOR_CASES = [   # (γ, b, N, lo, hi)
    (Fraction(1, 10), Fraction(1, 2), 40, -_top(Fraction(1, 10), Fraction(1, 2), 40),
     _top(Fraction(1, 10), Fraction(1, 2), 40)),
    (Fraction(1, 2), Fraction(1), 100, -60, 60),                  # a₊ = log((1 + e²)/2) = 1.43: both tails hold it
    (Fraction(1, 1000), Fraction(1, 100), 2, -420, 420),          # a₊ = 193.1: atoms' B-masses e^{−200}/2
    (Fraction(999, 1000), Fraction(3), 50, -40, 40),
    (Fraction(1, 3), Fraction(1, 2), 30, -70, 5),                 # asymmetric: the low tail past −a₊, the high inside
    (Fraction(1, 4), Fraction(1), 20, 0, 60),                     # the low tail {ℓ < 0}: the atom in bucket 0
    (Fraction(1, 7), Fraction(2), 10, -3, 0),                     # the high tail {ℓ >= 0} holds the atom
]


@pytest.mark.parametrize("gamma, b, N, lo, hi", LAPLACE_WOR_CASES)
def test_laplace_without_replacement_masses(gamma, b, N, lo, hi):
    """Every bucket and both tails against the reference built from A's and B's densities and CDFs, its atoms at
    0 and ±a₊ placed by mpmath."""
    pair = families.laplace_without_replacement(b, gamma)
    assert isinstance(pair, families.WithoutReplacementLaplace)
    _check_masses(pair, ref.without_replacement_laplace(gamma, b), N, lo, hi, W=140 + pair.guard_bits())


@pytest.mark.parametrize("gamma, b, N, lo, hi", LAPLACE_WOR_CASES + [(Fraction(1, 4), Fraction(1), 10, 0, 0)])
def test_laplace_without_replacement_masses_sum_to_one(gamma, b, N, lo, hi):
    """Σ X and Σ Y enclose 1, within 2^−120 per bucket, the target precision: the pair's guard is added as the
    recipe adds it (at b = 1/100 the sampled Laplace of scale b/2 spends 130 of its 334 guard bits on the
    levels next to its atoms)."""
    pair = families.laplace_without_replacement(b, gamma)
    W = 120 + pair.guard_bits()
    Wt, p_list, q_list, low, high = pair.bucket_masses(N, lo, hi, W, POINTER)
    one = 1 << Wt
    for side, masses_ in ((0, p_list), (1, q_list)):
        parts = masses_ + [low[side], high[side]]
        total_lo, total_hi = sum(m[0] for m in parts), sum(m[1] for m in parts)
        assert total_lo <= one <= total_hi, (side, total_lo, total_hi)
        assert total_hi - total_lo < len(parts) << (Wt - 120), (side, total_lo, total_hi)


@pytest.mark.parametrize("gamma, b, N, lo, hi", LAPLACE_WOR_CASES[:3])
def test_laplace_without_replacement_bucket_ratios(gamma, b, N, lo, hi):
    """X = e^ℓ·Y on every bucket, the atoms' buckets (0 and ±a₊) included."""
    pair = families.laplace_without_replacement(b, gamma)
    Wt, p_list, q_list, _, _ = pair.bucket_masses(N, lo, hi, 120 + pair.guard_bits(), POINTER)
    for k, ((x_lo, x_hi), (y_lo, y_hi)) in enumerate(zip(p_list, q_list)):
        j = lo + k
        assert mpmath.exp(-mp(Fraction(j + 1, N))) * x_lo <= y_hi, j
        assert y_lo <= mpmath.exp(-mp(Fraction(j, N))) * x_hi, j


def test_laplace_without_replacement_is_bounded_and_mirrored():
    """Beyond the buckets of ±a₊ every mass is an exact 0 (so a bound of δ there is exactly 0); the atom −a₊ sits
    in bucket −⌊a₊N⌋ − 1 (the mirror of [ih, (i+1)h) is (−(i+1)h, −ih]); bucket i and −i − 1 hold the same
    enclosures swapped."""
    gamma, b, N = Fraction(1, 10), Fraction(1, 2), 40
    top = int(mpmath.floor(_a_plus(gamma, b) * N))
    H = top + 5
    Wt, p_list, q_list, low, high = families.laplace_without_replacement(b, gamma).bucket_masses(
        N, -H, H, 100, POINTER)
    assert low == high == ((0, 0), (0, 0))
    nonzero = [i - H for i, (p, q) in enumerate(zip(p_list, q_list)) if p[1] > 0 or q[1] > 0]
    assert (min(nonzero), max(nonzero)) == (-top - 1, top)
    for i in range(1, H):
        assert (p_list[H + i], q_list[H + i]) == (q_list[H - i - 1], p_list[H - i - 1]), i
    law = ref.without_replacement_laplace(gamma, b)
    scale = mpmath.mpf(2) ** Wt
    (x_lo, _), (y_lo, _) = p_list[H - top - 1], q_list[H - top - 1]
    atom_x, atom_y = law.tail(2, "B"), law.tail(2, "A")          # X, Y of the atom at −a₊
    assert x_lo / scale >= atom_x - mpmath.mpf(2) ** -90 and y_lo / scale >= atom_y - mpmath.mpf(2) ** -90
    assert p_list[H - top - 2] == q_list[H - top - 2] == (0, 0)


@pytest.mark.parametrize("gamma, b", [(Fraction(1, 10), Fraction(1)), (Fraction(1, 2), Fraction(1, 100)),
                                      (Fraction(999, 1000), Fraction(10 ** 4)), (Fraction(1, 7), Fraction(3, 2))])
def test_laplace_without_replacement_atom(gamma, b):
    """m0 = (1 − γ)·(1 − e^{−1/b}) = 1 − A(x > 1) − B(x > 1), enclosed within a unit or two of 2^−100."""
    Wt, (lo, hi) = families.laplace_without_replacement(b, gamma).atom(100)
    closed = (1 - mp(gamma)) * (1 - mpmath.exp(-1 / mp(b)))
    law = ref.without_replacement_laplace(gamma, b)
    assert abs(closed - law.m0) < mpmath.mpf(10) ** -35
    assert lo <= closed * mpmath.mpf(2) ** Wt <= hi and hi - lo <= 2 and Wt == 100


def test_laplace_without_replacement_range_must_hold_level_zero():
    pair = families.laplace_without_replacement(Fraction(1), Fraction(1, 10))
    for lo, hi in ((1, 50), (-50, -1)):
        with pytest.raises(Malformed, match="laplace_without_replacement stage must hold"):
            pair.bucket_masses(20, lo, hi, 100, POINTER)


def test_laplace_without_replacement_guard_and_work():
    """The guard of the sampled Laplace of q = γ and scale b/2; the work at its own constant."""
    pair = families.laplace_without_replacement(Fraction(1, 2), Fraction(1, 100))
    assert pair.guard_bits() == families.Laplace(Fraction(1, 100), Fraction(1, 4)).guard_bits()
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, families.WITHOUT_REPLACEMENT_LAPLACE_NS)


@pytest.mark.parametrize("gamma, b", [(Fraction(1, 10), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 3)),
                                      (Fraction(9, 10), Fraction(4)), (Fraction(1, 100), Fraction(1, 10))])
def test_reference_laplace_without_replacement(gamma, b):
    """The reference's own identities: its preimage inverts ℓ_AB; X and Y have mass 1; δ(ε) of one step from its
    buckets, and from A's and B's CDFs, is H_{e^ε}(A‖B) by quadrature over the outputs; and for α >= 1,
    H_α(A‖B) >= H_α(B‖A) (the ordering lemma of the symmetrised pair, for this base: its profile is H_α(A‖B))."""
    law = ref.without_replacement_laplace(gamma, b)
    for name in ("P", "Q"):
        assert abs(ref.bucket_mass(law, None, None, name) - 1) < mpmath.mpf(10) ** -30
    for e in (Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5, 2)):
        if mp(e) < law.a_plus:
            assert abs(law.loss_ab(law.preimage_ab(mp(e))) - mp(e)) < mpmath.mpf(10) ** -30
        direct = ref.hockey_laplace_ab(gamma, b, e)
        assert abs(direct - ref.delta_symmetrised(law, e)) < mpmath.mpf(10) ** -25, e
        assert abs(direct - law.hockey(e)) < mpmath.mpf(10) ** -25, e
    for k in range(0, 33, 2):
        ab = ref.delta_symmetrised(law, Fraction(k, 8))          # H_α(A‖B), from the buckets on ℓ > 0
        ba = ref.hockey_laplace_ab(gamma, b, Fraction(k, 8), order="BA")
        assert ab >= ba - mpmath.mpf(10) ** -25, (k, ab, ba)


# ---- the bounded losses --------------------------------------------------------------------------------------

def _laplace_range(q, b, N, outside=2):
    low = mpmath.log(1 - mp(q) + mp(q) * mpmath.exp(-1 / mp(b)))
    high = mpmath.log(1 - mp(q) + mp(q) * mpmath.exp(1 / mp(b)))
    return int(mpmath.floor(low * N)) - outside, int(mpmath.floor(high * N)) + outside


@pytest.mark.parametrize("q, b, N", [
    (Fraction(1), Fraction(1), 20),          # atoms ±1 on grid levels ±20
    (Fraction(1), Fraction(3, 7), 9),        # ±7/3 = ±21/9: on grid levels too
    (Fraction(1), Fraction(3, 7), 10),       # between levels
    (Fraction(1, 3), Fraction(1, 2), 30),
    (Fraction(1, 100), Fraction(2), 400),
    (Fraction(1, 2), Fraction(1, 20), 20),
    (Fraction(1), Fraction(1, 100), 2),      # atoms ±100, continuous part of mass 1/2 − e^{−100}/2
])
def test_laplace_masses(q, b, N):
    pair = families.laplace(b, q, families.ADD_OR_REMOVE)
    lo, hi = _laplace_range(q, b, N)
    _check_masses(pair, ref.laplace(q, b), N, lo, hi, W=140 + pair.guard_bits())


def test_laplace_atoms_go_to_the_tails_outside_the_range():
    """A range inside the loss's: the atom at −1 (q = 1, b = 1) is the low tail, the atom at +1 the high tail."""
    pair = families.laplace(Fraction(1), Fraction(1), families.ADD_OR_REMOVE)
    _check_masses(pair, ref.laplace(1, 1), 20, -10, 10)
    # exactly on the grid: the atom 1 = 20/20 belongs to bucket 20 ([1, 1 + h)), so hi = 20 puts it in the high tail
    Wt, p_list, q_list, low, high = pair.bucket_masses(20, -20, 20, 100, POINTER)
    assert p_list[0][0] > 0 and high[0][0] >= (1 << Wt) // 2 - 1   # P-mass 1/2 of the atom at x >= 1


def test_replace_one_laplace_is_the_add_remove_pair_of_half_the_scale():
    pair = families.laplace(Fraction(3, 2), Fraction(1), families.REPLACE)
    assert (pair.q, pair.scale) == (1, Fraction(3, 4))
    _check_masses(pair, ref.replace_laplace(Fraction(3, 2)), 12, -20, 20)


def test_laplace_buckets_beyond_the_atoms_are_exactly_empty():
    """Every mass above the top atom (and below the bottom one) is an exact 0, so F(ε) is 0 beyond the top."""
    pair = families.laplace(Fraction(1), Fraction(1, 3), families.ADD_OR_REMOVE)
    Wt, p_list, q_list, low, high = pair.bucket_masses(10, -40, 40, 100, POINTER)
    assert low == ((0, 0), (0, 0)) and high == ((0, 0), (0, 0))
    assert p_list[:9] == [(0, 0)] * 9 and p_list[-9:] == [(0, 0)] * 9     # buckets −40..−32 and 31..39


# ---- the replace-one Laplace, Poisson-sampled (0 < q < 1) ----------------------------------------------------------

def _replace_laplace_top(law, N, beyond=2):
    """A level ``beyond`` grid steps past the bucket of ℓ_max (the loss's largest value)."""
    return int(mpmath.floor(mp(law.top) * N)) + beyond


REPLACE_LAPLACE_CASES = [   # (q, b, N): b in {1/2, 1, 3} and q in {1/100, 1/3, 1/2, 9/10}
    (q, b, N) for b, N in ((Fraction(1, 2), 10), (Fraction(1), 20), (Fraction(3), 60))
    for q in (Fraction(1, 100), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10))]


@pytest.mark.parametrize("q, b, N", REPLACE_LAPLACE_CASES)
def test_replace_one_sampled_laplace_masses(q, b, N):
    """Every bucket and both tails of (1 − q)L(0, b) + qL(1, b) against (1 − q)L(0, b) + qL(−1, b) against the
    reference built from the densities and the Laplace CDF (preimages by the root finder; at q = 1/2 the atoms
    ±1/b exact: on grid levels whenever N/b is an integer, here every case).  The buckets next to the atoms' pin
    their placement."""
    pair = accounting.pair_of({"mechanism": "laplace", "sampling": str(q), "scale": str(b)}, families.REPLACE)
    assert isinstance(pair, bounded.ReplaceLaplace) and (pair.q, pair.scale) == (q, b)
    law = ref.replace_sampled_laplace(q, b)
    top = _replace_laplace_top(law, N)
    _check_masses(pair, law, N, -top, top, W=140 + pair.guard_bits(), every=3)


@pytest.mark.parametrize("q, b, N", [(Fraction(1, 3), Fraction(1), 20), (Fraction(1, 2), Fraction(1, 2), 10),
                                     (Fraction(9, 10), Fraction(3), 60)])
def test_replace_one_sampled_laplace_masses_have_teeth(q, b, N):
    """The reference of a q or b perturbed by 1/1000 (relative) falls outside some enclosure: the masses pin the
    pair."""
    pair = bounded.ReplaceLaplace(q, b)
    top = _replace_laplace_top(ref.replace_sampled_laplace(q, b), N)
    for law in (ref.replace_sampled_laplace(q * Fraction(1001, 1000), b),
                ref.replace_sampled_laplace(q, b * Fraction(1001, 1000))):
        with pytest.raises(AssertionError):
            _check_masses(pair, law, N, -top, top, W=140 + pair.guard_bits())


def test_replace_one_sampled_laplace_atoms_on_grid_levels():
    """q = 1/2, b = 1/2, N = 10: ℓ_max = 1/b = 2 exactly, the grid level 20/10.  The atom +2 is bucket 20's
    ([2, 2.1)) and the atom −2 bucket −20's ([−2, −1.9)), and beyond the atoms every mass is an exact 0."""
    q, b, N, H = Fraction(1, 2), Fraction(1, 2), 10, 24
    law = ref.replace_sampled_laplace(q, b)
    Wt, p_list, q_list, low, high = bounded.ReplaceLaplace(q, b).bucket_masses(N, -H, H, 120, POINTER)
    scale = mpmath.mpf(2) ** Wt
    for i, (_, p_mass, q_mass) in ((-20, law.atoms[0]), (20, law.atoms[1])):     # the atoms at −2 and +2
        assert p_list[i + H][0] / scale >= p_mass - mpmath.mpf(2) ** -100, i
        assert q_list[i + H][0] / scale >= q_mass - mpmath.mpf(2) ** -100, i
    assert p_list[21 + H:] == q_list[21 + H:] == [(0, 0)] * (H - 21)
    assert p_list[:H - 20] == q_list[:H - 20] == [(0, 0)] * (H - 20)
    assert low == high == ((0, 0), (0, 0))
    _check_masses(bounded.ReplaceLaplace(q, b), law, N, -H, H)


@pytest.mark.parametrize("q, b, N", [(Fraction(1, 3), Fraction(1), 20), (Fraction(9, 10), Fraction(1, 2), 10),
                                     (Fraction(1, 100), Fraction(1, 100), 2)])
def test_replace_one_sampled_laplace_masses_sum_to_one_and_keep_the_ratios(q, b, N):
    """Σ P and Σ Q enclose 1, narrowly (at b = 1/100 the atoms' small masses are e^{−100}-sized, the guard 152
    bits); e^{−(j+1)h}·P_j <= Q_j <= e^{−jh}·P_j on every bucket, the atoms' included."""
    pair = bounded.ReplaceLaplace(q, b)
    law = ref.replace_sampled_laplace(q, b)
    top = _replace_laplace_top(law, N)
    Wt, p_list, q_list, low, high = pair.bucket_masses(N, -top, top, 120 + pair.guard_bits(), POINTER)
    one = 1 << Wt
    for side, masses_ in ((0, p_list), (1, q_list)):
        parts = masses_ + [low[side], high[side]]
        total_lo, total_hi = sum(m[0] for m in parts), sum(m[1] for m in parts)
        assert total_lo <= one <= total_hi and total_hi - total_lo < len(parts) << (Wt - 120), side
    for k, ((x_lo, x_hi), (y_lo, y_hi)) in enumerate(zip(p_list, q_list)):
        j = k - top
        assert mpmath.exp(-mp(Fraction(j + 1, N))) * x_lo <= y_hi, j
        assert y_lo <= mpmath.exp(-mp(Fraction(j, N))) * x_hi, j


def test_replace_one_sampled_laplace_reference():
    """The reference's own identities: P and Q have mass 1; the pair is symmetric (the loss law under Q is that
    under P mirrored); at q = 1/2 the atom is exactly 1/b."""
    for q, b in ((Fraction(1, 3), Fraction(1)), (Fraction(1, 2), Fraction(1, 2)), (Fraction(9, 10), Fraction(3))):
        law = ref.replace_sampled_laplace(q, b)
        for name in ("P", "Q"):
            assert abs(ref.bucket_mass(law, None, None, name) - 1) < mpmath.mpf(10) ** -30
        for y in (Fraction(1, 7), Fraction(1, 3)):
            assert abs(ref.bucket_mass(law, y, None, "P") - ref.bucket_mass(law, None, -y, "Q")) \
                < mpmath.mpf(10) ** -30
    assert abs(ref.replace_sampled_laplace(Fraction(1, 2), Fraction(1, 2)).top - 2) < mpmath.mpf(10) ** -30


def test_replace_one_laplace_pairs_by_sampling():
    """replace_one: q in (0, 1) the new pair, q = 1 the add/remove pair of scale b/2; add_or_remove: its own pair;
    the guard as the add/remove Laplace pair's at (q, b), and the work at its own constant."""
    mechanism = {"mechanism": "laplace", "sampling": "1/4", "scale": "3/2"}
    assert isinstance(accounting.pair_of(mechanism, families.REPLACE), bounded.ReplaceLaplace)
    assert isinstance(families.laplace(Fraction(3, 2), Fraction(1, 4), families.REPLACE), bounded.ReplaceLaplace)
    whole = accounting.pair_of(dict(mechanism, sampling="1"), families.REPLACE)
    assert isinstance(whole, families.Laplace) and (whole.q, whole.scale) == (1, Fraction(3, 4))
    added = accounting.pair_of(mechanism, families.ADD_OR_REMOVE)
    assert isinstance(added, families.Laplace) and (added.q, added.scale) == (Fraction(1, 4), Fraction(3, 2))
    pair = bounded.ReplaceLaplace(Fraction(1, 4), Fraction(1, 100))
    assert pair.guard_bits() == families.Laplace(Fraction(1, 4), Fraction(1, 100)).guard_bits() == 24 + 3 + 150
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, bounded.REPLACE_LAPLACE_NS)
    for q in (0, 1):
        with pytest.raises(ValueError, match="sampling q in"):
            bounded.ReplaceLaplace(q, 1)


@pytest.mark.parametrize("p, k, N", [(Fraction(3, 4), 4, 40), (Fraction(1, 3), 5, 10), (Fraction(1, 2), 2, 7),
                                     (Fraction(1, 10 ** 6), 10 ** 9, 3)])
def test_randomized_response_masses_are_exact(p, k, N):
    pair = families.randomized_response(p, k)
    L = mpmath.log((1 - mp(p) + mp(p) / k) / (mp(p) / k))
    top = int(mpmath.floor(L * N))
    _check_masses(pair, ref.randomized_response(p, k), N, -top - 3, top + 3, W=100, narrow=4)
    # the three atoms sit in buckets ⌊±L·N⌋ and 0
    Wt, p_list, q_list, low, high = pair.bucket_masses(N, -top - 3, top + 3, 100, POINTER)
    occupied = [i - top - 3 for i, m in enumerate(p_list) if m != (0, 0)]
    assert occupied == sorted({-top - 1, top} | ({0} if k > 2 else set()))


# ---- one step: the arrays bound δ(ε) of both orders ------------------------------------------------------------

ONE_STEP = [  # (pair, reference law: built in the test, at the fixture's mpmath precision, N, lo, hi, ε list)
    (families.ReplaceGaussian(Fraction(1, 10), Fraction(1, 2)),
     lambda: ref.replace_gaussian(Fraction(1, 10), Fraction(1, 2)), 200, -3000, 3000, ["0", "1/2", "2"]),
    (families.mixture(Fraction(1), [Fraction(1), Fraction(2)], [Fraction(1, 2)] * 2, Fraction(1, 4)),
     lambda: ref.mixture(1, [1, 2], [Fraction(1, 2)] * 2, Fraction(1, 4)), 100, -29, 1200, ["0", "1/3", "1"]),
    (families.laplace(Fraction(1, 2), Fraction(1, 5), families.ADD_OR_REMOVE),
     lambda: ref.laplace(Fraction(1, 5), Fraction(1, 2)), 100, -40, 180, ["0", "1/4", "1"]),
    (families.laplace(Fraction(1), Fraction(1), families.ADD_OR_REMOVE), lambda: ref.laplace(1, 1), 64, -64, 65,
     ["0", "1/2", "1", "2"]),
    (families.randomized_response(Fraction(3, 4), 4), lambda: ref.randomized_response(Fraction(3, 4), 4), 40, -40, 40,
     ["0", "1/2", "1"]),
    (families.gaussian_composition(Fraction(2, 3), Fraction(1, 10), families.ADD_OR_REMOVE),
     lambda: _composition_law(Fraction(1, 10), Fraction(2, 3)), 200, -23, 3000, ["0", "1/2", "2"]),
    (families.gaussian_composition(Fraction(2, 3), Fraction(1, 10), families.REPLACE),
     lambda: ref.replace_gaussian(Fraction(1, 10), _sqrt(Fraction(2, 3))), 100, -1500, 1500, ["0", "1/2", "2"]),
    (bounded.ReplaceLaplace(Fraction(1, 5), Fraction(1, 2)),
     lambda: ref.replace_sampled_laplace(Fraction(1, 5), Fraction(1, 2)), 100, -110, 110, ["0", "1/4", "1"]),
    (bounded.ReplaceLaplace(Fraction(1, 2), Fraction(1, 2)),
     lambda: ref.replace_sampled_laplace(Fraction(1, 2), Fraction(1, 2)), 40, -90, 90, ["0", "1/2", "19/10"]),
]


@pytest.mark.parametrize("pair, law, N, lo, hi, epsilons", ONE_STEP,
                         ids=["replace-gaussian", "mixture", "laplace-sampled", "laplace", "randomized-response",
                              "gaussian-composition", "replace-gaussian-composition", "replace-laplace-sampled",
                              "replace-laplace-half"])
def test_one_step_bounds_enclose_the_reference(pair, law, N, lo, hi, epsilons):
    """T = 1: L_o(ε) <= δ_o(ε) <= F_o(ε) in both orders, and within a few grid steps of the loss."""
    K, K_q = 96, 120
    law = law()
    arrays = masses.single_step(masses.Stage(pair, 1, lo, hi), N, K, K_q, lower=ORDERS)
    for order, one in arrays.items():
        upper = answer.UpperTail(Array(one.LO, one.upper, one.upper_atom), K, N, 160)
        lower = answer.LowerEvents(Array(one.LO, one.lower_p), Array(one.LO, one.lower_q, one.lower_atom), K, K_q)
        for e in map(Fraction, epsilons):
            true = max(ref.delta_one(law, e, order), mpmath.mpf(0))
            f = upper.bound(e)
            lam = Fraction(mpmath.nstr(mpmath.exp(mp(e)) * (1 + mpmath.mpf(10) ** -30), 38))
            ell = lower.bound(lam)
            assert mp(ell) <= true <= mp(f), (order, e, ell, true, f)
            slack = 8 * mpmath.exp(mp(e)) / N * max(true, mpmath.mpf(10) ** -12) + mpmath.mpf(10) ** -20
            assert mp(f) - true <= slack and true - mp(ell) <= slack, (order, e, ell, true, f)


def test_bounded_loss_upper_bound_is_exactly_zero_beyond_the_top():
    """Randomized response, L = log(7/3): F(ε) = 0 exactly once ε is past the top atom's upper grid point."""
    pair = families.randomized_response(Fraction(3, 4), 4)       # L = log(7/3) = 0.847...
    arrays = masses.single_step(masses.Stage(pair, 1, -40, 40), 40, 64, 80)
    for one in arrays.values():
        upper = answer.UpperTail(Array(one.LO, one.upper, one.upper_atom), 64, 40, 100)
        assert upper.bound(Fraction(35, 40)) == 0      # the atom in bucket 33: its split reaches 34/40 at most
        assert upper.bound(Fraction(33, 40)) > 0


# ---- the mixture's two routes of brackets -----------------------------------------------------------------------

ROUTE_CASES = [   # ([(d_k, a_k)], N, lo, hi, W)
    ([(Fraction(1, 2), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))], 23, -165, 287, 130),
    ([(Fraction(0), Fraction(3, 4)), (Fraction(1, 2), Fraction(1, 8)), (Fraction(1), Fraction(1, 8))], 202, -59, 300,
     120),
    ([(Fraction(0), Fraction(1, 2)), (Fraction(10, 11), Fraction(1, 4)), (Fraction(20, 11), Fraction(1, 4))], 50, -40,
     200, 150),
    ([(Fraction(0), Fraction(99, 100)), (Fraction(16, 77), Fraction(1, 400)), (Fraction(76, 55), Fraction(1, 400)),
      (Fraction(18, 11), Fraction(1, 300)), (Fraction(124, 55), Fraction(1, 600))], 20, -1, 40, 150),   # n_k to 868
    ([(Fraction(0), Fraction(1, 2)), (Fraction(1), Fraction(1, 4)), (Fraction(2), Fraction(1, 4))], 10000, -6935,
     -6925, 150),                                                                   # e^y just above a_0
    ([(Fraction(1, 3), Fraction(1, 2)), (Fraction(2, 3), Fraction(1, 2))], 10, -400, 20, 120),   # e^y down to e^−40
]


def _roots_inside(components, N, lo, hi, W, z):
    d = [(mp(x), mp(a)) for x, a in components]
    a0 = sum(a for x, a in d if x == 0)
    with mpmath.workprec(4 * W):
        for i, b in zip(range(lo, hi + 1), z):
            y = mpmath.mpf(i) / N
            if mpmath.exp(y) <= a0:
                assert b is None, i
                continue

            def loss(t, y=y):
                return mpmath.log(sum(a * mpmath.exp(x * t - x * x / 2) for x, a in d)) - y
            assert loss(mpmath.mpf(b[0]) / 2 ** W) <= 0 <= loss(mpmath.mpf(b[1]) / 2 ** W), (i, b)
            assert b[1] - b[0] <= 8, (i, b)


@pytest.mark.parametrize("components, N, lo, hi, W", ROUTE_CASES)
def test_mixture_polynomial_route_brackets_the_roots(components, N, lo, hi, W, monkeypatch):
    """The polynomial route holds every root, a few units wide, and never falls back to the Newton route here."""
    assert roots.polynomial_route(components)

    def refused(*args):
        raise AssertionError(f"fell back to the Newton route at {args[2]}")
    monkeypatch.setattr(roots, "_newton_brackets", refused)
    _roots_inside(components, N, lo, hi, W, roots.brackets(components, N, lo, hi, W, POINTER))


def test_mixture_routes_agree():
    components, N, lo, hi, W = ROUTE_CASES[2]
    new = roots.brackets(components, N, lo, hi, W, POINTER)
    old = roots._newton_brackets(components, N, lo, hi, W, POINTER)
    assert [b is None for b in new] == [b is None for b in old]
    assert all(b is None or (b[0] <= c[1] and c[0] <= b[1]) for b, c in zip(new, old))


def test_mixture_polynomial_route_limits():
    half = Fraction(1, 2)
    assert roots.polynomial_route([(Fraction(1), half), (Fraction(1023, 1024), half)])         # n = 1024
    assert not roots.polynomial_route([(Fraction(1), half), (Fraction(1024, 1025), half)])     # n = 1025
    assert roots.polynomial_route([(Fraction(52), half), (Fraction(1), half)])                 # g = 2028 + 2 + 8
    assert not roots.polynomial_route([(Fraction(53), half), (Fraction(1), half)])             # g = 2107 + 2 + 8
    pair = families.mixture(Fraction(1, 10), [Fraction(50), Fraction(100)], [half, half], half)
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, 2 * families.MIXTURE_NS)
    pair = families.mixture(Fraction(2), [Fraction(1), Fraction(2)], [half, half], Fraction(1))
    assert pair.mass_work(1000, 200, 40) == pairs.work(1000, 200, 40, 2 * families.MIXTURE_POLYNOMIAL_NS)


def test_mixture_unproved_level_goes_the_newton_route(monkeypatch):
    """A level whose polynomial bracket is never proved is bracketed by the Newton route, and still holds the root."""
    components, N, lo, hi, W = ROUTE_CASES[0]
    calls = []
    original = roots._newton_brackets

    def spy(*args):
        calls.append(args[2])
        return original(*args)
    monkeypatch.setattr(roots, "_newton_brackets", spy)
    monkeypatch.setattr(roots._Polynomial, "proved", lambda *args: False)
    z = roots.brackets(components, N, 0, 3, W, POINTER)
    assert calls == [0, 1, 2, 3]
    _roots_inside(components, N, 0, 3, W, z)
