"""Target-{0} witness lines for large budgets.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendices G.5, E.4.)

Class: at every synchronisation wait for the public state 0, then
participate; pending states stop, echo or participate with literal states.
On a finite law this is the game G_C with every preparation fixed to k = 0:

    S_0 = max(x,y);  S_c = max(max(x,y), max_j Σ_y F_{c−1}((y−j, y); x·row_0(y−j), y·row_0(y)))
    F_q((kP,kQ)) = max(max(x,y), Σ_o S_q(x·rP(o), y·rQ(o)),  q >= 1: max_j Σ_o F_{q−1}((o−j, o); ...))

A *line* is a feasible (policy, event) pair with coordinates (P(A), Q(A)).
Every node holds one line per prior ρ_i = ρ_0·β^i of a geometric grid; the
line at (N, i) takes one whole action and, for each output, the child line at
the grid prior nearest (in log scale, ties down) to the child's prior
ρ_i·rQ(o)/rP(o).  On a geometric grid that index is clip(i + s_o, 0, n−1)
with one integer shift s_o per branch (:func:`nearest_shift`).

Floats (numpy) only choose the actions.  The certificate's numbers are the
exact bottom-up recomputation of the lines reachable from the chosen root
line, with P floored and Q ceiled at scale 2^b per node, so
(a/2^b, c/2^b) is a lower / upper bound of (P_ν(A), Q_ν(A)) of a feasible
policy; Coupling A (2C draws) transfers it to the discrete Gaussian.
"""

import math
import time

import numpy as np
from gmpy2 import mpq, mpz

from producer.game import floats
from producer.lower.suffix import RowCache

ACTIONS_SYNC = "xy+-"
ACTIONS_PENDING = "xye+-"


def _float_powers(first, ratio, count):
    """ρ_0·β^i for i < count by repeated IEEE multiplication (hints).

    The same bits on every IEEE-754 machine: a vectorised exp differs in the
    last bit between CPUs, and a different float breaks a near-tie between
    actions differently, which would change the certificate's hints.
    """
    out, value = [], first
    for _ in range(count):
        out.append(value)
        value *= ratio
    return out


def _mass_float(D):
    """v ↦ float(v/D), a hint: float(v)/float(D) as always where float(D) exists (the same choices, so the
    same certificates), the correctly rounded quotient where D is too large for a float."""
    try:
        den = float(D)
    except OverflowError:
        return lambda v: floats.ratio(v, D)
    return lambda v: float(v) / den


class Grid:
    """ρ_i = ρ_0·β^i for i = 0..n−1 (exact rationals; float copies for the choices)."""

    def __init__(self, first, ratio, count):
        self.first, self.ratio, self.count = mpq(first), mpq(ratio), int(count)
        if self.first <= 0 or self.ratio <= 1 or self.count < 1:
            raise ValueError("grid: need ρ_0 > 0, β > 1, n >= 1")
        self.log_ratio = math.log(self.ratio.numerator) - math.log(self.ratio.denominator)
        self.floats = np.array(_float_powers(float(self.first), float(self.ratio), self.count))
        self._powers = {0: mpq(1)}
        self._shifts = {}

    def power(self, m):
        p = self._powers.get(m)
        if p is None:
            p = self._powers[m] = self.ratio ** m
        return p

    def nearest_shift(self, num, den):
        """The integer s, clipped to [−n, n], nearest to log_β(num/den) in log scale, ties down.

        Exactly: s = floor(log_β c) + [c² > β^{2·floor + 1}] for c = num/den, so that
        clip(i + s) is the grid index nearest to ρ_i·c (docs/lower-certificates.md §3.2).
        """
        key = (num, den)
        s = self._shifts.get(key)
        if s is not None:
            return s
        n = self.count
        c = mpq(num, den)
        guess = int(math.floor((math.log(num) - math.log(den)) / self.log_ratio))
        guess = max(-n - 1, min(n + 1, guess))
        while guess > -n - 1 and self.power(guess) > c:
            guess -= 1
        while guess < n + 1 and self.power(guess + 1) <= c:
            guess += 1
        s = guess + (1 if c * c > self.power(2 * guess + 1) else 0)
        s = max(-n, min(n, s))
        self._shifts[key] = s
        return s


class Branch:
    """One output of an action: numerators (rP, rQ) over D and the child (node, shift)."""

    __slots__ = ("rp", "rq", "child", "shift")

    def __init__(self, rp, rq, child, shift):
        self.rp, self.rq, self.child, self.shift = rp, rq, child, shift


class TargetZeroGame:
    """Nodes, branches, float choices and exact lines of the target-{0} class."""

    def __init__(self, law, gamma, budget, grid, scale_bits=60, progress=None):
        self.rows = RowCache(law, gamma)
        self.D = self.rows.denominator
        self.budget, self.grid, self.bits = int(budget), grid, int(scale_bits)
        self.one = mpz(2) ** self.bits
        self.progress = progress  # a callable receiving progress lines, or None: silent
        self.nodes = self._collect_nodes()
        self._branches = {}
        self.actions = {}

    # -- structure ------------------------------------------------------------

    def root(self):
        return (self.budget,)

    def legal(self, node):
        if len(node) == 1:
            return "xy" if node[0] == 0 else ACTIONS_SYNC
        return "xye" if node[0] == 0 else ACTIONS_PENDING

    def branches(self, node, action):
        """(branches, constant P numerator) of a non-stop action at a node."""
        key = (node, action)
        out = self._branches.get(key)
        if out is not None:
            return out
        rows = self.rows
        if len(node) == 1:
            k_p = k_q = 0
            child_budget = node[0] - 1
        else:
            q, k_p, k_q = node
            child_budget = q - 1
        sign = 0 if action == "e" else 1 if action == "+" else -1
        row_p, row_q = rows(k_p), rows(k_q)
        outputs = sorted(set(n + sign for n in rows.support(k_p)) | set(rows.support(k_q)))
        branches, constant = [], mpz(0)
        for o in outputs:
            rp, rq = row_p[o - sign], row_q[o]
            if rp == 0:
                continue  # child rejects: contributes nothing to P or Q
            if rq == 0:
                constant += rp  # child accepts: P gains rP, Q nothing
                continue
            child = (node[0],) if action == "e" else (child_budget, o - sign, o)
            branches.append(Branch(rp, rq, child, self.grid.nearest_shift(int(rq), int(rp))))
        out = self._branches[key] = (branches, constant)
        return out

    def _collect_nodes(self):
        """Every node reachable from the root, children before parents."""
        seen, order = set(), []
        stack = [(self.root(), False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for child in self._children(node):
                if child not in seen:
                    stack.append((child, False))
        return order

    def _children(self, node):
        rows = self.rows
        if len(node) == 1:
            c = node[0]
            if c == 0:
                return []
            return [(c - 1, y - j, y) for j in (1, -1)
                    for y in sorted(set(n + j for n in rows.support(0)) | set(rows.support(0)))]
        q, k_p, k_q = node
        out = [(q,)]
        if q >= 1:
            for j in (1, -1):
                ys = sorted(set(n + j for n in rows.support(k_p)) | set(rows.support(k_q)))
                out += [(q - 1, y - j, y) for y in ys]
        return out

    # -- float phase: choose actions ------------------------------------------

    def choose(self):
        """Float line arrays for every node (children first); records the best action per prior."""
        n, rho = self.grid.count, self.grid.floats
        mass = _mass_float(self.D)
        lines = {}
        start = time.monotonic()
        for count, node in enumerate(self.nodes):
            best_p, best_q = np.ones(n), np.ones(n)          # stop-accept
            best_v = best_p - rho * best_q
            choice = np.zeros(n, dtype=np.int8)
            zero = np.zeros(n)
            v_reject = zero
            better = v_reject > best_v
            best_p, best_q = np.where(better, 0.0, best_p), np.where(better, 0.0, best_q)
            best_v = np.maximum(best_v, v_reject)
            choice[better] = 1
            legal = self.legal(node)
            for code, action in enumerate(legal):
                if action in "xy":
                    continue
                branches, constant = self.branches(node, action)
                p = np.full(n, mass(constant))
                q = np.zeros(n)
                for b in branches:
                    child_p, child_q = lines[b.child]
                    s = b.shift
                    p += mass(b.rp) * child_p[n + s: 2 * n + s]
                    q += mass(b.rq) * child_q[n + s: 2 * n + s]
                v = p - rho * q
                better = v > best_v
                best_p, best_q = np.where(better, p, best_p), np.where(better, q, best_q)
                best_v = np.where(better, v, best_v)
                choice[better] = code
            self.actions[node] = "".join(legal[c] for c in choice)
            lines[node] = (_padded(best_p), _padded(best_q))
            if self.progress is not None and count % 500 == 0:
                self.progress(f"float lines {count}/{len(self.nodes)} nodes, {time.monotonic() - start:.1f} s")
        root_p, root_q = lines[self.root()]
        return root_p[n:2 * n], root_q[n:2 * n]

    # -- exact phase ----------------------------------------------------------

    def exact_line(self, node, index, memo):
        """(a, c): P(A) >= a/2^b, Q(A) <= c/2^b of the line at (node, index); memoised."""
        key = (node, index)
        hit = memo.get(key)
        if hit is not None:
            return hit
        action = self.actions[node][index]
        if action == "x":
            out = (self.one, self.one)
        elif action == "y":
            out = (mpz(0), mpz(0))
        else:
            branches, constant = self.branches(node, action)
            last = self.grid.count - 1
            sum_p, sum_q = constant * self.one, mpz(0)
            for b in branches:
                j = index + b.shift
                j = 0 if j < 0 else (last if j > last else j)
                a, c = self.exact_line(b.child, j, memo)
                sum_p += b.rp * a
                sum_q += b.rq * c
            D = self.D
            out = (sum_p // D, -((-sum_q) // D))
        memo[key] = out
        return out


def _padded(values):
    """[v_0]*n + values + [v_{n−1}]*n, so that clip(i + s) is a plain slice for |s| <= n."""
    n = len(values)
    return np.concatenate([np.full(n, values[0]), values, np.full(n, values[-1])])


def run_length(text):
    """'xxxyy' -> 'x3y2'."""
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        out.append(f"{text[i]}{j - i}")
        i = j
    return "".join(out)


def reachable_ranges(game, root_index):
    """Per node an index interval [lo, hi] containing every line reachable from the root line.

    Parents come after children in ``game.nodes``; walking it backwards, each
    used line range of a node is pushed to its children shifted by s_b and
    clipped, so the ranges only over-approximate the reachable set.
    """
    last = game.grid.count - 1
    ranges = {game.root(): (root_index, root_index)}
    for node in reversed(game.nodes):
        span = ranges.get(node)
        if span is None:
            continue
        lo, hi = span
        actions = game.actions[node]
        used = set(actions[lo:hi + 1]) - {"x", "y"}
        for action in used:
            for b in game.branches(node, action)[0]:
                c_lo = min(max(lo + b.shift, 0), last)
                c_hi = min(max(hi + b.shift, 0), last)
                old = ranges.get(b.child)
                ranges[b.child] = (c_lo, c_hi) if old is None else (min(old[0], c_lo), max(old[1], c_hi))
    return ranges


def exact_lines(game, ranges):
    """Exact (a, c) arrays (numpy object arrays of Python ints) on each node's range, children first.

    a = floor((constant·2^b + Σ_b rP·a_child[clip(i + s)]) / D),
    c = ceil(Σ_b rQ·c_child[clip(i + s)] / D), per run of one action.
    """
    last = game.grid.count - 1
    one, D = int(game.one), int(game.D)
    users = _child_users(game, ranges)
    parents = _parent_counts(users)
    out = {}
    for node in game.nodes:
        span = ranges.get(node)
        if span is None:
            continue
        lo, hi = span
        width = hi - lo + 1
        a = np.empty(width, dtype=object)
        c = np.empty(width, dtype=object)
        actions = game.actions[node]
        for run_lo, run_hi, action in _runs(actions, lo, hi):
            sl = slice(run_lo - lo, run_hi - lo + 1)
            if action == "x":
                a[sl], c[sl] = one, one
                continue
            if action == "y":
                a[sl], c[sl] = 0, 0
                continue
            branches, constant = game.branches(node, action)
            idx = np.arange(run_lo, run_hi + 1)
            sum_p = np.full(run_hi - run_lo + 1, int(constant) * one, dtype=object)
            sum_q = np.zeros(run_hi - run_lo + 1, dtype=object)
            for b in branches:
                child_a, child_c, c_lo = out[b.child]
                first, stop = run_lo + b.shift, run_hi + b.shift + 1
                if first >= 0 and stop <= last + 1:
                    j = slice(first - c_lo, stop - c_lo)  # a view: no clipping needed
                else:
                    j = np.clip(idx + b.shift, 0, last) - c_lo
                sum_p += int(b.rp) * child_a[j]
                sum_q += int(b.rq) * child_c[j]
            a[sl] = sum_p // D
            c[sl] = -((-sum_q) // D)
        out[node] = (a, c, lo)
        _release_children(node, users, parents, out, game.root())
    return out


def _child_users(game, ranges):
    """node -> the set of children its used actions read."""
    users = {}
    for node, (lo, hi) in ranges.items():
        used = set(game.actions[node][lo:hi + 1]) - {"x", "y"}
        users[node] = {b.child for action in used for b in game.branches(node, action)[0]}
    return users


def _parent_counts(users):
    """child -> how many nodes read it."""
    parents = {}
    for children in users.values():
        for child in children:
            parents[child] = parents.get(child, 0) + 1
    return parents


def _release_children(node, users, parents, out, root):
    """Free each child's arrays once its last parent is done (memory, not correctness)."""
    for child in users.get(node, ()):
        parents[child] -= 1
        if parents[child] == 0 and child != root:
            out.pop(child, None)


def _runs(actions, lo, hi):
    """Maximal runs (start, end, action) of one action within [lo, hi]."""
    i = lo
    while i <= hi:
        j = i
        while j + 1 <= hi and actions[j + 1] == actions[i]:
            j += 1
        yield i, j, actions[i]
        i = j + 1


# ---------------------------------------------------------------------------
# The same exact recomputation in 22-bit limbs on int64 arrays (no floats).
#
# a, c <= 2^b <= 2^63 are three limbs x = x0 + x1·2^22 + x2·2^44; a row
# numerator r < 2^66 likewise.  Σ_branches r·x is accumulated as five limb
# diagonals d_k = Σ_{i+j=k} r_i·x_j: each product is below 2^44 and there are
# at most 3 per diagonal and branch, so with at most 4096 branches every d_k
# stays below 2^58 (no int64 overflow).  Carries then give the base-2^22
# digits of the exact sum S; floor(S / D) for D = B·2^m is a shift by m bits
# followed by a long division by the small integer B; ceil adds D − 1 first.

LIMB = 22
MASK = (1 << LIMB) - 1
MAX_BRANCHES = 4096
DIGITS = 9


def limbs_apply(game):
    """True when the int64 limb route is exact for this game (D = B·2^m, small sizes)."""
    S = int(game.rows.law.total)
    return (S & (S - 1) == 0 and int(game.D).bit_length() <= 3 * LIMB
            and game.bits <= 2 * LIMB + LIMB - 1 and game.bits // LIMB <= 2
            and game.rows.gamma.B < (1 << 20))


def _split(value):
    value = int(value)
    return [(value >> (LIMB * i)) & MASK for i in range(3)]


def _divide(diag, D_minus_1, shift, B, ceil):
    """Limbs of floor(S / (B·2^shift)) (or the ceiling) from limb diagonals of S."""
    width = diag.shape[1]
    digits = np.zeros((DIGITS, width), dtype=np.int64)
    digits[:diag.shape[0]] = diag
    if ceil:
        for i, limb in enumerate(_split(D_minus_1)):
            digits[i] += limb
    for k in range(DIGITS - 1):
        carry = digits[k] >> LIMB
        digits[k] &= MASK
        digits[k + 1] += carry
    if np.any(digits[-1] >> LIMB):
        raise OverflowError("limb sum exceeds the digit budget")
    whole, part = divmod(shift, LIMB)
    low_mask = (1 << part) - 1
    shifted = np.zeros((DIGITS, width), dtype=np.int64)
    for k in range(DIGITS - whole):
        hi = digits[k + whole + 1] if k + whole + 1 < DIGITS else 0
        shifted[k] = (digits[k + whole] >> part) + ((hi & low_mask) << (LIMB - part))
    quotient = np.zeros((DIGITS, width), dtype=np.int64)
    rem = np.zeros(width, dtype=np.int64)
    for k in range(DIGITS - 1, -1, -1):
        cur = (rem << LIMB) + shifted[k]
        quotient[k] = cur // B
        rem = cur - quotient[k] * B
    if np.any(quotient[3:]):
        raise OverflowError("line coordinate above 2^66")
    return quotient[:3]


def exact_lines_limbs(game, ranges):
    """:func:`exact_lines` on int64 limbs; returns {node: (a limbs (3, w), c limbs (3, w), lo)}.

    Per node the lines are one array ac[(P, Q), limb, index]; per branch one
    gather, one outer product with the row limbs and one accumulation of the
    (P/Q, row limb, line limb) products, which keeps numpy calls per branch
    constant.
    """
    if not limbs_apply(game):
        raise ValueError("the limb route needs S a power of two and D, 2^b below 2^63")
    last = game.grid.count - 1
    B = int(game.rows.gamma.B)
    shift = int(game.rows.law.total).bit_length() - 1
    D_minus_1 = int(game.D) - 1
    one = np.array(_split(game.one), dtype=np.int64)
    whole, part = divmod(game.bits, LIMB)
    users = _child_users(game, ranges)
    parents = _parent_counts(users)
    row_limbs = {}
    out = {}
    for node in game.nodes:
        span = ranges.get(node)
        if span is None:
            continue
        lo, hi = span
        width = hi - lo + 1
        ac = np.zeros((2, 3, width), dtype=np.int64)
        actions = game.actions[node]
        for run_lo, run_hi, action in _runs(actions, lo, hi):
            sl = slice(run_lo - lo, run_hi - lo + 1)
            if action == "x":
                ac[:, :, sl] = one[None, :, None]
                continue
            if action == "y":
                continue
            branches, constant = game.branches(node, action)
            if len(branches) > MAX_BRANCHES:
                raise OverflowError("too many branches for the limb route")
            m = run_hi - run_lo + 1
            acc = np.zeros((2, 3, 3, m), dtype=np.int64)   # (P/Q, row limb u, line limb v)
            idx = None
            for b in branches:
                child, c_lo = out[b.child]
                first, stop = run_lo + b.shift, run_hi + b.shift + 1
                if first >= 0 and stop <= last + 1:
                    x = child[:, :, first - c_lo:stop - c_lo]
                else:
                    if idx is None:
                        idx = np.arange(run_lo, run_hi + 1)
                    x = child[:, :, np.clip(idx + b.shift, 0, last) - c_lo]
                key = (b.rp, b.rq)
                r = row_limbs.get(key)
                if r is None:
                    r = row_limbs[key] = np.array([_split(b.rp), _split(b.rq)], dtype=np.int64)
                acc += r[:, :, None, None] * x[:, None, :, :]
            diag = np.zeros((2, 5, m), dtype=np.int64)
            for u in range(3):
                for v in range(3):
                    diag[:, u + v] += acc[:, u, v]
            # constant·2^b (accepting children): limb i of constant to diagonal i + whole, times 2^part
            for i, limb in enumerate(_split(constant)):
                if limb:
                    diag[0, i + whole] += limb << part
            ac[0, :, sl] = _divide(diag[0], D_minus_1, shift, B, ceil=False)
            ac[1, :, sl] = _divide(diag[1], D_minus_1, shift, B, ceil=True)
        out[node] = (ac, lo)
        _release_children(node, users, parents, out, game.root())
    return {node: (ac[0], ac[1], lo) for node, (ac, lo) in out.items()}


def limbs_value(limbs, i):
    """The Python integer of column i of a (3, w) limb array."""
    return int(limbs[0][i]) + (int(limbs[1][i]) << LIMB) + (int(limbs[2][i]) << (2 * LIMB))
