"""The ``envelope/1`` certificate: pure-DP, normaliser and error claims of the PMW envelope.

Question (``input``): the instance of *Pure-DP Statistical Query Release at
the Conjectured Square-Root Rate* (universe {0, ..., T−1}, n records, k
queries in [0, 1], J rounds, the Hedge step γ, the selection parameter η, ε,
the variant) and the precision ("auto" or bits).  Result: every database's
transcript law, envelope, normaliser and expected error as enclosures, and
the three claims, each proved, refuted or unresolved (:mod:`producer.envelope`
has the mathematics, docs/envelope.md the fields).  With "auto" the precision
escalates (128, 256, 512 bits) while a claim is unresolved, but only to
precisions the auditor can still check.

Limits, refused before the enumeration: T, n <= the stored-enclosure limit,
J <= :data:`MAX_ROUNDS`, the enumeration's size (:meth:`Instance.check_limits`),
the precision within :data:`MIN_PRECISION`..:data:`MAX_PRECISION`, and the
auditor's limits (producer/envelope/auditability.py).
"""

from gmpy2 import mpz

from producer.certificates.canonical import make_certificate
from producer.display import rational, show
from producer.envelope.auditability import auditable_precision, check_auditable_instance
from producer.envelope.evaluation import Evaluation, all_resolved, result_of
from producer.envelope.instance import MAX_STORED, Instance, query_rows
from producer.envelope.parameters import propose
from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.rationals import list_items, parse_integer, parse_rational

KIND, VERSION = "envelope", 1
PRECISIONS = (128, 256, 512)
MIN_PRECISION, MAX_PRECISION = 8, 4096
# Every histogram is stored with every transcript, so H x (2k)^J <= MAX_STORED
# with H >= max(T, n) and (2k)^J >= 2^J: larger T, n or J are refused before
# the counts (binomials, powers) are even formed.
MAX_ROUNDS = 64
MAX_PROPOSAL_SIZE = 10**6  # T, n and k for the parameter proposal (it counts C(n+T-1, T-1) exactly)
MAX_PROPOSAL_SMALLER = 1000  # min(T - 1, n): keeps that count below 4,000 digits


def check_sizes(universe, records, rounds):
    """Refuse T, n or J whose enumeration surely exceeds the stored-enclosure limit (before counting it)."""
    # H = C(n+T-1, T-1) >= T (n >= 1), and >= n + 1 when T >= 2; and whatever T, the
    # certificate stores the n + 1 discount factors exp(-(ε/2)j), j = 0..n
    for what, value in (("universe", universe), ("records", records)):
        if value > MAX_STORED:
            raise LimitError(f"{what}: {mpz(value)} exceeds {MAX_STORED}: the enumeration stores at least that "
                             f"many enclosures (limit {MAX_STORED} stored enclosures)")
    if rounds > MAX_ROUNDS:
        raise LimitError(f"rounds: J = {rounds} exceeds {MAX_ROUNDS}: the enumeration has at least 2^J "
                         f"transcripts (limit {MAX_STORED} stored enclosures)")


def check_precision(precision):
    """None (automatic) or a number of bits within MIN_PRECISION..MAX_PRECISION."""
    if precision is None:
        return None
    bits = parse_integer(precision, "precision")
    if not MIN_PRECISION <= bits <= MAX_PRECISION:
        raise InputError(f"precision: {bits} bits is outside {MIN_PRECISION}..{MAX_PRECISION}")
    return bits


def parse_instance(universe, records, queries, rounds, hedge, select, epsilon, variant="selection"):
    """The :class:`Instance` from user values, read exactly (T, n and J are refused first when too large);
    ``queries`` a list of rows, a ``{"queries": ...}`` dict or its JSON text."""
    universe, records = parse_integer(universe, "universe"), parse_integer(records, "records")
    rounds = parse_integer(rounds, "rounds")
    check_sizes(universe, records, rounds)
    return Instance(universe, records, query_rows(queries), rounds, parse_rational(hedge, "hedge"),
                    parse_rational(select, "select"), parse_rational(epsilon, "epsilon"), variant)


class Request(Immutable):
    """A validated envelope request: the :class:`Instance` and the precision (None: automatic)."""

    __slots__ = ("instance", "precision")

    def __init__(self, instance, precision=None):
        self.instance = instance
        self.precision = check_precision(precision)
        instance.check_limits()
        check_auditable_instance(instance, self.precision)

    @classmethod
    def from_strings(cls, universe, records, queries, rounds, hedge, select, epsilon, *, variant="selection",
                     precision=None):
        """Parse user values exactly (see :func:`parse_instance`); ``precision`` None or bits."""
        return cls(parse_instance(universe, records, queries, rounds, hedge, select, epsilon, variant), precision)

    def as_json(self):
        return self.instance.as_json() | {"precision": "auto" if self.precision is None else self.precision}


def build(request, progress=None):
    """The envelope certificate; the precision escalates unless the request fixes it."""
    instance, precision = request.instance, request.precision
    # auto: escalate only to precisions the auditor can still check (128 bits always can)
    tries = (precision,) if precision is not None else \
        tuple(b for b in PRECISIONS if b == PRECISIONS[0] or auditable_precision(instance, b))
    for bits in tries:
        result = result_of(Evaluation(instance, bits, progress))
        if all_resolved(result):
            break
    return make_certificate(KIND, VERSION, request.as_json(), result)


def parameters(universe, records, query_count, epsilon, alpha):
    """The paper's suggested (γ, J, η) for target error ``alpha``, with their checks (a dict)."""
    universe, records = parse_integer(universe, "universe"), parse_integer(records, "records")
    query_count = parse_integer(query_count, "query count")
    for what, value in (("universe", universe), ("records", records), ("query count", query_count)):
        if value < 1:
            raise InputError(f"{what}: must be at least 1, got {value}")
        if value > MAX_PROPOSAL_SIZE:
            raise LimitError(f"{what}: {value} exceeds the limit {MAX_PROPOSAL_SIZE} of the parameter proposal")
    if min(universe - 1, records) > MAX_PROPOSAL_SMALLER:
        raise LimitError(f"universe and records: min(T - 1, n) = {min(universe - 1, records)} exceeds the limit "
                         f"{MAX_PROPOSAL_SMALLER} of the parameter proposal (the histogram count "
                         f"C(n+T-1, T-1) would have thousands of digits)")
    return propose(universe, query_count, records, parse_rational(epsilon, "epsilon"), parse_rational(alpha, "alpha"))


def database_values(text, instance):
    """The private database ``"x1,...,xn"`` or a list: n values in 0..T−1."""
    values = [parse_integer(v, "database") for v in list_items(text, "database")]
    if len(values) != instance.records:
        raise InputError(f"database: {len(values)} values given, n = {instance.records}")
    for v in values:
        if not 0 <= v < instance.universe:
            raise InputError(f"database: value {v} is outside 0..{instance.universe - 1}")
    return values


def claim(cert):
    inp, claims = cert["input"], cert["result"]["claims"]
    error = claims["error_bound"]
    bound = error["bound_decimal"][1]
    worst = error["max_error_decimal"][1]
    return (f"envelope ({inp['variant']}) with T = {inp['universe']}, n = {inp['records']}, "
            f"k = {len(inp['queries'])}, J = {inp['rounds']}, γ = {show(rational(inp['hedge']))}, "
            f"η = {show(rational(inp['select']))}, ε = {show(rational(inp['epsilon']))}: "
            f"pure ε-DP {claims['pure_dp']['status']}, normaliser bounds "
            f"{claims['normaliser_bounds']['status']}, error bound {error['status']} "
            f"(expected {error['measure']} error ≤ {worst} against the bound {bound})")
