"""Exact inversion sampling: agrees with a high-precision inversion of the same uniform bits."""

import random
from fractions import Fraction

import mpmath

from producer.envelope.evaluation import Evaluation
from producer.envelope.sampling import sample
from producer.references.envelope import reference_instances


@mpmath.workdps(60)
def reference_index(ev, index, seed):
    """The inverse-CDF index for the first 64 bits of the seed's stream, at 60 digits."""
    u = mpmath.mpf(random.Random(seed).getrandbits(64)) / 2 ** 64
    mid = lambda e: (mpmath.mpf(int(e.lo.numerator)) / int(e.lo.denominator)  # noqa: E731
                     + mpmath.mpf(int(e.hi.numerator)) / int(e.hi.denominator)) / 2
    env = [mid(e) for e in ev.envelopes[index]]
    Z = sum(env)
    acc = mpmath.mpf(0)
    for i, p in enumerate(env):
        acc += p / Z
        if u < acc:
            return i
    return len(env) - 1


def test_sampling_matches_inversion_and_is_deterministic():
    _, inst = reference_instances()[0]
    ev = Evaluation(inst, 128)
    for seed in range(12):
        h = ev.hists[seed % len(ev.hists)]
        out = sample(inst, h, seed)
        assert out == sample(inst, h, seed)
        assert out["transcript_index"] == reference_index(ev, ev.hists.index(h), seed)
        omega = ev.omegas[out["transcript_index"]]
        assert [2 * t["query"] + (0 if t["sign"] == 1 else 1) for t in out["transcript"]] == list(omega)
        for a, e in zip(out["answers"], ev.answers[out["transcript_index"]]):
            assert Fraction(a["lo"]) == e.lo and Fraction(a["hi"]) == e.hi


def test_sampling_frequencies_follow_the_envelope_law():
    """400 draws on a 3-histogram instance: every transcript of mass > 0.2 appears."""
    _, inst = reference_instances()[4]
    ev = Evaluation(inst, 64)
    h = ev.hists[0]
    counts = {}
    for seed in range(400):
        i = sample(inst, h, seed, bits=64)["transcript_index"]
        counts[i] = counts.get(i, 0) + 1
    Z = ev.normalisers[0]
    for i, p in enumerate(ev.envelopes[0]):
        share = (Fraction(int(p.lo.numerator), int(p.lo.denominator))
                 / Fraction(int(Z.hi.numerator), int(Z.hi.denominator)))
        if share > Fraction(1, 5):
            assert counts.get(i, 0) > 400 * share / 2
