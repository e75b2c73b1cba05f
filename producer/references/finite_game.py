"""Reference finite-game certificates: published values and a few others.

The published values are those of *Exact Compilation and Resource Laws for Hidden Integer Feedback*.
"""

import math

from gmpy2 import mpq

from producer.kinds.finite_game import Request, build
from producer.laws import FiniteLaw, Gamma
from producer.references import write_all


def _gaussian_like_weights(radius, sigma2, scale):
    # Any nonnegative integers make a valid law; these only imitate a discrete Gaussian.
    return [int(scale * math.exp(-n * n / (2 * sigma2))) for n in range(-radius, radius + 1)]


# name -> (law, gamma, budget, thresholds, points, pending, curve)
REFERENCES = {
    # §4.1 (and Appendix A.4): G_2(1, 1/2) − 1/2 = 5/6
    "finite-game-c2-121-g1_3": (FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, [mpq(1, 2)], [], None, True),
    # §4.2 (and Appendix D.3): F_2((1,0); 1, 2) and F_2((10,9); 1, 2), two participations left
    "finite-game-f2-121-g1_3-pending-1-0": (FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, [],
                                            [(mpq(1), mpq(2))], (1, 0), False),
    "finite-game-f2-121-g1_3-pending-10-9": (FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, [],
                                             [(mpq(1), mpq(2))], (10, 9), False),
    # §5.2 (and Appendix G.4): G_4(1/2, 1/2)
    "finite-game-c4-111-g1_2": (FiniteLaw([1, 1, 1], -1), Gamma(1, 2), 4, [], [(mpq(1, 2), mpq(1, 2))], None, False),
    # asymmetric law with a zero weight, several thresholds and a point
    "finite-game-c2-asym-g2_5": (FiniteLaw([2, 0, 1, 3], -1), Gamma(2, 5), 2,
                                 [mpq(1, 3), mpq(1), mpq(2), mpq(5)], [(mpq(3, 2), mpq(1))], None, True),
    "finite-game-c1-asym-g3_7": (FiniteLaw([1, 4, 0, 2, 1], -3), Gamma(3, 7), 1, [mpq(1, 2), mpq(3)], [], None, True),
    "finite-game-c0-121": (FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 0, [mpq(1, 4)], [], None, True),
    "finite-game-c3-radius2-g1_3": (FiniteLaw([1, 3, 5, 3, 1], -2), Gamma(1, 3), 3, [mpq(1), mpq(3)], [], None, False),
    # a discrete-Gaussian-like law of radius 24 (σ² = 9), threshold near e²
    "finite-game-c2-radius24-g1_3": (FiniteLaw(_gaussian_like_weights(24, 9, 10**24), -24), Gamma(1, 3), 2,
                                     [mpq(7389, 1000), mpq(1)], [], None, False),
}


def generate(outdir, names=None):
    items = [(f"{name}.json", spec) for name, spec in REFERENCES.items()]
    return write_all(outdir, "finite_game", items, lambda spec: build(Request(*spec)), names=names)
