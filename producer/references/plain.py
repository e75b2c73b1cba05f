"""Reference certificates for plain composition (γ = 0) and the discrete Laplace law.

Written to their own folder, ``certificates/plain/`` (``make certificates``
regenerates and verifies them; ``make plain-references`` only these).

- plain discrete Gaussian, σ² = 9, C = 2, ε = 2, width below 10^-14 (issue: "done when");
- plain and hidden-feedback (γ = 1/3) discrete Laplace, t = 2, C = 2, ε = 1/2;
- a plain finite game on (1, 2, 1)/4 at C = 2 with its testing curve;
- a plain discrete-Laplace calibration, t = 2, C = 2, δ = 10^-6;
- plain-composition/1 (the product route, any C): discrete Gaussian σ² = 9, C = 2,
  W = 10^-20; σ² ∈ {1, 4, 9}, C = 8, W = 10^-15; σ² = 1, C = 64, W = 10^-15;
  discrete Laplace t ∈ {1, 2, 4}, C = 8, W = 10^-15;
  the releases form dg:9x100, dl:2x5, dg:4:2x20 (100 discrete-Gaussian σ² = 9, 5 discrete-Laplace
  t = 2 and 20 discrete-Gaussian σ² = 4 releases of sensitivity 2) at ε ∈ {1, 2, 4}, W = 10^-15;
  a relative width: σ² = 100, C = 1, ε = 2 (δ ≈ 4.16e-91), R = 1/1000;
  the default widths (R = 1/1000, floor W = 10^-60) at σ² = 9, C = 1, ε = 20 (δ ≈ e^-1800: meets W);
- epsilon-bracket/1 (route product-pair): ε*_1000(10^-5) of the discrete Gaussian σ² = 9, width 10^-3;
  ε*_125(10^-5) of the releases dg:9x100, dl:2x5, dg:4:2x20 (default width 10^-6);
- noise/1, one per route and law: the σ² (route product-pair, C = 100, ε = 2, δ = 10^-5), the discrete
  Laplace's t (product-pair, C = 100, ε = 1, δ = 10^-5), both to R = 1/1000, and the σ² and t at γ = 1/2
  (route exact-game, C = 2, ε = 1, δ = 10^-3, R = 1/10); the releases form: the factor f on every scale
  of dg:9x100, dl:2x5, dg:4:2x20 for ε*_125(10^-5) <= 2 (R = 1/1000).
"""

import sys

from gmpy2 import mpq

from producer.kinds import calibration, dg_interval, epsilon_bracket, finite_game, noise, plain_composition
from producer.laws import FiniteLaw, Gamma
from producer.output import stderr_progress
from producer.references import write_all

DG = [
    ("dg-interval-plain-sigma2_9-c2-eps2.json",
     dict(gamma="0", sigma2=mpq(9), budget=2, epsilon=mpq(2), width=mpq(1, 10**14))),
    ("dg-interval-plain-laplace-t2-c2-eps1_2.json",
     dict(gamma="0", sigma2=None, laplace=mpq(2), budget=2, epsilon=mpq(1, 2), width=mpq(1, 10**10))),
    ("dg-interval-laplace-t2-g1_3-c2-eps1_2.json",
     dict(gamma="1/3", sigma2=None, laplace=mpq(2), budget=2, epsilon=mpq(1, 2), width=mpq(1, 10**10))),
]
GAMES = [
    ("finite-game-c2-121-g0.json",
     (FiniteLaw([1, 2, 1], -1), Gamma(0, 1), 2, [mpq(1, 2), mpq(2)], [], None, True)),
]
CALIBRATIONS = [
    ("calibration-plain-laplace-t2-c2-delta1e-6.json",
     dict(gamma="0", sigma2=None, laplace=mpq(2), budget=2, delta=mpq(1, 10**6))),
]

EPSILONS = [mpq(1, 2), mpq(1), mpq(2), mpq(4)]
WIDTH = mpq(1, 10**15)
PRODUCT = [
    ("plain-composition-dg-sigma2_9-c2.json",
     dict(sigma2=mpq(9), budget=2, epsilons=EPSILONS, width=mpq(1, 10**20))),
    *((f"plain-composition-dg-sigma2_{s}-c8.json", dict(sigma2=mpq(s), budget=8, epsilons=EPSILONS, width=WIDTH))
      for s in (1, 4, 9)),
    *((f"plain-composition-dl-t{t}-c8.json", dict(laplace=mpq(t), budget=8, epsilons=EPSILONS[:3], width=WIDTH))
      for t in (1, 2, 4)),
    ("plain-composition-dg-sigma2_1-c64.json",
     dict(sigma2=mpq(1), budget=64, epsilons=[mpq(1), mpq(2), mpq(4), mpq(8)], width=WIDTH)),
    ("plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json",
     dict(budget=None, releases=["dg:9x100", "dl:2x5", "dg:4:2x20"], epsilons=[mpq(1), mpq(2), mpq(4)], width=WIDTH)),
    ("plain-composition-dg-sigma2_100-c1-rel1e-3.json",
     dict(sigma2=mpq(100), budget=1, epsilons=[mpq(2)], width=None, rel_width=mpq(1, 1000))),
    ("plain-composition-dg-sigma2_9-c1-eps20-default.json",
     dict(sigma2=mpq(9), budget=1, epsilons=[mpq(20)], width=mpq(plain_composition.FLOOR_WIDTH),
          rel_width=mpq(plain_composition.DEFAULT_REL_WIDTH))),
]

BRACKETS = [
    ("epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json",
     dict(gamma="0", sigma2=mpq(9), budget=1000, delta=mpq(1, 10**5), width=mpq(1, 10**3))),
    ("epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json",
     dict(gamma="0", budget=None, releases=["dg:9x100", "dl:2x5", "dg:4:2x20"], delta=mpq(1, 10**5))),
]

NOISE = [
    ("noise-dg-c100-eps2-delta1e-5.json", dict(budget=100, epsilon=mpq(2), delta=mpq(1, 10**5))),
    ("noise-dl-c100-eps1-delta1e-5.json", dict(budget=100, epsilon=mpq(1), delta=mpq(1, 10**5), laplace=True)),
    ("noise-dg-g1_2-c2-eps1-delta1e-3.json",
     dict(budget=2, epsilon=mpq(1), delta=mpq(1, 10**3), gamma="1/2", precision=mpq(1, 10))),
    ("noise-dl-g1_2-c2-eps1-delta1e-3.json",
     dict(budget=2, epsilon=mpq(1), delta=mpq(1, 10**3), gamma="1/2", precision=mpq(1, 10), laplace=True)),
    ("noise-releases-dg9x100-dl2x5-dg4s2x20-eps2-delta1e-5.json",
     dict(budget=None, epsilon=mpq(2), delta=mpq(1, 10**5), releases=["dg:9x100", "dl:2x5", "dg:4:2x20"])),
]


def generate(outdir, names=None):
    paths = write_all(outdir, "plain", GAMES, lambda spec: finite_game.build(finite_game.Request(*spec)), names=names)
    paths += write_all(outdir, "plain", DG,
                       lambda fields: dg_interval.build(dg_interval.Request(**fields), stderr_progress("dg")),
                       names=names)
    paths += write_all(outdir, "plain", CALIBRATIONS,
                       lambda fields: calibration.build(calibration.Request(**fields), stderr_progress("calibrate")),
                       names=names)
    paths += write_all(outdir, "plain", PRODUCT,
                       lambda fields: plain_composition.build(plain_composition.Request(**fields),
                                                              stderr_progress("plain")), names=names)
    paths += write_all(outdir, "plain", BRACKETS,
                       lambda fields: epsilon_bracket.build(epsilon_bracket.Request(**fields),
                                                            stderr_progress("calibrate")), names=names)
    paths += write_all(outdir, "plain", NOISE,
                       lambda fields: noise.build(noise.Request(**fields), stderr_progress("noise")), names=names)
    return paths


if __name__ == "__main__":
    import os
    out = sys.argv[1] if len(sys.argv) > 1 else "certificates/plain"
    os.makedirs(out, exist_ok=True)
    generate(out)
