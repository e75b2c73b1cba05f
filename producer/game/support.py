"""The C1/C2 support reduction for symmetric laws.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §4.1 and Appendices A.3–A.4.)

A pure root for budget two is fixed by its base b modulo B² (the successor of
first output f is b + f), or equivalently by the phase pair

    β = {γ·b},        χ = {γ·b(b)},     b(k) = −⌊γ·k⌋,

which is a bijection from b mod B² onto G_B × G_B (G_B = {0, 1/B, …}) because
a is invertible modulo B.  For a symmetric law supported on [−L, L] the value
is piecewise convex in β between the points of
K0 = {−mγ mod 1 : −L−1 <= m <= L+1}, and for each β piecewise convex in χ
between the points of K2 = {nγ mod 1 : −2L−3 <= n <= 2L+4}; a maximum is
therefore attained at a pair in K0 × K2: O(L²) roots instead of B².

In the engine's notation the root alternative with base b is the residue
r = −b mod B² with sign j = −1 (P-mass ν(f + 1), Q-mass ν(f), state f + b);
by reflection the sign +1 alternatives give the same set of values.
"""

from gmpy2 import invert


def phase_indices(law, gamma):
    """The numerators u of K0 and v of K2 (phases u/B, v/B), sorted."""
    a, B = gamma.a, gamma.B
    L = max(-law.low, law.high)
    k0 = sorted({(-m * a) % B for m in range(-L - 1, L + 2)})
    k2 = sorted({(n * a) % B for n in range(-2 * L - 3, 2 * L + 5)})
    return k0, k2


def base_of_phases(u, v, gamma):
    """The base b in [0, B²) with {γ·b} = u/B and {γ·b(b)} = v/B.

    Write b = b0 + B·t with a·b0 ≡ u (mod B); then ⌊a·b/B⌋ = ⌊a·b0/B⌋ + a·t, so
    the second condition −a·⌊a·b/B⌋ ≡ v reads a²·t ≡ −v − a·⌊a·b0/B⌋ (mod B).
    """
    a, B = gamma.a, gamma.B
    b0 = int(u * invert(a, B) % B)
    t = int((-v - a * ((a * b0) // B)) * invert(a * a, B) % B)
    return b0 + B * t


def reduced_root_alternatives(law, gamma, budget=2):
    """The (r, j) root alternatives of the support reduction, without repeats.

    Budget one (the paper's Appendix A.3): the value is convex in β between the points of
    K0, so the bases b mod B with {γ·b} in K0 suffice.  Budget two: K0 × K2.
    """
    k0, k2 = phase_indices(law, gamma)
    if budget == 1:
        inv = invert(gamma.a, gamma.B)
        residues = sorted({int(-(u * inv)) % gamma.B for u in k0})
    else:
        B2 = gamma.B ** 2
        residues = sorted({(-base_of_phases(u, v, gamma)) % B2 for u in k0 for v in k2})
    return [(r, -1) for r in residues]


def reduction_applies(law, budget):
    """The reduction is proved for symmetric laws at budgets one and two."""
    return budget in (1, 2) and law.is_symmetric()
