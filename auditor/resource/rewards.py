"""The reward table ``result.rewards`` (kinds.md S3): stored bounds on the true KL rewards g(k, d, j).

Entries {k, d, j, lo?, hi?} (or {k, d, j, value} with a stated error η), one
per residue k the rows need and every d, j ∈ {−1, 0, 1}, sorted by (k, d, j):
a table with other keys is MALFORMED (the rows could not be read from it).

Exact claims: every bound lies in [0, R], lo <= hi, and lo = hi = 0 (value = 0)
at d = j = 0 (there g = 0 exactly: both rows are K_k).  Enclosure claims,
decided three-way against the auditor's own enclosure [g⁻, g⁺]
(:class:`auditor.resource.kl.RewardEnclosures`): lo <= g is proved when
lo <= g⁻ and disproved when lo > g⁺ (hi likewise; |value − g| <= η is proved
when value − η <= g⁻ and value + η >= g⁺, disproved when value − η > g⁺ or
value + η < g⁻).  Open claims are retried once at RETRY_FACTOR times the
precision (only their entries); still open, they are undecided: not
established by the certificate's recipe (FAIL).

The checks then use the stored bounds (g_hi in upper constructions, g_lo in
lower ones): a stored bound on the safe side of g makes every row that uses
it a valid row of the true rewards.
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor.common import span
from auditor.decide import DISPROVED, OPEN, RETRY_FACTOR, settle, state
from auditor.rationals import read_rational
from auditor.resource.kl import RewardEnclosures, reward_key
from auditor.resource.limits import MAX_REWARD_WORK, reward_work
from auditor.resource.model import SIGNS

__all__ = ["START_BITS", "read_rewards", "check_rewards"]

START_BITS = 160
"""Starting absolute precision of the reward enclosures (the producer's bounds are >= 2^-126 from g)."""


class Entry:
    """One stored reward: its pointer and the bounds it states (lo, hi; or value and η)."""

    __slots__ = ("pointer", "lo", "hi", "value")

    def __init__(self, pointer, lo, hi, value):
        self.pointer, self.lo, self.hi, self.value = pointer, lo, hi, value


def read_rewards(rows, residues, need, pointer="/result/rewards", valued=False):
    """{(k, d, j): Entry} for exactly the residues ``residues`` (sorted), each with the fields ``need``.

    ``need`` is a subset of {"lo", "hi"}; with ``valued`` each entry has ``value`` instead.
    """
    expected = [(k, d, j) for k in residues for d in SIGNS for j in SIGNS]
    found = [(e["k"], e["d"], e["j"]) for e in rows]
    if found != expected:
        where = next((i for i, (f, x) in enumerate(zip(found, expected)) if f != x), min(len(found), len(expected)))
        raise Malformed(f"{pointer}/{where}: the rewards must list (k, d, j) for k in "
                        f"{_residue_text(residues)} and d, j in {{-1, 0, 1}}, sorted, once each "
                        f"({len(expected)} entries; found {len(found)})")
    table = {}
    for i, entry in enumerate(rows):
        here = f"{pointer}/{i}"
        if valued:
            table[expected[i]] = Entry(here, None, None, read_rational(entry["value"], here + "/value"))
            continue
        missing = [name for name in sorted(need) if name not in entry]
        if missing:
            raise Malformed(f"{here}: reward entry without {' and '.join(missing)}")
        bounds = {name: read_rational(entry[name], f"{here}/{name}") for name in ("lo", "hi") if name in entry}
        table[expected[i]] = Entry(here, bounds.get("lo"), bounds.get("hi"), None)
    return table


def _residue_text(residues):
    residues = list(residues)
    if residues == list(range(len(residues))):
        return f"[0, {len(residues)})"
    return "{" + ", ".join(map(str, residues[:8])) + (", ..." if len(residues) > 8 else "") + "}"


def check_rewards(table, params, report, undecided, error=None, bits=START_BITS, error_pointer=None):
    """Record every claim of the table (``error`` = η for a valued table); True unless one is disproved."""
    R = params.R
    for (_k, d, j), entry in table.items():
        stated = [("lo", entry.lo), ("hi", entry.hi), ("value", entry.value)]
        for name, v in stated:
            if v is not None:
                report.check(v <= R, f"{entry.pointer}/{name}", v, R, "reward bound above R = 2/sigma^2")
                if d == 0 and j == 0:
                    report.equal(f"{entry.pointer}/{name}", v, Fraction(0), "reward at d = j = 0 (exactly 0)")
        if entry.lo is not None and entry.hi is not None:
            report.check(entry.lo <= entry.hi, entry.pointer, entry.lo, entry.hi, "lo above hi")
    claims = [(key, name) for key, entry in table.items() if key[1] or key[2]
              for name in ("lo", "hi", "value") if getattr(entry, name) is not None]
    enclosures = {}

    def decide_at(pending, at_bits):
        keys = sorted({key for key, _ in pending})
        phases = {p for k, d, j in keys for p in reward_key(params.a, params.B, k, d, j)[:2]}
        tables = RewardEnclosures(params.a, params.B, params.sigma2, at_bits, phases)
        decisions = {}
        for key in keys:
            enclosures[key] = tables.enclose(*key)
        for key, name in pending:
            g_lo, g_hi = enclosures[key]
            v = getattr(table[key], name)
            if name == "lo":
                decisions[(key, name)] = state(v <= g_lo, v > g_hi)
            elif name == "hi":
                decisions[(key, name)] = state(v >= g_hi, v < g_lo)
            else:
                decisions[(key, name)] = state(v - error <= g_lo and v + error >= g_hi,
                                               v - error > g_hi or v + error < g_lo)
        return decisions

    decisions = dict.fromkeys(claims, OPEN)
    for attempt in range(2):
        pending = [c for c, decision in decisions.items() if decision == OPEN]
        if not pending:
            break
        if attempt and reward_work(params, len({k for (k, _, _), _ in pending}), bits) > MAX_REWARD_WORK:
            break  # the retry is beyond the work limit: the open claims stay undecided
        decisions.update(decide_at(pending, bits))
        bits *= RETRY_FACTOR
    for (key, name), decision in decisions.items():
        entry = table[key]
        v = getattr(entry, name)
        g_lo, g_hi = enclosures.get(key, (None, None))
        where = f"{entry.pointer}/{name}"
        if name == "lo":
            settle(decision, report, undecided, where, v, g_hi, f"lower reward bound above g{key}")
        elif name == "hi":
            settle(decision, report, undecided, where, v, g_lo, f"upper reward bound below g{key}")
        else:
            settle(decision, report, undecided, where, v, span(g_lo, g_hi),
                   f"stated reward farther than reward_error from g{key}")
    return DISPROVED not in decisions.values()

