"""The privacy envelope and its normaliser.

(*Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*, §4.)

    p̃_h(ω) = max_{h'} e^{−(ε/2)·d(h, h')} · p_{h'}(ω),     Z_h = Σ_ω p̃_h(ω),

the maximum over all histograms h' (see :mod:`.histograms` for why this equals
the maximum over databases y ∈ D^n).  From enclosures of the p_{h'}(ω) and of
the discounts c_j = e^{−(ε/2)·j}, the enclosure of a maximum is the interval
of the maxima of the lower and of the upper ends.
"""

from flint import ctx
from gmpy2 import mpq

from producer.envelope.enclosures import Enclosure, round_down, round_up
from producer.envelope.histograms import distance
from producer.envelope.transcripts import GUARD, to_arb


def discount_factors(epsilon, records, bits):
    """[c_0, ..., c_n] with c_j = exp(−(ε/2)·j); c_0 = 1 exactly."""
    out = [Enclosure.exact(1, bits)]
    with ctx.workprec(bits + GUARD):
        for j in range(1, records + 1):
            out.append(Enclosure.from_arb((-to_arb(epsilon) * j / 2).exp(), bits))
    return out


def envelopes(hists, laws, discounts):
    """[[p̃_h(ω) for ω] for h] as Enclosures, from the laws of all histograms."""
    bits = discounts[0].bits
    n_transcripts = len(laws[0])
    # scaled[g][j] = (lower ends, upper ends) of c_j · p_g(ω) over ω
    scaled = []
    for law in laws:
        per_distance = []
        for c in discounts:
            per_distance.append(([round_down(c.lo * p.lo, bits) for p in law],
                                 [round_up(c.hi * p.hi, bits) for p in law]))
        scaled.append(per_distance)
    out = []
    for h in hists:
        lo = [mpq(0)] * n_transcripts
        hi = [mpq(0)] * n_transcripts
        for g, per_distance in zip(hists, scaled):
            slo, shi = per_distance[distance(h, g)]
            for w in range(n_transcripts):
                if slo[w] > lo[w]:
                    lo[w] = slo[w]
                if shi[w] > hi[w]:
                    hi[w] = shi[w]
        out.append([Enclosure(a, b, bits) for a, b in zip(lo, hi)])
    return out


def normaliser(envelope):
    """Z_h = Σ_ω p̃_h(ω), summed exactly then rounded outward once."""
    bits = envelope[0].bits
    return Enclosure(round_down(sum((e.lo for e in envelope), mpq(0)), bits),
                     round_up(sum((e.hi for e in envelope), mpq(0)), bits), bits)
