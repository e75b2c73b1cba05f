"""What a certified accountant hands out: the upper end of an accounting/1 enclosure, as a float rounded up.

A peer's accountant (dp_accounting's, Opacus's) answers ``get_epsilon(δ)`` with one float, an estimate.
The certified accountants answer with ε_hi, the upper end of the certified enclosure ε(δ) ∈ [ε_lo, ε_hi]
of their ledger (docs/accounting.md), rounded up to the next binary float so that the float handed out is
never below the certified value; ``get_delta(ε)`` likewise with the upper end of δ(ε).  The exact
rational and the certificate that proves it come with every answer (:class:`Answer`).

The target is read as every number of the producer is: a float as its shortest decimal (``1e-5`` is
1/100000), so the certificate answers the question at that decimal.  A ledger without privacy loss
(nothing composed, or only no-ops, never-sampled or never-run mechanisms) has δ(ε) = 0 for every ε ≥ 0 and
ε(δ) = 0: the answer is 0 exactly, with no certificate, since there is nothing to prove.
"""

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.kinds import accounting
from producer.pld.events import read_number, stage_mechanisms
from producer.rationals import describe_rational, float_up, format_rational


class Answer(Immutable):
    """One certified answer: ``value`` (a float, never below ``exact``), ``exact`` (the rational string the
    certificate writes: ``result["epsilon_hi"]`` or the point's ``upper``) and ``certificate`` (a
    :class:`producer.Certificate`; None for a ledger without privacy loss, whose answer is 0)."""

    __slots__ = ("value", "exact", "certificate")

    def __init__(self, exact, certificate):
        self.exact, self.certificate = exact, certificate
        self.value = float_up(mpq(exact))


NO_LOSS = Answer("0", None)


def read_delta(value, name):
    """δ in (0, 1), at least accounting/1's 10^-30, from a number as the caller holds it (``name`` in errors)."""
    delta = read_number(value, name, bits=None)
    if not 0 < delta < 1:
        raise InputError(f"{name}: must lie in (0, 1), got {describe_rational(delta)}")
    if delta < accounting.MIN_DELTA:
        raise LimitError(f"{name}: {describe_rational(delta)} is below accounting/1's limit 10^-30")
    return delta


def read_epsilon(value, name):
    """ε in [0, 500] (accounting/1's range) from a number as the caller holds it."""
    epsilon = read_number(value, name, bits=None)
    if epsilon < 0:
        raise InputError(f"{name}: must be >= 0, got {describe_rational(epsilon)}")
    if epsilon > accounting.MAX_EPSILON:
        raise LimitError(f"{name}: ε = {describe_rational(epsilon)} exceeds accounting/1's limit 500")
    return epsilon


def read_rel_width(value):
    """The relative width R of every answer (None: accounting/1's default 1/1000), within its limits."""
    if value is None:
        return accounting.DEFAULT_REL_WIDTH
    width = read_number(value, "rel_width", bits=None)
    if width <= 0:
        raise InputError(f"rel_width: must be positive, got {describe_rational(width)}")
    if not accounting.MIN_REL_WIDTH <= width <= accounting.MAX_REL_WIDTH:
        raise LimitError(f"rel_width: {describe_rational(width)} is outside accounting/1's limits [10^-6, 1/2]")
    return width


def _renamed(error, names):
    """The kind's refusal with its leading parameter named as the accountant's caller wrote it (``delta:`` is
    ``target_delta:`` for dp_accounting's interface); the message is otherwise the kind's own."""
    text = str(error)
    for theirs, ours in names.items():
        if text.startswith(theirs + ":"):
            return type(error)(ours + text[len(theirs):])
    return error


def _certify(tree, relation, rel_width, names, effort=1, **question):
    from producer.api import account
    try:
        if not stage_mechanisms(tree, relation):
            return None
    except InputError as error:  # the tree's limits, met before the kind reads it
        raise type(error)(f"{names.get('event', 'event')}: {error}") from None
    try:
        return account(tree, neighboring_relation=relation, rel_width=format_rational(rel_width), effort=effort,
                       **question)
    except InputError as error:
        raise _renamed(error, names) from None


def epsilon_hi(tree, delta, relation, rel_width, names, effort=1):
    """The :class:`Answer` ε_hi of ε(δ) for the JSON event ``tree`` (validated); ``names`` maps the kind's
    parameter names (``delta``, ``event``) to the caller's (``target_delta``, ``ledger``); ``effort`` the
    accountant's opt-in (accounting/1's ``effort``)."""
    cert = _certify(tree, relation, rel_width, names, effort, delta=format_rational(delta))
    return NO_LOSS if cert is None else Answer(cert.result["epsilon_hi"], cert)


def delta_upper(tree, epsilon, relation, rel_width, names, effort=1):
    """The :class:`Answer` upper end of δ(ε) for the JSON event ``tree``."""
    cert = _certify(tree, relation, rel_width, names, effort, epsilons=[format_rational(epsilon)])
    return NO_LOSS if cert is None else Answer(cert.result["points"][0]["upper"], cert)
