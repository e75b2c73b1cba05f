"""``CertifiedAccountant``: dp_accounting's ``PrivacyAccountant`` interface, answering with certified ends.

Code written for dp_accounting's accountants holds one, feeds it a ``DpEvent`` per step (or one event with
a count) and asks ``get_epsilon(target_delta)`` now and then::

    accountant = producer.CertifiedAccountant()          # instead of dp_accounting.pld.PLDAccountant()
    for step in range(steps):
        ...
        accountant.compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)))
    accountant.get_epsilon(1e-5)                         # ε_hi, a float rounded up
    accountant.certificate.write("epsilon.json")         # its accounting/1 certificate

The interface is dp_accounting 0.6's (``privacy_accountant.PrivacyAccountant``): ``supports(event)``,
``compose(event, count=1)`` returning the accountant, ``get_epsilon(target_delta)``,
``get_delta(target_epsilon)``, ``ledger`` and ``neighboring_relation``.  When dp_accounting is importable
the class is a subclass of its ``PrivacyAccountant`` (it implements the abstract ``_maybe_compose`` and
``get_epsilon``), ``neighboring_relation`` is its ``NeighboringRelation`` member, ``ledger`` a ``DpEvent``
and an unsupported event raises its ``UnsupportedEventError`` (ours is a subclass of it and of
:class:`producer.InputError`); without dp_accounting the class is a plain one with the same methods, events
are their JSON form (docs/accounting.md §2) and the relation a member of an enum of the same names.

What differs from dp_accounting's accountants, on purpose:

- ``get_epsilon`` answers ε_hi, the upper end of the certified enclosure ε(δ) ∈ [ε_lo, ε_hi], rounded up
  to a float (never below the certified value), not an estimate; ``get_delta`` the upper end of δ(ε);
  ``exact_answer`` is the exact rational and ``certificate`` the accounting/1 certificate of the last
  answer (None for a ledger without privacy loss, whose answer is 0);
- the events the accounting/1 kind reads are supported (docs/accounting.md §2-§3, under the accountant's
  relation); the others (``SampledWithReplacementDpEvent``, ``NonPrivateDpEvent``, ...; sampling without
  replacement under ``add_or_remove_one``) are not, and
  ``compose`` refuses them before changing anything;
- every number is exact: a float is its shortest decimal (``0.01`` is 1/100), and that is what is
  certified.

The ledger.  ``ledger`` is the composed event in the order it was fed, consecutive equal events merged
into one ``SelfComposedDpEvent`` with the summed count (as dp_accounting's ``DpEventBuilder`` does): ten
thousand calls ``compose(e)`` and one call ``compose(e, 10000)`` give the same ledger.  The certificate's
question (:attr:`CertifiedAccountant.question`) gathers every equal event into one count, in the order
each first appeared: the adaptive composition's δ(ε) does not depend on the order (the product of the
dominating pairs commutes, docs/accounting.md §3), so an interleaved loop (a training step, an evaluation
release, a training step, ...) asks a question of two events, however long it runs.  ``compose`` refuses,
before changing anything and in accounting/1's words, a count that would take the question beyond the
kind's limits: 10^7 for one event's count and for the mechanism steps in all, 16 distinct stages, 10^4
events nested at most 100 deep (:class:`producer.LimitError`).
"""

import copy
import enum

from producer.accountants.answers import delta_upper, epsilon_hi, read_delta, read_epsilon, read_rel_width
from producer.audit_budget import read_effort
from producer.errors import InputError, LimitError
from producer.kinds.accounting import read_relation
from producer.pld.events import (MAX_COUNT, MAX_DEPTH, MAX_EVENTS, MAX_STAGES, MAX_TOTAL_COUNT, canonical,
                                 event_json, stage_mechanisms)
from producer.rationals import format_rational, parse_integer

try:  # optional: with dp_accounting, the accountant is one of its PrivacyAccountants
    from dp_accounting import dp_event as _dp_event
    from dp_accounting import privacy_accountant as _peer
except ImportError:
    _dp_event = _peer = None

if _peer is not None:
    NeighboringRelation = _peer.NeighboringRelation
    _BASE, _PEER_ERRORS = _peer.PrivacyAccountant, (_peer.UnsupportedEventError,)
else:  # the same member names, for code that reads accountant.neighboring_relation.name
    NeighboringRelation = enum.Enum("NeighboringRelation",
                                    [("ADD_OR_REMOVE_ONE", 1), ("REPLACE_ONE", 2), ("REPLACE_SPECIAL", 3)])
    _BASE, _PEER_ERRORS = object, ()

# the kind's parameters as this interface names them, in the refusals the kind makes after the work starts
_NAMES = {"delta": "target_delta", "epsilons": "target_epsilon", "event": "ledger"}


class UnsupportedEventError(InputError, *_PEER_ERRORS):
    """An event the accountant does not account (a :class:`producer.InputError`; with dp_accounting
    installed, also its ``privacy_accountant.UnsupportedEventError``)."""


class EventLimitError(LimitError, UnsupportedEventError):
    """An event beyond accounting/1's domain or limits (a σ below 1/10, a count above 10^7): unsupported for
    dp_accounting's callers, a :class:`producer.LimitError` for the producer's."""


def _spaced(number):
    """An integer with its thousands spaced, as the kind's messages write them (``10 000 000``)."""
    return f"{number:,}".replace(",", " ")


def _size_and_depth(tree):
    """(number of events, deepest nesting below the root) of a JSON event tree."""
    count, deepest, stack = 0, 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count, deepest = count + 1, max(deepest, depth)
        children = node.get("events", []) + ([node["event"]] if "event" in node else [])
        stack.extend((child, depth + 1) for child in children)
    return count, deepest


def _composed(pairs):
    """The JSON event of ``pairs`` (event, count) composed in order: one ``SelfComposedDpEvent`` per count
    above 1, one ``ComposedDpEvent`` around several, a ``NoOpDpEvent`` for none."""
    parts = [tree if count == 1 else {"class_name": "SelfComposedDpEvent", "event": tree, "count": count}
             for tree, count in pairs]
    if not parts:
        return {"class_name": "NoOpDpEvent"}
    return parts[0] if len(parts) == 1 else {"class_name": "ComposedDpEvent", "events": parts}


class _LedgerRun:
    """Consecutive compositions of one event: its JSON tree, the event as given (a dp_accounting DpEvent, or
    None) and the count."""

    __slots__ = ("key", "tree", "original", "count")

    def __init__(self, key, tree, original, count):
        self.key, self.tree, self.original, self.count = key, tree, original, count


class _Gathered:
    """Every composition of one event: its JSON tree, the total count, its size and depth, its stages."""

    __slots__ = ("tree", "count", "size", "depth", "stages")

    def __init__(self, tree, stages):
        self.tree, self.count, self.stages = tree, 0, stages
        self.size, self.depth = _size_and_depth(tree)

    def extent(self, count):
        """(events, depth) of this event composed ``count`` times, as the question writes it."""
        return self.size + (count > 1), self.depth + (count > 1)


class CertifiedAccountant(_BASE):
    """A privacy accountant with dp_accounting's interface whose answers are certified upper ends.

    ``neighboring_relation``: ``"add_or_remove_one"`` (the default, as dp_accounting's), ``"replace_one"`` or
    ``"replace_special"`` (read as add/remove; randomized response against the uniform answer), or dp_accounting's
    ``NeighboringRelation`` member;
    ``rel_width`` R of every answer's enclosure (default 1/1000: ε_hi − ε_lo <= R·ε_hi); ``effort`` N (1 to 8,
    default 1) opts in to N times the work of each answer (accounting/1's ``effort``).  See the module's
    documentation.
    """

    def __init__(self, neighboring_relation="add_or_remove_one", *, rel_width=None, effort=None):
        relation = read_relation(neighboring_relation)
        member = NeighboringRelation[relation.upper()]
        if _peer is not None:
            super().__init__(member)
        else:
            self._neighboring_relation = member
        self._relation, self._rel_width = relation, read_rel_width(rel_width)
        self._effort = read_effort(effort, "effort")
        self._runs = []       # the ledger, in order, consecutive equal events merged
        self._gathered = {}   # canonical JSON of an event -> _Gathered: the certificate's question
        self._steps = {}      # canonical JSON of a stage mechanism -> its steps in all
        self._events = 0      # Σ events of the gathered parts (the question adds one ComposedDpEvent around several)
        self._depth = 0       # the deepest gathered part
        self._version = 0     # counts the compositions, so that an answer is reused only for the same ledger
        self._last = None     # (version, question, Answer) of the last answer

    # ---- dp_accounting's interface ----------------------------------------------------------------

    @property
    def neighboring_relation(self):
        """The neighbouring relation (a ``NeighboringRelation`` member: ``ADD_OR_REMOVE_ONE``, ``REPLACE_ONE`` or
        ``REPLACE_SPECIAL``)."""
        return self._neighboring_relation

    def supports(self, event):
        """Whether ``event`` is one this accountant accounts under its relation (docs/accounting.md §2-§3)."""
        try:
            self._read(event)
        except InputError:
            return False
        return True

    def compose(self, event, count=1):
        """Account for ``event`` composed ``count`` times (a positive integer); returns the accountant.

        Raises :class:`UnsupportedEventError` for an event the accountant does not account (its subclass
        :class:`EventLimitError` for one beyond accounting/1's domain or limits) and :class:`producer.LimitError`
        for a count that would take the question beyond the kind's limits, in every case before changing
        anything.
        """
        count = self._count(count)
        plan = self._plan(event, count)
        if plan is not None:
            self._apply(*plan)
        return self

    def _maybe_compose(self, event, count, do_compose):
        """dp_accounting's hook (abstract in its ``PrivacyAccountant``): None when ``event`` is supported (and,
        with ``do_compose``, composed ``count`` times), else the reason why not."""
        try:
            if do_compose:
                self.compose(event, count)
            else:
                self._read(event)
        except InputError as error:
            details = getattr(self, "CompositionErrorDetails", None)
            return details(invalid_event=event, error_message=str(error)) if details else str(error)
        return None

    @property
    def ledger(self):
        """The events composed so far, in order (consecutive equal ones merged): a dp_accounting ``DpEvent``
        when every event was one, otherwise the JSON form (docs/accounting.md §2)."""
        if _dp_event is not None and all(run.original is not None for run in self._runs):
            parts = [run.original if run.count == 1 else _dp_event.SelfComposedDpEvent(run.original, run.count)
                     for run in self._runs]
            if not parts:
                return _dp_event.NoOpDpEvent()
            return parts[0] if len(parts) == 1 else _dp_event.ComposedDpEvent(parts)
        return copy.deepcopy(_composed([(run.tree, run.count) for run in self._runs]))

    def get_epsilon(self, target_delta):
        """ε_hi, the certified upper end of ε(``target_delta``) of the ledger, as a float rounded up."""
        delta = read_delta(target_delta, "target_delta")
        return self._answer(("delta", delta), lambda question: epsilon_hi(
            question, delta, self._relation, self._rel_width, _NAMES, self._effort)).value

    def get_delta(self, target_epsilon):
        """The certified upper end of δ(``target_epsilon``) of the ledger, as a float rounded up."""
        epsilon = read_epsilon(target_epsilon, "target_epsilon")
        return self._answer(("epsilon", epsilon), lambda question: delta_upper(
            question, epsilon, self._relation, self._rel_width, _NAMES, self._effort)).value

    # ---- what the certificate adds -----------------------------------------------------------------

    @property
    def certificate(self):
        """The accounting/1 :class:`producer.Certificate` of the last answer (None before the first, and for
        a ledger without privacy loss, whose answer 0 needs no proof)."""
        return None if self._last is None else self._last[2].certificate

    @property
    def exact_answer(self):
        """The last answer exactly, as its certificate writes it (``"p/q"``; ``"0"`` without privacy loss)."""
        return None if self._last is None else self._last[2].exact

    @property
    def question(self):
        """The event tree the certificate answers (JSON form, numbers exact): the ledger with every equal
        event gathered into one count, in the order each first appeared."""
        return copy.deepcopy(_composed([(part.tree, part.count) for part in self._gathered.values()]))

    @property
    def rel_width(self):
        """The relative width R of every answer's enclosure, as an exact rational string."""
        return format_rational(self._rel_width)

    def __repr__(self):
        steps = sum(self._steps.values())
        return (f"<CertifiedAccountant {self._relation}: {len(self._gathered)} distinct events, "
                f"{steps} mechanism steps>")

    # ---- the work ----------------------------------------------------------------------------------

    def _read(self, event):
        """The JSON tree of one event and its stages under the relation, or the refusal naming ``event``."""
        try:
            tree = event_json(event)
            return tree, stage_mechanisms(tree, self._relation)
        except LimitError as error:
            raise EventLimitError(f"event: {error}") from None
        except InputError as error:
            raise UnsupportedEventError(f"event: {error}") from None

    @staticmethod
    def _count(count):
        if isinstance(count, bool):
            raise InputError(f"count: expected a positive integer, got {count!r}")
        value = parse_integer(count, "count")
        if value < 1:
            raise InputError(f"count: must be a positive integer, got {value}")
        return value

    def _plan(self, event, count):
        """(key, original, count, part) of a composition, checked against the limits (``part`` the event's
        :class:`_Gathered`, new or known); None when it changes nothing (a no-op, a count of 0 inside)."""
        tree, _ = self._read(event)
        original = event if _dp_event is not None and isinstance(event, _dp_event.DpEvent) else None
        while tree["class_name"] == "SelfComposedDpEvent":  # as dp_accounting's DpEventBuilder: the inner event
            count, tree = count * tree["count"], tree["event"]
            original = None if original is None else original.event
        if count == 0 or tree["class_name"] == "NoOpDpEvent":
            return None
        key = canonical(tree)
        part = self._gathered.get(key) or _Gathered(tree, stage_mechanisms(tree, self._relation))
        self._check(key, part, count)
        return key, original, count, part

    def _check(self, key, part, count):
        """Refuse, in accounting/1's words, a composition that takes the question beyond the kind's limits."""
        total = part.count + count
        if total > MAX_COUNT:
            raise LimitError(f"count: this event would be composed {_spaced(total)} times in all, beyond "
                             f"accounting/1's limit of {_spaced(MAX_COUNT)} on one event's count")
        steps = dict(self._steps)
        for mechanism, each in part.stages:
            steps[canonical(mechanism)] = steps.get(canonical(mechanism), 0) + each * count
        if sum(steps.values()) > MAX_TOTAL_COUNT:
            raise LimitError(f"count: the ledger would compose {_spaced(sum(steps.values()))} mechanism steps in "
                             f"all, more than accounting/1's limit of {_spaced(MAX_TOTAL_COUNT)}")
        if len(steps) > MAX_STAGES:
            raise LimitError(f"event: the ledger would read into {len(steps)} distinct stages, more than "
                             f"accounting/1's limit of {MAX_STAGES}")
        size, depth = part.extent(total)
        known = key in self._gathered
        events = self._events - (part.extent(part.count)[0] if known else 0) + size
        parts = len(self._gathered) + (not known)
        if events + (parts > 1) > MAX_EVENTS:
            raise LimitError(f"event: the ledger's question would have {_spaced(events + (parts > 1))} events "
                             f"({parts} distinct ones gathered), more than accounting/1's limit of "
                             f"{_spaced(MAX_EVENTS)}")
        if max(self._depth, depth) + (parts > 1) > MAX_DEPTH:
            raise LimitError(f"event: the ledger's question would be nested more than {MAX_DEPTH} deep "
                             f"(accounting/1's limit)")

    def _apply(self, key, original, count, part):
        if self._runs and self._runs[-1].key == key:
            self._runs[-1].count += count
        else:
            self._runs.append(_LedgerRun(key, part.tree, original, count))
        if key in self._gathered:
            self._events -= part.extent(part.count)[0]
        self._gathered[key] = part
        part.count += count
        size, depth = part.extent(part.count)
        self._events, self._depth = self._events + size, max(self._depth, depth)
        for mechanism, each in part.stages:
            self._steps[canonical(mechanism)] = self._steps.get(canonical(mechanism), 0) + each * count
        self._version += 1

    def _answer(self, asked, compute):
        """The Answer to ``asked`` for the current ledger: the last one again when nothing changed since."""
        if self._last is None or self._last[:2] != (self._version, asked):
            self._last = (self._version, asked, compute(self.question))
        return self._last[2]


__all__ = ["CertifiedAccountant", "NeighboringRelation", "UnsupportedEventError", "EventLimitError"]
