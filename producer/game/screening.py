"""Float screening of the root alternatives of G_2, confirmed exactly.

G_2(x, y) is a maximum over many root alternatives (r, j), each a sum over
outputs f of F_1 values.  Here every alternative is first valued in float64
(vectorised); only the alternatives whose float value lies within a relative
margin of the best float value are then evaluated exactly, and the exact
maximum over them is the answer.  Floats never decide the result: they only
discard alternatives that provably cannot attain the maximum.

Proof that the exact maximiser survives.  Every quantity is nonnegative and
normalised (probabilities, curve coordinates over their denominators, and
x, y scaled by max(x, y)).  (1) Each input float is the rounding of an exact
rational, relative error at most 2^-52.  (2) Products and sums of
nonnegative numbers do not amplify relative error: each operation adds at
most 2^-53, so a value built from n inputs by at most d operations on any
path has relative error at most (1 + 2^-52)^(n + d) − 1.  Here the depth is at
most 6 products and 3 nested sums of at most S = support + 4 terms each, so
the error is below 4·(S + 8)·2^-52 (with S <= 4101, below 2^-36).  (3) A curve
evaluated at the vertex chosen by float comparisons loses at most the gains
of the edges whose slope s_i is misjudged against t = x/y; both have relative
error below 2^-48, so misjudged edges have |t − s_i| <= 2^-47·s_i and lose at
most 2^-47·y·|ΔB_i| in total over the chain, at most 2^-47 of the value.
(4) A maximum of values with relative error η has relative error η.  Hence
each float value ṽ satisfies |ṽ − v| <= η·v with η < 2^-35, and if v_a is the
exact maximum then ṽ_a >= (1 − η)·v_a >= (1 − η)/(1 + η)·max ṽ.  Keeping every
alternative with ṽ >= (1 − 2^-30)·max ṽ therefore keeps the maximiser.
Underflow would break (1)-(2), so screening is used only when the smallest
nonzero product of inputs stays far above the float range (see _safe).
"""

from gmpy2 import mpq

np = None  # numpy, imported on first use: most queries never screen

MARGIN = 2.0 ** -30
MIN_ALTERNATIVES = 64      # below this, exact evaluation is cheaper than screening
CHUNK = 4096               # (alternative, output) rows per vectorised block


class _Unsafe(Exception):
    """A number whose float copy would leave the range where the error bound holds."""


def _float(value):
    """float(value) for an exact nonnegative rational, refusing overflow and tiny values."""
    try:
        f = float(value)
    except OverflowError:
        raise _Unsafe from None
    if value and not 2.0 ** -120 <= f <= 2.0 ** 120:
        raise _Unsafe
    return f


def _floats(values, den):
    den = int(den)
    return np.array([_float(mpq(int(v), den)) for v in values], dtype=np.float64)


class _CurveTable:
    """Float copies of a family of curves, padded to one length (slopes padded with +inf)."""

    def __init__(self, curves, den):
        width = max(len(c.A) for c in curves)
        self.A = np.zeros((len(curves), width))
        self.B = np.zeros((len(curves), width))
        self.S = np.full((len(curves), max(width - 1, 1)), np.inf)
        for i, c in enumerate(curves):
            n = len(c.A)
            self.A[i, :n] = _floats(c.A, den)
            self.A[i, n:] = self.A[i, n - 1]
            self.B[i, :n] = _floats(c.B, den)
            self.B[i, n:] = self.B[i, n - 1]
            self.S[i, :n - 1] = [_float(s) for s in c.slopes]
        self._padded = None
        positive = np.concatenate([self.A[self.A > 0], self.B[self.B > 0]])
        self.smallest = float(positive.min()) if positive.size else 1.0

    def evaluate(self, index, x, y):
        """V_index(x, y) for arrays of equal shape (index selects the curve)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            t = x / y
        if self.S.shape[0] == 1:
            # one curve: binary search (side='left' counts the slopes < t)
            k = np.searchsorted(self.S[0], t, side="left")
            return x * self.A[0, k] + y * self.B[0, k]
        k = self._count_below(index, t)
        return x * self.A[index, k] + y * self.B[index, k]

    def _count_below(self, index, t):
        """#{slopes of curve ``index`` < t}, by a vectorised binary search (rows ascend, +inf padded)."""
        width = self.S.shape[1] + 1
        if self._padded is None:
            # one more +inf column, so that every search ends inside the row
            self._padded = np.concatenate([self.S, np.full((self.S.shape[0], 1), np.inf)], axis=1).ravel()
        base = index * width
        lo = base.copy()
        hi = base + (width - 1)  # the count lies in [0, width − 1]
        for _ in range(int(width - 1).bit_length()):
            mid = (lo + hi) >> 1
            below = self._padded[mid] < t
            lo = np.where(below, mid + 1, lo)
            hi = np.where(below, hi, mid)
        return lo - base


def candidates(game, X, Y, alternatives):
    """The alternatives that may attain G_2(X, Y) (a superset of the maximisers).

    Returns ``alternatives`` unchanged when screening does not apply.
    """
    if len(alternatives) < MIN_ALTERNATIVES:
        return alternatives
    global np
    if np is None:
        import numpy
        np = numpy
    scale = max(X, Y)
    try:
        x, y = _float(mpq(int(X), int(scale))), _float(mpq(int(Y), int(scale)))
        values = _alternative_values(game, x, y, alternatives)
    except _Unsafe:
        values = None
    if values is None:
        return alternatives
    best = values.max()
    keep = values >= best * (1.0 - MARGIN)
    return [alt for alt, k in zip(alternatives, keep) if k]


def _alternative_values(game, x, y, alternatives):
    B, D = game.B, game.D
    f0 = {s: _CurveTable([game.f_curve(0, res, s) for res in range(B)], D) for s in (1, -1)}
    g1 = _CurveTable([game.g_curve(1)], D * D)
    signs = sorted({j for _r, j in alternatives})
    rows = {j: _RowTable(game, j) for j in signs}
    if not _safe(x, y, game, f0, g1, rows):
        return None
    out = np.empty(len(alternatives))
    for j in signs:
        picks = [i for i, (_r, jj) in enumerate(alternatives) if jj == j]
        r = np.array([alternatives[i][0] for i in picks], dtype=np.int64)
        out[picks] = _values_for_sign(game, x, y, r, j, rows[j], f0, g1)
    return out


class _RowTable:
    """For one root sign j: root outputs and, per residue ρ = a·k_Q mod B, padded row pairs."""

    def __init__(self, game, j):
        B, D = game.B, game.D
        root = game.root_entries(j)
        self.f = np.array([f for f, _p, _q in root], dtype=np.int64)
        self.p = _floats([p for _f, p, _q in root], D)
        self.q = _floats([q for _f, _p, q in root], D)
        self.entries = {}
        for s in (0, 1, -1):
            lists = [game.pair_entries(rho_k(game, rho) - j, rho_k(game, rho), s)[1] for rho in range(B)]
            width = max(1, max(len(e) for e in lists))
            off = np.zeros((B, width), dtype=np.int64)
            pp = np.zeros((B, width))
            qq = np.zeros((B, width))
            for rho, entries in enumerate(lists):
                n = len(entries)
                off[rho, :n] = [o for o, _p, _q in entries]
                pp[rho, :n] = _floats([p for _o, p, _q in entries], D)
                qq[rho, :n] = _floats([q for _o, _p, q in entries], D)
            self.entries[s] = (off, pp, qq)


def rho_k(game, rho):
    """A state k_Q with a·k_Q ≡ ρ (mod B)."""
    return int(rho * pow(game.a, -1, game.B)) % game.B


def _safe(x, y, game, f0, g1, rows):
    smallest = [v for v in (x, y) if v > 0]
    for table in rows.values():
        smallest += [float(table.p[table.p > 0].min(initial=1.0)), float(table.q[table.q > 0].min(initial=1.0))]
        for _off, pp, qq in table.entries.values():
            smallest += [float(pp[pp > 0].min(initial=1.0)), float(qq[qq > 0].min(initial=1.0))]
    smallest += [f0[1].smallest, f0[-1].smallest, g1.smallest]
    return float(np.prod(smallest)) > 2.0 ** -900 if all(v > 2.0 ** -120 for v in smallest) else False


def _values_for_sign(game, x, y, r, j, rows, f0, g1):
    """Float Σ_f F_1(...) for the alternatives (r, j), r an int64 array."""
    B, a, low = game.B, game.a, game.law.low
    total = np.zeros(len(r))
    for fi in range(len(rows.f)):
        xf, yf = x * rows.p[fi], y * rows.q[fi]
        k_q = rows.f[fi] - r
        rho = (a * k_q) % B
        start = low - 1 - (a * k_q) // B
        best = np.full(len(r), max(xf, yf))
        if xf == 0.0 or yf == 0.0:
            total += xf + yf
            continue
        off, pp, qq = rows.entries[0]
        echo = g1.evaluate(None, xf * pp, yf * qq).sum(axis=1)      # per residue ρ
        best = np.maximum(best, echo[rho])
        for s in (1, -1):
            off, pp, qq = rows.entries[s]
            for lo in range(0, len(r), CHUNK):
                sl = slice(lo, lo + CHUNK)
                res = (start[sl, None] + off[rho[sl]]) % B
                part = f0[s].evaluate(res, xf * pp[rho[sl]], yf * qq[rho[sl]]).sum(axis=1)
                best[sl] = np.maximum(best[sl], part)
        total += best
    return total
