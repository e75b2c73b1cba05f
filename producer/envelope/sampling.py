"""Exact sampling of one release from p̃_x / Z_x by inversion with refinement.

Order the transcripts lexicographically, put F_i = (1/Z_x)·Σ_{j ≤ i} p̃_x(ω_j)
(so F_{N−1} = 1 exactly) and return ω_i for the least i with U < F_i, where U
is uniform on [0, 1).  U is never rounded: it is revealed 64 random bits at a
time, so after m bits it is known to lie in [u, u + 2^−m).  From enclosures
of the cumulative sums and of Z_x, F_i ∈ [lo_i, hi_i]; index i is certain
once u ≥ hi_{i−1} and u + 2^−m ≤ lo_i.  If the revealed bits are finer than
the enclosures, the enclosures are recomputed at twice the precision.  The
outcome is exactly the inverse-CDF draw for the infinite bit string, so its
law is exactly p̃_x / Z_x (no floating-point sampling error); U hitting a
boundary F_i has probability 0, so refinement stops almost surely.
"""

import random

from gmpy2 import mpq

from producer.envelope.evaluation import Evaluation
from producer.envelope.enclosures import decimal_display
from producer.errors import InputError
from producer.names import option


CHUNK = 64
MAX_BITS = 4096


def _cumulative_bounds(envelope, Z):
    """Enclosures [lo_i, hi_i] of F_i for every i (the last is exactly 1)."""
    lo_sum, hi_sum = mpq(0), mpq(0)
    out = []
    for p in envelope:
        lo_sum += p.lo
        hi_sum += p.hi
        out.append((max(mpq(0), lo_sum / Z.hi), min(mpq(1), hi_sum / Z.lo)))
    out[-1] = (mpq(1), mpq(1))
    return out


def _locate(cum, u, width):
    """The certain index for U ∈ [u, u + width), or None if not yet certain."""
    for i, (lo, hi) in enumerate(cum):
        if u + width <= lo:
            prev_hi = cum[i - 1][1] if i else mpq(0)
            return i if u >= prev_hi else None
        if u < hi:
            return None  # U straddles the uncertainty of F_i
    return None


def sample(instance, histogram, seed, bits=128):
    """Draw one release for the database histogram; returns a JSON-ready dict."""
    instance.check_limits()
    rng = random.Random(seed)
    u_int, m = 0, 0
    ev = Evaluation(instance, bits)
    if tuple(histogram) not in ev.hists:
        raise InputError(f"{option('database')}: histogram {list(histogram)} does not have "
                         f"n = {instance.records} records")
    index = ev.hists.index(tuple(histogram))
    while True:
        cum = _cumulative_bounds(ev.envelopes[index], ev.normalisers[index])
        while True:
            u_int = (u_int << CHUNK) | rng.getrandbits(CHUNK)
            m += CHUNK
            u, width = mpq(u_int, 2 ** m), mpq(1, 2 ** m)
            i = _locate(cum, u, width)
            if i is not None:
                omega = ev.omegas[i]
                answers = ev.answers[i]
                return {
                    "seed": seed,
                    "histogram": list(histogram),
                    "transcript_index": i,
                    "transcript": [{"query": s // 2, "sign": 1 if s % 2 == 0 else -1} for s in omega],
                    "answers": [a.as_json() for a in answers],
                    "answers_decimal": [[decimal_display(a.lo, 8, -1), decimal_display(a.hi, 8, 1)]
                                        for a in answers],
                    "uniform_bits": m,
                    "precision": ev.bits,
                }
            if m >= ev.bits:
                break  # the enclosures, not U, are the bottleneck
        if ev.bits * 2 > MAX_BITS:
            raise ArithmeticError("sampling did not resolve within the precision cap")
        ev = Evaluation(instance, ev.bits * 2)
