"""A small set of root preparations that contains an optimal one (*Hidden Integer Feedback* §4, App. A, C).

At a synchronised node with ``c`` participations left the evaluator maximises
over preparations k = B*z, 0 <= z < B^c (fact R1).  This module derives, by
its own argument below, a subset of those z that still attains the maximum
and has at most prod_i (|W_i| + 2) members, where W_i are the own-offset
ranges defined below; for a law of radius L this is O((L + 3)^c) instead of
B^c.

Own offsets and the preparation word
------------------------------------
Put k = B*z.  The root participation has a pure row (a*k = B*(a*z)), so the
root output leaves each world in state k_1 = w_1 + beta_1 with
beta_1 = -a*z and w_1 = that world's own innovation, w_1 in [lo, hi] (the
support of the law).  Define the reference bases and digits

    beta_{i+1} = -floor(a * beta_i / B),      d_i = (a * beta_i) mod B.

If a world is in state k_i = w_i + beta_i then, since a*beta_i =
d_i - B*beta_{i+1},

    k_{i+1} = eta - floor((a*k_i + U) / B) = beta_{i+1} + w_{i+1},
    w_{i+1} = eta - floor((d_i + a*w_i + U) / B).                     (1)

So along any run from the root, both worlds' states are "own offset + the
common base beta_i", and (1) moves the own offsets using only the digit d_i
of step i.  Subtracting beta_i from every output label of step i is a
bijection of labels shared by both worlds, which changes no probability and
no later value (after an echo G_q does not depend on states at all).  Hence
the root participation's value with preparation z equals the value Phi(d)
of the same game written in own offsets with the digit word
d = (d_1, ..., d_c): step i (i = 1..c, after the pure root step) uses d_i
and no other digit; a run has at most c - 1 further participations and one
final echo, i.e. at most c steps after the root.  The map z -> d is a
bijection of Z/B^c (see :func:`preparation_for_word`), so R1's range is the
set of all words in {0..B-1}^c.

Relaxation to a box and closed carry cells
------------------------------------------
For real theta_i in [0, B] let (1) read
w' = eta - floor((theta_i + a*w) / B + V) with V uniform on [0, 1).  With
s = theta_i + a*w this shifts by floor(s/B) + 1 with probability
frac(s/B) and by floor(s/B) otherwise; at integer theta_i that is exactly
the count of U in {0..B-1} (so the relaxation agrees with the game on
integer words).  As a function of theta_i the kernel is affine on every
closed interval whose interior contains no point with s/B integer: inside,
floor(s/B) is constant; at an endpoint s/B = m + 1 the formula from the left
gives shift m + 1 with probability 1, as does the one from the right.  The
walls are theta_i = (-a*w) mod B (and 0, B), for the own offsets w that
step i can start from.

Reachable own offsets.  W_1 = [lo, hi].  From w, for theta in [0, B] and V
in [0, 1), the shift h = floor((theta + a*w)/B + V) satisfies
floor(a*w/B) <= h <= ceil(a*w/B) + 1 (the sum is < a*w/B + 2).  As a > 0,

    W_{i+1} = [lo - ceil(a*max W_i / B) - 1,  hi - floor(a*min W_i / B)]

contains every own offset at step i + 1, in both worlds (each world's own
offset follows (1) with its own innovation; actions only change the shared
labels).  Let T_i = {0, B} u {(-a*w) mod B : w in W_i}.

Why a vertex of the grid T_1 x ... x T_c is optimal.  Fix a policy (its
actions as functions of the observed own-offset labels), an event, and for
each branch entering a synchronised node one point of the finite G_q testing
curve (G_q(x, y) is the maximum of finitely many linear forms, and after an
echo nothing depends on theta).  Its score is a finite sum over paths of
x*A*P(path) + y*B'*Q(path), where each world's path probability is a
product of one kernel factor per step, step i depending on theta_i alone.
On a closed grid cell every such factor is affine in its coordinate (paths
leaving the W_i have probability zero everywhere), so the score is
multiaffine on the cell and attains its maximum over the cell at a cell
vertex.  Phi on the box is the maximum of these finitely many scores, so
max over the box of Phi is attained at a point of T_1 x ... x T_c.  Every
integer word lies in the box, hence this vertex maximum is >= the game's
maximum over legal words.

Back to a legal word (carry).  A vertex may have theta_i = B.  Put q_1 = 0,
phi_i = (theta_i - a*q_i) mod B, q_{i+1} = floor((theta_i - a*q_i) / B).
Then phi_i + a*(w + q_i) = theta_i + a*w - B*q_{i+1}, so by (1) the
phi-game with own offsets w_i + q_i moves exactly like the theta-game with
own offsets w_i (same eta and V), in both worlds at once; the translation
is a bijection of labels and Phi(phi) = Phi(theta), with phi a legal word
in {0..B-1}^c.  So the words carried from the vertices, mapped back to z,
attain the maximum over all 0 <= z < B^c.  (The tests confirm this against
the full enumeration, and that a shifted cover is caught.)
"""

from itertools import product

from auditor.rationals import ceil_div

__all__ = [
    "own_offset_ranges", "vertex_sets", "carry", "word_of_preparation",
    "preparation_for_word", "cover_size", "root_cover",
]


def _support(law):
    """[lo, hi]: the own offsets with positive weight after the root output."""
    nz = [i for i, w in enumerate(law.weights) if w]
    if not nz:
        raise ValueError("weights must not all be zero")
    return law.offset + nz[0], law.offset + nz[-1]


def own_offset_ranges(law, c):
    """[(min W_i, max W_i) for i = 1..c], supersets of the reachable own offsets."""
    a, B = law.a, law.B
    lo, hi = _support(law)
    ranges = [(lo, hi)]
    while len(ranges) < c:
        l, h = ranges[-1]
        ranges.append((lo - ceil_div(a * h, B) - 1, hi - (a * l) // B))
    return ranges[:c]


def vertex_sets(law, c):
    """T_1, ..., T_c: sorted walls of the closed carry cells in [0, B]."""
    a, B = law.a, law.B
    sets = []
    for l, h in own_offset_ranges(law, c):
        if h - l + 1 >= B:
            sets.append(tuple(range(B + 1)))
        else:
            sets.append(tuple(sorted({0, B} | {(-a * w) % B for w in range(l, h + 1)})))
    return sets


def cover_size(law, c):
    """Number of grid vertices prod |T_i| (an upper bound on the cover size)."""
    n = 1
    for t in vertex_sets(law, c):
        n *= len(t)
    return n


def carry(theta, a, B):
    """The legal word phi in {0..B-1}^c with the same game value as theta in [0, B]^c."""
    q = 0
    word = []
    for th in theta:
        q, d = divmod(th - a * q, B)
        word.append(d)
    return tuple(word)


def word_of_preparation(z, a, B, c):
    """Digits (d_1..d_c) of preparation k = B*z: beta_1 = -a*z, d_i = a*beta_i mod B."""
    beta = -a * z
    word = []
    for _ in range(c):
        word.append((a * beta) % B)
        beta = -((a * beta) // B)
    return tuple(word)


def preparation_for_word(word, a, B):
    """The z in [0, B^c) whose digit word is ``word`` (inverse of word_of_preparation).

    Solve for beta_1 mod B^c from the last digit back: a digit d fixes
    beta mod B as r = d * a^-1; writing beta = r + B*t gives
    beta_next = -floor(a*r/B) - a*t, so t is determined modulo B^(m-1) by the
    required beta_next (a is invertible mod B^(m-1) as gcd(a, B) = 1).
    Finally z = -beta_1 * a^-1 mod B^c.
    """
    c = len(word)
    inv_B = pow(a, -1, B)
    beta = 0  # solution for the empty suffix, modulo B^0 = 1
    for m, d in enumerate(reversed(word), start=1):
        r = (d * inv_B) % B
        if m == 1:
            beta = r
            continue
        mod = B ** (m - 1)
        t = ((-((a * r) // B) - beta) * pow(a, -1, mod)) % mod
        beta = r + B * t
    period = B ** c
    return (-beta * pow(a, -1, period)) % period if c else 0


def root_cover(law, c, force=False):
    """Sorted z in [0, B^c) containing an optimal preparation at level c.

    Returns every z when the grid is not smaller than B^c, unless ``force``
    (tests use it to exercise the cover where B^c is small).
    """
    a, B = law.a, law.B
    if c <= 0:
        return (0,)
    if not force and cover_size(law, c) >= B ** c:
        return tuple(range(B ** c))
    zs = set()
    for theta in product(*vertex_sets(law, c)):
        zs.add(preparation_for_word(carry(theta, a, B), a, B))
    return tuple(sorted(zs))
