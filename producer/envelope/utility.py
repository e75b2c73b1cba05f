"""Expected error of the released answers.

(*Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*, §1.1, §4, §9.)

For a database with histogram h and true answers F(h), the release for
transcript ω is Ans(ω) and its losses are

    ℓ∞_h(ω) = max_q |Ans(ω)_q − F_q(h)|,
    ℓ2_h(ω) = sqrt((1/k)·Σ_q (Ans(ω)_q − F_q(h))²)      (normalised Euclidean),

and the expected error under the released law p̃_h / Z_h is

    E_h = (1/Z_h)·Σ_ω p̃_h(ω)·ℓ_h(ω).
"""

from gmpy2 import mpq

from producer.envelope.enclosures import Enclosure, round_down, round_up


def losses(answers, truth):
    """(ℓ∞, ℓ2) enclosures for one transcript's decoded answers against exact truth."""
    diffs = [(a - t).absolute() for a, t in zip(answers, truth)]
    linf = Enclosure.maximum(diffs)
    squares = diffs[0].square()
    for d in diffs[1:]:
        squares = squares + d.square()
    l2 = (squares / len(diffs)).sqrt()
    return linf, l2


def expected_error(envelope, Z, loss):
    """(1/Z)·Σ_ω p̃(ω)·ℓ(ω) from enclosures (all quantities are non-negative)."""
    bits = Z.bits
    lo = sum((p.lo * l.lo for p, l in zip(envelope, loss)), mpq(0))
    hi = sum((p.hi * l.hi for p, l in zip(envelope, loss)), mpq(0))
    return Enclosure(round_down(lo, bits), round_up(hi, bits), bits) / Z
