"""Bucket masses of the discrete pairs: the discrete Laplace and discrete Gaussian mechanisms (docs/accounting.md §4–5).

Numbers are integers over 2^W; an enclosure is (lo, hi) with lo <= 2^W·value <= hi.

**The pairs.**  Integer noise, N centred at 0 and N_d its shift by an integer d >= 1 (d = s under add/remove; d = 2s
under replace-one unsampled: the replaced record moves the value by at most 2s, and an integer shift keeps the
lattice, so N_s against N_{−s} has the losses of N_{2s} against N_0; replace-one sampled below: the replace-one pairs):

    P = (1 − q)·N + q·N_d,   Q = N,   ℓ(x) = log(1 − q + q·e^{ℓ₁(x)}),   ℓ₁(x) = log(N_d(x)/N(x))

(Poisson subsampling of a remove step: "Optimal Accounting of Differential Privacy via Characteristic Function",
Zhu, Dong, Wang 2022, Theorem 11).  Every output is an integer, so the loss law is a law of atoms: the output x
has P-mass (1 − q)·N(x) + q·N_d(x) and Q-mass N(x) at the loss ℓ(x).  An atom belongs to the one bucket
[i·h, (i+1)·h) that holds its value, to the low tail below lo·h, to the high tail at or above hi·h
(:func:`place`, :func:`auditor.pld.bounded._assemble`).

**Exact placement.**  ℓ₁(x) = c is rational for both laws.  At q = 1 the atom's value is c, and the levels at or
below it are those with i <= ⌊N·c⌋, exactly.  At q < 1, c = 0 gives the value 0 exactly; for every other c no level
equals the value (e^{i/N} = 1 − q + q·e^c is a nonzero polynomial identity in e^{1/m}, m a common denominator of c and
i/N, which Lindemann's theorem excludes), so each comparison is decided by enclosures: a coarse enclosure of the
value (:data:`COARSE_BITS`) places every level outside it exactly, the level 0 inside it by the value's exact sign
(that of c: log(1 − q + q·e^c) increases with c), and any other level inside it is compared by
:func:`auditor.pld.bounded._compare_exp`, refined until the two separate (at most
:data:`auditor.pld.bounded.MAX_SIGN_BITS` bits, then not established).  e^{−t} for t > :data:`FAR` is bounded by
[0, 2^{−k}] with k <= t/ln 2 instead of enclosed (ln 2 < 0.6932): such an atom's value lies beyond every level of a
range the recipe's limits admit (|i/N| <= 1024), or within 2^{−k} of log(1 − q).

**The discrete Gaussian's buckets, by level.**  Its loss is increasing in x, so a bucket holds a run of consecutive
atoms, and the runs are fixed by the levels alone: s_i, the first atom x with ℓ(x) >= i/N, for each level between
the first atom's value and the last's (the atoms −m and d + m are placed as above; the levels at or below the first
have s_i = −m, those above the last none).  At q = 1, ℓ(x) = ℓ₁(x) >= i/N exactly when x >= σ²·i/(N·d) + d/2, so
s_i = ⌈σ²·i/(N·d) + d/2⌉.  At q < 1, ℓ(x) >= y exactly when x >= x*(y) = σ²·log((e^y − 1 + q)/q)/d + d/2 (the
loss continued to real x, increasing; e^y > 1 − q above the first atom's value), and s_i = ⌈x*(i/N)⌉: an enclosure
[x_lo, x_hi] of x*(i/N) at 40 + bits(⌈σ²/d⌉) + bits(⌊1/q⌋) bits puts s_i among ⌈x_lo⌉ ... ⌊x_hi⌋ + 1, and where
that leaves more than one atom, bisection over them decides ℓ(x) >= i/N exactly (at c = 0 by the value 0, else as
an atom above).  So the work is a preimage per level inside the atoms' span, not a placement per atom; when that
span holds more levels than there are atoms, every atom is placed instead and the s_i read off their counts.  A
run's N- and N_d-masses are sums of the kernel's enclosures (running sums over −m − d ... m + d) times 1/Z, rounded
once: at least as tight as the atoms' rounded masses summed.

**The discrete Laplace** DLap(a), pmf tanh(a/2)·e^{−a|x|}: ℓ₁(x) = a·(|x| − |x − d|) takes the d + 1 values
a·(2j − d), j = 0 ... d, at the outputs x <= 0 (j = 0), x = j (0 < j < d) and x >= d (j = d), with r = e^{−a}:

    N:    1/(1 + r),       tanh(a/2)·r^j,        r^d/(1 + r),
    N_d:  r^d/(1 + r),     tanh(a/2)·r^{d−j},    1/(1 + r)

(Σ_{x<=0} tanh(a/2)·r^{|x|} = tanh(a/2)/(1 − r) = 1/(1 + r), tanh(a/2) = (1 − r)/(1 + r)).  The powers r^k come from
one enclosure of r by directed products: each product adds at most two units and multiplies the error so far by
r <= e^{−1/100}, so no power errs by more than 2/(1 − r) + 2 < 2^8 units; the masses are computed with
bits(d + 1) + 12 bits beyond W, so the d + 1 atoms together err by less than a unit of 2^−W.

**The replace-one pairs, sampled** (q in (0, 1), sensitivity s >= 1; for the continuous laws the pair of
:class:`auditor.pld.bounded.ReplaceLaplace` and :class:`auditor.pld.families.ReplaceGaussian`, whose domination
argument — a symmetric log-concave noise, the countermonotone coupling — holds on the integers as well):

    P = (1 − q)·N + q·N_s,   Q = (1 − q)·N + q·N_{−s},
    ℓ(x) = log((1 − q + q·e^{ℓ₊(x)})/(1 − q + q·e^{ℓ₋(x)})),   ℓ₊ = log(N_s/N),   ℓ₋ = log(N_{−s}/N),

non-decreasing in x; x ↦ −x swaps P and Q (and ℓ₊, ℓ₋), so both orders have the same loss law.

*Exact ties.*  For rational y, ℓ₊ and ℓ₋ (both families' are rational) and q in (0, 1), ℓ(x) = y holds only when
ℓ₊ = ℓ₋ (then ℓ = 0) or when q = 1/2 and ℓ₊ = −ℓ₋ = y.  Proof: with D a common denominator of y, ℓ₊ and ℓ₋, t = e^{1/D},
m = yD and n± = ℓ±·D, ℓ(x) = y reads F(t) = (1 − q)·t^m + q·t^{m+n₋} − (1 − q) − q·t^{n₊} = 0, a Laurent polynomial
with rational coefficients; t is transcendental (Lindemann), so F is the zero polynomial and every exponent's
coefficients cancel.  m = 0 leaves q·t^{n₋} − q·t^{n₊}: n₊ = n₋.  m ≠ 0: the coefficient of t^m is
(1 − q) + q·[n₋ = 0] − q·[n₊ = m]; n₋ = 0 would need 1 = q·[n₊ = m], impossible for q < 1, so n₋ ≠ 0 and
1 − q = q·[n₊ = m]: q = 1/2 and n₊ = m; then q·t^{m+n₋} must cancel −(1 − q)·t⁰: m + n₋ = 0.  Conversely both
cases are ties ((1 + e^y)/(1 + e^{−y}) = e^y).  So such an atom is placed exactly (:func:`_place_exact`), and every
other comparison of a level with an atom's value terminates: its coarse enclosure at :data:`COARSE_BITS`
(:func:`_ratio_bounds`, no large exponential) places the levels outside it, the level 0 by the value's exact sign
(that of ℓ₊ − ℓ₋, c ↦ 1 − q + q·e^c increasing; needed where both ℓ± are very negative, a value within
e^{max(ℓ₊, ℓ₋)} of 0), and another level inside it is compared with e^ℓ by refinement (:func:`place_ratio`; at most
:data:`auditor.pld.bounded.MAX_SIGN_BITS` bits, then not established).  One of ℓ₊, ℓ₋ is <= 0 in both families
(ℓ₊ + ℓ₋ <= 0), so inside the enclosure of a level |i/N| <= 1024 the other exceeds it by at most
log(1/q) + log(1/(1 − q)): the exponentials enclosed stay moderate.

*The discrete Laplace*: ℓ₊(x) = a(|x| − |x − s|), ℓ₋(x) = a(|x| − |x + s|); the outputs x <= −s and x >= s each
form one atom (ℓ± constant there), so the atoms are j = −s ... s, and under N_c (c in {−s, 0, s}, r = e^{−a}) the
atom x <= −s has mass r^{s+c}/(1 + r), the atom x >= s r^{s−c}/(1 + r), a middle atom j tanh(a/2)·r^{|j−c|} (the
sums of the add/remove case below, with its powers up to r^{2s}, errors and 2s + 1 atoms: bits(2s + 1) + 12 bits
beyond W).  Its ties: x = 0 at 0 (ℓ₊ = ℓ₋ = −as); at q = 1/2 the end atoms at ±as exactly.

**The discrete Gaussian** N_Z(0, σ²), pmf f(x)/Z with f(x) = e^{−x²/(2σ²)}, Z = Σ_{k∈ℤ} f(k) ("The Discrete Gaussian
for Differential Privacy", Canonne, Kamath, Steinke 2020): ℓ₁(x) = (2dx − d²)/(2σ²), increasing in x, one atom per
integer.  The atoms −m <= x <= d + m are computed, m the least integer with m² >= 1.4·σ²·(W + 64)
(:func:`radius`); f(n) for 0 <= n <= M = m + d from an enclosure of e^{−n²/(2σ²)} every :data:`BLOCK` values and,
in between, the chain f(n + 1) = f(n)·g(n), g(n + 1) = g(n)·e^{−1/σ²} with g(n) = e^{−(2n+1)/(2σ²)} (errors below
BLOCK² + 2·BLOCK units); an argument t >= 0.6932·W is enclosed by [0, 2^−W].  Tails: for n >= k,
f(n + 1)/f(n) = e^{−(2n+1)/(2σ²)} <= ρ_k := e^{−(2k+1)/(2σ²)}, so Σ_{n>=k} f(n) <= f(k)/(1 − ρ_k) =: τ(k).  Then

    Z ∈ f(0) + 2·Σ_{n=1}^{M} f(n) + [0, 2·τ(M + 1)].

The outputs x < −m have Q-mass Σ_{n>m} f(n)/Z <= τ(m + 1)/Z and P-mass no more (f(x − d) <= f(x) there); the outputs
x > d + m likewise (f(x) <= f(x − d) there).  The loss being increasing in x, their values lie below the atom −m's
(above the atom d + m's), so every bucket at or below the atom −m's bucket and the low tail (every bucket at or
above the atom d + m's and the high tail) get [0, τ(m + 1)/Z] added to their P- and Q-enclosures: valid enclosures
whatever the places of those atoms, and τ(m + 1) < 2^{−W−50}.

*The replace-one discrete Gaussian, sampled*: ℓ±(x) = (±2sx − s²)/(2σ²), ℓ strictly increasing (ℓ₊ increases, ℓ₋
decreases); its only tie is x = 0 at 0 (ℓ₊ = −ℓ₋ would need s² = 0).  The atoms −m − s ... m + s (m as above), the
kernel up to M = m + 2s, a run's N-, N_s- and N_{−s}-masses from the same running sums.  Beyond the atoms: for
x < −m − s, N_{−s}(x) = f(x + s)/Z with |x + s| > m, and N(x), N_s(x) are smaller (|x|, |x − s| larger still), so
the P- and Q-masses there are at most τ(m + 1)/Z, and symmetrically above m + s: spread as above.  The runs by
level: with u = e^{sx/σ²} and c = e^{−K}, K = s²/(2σ²), ℓ(x) = y reads q·c·u² − (e^y − 1)(1 − q)·u − e^y·q·c = 0,
whose positive root divided by e^{y/2} is t + √(t² + 1), t = (1 − q)·sinh(y/2)/(q·c) (the replace-one Gaussian's
at noise σ/s and x/s, :class:`auditor.pld.families.ReplaceGaussian`), so for y > 0, with g = (1 − q)·sinh(y/2)/q,

    x*(y) = σ²·(y/2 + asinh t)/s = σ²·(y/2 + K + log(g + √(g² + e^{−2K})))/s,

no factor e^K computed; odd in y, x*(0) = 0; enclosed at 40 + bits(⌈σ²/s⌉) + bits(denominator of y) bits (sinh(y/2)
from e^{±y/2} loses about bits(1/y)), the atoms it leaves open decided by bisection as above.  An atom's value is
computed once per |x| (ℓ(−x) = −ℓ(x)).
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds, log_bounds
from auditor.pld import bounded
from auditor.pld.preimages import exp_fixed
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["place", "place_ratio", "discrete_laplace_masses", "replace_discrete_laplace_masses",
           "discrete_gaussian_masses", "laplace_centre", "gaussian_centre", "radius", "atom_count", "COARSE_BITS",
           "FAR", "BLOCK"]

COARSE_BITS = 96
"""Precision (bits) of the coarse enclosure of an atom's loss value at q < 1."""
FAR = 1000
"""Beyond e^{−FAR}, e^{−t} is bounded by a power of two instead of enclosed."""
BLOCK = 32
"""Values of the discrete Gaussian's kernel between two direct enclosures."""
LN2_UPPER = Fraction(6932, 10000)


# ---- placing an atom -------------------------------------------------------------------------------------------

def _small_exp(t, bits):
    """(lo, hi) Fractions around e^{−t}, t >= 0: enclosed up to t = FAR, beyond that [0, 2^{−k}], k <= t/ln 2."""
    if t <= FAR:
        return exp_bounds(-t, bits)
    return Fraction(0), Fraction(1, 1 << min(floor(t / LN2_UPPER), bits + 64))


def _value_bounds(q, c, bits=COARSE_BITS):
    """(lo, hi) Fractions around v = log(1 − q + q·e^c), 0 < q < 1 and c ≠ 0 rational."""
    if c > 0:      # v = c + log(q + (1 − q)·e^{−c}): no large exponential
        e_lo, e_hi = _small_exp(c, bits)
        return c + log_bounds(q + (1 - q) * e_lo, bits)[0], c + log_bounds(q + (1 - q) * e_hi, bits)[1]
    e_lo, e_hi = _small_exp(-c, bits)
    return log_bounds(1 - q + q * e_lo, bits)[0], log_bounds(1 - q + q * e_hi, bits)[1]


def _target(q, c):
    """``target(bits)``: (lo, hi) around u = 1 − q + q·e^c (reached only for c below about 1203, see the module
    docstring: a larger c has its value above every admissible level)."""
    def target(bits):
        e_lo, e_hi = exp_bounds(c, bits) if c > 0 else _small_exp(-c, bits)
        return 1 - q + q * e_lo, 1 - q + q * e_hi
    return target


def _place_exact(v, N, lo, hi):
    """(at_most, below) of the levels i/N, lo <= i <= hi, against a rational value v, exactly."""
    n = hi - lo + 1
    return min(n, max(0, floor(N * v) - lo + 1)), min(n, max(0, ceil(N * v) - lo))


class _Enclosed:
    """An irrational loss value v (never a level): its coarse enclosure ``bounds``, ``target(bits)`` enclosing e^v,
    its exact ``sign`` (±1) and a text for the report."""

    __slots__ = ("bounds", "target", "sign", "what")

    def __init__(self, bounds, target, sign, what):
        self.bounds, self.target, self.sign, self.what = bounds, target, sign, what

    def level_sign(self, i, N, pointer):
        """The sign of i/N − v for a level inside the enclosure: the level 0 by v's sign (a value within 2^{−96}
        of 0 may need more bits than any cap), any other by :func:`auditor.pld.bounded._compare_exp`."""
        if i == 0:
            return -self.sign
        return bounded._compare_exp(i, N, self.target, pointer, self.what)

    def negated(self):
        """−v: the enclosure negated, the target e^{−v} inverted."""
        target = self.target

        def inverse(bits):
            t_lo, t_hi = target(bits)
            return 1 / t_hi, 1 / t_lo
        return _Enclosed((-self.bounds[1], -self.bounds[0]), inverse, -self.sign, f"-{self.what}")


def _place_enclosed(value, N, lo, hi, pointer):
    """(at_most, below) against an :class:`_Enclosed` value v: the levels outside its coarse enclosure exactly,
    those inside it by :meth:`_Enclosed.level_sign`."""
    v_lo, v_hi = value.bounds
    n = hi - lo + 1
    first, last = max(lo, ceil(N * v_lo)), min(hi, floor(N * v_hi))     # the levels inside the enclosure
    count = min(n, max(0, first - lo))                                  # below v_lo: below v
    for i in range(first, last + 1):
        if value.level_sign(i, N, pointer) > 0:
            break
        count += 1
    return count, count                                                 # v is never a level here


def _value(q, c):
    """The loss value v = log(1 − q + q·e^c) of an atom with ℓ₁ = c: a Fraction where it is rational (q = 1: c;
    c = 0: 0), else an :class:`_Enclosed` (v has the sign of c)."""
    if q == 1 or c == 0:
        return Fraction(c)
    return _Enclosed(_value_bounds(q, c), _target(q, c), 1 if c > 0 else -1, f"log(1 - q + q e^({c}))")


def _placed(value, N, lo, hi, pointer):
    """(at_most, below) of the levels i/N, lo <= i <= hi, against an atom's ``value`` (:func:`_value`)."""
    if isinstance(value, Fraction):
        return _place_exact(value, N, lo, hi)
    return _place_enclosed(value, N, lo, hi, pointer)


def place(q, c, N, lo, hi, pointer):
    """(at_most, below): how many of the levels i/N, lo <= i <= hi, lie at or below (strictly below) the loss value
    v = log(1 − q + q·e^c) of an atom with ℓ₁ = c (v = c at q = 1)."""
    return _placed(_value(q, c), N, lo, hi, pointer)


def _ratio_exact(q, plus, minus):
    """The value v = log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})) of a replace-one atom when it is rational (the
    module docstring's exact ties: 0 when ℓ₊ = ℓ₋, ℓ₊ when q = 1/2 and ℓ₋ = −ℓ₊), else None."""
    if plus == minus:
        return Fraction(0)
    if q == Fraction(1, 2) and plus == -minus:
        return Fraction(plus)
    return None


def _scaled_mix(q, c, bits):
    """(lo, hi) around B(c) = e^{−max(c, 0)}·(1 − q + q·e^c), which lies in [min(q, 1 − q), 1]: no large
    exponential."""
    e_lo, e_hi = _small_exp(abs(c), bits)
    if c > 0:
        return q + (1 - q) * e_lo, q + (1 - q) * e_hi
    return 1 - q + q * e_lo, 1 - q + q * e_hi


def _ratio_bounds(q, plus, minus, bits=COARSE_BITS):
    """(lo, hi) around v = log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})) = max(ℓ₊, 0) − max(ℓ₋, 0) + log(B₊/B₋)
    (:func:`_scaled_mix`): one logarithm of a ratio of enclosures, at each end."""
    (a_lo, a_hi), (b_lo, b_hi) = _scaled_mix(q, plus, bits), _scaled_mix(q, minus, bits)
    shift = max(plus, 0) - max(minus, 0)
    return shift + log_bounds(a_lo / b_hi, bits)[0], shift + log_bounds(a_hi / b_lo, bits)[1]


def _ratio_target(q, plus, minus):
    """``target(bits)``: (lo, hi) around (1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋}), the denominator >= 1 − q > 0."""
    up, down = _target(q, plus), _target(q, minus)

    def target(bits):
        (u_lo, u_hi), (d_lo, d_hi) = up(bits), down(bits)
        return u_lo / d_hi, u_hi / d_lo
    return target


def _ratio_value(q, plus, minus):
    """The loss value of a replace-one atom with ℓ₊ = ``plus``, ℓ₋ = ``minus`` (0 < q < 1), as :func:`_value`."""
    exact = _ratio_exact(q, plus, minus)
    if exact is not None:
        return exact
    return _Enclosed(_ratio_bounds(q, plus, minus), _ratio_target(q, plus, minus), 1 if plus > minus else -1,
                     f"log((1 - q + q e^({plus}))/(1 - q + q e^({minus})))")


def _negated(value):
    """−v for a value of :func:`_value`'s form."""
    return -value if isinstance(value, Fraction) else value.negated()


def place_ratio(q, plus, minus, N, lo, hi, pointer):
    """(at_most, below) of the levels i/N, lo <= i <= hi, against the loss value of a replace-one atom with
    ℓ₊ = ``plus`` and ℓ₋ = ``minus`` (0 < q < 1): exactly at the ties, by enclosures everywhere else."""
    return _placed(_ratio_value(q, plus, minus), N, lo, hi, pointer)


def _times(x, y, W):
    """Directed product of two enclosures over 2^W."""
    return (x[0] * y[0]) >> W, ceil_div(x[1] * y[1], 1 << W)


def _mix(q, n_mass, nd_mass):
    """(1 − q)·N + q·N_d of two enclosures, rounded outward."""
    a, b = q.numerator, q.denominator
    return (((b - a) * n_mass[0] + a * nd_mass[0]) // b, ceil_div((b - a) * n_mass[1] + a * nd_mass[1], b))


# ---- the discrete Laplace ------------------------------------------------------------------------------------

def _powers(r, k_max, W):
    """[(lo, hi)] of 2^W·r^k for k = 0 ... k_max, from the enclosure ``r`` over 2^W (directed products)."""
    one = 1 << W
    lo = hi = one
    out = [(one, one)]
    for _ in range(k_max):
        lo, hi = (lo * r[0]) >> W, ceil_div(hi * r[1], one)
        out.append((lo, hi))
    return out


def _laplace_parts(a, k_max, Wt):
    """([2^Wt·r^k for k = 0 ... k_max], 1/(1 + r), tanh(a/2) = (1 − r)/(1 + r)), r = e^{−a}, enclosures over
    2^Wt."""
    one = 1 << Wt
    r = exp_fixed(-a, Wt)                                                 # e^{−a}
    half = ((one << Wt) // (one + r[1]), ceil_div(one << Wt, one + r[0]))                   # 1/(1 + r)
    tanh = (((one - r[1]) << Wt) // (one + r[1]), ceil_div((one - r[0]) << Wt, one + r[0]))   # (1 − r)/(1 + r)
    return _powers(r, k_max, Wt), half, tanh


def _laplace_laws(a, L, H, W):
    """(Wt, law): ``law(c, x)`` the (lo, hi) over 2^Wt of DLap(a) centred at the integer c on the atom x of the atoms
    L ... H (L: every output <= L, H: every output >= H, L <= c <= H), Wt = W + bits(H − L + 1) + 12 (module
    docstring): r^{c−L}/(1 + r), tanh(a/2)·r^{|x−c|}, r^{H−c}/(1 + r)."""
    Wt = W + (H - L + 1).bit_length() + 12
    powers, half, tanh = _laplace_parts(a, H - L, Wt)

    def law(c, x):
        if x == L:
            return _times(powers[c - L], half, Wt)
        if x == H:
            return _times(powers[H - c], half, Wt)
        return _times(tanh, powers[abs(x - c)], Wt)
    return Wt, law


def discrete_laplace_masses(q, a, d, N, lo, hi, W, pointer):
    """(Wt, p_list, q_list, low, high): the discrete Laplace pair (parameter a, shift d >= 1, sampling q) over 2^Wt,
    Wt >= W."""
    Wt, law = _laplace_laws(a, 0, d, W)
    atoms = []
    for j in range(d + 1):
        n_mass = law(0, j)
        counts = place(q, a * (2 * j - d), N, lo, hi, pointer)
        atoms.append(bounded._Atom(_mix(q, n_mass, law(d, j)), n_mass, counts))
    return (Wt,) + bounded._assemble(hi - lo + 1, atoms, None)


def laplace_centre(a, s, W):
    """(Wt, N(s), N(|x| <= s)) of N = DLap(a), s >= 1, enclosures over 2^Wt with the Wt of the pair of shift 2s at
    W (:func:`discrete_laplace_masses`): N(s) = tanh(a/2)·r^s and, N(x > s) being Σ_{x>s} tanh(a/2)·r^x =
    r^{s+1}/(1 + r), N(|x| <= s) = 1 − 2·r^{s+1}/(1 + r)."""
    Wt = W + (2 * s + 1).bit_length() + 12
    powers, half, tanh = _laplace_parts(a, s + 1, Wt)
    above = _times(powers[s + 1], half, Wt)                             # N(x > s) = N(x < −s)
    one = 1 << Wt
    return Wt, _times(tanh, powers[s], Wt), (max(0, one - 2 * above[1]), one - 2 * above[0])


def replace_discrete_laplace_masses(q, a, s, N, lo, hi, W, pointer):
    """(Wt, p_list, q_list, low, high): the replace-one discrete Laplace pair (parameter a, sensitivity s >= 1,
    sampling q in (0, 1)) over 2^Wt, Wt >= W: the atoms x = −s ... s (module docstring)."""
    Wt, law = _laplace_laws(a, -s, s, W)
    values = [_ratio_value(q, a * (x - abs(x - s)), a * (x - abs(x + s))) for x in range(s + 1)]
    atoms = []
    for x in range(-s, s + 1):
        n_mass = law(0, x)
        counts = _placed(values[x] if x >= 0 else _negated(values[-x]), N, lo, hi, pointer)   # ℓ(−x) = −ℓ(x)
        atoms.append(bounded._Atom(_mix(q, n_mass, law(s, x)), _mix(q, n_mass, law(-s, x)), counts))
    return (Wt,) + bounded._assemble(hi - lo + 1, atoms, None)


# ---- the discrete Gaussian -----------------------------------------------------------------------------------

def radius(sigma2, W):
    """m: the least integer >= 1 with m² >= 1.4·σ²·(W + 64) (the atoms beyond −m and d + m: less than 2^{−W−50})."""
    need = ceil(Fraction(14, 10) * Fraction(sigma2) * (W + 64))
    m = isqrt(need)
    return max(1, m if m * m >= need else m + 1)


def atom_count(sigma2, d, W):
    """The atoms −m ... d + m the masses at W bits compute."""
    return 2 * radius(sigma2, W) + d + 1


def _exp_neg_fixed(t, W):
    """(lo, hi) of 2^W·e^{−t}, t >= 0: [0, 1] when t >= 0.6932·W (then e^{−t} <= 2^{−W})."""
    if t >= W * LN2_UPPER:
        return 0, 1
    return exp_fixed(-t, W)


def _kernel(sigma2, M, W):
    """[(lo, hi)] of 2^W·f(n), f(n) = e^{−n²/(2σ²)}, for n = 0 ... M (module docstring)."""
    one = 1 << W
    rho = _exp_neg_fixed(1 / sigma2, W)
    out = []
    for n in range(M + 1):
        if n % BLOCK == 0:
            f = _exp_neg_fixed(Fraction(n * n) / (2 * sigma2), W)
            g = _exp_neg_fixed(Fraction(2 * n + 1) / (2 * sigma2), W)
        else:
            f = ((f[0] * g[0]) >> W, ceil_div(f[1] * g[1], one))     # f(n) = f(n − 1)·g(n − 1)
            g = ((g[0] * rho[0]) >> W, ceil_div(g[1] * rho[1], one))  # g(n) = g(n − 1)·e^{−1/σ²}
        out.append(f)
    return out


def _tail_upper(sigma2, k, W):
    """An integer >= 2^W·τ(k), τ(k) = f(k)/(1 − ρ_k) >= Σ_{n>=k} f(n) (module docstring)."""
    f_hi = _exp_neg_fixed(Fraction(k * k) / (2 * sigma2), W)[1]
    x = Fraction(2 * k + 1) / (2 * sigma2)
    rho = Fraction(1, 2) if x >= 1 else exp_bounds(-x, 64 + Fraction(1 / x).numerator.bit_length())[1]
    if rho >= 1:
        raise ArithmeticError(f"the tail ratio bound {rho} is not below 1")
    return ceil(f_hi / (1 - rho))


def _loss_numerator(d, x):
    """2σ²·ℓ₁(x) = 2dx − d² of the discrete Gaussian pair."""
    return 2 * d * x - d * d


def _reaches(value, i, N, pointer):
    """Whether the level i/N lies at or below an atom's ``value`` (:func:`_value`): exactly when it is rational,
    else by its coarse enclosure and, when the level is inside it, by refinement (never equal then)."""
    if isinstance(value, Fraction):
        return Fraction(i, N) <= value
    v_lo, v_hi = value.bounds
    if i <= N * v_lo:
        return True
    if i > N * v_hi:
        return False
    return value.level_sign(i, N, pointer) < 0


def _preimage_bounds(q, sigma2, d, y):
    """(lo, hi) Fractions around x*(y) = σ²·log((e^y − 1 + q)/q)/d + d/2, the real point where the pair's loss
    (continued to the reals) equals y, 0 < q < 1; None when the enclosure of e^y − (1 − q) reaches 0."""
    bits = 40 + ceil(sigma2 / d).bit_length() + (q.denominator // q.numerator).bit_length()
    e_lo, e_hi = exp_bounds(y, bits)
    u_lo, u_hi = e_lo - (1 - q), e_hi - (1 - q)
    if u_lo <= 0:
        return None
    scale, middle = sigma2 / d, Fraction(d, 2)
    return scale * log_bounds(u_lo / q, bits)[0] + middle, scale * log_bounds(u_hi / q, bits)[1] + middle


def _root_bounds(v, bits):
    """(lo, hi) Fractions around √v, v > 0 rational, hi − lo about 2^{−bits}·√v."""
    k = bits + max(0, (v.denominator.bit_length() - v.numerator.bit_length()) // 2 + 2)
    r = isqrt((v.numerator << (2 * k)) // v.denominator)
    return Fraction(r, 1 << k), Fraction(r + 1, 1 << k)


def _replace_preimage_bounds(q, sigma2, s, y):
    """(lo, hi) Fractions around x*(y), the real point where the replace-one pair's loss (continued to the reals)
    equals y, 0 < q < 1; None when the enclosure of sinh(|y|/2) reaches 0.  Odd in y; for y > 0, with
    K = s²/(2σ²) and g = (1 − q)·sinh(y/2)/q (module docstring),

        x*(y) = σ²·(y/2 + K + log(g + √(g² + e^{−2K})))/s."""
    if y == 0:
        return Fraction(0), Fraction(0)
    if y < 0:
        bounds = _replace_preimage_bounds(q, sigma2, s, -y)
        return None if bounds is None else (-bounds[1], -bounds[0])
    bits = 40 + ceil(sigma2 / s).bit_length() + y.denominator.bit_length()
    h_lo, h_hi = exp_bounds(y / 2, bits)
    w_lo, w_hi = (h_lo - 1 / h_lo) / 2, (h_hi - 1 / h_hi) / 2              # sinh(y/2), increasing in e^{y/2}
    if w_lo <= 0:
        return None
    g_lo, g_hi = (1 - q) * w_lo / q, (1 - q) * w_hi / q
    K = Fraction(s * s) / (2 * sigma2)
    e_lo, e_hi = _small_exp(2 * K, bits)
    a_lo = g_lo + _root_bounds(g_lo * g_lo + e_lo, bits)[0]
    a_hi = g_hi + _root_bounds(g_hi * g_hi + e_hi, bits)[1]
    scale, base = sigma2 / s, y / 2 + K
    return scale * (base + log_bounds(a_lo, bits)[0]), scale * (base + log_bounds(a_hi, bits)[1])


class _AddRemoveLoss:
    """The add/remove pair's atoms −m ... d + m: ℓ₁(x) = (2dx − d²)/(2σ²), value log(1 − q + q·e^{ℓ₁}); P-mass
    (1 − q)·N + q·N_d, Q-mass N."""

    def __init__(self, q, sigma2, d, m):
        self.q, self.sigma2, self.d = q, sigma2, d
        self.first, self.last, self.reach = -m, d + m, m + d

    def value(self, x):
        return _value(self.q, Fraction(_loss_numerator(self.d, x), 2 * self.sigma2))

    def exact_start(self, i, N):
        """At q = 1 the first atom at or above the level i/N: ℓ₁(x) >= i/N exactly when x >= σ²·i/(N·d) + d/2."""
        if self.q == 1:
            return ceil(self.sigma2 * Fraction(i, N * self.d) + Fraction(self.d, 2))
        return None

    def preimage(self, y):
        return _preimage_bounds(self.q, self.sigma2, self.d, y)

    def masses(self, mass):
        """(P, Q) of a run from ``mass(c)``, the run's N_c-mass."""
        n_mass = mass(0)
        return _mix(self.q, n_mass, mass(self.d)), n_mass


class _ReplaceLoss:
    """The replace-one pair's atoms −m − s ... m + s (0 < q < 1): ℓ±(x) = (±2sx − s²)/(2σ²), value
    log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})); P-mass (1 − q)·N + q·N_s, Q-mass (1 − q)·N + q·N_{−s}."""

    def __init__(self, q, sigma2, s, m):
        self.q, self.sigma2, self.s = q, sigma2, s
        self.first, self.last, self.reach = -m - s, m + s, m + 2 * s
        self.values = {}

    def value(self, x):
        """The atom x's value, from the atom |x|'s (ℓ(−x) = −ℓ(x): ℓ₊ and ℓ₋ swap), each computed once."""
        if x < 0:
            return _negated(self.value(-x))
        if x not in self.values:
            s, two = self.s, 2 * self.sigma2
            self.values[x] = _ratio_value(self.q, Fraction(2 * s * x - s * s, two), Fraction(-2 * s * x - s * s, two))
        return self.values[x]

    def exact_start(self, i, N):
        return None

    def preimage(self, y):
        return _replace_preimage_bounds(self.q, self.sigma2, self.s, y)

    def masses(self, mass):
        n_mass = mass(0)
        return _mix(self.q, n_mass, mass(self.s)), _mix(self.q, n_mass, mass(-self.s))


def _first_atom(loss, i, N, a, b, pointer):
    """The first atom x in a + 1 ... b whose loss value is at or above the level i/N, given that the atom a's lies
    below it and the atom b's at or above it (module docstring)."""
    start = loss.exact_start(i, N)
    if start is not None:
        return start
    first, last = a + 1, b                 # the answer lies in first ... last
    bounds = loss.preimage(Fraction(i, N))
    if bounds is not None:
        first, last = max(first, ceil(bounds[0])), min(last, floor(bounds[1]) + 1)
    while first < last:                    # only where an integer lies inside the preimage's enclosure
        middle = (first + last) // 2
        if _reaches(loss.value(middle), i, N, pointer):
            last = middle
        else:
            first = middle + 1
    return first


def _starts(loss, N, lo, hi, pointer):
    """[s_j] for the levels i = lo + j, lo <= i <= hi: the first atom x in ``loss.first`` ... ``loss.last`` with
    loss value at or above i/N (``loss.last`` + 1: none), nondecreasing in j (module docstring)."""
    a, b = loss.first, loss.last
    n = hi - lo + 1
    below_a = _placed(loss.value(a), N, lo, hi, pointer)[0]     # the levels at or below every atom
    below_b = _placed(loss.value(b), N, lo, hi, pointer)[0]     # ... at or below the last atom
    if loss.exact_start(lo, N) is not None or below_b - below_a <= b - a:
        middle = [_first_atom(loss, i, N, a, b, pointer) for i in range(lo + below_a, lo + below_b)]
    else:                                               # more levels than atoms among them: place every atom
        middle, x = [], a + 1
        counts = [_placed(loss.value(y), N, lo, hi, pointer)[0] for y in range(a + 1, b)] + [below_b]
        for j in range(below_a, below_b):
            while counts[x - a - 1] <= j:
                x += 1
            middle.append(x)
    return [a] * below_a + middle + [b + 1] * (n - below_b)


def _segments(loss, f, inverse, starts, W):
    """(p_list, q_list, low, high) of the atoms ``loss.first`` ... ``loss.last`` split by ``starts``
    (:func:`_starts`): the low tail holds the atoms before s_0, bucket j those from s_j to s_{j+1} − 1, the high
    tail those from s_{n−1} on.

    A part's N_c-masses are sums of the kernel, Σ f(|x − c|), from running sums of its enclosures over
    −R ... R (R = ``loss.reach``), times 1/Z once: a lower (upper) end of a sum of lower (upper) ends, rounded
    once, is at least as tight as the sum of the atoms' rounded masses."""
    off = loss.reach
    sums_lo, sums_hi = [0], [0]                        # sums over t = −off ... t of f(|t|), at index t + off + 1
    for t in range(-off, off + 1):
        value = f[abs(t)]
        sums_lo.append(sums_lo[-1] + value[0])
        sums_hi.append(sums_hi[-1] + value[1])

    def part(x1, x2):                                  # the atoms x1 ... x2: (P, Q) enclosures
        if x1 > x2:
            return (0, 0), (0, 0)

        def mass(c):
            lo_, hi_ = x1 - c + off, x2 - c + off + 1
            return _times((sums_lo[hi_] - sums_lo[lo_], sums_hi[hi_] - sums_hi[lo_]), inverse, W)
        return loss.masses(mass)

    n = len(starts)
    zero = (0, 0)
    p_list, q_list = [zero] * (n - 1), [zero] * (n - 1)
    for j in range(n - 1):
        if starts[j] < starts[j + 1]:
            p_list[j], q_list[j] = part(starts[j], starts[j + 1] - 1)
    return p_list, q_list, part(loss.first, starts[0] - 1), part(starts[-1], loss.last)


def discrete_gaussian_masses(q, sigma2, d, N, lo, hi, W, pointer):
    """(Wt, p_list, q_list, low, high): the discrete Gaussian pair (variance σ², shift d >= 1, sampling q) over
    2^Wt, Wt >= W."""
    return _gaussian_masses(_AddRemoveLoss(q, sigma2, d, radius(sigma2, W)), sigma2, N, lo, hi, W, pointer)


def replace_discrete_gaussian_masses(q, sigma2, s, N, lo, hi, W, pointer):
    """(Wt, p_list, q_list, low, high): the replace-one discrete Gaussian pair (variance σ², sensitivity s >= 1,
    sampling q in (0, 1)) over 2^Wt, Wt >= W: the atoms −m − s ... m + s (module docstring)."""
    return _gaussian_masses(_ReplaceLoss(q, sigma2, s, radius(sigma2, W)), sigma2, N, lo, hi, W, pointer)


def _normalised_kernel(sigma2, M, Wt):
    """(f, 1/Z): the kernel's enclosures f(0) ... f(M) (:func:`_kernel`) and 1/Z's over 2^Wt, Z enclosed by
    f(0) + 2·Σ_{n=1}^{M} f(n) + [0, 2·τ(M + 1)] (module docstring)."""
    one = 1 << Wt
    f = _kernel(sigma2, M, Wt)
    tail_end = _tail_upper(sigma2, M + 1, Wt)
    z = (one + 2 * sum(x[0] for x in f[1:]), one + 2 * sum(x[1] for x in f[1:]) + 2 * tail_end)
    return f, ((one << Wt) // z[1], ceil_div(one << Wt, z[0]))


def gaussian_centre(sigma2, s, W):
    """(Wt, N(s), N(|x| <= s)) of N = N_Z(0, σ²), s >= 1, enclosures over 2^Wt with the Wt, kernel and Z of the
    pair of shift 2s at W (:func:`discrete_gaussian_masses`): f(s)/Z and (f(0) + 2·Σ_{n=1}^{s} f(n))/Z."""
    m = radius(sigma2, W)
    Wt = W + (2 * m + 2 * s + 1).bit_length() + 24
    f, inverse = _normalised_kernel(sigma2, m + 2 * s, Wt)
    central = tuple(f[0][k] + 2 * sum(x[k] for x in f[1:s + 1]) for k in (0, 1))
    return Wt, _times(f[s], inverse, Wt), _times(central, inverse, Wt)


def _gaussian_masses(loss, sigma2, N, lo, hi, W, pointer):
    """(Wt, p_list, q_list, low, high) of a discrete Gaussian pair's atoms ``loss.first`` ... ``loss.last``, the
    kernel up to ``loss.reach`` = m + 2s (or m + d), and the outputs beyond the atoms spread (module docstring)."""
    m = radius(sigma2, W)
    first, last = loss.first, loss.last
    Wt = W + (last - first + 1).bit_length() + 24
    one = 1 << Wt
    f, inverse = _normalised_kernel(sigma2, loss.reach, Wt)
    spread = ceil_div(_tail_upper(sigma2, m + 1, Wt) * inverse[1], one)  # τ(m + 1)/Z
    n = hi - lo + 1
    starts = _starts(loss, N, lo, hi, pointer)
    p_list, q_list, low, high = _segments(loss, f, inverse, starts, Wt)
    extra = (0, spread)

    def widened(pair):
        return tuple(bounded._add(t, extra) for t in pair)

    # the outputs below the first atom lie at or below its bucket, those above the last at or above the last's:
    # each side's [0, τ(m + 1)/Z] goes to every place its outputs may be (to a place both sides reach, twice)
    low_end = starts.count(first) - 1                 # the first atom's bucket (−1: the low tail)
    high_end = n - 1 - starts.count(last + 1)          # the last atom's (n − 1: the high tail)
    for j in list(range(0, min(low_end, n - 2) + 1)) + list(range(max(high_end, 0), n - 1)):
        p_list[j], q_list[j] = bounded._add(p_list[j], extra), bounded._add(q_list[j], extra)
    low, high = widened(low), widened(high)
    if low_end >= n - 1:
        high = widened(high)
    if high_end < 0:
        low = widened(low)
    return Wt, p_list, q_list, low, high
