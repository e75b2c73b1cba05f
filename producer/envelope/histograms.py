"""Database histograms and the Hamming distance between them.

A database x ∈ D^n enters the PMW transcript law only through its answer
vector a(x)_s = (1/n)·Σ_i s(x_i), which depends on x only through its
histogram h(x)(d) = |{i : x_i = d}|.  So the envelope's maximum over y ∈ D^n
can be taken over histograms, with the distance

    d(h, h') = min { d_H(x, y) : h(x) = h, h(y) = h' } = ‖h − h'‖₁ / 2

(keep min(h(d), h'(d)) records of each value d in place and change the other
n − Σ_d min(h(d), h'(d)) = ‖h − h'‖₁ / 2 records; fewer changes cannot fix
the surplus).  Moreover for any fixed x with h(x) = h, the minimum over y of
the histogram h' is attained, so p̃_x depends on x only through h(x).
Neighbouring databases (one record replaced) have histograms at distance 0
or 1.
"""

from math import comb


def count_histograms(universe, records):
    """The number C(n + T − 1, T − 1) of histograms of n records on T values."""
    return comb(records + universe - 1, universe - 1)


def histograms(universe, records):
    """All histograms as count tuples, in lexicographic order (ascending)."""
    def rec(prefix, left, slots):
        if slots == 1:
            yield prefix + (left,)
            return
        for c in range(left + 1):
            yield from rec(prefix + (c,), left - c, slots - 1)
    return list(rec((), records, universe))


def histogram_of(database, universe):
    """The histogram of an ordered database (a sequence of values in 0..T−1)."""
    counts = [0] * universe
    for v in database:
        counts[v] += 1
    return tuple(counts)


def distance(h, g):
    """d(h, g) = ‖h − g‖₁ / 2, the least Hamming distance between databases with these histograms."""
    return sum(abs(a - b) for a, b in zip(h, g)) // 2


def neighbours(h):
    """Histograms at distance exactly 1: move one record from value i to value j ≠ i."""
    out = []
    for i, ci in enumerate(h):
        if ci == 0:
            continue
        for j in range(len(h)):
            if j != i:
                g = list(h)
                g[i] -= 1
                g[j] += 1
                out.append(tuple(g))
    return out
