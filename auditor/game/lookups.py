"""Exact curve look-ups of the evaluator: sums over residue curves in integers.

A participation at ratio t = tn/td sums, over the outputs o of one
transition, the value of the F_level residue curve at (o - j, o) at the
point (p_o, t q_o): the curve's vertex maximising p_o A + t q_o B' is the
number of its edges with ratio dB/dA < p_o/(t q_o), found by binary search.
With every curve of a level over den = D^(2 level + 1) the sum is
(cx + t cy + (sa + t sb)/den)/D = ((cx den + sa) td + (cy den + sb) tn) / (td den D),
so the options of one node compare as integers over one denominator.

The search runs on integer floors first: with K = floor(key 2^KEY_BITS) and
X = floor(x 2^KEY_BITS), K < X implies key < x and K > X implies key > x
(floor is monotone), so bisecting the K for X gives the exact position
unless the K found equals X; only then are the rationals compared.  Nothing
here is rounded: a floor only orders, the rationals settle ties.

:class:`Lookups` is a base of :class:`auditor.game.game.Game`; it reads the
game's ``D``, ``symmetric``, ``_split``, ``_F_tables`` and the methods
``_relative``, ``_power`` and ``F_curve``.
"""

from bisect import bisect_left
from collections import defaultdict
from itertools import repeat
from operator import floordiv, lshift, sub

from gmpy2 import mpq, mpz

__all__ = ["Lookups", "KEY_BITS", "lookup_entry"]


KEY_BITS = 64


def _floor_key(num, den):
    """floor(num/den * 2^KEY_BITS) for integers num >= 0, den > 0: an exact
    integer stand-in for comparisons (ties are settled on the rationals);
    below _KEY_CAP.  The fraction need not be reduced (the floor of a
    rational does not depend on how it is written), which saves a gcd."""
    k = (num << KEY_BITS) // den
    if k >= _KEY_CAP:
        raise ValueError(f"a ratio with {k.bit_length()} bits is beyond the evaluator's range")
    return k


def _none():
    return None


# closes every list of floor keys, so that a bisection result always indexes
# it: no key reaches 2^(2^20) (keys have a few thousand bits at most; larger
# ones are refused where they are made), and comparing with it is O(1)
_KEY_CAP = mpz(1) << (1 << 20)


def lookup_entry(chain):
    """(floor keys + [_KEY_CAP], xs, ys, chain) for the vertex searches of
    :meth:`Lookups._sum_F_num`: floor(dB/dA * 2^KEY_BITS) of each edge, which
    is the :func:`_floor_key` of the edge ratio (the rational keys are built
    only if a tie needs them)."""
    xs, ys = chain.xs, chain.ys
    keys = list(map(floordiv, map(lshift, map(sub, ys, ys[1:]), repeat(KEY_BITS)), map(sub, xs[1:], xs)))
    keys.append(_KEY_CAP)
    return keys, xs, ys, chain


class Lookups:
    """The integer vertex searches of :class:`auditor.game.game.Game` (a base class)."""

    __slots__ = ()

    def _sum_at(self, chain, kP, kQ, j, t):
        """sum_o V(p_o, t q_o) / D over the outputs of transition (kP, kQ, j),
        V the curve ``chain`` (an echo of a G curve): one binary search per
        output.  Sums over F residue curves are :meth:`_sum_F_num`'s."""
        _shift, items = self._relative(kP, kQ, j)
        inv_t = 1 / t
        cx = cy = sa = sb = mpz(0)
        keys, xs, ys = chain.keys(), chain.xs, chain.ys
        for _u, p, qq, r in items:
            if r is None:
                cx += p
                cy += qq
                continue
            i = bisect_left(keys, r * inv_t)
            sa += p * xs[i]
            sb += qq * ys[i]
        return (cx + t * cy + (sa + t * sb) / chain.den) / self.D

    def _sum_F_table(self, level, kP, kQ, j, t):
        """sum_o V_o(p_o, t q_o) / D over the outputs of transition (kP, kQ, j),
        V_o the F_level curve at (o - j, o), as an mpq (see :meth:`_sum_F_num`)."""
        return mpq(self._sum_F_num(level, kP, kQ, j, t), t.denominator * self._F_table(level, j)[3])

    def _sum_F_num(self, level, kP, kQ, j, t):
        """The numerator N of :meth:`_sum_F_table` over the common denominator
        t.denominator * D^(2 level + 2) (integers only, so that the options of
        one node compare without reducing fractions), from the split items of
        :meth:`_scaled` (shared by every state pair of one relative shape) and
        the integer-floor vertex searches of the module docstring."""
        shift, split = self._scaled(kP, kQ, j, t)
        table, period, den, _full = self._F_table(level, j)
        return self._vertex_sums(table, period, den, shift, split, t, level, j)

    def _vertex_sums(self, table, period, den, shift, split, t, level, j):
        """((cx den + sa) td + (cy den + sb) tn) of :meth:`_sum_F_num`, the
        curve of output u read from table[(u + shift) mod period] (filled
        from the F_level curves with sign j when empty)."""
        cx, cy, us, ps, qs, rs, ixs = split
        sa = cx * den
        sb = cy * den
        tn, td = t.numerator, t.denominator
        for u, p, qq, ratio, ix in zip(us, ps, qs, rs, ixs):
            r = (u + shift) % period
            entry = table[r]
            if entry is None:
                entry = self._fill_F_table(level, r, j)
            ikeys, xs, ys, chain, flip, _c = entry
            if flip:
                # the data of the transpose W: V(p, t qq) = W(t qq, p), its
                # vertex the number of W's edges with ratio < t qq / p
                ix = ((qq * tn) << KEY_BITS) // (p * td)
                i = bisect_left(ikeys, ix)
                if ikeys[i] == ix:
                    i = bisect_left(chain.keys(), t / ratio)
                sa += p * ys[i]
                sb += qq * xs[i]
                continue
            i = bisect_left(ikeys, ix)
            if ikeys[i] == ix:
                i = bisect_left(chain.keys(), ratio / t)
            sa += p * xs[i]
            sb += qq * ys[i]
        return sa * t.denominator + sb * t.numerator

    def _scaled(self, kP, kQ, j, t):
        """(shift, (cx, cy, us, ps, qqs, ratios, floor keys)) of one
        transition at ratio t: cx, cy the summed p, qq of outputs with
        p*qq = 0 (their value is p + t*qq), and for the others u, p, qq, p/qq
        and the :func:`_floor_key` of the bisection key (p/qq)/t (only the
        integer is kept: the rational is rebuilt for a tie).  Cached by (relative shape, t)."""
        a, B = self.law.a, self.B
        mP, rP = divmod(a * kP, B)
        mQ, rQ = divmod(a * kQ, B)
        key = (rP, rQ, mP - j - mQ, t)
        split = self._split.get(key)
        if split is None:
            shift, items = self._relative(kP, kQ, j)
            tn, td = t.numerator, t.denominator
            cx = cy = mpz(0)
            us, ps, qs, rs, ixs = [], [], [], [], []
            for u, p, qq, r in items:
                if r is None:
                    cx += p
                    cy += qq
                else:
                    us.append(u)
                    ps.append(p)
                    qs.append(qq)
                    rs.append(r)
                    ixs.append(_floor_key(p * td, qq * tn))   # (p/qq)/t
            split = (cx, cy, us, ps, qs, rs, ixs)
            if len(self._split) > 100000:
                self._split.clear()
            self._split[key] = split
        return -mQ, split

    def _F_table(self, q, j):
        """([r mod B^(q+1) -> the entry of the F_q((r - j, r)) curve (:meth:`_fill_F_table`:
        floor keys, xs, ys and chain of the data read, flipped or not, the curve), or None],
        B^(q+1), D^(2q+1), D^(2q+2)): a direct lookup in front of :meth:`F_curve`'s canonical
        (mirrored) keys.  All curves of one level share the denominator
        D^(2q+1), which is checked when an entry is filled."""
        key = (q, j)
        found = self._F_tables.get(key)
        if found is None:
            period = self._power(q + 1)
            # a list for small periods (fastest); else a dict answering None when absent
            table = [None] * period if period <= 1 << 16 else defaultdict(_none)
            den = self.D ** (2 * q + 1)
            found = self._F_tables[key] = (table, period, den, den * self.D)
        return found

    def _fill_F_table(self, q, r, j, share=True):
        """The table entry of F_q((r - j, r)) (:func:`lookup_entry`), shared
        with a twin whose entry is made (``share``): the mirror twin (or
        another residue of the same canonical key) has the same curve, and
        the cell of F_q((r, r - j)) (sign -j, residue r - j) and, for a
        symmetric law, that of its mirror F_q((-r, j - r)) (sign j, residue
        j - r) hold its transpose (the transposition of
        :class:`auditor.game.game.Game`), whose data the entry then reads
        flipped."""
        c = self.F_curve(q, r, j)
        if c.den != self.D ** (2 * q + 1):
            raise AssertionError(f"F_{q} curve over {c.den}, not D^{2 * q + 1}")
        period = self._power(q + 1)
        twin = self._F_table(q, -j)[0][(-r) % period] if share and self.symmetric else None
        flipped = self._F_table(q, -j)[0][(r - j) % period] if share and self.routes.transpose else None
        if flipped is None and share and self.routes.transpose and self.symmetric:
            flipped = self._F_table(q, j)[0][(j - r) % period]   # its mirror, F_q((-r, j - r))
        if twin is not None and twin[5] is c:
            entry = twin
        elif flipped is not None:
            entry = flipped[:4] + (not flipped[4], c)
        else:
            entry = lookup_entry(c) + (False, c)
            c._edges = None   # memory: the edge lists are rebuilt if ever needed again
        self._F_table(q, j)[0][r] = entry
        return entry
