"""Builds ``noise/1`` certificates for the auditor tests.

The embedded certificates come from the producer as a black box: its command
line (``producer plain`` on the product-pair route, ``producer dg`` on the
exact-game route).  The noise certificate around them is assembled here by
hand (canonical JSON, the digest of :func:`auditor.certificate.digest` through
:func:`tests.reseal.seal`), so these tests do not depend on the producer's
``noise`` command; :func:`references` adds every ``noise/1`` certificate
committed under ``certificates/`` once there are some.

Each question below was set up with a few producer calls: at the noise level
the certified δ_C(ε) is below δ, at the level below it is above, so δ lies in
the gap (e.g. σ² = 9, C = 8, ε = 4: δ ∈ [1.45744629e-5, 1.45744630e-5] at 9,
δ ∈ [1.47850708e-5, 1.47850709e-5] at 1124/125; δ = 1.467e-5 in between).

The releases form (:class:`ReleasesCase`) is set up the same way, with
``producer plain --release ...`` at the releases scaled by the factor f
(every σ² and t times f), e.g. dg:9x10, dl:2x3, dg:4:2x5 at ε = 2: δ ∈
[9.9384e-4, 9.9397e-4] at f = 12.9, δ ∈ [1.03694e-3, 1.03707e-3] at f = 12.8;
δ = 1/1000 in between.
"""

import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from auditor.rationals import write_rational
from tests.auditor.bracket_corpus import _produced
from tests.reseal import seal

ROOT = Path(__file__).resolve().parents[2]
PRODUCER = {"name": "dp-certify-tests", "version": "0"}
KEY = {"discrete-gaussian": "sigma2", "discrete-laplace": "laplace"}


class Case:
    """One question (family, γ, C, ε, δ, R) and its answer (noise, below)."""

    __slots__ = ("family", "gamma", "budget", "epsilon", "delta", "precision", "noise", "below")

    def __init__(self, family, gamma, budget, epsilon, delta, precision, noise, below):
        self.family, self.gamma, self.budget, self.epsilon = family, gamma, budget, epsilon
        self.delta, self.precision, self.noise, self.below = delta, precision, noise, below

    def input(self):
        return {"family": self.family, "gamma": self.gamma, "budget": self.budget, "epsilon": self.epsilon,
                "delta": self.delta, "precision": self.precision}


# product-pair (γ = 0): plain-composition/1 at [ε]
GAUSSIAN_PAIR = Case("discrete-gaussian", "0", 8, "4", "1467/100000000", "1/1000", "9", "1124/125")
LAPLACE_PAIR = Case("discrete-laplace", "0", 2, "1/2", "3051/20000", "1/1000", "2", "1999/1000")
# exact-game (γ > 0): dg-interval/1 at ε, method null (a coarse R keeps the game's intervals apart)
GAUSSIAN_GAME = Case("discrete-gaussian", "1/2", 2, "1/2", "11/20", "1/10", "1", "10/11")
LAPLACE_GAME = Case("discrete-laplace", "1/3", 2, "1/2", "1/5", "1/10", "2", "20/11")
GAME_WIDTH = "1/10000"
# an explicit source {radius, scale} instead of a width (the producer's choice; any source is checked as given)
EXPLICIT_SOURCE = ("6", "1073741824")


class ReleasesCase:
    """One releases-form question (releases, ε, δ, R; γ = 0) and its answer (factor, factor_below).

    ``releases``: (law, scale, sensitivity, count) at the base scales, law ``dg`` (σ²) or ``dl`` (t), in any
    order (:meth:`input` writes them canonical)."""

    __slots__ = ("releases", "epsilon", "delta", "precision", "factor", "below")

    def __init__(self, releases, epsilon, delta, precision, factor, below):
        self.releases, self.epsilon, self.delta = tuple(releases), epsilon, delta
        self.precision, self.factor, self.below = precision, factor, below

    def sorted_releases(self):
        """The releases sorted by (family, scale, sensitivity), the canonical order ("dg" < "dl" as the
        families' names)."""
        return sorted(self.releases, key=lambda r: (r[0], Fraction(r[1]), r[2]))

    def input(self):
        return {"gamma": "0", "releases": [release(*r) for r in self.sorted_releases()], "epsilon": self.epsilon,
                "delta": self.delta, "precision": self.precision}


FAMILY = {"dg": "discrete-gaussian", "dl": "discrete-laplace"}


def release(law, scale, sensitivity, count):
    """One release object of the releases form."""
    noise = {"family": FAMILY[law], "sigma2" if law == "dg" else "t": scale}
    return {"noise": noise, "sensitivity": sensitivity, "count": count}


def scaled(releases, factor, powers=(1, 1)):
    """The releases with every scale (σ² or t) times the factor; ``powers`` (of the σ² and of the t) other
    than (1, 1) scale by another power of it, for certificates of another question."""
    f = Fraction(factor)
    return tuple((law, write_rational(Fraction(scale) * f ** powers[law == "dl"]), sensitivity, count)
                 for law, scale, sensitivity, count in releases)


# The releases form (γ = 0; plain-composition/1 at [ε] on the releases scaled by the factor):
# three laws with a sensitivity 2, on the grid of R = 1/100 (12.9 <= 12.8·1.01)
MIXED_RELEASES = ReleasesCase((("dg", "9", 1, 10), ("dl", "2", 1, 3), ("dg", "4", 2, 5)), "2", "1/1000", "1/100",
                              "129/10", "64/5")
# one release of sensitivity 1: its embedded certificates are in the single-law form (δ in [0.0199128,
# 0.0199129] at m = 2.66, [0.0201356, 0.0201358] at 2.65; at ε = 1/2, δ = 0 exactly from m = 4 on)
ONE_LAPLACE = ReleasesCase((("dl", "2", 1, 4),), "1/2", "1/50", "1/100", "133/50", "53/20")
# one release of sensitivity 2: the releases form (δ in [0.0068045, 0.0068048] at 12, [0.0070117, 0.0070119]
# at 11.9)
ONE_SENSITIVITY_2 = ReleasesCase((("dg", "4", 2, 3),), "1", "7/1000", "1/100", "12", "119/10")
# base scales outside plain-composition/1's domain [1/100, 10^6], brought into it by the factor: the questions
# of GAUSSIAN_PAIR (σ² = 2·10^6 · 9/(2·10^6) = 9) and LAPLACE_PAIR (t = 1/200 · 400 = 2), the same embedded
# certificates
LARGE_BASE = ReleasesCase((("dg", "2000000", 1, 8),), "4", "1467/100000000", "1/1000", "9/2000000",
                          "281/62500000")
SMALL_BASE = ReleasesCase((("dl", "1/200", 1, 2),), "1/2", "3051/20000", "1/1000", "400", "1999/5")


def _law(family, scale):
    return ("--sigma2", scale) if family == "discrete-gaussian" else ("--laplace", scale)


@lru_cache(maxsize=None)
def _plain_text(family, scale, budget, epsilon):
    return _produced(("plain", *_law(family, scale), "--budget", str(budget), "--epsilons", epsilon))


@lru_cache(maxsize=None)
def _dg_text(gamma, family, scale, budget, epsilon, source=None):
    chosen = ("--width", GAME_WIDTH) if source is None else ("--radius", source[0], "--scale", source[1])
    return _produced(("dg", "--gamma", gamma, *_law(family, scale), "--budget", str(budget), "--epsilon", epsilon,
                      *chosen))


def plain_releases(releases, epsilon):
    """A fresh plain-composition/1 certificate (the producer's) of ``releases`` ((law, scale, sensitivity,
    count), scale a rational text) at the single ε ``epsilon``: the releases form, or the single-law form for
    one release of sensitivity 1 (the producer's choice, as for any such list)."""
    args = []
    for law, scale, sensitivity, count in releases:
        args += ["--release", f"{law}:{scale}" + (f":{sensitivity}" if sensitivity != 1 else "") + f"x{count}"]
    return json.loads(_produced(("plain", *args, "--epsilons", epsilon)))


def plain(family, scale, budget, epsilon):
    """A fresh plain-composition/1 certificate (the producer's) at the single ε ``epsilon``."""
    return json.loads(_plain_text(family, scale, str(budget), epsilon))


def dg(gamma, family, scale, budget, epsilon, source=None):
    """A fresh dg-interval/1 certificate (the producer's), method null, source of width 1/10000 or the
    explicit ``source`` (radius, scale)."""
    return json.loads(_dg_text(gamma, family, scale, str(budget), epsilon, source))


def embedded(case, scale, source=None):
    """The certificate of the case's route at the noise level ``scale``."""
    if case.gamma == "0":
        return plain(case.family, scale, case.budget, case.epsilon)
    return dg(case.gamma, case.family, scale, case.budget, case.epsilon, source)


def assemble(inp, key, noise, below, route, meets, misses):
    """The sealed noise/1 certificate of ``inp`` with the given answer and embedded certificates."""
    result = {"route": route, key: noise, key + "_below": below, "meets": meets, "misses": misses}
    return seal({"schema": "noise/1", "producer": PRODUCER, "input": inp, "result": result})


def releases_certificate(case):
    """The true noise/1 certificate of the releases-form ``case`` (route product-pair)."""
    meets = plain_releases(scaled(case.releases, case.factor), case.epsilon)
    misses = plain_releases(scaled(case.releases, case.below), case.epsilon)
    return assemble(case.input(), "factor", case.factor, case.below, "product-pair", meets, misses)


def certificate(case, source=None):
    """The true noise/1 certificate of ``case`` (on the exact-game route, sources of width 1/10000 or the
    explicit ``source``; a :class:`ReleasesCase` in the releases form)."""
    if isinstance(case, ReleasesCase):
        return releases_certificate(case)
    route = "product-pair" if case.gamma == "0" else "exact-game"
    return assemble(case.input(), KEY[case.family], case.noise, case.below, route,
                    embedded(case, case.noise, source), embedded(case, case.below, source))


def references():
    """Every committed noise/1 certificate under certificates/ as (name, certificate)."""
    out = []
    for path in sorted((ROOT / "certificates").rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        if '"schema":"noise/1"' in text.replace(" ", ""):
            cert = json.loads(text)
            if cert.get("schema") == "noise/1":
                out.append((str(path.relative_to(ROOT)), cert))
    return out
