"""The constants the claims compare against, as enclosures (python-flint arb).

- e^ε                                   (pure ε-DP),
- 1 + 2e                                (normaliser, §7),
- 129e·min(1, log(2T)·log(2k)/(εn))      (Theorem 1.1 in the checked form of docs/envelope.md),
- 62e·min(1, log(2T)/(εn))               (Theorem 1.2, normalised ℓ2, §9 variant),
- ε²/(900·log(T² + 1))                   (the §7 condition κ ≤ c₀ε²/L, c₀ = 1/900).
"""

from flint import arb, ctx

from producer.envelope.enclosures import Enclosure
from producer.envelope.transcripts import GUARD, to_arb


def exp_epsilon(epsilon, bits):
    with ctx.workprec(bits + GUARD):
        return Enclosure.from_arb(to_arb(epsilon).exp(), bits)


def normaliser_bound(bits):
    with ctx.workprec(bits + GUARD):
        return Enclosure.from_arb(1 + 2 * arb(1).exp(), bits)


def error_bound(instance, bits):
    """The theorem's bound for the instance's variant (ℓ∞ for selection, ℓ2 for sign)."""
    T, k, n = instance.universe, instance.k, instance.records
    with ctx.workprec(bits + GUARD):
        eps = to_arb(instance.epsilon)
        if instance.variant == "selection":
            ratio = arb(2 * T).log() * arb(2 * k).log() / (eps * n)
            const = 129
        else:
            ratio = arb(2 * T).log() / (eps * n)
            const = 62
        r = Enclosure.from_arb(ratio, bits)
        clipped = Enclosure.minimum([Enclosure.exact(1, bits), r])
        return Enclosure.from_arb(const * arb(1).exp(), bits) * clipped


def condition_bound(instance, bits):
    """ε²/(900·L) with L = log(T² + 1)."""
    T = instance.universe
    with ctx.workprec(bits + GUARD):
        eps = to_arb(instance.epsilon)
        return Enclosure.from_arb(eps * eps / (900 * arb(T * T + 1).log()), bits)
