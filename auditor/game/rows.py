"""Hidden-rounding rows, rebuilt by counting the hidden uniform draws (*Hidden Integer Feedback* §3.1).

One step of the mechanism maps a hidden state k to

    n = eta - floor((a*k + U) / B),      eta ~ nu,  U uniform on {0, ..., B-1}.

For a fixed z = a*k, the number of draws U with floor((z + U) / B) = h is the
length of the integer interval [max(0, h*B - z), min(B, (h+1)*B - z)), i.e.

    count(z, h) = max(0, min(B, (h+1)*B - z) - max(0, h*B - z)).

Hence, with nu(z) = w_z / S and D = B*S,

    row_k(n) = sum_h count(a*k, h) * w_{n+h} / D.

Rows are returned as exact integer numerators over D, so every later
operation stays in integer arithmetic.  Nothing here uses the mixture form of
the producer; the two must agree, which the tests check against a brute-force
enumeration of all joint draws (eta, U).
"""

__all__ = ["count", "law_total", "row", "phase_row", "Law"]


def count(z, h, B):
    """Number of U in {0, ..., B-1} with floor((z + U) / B) == h."""
    return max(0, min(B, (h + 1) * B - z) - max(0, h * B - z))


def law_total(weights):
    """S = sum of the weights (must be positive)."""
    total = sum(weights)
    if total <= 0 or any(w < 0 for w in weights):
        raise ValueError("weights must be nonnegative and not all zero")
    return total


def row(weights, offset, a, B, k):
    """Row of hidden state ``k``: dict n -> numerator over D (nonzero entries only).

    ``weights[i]`` is w_z for z = offset + i.  The hidden rounding value
    h = floor((a*k + U) / B) ranges over at most two integers; we scan a window
    around a*k // B that surely contains them and let ``count`` discard the rest.
    """
    z = a * k
    base = z // B
    out = {}
    for h in range(base - 1, base + 3):
        c = count(z, h, B)
        if not c:
            continue
        for i, w in enumerate(weights):
            if w:
                n = offset + i - h
                out[n] = out.get(n, 0) + c * w
    return {n: out[n] for n in sorted(out) if out[n]}


def phase_row(weights, offset, B, rho):
    """Base row f_rho(u) = sum_h count(rho, h) * w_{u+h} of the phase 0 <= rho < B.

    Since count(B*m + rho, h) = count(rho, h - m), a state k with
    a*k = B*m + rho has row_k(n) = f_rho(n + m): every row is a shifted copy
    of one of the B base rows.
    """
    return row(weights, offset, 1, B, rho)


class Law:
    """A finite innovation law with a feedback fraction a/B; rows cached by state.

    Immutable parameters; the row cache is an implementation detail.
    """

    __slots__ = ("weights", "offset", "a", "B", "S", "D", "_rows", "_phase_rows")

    def __init__(self, weights, offset, a, B):
        self.weights = tuple(int(w) for w in weights)
        self.offset = int(offset)
        self.a = int(a)
        self.B = int(B)
        self.S = law_total(self.weights)
        self.D = self.B * self.S
        self._rows = {}
        self._phase_rows = {}

    def row(self, k):
        """Row of state k as a dict n -> numerator over D."""
        r = self._rows.get(k)
        if r is None:
            r = row(self.weights, self.offset, self.a, self.B, k)
            if len(self._rows) > 4096:  # rows are cheap to rebuild; keep memory flat
                self._rows.clear()
            self._rows[k] = r
        return r

    def shifted_row(self, k):
        """(m, f) with row_k(n) = f[n + m]: the base row of k's phase and its shift."""
        m, rho = divmod(self.a * k, self.B)
        f = self._phase_rows.get(rho)
        if f is None:
            f = phase_row(self.weights, self.offset, self.B, rho)
            self._phase_rows[rho] = f
        return m, f

    def is_symmetric(self):
        """nu(z) == nu(-z) for every z (then row_{-k}(-n) = row_k(n))."""
        w = {self.offset + i: x for i, x in enumerate(self.weights) if x}
        return all(w.get(-z) == x for z, x in w.items())
