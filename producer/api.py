"""The producer's Python API: one function per certificate kind.

Each function takes Python values (rationals as ``Fraction``, ``int`` or
strings such as ``"1/3"``, ``"4.91"``, ``"1e-6"``, read exactly; floats are
refused), parses them into the kind's validated request
(``producer.kinds.<kind>.Request``, where every check and limit lives), builds
the certificate and returns it as an immutable :class:`Certificate`.  The
commands only call these functions: the bytes are the same from Python and
from the command line.

=========================  ========================  =========================================
function                   certificate kind          what it certifies
=========================  ========================  =========================================
:func:`finite_game`        ``finite-game/1``         exact G_C (or F_C) values of a finite law
:func:`dg_interval`        ``dg-interval/1``         an interval for Δ*_C(ε), discrete Gaussian
:func:`calibration`        ``calibration/1``         an enclosure of ε*_C(δ), discrete Gaussian
:func:`pmw_envelope`       ``envelope/1``            PMW envelope claims on a small instance
:func:`brace_run`          ``brace-run/1``           a BRACE retrieval run and its calibration
:func:`brace_compare`      ``brace-compare/1``       BRACE against its baselines
:func:`hierarchy_upper`    ``hierarchy/1``           an upper end of Δ*_C(ε) or ε*_C(δ), large C
:func:`deadline_witness`   ``deadline-witness/1``    lower bounds at finite deadlines T
:func:`workload`           ``workload/1``            δ(ε) of the static-workload matrix program
:func:`separation`         ``separation/1``          a lower end strictly above an upper end
:func:`calibration_lower`  ``calibration-lower/1``   a lower end ε_lo ≤ ε*_C(δ)
:func:`plain_composition`  ``plain-composition/1``   δ(ε) of the C-fold plain composition, C ≤ 1024
=========================  ========================  =========================================

Besides: :func:`bracket` (two certificates side by side), :func:`pmw_parameters`
and :func:`pmw_sample` (the envelope's parameter proposal and one exact draw).
Bad input raises :class:`producer.errors.InputError` (a ``ValueError``; its
subclass :class:`~producer.errors.LimitError` for a size beyond a documented
limit) with a message naming the value.  ``progress``: False (silent), True
(the command line's progress lines on stderr) or a callable receiving each line.
"""

from producer.certificates.sealed import Certificate
from producer.errors import InputError
from producer.output import stderr_progress

__all__ = ["Certificate", "bracket", "finite_game", "dg_interval", "calibration", "pmw_envelope",
           "pmw_parameters", "pmw_sample", "brace_run", "brace_compare", "hierarchy_upper", "deadline_witness",
           "workload", "separation", "calibration_lower", "plain_composition", "InputError"]


def _reporter(progress, prefix=None):
    """A progress callback: ``progress`` itself if callable, stderr lines if true, else None."""
    if callable(progress):
        return progress
    return stderr_progress(prefix) if progress else None


def finite_game(gamma, weights, budget, *, offset=None, thresholds=(), points=(), pending=None,
                curve=False, method=None, progress=False):
    """Exact values of the hidden integer feedback game for a finite law (finite-game/1).

    ``weights`` w_z of ν(z) = w_z/S on z = offset, offset+1, ... (default
    offset −(len−1)//2), a list or ``"1,2,1"``; thresholds L (G_C(1, L) and its
    hockey-stick), points (x, y), ``pending=(kP, kQ)`` for F_C instead, ``curve``;
    ``method`` "enumerate", "reduced", "compiled" or None (the smallest proved one).
    """
    from producer.kinds import finite_game as kind
    request = kind.Request.from_strings(gamma, weights, budget, offset=offset, thresholds=thresholds,
                                        points=points, pending=pending, curve=curve, method=method)
    return Certificate(kind.build(request, _reporter(progress, "game")))


def dg_interval(gamma, sigma2, budget, epsilon, *, width=None, radius=None, scale=None, method=None,
                progress=False, laplace=None):
    """A certified interval for Δ*_C(ε) (dg-interval/1): give ``width=W`` or ``radius=L, scale=S``.

    Discrete-Gaussian innovations of variance parameter σ², or with ``sigma2=None,
    laplace=t`` discrete-Laplace ones; γ = 0 is plain composition.
    """
    from producer.kinds import dg_interval as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, epsilon, width=width, radius=radius, scale=scale,
                                        method=method, laplace=laplace)
    return Certificate(kind.build(request, _reporter(progress, "dg")))


def calibration(gamma, sigma2, budget, delta, *, width=None, method=None, progress=False, laplace=None):
    """An enclosure [ε_lo, ε_hi] of ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}, narrower than ``width``
    (default 10^-6), with the two dg-interval certificates that prove it (calibration/1)."""
    from producer.kinds import calibration as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, delta, width=width, method=method, laplace=laplace)
    return Certificate(kind.build(request, _reporter(progress, "calibrate")))


def plain_composition(sigma2, budget, epsilons, *, width="1/1000000000000000", laplace=None, progress=False):
    """Certified δ(ε) of the C-fold plain composition, 1 <= C <= 1024 (plain-composition/1).

    Noise: the discrete Gaussian σ² (or ``sigma2=None, laplace=t``); ``epsilons``
    one value, ``"a,b,c"`` or a list; every point enclosed to ``width`` (default 10^-15).
    """
    from producer.kinds import plain_composition as kind
    request = kind.Request.from_strings(budget, epsilons, width, sigma2=sigma2, laplace=laplace)
    return Certificate(kind.build(request, _reporter(progress, "plain")))


def pmw_envelope(universe, records, queries, rounds, hedge, select, epsilon, *, variant="selection",
                 precision=None, progress=False):
    """Pure-DP, normaliser and error claims of the selection-only PMW envelope (envelope/1).

    ``queries``: k lists of T values in [0, 1] (or ``{"queries": ...}`` or its JSON);
    ``variant`` "selection" or "sign"; ``precision`` bits (default: 128, raised while unresolved).
    """
    from producer.kinds import envelope as kind
    request = kind.Request.from_strings(universe, records, queries, rounds, hedge, select, epsilon,
                                        variant=variant, precision=precision)
    return Certificate(kind.build(request, _reporter(progress, "envelope")))


def pmw_parameters(universe, records, query_count, epsilon, alpha):
    """The paper's suggested (γ, J, η) for target error ``alpha``, with their checks (a dict)."""
    from producer.kinds import envelope as kind
    return kind.parameters(universe, records, query_count, epsilon, alpha)


def pmw_sample(universe, records, queries, rounds, hedge, select, epsilon, database, seed, *,
               variant="selection", precision=None):
    """One exact release of the envelope mechanism for the database ``"x1,...,xn"`` (a JSON-ready dict)."""
    from producer.envelope.histograms import histogram_of
    from producer.envelope.sampling import sample
    from producer.kinds import envelope as kind
    from producer.rationals import parse_seed
    instance = kind.parse_instance(universe, records, queries, rounds, hedge, select, epsilon, variant)
    bits = kind.check_precision(precision) or kind.PRECISIONS[0]
    values = kind.database_values(database, instance)
    return sample(instance, histogram_of(values, instance.universe), parse_seed(seed), bits)


def brace_run(bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
              grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None, progress=False):
    """A BRACE private retrieval run with certified sensitivity brackets and calibration (brace-run/1).

    ``bank``: a JSON/CSV path or a list of points; ``query`` the public query; the
    radius as ``r2`` or ``beta`` (r² = 2/β); T = ``horizon``; ``gamma`` or "auto".
    An uncalibrated request raises InputError unless ``allow_uncalibrated``.
    """
    from producer.kinds import brace_run as kind
    request = kind.Request.from_strings(bank, query, horizon=horizon, kappa=kappa, epsilon=epsilon, delta=delta,
                                        seed=seed, r2=r2, beta=beta, gamma=gamma, grid_bits=grid_bits,
                                        noise_multiplier=noise_multiplier, allow_uncalibrated=allow_uncalibrated,
                                        bank_name=bank_name)
    return Certificate(kind.build(request, _reporter(progress)))


def brace_compare(bank, query, *, horizon, kappa, epsilon, delta, seed, r2=None, beta=None, gamma="auto",
                  grid_bits=None, noise_multiplier=1, allow_uncalibrated=False, bank_name=None, progress=False):
    """BRACE against the naive, global-noise and clean-endpoint baselines (brace-compare/1); arguments
    as :func:`brace_run`."""
    from producer.kinds import brace_compare as kind
    request = kind.Request.from_strings(bank, query, horizon=horizon, kappa=kappa, epsilon=epsilon, delta=delta,
                                        seed=seed, r2=r2, beta=beta, gamma=gamma, grid_bits=grid_bits,
                                        noise_multiplier=noise_multiplier, allow_uncalibrated=allow_uncalibrated,
                                        bank_name=bank_name)
    return Certificate(kind.build(request, _reporter(progress)))


def bracket(lower, upper):
    """The two-sided bracket lo ≤ ε*_C(δ) ≤ hi of two certificates (Certificates, dicts or paths) for the
    same (γ, σ², C, δ): a :class:`producer.brackets.Bracket`; it proves nothing itself."""
    from producer import brackets

    def as_dict(cert):
        if isinstance(cert, Certificate):
            return cert.as_dict()
        return cert if isinstance(cert, dict) else brackets.read_certificate(cert)

    return brackets.bracket(as_dict(lower), as_dict(upper))


def hierarchy_upper(gamma, sigma2, budget, *, depth=None, cuts=None, delta=None, epsilon=None, priors=None,
                    logit_range=None, radius=None, source_scale=None, scale_bits=None, grid_bits=None,
                    progress=False):
    """A certified upper bound through the proof hierarchy P_H (``depth=H``) or a cut game U_S (``cuts=S``),
    for ``delta=δ`` (an ε_hi >= ε*_C(δ)) or ``epsilon=ε`` (a bound on Δ*_C(ε)) (hierarchy/1)."""
    from producer.kinds import hierarchy as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, depth=depth, cuts=cuts, delta=delta, epsilon=epsilon,
                                        priors=priors, logit_range=logit_range, radius=radius,
                                        source_scale=source_scale, scale_bits=scale_bits, grid_bits=grid_bits)
    return Certificate(kind.build(request, _reporter(progress, "hierarchy")))


def deadline_witness(gamma, sigma2, epsilon, radius, scale, deadlines, *, budget, threshold_denominator="1e30",
                     reading="fixed", reference=False, progress=False):
    """Lower bounds H_{e^ε}(P_T‖Q_T) ≥ LB_T of the physical DG program at deadlines T (deadline-witness/1);
    ``reading`` "fixed" or "max", ``reference=True`` embeds a dg-interval/1 upper end and the ratios."""
    from producer.kinds import deadline_witness as kind
    request = kind.Request.from_strings(gamma, sigma2, epsilon, radius, scale, deadlines, budget=budget,
                                        threshold_denominator=threshold_denominator, reading=reading,
                                        reference=reference)
    return Certificate(kind.build(request, _reporter(progress, "deadline")))


def workload(*, dimension=100, diagonal=15, ones=1, sigma2=1444, scale=2**33, epsilon=2, theta=6, identity=True):
    """An upper bound on δ(ε) of the matrix program A = d·I + e·J with finite DG draws (workload/1); the
    defaults are the published static workload, ``identity=True`` adds the G.6 identity checks."""
    from producer.kinds import workload as kind
    request = kind.Request.from_strings(dimension, diagonal, ones, sigma2, scale, epsilon, theta, identity)
    return Certificate(kind.build(request))


def separation(claim, *, separator=None):
    """A certified strict separation at the published parameters (separation/1); ``claim`` one of
    ``producer.kinds.separation.PUBLISHED_CLAIMS``, ``separator`` overrides s where the claim has one."""
    from producer.kinds import separation as kind
    return Certificate(kind.build(kind.Request.from_strings(claim, separator)))


def calibration_lower(claim, *, delta=None, budget=None, sigma2=None, gamma=None, radius=None, scale=None,
                      priors=None, progress=False):
    """A certified lower end ε_lo ≤ ε*_C(δ) from a physical witness line (calibration-lower/1): claim
    "capped-preparation" (the fixed K.2 program; only ``delta`` may change) or "target-zero" (line trees)."""
    from producer.kinds import calibration_lower as kind
    request = kind.Request.from_strings(claim, delta=delta, budget=budget, sigma2=sigma2, gamma=gamma,
                                        radius=radius, scale=scale, priors=priors)
    return Certificate(kind.build(request, _reporter(progress, "calibration-lower")))
