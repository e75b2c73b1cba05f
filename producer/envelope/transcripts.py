"""The signed selection-only PMW transcript and its law.

(*Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*, §3, §9.)

Signed queries s = (q_j, σ) have index 2j (σ = +1) or 2j + 1 (σ = −1) and
s(d) = σ·q_j(d).  A transcript ω = (s_1, ..., s_J) is listed in lexicographic
order (s_1 most significant).  The synthetic distributions are determined by
the prefix alone:

    μ_t(d) = exp(γ·S_t(d)) / Σ_z exp(γ·S_t(z)),   S_t(d) = Σ_{τ ≤ t} s_τ(d),

(μ_0 uniform).  Round t draws s_t given the prefix with

    selection variant:  P(s) = exp(η·(a_s − s(μ_{t−1}))) / Σ_u exp(η·(a_u − u(μ_{t−1}))),
    sign variant (§9):  P((q, σ)) = (1/k) · exp(η·σ·D_q) / (exp(η·D_q) + exp(−η·D_q)),

where a_s = σ·F_q(h), F_q(h) = (1/n)·Σ_d h(d)·q(d) and D_q = F_q(h) − q(μ_{t−1}).
So both logits of (q, ±1) are ±η·D_q.  p_h(ω) is the product over rounds.

The decoder releases Ans(ω)_q = q(μ̄(ω)) with μ̄(ω) = (1/J)·Σ_{t=0}^{J−1} μ_t,
i.e. the mean of q(μ_t) over the prefixes of lengths 0..J−1 (the last
selection s_J does not move the release).

All transcendental values are computed as python-flint arb balls at
``bits + GUARD`` bits and returned as :class:`Enclosure` with ``bits`` bits.
"""

import itertools

from flint import arb, ctx, fmpq
from gmpy2 import mpq

from producer.envelope.enclosures import Enclosure

GUARD = 32


def to_arb(q):
    q = mpq(q)
    return arb(fmpq(int(q.numerator), int(q.denominator)))


def transcripts(instance):
    """All transcripts ω as tuples of signed-query indices, lexicographic order."""
    return list(itertools.product(range(instance.signed_count), repeat=instance.rounds))


def true_answers(instance, h):
    """F(h): the exact answers (1/n)·Σ_d h(d)·q(d) of every query."""
    n = instance.records
    return [sum((mpq(c) * v for c, v in zip(h, q)), mpq(0)) / n for q in instance.queries]


class PrefixTree:
    """q(μ_t) for every transcript prefix of length t < J, as arb balls.

    Built once per instance at a fixed working precision; every histogram's
    law reuses it (μ_t does not depend on the database).
    """

    __slots__ = ("instance", "bits", "synthetic_answers")

    def __init__(self, instance, bits):
        self.instance, self.bits = instance, bits
        self.synthetic_answers = {}
        T, K = instance.universe, instance.signed_count
        with ctx.workprec(bits + GUARD):
            gamma = to_arb(instance.hedge)
            for t in range(instance.rounds):
                for prefix in itertools.product(range(K), repeat=t):
                    totals = [sum((instance.signed_value(s, d) for s in prefix), mpq(0)) for d in range(T)]
                    weights = [(gamma * to_arb(S)).exp() for S in totals]
                    norm = sum(weights[1:], weights[0])
                    self.synthetic_answers[prefix] = [
                        sum((w * to_arb(q[d]) for d, w in enumerate(weights)), arb(0)) / norm
                        for q in instance.queries]

    def conditional(self, prefix, answers):
        """P(s | prefix) for every signed query s, as arb balls, given true answers F(h)."""
        inst = self.instance
        eta = to_arb(inst.select)
        qmu = self.synthetic_answers[prefix]
        plus = [(eta * (to_arb(F) - m)).exp() for F, m in zip(answers, qmu)]
        if inst.variant == "selection":
            weights = []
            for e in plus:
                weights.extend((e, 1 / e))
            norm = sum(weights[1:], weights[0])
            return [w / norm for w in weights]
        k = inst.k
        out = []
        for e in plus:
            pair = e + 1 / e
            out.extend((e / (k * pair), (1 / e) / (k * pair)))
        return out

    def law(self, h):
        """[p_h(ω) for ω in lexicographic order] as Enclosures."""
        inst = self.instance
        answers = true_answers(inst, h)
        with ctx.workprec(self.bits + GUARD):
            level = {(): arb(1)}
            for _t in range(inst.rounds):
                nxt = {}
                for prefix, p in level.items():
                    for s, c in enumerate(self.conditional(prefix, answers)):
                        nxt[prefix + (s,)] = p * c
                level = nxt
            return [Enclosure.from_arb(p, self.bits) for p in level.values()]

    def decoded_answers(self, omega):
        """Ans(ω): the answers of the average synthetic distribution, as Enclosures."""
        inst = self.instance
        with ctx.workprec(self.bits + GUARD):
            out = []
            for j in range(inst.k):
                total = sum((self.synthetic_answers[omega[:t]][j] for t in range(inst.rounds)), arb(0))
                out.append(Enclosure.from_arb(total / inst.rounds, self.bits))
            return out
