"""An envelope request: universe, records, queries, rounds, γ, η, ε, variant.

Size limits (documented in docs/envelope.md).  With H histograms and
N = (2k)^J transcripts the producer evaluates H·N transcript probabilities
(each stored in the certificate) and H²·N envelope terms; requests are
refused when

    H · N  > MAX_STORED      (stored per-transcript enclosures), or
    H² · N > MAX_ENVELOPE    (terms of the envelope maxima).
"""

from gmpy2 import mpq

from producer import json_input
from producer.envelope.histograms import count_histograms
from producer.errors import InputError, LimitError
from producer.names import option
from producer.rationals import format_rational, parse_integer, parse_rational

MAX_STORED = 20_000
MAX_ENVELOPE = 1_000_000
VARIANTS = ("selection", "sign")


def query_rows(queries):
    """Query values from a list of lists, a ``{"queries": ...}`` dict or that dict's JSON text."""
    if isinstance(queries, (str, bytes)):
        try:
            queries = json_input.loads(queries, literal_floats=True)  # 1e-400 is 10^-400, not the float 0
        except json_input.JSONInputError as exc:
            raise InputError(f"queries: the JSON text {exc}") from None
        except ValueError as exc:
            raise InputError(f"queries: not valid JSON ({exc})") from None
    if isinstance(queries, dict):
        queries = queries.get("queries")
    if not isinstance(queries, (list, tuple)):
        raise InputError('queries: expected a list of queries [[q(0), ..., q(T-1)], ...] '
                         '(or JSON {"queries": [...]})')
    rows = []
    for j, row in enumerate(queries):
        if not isinstance(row, (list, tuple)):
            raise InputError(f"queries: query {j} is not a list of rationals")
        rows.append([parse_rational(v, f"queries: q_{j}({d})") for d, v in enumerate(row)])
    return rows


class Instance:
    """A validated envelope request; immutable.

    ``queries[j][d]`` is q_j(d) ∈ [0, 1] (exact mpq), signed query s has
    index 2j (sign +1) or 2j + 1 (sign −1).
    """

    __slots__ = ("universe", "records", "queries", "rounds", "hedge", "select",
                 "epsilon", "variant")

    def __init__(self, universe, records, queries, rounds, hedge, select, epsilon, variant="selection"):
        self.universe = int(universe)
        self.records = int(records)
        self.queries = tuple(tuple(mpq(v) for v in q) for q in queries)
        self.rounds = int(rounds)
        self.hedge = mpq(hedge)
        self.select = mpq(select)
        self.epsilon = mpq(epsilon)
        self.variant = variant
        self._validate()

    def _validate(self):
        if self.universe < 1:
            raise InputError(f"{option('universe')}: T = {self.universe} must be at least 1")
        if self.records < 1:
            raise InputError(f"{option('records')}: n = {self.records} must be at least 1")
        if not self.queries:
            raise InputError("queries: need at least one query")
        for j, q in enumerate(self.queries):
            if len(q) != self.universe:
                raise InputError(f"queries: query {j} has {len(q)} values, the universe has T = {self.universe}")
            for d, v in enumerate(q):
                if not 0 <= v <= 1:
                    raise InputError(f"queries: q_{j}({d}) = {format_rational(v)} is outside [0, 1]")
        if self.rounds < 1:
            raise InputError(f"{option('rounds')}: J = {self.rounds} must be at least 1")
        if self.hedge <= 0:
            raise InputError(f"{option('hedge')}: γ = {format_rational(self.hedge)} must be positive")
        if self.select < 0:
            raise InputError(f"{option('select')}: η = {format_rational(self.select)} must be non-negative")
        if self.epsilon <= 0:
            raise InputError(f"{option('epsilon')}: ε = {format_rational(self.epsilon)} must be positive")
        if self.variant not in VARIANTS:
            raise InputError(f"{option('variant')}: {self.variant!r} is not one of {', '.join(VARIANTS)}")

    @classmethod
    def from_strings(cls, universe, records, queries_text, rounds, hedge, select, epsilon, variant="selection"):
        """From command-line strings; ``queries_text`` is the query file's JSON text."""
        queries = query_rows(queries_text)
        return cls(parse_integer(universe, option("universe")), parse_integer(records, option("records")), queries,
                   parse_integer(rounds, option("rounds")), parse_rational(hedge, option("hedge")),
                   parse_rational(select, option("select")), parse_rational(epsilon, option("epsilon")), variant)

    @classmethod
    def from_json(cls, doc):
        """From the ``input`` object of a certificate."""
        return cls(doc["universe"], doc["records"],
                   [[parse_rational(v) for v in row] for row in doc["queries"]],
                   doc["rounds"], parse_rational(doc["hedge"]), parse_rational(doc["select"]),
                   parse_rational(doc["epsilon"]), doc["variant"])

    @property
    def k(self):
        return len(self.queries)

    @property
    def signed_count(self):
        """K = 2k signed queries."""
        return 2 * self.k

    @property
    def transcript_count(self):
        return self.signed_count ** self.rounds

    @property
    def histogram_count(self):
        return count_histograms(self.universe, self.records)

    def signed_value(self, s, d):
        """s(d) = σ·q(d) for the signed query with index s."""
        v = self.queries[s // 2][d]
        return v if s % 2 == 0 else -v

    def check_limits(self):
        """Refuse requests whose enumeration exceeds the documented limits."""
        H, N = self.histogram_count, self.transcript_count
        if H * N > MAX_STORED or H * H * N > MAX_ENVELOPE:
            raise LimitError(
                f"enumeration too large: {H} histograms x (2k)^J = {2 * self.k}^{self.rounds} = {N} transcripts "
                f"needs {H * N} stored enclosures (limit {MAX_STORED}) and {H * H * N} envelope terms "
                f"(limit {MAX_ENVELOPE}); reduce T, n, k or J")

    def as_json(self):
        return {
            "universe": self.universe,
            "records": self.records,
            "queries": [[format_rational(v) for v in q] for q in self.queries],
            "rounds": self.rounds,
            "hedge": format_rational(self.hedge),
            "select": format_rational(self.select),
            "epsilon": format_rational(self.epsilon),
            "variant": self.variant,
        }
