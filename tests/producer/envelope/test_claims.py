"""Decision rules, and the envelope doing work: the base PMW law alone is not ε-DP."""

import itertools
from fractions import Fraction

import mpmath
from gmpy2 import mpq

from producer.envelope.evaluation import Evaluation, result_of
from producer.envelope.claims import PROVED, REFUTED, UNRESOLVED, at_most, combine, ratio_status
from producer.envelope.enclosures import Enclosure
from producer.references.envelope import reference_instances


def enc(lo, hi):
    return Enclosure(mpq(lo), mpq(hi), 64)


def test_at_most_and_combine():
    assert at_most(enc(1, 2), enc(2, 3)) == PROVED
    assert at_most(enc(3, 4), enc(1, 2)) == REFUTED
    assert at_most(enc(1, 3), enc(2, 4)) == UNRESOLVED
    assert combine([PROVED, PROVED]) == PROVED
    assert combine([PROVED, UNRESOLVED]) == UNRESOLVED
    assert combine([UNRESOLVED, REFUTED, PROVED]) == REFUTED
    assert ratio_status(None, None, enc(1, 2)) == PROVED
    assert ratio_status(mpq(1), None, enc(2, 3)) == UNRESOLVED
    assert ratio_status(mpq(5, 2), mpq(3), enc(2, 2)) == REFUTED


@mpmath.workdps(50)
def test_base_law_is_not_dp_but_the_envelope_is_by_direct_computation():
    """Reference instance 1, directly from the definition (mpmath, ordered databases, no envelope)."""
    stem, inst = reference_instances()[0]
    T, n, J, k = inst.universe, inst.records, inst.rounds, inst.k
    mp = lambda q: mpmath.mpf(int(mpq(q).numerator)) / int(mpq(q).denominator)  # noqa: E731
    Q = [[mp(v) for v in q] for q in inst.queries]
    signed = [(j, s) for j in range(k) for s in (1, -1)]

    def law(y, omega):
        a = [sum(Q[j][v] for v in y) / n for j in range(k)]
        p = mpmath.mpf(1)
        for t, s in enumerate(omega):
            w = [mpmath.exp(mp(inst.hedge) * sum(sg * Q[j][d] for j, sg in (signed[u] for u in omega[:t])))
                 for d in range(T)]
            qmu = [sum(x * Q[j][d] for d, x in enumerate(w)) / sum(w) for j in range(k)]
            logits = [mp(inst.select) * sg * (a[j] - qmu[j]) for j, sg in signed]
            p *= mpmath.exp(logits[s]) / sum(mpmath.exp(L) for L in logits)
        return p

    omegas = list(itertools.product(range(2 * k), repeat=J))
    y0 = (0,) * n
    worst = mpmath.mpf(0)
    for y1 in [(d,) + y0[1:] for d in range(1, T)]:
        for w in omegas:
            r = law(y1, w) / law(y0, w)
            worst = max(worst, r, 1 / r)
    assert worst > mpmath.exp(mp(inst.epsilon))  # the base law breaks ε-DP

    res = result_of(Evaluation(inst, 128))
    assert res["base_law"]["pure_dp_status"] == REFUTED
    assert res["claims"]["pure_dp"]["status"] == PROVED
    hi = Fraction(res["claims"]["pure_dp"]["max_ratio"]["hi"])
    assert hi <= Fraction(res["claims"]["pure_dp"]["bound"]["lo"])


def test_envelope_dominates_the_law_and_normaliser_at_least_one():
    _, inst = reference_instances()[1]
    ev = Evaluation(inst, 128)
    for law, env, Z in zip(ev.laws, ev.envelopes, ev.normalisers):
        assert all(e.hi >= p.lo for p, e in zip(law, env))
        assert Z.hi >= 1
        # the y = x term: the envelope's lower end is at least the law's lower end
        assert all(e.lo >= p.lo for p, e in zip(law, env))
