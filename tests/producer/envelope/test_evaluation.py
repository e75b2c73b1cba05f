"""Brute force over ordered databases (mpmath, 200 digits) agrees with the histogram method.

The brute force follows the definitions of *Pure-DP Statistical Query Release at
the Conjectured Square-Root Rate* (§3, §4) literally: a(y) from the ordered
records, the maximum over every y ∈ D^n with the ordered Hamming distance, the
normaliser, and the expected errors; every value must lie in the producer's
enclosure.
"""

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from producer.envelope.evaluation import Evaluation
from producer.envelope.histograms import histogram_of
from producer.envelope.instance import Instance

PREC = 700

@pytest.fixture(autouse=True)
def _mpmath_precision():
    """mpmath's precision is global; every test here runs at its own."""
    with mpmath.workprec(PREC):
        yield



def mp(q):
    q = Fraction(q)
    return mpmath.mpf(q.numerator) / q.denominator


def inside(enc, v):
    return mp(Fraction(int(enc.lo.numerator), int(enc.lo.denominator))) <= v <= \
        mp(Fraction(int(enc.hi.numerator), int(enc.hi.denominator)))


def brute(T, n, queries, J, gamma, eta, eps, variant):
    """Per ordered database x: (law, envelope, Z, E linf, E l2) by the definitions."""
    k = len(queries)
    signed = [(j, sg) for j in range(k) for sg in (1, -1)]
    dbs = list(itertools.product(range(T), repeat=n))
    omegas = list(itertools.product(range(2 * k), repeat=J))

    def mu(prefix):
        w = [mpmath.exp(mp(gamma) * sum(sg * mp(queries[j][d]) for j, sg in (signed[s] for s in prefix)))
             for d in range(T)]
        tot = sum(w)
        return [x / tot for x in w]

    def qmu(prefix, j):
        return sum(m * mp(queries[j][d]) for d, m in enumerate(mu(prefix)))

    def law(y, omega):
        a = [sum(mp(queries[j][v]) for v in y) / n for j in range(k)]
        p = mpmath.mpf(1)
        for t, s in enumerate(omega):
            prefix = omega[:t]
            logits = [mp(eta) * sg * (a[j] - qmu(prefix, j)) for j, sg in signed]
            if variant == "selection":
                p *= mpmath.exp(logits[s]) / sum(mpmath.exp(L) for L in logits)
            else:
                j = s // 2
                p *= mpmath.exp(logits[s]) / (k * (mpmath.exp(logits[2 * j]) + mpmath.exp(logits[2 * j + 1])))
        return p

    laws = {y: [law(y, w) for w in omegas] for y in dbs}
    answers = [[sum(qmu(w[:t], j) for t in range(J)) / J for j in range(k)] for w in omegas]
    out = {}
    for x in dbs:
        env = [max(mpmath.exp(-mp(eps) / 2 * sum(a != b for a, b in zip(x, y))) * laws[y][i] for y in dbs)
               for i in range(len(omegas))]
        Z = sum(env)
        F = [sum(mp(queries[j][v]) for v in x) / n for j in range(k)]
        linf = [max(abs(ans[j] - F[j]) for j in range(k)) for ans in answers]
        l2 = [mpmath.sqrt(sum((ans[j] - F[j]) ** 2 for j in range(k)) / k) for ans in answers]
        out[x] = (laws[x], env, Z, sum(p * l for p, l in zip(env, linf)) / Z,
                  sum(p * l for p, l in zip(env, l2)) / Z)
    return out


def check(T, n, queries, J, gamma, eta, eps, variant):
    inst = Instance(T, n, queries, J, gamma, eta, eps, variant)
    ev = Evaluation(inst, 128)
    ref = brute(T, n, queries, J, gamma, eta, eps, variant)
    for x, (law, env, Z, elinf, el2) in ref.items():
        i = ev.hists.index(histogram_of(x, T))
        assert all(inside(e, v) for e, v in zip(ev.laws[i], law)), x
        assert all(inside(e, v) for e, v in zip(ev.envelopes[i], env)), x
        assert inside(ev.normalisers[i], Z)
        assert inside(ev.errors_linf[i], elinf)
        assert inside(ev.errors_l2[i], el2)


@pytest.mark.parametrize("variant", ["selection", "sign"])
def test_fixed_tiny_instance(variant):
    check(3, 2, [[Fraction(0), Fraction(1, 2), Fraction(1)], [Fraction(1), Fraction(0), Fraction(1, 3)]],
          2, Fraction(1, 2), Fraction(3), Fraction(1), variant)


q_values = st.fractions(min_value=0, max_value=1, max_denominator=6)


@settings(max_examples=6, deadline=None)
@given(T=st.integers(1, 3), n=st.integers(1, 2), k=st.integers(1, 2), J=st.integers(1, 2),
       gamma=st.fractions(Fraction(1, 8), 2, max_denominator=8), eta=st.fractions(0, 6, max_denominator=4),
       eps=st.fractions(Fraction(1, 4), 3, max_denominator=4), variant=st.sampled_from(["selection", "sign"]),
       data=st.data())
def test_random_tiny_instances(T, n, k, J, gamma, eta, eps, variant, data):
    queries = [data.draw(st.lists(q_values, min_size=T, max_size=T)) for _ in range(k)]
    check(T, n, queries, J, gamma, eta, eps, variant)


def test_variants_coincide_for_a_single_query():
    """With k = 1 selecting (q, ±1) is the two-point sign choice: both laws agree."""
    q = [[Fraction(1, 5), Fraction(1), Fraction(0)]]
    a = Evaluation(Instance(3, 2, q, 2, Fraction(1, 2), 2, 1, "selection"), 128)
    b = Evaluation(Instance(3, 2, q, 2, Fraction(1, 2), 2, 1, "sign"), 128)
    for la, lb in zip(a.laws, b.laws):
        for x, y in zip(la, lb):
            assert x.lo <= y.hi and y.lo <= x.hi
