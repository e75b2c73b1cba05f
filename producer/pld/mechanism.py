"""Stages, the two orders, and the interface every step's loss law provides to the engine.

A *stage* is T steps of one mechanism (:class:`Stage`).  The engine sees a
step only through the *forward* pair (P, Q) that dominates it and the
privacy loss ℓ = log(dP/dQ) of that pair: a :class:`DominatingPair`.  Its buckets
on the grid h are

    I_i = {x : i·h <= ℓ(x) < (i + 1)·h},   lo <= i < hi,

with the low tail {ℓ < lo·h} and the high tail {ℓ >= hi·h}; atoms of the
loss law (a Laplace or randomized-response step) belong to the one
half-open bucket that holds their loss value.  The *backward* order is the
swapped pair (Q, P), whose loss is −ℓ: its bucket j is I_{−j−1} with the
masses swapped (:func:`producer.pld.masses.oriented`), so an atom on a grid
point lands in one bucket of each order and the inequality
e^{−(j+1)h}·P_j <= Q_j <= e^{−jh}·P_j holds on every bucket of both orders,
closed ends included (docs/accounting.md §5).

Every law answers the same questions (:class:`DominatingPair`): its buckets' masses
enclosed with arb (the only numbers that enter a certificate), exact
decisions where a grid level meets the loss's range, and float hints for
sizing (never a claim).  The families are in their own modules:
:mod:`producer.pld.subsampled_gaussian` (add/remove, the pair of DP-SGD),
:mod:`producer.pld.replace_gaussian`, :mod:`producer.pld.laplace`, :mod:`producer.pld.discrete`,
:mod:`producer.pld.replace_discrete`, :mod:`producer.pld.mixture` and :mod:`producer.pld.randomized_response`.
"""

FORWARD, BACKWARD = "forward", "backward"
ORDERS = (FORWARD, BACKWARD)


class DominatingPair:
    """The forward pair (P, Q) of one step, through its privacy loss (immutable; exact rational parameters).

    Subclasses provide:

    - ``masses(h, lo, hi, bits)``: a :class:`producer.pld.masses.StepMasses`
      of the buckets I_i (lo <= i < hi) and both tails, arb balls at ``bits``
      bits of working precision (the caller checks their radii and retries
      with more bits);
    - ``index_range(grid, allowance)``: (lo, hi), chosen so that the tails
      beyond hold at most about ``allowance`` of either law (any range gives
      valid bounds; a bounded loss gets the exact range of its values);
    - ``upper_tail(y)`` and ``lower_tail(y)``: (P(ℓ >= y), Q(ℓ >= y)) and
      (P(ℓ <= y), Q(ℓ <= y)) as arb balls at the current precision (the
      single-step width prediction: a hint);
    - ``moments()``: the mean and variance of ℓ under P, in floats (a hint);
    - ``parameters()``: its exact rational parameters (the auditor's
      per-bucket cost adds a quarter of their bits);
    - ``audit_scale()``: (q, s), the sampling probability and the scale whose
      bits enter the auditor's guard (docs/accounting.md §6);
    - ``audit_atom_work(w, parts)``: the auditor's work units for the loss
      law's atoms beyond its buckets' (the discrete families; 0 otherwise);
    - ``audit_mass_units()``: the auditor's budget work units per bucket and
      working bit of this pair's single-step masses (docs/certificates.md,
      accounting/1; 160 for the sampled Gaussian of DP-SGD);
    - ``gaussian_mu2``: μ₁² when the step is a Gaussian mechanism (its loss
      N(μ₁²/2, μ₁²) in both orders: the closed form), else None;
    - ``dominating_mu2``: μ₁² of a Gaussian mechanism whose δ(ε) is at least
      the step's in both orders, composed with anything (None when there is
      none): it proves an ε(δ) small before the work;
    - ``describe()``: a short text for progress lines.
    """

    __slots__ = ()

    gaussian_mu2 = None
    dominating_mu2 = None
    splits_anywhere = True
    """Whether its masses may be enclosed on any index range (a split's coarse tail starts above 0)."""

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def _set(self, **values):
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def audit_mass_units(self):
        return 160

    def audit_atom_work(self, w, parts):
        """The auditor's work units for the atoms of the loss law beyond its buckets' (0: none counted)."""
        return 0

    def key(self):
        return (type(self).__name__,) + tuple(self.parameters())

    def __eq__(self, other):
        return isinstance(other, DominatingPair) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return f"{type(self).__name__}{tuple(str(p) for p in self.parameters())}"


class Stage:
    """T = ``steps`` steps of the mechanism whose forward pair is ``law`` (immutable)."""

    __slots__ = ("law", "steps")

    def __init__(self, law, steps):
        if not isinstance(law, DominatingPair):
            raise TypeError(f"a Stage needs a DominatingPair, got {law!r}")
        object.__setattr__(self, "law", law)
        object.__setattr__(self, "steps", int(steps))

    def __setattr__(self, name, value):
        raise AttributeError("a Stage is immutable")

    def key(self):
        return (self.law.key(), self.steps)

    def __eq__(self, other):
        return isinstance(other, Stage) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return f"Stage({self.law!r}, T={self.steps})"
