"""Exact linear programming: a float solver proposes a basis, exact rationals decide.

The problems are in equality form

    maximise c·x  subject to  A x = b,  x >= 0,

with exact rational data and A of full row rank (callers drop redundant rows).
A *basis* is a list of m column indices whose columns are independent; its
basic solution is x_B = B⁻¹b (other coordinates 0), its dual is y with
Bᵀy = c_B, and its reduced costs are d_j = c_j − A_jᵀy.  The basis is
**optimal** when x_B >= 0 (primal feasible) and d <= 0 (dual feasible); then
c·x = bᵀy, and x and y are exact optimal solutions of the LP and of its dual
(minimise bᵀy subject to Aᵀy >= c).

Route (no float ever decides anything):

1. HiGHS (a double-precision simplex) solves the LP and *proposes* its final
   basis (under up to four settings, :data:`PROPOSAL_OPTIONS`, until one is
   exactly optimal; else the proposal with the fewest exact infeasibilities).
   Its basic columns are completed to an independent set of m columns
   (elimination modulo a 62-bit prime: a set independent modulo p is
   independent over ℚ).
2. The basis is re-solved exactly (python-flint: integer matrices over the
   row-scaled data, ``fmpz_mat.solve``) and accepted when x_B >= 0 and d <= 0
   hold exactly.
3. Otherwise it is repaired exactly: the dual simplex when the basis is dual
   feasible; else a single artificial column (phase 1, which makes the basis
   primal feasible in one pivot) and the primal simplex on the phase-1
   objective, then the primal simplex on c.  Pricing is Dantzig's largest
   reduced cost; after :data:`STALL_PIVOTS` pivots without progress the
   smallest-index rule of Bland takes over, which cannot cycle.

Floating point chooses nothing that is not confirmed: the acceptance test in
step 2 and every pivot's signs and ratios in step 3 are exact.  (The proposal
may be poor: at badly scaled problems HiGHS's basis has basic solutions of
the wrong sign by 10^-5 and reduced costs of the wrong sign by units, which
is why the repair exists.)
"""

import os
import sys
import time

from flint import fmpq, fmpz, fmpz_mat, nmod_mat  # noqa: F401 - fmpq is re-exported

from producer.errors import LimitError

STALL_PIVOTS = 50          # pivots without objective progress before Bland's rule
PRIME = (1 << 62) - 57     # a prime for the independence test of the basis completion
MAX_PIVOTS = 5_000         # a repair longer than this is abandoned (LimitError)
PROGRESS_PIVOTS = 25       # a progress line (count, time per pivot, time to the limit) every this many pivots


class Infeasible(ArithmeticError):
    """The LP has no feasible point (proved by the exact phase 1)."""


class Unbounded(ArithmeticError):
    """The LP's objective is unbounded above (an exact improving ray was found)."""


def _lcm(a, b):
    return a // _gcd(a, b) * b


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class LinearProgram:
    """maximise c·x subject to A x = b, x >= 0 (exact rationals, A of full row rank).

    ``columns[j]`` is a list of (row, value) pairs (the nonzero entries of
    column j), ``rhs[i]`` = b_i, ``cost[j]`` = c_j; values are anything
    ``fmpq`` accepts exactly (int, fmpq, gmpy2 mpq via its string, Fraction).
    Internally each row is scaled by the least common multiple of its
    denominators, so that the constraint matrix is an integer matrix.
    """

    __slots__ = ("m", "n", "columns", "rhs", "cost", "_rows_int", "_rhs_int", "_cost_int", "_cost_den",
                 "_at", "_row_scale")

    def __init__(self, columns, rhs, cost):
        self.m, self.n = len(rhs), len(columns)
        if len(cost) != self.n:
            raise ValueError("cost and columns differ in length")
        self.columns = [[(int(i), _q(v)) for i, v in col if _q(v) != 0] for col in columns]
        self.rhs = [_q(v) for v in rhs]
        self.cost = [_q(v) for v in cost]
        self._scale()

    def _scale(self):
        m, n = self.m, self.n
        scale = [int(v.q) for v in self.rhs]
        for col in self.columns:
            for i, v in col:
                scale[i] = _lcm(scale[i], int(v.q))
        self._row_scale = scale
        dense = [[0] * n for _ in range(m)]
        for j, col in enumerate(self.columns):
            for i, v in col:
                dense[i][j] = int(v.p) * (scale[i] // int(v.q))
        self._rows_int = dense
        self._rhs_int = [int(v.p) * (scale[i] // int(v.q)) for i, v in enumerate(self.rhs)]
        den = 1
        for v in self.cost:
            den = _lcm(den, int(v.q))
        self._cost_den = den
        self._cost_int = [int(v.p) * (den // int(v.q)) for v in self.cost]
        self._at = fmpz_mat(n, m, [dense[i][j] for j in range(n) for i in range(m)]) if m and n else None

    # ---- exact linear algebra on a basis ---------------------------------

    def basis_matrix(self, basis):
        rows = self._rows_int
        return fmpz_mat(self.m, self.m, [rows[i][j] for i in range(self.m) for j in basis])

    def column_int(self, j):
        rows = self._rows_int
        return fmpz_mat(self.m, 1, [rows[i][j] for i in range(self.m)])

    def primal(self, bmat):
        """x_B = B⁻¹ b (a list of fmpq); ZeroDivisionError when B is singular."""
        return _entries(bmat.solve(fmpz_mat(self.m, 1, self._rhs_int)))

    def reduced_costs(self, bmat, basis):
        """(numerators N_j, denominator δ > 0) with d_j = N_j / δ / cost_den; and the scaled dual."""
        cb = fmpz_mat(self.m, 1, [self._cost_int[j] for j in basis])
        ys = bmat.transpose().solve(cb)               # scaled dual: Bᵀ y_s = c_B (times cost_den)
        num, den = ys.numer_denom()
        den = int(den)
        prod = self._at * num                         # n x 1 integer
        d = [den * self._cost_int[j] - int(prod[j, 0]) for j in range(self.n)]
        return d, den, ys

    def dual(self, ys):
        """The dual y of the original rows (undo the row scaling and the cost denominator)."""
        return [fmpq(int(self._row_scale[i])) * ys[i, 0] / self._cost_den for i in range(self.m)]

    def objective(self, x):
        return sum((self.cost[j] * v for j, v in x.items()), fmpq(0))


class Solution:
    """An exactly optimal basis: ``x`` (dict column -> fmpq, the nonzero entries), ``y`` (the dual, per row),
    ``value`` = c·x = bᵀy, ``basis``, and how it was found (``route``, ``pivots``)."""

    __slots__ = ("x", "y", "value", "basis", "route", "pivots")

    def __init__(self, x, y, value, basis, route, pivots):
        self.x, self.y, self.value, self.basis, self.route, self.pivots = x, y, value, basis, route, pivots

    def full_x(self, n):
        return [self.x.get(j, fmpq(0)) for j in range(n)]


def _q(v):
    if isinstance(v, fmpq):
        return v
    if isinstance(v, int):
        return fmpq(v)
    if hasattr(v, "numerator") and hasattr(v, "denominator"):
        return fmpq(fmpz(int(v.numerator)), fmpz(int(v.denominator)))
    raise TypeError(f"not an exact rational: {v!r}")


def _entries(mat):
    return [mat[i, 0] for i in range(mat.nrows())]


# ---- the float proposal --------------------------------------------------

_HIGHS_BANNER_DONE = False


def _new_highs():
    """A silent HiGHS instance (its first construction prints a banner on fd 1: sent to /dev/null)."""
    global _HIGHS_BANNER_DONE
    import highspy
    if _HIGHS_BANNER_DONE:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)
        _HIGHS_BANNER_DONE = True
    h.setOptionValue("output_flag", False)
    return h


# HiGHS settings tried in turn; the proposal with the fewest exact infeasibilities is repaired.
# (Without scaling HiGHS is often right on these badly scaled occupation LPs; with its default
# scaling it is sometimes better.)
PROPOSAL_OPTIONS = ({"simplex_scale_strategy": 0}, {}, {"simplex_scale_strategy": 0, "simplex_strategy": 4},
                    {"simplex_strategy": 4})


def propose_basis(lp, options=None):
    """HiGHS's final basic structural columns (a hint; possibly fewer than m, possibly dependent)."""
    import highspy
    import numpy as np
    h = _new_highs()
    for key, value in (options or {}).items():
        h.setOptionValue(key, value)
    model = highspy.HighsLp()
    model.num_col_, model.num_row_ = lp.n, lp.m
    model.sense_ = highspy.ObjSense.kMaximize
    model.col_cost_ = np.array([float(c) for c in lp.cost], dtype=float)
    model.col_lower_ = np.zeros(lp.n)
    model.col_upper_ = np.full(lp.n, highspy.kHighsInf)
    b = np.array([float(v) for v in lp.rhs], dtype=float)
    model.row_lower_, model.row_upper_ = b, b.copy()
    starts, index, value = [0], [], []
    for col in lp.columns:
        for i, v in col:
            index.append(i)
            value.append(float(v))
        starts.append(len(index))
    model.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    model.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    model.a_matrix_.index_ = np.array(index, dtype=np.int32)
    model.a_matrix_.value_ = np.array(value, dtype=float)
    model.a_matrix_.num_col_, model.a_matrix_.num_row_ = lp.n, lp.m
    h.passModel(model)
    h.run()
    basis = h.getBasis()
    if not basis.valid:
        return []
    return [j for j, s in enumerate(basis.col_status) if s == highspy.HighsBasisStatus.kBasic]


def complete_basis(lp, preferred):
    """m independent columns, taking ``preferred`` first (in order), then the others by index.

    Independence is tested modulo :data:`PRIME` (flint's ``nmod_mat.rref``): a
    set of columns independent modulo p is independent over the rationals.
    """
    seen = set(preferred)
    order = list(preferred) + [j for j in range(lp.n) if j not in seen]
    rows = lp._rows_int
    mat = nmod_mat(lp.m, len(order), [rows[i][j] % PRIME for i in range(lp.m) for j in order], PRIME)
    reduced, rank = mat.rref()
    if rank < lp.m:
        raise ArithmeticError(f"the constraint rows are dependent (rank {rank} < {lp.m}); drop redundant rows")
    pivots, col = [], 0
    for i in range(rank):
        while int(reduced[i, col]) == 0:
            col += 1
        pivots.append(order[col])
        col += 1
    return pivots


# ---- the exact simplex -------------------------------------------------------

class _State:
    """A basis with its exact primal values and reduced costs."""

    __slots__ = ("lp", "basis", "bmat", "x", "d", "den", "ys")

    def __init__(self, lp, basis):
        self.lp, self.basis = lp, list(basis)
        self.refresh()

    def refresh(self):
        self.bmat = self.lp.basis_matrix(self.basis)
        self.x = self.lp.primal(self.bmat)
        self.d, self.den, self.ys = self.lp.reduced_costs(self.bmat, self.basis)

    def primal_feasible(self):
        return all(v >= 0 for v in self.x)

    def dual_feasible(self):
        inb = set(self.basis)
        return all(self.d[j] <= 0 for j in range(self.lp.n) if j not in inb)

    def direction(self, q):
        return _entries(self.bmat.solve(self.lp.column_int(q)))

    def pivot(self, r, q):
        self.basis[r] = q
        self.refresh()

    def objective(self):
        return sum((self.lp.cost[j] * v for j, v in zip(self.basis, self.x)), fmpq(0))


class _Stall:
    """Pivots since the objective last moved (up for the primal simplex, down for the dual)."""

    __slots__ = ("sign", "best", "count")

    def __init__(self, sign, value):
        self.sign, self.best, self.count = sign, value, 0

    def bland_after(self, value):
        """Record a pivot; True while stalled (Bland's rule), False once the plateau is left."""
        if (value - self.best) * self.sign > 0:
            self.best, self.count = value, 0
        else:
            self.count += 1
        return self.count >= STALL_PIVOTS


def _pivot(state, r, q, counter, stall, progress, label):
    """Pivot q in at row r, count it, and return whether the next choice uses Bland's rule."""
    state.pivot(r, q)
    counter[0] += 1
    _check_pivots(counter)
    if progress and counter[0] % PROGRESS_PIVOTS == 0:
        progress(_pivot_report(label, counter))
    return stall.bland_after(state.objective())


def _primal_simplex(state, progress, counter, label):
    """Primal simplex from a primal feasible basis until dual feasible (or Unbounded); yields after each pivot."""
    lp = state.lp
    stall, bland = _Stall(+1, state.objective()), False
    while True:
        inb = set(state.basis)
        candidates = [j for j in range(lp.n) if j not in inb and state.d[j] > 0]
        if not candidates:
            return
        q = min(candidates) if bland else max(candidates, key=lambda j: (state.d[j], -j))
        alpha = state.direction(q)
        ratios = [(state.x[i] / alpha[i], state.basis[i], i) for i in range(lp.m) if alpha[i] > 0]
        if not ratios:
            raise Unbounded(f"column {q} improves the objective without bound")
        theta = min(t for t, _, _ in ratios)
        r = min((b, i) for t, b, i in ratios if t == theta)[1]
        bland = _pivot(state, r, q, counter, stall, progress, label)
        yield


def _dual_simplex(state, progress, counter):
    """Dual simplex from a dual feasible basis until primal feasible (or Infeasible); yields after each pivot."""
    lp = state.lp
    stall, bland = _Stall(-1, state.objective()), False
    while True:
        negative = [i for i in range(lp.m) if state.x[i] < 0]
        if not negative:
            return
        if bland:
            r = min(negative, key=lambda i: state.basis[i])
        else:
            r = min(negative, key=lambda i: (state.x[i], state.basis[i]))
        e = fmpz_mat(lp.m, 1, [1 if i == r else 0 for i in range(lp.m)])
        rho = state.bmat.transpose().solve(e)          # row r of B⁻¹
        num, den = rho.numer_denom()
        row = lp._at * num                              # tableau row r times den
        inb = set(state.basis)
        cands = [j for j in range(lp.n) if j not in inb and int(row[j, 0]) < 0]
        if not cands:
            raise Infeasible(f"row {r} of the tableau proves the LP infeasible")
        # ratio d_j / alpha_rj (both scaled by positive constants, the same for every j)
        ratio = {j: fmpq(state.d[j]) / fmpq(int(row[j, 0])) for j in cands}
        theta = min(ratio.values())
        q = min(j for j in cands if ratio[j] == theta)
        bland = _pivot(state, r, q, counter, stall, progress, "dual simplex")
        yield


class RepairTooLong(LimitError):
    """The exact repair exceeded its pivot budget (callers may take another exact route)."""


def _pivot_report(label, counter):
    """'dual simplex: 50 of at most 5000 exact pivots, 12 s (0.24 s a pivot; the limit would be 20 min more)'."""
    done, limit, start = counter[0], counter[1], counter[2]
    elapsed = time.monotonic() - start
    each = elapsed / done
    rest = (limit - done) * each
    more = f"{rest / 60:.0f} min" if rest >= 120 else f"{rest:.0f} s"
    return (f"{label}: {done} of at most {limit} exact pivots, {elapsed:.0f} s ({each:.2g} s a pivot; the limit "
            f"would be {more} more)")


def _check_pivots(counter):
    if counter[0] > counter[1]:
        raise RepairTooLong(f"the exact LP repair exceeded {counter[1]} pivots (the limit); use a smaller size")


def _phase_one(lp, basis, progress, counter):
    """A primal feasible basis of ``lp`` from any basis, by one artificial column (or Infeasible); a generator."""
    state = _State(lp, basis)
    if state.primal_feasible():
        return state.basis
    negative = [i for i in range(lp.m) if state.x[i] < 0]
    # artificial column a0 = −Σ_{x_Bi < 0} B_i: in basis coordinates −v (v the indicator of the negatives)
    art = {}
    for i in negative:
        for r, v in lp.columns[basis[i]]:
            art[r] = art.get(r, fmpq(0)) - v
    columns = lp.columns + [[(r, v) for r, v in sorted(art.items()) if v != 0]]
    phase = LinearProgram(columns, lp.rhs, [0] * lp.n + [-1])
    a0 = lp.n
    r = min(negative, key=lambda i: (state.x[i], basis[i]))
    work = _State(phase, basis)
    work.pivot(r, a0)
    counter[0] += 1
    yield from _primal_simplex(work, progress, counter, "phase 1")
    if work.objective() < 0:
        raise Infeasible("the exact phase 1 ends with a positive artificial")
    if a0 in work.basis:                                # degenerate: pivot the artificial out
        r = work.basis.index(a0)
        e = fmpz_mat(phase.m, 1, [1 if i == r else 0 for i in range(phase.m)])
        num, _den = work.bmat.transpose().solve(e).numer_denom()
        row = phase._at * num
        inb = set(work.basis)
        q = next(j for j in range(lp.n) if j not in inb and int(row[j, 0]) != 0)
        work.pivot(r, q)
        counter[0] += 1
    return work.basis


def _shifted_dual(lp, state, progress, counter):
    """Make the basis primal feasible by the dual simplex on shifted costs, and return the new basis (a generator).

    Each nonbasic column with d_j > 0 gets the cost c_j − d_j (its reduced
    cost becomes 0), which makes the basis dual feasible for the shifted LP;
    the dual simplex then reaches a primal feasible basis (feasibility does
    not depend on the costs, so an infeasibility proof holds for ``lp``).
    """
    inb = set(state.basis)
    scale = state.den * lp._cost_den
    cost = list(lp.cost)
    for j in range(lp.n):
        if j not in inb and state.d[j] > 0:
            cost[j] = cost[j] - fmpq(state.d[j]) / scale
    shifted = LinearProgram(lp.columns, lp.rhs, cost)
    work = _State(shifted, state.basis)
    yield from _dual_simplex(work, progress, counter)
    return work.basis


REPAIRS = ("shifted", "phase1")


def _infeasibility(state):
    """The number of negative basic values plus the number of positive reduced costs (exact)."""
    inb = set(state.basis)
    return sum(1 for v in state.x if v < 0) + sum(1 for j in range(state.lp.n) if j not in inb and state.d[j] > 0)


def _repair(lp, state, repair, progress, counter):
    """Repair ``state`` to an optimal basis, yielding after each pivot; returns (state, route)."""
    if state.primal_feasible() and state.dual_feasible():
        return state, "accepted"
    if state.dual_feasible():
        yield from _dual_simplex(state, progress, counter)
        return state, "dual simplex"
    if state.primal_feasible():
        route = "primal simplex"
    elif repair == "shifted":
        route = "shifted dual simplex + primal simplex"
        state = _State(lp, (yield from _shifted_dual(lp, state, progress, counter)))
    else:
        route = "phase 1 + primal simplex"
        state = _State(lp, (yield from _phase_one(lp, list(state.basis), progress, counter)))
    yield from _primal_simplex(state, progress, counter, "primal simplex")
    return state, route


def _race(repairs):
    """Advance the (label, repair) pairs one pivot each in turn; (label, result) of the first to finish."""
    while True:
        for label, repair in repairs:
            try:
                next(repair)
            except StopIteration as done:
                return label, done.value


def solve(lp, basis=None, progress=None, repair="shifted", max_pivots=MAX_PIVOTS, warm=None):
    """An exactly optimal basic solution of ``lp`` (raises Infeasible / Unbounded).

    ``basis`` (optional) is a proposed list of columns, the only one tried.
    Otherwise HiGHS proposes some (:data:`PROPOSAL_OPTIONS`, lazily: the first
    exactly optimal proposal wins, else the one with the fewest exact
    infeasibilities is repaired).  ``warm`` (optional) is called only when no
    proposal is exactly optimal and returns a preferred column order (e.g.
    from the exact optimum of a related LP); its basis is accepted when
    optimal, else it and the HiGHS basis are repaired in turn, one pivot each,
    and the first to finish wins (exact infeasibility counts predict the length of
    a repair poorly: a dual feasible HiGHS basis with three negative values can
    need thousands of pivots where the warm start needs ten).  Either way a
    proposal is only a hint.  A basis that is neither primal nor dual feasible
    is made primal feasible by the dual simplex on shifted costs
    (``repair="shifted"``, the default) or by the single-artificial phase 1
    (``repair="phase1"``), then the primal simplex finishes.  ``max_pivots``
    bounds the pivots of all repairs together.
    """
    if repair not in REPAIRS:
        raise ValueError(f"repair must be one of {REPAIRS}")
    counter = [0, int(max_pivots), time.monotonic()]
    proposals = [list(basis)] if basis is not None else (propose_basis(lp, o) for o in PROPOSAL_OPTIONS)
    state = None
    for proposal in proposals:          # lazily: stop at the first exactly optimal proposal
        candidate = _State(lp, complete_basis(lp, proposal))
        if state is None or _infeasibility(candidate) < _infeasibility(state):
            state = candidate
        if _infeasibility(state) == 0:
            break
    starts = [("HiGHS start", state)]
    if warm is not None and _infeasibility(state) > 0:
        first = _State(lp, complete_basis(lp, list(warm())))
        starts = [("warm start", first)] if _infeasibility(first) == 0 else [("warm start", first), *starts]
    counter[2] = time.monotonic()                   # the repair's clock (progress lines)
    origin, (state, route) = _race([(label, _repair(lp, s, repair, progress, counter)) for label, s in starts])
    if warm is not None:
        route += f" ({origin})"
    if not (state.primal_feasible() and state.dual_feasible()):  # pragma: no cover - the loops guarantee it
        raise ArithmeticError("exact LP: the final basis is not optimal")
    x = {j: v for j, v in zip(state.basis, state.x) if v != 0}
    y = lp.dual(state.ys)
    value = lp.objective(x)
    dual_value = sum((b * v for b, v in zip(lp.rhs, y)), fmpq(0))
    if value != dual_value:  # pragma: no cover - strong duality of an optimal basis
        raise ArithmeticError("exact LP: primal and dual values differ")
    return Solution(x, y, value, list(state.basis), route, counter[0])


def check_optimal(lp, x, y):
    """True when x is feasible, y dual feasible and c·x = bᵀy (all exact): an independent optimality test."""
    x = [_q(v) for v in x]
    if any(v < 0 for v in x):
        return False
    activity = [fmpq(0)] * lp.m
    for j, col in enumerate(lp.columns):
        if x[j]:
            for i, v in col:
                activity[i] += v * x[j]
    if activity != lp.rhs:
        return False
    for j, col in enumerate(lp.columns):
        if sum((v * y[i] for i, v in col), fmpq(0)) < lp.cost[j]:
            return False
    return sum((c * v for c, v in zip(lp.cost, x)), fmpq(0)) == sum((b * v for b, v in zip(lp.rhs, y)), fmpq(0))


__all__ = ["LinearProgram", "Solution", "solve", "check_optimal", "Infeasible", "Unbounded", "RepairTooLong"]
