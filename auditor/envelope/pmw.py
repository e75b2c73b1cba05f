"""Recomputing every enclosure of an envelope certificate at a given precision.

For each prefix of length t < J the synthetic distribution is
μ_t(d) ∝ exp(γ·Σ_{τ≤t} s_τ(d)); q(μ_t) = Σ_d exp(γ·S(d))·q(d) / Σ_d exp(γ·S(d)).
Given true answers F, the logits of (q, ±1) are ±η·(F_q − q(μ)); the selection
variant normalises over all 2k signed queries, the sign variant picks q with
probability 1/k and normalises each pair.  p_h(ω) multiplies the J conditional
probabilities.  Envelope, normalisers, answers and expected errors follow
*Pure-DP Statistical Query Release* (see docs/envelope.md for the formulas).
"""

import itertools
from fractions import Fraction

from auditor.envelope.elementary import euler, exp_interval, exp_point, log_integer, sqrt_interval
from auditor.envelope.interval import Interval
from auditor.envelope.model import hamming, neighbour_pairs


class Recomputation:
    """All of the auditor's enclosures for one model at ``bits`` bits."""

    def __init__(self, model, bits):
        self.model, self.bits = model, bits
        self.hists = model.histograms()
        self.omegas = model.transcripts()
        self.pairs = neighbour_pairs(self.hists)
        self._synthetic()
        self.truths = [model.answers(h) for h in self.hists]
        self._prefix_factors = {}
        self.laws = [self._law(F) for F in self.truths]
        self.discounts = [Interval.point(1, bits)] + [
            exp_point(-model.eps * j / 2, bits) for j in range(1, model.n + 1)]
        # c_j · p_g(ω) for every histogram g and distance j, computed once
        self._scaled = [[[c * p for p in law] for c in self.discounts] for law in self.laws]
        self.envelopes = [self._envelope(h) for h in self.hists]
        self.normalisers = [self._sum(env) for env in self.envelopes]
        self.decoded = [self._decode(w) for w in self.omegas]
        self.errors_linf, self.errors_l2 = [], []
        for env, Z, F in zip(self.envelopes, self.normalisers, self.truths):
            linf, l2 = zip(*(self._losses(a, F) for a in self.decoded))
            self.errors_linf.append(self._expectation(env, Z, linf))
            self.errors_l2.append(self._expectation(env, Z, l2))
        self._constants()

    # --- transcript law -------------------------------------------------
    def _synthetic(self):
        m, b = self.model, self.bits
        self.qmu = {}
        for t in range(m.J):
            for prefix in itertools.product(range(2 * m.k), repeat=t):
                w = [exp_point(m.gamma * sum((m.signed(s, d) for s in prefix), Fraction(0)), b)
                     for d in range(m.T)]
                total = w[0]
                for x in w[1:]:
                    total = total + x
                row = []
                for q in m.queries:
                    acc = Interval.point(0, b)
                    for x, v in zip(w, q):
                        acc = acc + x * v
                    row.append(acc / total)
                self.qmu[prefix] = row

    def _conditional(self, prefix, F, data_factors):
        """P(s | prefix); exp(η·(F_q − q(μ))) = exp(η·F_q) · exp(−η·q(μ)), the factors precomputed."""
        m, b = self.model, self.bits
        mus = self.qmu[prefix]
        if all(mu.lo == mu.hi for mu in mus):
            # q(μ) exact (e.g. μ_0 uniform): one exp of the exact logit, so that an
            # exact probability (a tie D_q = 0 gives exp(0) = 1) stays exact
            up = [exp_point(m.eta * (f - mu.lo), b) for f, mu in zip(F, mus)]
        else:
            if prefix not in self._prefix_factors:
                self._prefix_factors[prefix] = [exp_interval(-(mu * m.eta)) for mu in mus]
            up = [x * y for x, y in zip(data_factors, self._prefix_factors[prefix])]
        down = [Interval.point(1, b) / e for e in up]
        if m.variant == "selection":
            total = up[0] + down[0]
            for u, d in zip(up[1:], down[1:]):
                total = total + u + d
            out = []
            for u, d in zip(up, down):
                out += [u / total, d / total]
            return out
        out = []
        for u, d in zip(up, down):
            pair = (u + d) * m.k
            out += [u / pair, d / pair]
        return out

    def _law(self, F):
        data_factors = [exp_point(self.model.eta * f, self.bits) for f in F]
        layer = {(): Interval.point(1, self.bits)}
        for _ in range(self.model.J):
            nxt = {}
            for prefix, p in layer.items():
                for s, c in enumerate(self._conditional(prefix, F, data_factors)):
                    nxt[prefix + (s,)] = p * c
            layer = nxt
        return [layer[w] for w in self.omegas]

    # --- envelope -------------------------------------------------------
    def _envelope(self, h):
        rows = [self._scaled[g][hamming(h, hg)] for g, hg in enumerate(self.hists)]
        return [Interval.hull_max([row[w] for row in rows]) for w in range(len(self.omegas))]

    def _sum(self, items):
        return Interval.rounded(sum(i.lo for i in items), sum(i.hi for i in items), self.bits)

    # --- release and errors ---------------------------------------------
    def _decode(self, omega):
        m = self.model
        out = []
        for j in range(m.k):
            acc = Interval.point(0, self.bits)
            for t in range(m.J):
                acc = acc + self.qmu[omega[:t]][j]
            out.append(acc / m.J)
        return out

    def _losses(self, answers, F):
        diffs = [(a - f).magnitude() for a, f in zip(answers, F)]
        sq = Interval.point(0, self.bits)
        for d in diffs:
            sq = sq + d * d
        return Interval.hull_max(diffs), sqrt_interval(sq / len(diffs))

    def _expectation(self, env, Z, loss):
        num = Interval.rounded(sum(p.lo * l.lo for p, l in zip(env, loss)),
                               sum(p.hi * l.hi for p, l in zip(env, loss)), self.bits)
        return num / Z

    # --- constants --------------------------------------------------------
    def _constants(self):
        m, b = self.model, self.bits
        e = euler(b)
        self.exp_eps = exp_point(m.eps, b)
        self.normaliser_bound = e * 2 + 1
        log2T = log_integer(2 * m.T, b)
        if m.variant == "selection":
            ratio = log2T * log_integer(2 * m.k, b) / (m.eps * m.n)
            const = 129
        else:
            ratio = log2T / (m.eps * m.n)
            const = 62
        self.error_bound = e * const * Interval.hull_min([Interval.point(1, b), ratio])
        self.condition_bound = Interval.point(m.eps * m.eps, b) / (log_integer(m.T * m.T + 1, b) * 900)
        self.kappa = Fraction(2 * m.J) * m.eta * m.eta / (m.n * m.n)


class _Constants:
    __slots__ = ("model", "bits", "exp_eps", "normaliser_bound", "error_bound", "condition_bound", "kappa")

    def __init__(self, model, bits):
        self.model, self.bits = model, bits


def constants_only(model, bits):
    """The comparison constants alone (cheap; used at high precision)."""
    c = _Constants(model, bits)
    Recomputation._constants(c)
    return c
