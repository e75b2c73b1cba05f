"""Digit words of hidden integer states (*Hidden Integer Feedback* §3.1, App. E.1), by integer arithmetic.

The successor base of a hidden state k is b(k) = −floor(a·k/B); the length-q
word of k is z_i = a·b^i(k) mod B, i = 0..q−1, and words of length q are in
bijection with k mod B^q.  Rather than a digit-level carry rule, the auditor
moves words through concrete integers:

- a participation from the synchronised root with committed word w reaches
  the hidden state m + n, where m is any integer whose word is w (m plays the
  role of b(k) for the prepared k), so the child's word is word(rep(w) + n);
- a participation from a pending state whose Q-state y has word v reaches
  y' = b(y) + n, whose word of length |v| − 1 is the child's.
"""

__all__ = ["Words"]


class Words:
    """Words over γ = a/B with representatives, built by enumerating residues."""

    __slots__ = ("a", "B", "_rep", "_root", "_pending")

    def __init__(self, a, B):
        self.a, self.B = a, B
        self._rep = {}      # length -> {word: smallest k >= 0 with that word}
        self._root = {}
        self._pending = {}

    def successor(self, k):
        """b(k) = −floor(a·k/B)."""
        return -((self.a * k) // self.B)

    def word(self, k, q):
        """The length-q word of the integer k."""
        out = []
        for _ in range(q):
            out.append((self.a * k) % self.B)
            k = self.successor(k)
        return tuple(out)

    def representative(self, w):
        """The smallest k >= 0 whose word is w (checks the bijection with k mod B^q)."""
        q = len(w)
        table = self._rep.get(q)
        if table is None:
            table = {}
            for k in range(self.B ** q):
                table.setdefault(self.word(k, q), k)
            if len(table) != self.B ** q:
                raise ArithmeticError(f"words of length {q} are not in bijection with k mod B^{q}")
            self._rep[q] = table
        return table[w]

    def all_words(self, q):
        """All B^q words of length q, in the order of their representatives."""
        self.representative((0,) * q)
        table = self._rep[q]
        return sorted(table, key=table.get)

    def after_root(self, w, n):
        """Word of the state reached from the root with committed word w at output n."""
        key = (w, n)
        out = self._root.get(key)
        if out is None:
            out = self.word(self.representative(w) + n, len(w))
            self._root[key] = out
        return out

    def after_pending(self, v, n):
        """Word (length |v| − 1) of b(y) + n for a Q-state y with word v."""
        key = (v, n)
        out = self._pending.get(key)
        if out is None:
            y = self.representative(v)
            out = self.word(self.successor(y) + n, len(v) - 1)
            self._pending[key] = out
        return out

    def phase_state(self, z):
        """The smallest y >= 0 with a·y ≡ z (mod B): a Q-state whose first digit is z."""
        for y in range(self.B):
            if (self.a * y) % self.B == z:
                return y
        raise ArithmeticError(f"no state with phase {z}")
