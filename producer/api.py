"""The producer's Python API: one function per certificate kind.

Each function takes Python values (rationals as ``Fraction``, ``int`` or
strings such as ``"1/3"``, ``"4.91"``, ``"1e-6"``, read exactly; a float or a
numpy scalar as its shortest decimal), parses them into the kind's validated request
(``producer.kinds.<kind>.Request``, where every check and limit lives), builds
the certificate and returns it as an immutable :class:`Certificate`.  The
commands only call these functions: the bytes are the same from Python and
from the command line.

===========================  =======================  =====================================================
function                     certificate kind         what it certifies
===========================  =======================  =====================================================
:func:`finite_game`          ``finite-game/1``        exact G_C (or F_C) values of a finite law
:func:`dg_interval`          ``dg-interval/1``        an interval for Δ*_C(ε), discrete Gaussian
:func:`calibration`          ``calibration/1``        an enclosure of ε*_C(δ), discrete Gaussian
:func:`epsilon_bracket`      ``epsilon-bracket/1``    ε*_C(δ) at any C: product pair or hierarchy + witness
:func:`pmw_envelope`         ``envelope/1``           PMW envelope claims on a small instance
:func:`brace_run`            ``brace-run/1``          a BRACE retrieval run and its calibration
:func:`brace_compare`        ``brace-compare/1``      BRACE against its baselines
:func:`hierarchy_upper`      ``hierarchy/1``          an upper end of Δ*_C(ε) or ε*_C(δ), large C
:func:`deadline_witness`     ``deadline-witness/1``   lower bounds at finite deadlines T
:func:`workload`             ``workload/1``           δ(ε) of the static-workload matrix program
:func:`separation`           ``separation/1``         a lower end strictly above an upper end
:func:`calibration_lower`    ``calibration-lower/1``  a lower end ε_lo ≤ ε*_C(δ)
:func:`plain_composition`    ``plain-composition/1``  δ(ε) of the C-fold plain composition, C ≤ 1024
:func:`rate`                 ``rate/1``               the participation rate a* and the disclosed rate ρ
:func:`frontier`             ``frontier/1``           the hard-resource frontier Φ(τ) at each τ
:func:`window_request`       ``window-request/1``     Φ(τ) to width 2^-b (the rational window algorithm)
:func:`finite_budget`        ``finite-budget/1``      ε*_{C,T}(δ) ≤ ε at any finite budget C
:func:`dpsgd`                ``dpsgd/1``              ε(δ) or δ(ε) of DP-SGD (subsampled Gaussian)
:func:`privacy_curve`        ``dpsgd/1`` per point    ε(δ) of DP-SGD after each epoch (or K steps)
:func:`hierarchy_exact`      ``hierarchy-exact/1``    exact hierarchy values of a finite law, chain, gaps
:func:`block_composition`    ``block-composition/1``  block accounting beside the full computation
:func:`minimum_deletion`     ``minimum-deletion/1``   the fewest cuts removed before a model certifies δ
:func:`minimum_depth`        ``minimum-depth/1``      the smallest proof depth that certifies δ
:func:`noise`                ``noise/1``              the noise that certifies ε*_C(δ) <= ε, tight to R
:func:`noise`                ``dpsgd-calibration/1``  (DP-SGD) the noise multiplier a target (ε, δ) needs
:func:`dpsgd_steps`          ``dpsgd-calibration/1``  the most DP-SGD steps (or epochs) a target allows
:func:`dpsgd_sampling_rate`  ``dpsgd-calibration/1``  the largest sampling rate a target allows
:func:`account`              ``accounting/1``         ε(δ) or δ(ε) of a tree of dp_accounting events
===========================  =======================  =====================================================

Besides: :func:`calibrate` (ε*_C(δ) by the route that reaches C: ``calibration/1`` or
``epsilon-bracket/1``, as ``producer calibrate``), :func:`bracket` (two certificates side by side),
:func:`pmw_parameters` and :func:`pmw_sample` (the envelope's parameter proposal and one exact draw).
Bad input raises :class:`producer.errors.InputError` (a ``ValueError``; its
subclass :class:`~producer.errors.LimitError` for a size beyond a documented
limit) with a message naming the value.  ``progress``: False (silent), True
(the command line's progress lines on stderr) or a callable receiving each line.
"""

import os

from producer.certificates.sealed import Certificate
from producer.errors import InputError
from producer.names import entry, option
from producer.output import stderr_progress

__all__ = ["Certificate", "bracket", "finite_game", "dg_interval", "calibration", "pmw_envelope",
           "pmw_parameters", "pmw_sample", "brace_run", "brace_compare", "hierarchy_upper", "deadline_witness",
           "workload", "separation", "calibration_lower", "plain_composition", "rate", "frontier", "window_request",
           "finite_budget", "dpsgd", "privacy_curve", "hierarchy_exact", "block_composition", "minimum_deletion",
           "minimum_depth", "epsilon_bracket", "calibrate", "noise", "dpsgd_steps", "dpsgd_sampling_rate", "account",
           "InputError"]


def _reporter(progress, prefix=None):
    """A progress callback: ``progress`` itself if callable, stderr lines if True, None if False (or None);
    anything else (a text such as ``"no"``) is refused."""
    if callable(progress):
        return progress
    if progress is not None and not isinstance(progress, bool):
        from producer.rationals import shown
        raise InputError(f"progress: expected True, False or a callable receiving each line, got {shown(progress)}")
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


def epsilon_bracket(gamma, budget, delta, *, sigma2=None, laplace=None, width=None, releases=None, progress=False):
    """ε_lo <= ε*_C(δ) <= ε_hi at any budget (epsilon-bracket/1): γ = 0 by the product pair (C <= 1024,
    ``width`` default 10^-6), γ > 0 by the hierarchy's upper end and the target-zero witness line.
    ``releases`` (γ = 0, ``budget`` and the law None): a list of ``"law:scale[:sensitivity]xcount"`` texts
    (``"dg:9x100"``, ``"dl:2x5"``, ``"dg:4:2x20"``), composed by the product pair."""
    from producer.kinds import epsilon_bracket as kind
    request = kind.Request.from_strings(gamma, budget, delta, width=width, sigma2=sigma2, laplace=laplace,
                                        releases=releases)
    return Certificate(kind.build(request, _reporter(progress, "calibrate")))


def calibrate(gamma, sigma2, budget, delta, *, width=None, method=None, progress=False, laplace=None,
              releases=None):
    """ε*_C(δ) by the route that reaches C (what ``producer calibrate`` writes).

    ``releases`` (γ = 0 only; ``sigma2``, ``budget`` None): a list of plain releases
    (as :func:`plain_composition`), epsilon-bracket/1 by the product pair.

    γ = 0 without ``method``: epsilon-bracket/1, route product-pair.  γ > 0 (or
    an explicit ``method``) within the exact game's reach: calibration/1, as
    :func:`calibration`.  γ > 0 beyond it (C above the game's limit, or the
    game refusing the size before it is solved), discrete Gaussian, no
    ``method``: epsilon-bracket/1, route hierarchy-witness.  Only the game's size
    limits (:class:`producer.errors.ReachError`) send a request on to the
    hierarchy; any other refusal stands.  The hierarchy-witness route cannot aim
    at a width: an explicit ``width`` there is refused (before the hierarchy's
    work), never ignored.  When the hierarchy refuses the request too, the
    one-line refusal gives both reasons, the game's first.
    """
    from producer.errors import LimitError, ReachError
    from producer.game.work import MAX_BUDGET
    from producer.kinds.epsilon_bracket import width_refused
    from producer.laws import parse_gamma
    from producer.rationals import parse_integer
    if releases is not None:
        if method is not None:
            raise InputError(f"method: a list of releases is answered by the product pair (no finite game); "
                             f"omit {option('method')}")
        return epsilon_bracket(gamma, budget, delta, sigma2=sigma2, laplace=laplace, width=width,
                               releases=releases, progress=progress)
    zero = parse_gamma(gamma).is_zero
    beyond = parse_integer(budget, "budget") > MAX_BUDGET
    if method is None and (zero or beyond):
        return epsilon_bracket(gamma, budget, delta, sigma2=sigma2, laplace=laplace,
                               width=width, progress=progress)
    try:
        return calibration(gamma, sigma2, budget, delta, width=width, method=method, progress=progress,
                           laplace=laplace)
    except ReachError as error:  # the game's size limits, refused before it is solved
        if method is not None and beyond:
            raise LimitError(f"{error.reason}; without {option('method')}, {entry('calibrate')} answers beyond "
                             f"C = {MAX_BUDGET} (route {'product-pair' if zero else 'hierarchy-witness'})") from None
        if zero or method is not None or laplace is not None:
            raise
        if width is not None:  # the hierarchy cannot aim at it: refused before its work, never ignored
            raise width_refused(error.reason) from None
        report = _reporter(progress, "calibrate")
        if report:  # the reason only: its advice was about the game, and the request goes on
            report(f"the exact game does not reach this request ({error.reason}); answering it by the route "
                   f"hierarchy-witness instead")
        try:
            bracket = epsilon_bracket(gamma, budget, delta, sigma2=sigma2, progress=progress)
        except InputError as refusal:  # neither route answers: both reasons, in one line
            raise type(refusal)(f"the exact game does not reach this request ({error.reason}), and the route "
                                f"hierarchy-witness refuses it: {refusal}") from None
        return Certificate(bracket.as_dict(), reason=f"not the exact game: {error.reason}")


def plain_composition(sigma2=None, budget=None, epsilons=None, *, width=None, laplace=None, releases=None,
                      rel_width=None, progress=False):
    """Certified δ(ε) of a plain composition, total C <= 1024 (plain-composition/1).

    Noise: C = ``budget`` releases of the discrete Gaussian σ² (or ``sigma2=None,
    laplace=t``), sensitivity 1; or ``sigma2=None, budget=None, releases=[...]``, a list
    of ``"law:scale[:sensitivity]xcount"`` texts (``"dg:9x100"``, ``"dl:2x5"``,
    ``"dg:4:2x20"``; one text is one release), e.g. ``plain_composition(epsilons="1,2", releases=[...])``.
    ``epsilons`` one value, ``"a,b,c"`` or a list.  Every point
    meets the absolute ``width`` W (upper − lower <= W) or the relative ``rel_width``
    R (upper − lower <= R·lower); R is sought first when given, W is then a floor; with neither,
    R = 1/1000 and W = 10^-60 (a δ too small for R, e.g. e^-1800, comes back as [0, <= 10^-60]).
    """
    from producer.kinds import plain_composition as kind
    if epsilons is None:
        raise InputError("epsilons: give at least one ε, e.g. epsilons=\"1/2,1,2\"")
    width, rel_width = kind.default_widths(width, rel_width)
    request = kind.Request.from_strings(budget, epsilons, width, sigma2=sigma2, laplace=laplace, releases=releases,
                                        rel_width=rel_width)
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
    """One exact release of the envelope mechanism for the database ``"x1,...,xn"`` or a list (a JSON-ready
    dict)."""
    from producer.envelope.histograms import histogram_of
    from producer.envelope.sampling import sample
    from producer.kinds import envelope as kind
    from producer.rationals import parse_seed
    from producer.envelope.auditability import MAX_SAMPLER_EXPONENT, check_exponents
    instance = kind.parse_instance(universe, records, queries, rounds, hedge, select, epsilon, variant)
    check_exponents(instance, MAX_SAMPLER_EXPONENT, "the sampler's limit", "(its weights are exponentials of it)")
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
    return brackets.bracket(_certificate_dict(lower, "lower"), _certificate_dict(upper, "upper"))


def _certificate_dict(cert, name):
    """The certificate ``cert`` (a Certificate, a dict or the path of its file) as a dict; anything else is
    refused in one line naming the parameter."""
    from producer.brackets import read_certificate
    from producer.rationals import required, shown
    wanted = "a Certificate, a dict or the path of a certificate file"
    if isinstance(cert, Certificate):
        return cert.as_dict()
    if isinstance(cert, dict):
        return cert
    if isinstance(cert, (str, bytes, os.PathLike)):
        return read_certificate(cert)
    required(cert, name, wanted)
    raise InputError(f"{name}: expected {wanted}, got {shown(cert)}")


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


# ---- resource laws: rate/1, frontier/1, window-request/1, finite-budget/1 -------------

def rate(gamma, sigma2, *, period=None, progress=False):
    """The participation rate a* ∈ [lower, upper] and the disclosed rate ρ (rate/1).

    ``period`` N = B^m of the Bellman upper (default 32 at γ = 1/2); the
    lower end is the descent certificate at γ = 1/2 and None otherwise.
    """
    from producer.kinds import rate as kind
    request = kind.Request.from_strings(gamma, sigma2, period)
    return Certificate(kind.build(request, _reporter(progress, "rate")))


def frontier(gamma, sigma2, *, radius=None, taus=None, progress=False):
    """Certified enclosures of the hard-resource frontier Φ(τ) at each τ (frontier/1).

    ``radius`` M of the window (default 12); ``taus`` a list or ``"1,2,5,10"``
    (the default).
    """
    from producer.kinds import frontier as kind
    request = kind.Request.from_strings(gamma, sigma2, radius, taus)
    return Certificate(kind.build(request, _reporter(progress, "frontier")))


def window_request(gamma, sigma2, tau, bits, *, progress=False):
    """Φ(τ) to width <= 2^-bits by the rational window algorithm (window-request/1)."""
    from producer.kinds import window_request as kind
    request = kind.Request.from_strings(gamma, sigma2, tau, bits)
    return Certificate(kind.build(request, _reporter(progress, "window")))


def finite_budget(gamma, sigma2, budget, deadline, delta, *, radius=None, progress=False):
    """An upper bound ε*_{C,T}(δ) <= ε for C participations within T steps (finite-budget/1)."""
    from producer.kinds import finite_budget as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, deadline, delta, radius)
    return Certificate(kind.build(request, _reporter(progress, "finite-budget")))
# ---- dpsgd/1 -----------------------------------------------------------------------

def dpsgd(sampling_rate=None, noise_multiplier=None, steps=None, *, stages=(), delta=None, epsilons=None,
          rel_width=None, effort=None, progress=False):
    """Certified ε(δ) or δ(ε) of DP-SGD: the Poisson-subsampled Gaussian, composed (dpsgd/1).

    One stage from ``sampling_rate`` q, ``noise_multiplier`` σ and ``steps``
    T, and/or ``stages`` as ``"q:σxT"`` strings (a schedule, composed in
    order); exactly one of ``delta`` (→ ``result.epsilon_lo/epsilon_hi``) and
    ``epsilons`` (a list or ``"1,2,4"`` → ``result.points``); ``rel_width`` R
    (default 1/1000): ε_hi − ε_lo <= R·ε_hi, or upper − lower <= R·upper.
    Sensitivity 1, add/remove neighbours (δ is the larger of the two orders).
    ``effort`` N (1 to 8, default 1) opts in to N times the search's work limit (about N minutes) and to a
    certificate needing up to 8N times the auditor's budget of one file; it is recorded in ``input.effort``.
    """
    from producer.kinds.dpsgd import Request, build
    request = Request.from_strings(sampling_rate, noise_multiplier, steps, stages=stages, delta=delta,
                                   epsilons=epsilons, rel_width=rel_width, effort=effort)
    return Certificate(build(request, progress=_reporter(progress, "dpsgd")))


def privacy_curve(noise_multiplier, delta, *, sampling_rate=None, steps=None, every=None, batch_size=None,
                  dataset_size=None, epochs=None, counting=None, workers=2, progress=False):
    """ε(δ) of a DP-SGD run after each epoch (or every K steps), each point its own dpsgd/1 certificate.

    The run in training terms (``batch_size`` B, ``dataset_size`` N,
    ``epochs`` E; ``counting`` "tf-privacy", the default, or "opacus": how q
    and the steps after each epoch are counted, :mod:`producer.training`):
    a point after every ``every``-th epoch (default 1) and after the last.
    Or in steps (``sampling_rate`` q, ``steps`` T): a point every ``every``
    steps and after the last.  At most 1000 points, each checked before any
    is computed; more than three run on ``workers`` processes (0: in this
    one).  Returns a :class:`producer.training_curve.PrivacyCurve`: its
    ``certificates``, ``rows``, ``csv()``, ``table()``, ``plot(path)`` and
    ``write(folder)``.
    """
    from producer import training_curve
    workers = training_curve.check_workers(workers)
    curve = training_curve.plan(noise_multiplier, delta, sampling_rate=sampling_rate, steps=steps, every=every,
                                batch_size=batch_size, dataset_size=dataset_size, epochs=epochs, counting=counting)
    return training_curve.compute(curve, workers, _reporter(progress, "curve"))


# ---- the paper's remaining claims: hierarchy-exact/1, block-composition/1, minimum-deletion/1, minimum-depth/1 --

def hierarchy_exact(gamma, weights, budget, priors, models="G,P3,P2,Q2,P1", *, offset=None, progress=False):
    """Exact values of hierarchy games for a finite law at priors t, with their chain (hierarchy-exact/1).

    ``weights``: "1,1,1" or a list; ``priors``: "1/2" or a list; ``models``:
    "G,P3,P2,Q2,P1,U:1+2" or a list of such names (G = G_C, P<H>, Q<H> the
    fixed-selector portfolio, U:<cuts> a cut game).
    """
    from producer.kinds import hierarchy_exact as kind
    request = kind.Request.from_strings(gamma, weights, budget, priors, models, offset=offset)
    return Certificate(kind.build(request, progress=_reporter(progress, "hierarchy-exact")))


def block_composition(gamma, budget, epsilon, *, sigma2=None, weights=None, offset=None, splits=None,
                      targets=None, radius=None, scale=None, progress=False):
    """δ(ε) of T = C releases from the zero start by block accounting beside the full computation
    (block-composition/1).

    The innovations are the discrete Gaussian (``sigma2``; source ``radius``,
    ``scale``) or a finite law (``weights``).  ``splits``: "1+1+1,2+1,1+2,3"
    (default: every split of C into blocks); ``targets``: "1e-4,4e-5:6e-5".
    """
    from producer.kinds import block_composition as kind
    request = kind.Request.from_strings(gamma, budget, epsilon, sigma2=sigma2, weights=weights, offset=offset,
                                        splits=splits, targets=targets, radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "block-composition")))


def minimum_deletion(gamma, sigma2, budget, epsilon, delta, *, remove="1", upper_priors=None, lower_priors=None,
                     radius=None, scale=None, progress=False):
    """The minimum number of cuts removed from S_all for the cut-game model to certify δ at ε
    (minimum-deletion/1): a proof-function lower of every model with one cut fewer removed above δ and a
    certified upper of S_all ∖ ``remove`` below δ.  Statements about the models, not attacks on the mechanism.
    """
    from producer.kinds import minimum_deletion as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, epsilon, delta, remove=remove,
                                        upper_priors=upper_priors, lower_priors=lower_priors,
                                        radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "minimum-deletion")))


def minimum_depth(gamma, sigma2, budget, epsilon, delta, depth, *, upper_priors=None, lower_priors=None,
                  radius=None, scale=None, progress=False):
    """The smallest proof depth H whose model P_H certifies δ at ε (minimum-depth/1): a proof-function lower of
    P_{H−1} above δ and a certified upper of P_H below it.  Statements about the models, not the mechanism.
    """
    from producer.kinds import minimum_depth as kind
    request = kind.Request.from_strings(gamma, sigma2, budget, epsilon, delta, depth, upper_priors=upper_priors,
                                        lower_priors=lower_priors, radius=radius, scale=scale)
    return Certificate(kind.build(request, progress=_reporter(progress, "minimum-depth")))


def noise(epsilon, delta, budget=None, *, gamma="0", laplace=False, precision=None, releases=None,
          sampling_rate=None, steps=None, batch_size=None, dataset_size=None, epochs=None, counting=None,
          progress=False):
    """A noise on a relative grid of step ``precision`` R (default 1/1000) at which ε*_C(δ) <= ε is certified,
    with the grid point just below certified not to meet it (noise/1; a crossing, not a minimality claim):
    the discrete Gaussian's σ² (or ``laplace=True``: the discrete Laplace's t); γ = 0 by the product pair
    (C <= 1024), γ > 0 by the exact game (C <= 6).  ``releases`` (``["dg:9x100", "dl:2x5"]``, budget None,
    γ = 0): the common factor f on every release's scale (σ² -> f·σ², t -> f·t) instead.

    DP-SGD (dpsgd-calibration/1): with ``sampling_rate`` q and ``steps`` T, or ``batch_size`` B,
    ``dataset_size`` N and ``epochs`` E read by ``counting`` (``"tf-privacy"``, the default: q = B/N,
    T = ⌈E·N/B⌉; ``"opacus"``: q = 1/⌈N/B⌉, T = E·⌈N/B⌉), the noise multiplier σ on the same grid at which
    the run is (ε, δ)-DP, and σ_b < σ <= σ_b·(1 + R) certified not to be; not with the discrete-noise
    arguments (``budget``, ``laplace``, ``releases``, a non-zero ``gamma``)."""
    training = {"sampling_rate": sampling_rate, "steps": steps, "batch_size": batch_size,
                "dataset_size": dataset_size, "epochs": epochs, "counting": counting}
    given = [name for name, value in training.items() if value is not None]
    if given:
        from producer.laws import parse_gamma
        discrete = [name for name, value in (("budget", budget), ("laplace", laplace or None),
                                             ("releases", releases)) if value is not None]
        if not parse_gamma(gamma).is_zero:  # γ = 0, the default, is no feedback: DP-SGD's case too
            discrete.insert(1, "gamma")
        if discrete:
            raise InputError(f"{', '.join(option(n) for n in discrete)}: a question of discrete noise (noise/1), "
                             f"not of DP-SGD ({', '.join(option(n) for n in given)}, dpsgd-calibration/1); "
                             f"give the arguments of one of the two")
        from producer.kinds import dpsgd_calibration as kind
        request = kind.Request.from_strings(kind.NOISE, epsilon, delta, precision=precision, **training)
        return Certificate(kind.build(request, _reporter(progress, "noise")))
    from producer.kinds import noise as kind
    request = kind.Request.from_strings(budget, epsilon, delta, gamma=gamma, precision=precision, laplace=laplace,
                                        releases=releases)
    return Certificate(kind.build(request, _reporter(progress, "noise")))


def dpsgd_steps(epsilon, delta, *, noise_multiplier, sampling_rate=None, batch_size=None, dataset_size=None,
                counting=None, progress=False):
    """The largest number of DP-SGD steps T at noise multiplier σ and sampling rate q that keeps the run
    (ε, δ)-DP, with T + 1 certified not to (dpsgd-calibration/1, a crossing); with ``batch_size`` and
    ``dataset_size`` (read by ``counting``, as :func:`noise`) the largest number of epochs E instead, with
    E + 1 certified not to."""
    from producer.kinds import dpsgd_calibration as kind
    training = batch_size is not None or dataset_size is not None or counting is not None
    request = kind.Request.from_strings(kind.EPOCHS if training else kind.STEPS, epsilon, delta,
                                        sampling_rate=sampling_rate, noise_multiplier=noise_multiplier,
                                        batch_size=batch_size, dataset_size=dataset_size, counting=counting)
    return Certificate(kind.build(request, _reporter(progress, "steps")))


def dpsgd_sampling_rate(epsilon, delta, *, noise_multiplier, steps, precision=None, progress=False):
    """The largest sampling rate q (on a relative grid of step ``precision`` R, default 1/1000, capped at 1) at
    which T DP-SGD steps at noise multiplier σ are (ε, δ)-DP, with q < q_a <= min(1, q·(1 + R)) certified not
    to be (dpsgd-calibration/1, a crossing)."""
    from producer.kinds import dpsgd_calibration as kind
    request = kind.Request.from_strings(kind.RATE, epsilon, delta, noise_multiplier=noise_multiplier, steps=steps,
                                        precision=precision)
    return Certificate(kind.build(request, _reporter(progress, "sampling-rate")))


# ---- accounting/1 --------------------------------------------------------------------

def account(event, *, delta=None, epsilons=None, neighboring_relation="add_or_remove_one", rel_width=None,
            effort=None, progress=False):
    """Certified ε(δ) or δ(ε) of a tree of mechanisms written as dp_accounting events (accounting/1).

    ``event``: a dp_accounting ``DpEvent`` (dp_accounting need not be
    installed to read its JSON form) or its JSON form, a dict with
    ``class_name`` and the event's fields (docs/accounting.md §2); exactly
    one of ``delta`` (→ ``result.epsilon_lo/epsilon_hi``) and ``epsilons``
    (a list or ``"1,2,4"`` → ``result.points``); ``neighboring_relation``
    ``"add_or_remove_one"`` (default) or ``"replace_one"`` (or dp_accounting's
    ``NeighboringRelation`` member); ``rel_width`` R (default 1/1000); ``effort``
    N (1 to 8, default 1) opts in to N times the search's work limit and to a
    certificate needing up to 8N times the auditor's budget of one file
    (recorded in ``input.effort``).  Numbers
    are exact: strings, ints, Fractions, and floats as their shortest decimal
    (``0.01`` is 1/100).
    """
    from producer.kinds import accounting as kind
    request = kind.Request.from_strings(event, delta=delta, epsilons=epsilons,
                                       neighboring_relation=neighboring_relation, rel_width=rel_width, effort=effort)
    return Certificate(kind.build(request, progress=_reporter(progress, "account")))
