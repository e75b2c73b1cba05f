"""The KL reward g(k mod B, d, j) of one release, enclosed with arb balls.

Coordinates (P reference): the state is the pair (k, k − d), k the P world's
hidden state and d the previous action; an action j ∈ {−1, 0, 1} is the
current input difference x^Q − x^P.  Under P the shifted output y has law

    K_k(y) = (1/B) Σ_{u=0}^{B−1} g_σ(y + floor((a·k + u)/B)),

and under Q it has law K_{k−d}(y − j).  The reward is

    g(k, d, j) = D_KL(K_k(·) ‖ K_{k−d}(· − j)),

which depends on k only through k mod B (a shift of k by B shifts every
offset by a).  With the offset multisets oP = {floor((a·k + u)/B)} and
oQ = {floor((a·(k − d) + u)/B) − j} and e_n = exp(−n²/(2σ²)),

    log(K_k(y) / K_{k−d}(y − j)) = log Σ_{o∈oP} e_{y+o} − log Σ_{o∈oQ} e_{y+o}

(the normaliser Z and the 1/B cancel).  The sum over |y| <= Y is an arb ball;
the rest is bounded by (proof: for |y| > Y, each ratio e_{y+o}/e_{y+o'} of
two offsets lies within exp(±D·(|y| + o*)/σ²), so |log ratio| <= D(|y| + o*)/σ²,
and K_k(y) <= max_o e_{y+o} <= exp(−(|y| − o*)²/(2σ²)) because Z >= 1; with
m = |y| − o* >= m0 and m² − m0² >= 2·m0·(m − m0) the sum over both signs is a
geometric series)

    |tail| <= (2D/σ²)·exp(−m0²/(2σ²))·[(m0 + 2o*)/(1 − q) + q/(1 − q)²],

D = diam(oP ∪ oQ), o* = max |o|, m0 = Y + 1 − o*, q = exp(−m0/σ²).

Stored tables: g_lo and g_hi are multiples of 2^-GRID_BITS, each kept at least
2^-(GRID_BITS + GUARD_BITS) away from the enclosure (so a checker with a
modest precision decides them), clipped to [0, R] with R = 2/σ² (KL >= 0;
g <= R is the hidden-row shift bound of the paper), and g(k, 0, 0) = 0
exactly.  Facts used by the callers: g(k, 0, 0) = 0 and the mirror symmetry
g(−k, −d, −j) = g(k, d, j) (both from the row symmetry of a symmetric law).
"""

from flint import arb
from gmpy2 import isqrt, mpq, mpz

from producer.sources.discrete_gaussian import normaliser_ball
from producer.sources.enclosures import arf_to_mpq, round_down, round_up, to_arb, working_precision

GRID_BITS = 110
GUARD_BITS = 16
BASE_PRECISION = 200
ACTIONS = (-1, 0, 1)


def offsets(a, B, k, shift=0):
    """The multiset {floor((a·k + u)/B) + shift : 0 <= u < B} as {offset: multiplicity}.

    With a·k = B·m + ρ (0 <= ρ < B): u < B − ρ gives m, the other ρ values give m + 1.
    """
    m, rho = divmod(a * k, B)
    counts = {m + shift: B - rho}
    if rho:
        counts[m + 1 + shift] = rho
    return counts


def reward_offsets(a, B, k, d, j):
    """(oP, oQ) of the reward g(k, d, j)."""
    return offsets(a, B, k), offsets(a, B, k - d, -j)


def diameter(a, B, k, d, j):
    """diam(oP ∪ oQ): the row log-likelihood is diam/σ²-Lipschitz in the real-extended output."""
    op, oq = reward_offsets(a, B, k, d, j)
    values = list(op) + list(oq)
    return max(values) - min(values)


def max_diameter(gamma):
    """max over k mod B, d, j of diam(oP ∪ oQ) (at most 3; 2 at γ = 1/2)."""
    return max(diameter(gamma.a, gamma.B, k, d, j) for k in range(gamma.B) for d in ACTIONS for j in ACTIONS)


class RewardBalls:
    """Rational endpoints of arb balls of g(k, d, j) for the residues k (default all of [0, B)),
    d, j in {−1, 0, 1}; the sum keeps the tail below about 2^-(precision − 60)."""

    __slots__ = ("gamma", "sigma2", "precision", "bounds")

    def __init__(self, gamma, sigma2, precision=BASE_PRECISION, residues=None):
        self.gamma, self.sigma2, self.precision = gamma, mpq(sigma2), int(precision)
        residues = range(gamma.B) if residues is None else sorted(set(int(k) % gamma.B for k in residues))
        self.bounds = {}
        with working_precision(self.precision + 32):
            z = normaliser_ball(self.sigma2, self.precision)
            cache = {}
            for k in residues:
                for d in ACTIONS:
                    for j in ACTIONS:
                        if d == 0 and j == 0:
                            self.bounds[(k, d, j)] = (mpq(0), mpq(0))
                            continue
                        ball = self._ball(k, d, j, z, cache)
                        self.bounds[(k, d, j)] = (arf_to_mpq(ball.lower()), arf_to_mpq(ball.upper()))
        # g(−k, −d, −j) = g(k, d, j) (the rows' mirror symmetry): intersect the two enclosures, so
        # that the tables are exactly mirror-symmetric (a checker still checks each entry on its own)
        for (k, d, j), (lo, hi) in list(self.bounds.items()):
            mirror = ((-k) % gamma.B, -d, -j)
            if mirror in self.bounds:
                mlo, mhi = self.bounds[mirror]
                self.bounds[(k, d, j)] = (max(lo, mlo), min(hi, mhi))

    def _kernel(self, n, cache):
        ball = cache.get(n)
        if ball is None:
            ball = cache[n] = to_arb(mpq(-n * n) / (2 * self.sigma2)).exp()
        return ball

    def _ball(self, k, d, j, z, cache):
        a, B, s2 = self.gamma.a, self.gamma.B, self.sigma2
        op, oq = reward_offsets(a, B, k, d, j)
        values = list(op) + list(oq)
        diam, ostar = max(values) - min(values), max(abs(o) for o in values)
        Y = _summation_radius(s2, ostar, self.precision)
        total = arb(0)
        for y in range(-Y, Y + 1):
            sp = sum((self._kernel(y + o, cache) * c for o, c in op.items()), arb(0))
            sq = sum((self._kernel(y + o, cache) * c for o, c in oq.items()), arb(0))
            total += sp * (sp.log() - sq.log())
        total = total / (B * z)
        tail = _tail_bound(diam, ostar, Y, s2)
        return total + arb(0, tail)


def _summation_radius(sigma2, ostar, precision):
    """Y with exp(−m0²/(2σ²)) below about 2^-(precision − 60), m0 = Y + 1 − o*."""
    target = precision - 60
    need = 2 * sigma2 * target * mpq(7, 10)          # m0² >= 2σ²·target·ln 2 (0.7 > ln 2)
    m0 = int(isqrt(mpz(need.numerator // need.denominator))) + 2
    return m0 + ostar - 1


def _tail_bound(diam, ostar, Y, sigma2):
    """arb upper bound of the neglected |y| > Y part of the KL sum (the module docstring)."""
    if diam == 0:
        return arb(0)
    s2 = to_arb(sigma2)
    m0 = Y + 1 - ostar
    q = (-to_arb(m0) / s2).exp()
    head = (2 * diam / s2) * (-to_arb(m0 * m0) / (2 * s2)).exp()
    return (head * ((m0 + 2 * ostar) / (1 - q) + q / (1 - q) ** 2)).upper()


class RewardTable:
    """Directed dyadic bounds g_lo <= g <= g_hi per (k mod B, d, j), clipped to [0, R].

    Also ``mid`` = (g_lo + g_hi)/2, the rewards used where a single value is
    needed to find a policy or a price (any choice is sound: the certificates
    use g_lo or g_hi).
    """

    __slots__ = ("gamma", "sigma2", "R", "lo", "hi", "mid", "grid_bits")

    def __init__(self, gamma, sigma2, residues=None, grid_bits=GRID_BITS):
        self.gamma, self.sigma2, self.grid_bits = gamma, mpq(sigma2), int(grid_bits)
        self.R = 2 / self.sigma2
        bounds = RewardBalls(gamma, sigma2, grid_bits + 90, residues).bounds
        guard = mpq(1, mpz(2) ** (grid_bits + GUARD_BITS))
        self.lo, self.hi, self.mid = {}, {}, {}
        for key, (lower, upper) in bounds.items():
            if key[1] == 0 and key[2] == 0:
                lo = hi = mpq(0)
            else:
                lo = max(mpq(0), round_down(lower - guard, grid_bits))
                hi = min(self.R, round_up(upper + guard, grid_bits))
            self.lo[key], self.hi[key], self.mid[key] = lo, hi, (lo + hi) / 2

    def key(self, k, d, j):
        return (k % self.gamma.B, d, j)


def rounded_rewards(gamma, sigma2, grid_bits, residues=None):
    """(g^, η): g^ a multiple of 2^-grid_bits per (k mod B, d, j), clipped to [0, R], g^(k,0,0) = 0,
    with |g^ − g| <= η = 2^-(grid_bits+1) + 2^-(grid_bits+8) for every entry."""
    bounds = RewardBalls(gamma, sigma2, grid_bits + 90, residues).bounds
    R = 2 / mpq(sigma2)
    scale = mpz(2) ** grid_bits
    eta = mpq(1, 2 * scale) + mpq(1, 256 * scale)
    table = {}
    for key, (lo, hi) in bounds.items():
        if key[1] == 0 and key[2] == 0:
            table[key] = mpq(0)
            continue
        if hi - lo > mpq(1, 1024 * scale):  # pragma: no cover - the precision makes balls far narrower
            raise ArithmeticError("reward enclosure too wide for the requested grid")
        x = (lo + hi) / 2 * scale
        nearest = mpq((x.numerator * 2 + x.denominator) // (2 * x.denominator), scale)
        table[key] = min(R, max(mpq(0), nearest))
    return table, eta
