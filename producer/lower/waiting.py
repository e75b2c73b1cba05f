"""The public waiting recursion before a fixed suffix.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.1 and Appendix D.1.)

With common zero inputs the public state is the hidden state.  On a window K
invariant under the kernel,

    V_0(k) = h(k),   V_s(k) = max(h(k), Σ_n row_k(n)·V_{s−1}(n)),

and the program with s waits left starts the suffix when h(k) >= the
continuation ('S'), else releases commonly ('W').  The event probabilities of
that program follow the same table: P_s(k) = p(k) on 'S', else
Σ_n row_k(n)·P_{s−1}(n) (same for Q), so V_s(k) = P_s(k) − λ·Q_s(k).

All values are integers: at step s, P and Q over D^{m+s}, V over N·D^{m+s}.
"""

from gmpy2 import mpz

from producer.errors import InputError


class StartTable:
    """Per-state suffix data at s = 0: integers p, q over D^m and the threshold Λ/N."""

    __slots__ = ("low", "high", "p", "q", "lam_num", "lam_den")

    def __init__(self, low, high, p, q, lam_num, lam_den):
        self.low, self.high = low, high
        self.p, self.q = list(p), list(q)
        self.lam_num, self.lam_den = mpz(lam_num), mpz(lam_den)

    def value(self, i):
        return self.lam_den * self.p[i] - self.lam_num * self.q[i]


def check_invariant(rows, low, high):
    """Raise unless every k in [low, high] sends all its mass into [low, high]."""
    for k in range(low, high + 1):
        support = rows.support(k)
        if support and (support[0] < low or support[-1] > high):
            raise InputError(f"window [{low}, {high}] is not invariant: row_{k} reaches "
                             f"[{support[0]}, {support[-1]}]")


def invariant_window(rows, seed=0, limit=100000):
    """The smallest interval containing ``seed`` that the kernel maps into itself."""
    low = high = seed
    while True:
        new_low, new_high = low, high
        for k in range(low, high + 1):
            support = rows.support(k)
            if support:
                new_low, new_high = min(new_low, support[0]), max(new_high, support[-1])
        if (new_low, new_high) == (low, high):
            return low, high
        low, high = new_low, new_high
        if high - low > limit:
            raise InputError(f"no invariant window of width <= {limit} around {seed}")


def run_waiting(rows, start, max_waits):
    """Stopping strings and (P_s, Q_s) for s = 0..max_waits.

    Returns (stopping, layers) where stopping[s−1] is the 'S'/'W' string for s
    waits left and layers[s] = (P list, Q list, V list) over the window, as
    integers over D^{m+s} (V over N·D^{m+s}).
    """
    low, high = start.low, start.high
    width = high - low + 1
    D = rows.denominator
    p_now, q_now = list(start.p), list(start.q)
    v_now = [start.value(i) for i in range(width)]
    stop_p, stop_q, stop_v = list(start.p), list(start.q), list(v_now)
    layers, stopping = [(p_now, q_now, v_now)], []
    row_data = [_row_items(rows, k, low) for k in range(low, high + 1)]
    for _ in range(max_waits):
        # the stopping values are rescaled by D each step to the common denominator
        stop_p = [x * D for x in stop_p]
        stop_q = [x * D for x in stop_q]
        stop_v = [x * D for x in stop_v]
        p_next, q_next, v_next, decisions = [], [], [], []
        for i in range(width):
            items = row_data[i]
            cont_v = sum((w * v_now[j] for j, w in items), mpz(0))
            if stop_v[i] >= cont_v:
                decisions.append("S")
                p_next.append(stop_p[i])
                q_next.append(stop_q[i])
                v_next.append(stop_v[i])
            else:
                decisions.append("W")
                p_next.append(sum((w * p_now[j] for j, w in items), mpz(0)))
                q_next.append(sum((w * q_now[j] for j, w in items), mpz(0)))
                v_next.append(cont_v)
        stopping.append("".join(decisions))
        p_now, q_now, v_now = p_next, q_next, v_next
        layers.append((p_now, q_now, v_now))
    return stopping, layers


def _row_items(rows, k, low):
    """(window index, numerator) of row_k's positive entries."""
    row = rows(k)
    return [(row.start + i - low, v) for i, v in enumerate(row.values) if v > 0]
