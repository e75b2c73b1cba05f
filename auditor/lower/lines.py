"""Target-{0} line trees of ``calibration-lower/1`` (*Hidden Integer Feedback* §7.2, App. G.5, K.2;
docs/lower-certificates.md §3.2).

A line ℓ(N, i) = (a, c) at node N (``[c]`` synchronised at state 0 with c
participations left, or ``[q, kP, kQ]`` pending) and grid prior i claims a
feasible (policy, event) pair with P(A) >= a/2^b and Q(A) <= c/2^b.  The
auditor rebuilds every line reachable from the root, bottom-up:

- ``x`` stop-accept (2^b, 2^b), ``y`` stop-reject (0, 0);
- ``+``/``-`` (sign j) at [c]: outputs y with P-mass row_0(y − j), Q-mass
  row_0(y), child [c − 1, y − j, y]; at [q, kP, kQ]: row_kP(y − j), row_kQ(y),
  child [q − 1, y − j, y];  ``e`` echo at [q, kP, kQ]: row_kP(y), row_kQ(y),
  child [q];  no participation with 0 left, no echo at a synchronised node;
- a branch with rP = 0 contributes nothing (its child rejects), one with
  rQ = 0 contributes rP·2^b to the P-sum (its child accepts); otherwise the
  child prior index is clip(i + s, 0, n − 1) with c = rQ/rP,
  f = floor(log_β c) (β^f <= c < β^{f+1}), s = f + [c² > β^{2f+1}] clipped
  to [−n, n];
- a = floor((Σ_accept rP·2^b + Σ rP·a_child)/D), c = ceil(Σ rQ·c_child/D).

Each line is a legal policy with an event, and flooring P / ceiling Q keeps
"P(A) >= a/2^b, Q(A) <= c/2^b" true by induction, whatever the snapping
chose: the snapping only decides *which* child line is used.
"""

from bisect import bisect_right
from fractions import Fraction

from gmpy2 import mpz

from auditor.certificate import Malformed
from auditor.rationals import ceil_div

ACTIONS = set("xye+-")


def decode_actions(text, n, pointer):
    """Run-length code 'x12+3...' -> list of n action characters."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        count = int(mpz(text[i + 1:j])) if j > i + 1 else None  # gmpy2: no int <-> str digit limit
        if count is None:
            raise Malformed(f"{pointer}: action {ch!r} at character {i} has no repeat count")
        if len(out) + count > n:
            raise Malformed(f"{pointer}: more than {n} actions")
        out.extend(ch * count)
        i = j
    if len(out) != n:
        raise Malformed(f"{pointer}: {len(out)} actions for {n} grid priors")
    return out


class Shifts:
    """s(c) = f + [c² > β^{2f+1}] with β^f <= c < β^{f+1}, clipped to [−n, n] (exact)."""

    def __init__(self, beta, n):
        self.beta, self.n = beta, n
        self.powers = [beta ** k for k in range(-n - 1, n + 2)]   # β^{−n−1} .. β^{n+1}

    def shift(self, c):
        i = bisect_right(self.powers, c) - 1      # powers[i] <= c < powers[i+1]
        if i < 0:
            return -self.n
        if i >= len(self.powers) - 1:
            return self.n
        f = i - self.n - 1
        s = f + (1 if c * c > self.beta ** (2 * f + 1) else 0)
        return max(-self.n, min(self.n, s))


class LineTree:
    """The nodes of a target-{0} certificate and the exact rebuild of their lines."""

    def __init__(self, law, nodes, n, beta, bits, report):
        self.law, self.n, self.bits = law, n, bits
        self.one = 1 << bits
        self.shifts = Shifts(beta, n)
        self.report = report
        self.actions = {}
        for idx, entry in enumerate(nodes):
            key = tuple(entry["node"])
            ptr = f"/result/nodes/{idx}"
            if key in self.actions:
                raise Malformed(f"{ptr}/node: node {list(key)} listed twice")
            self.actions[key] = (decode_actions(entry["actions"], n, ptr + "/actions"), ptr)
        self._branches = {}
        self._lines = {}
        self.failed = False

    def branches(self, node, action):
        """(child node, rP, rQ, shift) for every output of ``action`` at ``node`` (None for accept/reject)."""
        key = (node, action)
        out = self._branches.get(key)
        if out is None:
            if len(node) == 1:
                c = node[0]
                j = 1 if action == "+" else -1
                rowP = rowQ = self.law.row(0)
                kids = lambda y: (c - 1, y - j, y)   # noqa: E731
            else:
                q, kP, kQ = node
                rowP, rowQ = self.law.row(kP), self.law.row(kQ)
                if action == "e":
                    j = 0
                    kids = lambda y: (q,)            # noqa: E731
                else:
                    j = 1 if action == "+" else -1
                    kids = lambda y: (q - 1, y - j, y)  # noqa: E731
            out = []
            for y in sorted(set(n + j for n in rowP) | set(rowQ)):
                rp, rq = rowP.get(y - j, 0), rowQ.get(y, 0)
                if rp == 0:
                    continue
                if rq == 0:
                    out.append((None, rp, 0, 0))
                else:
                    out.append((kids(y), rp, rq, self.shifts.shift(Fraction(rq, rp))))
            self._branches[key] = out
        return out

    def legal(self, node, action):
        if action in "xy":
            return True
        if len(node) == 1:
            return action in "+-" and node[0] >= 1
        return action == "e" or node[0] >= 1

    def line(self, node, i):
        """(a, c) of ℓ(node, i), or None after recording why it cannot be rebuilt."""
        key = (node, i)
        got = self._lines.get(key)
        if got is not None:
            return got
        entry = self.actions.get(node)
        if entry is None:
            self._fail("/result/nodes", list(node), "a listed node", "a child node is missing")
            return None
        acts, ptr = entry
        action = acts[i]
        if not self.legal(node, action):
            self._fail(ptr + "/actions", f"{action} at {list(node)}", "a legal action", "illegal action")
            return None
        if action == "x":
            got = (self.one, self.one)
        elif action == "y":
            got = (0, 0)
        else:
            sp = sq = 0
            for child, rp, rq, s in self.branches(node, action):
                if child is None:
                    sp += rp * self.one
                    continue
                sub = self.line(child, max(0, min(self.n - 1, i + s)))
                if sub is None:
                    return None
                sp += rp * sub[0]
                sq += rq * sub[1]
            D = self.law.D
            got = (sp // D, ceil_div(sq, D))
        self._lines[key] = got
        return got

    def _fail(self, ptr, claimed, wanted, why):
        if not self.failed:
            self.report.check(False, ptr, claimed, wanted, why)
        self.failed = True


def node_level(node):
    """Synchronised [c] at 2c, pending [q, kP, kQ] at 2q + 1: every child is one or two levels lower."""
    return 2 * node[0] if len(node) == 1 else 2 * node[0] + 1


def runs(acts):
    """[(start, end_exclusive, action)] of equal consecutive actions."""
    out = []
    start = 0
    for i in range(1, len(acts) + 1):
        if i == len(acts) or acts[i] != acts[start]:
            out.append((start, i, acts[start]))
            start = i
    return out


class PackedLines(LineTree):
    """The same lines, computed for whole index ranges at once.

    Ranges: the root's index at [C]; a child's range covers clip(i + s) for
    every i of its parents' ranges (top-down by level).  Values: a node's lines
    over its range are packed into one integer with W-bit fields (W bounds
    every branch sum: Σ rP <= D and each child coordinate < 2^{b+1}), so a
    branch adds rP × (child fields shifted by s) in one big-integer
    multiply-add; the fields are then unpacked and divided (floor for P,
    ceiling for Q) exactly.  Nothing is approximate: packed sums of
    nonnegative fields that never overflow their width are the field sums.
    """

    def rebuild(self, root_node, root_index):
        """(a, c) of the root line, or None after recording why the tree cannot be rebuilt."""
        if root_node not in self.actions:
            self._fail("/result/nodes", list(root_node), "a listed node", "the root node is missing")
            return None
        order = sorted(self.actions, key=node_level, reverse=True)
        ranges = {root_node: [root_index, root_index]}
        self._runs = {node: runs(self.actions[node][0]) for node in self.actions}
        for node in order:
            if node not in ranges:
                continue
            lo, hi = ranges[node]
            acts, ptr = self.actions[node]
            for r0, r1, action in self._runs[node]:
                a0, a1 = max(r0, lo), min(r1 - 1, hi)
                if a0 > a1:
                    continue
                if not self.legal(node, action):
                    self._fail(ptr + "/actions", f"{action} at {list(node)}", "a legal action", "illegal action")
                    return None
                if action in "xy":
                    continue
                for child, _rp, _rq, s in self.branches(node, action):
                    if child is None:
                        continue
                    if child not in self.actions:
                        self._fail("/result/nodes", list(child), "a listed node", "a child node is missing")
                        return None
                    c0, c1 = max(0, min(self.n - 1, a0 + s)), max(0, min(self.n - 1, a1 + s))
                    got = ranges.get(child)
                    ranges[child] = [c0, c1] if got is None else [min(got[0], c0), max(got[1], c1)]
        self.ranges = ranges
        self.W = ceil_div(self.law.D.bit_length() + self.bits + 4, 8) * 8
        values = {}
        for node in reversed(order):
            if node in ranges:
                lo, hi = ranges[node]
                P, Q = self._node_lines(node, ranges[node], values)
                values[node] = (lo, hi, P, Q, _pack(P, self.W), _pack(Q, self.W))
        lo, _, P, Q, _, _ = values[root_node]
        return P[root_index - lo], Q[root_index - lo]

    def _node_lines(self, node, rng, values):
        lo, hi = rng
        acts, _ = self.actions[node]
        P, Q = [], []
        one, D, W = self.one, self.law.D, self.W
        for r0, r1, action in self._runs[node]:
            a0, a1 = max(r0, lo), min(r1 - 1, hi)
            if a0 > a1:
                continue
            length = a1 - a0 + 1
            if action == "x":
                P.extend([one] * length)
                Q.extend([one] * length)
                continue
            if action == "y":
                P.extend([0] * length)
                Q.extend([0] * length)
                continue
            sp = sq = 0
            accept = 0
            for child, rp, rq, s in self.branches(node, action):
                if child is None:
                    accept += rp * one
                    continue
                cp, cq = self._packed(child, values, a0 + s, length)
                sp += rp * cp
                sq += rq * cq
            P.extend((x + accept) // D for x in _unpack(sp, length, W))
            Q.extend(ceil_div(x, D) for x in _unpack(sq, length, W))
        return P, Q

    def _packed(self, child, values, first, length):
        """Packed fields of the child's lines at clip(first + t), t = 0..length−1.

        The child's range contains every clipped index; the parts clipped to 0
        or n − 1 are that edge line repeated (a multiple of a repunit), the
        rest one shifted and masked window of the child's packed range.
        """
        lo, hi, P, Q, packP, packQ = values[child]
        W = self.W
        k0 = min(length, max(0, -first))
        mid_first = max(first, 0)
        mid_last = min(first + length - 1, self.n - 1)
        kmid = max(0, mid_last - mid_first + 1)
        k1 = length - k0 - kmid
        out = []
        for vec, pack in ((P, packP), (Q, packQ)):
            v = 0
            if k0:
                v = vec[0 - lo] * _repunit(k0, W)
            if kmid:
                window = (pack >> (W * (mid_first - lo))) & ((1 << (W * kmid)) - 1)
                v |= window << (W * k0)
            if k1:
                v |= (vec[self.n - 1 - lo] * _repunit(k1, W)) << (W * (k0 + kmid))
            out.append(v)
        return out[0], out[1]


_REPUNITS = {}


def _repunit(k, W):
    """Σ_{t<k} 2^{W·t}: k copies of a field value 1."""
    key = (k, W)
    got = _REPUNITS.get(key)
    if got is None:
        got = _REPUNITS[key] = ((1 << (W * k)) - 1) // ((1 << W) - 1)
    return got


def _pack(fields, W):
    nbytes = W // 8
    return int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in fields), "little")


def _unpack(value, length, W):
    nbytes = W // 8
    raw = value.to_bytes(nbytes * length, "little")
    return [int.from_bytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(length)]
