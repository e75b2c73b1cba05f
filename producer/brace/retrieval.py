"""Log-sum-ReLU retrieval in exact arithmetic.

(*BRACE: Differential Privacy for Dense Associative Memory with LSR Energy*, §3.1.)

Gate I(B, z) = {i : ||B_i - z||^2 <= r^2}: decided on squared distances, so
no square root is ever taken.  Φ_B(z) is the mean of the gated records, or z
itself when the gate is empty.  The clean trajectory is z_0 = q,
z_t = Φ_D(z_{t-1}).
"""

from gmpy2 import mpq


def squared_distance(u, v):
    """||u - v||^2, exactly."""
    return sum(((a - b) ** 2 for a, b in zip(u, v)), mpq(0))


def squared_norm(u):
    return sum((a * a for a in u), mpq(0))


def gate(points, z, r2):
    """Indices i (0-based, increasing) with ||points[i] - z||^2 <= r2."""
    return tuple(i for i, p in enumerate(points) if squared_distance(p, z) <= r2)


def mean_of(points, indices, fallback):
    """Mean of ``points[i]`` over ``indices``; ``fallback`` when there are none."""
    if not indices:
        return tuple(mpq(c) for c in fallback)
    d = len(fallback)
    m = len(indices)
    return tuple(sum((points[i][k] for i in indices), mpq(0)) / m for k in range(d))


def phi(points, z, r2):
    """(gate, Φ_B(z)): the LSR update at state z."""
    g = gate(points, z, r2)
    return g, mean_of(points, g, z)


def clean_trajectory(points, q, r2, horizon):
    """[z_0, ..., z_T] with z_0 = q and z_t = Φ_D(z_{t-1})."""
    zs = [tuple(mpq(c) for c in q)]
    for _ in range(horizon):
        zs.append(phi(points, zs[-1], r2)[1])
    return zs


def add(u, v):
    return tuple(a + b for a, b in zip(u, v))


def sub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def scale(c, u):
    return tuple(c * a for a in u)
