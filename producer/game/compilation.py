"""Point compilation of G_C for large B: the closed-carry-cell cover.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.2, Appendices E.1 and F.1–F.2.)

Preparation words (E.1).  A synchronised root with c participations left is a
pure state k = B·z; after its first output f the reference world is in state
base + f with base = −a·z (the engine's residue is r = −base mod B^c).  Put
b(k) = −⌊a·k/B⌋.  The base's digit word is

    z_i = a·b^i(base) mod B,     i = 0, …, c − 1,

and words bijectively encode base mod B^c: adding t·B^i to the base keeps the
first i digits and moves digit i by a·(−a)^i·t (mod B), a permutation since
gcd(a, B) = 1.  Digit i is the rounding phase used by the i-th transition
after the root output (participations 2..c and the final echo): a world at
own offset w in step i moves to w' = η − ⌊(z_i + a·w + U)/B⌋.

Closed carry cells (F.1).  Relax the digits to θ ∈ [0, B]^c.  For a fixed
policy and event the probability is affine in θ_i between the points where
θ_i + a·w ≡ 0 (mod B) for a reachable own offset w of step i; with the law
inside [−L, L] the offsets of step i lie in [l_i, u_i],

    l_0 = −L, u_0 = L,   l_{i+1} = −L − ⌈a·u_i/B⌉ − 1,   u_{i+1} = L − ⌊a·l_i/B⌋,

so on each cell of T_0 × … × T_{c−1},

    T_i = {0, B} ∪ {(−a·h) mod B : l_i <= h <= u_i},

every policy value is multiaffine, the optimum is separately convex, and some
optimal θ is a vertex.  An integer vertex is canonicalised by carrying,

    q_0 = 0,  φ_i = (θ_i − a·q_i) mod B,  q_{i+1} = ⌊(θ_i − a·q_i)/B⌋,

which relabels outputs bijectively (own offsets shift by q_i in both worlds)
and gives a legal word φ ∈ {0..B−1}^c with the same value.  The cover has at
most Π|T_i| <= [2(C+1)(L+3)]^c words; when B^c is smaller all residues are
used instead.  The cover depends only on (law support, γ, c), not on the
query point, so it is valid for whole curves G_q as well as for point values.

Using the cover at every level makes the residues the engine memoises (F_q
curves keyed mod B^(q+1)) those of reachable words: their number is bounded
by the support, not by B (F.3).  Complete echoes are cached by the engine by
(q, a·k_Q mod B, d, X, Y), i.e. by (ρ, d) and the weights as in the
regeneration lemma (§4.2); the echo's G_q is the compiled G_q curve (the
"precomputed G_2" variant, C = 3).
"""

from gmpy2 import invert


def support_radius(law):
    """L with the (trimmed) law inside [−L, L]."""
    law = law.trimmed()
    return max(-law.low, law.high, 0)


def offset_ranges(L, gamma, c):
    """The own-offset intervals [l_i, u_i] of steps i = 0..c−1 (F.1)."""
    a, B = gamma.a, gamma.B
    lo, hi = -L, L
    ranges = []
    for _ in range(c):
        ranges.append((lo, hi))
        lo, hi = -L - (-(-a * hi // B)) - 1, L - (a * lo) // B
    return ranges


def phase_points(L, gamma, c):
    """The vertex sets T_0, …, T_{c−1} (integers in [0, B]), each sorted."""
    a, B = gamma.a, gamma.B
    return [sorted({0, B} | {(-a * h) % B for h in range(lo, hi + 1)})
            for lo, hi in offset_ranges(L, gamma, c)]


def canonical_word(theta, gamma):
    """The carried word φ ∈ {0..B−1}^c of a vertex θ ∈ [0, B]^c."""
    a, B = gamma.a, gamma.B
    carry, word = 0, []
    for t in theta:
        carry, digit = divmod(t - a * carry, B)
        word.append(digit)
    return tuple(word)


def word_of_base(base, gamma, c):
    """The digit word (a·b^i(base) mod B)_{i<c} of an integer base."""
    a, B = gamma.a, gamma.B
    word = []
    for _ in range(c):
        word.append((a * base) % B)
        base = -((a * base) // B)
    return tuple(word)


def base_of_word(word, gamma):
    """The base in [0, B^c) whose digit word is ``word`` (E.1, digit by digit)."""
    a, B = gamma.a, gamma.B
    base = 0
    for i, digit in enumerate(word):
        current = word_of_base(base, gamma, i + 1)[i]
        step = (a * (-a) ** i) % B
        t = int((digit - current) * invert(step, B) % B)
        base += t * B ** i
    return base


def vertex_count(law, gamma, c):
    """Π|T_i|, the number of vertices of the closed carry cells (before carrying)."""
    count = 1
    for t in phase_points(support_radius(law), gamma, c):
        count *= len(t)
    return count


def cover_size(law, gamma, c):
    """An upper bound on the number of residues ``cover_residues`` returns."""
    return min(gamma.B ** c, vertex_count(law, gamma, c))


def cover_residues(law, gamma, c, always=False):
    """Engine residues r = −base mod B^c of the compiled cover, sorted.

    All B^c residues are returned instead when that is no more than the
    number of vertices (unless ``always``, used to test the cover itself).
    """
    period = gamma.B ** c
    if period <= vertex_count(law, gamma, c) and not always:
        return list(range(period))
    words = {()}
    for t in phase_points(support_radius(law), gamma, c):
        words = {w + (x,) for w in words for x in t}
    bases = {base_of_word(canonical_word(theta, gamma), gamma) for theta in words}
    return sorted({(-b) % period for b in bases})
