"""Independent references for the accounting/1 auditor tests: mpmath at 40 digits (tests only, never in auditor/).

Each pair of docs/accounting.md §4 as a one-step law: its forward loss ℓ, the preimage x(y) of a level (mpmath's
root finder where there is no closed form), the CDFs of P and Q, and its atoms.  From those:

* :func:`bucket_mass`: P or Q of {ℓ ∈ [y₁, y₂)} (atoms included), the quantity :mod:`auditor.pld.pairs` encloses;
* :func:`delta_one`: δ(ε) of one step, per order: forward P(ℓ > ε) − e^ε·Q(ℓ > ε), backward
  Q(ℓ < −ε) − e^ε·P(ℓ < −ε), atoms exact;
* :func:`delta_rr`: δ(ε) of T steps of randomized response (the composed loss is (a − b)·L with trinomial counts);
* :func:`delta_laplace_twice`: δ(ε) of two unsampled Laplace steps (atoms exact, the continuous parts by
  quadrature split at the kink of (1 − e^{ε − ℓ})₊);
* :func:`delta_gaussian_with_atoms`: δ(ε) of a Gaussian mechanism (loss N(μ²/2, μ²) under P) composed with a law
  of atoms: Σ_a P(a)·δ_G(ε − a) (δ_G's closed form holds at every real argument);
* :func:`discrete_laplace`, :func:`discrete_gaussian`: the lattice pairs as laws of atoms, every mass summed from
  the pmf over the integers (mpmath's ``nsum``, not the closed forms the auditor uses), the discrete Gaussian's
  outputs truncated where their mass is below 10^−60; :func:`delta_lattice`: δ(ε) of one order summed directly
  over the integers, Σ_x (P(x) − e^ε·Q(x))₊;
* :func:`without_replacement_discrete_laplace`, :func:`without_replacement_discrete_gaussian`: the symmetrised pair
  of a discrete event sampled without replacement, output by output from the two laws (1 − γ)·N + γ·N_{2s} and N
  alone (each output's loss and its mirror image, the atom at 0 what is left), not from the auditor's closed forms;
* :func:`replace_discrete_laplace`, :func:`replace_discrete_gaussian`: the replace-one sampled lattice pairs
  (1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s}, integer by integer over a wide range (no closed-form atoms), each
  output's loss in mpmath (a Fraction at its rational ties), outputs of equal value merged.
"""

from fractions import Fraction

import mpmath

DIGITS = 40
mpmath.mp.dps = DIGITS


def mp(x):
    if isinstance(x, mpmath.mpf):
        return x
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def Phi(z):
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


class Law:
    """One step's forward pair: ``loss(x)`` increasing on the continuous part, ``preimage(y)`` (None: −∞; for a
    bounded part, clamped to its ends), CDFs ``cdf_p(x)``, ``cdf_q(x)`` of the continuous part below x (atoms
    excluded), and ``atoms`` [(loss value, P mass, Q mass)]."""

    def __init__(self, preimage, cdf_p, cdf_q, atoms=(), total=(1, 1)):
        self.preimage, self.cdf_p, self.cdf_q, self.atoms = preimage, cdf_p, cdf_q, list(atoms)
        self.total = total   # the continuous part's (P, Q) masses

    def below(self, y, law):
        """The continuous part's mass of {ℓ < y} under ``law`` ("P" or "Q")."""
        x = self.preimage(y if isinstance(y, mpmath.mpf) else mp(y))
        if x is None:
            return mpmath.mpf(0)
        return (self.cdf_p if law == "P" else self.cdf_q)(x)


def _at_most(y, value):
    """y <= value, exactly when the atom's value is a Fraction (a rational loss, e.g. ±1/b), else in mpmath."""
    if isinstance(value, Fraction):
        return Fraction(y) <= value
    return mp(y) <= value


def _value(v):
    return mp(v) if isinstance(v, Fraction) else v


def bucket_mass(law, y1, y2, which):
    """P or Q of {ℓ ∈ [y₁, y₂)} (y₂ = None: no upper end; y₁ = None: no lower end)."""
    total = law.total[0 if which == "P" else 1]
    hi = total if y2 is None else law.below(y2, which)
    lo = 0 if y1 is None else law.below(y1, which)
    mass = hi - lo
    for value, p, q in law.atoms:
        if (y1 is None or _at_most(y1, value)) and (y2 is None or not _at_most(y2, value)):
            mass += p if which == "P" else q
    return mass


def delta_one(law, epsilon, order):
    """δ(ε) of one step in ``order`` ("forward" or "backward")."""
    e = epsilon if isinstance(epsilon, mpmath.mpf) else mp(epsilon)
    if order == "forward":
        x = law.preimage(e)
        p_tail = law.total[0] - (0 if x is None else law.cdf_p(x))
        q_tail = law.total[1] - (0 if x is None else law.cdf_q(x))
        atoms = [(p, q) for value, p, q in law.atoms if _value(value) > e]
        return p_tail + sum(p for p, _ in atoms) - mpmath.exp(e) * (q_tail + sum(q for _, q in atoms))
    x = law.preimage(-e)
    p_below = 0 if x is None else law.cdf_p(x)
    q_below = 0 if x is None else law.cdf_q(x)
    atoms = [(p, q) for value, p, q in law.atoms if _value(value) < -e]
    return q_below + sum(q for _, q in atoms) - mpmath.exp(e) * (p_below + sum(p for p, _ in atoms))


# ---- the families ------------------------------------------------------------------------------------------

def root(f, y):
    """The x with f(x) = y for an increasing f: a bracket by doubling, then the Illinois method inside it."""
    lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
    while f(lo) > y:
        lo *= 2
    while f(hi) < y:
        hi *= 2
    for _ in range(60):            # bisect to a narrow bracket first: the loss can be very flat or very steep
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return mpmath.findroot(lambda x: f(x) - y, (lo, hi), solver="illinois")


def sampled_gaussian(q, sigma):
    q, s = mp(q), mp(sigma)

    def preimage(y):
        v = mpmath.exp(y) - (1 - q)
        return None if v <= 0 else mpmath.mpf(1) / 2 + s * s * mpmath.log(v / q)
    return Law(preimage, lambda x: (1 - q) * Phi(x / s) + q * Phi((x - 1) / s), lambda x: Phi(x / s))


def replace_gaussian(q, sigma):
    """(1 − q)N(0, σ²) + qN(1, σ²) against (1 − q)N(0, σ²) + qN(−1, σ²), the preimage by the root finder."""
    q, s = mp(q), mp(sigma)

    def loss(x):
        a = (1 - q) * mpmath.npdf(x, 0, s) + q * mpmath.npdf(x, 1, s)
        b = (1 - q) * mpmath.npdf(x, 0, s) + q * mpmath.npdf(x, -1, s)
        return mpmath.log(a / b)

    def preimage(y):
        return root(loss, y)
    return Law(preimage, lambda x: (1 - q) * Phi(x / s) + q * Phi((x - 1) / s),
               lambda x: (1 - q) * Phi(x / s) + q * Phi((x + 1) / s))


def mixture(sigma, sensitivities, probabilities, q):
    """(1 − q)N(0, σ²) + qΣp_iN(Δ_i, σ²) against N(0, σ²), the preimage by bisection then the root finder."""
    s = mp(sigma)
    comps = [(mp(d), mp(q) * mp(p)) for d, p in zip(sensitivities, probabilities)] + [(mpmath.mpf(0), 1 - mp(q))]
    a0 = sum(a for d, a in comps if d == 0)

    def ratio(x):
        return sum(a * mpmath.exp((2 * d * x - d * d) / (2 * s * s)) for d, a in comps)

    def preimage(y):
        if mpmath.exp(y) <= a0:
            return None
        return root(lambda x: mpmath.log(ratio(x)), y)
    return Law(preimage, lambda x: sum(a * Phi((x - d) / s) for d, a in comps), lambda x: Phi(x / s))


class WithoutReplacement(Law):
    """The symmetrised pair (X, Y) of sampling m of n without replacement (γ = m/n) of the replace-one Gaussian σ:
    A = (1 − γ)N(0, σ²) + γN(2, σ²) against B = N(0, σ²), ℓ_AB = log(1 − γ + γ·e^{2(x − 1)/σ²}) increasing with
    the preimage x_AB(y) = 1 + (σ²/2)·log((e^y − 1 + γ)/γ); on ℓ > 0 X, Y are A, B of {ℓ_AB ∈ ·}, on ℓ < 0 the
    mirror image with the masses swapped, and an atom at 0 of mass m0 = 1 − A(x > 1) − B(x > 1) under both."""

    def __init__(self, gamma, sigma):
        g, s = mp(gamma), mp(sigma)
        self.gamma, self.sigma = g, s
        self.m0 = 1 - self.tail(mpmath.mpf(1), "A") - self.tail(mpmath.mpf(1), "B")
        super().__init__(self.preimage_ab, None, None, [(Fraction(0), self.m0, self.m0)],
                         total=(1 - self.m0, 1 - self.m0))

    def loss_ab(self, x):
        g, s = self.gamma, self.sigma
        return mpmath.log(1 - g + g * mpmath.exp(2 * (x - 1) / (s * s)))

    def preimage_ab(self, y):
        v = mpmath.exp(y) - 1 + self.gamma
        return None if v <= 0 else 1 + self.sigma ** 2 / 2 * mpmath.log(v / self.gamma)

    def tail(self, x, law):
        """A or B of {output > x}."""
        g, s = self.gamma, self.sigma
        if law == "B":
            return 1 - Phi(x / s)
        return (1 - g) * (1 - Phi(x / s)) + g * (1 - Phi((x - 2) / s))

    def below(self, y, law):
        """X (law "P") or Y ("Q") of {ℓ < y}, the atom at 0 excluded."""
        y = mp(y)
        other = "B" if law == "P" else "A"          # the law whose mirror image X (resp. Y) is on ℓ < 0
        if y <= 0:
            return self.tail(self.preimage_ab(-y), other)
        same = "A" if law == "P" else "B"
        return self.tail(mpmath.mpf(1), other) + self.tail(mpmath.mpf(1), same) - self.tail(self.preimage_ab(y), same)


def without_replacement(gamma, sigma):
    return WithoutReplacement(gamma, sigma)


def delta_without_replacement(gamma, sigma, epsilon):
    """δ(ε) of one step, ε >= 0: H_{e^ε}(A‖B) = γ·H_{α′}(N(2, σ²)‖N(0, σ²)), α′ = 1 + (e^ε − 1)/γ (the mixture
    identity), the Gaussian hockey stick in closed form (:func:`delta_gaussian` at μ² = 4/σ²)."""
    g = mp(gamma)
    e = epsilon if isinstance(epsilon, mpmath.mpf) else mp(epsilon)
    alpha = 1 + (mpmath.exp(e) - 1) / g
    return g * delta_gaussian(4 / mp(sigma) ** 2, mpmath.log(alpha))


def delta_gaussian_with_without_replacement(mu2, gamma, sigma, epsilon):
    """δ(ε) of the Gaussian mechanism (loss N(μ²/2, μ²), any real argument) composed with one step of the pair
    (X, Y) of :class:`WithoutReplacement` (both symmetric: one order): E_X[δ_G(ε − ℓ)], the atom at 0 and, over
    the outputs x > 1 of A and of B, the losses ℓ_AB(x) and −ℓ_AB(x) (quadrature)."""
    law = WithoutReplacement(gamma, sigma)
    g, s, e = law.gamma, law.sigma, mp(epsilon)
    with mpmath.workdps(DIGITS):
        def a(x):
            return (1 - g) * mpmath.npdf(x, 0, s) + g * mpmath.npdf(x, 2, s)

        def integrand(x):
            loss = law.loss_ab(x)
            return a(x) * delta_gaussian(mu2, e - loss) + mpmath.npdf(x, 0, s) * delta_gaussian(mu2, e + loss)
        ends = [1, 2, 3, 5, 8, mpmath.inf]
        return law.m0 * delta_gaussian(mu2, e) + mpmath.quad(integrand, ends)


def hockey_ab(gamma, sigma, alpha, order):
    """H_α(A‖B) (order "AB") or H_α(B‖A) ("BA") by the loss ℓ_AB: the set where the first law's density exceeds
    α times the second's."""
    law = WithoutReplacement(gamma, sigma)
    a = mp(alpha)
    if order == "AB":
        x = law.preimage_ab(mpmath.log(a))
        return law.tail(x, "A") - a * law.tail(x, "B")
    x = law.preimage_ab(-mpmath.log(a))         # ℓ_AB < −log α: B's density exceeds α·A's
    if x is None:
        return mpmath.mpf(0)
    return (1 - law.tail(x, "B")) - a * (1 - law.tail(x, "A"))


class WithoutReplacementLaplace(Law):
    """The symmetrised pair (X, Y) of sampling m of n without replacement (γ = m/n) of the replace-one Laplace
    mechanism of scale b, from the densities and CDFs of A = (1 − γ)L(0, b) + γL(2, b) and B = L(0, b).

    ℓ_AB(x) = log(a(x)/b(x)) is a₋ < 0 on x <= 0, a₊ > 0 on x >= 2, increasing between and 0 at x = 1.  Then
    X, Y are, on ℓ > 0, A, B of the outputs x > 1 at the loss ℓ_AB(x) (a density from x in (1, 2), an atom at
    a₊ of masses A(x >= 2), B(x >= 2)); on ℓ < 0 the mirror: B, A of the outputs x > 1 at the loss −ℓ_AB(x) (an
    atom at −a₊ of masses B(x >= 2), A(x >= 2)); at ℓ = 0 an atom of mass m0 = 1 − A(x > 1) − B(x > 1) under
    both (the outputs x <= 1)."""

    def __init__(self, gamma, b):
        self.gamma, self.b = mp(gamma), mp(b)
        self.a_plus = self.loss_ab(mpmath.mpf(3))          # any output beyond 2
        self.a_minus = self.loss_ab(mpmath.mpf(-1))        # any output below 0
        self.m0 = 1 - self.tail(1, "A") - self.tail(1, "B")
        top_a, top_b = self.tail(2, "A"), self.tail(2, "B")
        middle = self.between(1, 2, "A") + self.between(1, 2, "B")
        atoms = [(Fraction(0), self.m0, self.m0), (self.a_plus, top_a, top_b), (-self.a_plus, top_b, top_a)]
        super().__init__(self.preimage_ab, None, None, atoms, total=(middle, middle))

    def cdf(self, x, law):
        """A's or B's CDF at x (the Laplace CDF ½e^{(x−μ)/b} below μ, 1 − ½e^{−(x−μ)/b} above)."""
        x, b = mp(x), self.b

        def F(mu):
            return mpmath.exp((x - mu) / b) / 2 if x < mu else 1 - mpmath.exp(-(x - mu) / b) / 2
        return F(0) if law == "B" else (1 - self.gamma) * F(0) + self.gamma * F(2)

    def density(self, x, law):
        b = self.b

        def f(mu):
            return mpmath.exp(-abs(x - mu) / b) / (2 * b)
        return f(0) if law == "B" else (1 - self.gamma) * f(0) + self.gamma * f(2)

    def tail(self, x, law):
        """A or B of {output > x}."""
        return 1 - self.cdf(x, law)

    def between(self, x1, x2, law):
        return self.cdf(x2, law) - self.cdf(x1, law)

    def loss_ab(self, x):
        return mpmath.log(self.density(x, "A") / self.density(x, "B"))

    def preimage_ab(self, y):
        """The x in [1, 2] with ℓ_AB(x) = y for y >= 0 (2 at and above a₊)."""
        y = mp(y)
        if y >= self.a_plus:
            return mpmath.mpf(2)
        return 1 + self.b / 2 * mpmath.log((mpmath.exp(y) - 1 + self.gamma) / self.gamma)

    def hockey(self, epsilon):
        """H_{e^ε}(A‖B) for ε >= 0 from the CDFs: A − e^ε·B of the outputs where ℓ_AB > ε, x > x_AB(ε) (none at
        and above a₊)."""
        e = mp(epsilon)
        if e >= self.a_plus:
            return mpmath.mpf(0)
        x = self.preimage_ab(e)
        return self.tail(x, "A") - mpmath.exp(e) * self.tail(x, "B")

    def below(self, y, law):
        """X (law "P") or Y ("Q") of {ℓ < y}, continuous part (the outputs 1 < x < 2)."""
        y = mp(y)
        same = "A" if law == "P" else "B"      # the law X (resp. Y) is on ℓ > 0
        other = "B" if law == "P" else "A"     # and whose mirror image it is on ℓ < 0
        if y <= 0:
            return self.between(self.preimage_ab(-y), 2, other)
        return self.between(1, 2, other) + self.between(1, self.preimage_ab(y), same)


def without_replacement_laplace(gamma, b):
    return WithoutReplacementLaplace(gamma, b)


def delta_symmetrised(law, epsilon):
    """δ(ε) of one step of a symmetrised law, ε >= 0: X(ℓ >= ε) − e^ε·Y(ℓ >= ε) from its buckets (an atom at ε
    adds X − e^ε·Y = 0)."""
    e = Fraction(epsilon)            # a Fraction: the atom at 0 is compared exactly
    return bucket_mass(law, e, None, "P") - mpmath.exp(mp(e)) * bucket_mass(law, e, None, "Q")


def hockey_laplace_ab(gamma, b, epsilon, order="AB"):
    """H_{e^ε}(A‖B) = ∫ (a(x) − e^ε·b(x))₊ dx (order "AB"; "BA": H_{e^ε}(B‖A)) by quadrature over the outputs,
    split at 0, 1, 2 and at the output where the two sides meet (the root finder on ℓ_AB)."""
    law = WithoutReplacementLaplace(gamma, b)
    e = mp(epsilon)
    alpha = mpmath.exp(e)
    first, second = ("A", "B") if order == "AB" else ("B", "A")
    level = e if order == "AB" else -e             # the kink: ℓ_AB(x) = ±ε

    def integrand(x):
        return max(mpmath.mpf(0), law.density(x, first) - alpha * law.density(x, second))
    ends = [-mpmath.inf, 0, 1, 2, mpmath.inf]
    if law.a_minus < level < law.a_plus:
        ends = sorted(set(ends + [root(law.loss_ab, level)]))
    with mpmath.workdps(DIGITS):
        return mpmath.quad(integrand, ends)


def _symmetrised_tail(law, t):
    """E_X[(1 − e^{t − ℓ})₊] for one step of (X, Y) (any real t), in closed form: over the outputs x > 1 of A at
    ℓ_AB(x) > t, ∫ (a − e^t·b) (since e^{−ℓ_AB}·a = b), over those of B at −ℓ_AB(x) > t, ∫ (b − e^t·a), and the
    atoms."""
    t = mp(t)
    w = mpmath.exp(t)
    total = sum(p * max(mpmath.mpf(0), 1 - mpmath.exp(t - _value(v))) for v, p, _ in law.atoms)
    if t < law.a_plus:
        x = law.preimage_ab(t) if t > 0 else mpmath.mpf(1)
        total += law.between(x, 2, "A") - w * law.between(x, 2, "B")
    if t < 0:
        x = law.preimage_ab(-t)
        total += law.between(1, x, "B") - w * law.between(1, x, "A")
    return total


def delta_laplace_without_replacement_twice(gamma, b, epsilon):
    """δ(ε) of two steps of (X, Y) (symmetric: one order), ε >= 0: E_X[g(ε − ℓ)] with g(t) = E_X[(1 − e^{t−ℓ})₊]
    (:func:`_symmetrised_tail`, closed form): the atoms exactly, and the outputs 1 < x < 2 of A (loss ℓ_AB(x))
    and of B (loss −ℓ_AB(x)) by quadrature, split where ε ∓ ℓ_AB(x) meets g's kinks 0 and ±a₊."""
    law = WithoutReplacementLaplace(gamma, b)
    with mpmath.workdps(DIGITS):
        e = mp(epsilon)
        total = sum(p * _symmetrised_tail(law, e - _value(v)) for v, p, _ in law.atoms)
        for law_name, sign in (("A", 1), ("B", -1)):
            cuts = {mpmath.mpf(1), mpmath.mpf(2)}
            for kink in (0, law.a_plus, -law.a_plus):
                y = sign * (e - kink)            # ε − sign·ℓ_AB(x) = kink
                if 0 < y < law.a_plus:
                    cuts.add(law.preimage_ab(y))

            def integrand(x, law_name=law_name, sign=sign):
                return law.density(x, law_name) * _symmetrised_tail(law, e - sign * law.loss_ab(x))
            total += mpmath.quad(integrand, sorted(cuts))
        return total


def laplace(q, b):
    """(1 − q)L(0, b) + qL(1, b) against L(0, b): atoms at x <= 0 and x >= 1, the continuous part on (0, 1)."""
    exact = Fraction(q) == 1                     # the atoms ∓1/b are rational: compared exactly
    rational = (-1 / Fraction(b), 1 / Fraction(b))
    q, b = mp(q), mp(b)
    lo_value = mpmath.log(1 - q + q * mpmath.exp(-1 / b))
    hi_value = mpmath.log(1 - q + q * mpmath.exp(1 / b))

    def cdf(x, mu):           # the Laplace CDF
        return mpmath.exp((x - mu) / b) / 2 if x < mu else 1 - mpmath.exp(-(x - mu) / b) / 2

    def preimage(y):
        if y <= lo_value:
            return mpmath.mpf(0)
        if y >= hi_value:
            return mpmath.mpf(1)
        return (1 + b * mpmath.log((mpmath.exp(y) - 1 + q) / q)) / 2

    def cdf_p(x):
        return (1 - q) * (cdf(x, 0) - cdf(0, 0)) + q * (cdf(x, 1) - cdf(0, 1))

    def cdf_q(x):
        return cdf(x, 0) - cdf(0, 0)
    values = rational if exact else (lo_value, hi_value)
    atoms = [(values[0], (1 - q) * cdf(0, 0) + q * cdf(0, 1), cdf(0, 0)),
             (values[1], (1 - q) * (1 - cdf(1, 0)) + q * (1 - cdf(1, 1)), 1 - cdf(1, 0))]
    return Law(preimage, cdf_p, cdf_q, atoms, total=(cdf_p(1), cdf_q(1)))


def replace_laplace(b):
    """L(1, b) against L(−1, b): atoms at ∓2/b, the continuous part on (−1, 1)."""
    value = 2 / Fraction(b)
    b = mp(b)

    def cdf(x, mu):
        return mpmath.exp((x - mu) / b) / 2 if x < mu else 1 - mpmath.exp(-(x - mu) / b) / 2

    def preimage(y):
        return max(mpmath.mpf(-1), min(mpmath.mpf(1), b * y / 2))
    atoms = [(-value, cdf(-1, 1), cdf(-1, -1)), (value, 1 - cdf(1, 1), 1 - cdf(1, -1))]

    def cdf_p(x):
        return cdf(x, 1) - cdf(-1, 1)

    def cdf_q(x):
        return cdf(x, -1) - cdf(-1, -1)
    return Law(preimage, cdf_p, cdf_q, atoms, total=(cdf_p(1), cdf_q(1)))


def replace_sampled_laplace(q, b):
    """(1 − q)L(0, b) + qL(1, b) against (1 − q)L(0, b) + qL(−1, b), 0 < q < 1, from the densities and the Laplace
    CDF: atoms at −ℓ_max (x <= −1) and +ℓ_max (x >= 1), the continuous part on (−1, 1), its preimage by the root
    finder on the loss (no closed form).  At q = 1/2 the atoms are the Fractions ∓1/b (compared exactly)."""
    exact = Fraction(q) == Fraction(1, 2)
    rational = 1 / Fraction(b)
    q, b = mp(q), mp(b)

    def cdf(x, mu):
        return mpmath.exp((x - mu) / b) / 2 if x < mu else 1 - mpmath.exp(-(x - mu) / b) / 2

    def density(x, mu):
        return mpmath.exp(-abs(x - mu) / b) / (2 * b)

    def loss(x):
        base = (1 - q) * density(x, 0)
        return mpmath.log((base + q * density(x, 1)) / (base + q * density(x, -1)))
    top = loss(mpmath.mpf(2))

    def preimage(y):
        if y <= -top:
            return mpmath.mpf(-1)
        if y >= top:
            return mpmath.mpf(1)
        return root(loss, y)          # ℓ is increasing on [−1, 1], from −ℓ_max to ℓ_max

    def cdf_p(x):
        return (1 - q) * (cdf(x, 0) - cdf(-1, 0)) + q * (cdf(x, 1) - cdf(-1, 1))

    def cdf_q(x):
        return (1 - q) * (cdf(x, 0) - cdf(-1, 0)) + q * (cdf(x, -1) - cdf(-1, -1))
    p_low, q_low = (1 - q) * cdf(-1, 0) + q * cdf(-1, 1), (1 - q) * cdf(-1, 0) + q * cdf(-1, -1)
    p_high, q_high = 1 - (1 - q) * cdf(1, 0) - q * cdf(1, 1), 1 - (1 - q) * cdf(1, 0) - q * cdf(1, -1)
    values = (-rational, rational) if exact else (-top, top)
    law = Law(preimage, cdf_p, cdf_q, [(values[0], p_low, q_low), (values[1], p_high, q_high)],
              total=(cdf_p(1), cdf_q(1)))
    law.loss, law.top = loss, top
    return law


def randomized_response(p, k):
    p = mp(p)
    small, large = p / k, 1 - p + p / k
    L = mpmath.log(large / small)
    atoms = [(L, large, small), (-L, small, large)]
    if k > 2:
        atoms.append((mpmath.mpf(0), (k - 2) * small, (k - 2) * small))
    return Law(lambda y: None, lambda x: 0, lambda x: 0, atoms, total=(0, 0))


def _lattice_value(q, c):
    """The loss value log(1 − q + q·e^c): a Fraction when it is rational (q = 1, or c = 0), else mpmath."""
    if Fraction(q) == 1 or c == 0:
        return Fraction(c) if Fraction(q) == 1 else Fraction(0)
    return mpmath.log(1 - mp(q) + mp(q) * mpmath.exp(mp(c)))


def _lattice_law(q, outputs):
    """A law of atoms from [(ℓ₁ as a Fraction, N mass, N_d mass)]."""
    qm = mp(q)
    atoms = [(_lattice_value(q, c), (1 - qm) * n + qm * nd, n) for c, n, nd in outputs]
    return Law(lambda y: None, lambda x: 0, lambda x: 0, atoms, total=(0, 0))


def discrete_laplace(q, a, d):
    """(1 − q)·N + q·N_d against N, N of pmf tanh(a/2)·e^{−a|x|}, N_d its shift by d."""
    with mpmath.workdps(60):
        am = mp(a)

        def pmf(x):
            return mpmath.tanh(am / 2) * mpmath.exp(-am * abs(x))
        low = mpmath.nsum(pmf, [-mpmath.inf, 0])                 # N(x <= 0) = N_d(x >= d)
        high = mpmath.nsum(pmf, [d, mpmath.inf])                 # N(x >= d) = N_d(x <= 0)
        outputs = [(Fraction(a) * (-d), low, high)]
        outputs += [(Fraction(a) * (2 * j - d), pmf(j), pmf(j - d)) for j in range(1, d)]
        outputs.append((Fraction(a) * d, high, low))
        return _lattice_law(q, outputs)


def discrete_gaussian(q, sigma2, d):
    """(1 − q)·N + q·N_d against N, N of pmf e^{−x²/(2σ²)}/Z on the integers, N_d its shift by d."""
    with mpmath.workdps(60):
        s2 = mp(sigma2)

        def f(x):
            return mpmath.exp(-mpmath.mpf(x) ** 2 / (2 * s2))
        Z = mpmath.nsum(f, [-mpmath.inf, mpmath.inf])
        X = int(mpmath.ceil(mpmath.sqrt(2 * s2 * 140))) + 2                # e^{−70} < 10^−30 ... and below
        X = max(X, int(mpmath.ceil(mpmath.sqrt(2 * s2 * 300))))             # e^{−150} < 10^−65
        outputs = [(Fraction(2 * d * x - d * d) / (2 * Fraction(sigma2)), f(x) / Z, f(x - d) / Z)
                   for x in range(-X, d + X + 1)]
        return _lattice_law(q, outputs)


def _replace_value(q, plus, minus):
    """log((1 − q + q·e^{ℓ₊})/(1 − q + q·e^{ℓ₋})): a Fraction where it is rational (ℓ₊ = ℓ₋: 0; q = 1/2 and
    ℓ₋ = −ℓ₊: ℓ₊), else mpmath."""
    if plus == minus:
        return Fraction(0)
    if Fraction(q) == Fraction(1, 2) and plus == -minus:
        return Fraction(plus)
    qm = mp(q)
    return mpmath.log((1 - qm + qm * mpmath.exp(mp(plus))) / (1 - qm + qm * mpmath.exp(mp(minus))))


def _replace_law(q, pmf, loss, s, X):
    """(1 − q)·N + q·N_s against (1 − q)·N + q·N_{−s}, summed integer by integer over −X ... X: atoms of equal
    value merged (``loss(c, x)`` = log(N_c(x)/N(x)) as a Fraction)."""
    qm = mp(q)
    merged = {}
    for x in range(-X, X + 1):
        value = _replace_value(q, loss(s, x), loss(-s, x))
        p, r = (1 - qm) * pmf(x) + qm * pmf(x - s), (1 - qm) * pmf(x) + qm * pmf(x + s)
        key = value if isinstance(value, Fraction) else mpmath.nstr(value, 50)
        old = merged.get(key, (value, 0, 0))
        merged[key] = (value, old[1] + p, old[2] + r)
    return Law(lambda y: None, lambda x: 0, lambda x: 0, list(merged.values()), total=(0, 0))


def replace_discrete_laplace(q, a, s):
    """The replace-one discrete Laplace pair, integer by integer over |x| <= X, a·(X − s) >= 200 (the rest below
    e^{−200})."""
    with mpmath.workdps(60):
        am = mp(a)

        def pmf(x):
            return mpmath.tanh(am / 2) * mpmath.exp(-am * abs(x))

        def loss(c, x):
            return Fraction(a) * (abs(x) - abs(x - c))
        return _replace_law(q, pmf, loss, s, s + int(200 / Fraction(a)) + 1)


def replace_discrete_gaussian(q, sigma2, s):
    """The replace-one discrete Gaussian pair, integer by integer over |x| <= X (the rest below e^{−150})."""
    with mpmath.workdps(60):
        s2 = mp(sigma2)

        def f(x):
            return mpmath.exp(-mpmath.mpf(x) ** 2 / (2 * s2))
        Z = mpmath.nsum(f, [-mpmath.inf, mpmath.inf])

        def loss(c, x):
            return Fraction(x * x - (x - c) * (x - c)) / (2 * Fraction(sigma2))
        X = s + int(mpmath.ceil(mpmath.sqrt(2 * s2 * 300))) + 2
        return _replace_law(q, lambda x: f(x) / Z, loss, s, X)


def _symmetrised_atoms(gamma, pmf, s, X):
    """The symmetrised pair (X, Y) of a discrete event sampled m of n without replacement (γ = m/n, sensitivity s),
    built from the two laws A = (1 − γ)·N + γ·N_{2s} and B = N alone, output by output over −X ... X + 2s: each x
    with A(x) > B(x) gives X the mass A(x) and Y the mass B(x) at the loss log(A(x)/B(x)), and the mirror image
    X: B(x), Y: A(x) at −log(A(x)/B(x)); the outputs with A(x) = B(x) (to 50 digits) none; the atom at 0 is
    whatever is left of each law (1 minus the rest, the outputs beyond the range included); at 90 digits (the
    rest's rounding errors are those of m0)."""
    g = mp(gamma)
    atoms, x_total, y_total = [], mpmath.mpf(0), mpmath.mpf(0)
    for x in range(-X, X + 2 * s + 1):
        a, b = (1 - g) * pmf(x) + g * pmf(x - 2 * s), pmf(x)
        if a <= b or mpmath.almosteq(a, b, rel_eps=mpmath.mpf(10) ** -50, abs_eps=0):
            continue
        value = mpmath.log(a / b)
        atoms += [(value, a, b), (-value, b, a)]
        x_total += a + b
        y_total += b + a
    atoms.append((Fraction(0), 1 - x_total, 1 - y_total))
    return Law(lambda y: None, lambda x: 0, lambda x: 0, atoms, total=(0, 0))


def without_replacement_discrete_laplace(gamma, a, s):
    """:func:`_symmetrised_atoms` of DLap(a), pmf tanh(a/2)·e^{−a|x|}, over |x| <= X, a·X >= 240 (the rest below
    e^{−240})."""
    with mpmath.workdps(90):
        am = mp(a)

        def pmf(x):
            return mpmath.tanh(am / 2) * mpmath.exp(-am * abs(x))
        return _symmetrised_atoms(gamma, pmf, s, int(240 / Fraction(a)) + 1)


def without_replacement_discrete_gaussian(gamma, sigma2, s):
    """:func:`_symmetrised_atoms` of N_Z(0, σ²), pmf e^{−x²/(2σ²)}/Z (Z by ``nsum``), over |x| <= X (the rest below
    e^{−150})."""
    with mpmath.workdps(90):
        s2 = mp(sigma2)

        def f(x):
            return mpmath.exp(-mpmath.mpf(x) ** 2 / (2 * s2))
        Z = mpmath.nsum(f, [-mpmath.inf, mpmath.inf])
        return _symmetrised_atoms(gamma, lambda x: f(x) / Z, s, int(mpmath.ceil(mpmath.sqrt(2 * s2 * 300))) + 2)


def delta_lattice(law, epsilon, order):
    """δ(ε) of one step of a law of atoms, summed over its outputs: Σ (P − e^ε·Q)₊ (forward) or Σ (Q − e^ε·P)₊."""
    e = mpmath.exp(mp(epsilon))
    if order == "forward":
        return sum(max(mpmath.mpf(0), p - e * q) for _, p, q in law.atoms)
    return sum(max(mpmath.mpf(0), q - e * p) for _, p, q in law.atoms)


# ---- compositions --------------------------------------------------------------------------------------------

def atom_law(law, steps):
    """The composed loss law of ``steps`` steps of an atoms-only law: {loss value: (P, Q)} (exact enumeration)."""
    out = {mpmath.mpf(0): (mpmath.mpf(1), mpmath.mpf(1))}
    for _ in range(steps):
        nxt = {}
        for value, (p, q) in out.items():
            for v, ap, aq in law.atoms:
                key = mpmath.nstr(value + v, 30)
                old = nxt.get(key, (value + v, 0, 0))
                nxt[key] = (old[0], old[1] + p * ap, old[2] + q * aq)
        out = {v: (p, q) for v, p, q in nxt.values()}
    return out


def delta_atoms(composed, epsilon):
    """δ(ε) of a composed atoms-only law, the larger order (forward: loss > ε; backward: loss < −ε)."""
    e = mp(epsilon)
    forward = sum(p - mpmath.exp(e) * q for v, (p, q) in composed.items() if v > e)
    backward = sum(q - mpmath.exp(e) * p for v, (p, q) in composed.items() if v < -e)
    return max(forward, backward, mpmath.mpf(0))


def delta_rr(p, k, steps, epsilon):
    return delta_atoms(atom_law(randomized_response(p, k), steps), epsilon)


def delta_gaussian(mu2, epsilon):
    """δ(ε) of the Gaussian mechanism whose loss is N(μ²/2, μ²) under P, at any real ε."""
    mu, e = mpmath.sqrt(mp(mu2)), mpmath.mpf(epsilon) if isinstance(epsilon, mpmath.mpf) else mp(epsilon)
    return Phi(-e / mu + mu / 2) - mpmath.exp(e) * Phi(-e / mu - mu / 2)


def delta_gaussian_with_atoms(mu2, composed, epsilon):
    """δ(ε) of the Gaussian mechanism (symmetric pair) composed with a law of atoms {value: (P, Q)}: the forward order
    Σ_a P(a)·δ_G(ε − a), the backward order Σ_a Q(a)·δ_G(ε + a); the larger."""
    e = mp(epsilon)
    forward = sum(p * delta_gaussian(mu2, e - v) for v, (p, q) in composed.items())
    backward = sum(q * delta_gaussian(mu2, e + v) for v, (p, q) in composed.items())
    return max(forward, backward)


def delta_laplace_twice(b, epsilon):
    """δ(ε) of two unsampled add/remove Laplace steps of scale b (symmetric: one order suffices).

    One step's loss under P: an atom 1/b of mass 1/2, an atom −1/b of mass e^{−1/b}/2, and the density
    e^{−1/(2b)}·e^{ℓ/2}/4 on (−1/b, 1/b).  δ(ε) = E_P[(1 − e^{ε − L})₊], L the sum of two independent losses.
    """
    with mpmath.workdps(DIGITS):     # quadrature at 40 digits, whatever the session's precision
        return _laplace_twice(mp(b), mp(epsilon))


def _laplace_twice(b, e):
    c = mpmath.exp(-1 / (2 * b))
    atoms = [(1 / b, mpmath.mpf(1) / 2), (-1 / b, mpmath.exp(-1 / b) / 2)]

    def f(l):
        return c * mpmath.exp(l / 2) / 4

    def g(total):
        return max(mpmath.mpf(0), 1 - mpmath.exp(e - total))

    ends = (-1 / b, 1 / b)

    def integral(shift):   # ∫ f(ℓ)·g(shift + ℓ) dℓ over the continuous part, split at the kink ε − shift
        k = e - shift
        if k >= ends[1]:
            return mpmath.mpf(0)
        a = max(ends[0], k)
        return mpmath.quad(lambda l: f(l) * (1 - mpmath.exp(e - shift - l)), [a, ends[1]])
    total = sum(p1 * p2 * g(v1 + v2) for v1, p1 in atoms for v2, p2 in atoms)
    total += 2 * sum(p * integral(v) for v, p in atoms)
    total += mpmath.quad(lambda l1: f(l1) * integral(l1), [ends[0], min(ends[1], e - ends[0]), ends[1]]
                         if ends[0] < e - ends[0] < ends[1] else [ends[0], ends[1]])
    return total
