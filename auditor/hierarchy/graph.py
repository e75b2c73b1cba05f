"""The reachable graph of a game above G_C (*Hidden Integer Feedback* §3.1, (27), App. E.1, G.1;
docs/hierarchy.md §2-3).

Node keys: ``("G", c)`` synchronised with c participations left;
``("P", c, d, v)`` pending, previous sign d, committed word v for positions
c, c−1, …; ``("R", c, d)`` free (a block was exhausted).

Rows are counted over the hidden draws by :func:`auditor.game.rows.row`, at concrete
hidden states, as integer numerators over D = B·S, indexed by the offset n of
the output from the successor base:

- root participation j (prepared state k = 0, b(0) = 0): output n has
  P = row_0(n − j), Q = row_0(n) (any k = B·z gives the same row: rule R1 of :mod:`auditor.game`);
- pending state with Q-state y (first digit z = a·y mod B) and P-state y − d,
  action j (0 = echo): P = row_{y−d}(b(y) + n − j), Q = row_y(b(y) + n).

Only outputs with P + Q > 0 are kept; every row must sum to D on both sides.
"""

from auditor.game.rows import row as counted_row

__all__ = ["Row", "Graph"]


class Row:
    """One experiment: outputs n with integer numerators P_n, Q_n over D (P_n + Q_n > 0)."""

    __slots__ = ("key", "outputs", "P", "Q")

    def __init__(self, key, pairs, D):
        self.key = key
        kept = [(n, p, q) for n, p, q in pairs if p + q > 0]
        self.outputs = tuple(n for n, _, _ in kept)
        self.P = tuple(p for _, p, _ in kept)
        self.Q = tuple(q for _, _, q in kept)
        if sum(self.P) != D or sum(self.Q) != D or min(self.P + self.Q) < 0:
            raise ArithmeticError(f"row {key} is not a pair of probability rows over D = {D}")


def _joint(p_row, p_shift, q_row, q_shift):
    """Pairs (n, P_n, Q_n) with P_n = p_row[n + p_shift], Q_n = q_row[n + q_shift]."""
    ns = {k - p_shift for k in p_row} | {k - q_shift for k in q_row}
    return [(n, p_row.get(n + p_shift, 0), q_row.get(n + q_shift, 0)) for n in sorted(ns)]


class Graph:
    """Nodes reachable from G_C, their alternatives (row, children per output) and counts."""

    def __init__(self, weights, offset, a, B, model, words):
        self.weights, self.offset, self.a, self.B = tuple(weights), offset, a, B
        self.D = B * sum(weights)
        self.model, self.words = model, words
        self._counted = {}
        self.rows = {}
        self.root_groups = {}     # c -> {ℓ: [(row key, children)]}
        self.pending = {}         # (c, d, v) -> [(row key, children)]
        self.free_groups = {}     # (c, d) -> {ℓ: [pending keys]}
        self._build(model.budget)

    # rows -------------------------------------------------------------
    def _hidden_row(self, k):
        r = self._counted.get(k)
        if r is None:
            r = counted_row(self.weights, self.offset, self.a, self.B, k)
            self._counted[k] = r
        return r

    def _row(self, key):
        r = self.rows.get(key)
        if r is not None:
            return r
        if key[0] == "root":
            j = key[1]
            base = self._hidden_row(0)
            pairs = _joint(base, -j, base, 0)
        else:
            z, d, j = key
            y = self.words.phase_state(z)
            shift = self.words.successor(y)
            pairs = _joint(self._hidden_row(y - d), shift - j, self._hidden_row(y), shift)
        r = Row(key, pairs, self.D)
        self.rows[key] = r
        return r

    # reachability -----------------------------------------------------
    def _build(self, C):
        """Walk the levels from the top.

        Level c holds pending (c, ·, ·), G_c and R_{c,·}.  Pending (c, …) reaches
        G_c (echo) and level c − 1; G_c and R_{c−1,·} reach level c − 1 only, so
        at level c: pending nodes first, then G_c, then the free nodes R_{c−1,·}.
        """
        reached_g = {C}
        waiting = {}        # level -> pending keys reached and not yet expanded
        seen_p = set()
        reached_r = set()

        def want_pending(key):
            if key not in seen_p:
                seen_p.add(key)
                waiting.setdefault(key[0], []).append(key)

        for c in range(C, -1, -1):
            for key in waiting.pop(c, []):
                self.pending[key] = self._pending_alternatives(key, want_pending, reached_r)
                reached_g.add(c)
            if c in reached_g and c >= 1:
                self.root_groups[c] = self._root_alternatives(c, want_pending)
            for d in (1, -1):
                if (c - 1, d) in reached_r:
                    groups = {}
                    for ell in self.model.free_groups(c - 1):
                        members = [(c - 1, d, v) for v in self.words.all_words(ell)]
                        for m in members:
                            want_pending(m)
                        groups[ell] = members
                    self.free_groups[(c - 1, d)] = groups
        self.synchronised = sorted(reached_g)

    def _root_alternatives(self, c, want_pending):
        groups = {}
        for ell in self.model.root_groups(c):
            alts = []
            for w in self.words.all_words(ell):
                for j in (1, -1):
                    r = self._row(("root", j))
                    kids = tuple(("P", c - 1, j, self.words.after_root(w, n)) for n in r.outputs)
                    for kid in kids:
                        want_pending(kid[1:])
                    alts.append((r.key, kids))
            groups[ell] = alts
        return groups

    def _pending_alternatives(self, key, want_pending, reached_r):
        c, d, v = key
        echo = self._row((v[0], d, 0))
        alts = [(echo.key, (("G", c),) * len(echo.outputs))]
        if c >= 1:
            for j in (1, -1):
                r = self._row((v[0], d, j))
                if len(v) >= 2:
                    kids = tuple(("P", c - 1, j, self.words.after_pending(v, n)) for n in r.outputs)
                    for kid in kids:
                        want_pending(kid[1:])
                else:
                    kids = (("R", c - 1, j),) * len(r.outputs)
                    reached_r.add((c - 1, j))
                alts.append((r.key, kids))
        return alts

    # counts -----------------------------------------------------------
    def counts(self):
        """The four counts of docs/hierarchy.md §3."""
        branches = 0
        for groups in self.root_groups.values():
            for alts in groups.values():
                branches += sum(len(kids) for _, kids in alts)
        for alts in self.pending.values():
            branches += sum(len(kids) for _, kids in alts)
        return {"synchronised": len(self.synchronised), "free": len(self.free_groups),
                "pending": len(self.pending), "branches": branches}
