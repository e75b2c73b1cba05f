"""The common rational source ``result.source`` of every resource-law certificate (kinds.md S1).

ν(n) = w_n/S on [−L, L].  Exact claims: ``sigma2`` is the request's, the
offset is −L, there are 2L + 1 weights summing to S, and w_{−n} = w_n.
Enclosure claims, decided three-way by :func:`auditor.decide.source_states`
(the auditor's own Taylor bounds): w_n <= S·g_σ(n) for every n ≠ 0 and
tv >= w_0/S − g_σ(0).  Then ν(n) <= g_σ(n) off 0, so TV(ν, g_σ) =
max(0, ν(0) − g_σ(0)) <= tv.

Limits (UNCHECKED, before any enclosure): those of the ``dg-interval/1``
source (:func:`auditor.enclosure_limits.refuse_dg_source`) and
:data:`MAX_RADIUS` (each row is built from all 2L + 1 weights).
"""

from auditor.certificate import Malformed
from auditor.decide import settle, source_states
from auditor.enclosure_limits import refuse_dg_source
from auditor.outcomes import Unchecked
from auditor.rationals import read_integer, read_rational

__all__ = ["MAX_RADIUS", "CommonSource", "read_common_source"]

MAX_RADIUS = 20_000


class CommonSource:
    """Checked weights w_{−L..L} (ints), scale S, radius L and the stated tv."""

    __slots__ = ("weights", "radius", "scale", "tv")

    def __init__(self, weights, radius, scale, tv):
        self.weights, self.radius, self.scale, self.tv = weights, radius, scale, tv

    @property
    def offset(self):
        return -self.radius


def read_common_source(src, sigma2, report, undecided, pointer="/result/source"):
    """The source, its exact claims recorded in ``report`` and its enclosure claims decided three-way.

    Returned even when a claim is false: the rows of the rational model are
    built from the weights whatever their relation to g_sigma, and every other
    claim is still checked (the false one already makes the certificate FAIL).
    """
    L = src["radius"]
    S = read_integer(src["scale"], pointer + "/scale")
    if L > MAX_RADIUS:
        raise Unchecked(pointer + "/radius", L, MAX_RADIUS, "source radius")
    refuse_dg_source(sigma2, L, S, len(src["weights"]), "/input/sigma2", pointer)
    weights = [read_integer(w, f"{pointer}/weights/{i}") for i, w in enumerate(src["weights"])]
    tv = read_rational(src["tv"], pointer + "/tv")
    report.equal(pointer + "/sigma2", read_rational(src["sigma2"], pointer + "/sigma2"), sigma2,
                 "source sigma2 (the request's)")
    report.equal(pointer + "/offset", src["offset"], -L, "offset (−radius)")
    if len(weights) != 2 * L + 1:
        raise Malformed(f"{pointer}/weights: {len(weights)} weights, expected 2·radius + 1 = {2 * L + 1}")
    report.equal(pointer + "/scale", S, sum(weights), "scale (the sum of the weights)")
    for n in range(1, L + 1):
        report.check(weights[L + n] == weights[L - n], f"{pointer}/weights/{L + n}", weights[L + n],
                     weights[L - n], f"weights not symmetric: w_{n} differs from w_{-n}")
    atoms, tv_state, bound, _ = source_states(weights, L, S, sigma2, tv)
    for n, decision in atoms.items():
        settle(decision, report, undecided, f"{pointer}/weights/{n + L}", weights[n + L],
               f"scale·g_sigma({n})", "atom above its discrete-Gaussian mass")
    settle(tv_state, report, undecided, pointer + "/tv", tv, bound,
           "tv below TV(ν, g_sigma) = ν(0) − g_sigma(0) >= w_0/S − 1/Z⁻")
    return CommonSource(weights, L, S, tv)
