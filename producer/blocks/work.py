"""The producer's work estimate of a ``block-composition/1`` request, refused before any curve is built.

The auditor's limit (start classes) × (support + 2)^k <= 2·10^6 per block type
(docs/certificates.md) counts curve terms; the cost of each term grows with the
size of its numbers too.  A block curve W_k has integer coordinates over D^k
(D = B·S, S the weights' total: the scale of a discrete-Gaussian source), so
every exact step on it costs about as many steps as the 64-bit limbs of those
integers: T = 3, σ² = 9, every split takes about 3 s at S = 2^64 and about
20 s at S = 2^1000.  The estimate, in term-limbs,

    work = Σ over block types: (start classes) × (support + 2)^k × ⌈k·bits(D)/64⌉,

is refused above :data:`MAX_WORK` (about a minute here).  Every request within
the term limit at the default S = 2^64 estimates below 1.5·10^7.  This limit
is the producer's own: the auditor, which computes the same curves faster,
has none on the scale of this kind beyond the source limits of ``dg-interval/1``.
"""

from producer.errors import LimitError

MAX_WORK = 2 * 10 ** 7
LIMB_BITS = 64

__all__ = ["MAX_WORK", "block_work", "check_block_work"]


def block_work(k, classes, support, bits):
    """The term-limbs of one block type: classes × (support + 2)^k terms on integers of k·bits(D) bits."""
    return classes * (support + 2) ** k * -(-k * bits // LIMB_BITS)


def check_block_work(types, support, bits):
    """LimitError (one line) when the block types ``(k, classes)`` together exceed :data:`MAX_WORK`."""
    work = sum(block_work(k, classes, support, bits) for k, classes in types)
    if work > MAX_WORK:
        raise LimitError(f"blocks: the block curves need about {work:.2e} term-limbs (curve terms × 64-bit limbs "
                         f"of their numbers over D^k, D of {bits} bits), above the producer's limit {MAX_WORK:.0e}; "
                         "use a smaller scale (or smaller weights), fewer releases, shorter blocks or a smaller radius")
    return work
