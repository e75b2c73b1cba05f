"""Side by side: the certified δ = Δ*_C(ε) against dp_accounting and OpenDP (``make compare``).

    python bench/compare.py [--out docs/comparison.md] [--figure docs/figures/comparison.png] [--quick]

For the discrete Gaussian with σ² ∈ {1, 4, 9} and C ∈ {1, 2, 3, 8} at several ε
(and the discrete Laplace at a few scales, when the producer has it) this
writes one table row per (law, C, ε):

* **certified plain**: the producer's certified interval [lower, upper] for the
  hockey-stick divergence δ(ε) of the exact adaptive C-fold composition of the
  law's shift-by-1 pair (``producer plain``: the product pair's privacy-loss
  distribution, any C, all ε of one (law, C) in one certificate), checked
  again here by the auditor;
* **PLD pess. / PLD opt.**: dp_accounting's privacy-loss-distribution accountant
  for the same discrete mechanism (sensitivity 1, C-fold self-composition),
  pessimistic estimate (meant to be an upper bound) and optimistic estimate
  (meant to be a lower bound);
* **RDP**: dp_accounting's RDP accountant with the Gaussian's RDP curve (the
  discrete Gaussian's Rényi divergences are at most the continuous Gaussian's,
  so this is an upper bound for it), composed C times and converted to δ(ε);
* **OpenDP**: OpenDP's discrete Gaussian (``make_gaussian`` on integers, a
  zCDP measurement with ρ = 1/(2σ²)), composed C times and converted to
  (ε, δ) by ``make_zCDP_to_approxDP`` (an upper bound).

Each peer figure is marked where it lies on the wrong side of the certified
interval: an upper bound below the certified lower end, or a lower bound above
the certified upper end (decided exactly: the peer's float is converted to the
rational it denotes).  That is a finding about the peer, not a failure here.

A second table (issue 13, item 5): the hidden-feedback mechanism (γ = 1/3)
next to the plain value at the same σ², C, ε - what ignoring the feedback
would claim - and (issue 23) what block accounting would claim for a
program of T = C releases from the zero start: each release's exact
dominating pair over every state it can start in, composed adaptively
(``producer blocks``, block-composition/1), beside the exact value of that
program (the full computation of the same certificate).
A third (issue 24): DP-SGD, the certified ε(δ) of the
Poisson-subsampled Gaussian (``producer dpsgd``) beside dp_accounting's PLD
(pessimistic and optimistic) and RDP accountants and prv_accountant.
A fourth, one table per mechanism family of ``accounting/1`` (the Laplace
mechanism, Poisson-subsampled Laplace, randomized response, a mixture of
Gaussians, the Poisson-subsampled Gaussian under replace-one): the certified
ε(δ) (``producer.account``) beside the same peers where they answer, with CPU
seconds (``time.process_time``).  ``--only families`` computes that section
alone and puts it into the existing ``--out`` document in place of its old
copy (the other sections take far longer; ``make compare-families``).  Floats
here only display and draw; timings never decide.
"""

import argparse
import math
import os
import sys
from functools import partial
import time
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from auditor import api as auditor_api  # noqa: E402
from producer import api  # noqa: E402
from producer.errors import InputError  # noqa: E402
from bench.dp_events import dp_accounting_event, neighboring_relation  # noqa: E402

SIGMA2S = ["1", "4", "9"]
BUDGETS = [1, 2, 3, 8]
EPSILONS = ["1/2", "1", "2", "4"]
LAPLACE_SCALES = ["1", "2", "4"]
HIDDEN_GAMMA = "1/3"
HIDDEN_BUDGETS = [1, 2, 3]  # the hidden-feedback game refuses C > 6 (producer.game.work.MAX_BUDGET)
WIDTH = "1/100000000"            # the hidden-feedback game route (producer dg)
PRODUCT_WIDTH = "1/" + "1" + "0" * 40   # the plain product route (producer plain): resolves tiny δ too


class Cell:
    """A number (float for display, Fraction for exact comparison) with its time, or why it is missing."""

    def __init__(self, value=None, seconds=None, missing=None, lower=None, upper=None, audit=None,
                 audit_seconds=None):
        self.value, self.seconds, self.missing = value, seconds, missing
        self.lower, self.upper, self.audit = lower, upper, audit
        self.audit_seconds = audit_seconds


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def cpu_timed(function):
    """(value, CPU seconds of this process): the measure of the mechanism-family tables."""
    start = time.process_time()
    value = function()
    return value, time.process_time() - start


# ---- the certified values ---------------------------------------------------------------

def certified(gamma, sigma2, budget, epsilon, laplace=None):
    """The producer's certified interval for δ(ε), re-verified by the auditor (Cell with lower/upper)."""
    kwargs = {} if laplace is None else {"laplace": laplace}
    try:
        cert, seconds = timed(lambda: api.dg_interval(gamma, sigma2, budget, epsilon, width=WIDTH, **kwargs))
    except (InputError, TypeError) as exc:
        return Cell(missing=f"not certified: {str(exc).splitlines()[0][:120]}")
    report = auditor_api.verify_certificate(cert.to_json())
    if report.status == 1:  # FAIL: a false claim; never shown as a certified value
        return Cell(missing="auditor: FAIL")
    interval = cert.result["interval"]
    lower, upper = Fraction(interval["lower"]), Fraction(interval["upper"])
    return Cell(value=(interval["lower_display"], interval["upper_display"]), seconds=seconds,
                lower=lower, upper=upper, audit=report.outcome)


def certified_plain(budget, epsilons, sigma2=None, laplace=None):
    """{ε: Cell} from one plain-composition/1 certificate for all ``epsilons``, re-verified by the auditor.

    Each cell's time is the whole certificate's (all ε at once)."""
    try:
        cert, seconds = timed(lambda: api.plain_composition(sigma2, budget, ",".join(epsilons),
                                                            width=PRODUCT_WIDTH, laplace=laplace))
    except (InputError, TypeError) as exc:
        return {e: Cell(missing=f"not certified: {str(exc).splitlines()[0][:120]}") for e in epsilons}
    report = auditor_api.verify_certificate(cert.to_json())
    if report.status == 1:  # FAIL: a false claim; never shown as a certified value
        return {e: Cell(missing="auditor: FAIL") for e in epsilons}
    return {point["epsilon"]: Cell(value=(point["lower_display"], point["upper_display"]), seconds=seconds,
                                   lower=Fraction(point["lower"]), upper=Fraction(point["upper"]),
                                   audit=report.outcome)
            for point in cert.result["points"]}


# ---- the peers ----------------------------------------------------------------------------

def _peer(function, *args, clock=timed):
    """A peer's cell: function(*args) timed by ``clock``, or why it has no value."""
    try:
        value, seconds = clock(lambda: function(*args))
    except ImportError as exc:
        return Cell(missing=f"not installed ({exc.name})")
    except Exception as exc:  # a peer's failure is reported, not raised
        return Cell(missing=str(exc)[:80] if isinstance(exc, LookupError) else
                    f"{type(exc).__name__}: {str(exc)[:80]}")
    return Cell(value=value, seconds=seconds)


def pld_delta(law, parameter, budget, epsilon, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    if law == "dg":
        one = pld.from_discrete_gaussian_mechanism(math.sqrt(float(Fraction(parameter))), sensitivity=1,
                                                   pessimistic_estimate=pessimistic)
    else:  # discrete Laplace L_t(n) ∝ e^{-|n|/t}: dp_accounting's parameter is 1/t
        one = pld.from_discrete_laplace_mechanism(1 / float(Fraction(parameter)), sensitivity=1,
                                                  pessimistic_estimate=pessimistic)
    return one.self_compose(budget).get_delta_for_epsilon(float(Fraction(epsilon)))


def rdp_delta(sigma2, budget, epsilon):
    import dp_accounting
    from dp_accounting.rdp import RdpAccountant
    accountant = RdpAccountant()
    accountant.compose(dp_accounting.GaussianDpEvent(math.sqrt(float(Fraction(sigma2)))), budget)
    return accountant.get_delta(float(Fraction(epsilon)))


def opendp_delta(sigma2, budget, epsilon):
    import opendp.prelude as dp
    dp.enable_features("contrib")
    one = dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int),
                             scale=math.sqrt(float(Fraction(sigma2))))
    composed = dp.c.make_composition([one] * budget)
    return dp.c.make_zCDP_to_approxDP(composed).map(1).delta(float(Fraction(epsilon)))


def opendp_laplace(scale, budget, epsilon):
    """OpenDP's discrete Laplace (make_laplace on integers, pure ε₀ = 1/t), C-fold: δ(ε) = 0 for ε >= C·ε₀."""
    import opendp.prelude as dp
    dp.enable_features("contrib")
    one = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=float(Fraction(scale)))
    eps0 = dp.c.make_composition([one] * budget).map(1)
    if float(Fraction(epsilon)) >= eps0:
        return 0.0
    raise LookupError(f"no δ below ε₀ = {eps0:g} (pure DP)")


def wrong_side(peer, cert, upper_bound):
    """A note when the peer's float (read exactly) is on the wrong side of the certified interval."""
    if peer.value is None or cert.lower is None:
        return ""
    exact = Fraction(peer.value)
    if upper_bound and exact < cert.lower:
        return " **below certified**"
    if not upper_bound and exact > cert.upper:
        return " **above certified**"
    return ""


# ---- the tables ---------------------------------------------------------------------------

def scientific(value, direction, digits=10):
    """An exact Fraction in scientific notation with ``digits`` significant digits, rounded down (−1) or up (+1)."""
    if value == 0:
        return "0"
    exponent = len(str(value.numerator // value.denominator)) - 1 if value >= 1 else \
        -len(str(value.denominator // value.numerator))
    while Fraction(10) ** exponent > value:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= value:
        exponent += 1
    scaled = value / Fraction(10) ** (exponent - digits + 1)
    mantissa = scaled.numerator // scaled.denominator
    if direction > 0 and mantissa != scaled:
        mantissa += 1
    text = str(mantissa)
    if len(text) > digits:  # rounding up reached the next power of ten
        text, exponent = text[:digits], exponent + 1
    return f"{text[0]}.{text[1:]}e{exponent:+03d}"


def show_width(text):
    """A width for the prose: ``1e-40`` for 1/10^40 (never forty zeros), else the exact fraction."""
    value = Fraction(text)
    digits = str(value.denominator)
    if value.numerator == 1 and digits == "1" + "0" * (len(digits) - 1):
        return f"1e-{len(digits) - 1}"
    return str(value)


def show(cell, note=""):
    if cell.missing:
        return cell.missing
    if isinstance(cell.value, tuple):
        audit = "" if cell.audit == "OK" else f" ({cell.audit})" if cell.audit == "not audited yet" \
            else f" (auditor: {cell.audit})"
        if cell.lower is not None:
            return f"[{scientific(cell.lower, -1)}, {scientific(cell.upper, +1)}]{audit}"
        return f"[{cell.value[0]}, {cell.value[1]}]{audit}"
    return f"{cell.value:.6e}{note}"


def show_time(cell):
    return "" if cell.seconds is None else f"{cell.seconds:.3f}"


def plain_rows(quick):
    rows = []
    sigma2s, budgets, epsilons = (SIGMA2S[-1:], [1, 2, 8], EPSILONS[:2]) if quick else (SIGMA2S, BUDGETS, EPSILONS)
    for sigma2 in sigma2s:
        for budget in budgets:
            print(f"compare: DG σ² = {sigma2}, C = {budget}", file=sys.stderr, flush=True)
            certs = certified_plain(budget, epsilons, sigma2=sigma2)
            for epsilon in epsilons:
                cert = certs[epsilon]
                peers = {
                    "pld_pess": _peer(pld_delta, "dg", sigma2, budget, epsilon, True),
                    "pld_opt": _peer(pld_delta, "dg", sigma2, budget, epsilon, False),
                    "rdp": _peer(rdp_delta, sigma2, budget, epsilon),
                    "opendp": _peer(opendp_delta, sigma2, budget, epsilon),
                }
                rows.append((f"DG σ² = {sigma2}", sigma2, budget, epsilon, cert, peers))
    return rows


def laplace_rows(quick):
    rows = []
    for scale in (LAPLACE_SCALES[:1] if quick else LAPLACE_SCALES):
        for budget in ([1, 2] if quick else [1, 2, 8]):
            print(f"compare: DL t = {scale}, C = {budget}", file=sys.stderr, flush=True)
            certs = certified_plain(budget, EPSILONS[:3], laplace=scale)
            for epsilon in EPSILONS[:3]:
                cert = certs[epsilon]
                peers = {
                    "pld_pess": _peer(pld_delta, "dl", scale, budget, epsilon, True),
                    "pld_opt": _peer(pld_delta, "dl", scale, budget, epsilon, False),
                    "rdp": Cell(missing="n/a"),
                    "opendp": _peer(opendp_laplace, scale, budget, epsilon),
                }
                rows.append((f"DL t = {scale}", scale, budget, epsilon, cert, peers))
    return rows


def hidden_rows(quick, plain):
    """(σ², C, ε, certified hidden-feedback cell, plain cell) for C within the game's budget limit."""
    plain_by_key = {(s, c, e): cert for _label, s, c, e, cert, _peers in plain}
    rows = []
    for sigma2 in (SIGMA2S[-1:] if quick else SIGMA2S):
        for budget in ([1, 2] if quick else HIDDEN_BUDGETS):
            for epsilon in (EPSILONS[:2] if quick else EPSILONS):
                print(f"compare: hidden feedback σ² = {sigma2}, C = {budget}, ε = {epsilon}", file=sys.stderr,
                      flush=True)
                hidden = certified(HIDDEN_GAMMA, sigma2, budget, epsilon)
                plain_cell = (plain_by_key.get((sigma2, budget, epsilon))
                              or certified_plain(budget, [epsilon], sigma2=sigma2)[epsilon])
                rows.append((sigma2, budget, epsilon, hidden, plain_cell, *block_cells(sigma2, budget, epsilon)))
    return rows


def block_cells(sigma2, budget, epsilon):
    """(block accounting cell, exact T = C releases cell) from one block-composition/1 certificate."""
    singles = "+".join(["1"] * budget)
    splits = singles if budget == 1 else f"{singles},{budget}"
    try:
        cert, seconds = timed(lambda: api.block_composition(HIDDEN_GAMMA, budget, epsilon, sigma2=sigma2,
                                                            splits=splits))
    except (InputError, TypeError) as exc:
        missing = Cell(missing=f"not certified: {str(exc).splitlines()[0][:120]}")
        return missing, missing
    report = auditor_api.verify_certificate(cert.to_json())
    if report.status == 1:  # FAIL: a false claim; never shown as a certified value
        return Cell(missing="auditor: FAIL"), Cell(missing="auditor: FAIL")
    block = cert.result["methods"][0]
    deadline = cert.result["deadline"]
    bound = Fraction(block["bound"])
    # until the auditor checks block-composition/1 it answers MALFORMED "no checks for kind": say so plainly
    audit = "not audited yet" if "no checks for kind" in (report.as_dict().get("error") or "") else report.outcome
    return (Cell(value=(None, block["bound_display"]), seconds=seconds, upper=bound, audit=audit),
            Cell(value=(deadline["lower"], deadline["upper"]), seconds=seconds, lower=Fraction(deadline["lower"]),
                 upper=Fraction(deadline["upper"]), audit=audit))


def peer_table(rows):
    lines = ["| law | C | ε | certified δ(ε) (plain, γ = 0) | s | PLD pess. | s | PLD opt. | s | RDP | s "
             "| OpenDP | s |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, _param, budget, epsilon, cert, peers in rows:
        cells = []
        for name, upper in (("pld_pess", True), ("pld_opt", False), ("rdp", True), ("opendp", True)):
            cells += [show(peers[name], wrong_side(peers[name], cert, upper)), show_time(peers[name])]
        lines.append(f"| {label} | {budget} | {epsilon} | {show(cert)} | {show_time(cert)} | "
                     + " | ".join(cells) + " |")
    return lines


def show_bound(cell):
    """A certified upper bound alone: ``≤ x``."""
    if cell.missing:
        return cell.missing
    audit = "" if cell.audit == "OK" else f" ({cell.audit})" if cell.audit == "not audited yet" \
        else f" (auditor: {cell.audit})"
    return f"≤ {scientific(cell.upper, +1)}{audit}"


def hidden_table(rows):
    lines = [f"| σ² | C | ε | certified δ(ε), hidden feedback γ = {HIDDEN_GAMMA} | s | plain δ(ε) (feedback ignored) "
             "| s | plain understates by at least | block accounting, T = C releases | exact δ(ε), T = C releases "
             "from 0 | s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for sigma2, budget, epsilon, hidden, plain, block, deadline in rows:
        gap = ""
        if hidden.lower is not None and plain.upper is not None:
            gap = f"{float(hidden.lower - plain.upper):.3e}" if hidden.lower > plain.upper else "(intervals overlap)"
        lines.append(f"| {sigma2} | {budget} | {epsilon} | {show(hidden)} | {show_time(hidden)} | {show(plain)} | "
                     f"{show_time(plain)} | {gap} | {show_bound(block)} | {show(deadline)} | {show_time(block)} |")
    return lines


def excess(peer, cert):
    """(gap, relative gap): how far the peer's float lies outside the certified interval."""
    exact = Fraction(peer.value)
    gap = cert.lower - exact if exact < cert.lower else exact - cert.upper
    scale = max(cert.upper, exact)
    return gap, (gap / scale if scale else Fraction(0))


FLOAT_ROUNDING = Fraction(1, 10 ** 12)   # a relative excess below this is the peer's float rounding


def findings(rows):
    real, rounding = [], []
    for label, _param, budget, epsilon, cert, peers in rows:
        for name, upper, what in (("pld_pess", True, "PLD pessimistic"), ("pld_opt", False, "PLD optimistic"),
                                  ("rdp", True, "RDP"), ("opendp", True, "OpenDP")):
            note = wrong_side(peers[name], cert, upper)
            if not note:
                continue
            gap, relative = excess(peers[name], cert)
            line = (f"- {label}, C = {budget}, ε = {epsilon}: {what} gives {float(peers[name].value)!r},"
                    f"{note.replace('**', '')} interval {show(cert)}: outside by {float(gap):.2e} "
                    f"(relative {float(relative):.1e}).")
            (rounding if relative < FLOAT_ROUNDING else real).append((what, line))
    out = [line for _what, line in real] or ["- none beyond float rounding."]
    if rounding:
        names = sorted({what for what, _line in rounding})
        out += ["", f"In {len(rounding)} more rows a peer figure ({', '.join(names)}) lies on the wrong side by "
                "less than 10^-12 relative: the rounding of its floating-point arithmetic, where its "
                "discretisation is exact (e.g. σ² = 1, whose privacy losses are multiples of 1/2). These rows "
                "are marked in the table but are not findings about the method."]
    return out


# ---- DP-SGD (issue 24) ---------------------------------------------------------------------

DPSGD_RATES = ["0.001", "0.01", "0.1"]
DPSGD_NOISES = ["0.8", "1", "2"]
DPSGD_STEPS = [100, 1000, 10000]
DPSGD_DELTAS = ["1e-5", "1e-6"]
DPSGD_WIDTH = "1/1000"
# (key, label, kind): "upper" floats are meant to be upper bounds on ε(δ), "lower" ones lower bounds
DPSGD_PEERS = [("pld_pess", "PLD pess.", "upper"), ("pld_opt", "PLD opt.", "lower"), ("rdp", "RDP", "upper"),
               ("prv_lo", "PRV lower", "lower"), ("prv", "PRV estimate", "estimate"), ("prv_hi", "PRV upper", "upper")]


def certified_dpsgd(q, sigma, steps, delta):
    """The producer's certified [ε_lo, ε_hi] (Cell with lower/upper), re-verified by the auditor."""
    try:
        cert, seconds = timed(lambda: api.dpsgd(q, sigma, steps, delta=delta, rel_width=DPSGD_WIDTH))
    except (InputError, TypeError) as exc:
        return Cell(missing=f"not certified: {str(exc).splitlines()[0][:120]}")
    report = auditor_api.verify_certificate(cert.to_json())
    if report.status == 1:  # FAIL: a false claim; never shown as a certified value
        return Cell(missing="auditor: FAIL")
    res = cert.result
    return Cell(value=(res["epsilon_lo_display"], res["epsilon_hi_display"]), seconds=seconds,
                lower=Fraction(res["epsilon_lo"]), upper=Fraction(res["epsilon_hi"]), audit=report.outcome)


def pld_epsilon(q, sigma, steps, delta, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    one = pld.from_gaussian_mechanism(float(sigma), sampling_prob=float(q), pessimistic_estimate=pessimistic,
                                      use_connect_dots=pessimistic)
    return one.self_compose(steps).get_epsilon_for_delta(float(delta))


def rdp_epsilon(q, sigma, steps, delta):
    import dp_accounting
    from dp_accounting.rdp import RdpAccountant
    accountant = RdpAccountant()
    event = dp_accounting.PoissonSampledDpEvent(float(q), dp_accounting.GaussianDpEvent(float(sigma)))
    accountant.compose(event, steps)
    return accountant.get_epsilon(float(delta))


def prv_epsilons(q, sigma, steps, delta):
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    accountant = PRVAccountant(prvs=PoissonSubsampledGaussianMechanism(sampling_probability=float(q),
                                                                       noise_multiplier=float(sigma)),
                               max_self_compositions=steps, eps_error=0.01, delta_error=float(delta) / 1000)
    return accountant.compute_epsilon(delta=float(delta), num_self_compositions=steps)


def dpsgd_rows(quick):
    rows = []
    rates, noises, steps_list = (DPSGD_RATES[1:2], DPSGD_NOISES[1:2], DPSGD_STEPS[:2]) if quick else \
        (DPSGD_RATES, DPSGD_NOISES, DPSGD_STEPS)
    for q in rates:
        for sigma in noises:
            for steps in steps_list:
                for delta in DPSGD_DELTAS:
                    print(f"compare: DP-SGD q = {q}, σ = {sigma}, T = {steps}, δ = {delta}", file=sys.stderr,
                          flush=True)
                    cert = certified_dpsgd(q, sigma, steps, delta)
                    prv = _peer(partial(prv_epsilons, q, sigma, steps, delta))
                    peers = {"pld_pess": _peer(partial(pld_epsilon, q, sigma, steps, delta, True)),
                             "pld_opt": _peer(partial(pld_epsilon, q, sigma, steps, delta, False)),
                             "rdp": _peer(partial(rdp_epsilon, q, sigma, steps, delta))}
                    for i, key in enumerate(("prv_lo", "prv", "prv_hi")):
                        peers[key] = prv if prv.missing else Cell(value=prv.value[i], seconds=prv.seconds)
                    rows.append((q, sigma, steps, delta, cert, peers))
    return rows


def dpsgd_note(peer, cert, kind):
    """Where a peer's ε lies against the certified [ε_lo, ε_hi] (decided exactly on the float's rational)."""
    if peer.value is None or cert.lower is None:
        return ""
    exact = Fraction(peer.value)
    if kind == "upper" and exact < cert.lower:
        return " **below certified**"
    if kind == "lower" and exact > cert.upper:
        return " **above certified**"
    if kind == "estimate" and not cert.lower <= exact <= cert.upper:
        return " *outside*"
    return ""


def show_epsilon(cell, note=""):
    if cell.missing:
        return cell.missing
    if isinstance(cell.value, tuple):
        return f"[{cell.value[0]}, {cell.value[1]}]"
    return f"{cell.value:.6f}{note}"


def dpsgd_table(rows):
    head = " | ".join(f"{label} | s" for _k, label, _kind in DPSGD_PEERS if _k != "prv_lo" and _k != "prv_hi")
    lines = [f"| q | σ | T | δ | certified ε(δ) | s | {head} | PRV [lower, upper] |",
             "|---|---|---|---|---|---|" + "---|---|" * 4 + "---|"]
    for q, sigma, steps, delta, cert, peers in rows:
        cells = []
        for key, _label, kind in DPSGD_PEERS:
            if key in ("prv_lo", "prv_hi"):
                continue
            cells += [show_epsilon(peers[key], dpsgd_note(peers[key], cert, kind)), show_time(peers[key])]
        lo, hi = peers["prv_lo"], peers["prv_hi"]
        prv = lo.missing or (f"[{show_epsilon(lo, dpsgd_note(lo, cert, 'lower'))}, "
                             f"{show_epsilon(hi, dpsgd_note(hi, cert, 'upper'))}]")
        lines.append(f"| {q} | {sigma} | {steps} | {delta} | {show_epsilon(cert)} | {show_time(cert)} | "
                     + " | ".join(cells) + f" | {prv} |")
    return lines


def dpsgd_findings(rows):
    out = []
    for q, sigma, steps, delta, cert, peers in rows:
        for key, label, kind in DPSGD_PEERS:
            note = dpsgd_note(peers[key], cert, kind)
            if note:
                out.append(f"- q = {q}, σ = {sigma}, T = {steps}, δ = {delta}: {label} ε = {peers[key].value!r}"
                           f"{note.replace('**', '').replace('*', '')} [{cert.value[0]}, {cert.value[1]}].")
    missing = sum(1 for row in rows if row[4].missing)
    if missing:
        out.append(f"- {missing} rows have no certified interval (the reason is in the table).")
    return out or ["- none: every peer float lies on its side of the certified interval."]


def versions():
    out = []
    for name, module in (("dp-accounting", "dp_accounting"), ("opendp", "opendp"),
                         ("prv-accountant", "prv_accountant")):
        try:
            from importlib.metadata import version
            __import__(module)
            out.append(f"{name} {version(name)}")
        except Exception:
            out.append(f"{name}: not installed (pip could not install it here; its columns say so)")
    return ", ".join(out)


def dpsgd_section(rows):
    if not rows:
        return []
    return [
        "## DP-SGD: certified ε(δ) against the accountants",
        "",
        "T steps of the Poisson-subsampled Gaussian (sampling rate q, noise multiplier σ, sensitivity 1, "
        "add/remove neighbours). **certified ε(δ)**: `producer dpsgd --sampling-rate q --noise-multiplier σ "
        f"--steps T --delta δ --rel-width {DPSGD_WIDTH}`: ε(δ) lies in [ε_lo, ε_hi], connect-the-dots above and "
        "bucketed loss events below, integer masses with directed rounding and exact convolutions "
        "(docs/dpsgd.md; each certificate is then re-verified by the auditor by its own route, not timed). "
        "**PLD pess.**: dp_accounting `from_gaussian_mechanism(σ, sampling_prob=q)` (connect-the-dots, default "
        "discretisation), `self_compose(T)`, `get_epsilon_for_delta(δ)`, meant as an upper bound; **PLD opt.**: "
        "the same with `pessimistic_estimate=False, use_connect_dots=False` (privacy buckets), meant as a lower "
        "bound; **RDP**: `RdpAccountant` with `PoissonSampledDpEvent(q, GaussianDpEvent(σ))` composed T times, "
        "an upper bound; **PRV**: prv_accountant `PRVAccountant` (`eps_error=0.01`, `delta_error=δ/1000`), "
        "`compute_epsilon` gives a lower bound, an estimate and an upper bound (all floats). "
        "**below certified**: an upper bound below ε_lo; **above certified**: a lower bound above ε_hi; "
        "*outside*: an estimate outside the interval. Decided exactly on the floats' rationals.",
        "",
        *dpsgd_table(rows),
        "",
        "### Findings: peer figures outside the certified interval",
        "",
        *dpsgd_findings(rows),
        "",
    ]


# ---- mechanism families (accounting/1) -----------------------------------------------------

FAMILY_DELTA = "1e-5"
FAMILY_WIDTH = "1/1000"
ADD_OR_REMOVE, REPLACE = "add_or_remove_one", "replace_one"
FAMILIES_HEADING = "## Mechanism families: certified ε(δ) against the accountants"
# (key, heading, the page of the family's dominating pair)
FAMILIES = [
    ("laplace", "Laplace mechanism (`LaplaceDpEvent`, add/remove)", "mechanisms/laplace.md"),
    ("poisson_laplace", "Poisson-subsampled Laplace (add/remove)", "mechanisms/poisson-subsampling.md"),
    ("randomized_response", "Randomized response (`RandomizedResponseDpEvent`, k = 2, replace-one)",
     "mechanisms/randomized-response.md"),
    ("mixture", "Mixture of Gaussians (`MixtureOfGaussiansDpEvent`, add/remove)",
     "mechanisms/mixture-of-gaussians.md"),
    ("replace_gaussian", "Poisson-subsampled Gaussian under replace-one", "mechanisms/poisson-subsampling.md"),
    ("gaussian_replace", "Gaussian mechanism under replace-one (`GaussianDpEvent`, sensitivity 2 between two "
     "records; PLD: `from_gaussian_mechanism(…, neighboring_relation=REPLACE_ONE)`)", "mechanisms/gaussian.md"),
    ("discrete_laplace", "Discrete Laplace (`DiscreteLaplaceDpEvent`, add/remove; PLD: "
     "`from_discrete_laplace_mechanism`)", "mechanisms/discrete.md"),
    ("discrete_gaussian", "Discrete Gaussian (`DiscreteGaussianDpEvent`, this project's event, add/remove; PLD: "
     "`from_discrete_gaussian_mechanism`)", "mechanisms/discrete.md"),
    ("without_replacement", "Sampling without replacement of a Gaussian (`SampledWithoutReplacementDpEvent`, "
     "replace-one; RDP at σ/2, its convention's comparable figure)", "mechanisms/poisson-subsampling.md"),
    ("composition", "A composition of Gaussian events in one Poisson sampling (add/remove; PLD: its single "
     "Gaussian of 1/σ² = Σ 1/σ_i², since dp_accounting's PLD refuses the tree)",
     "mechanisms/poisson-subsampling.md"),
    ("poisson_laplace_replace", "Poisson-subsampled Laplace under replace-one (dp_accounting 0.6 accounts it "
     "under `REPLACE_SPECIAL` only)", "mechanisms/poisson-subsampling.md"),
    ("composition_replace", "The same composition under replace-one (PLD: its single Gaussian, replace-one; "
     "dp_accounting's PLD and RDP refuse the tree)", "mechanisms/poisson-subsampling.md"),
    ("composition_without_replacement", "A composition of Gaussian events on fixed-size batches "
     "(replace-one; RDP at σ_i/2, its convention's comparable figure; PLD refuses the tree)",
     "mechanisms/poisson-subsampling.md"),
    ("tree_aggregation", "Tree aggregation (`SingleEpochTreeAggregationDpEvent`, replace-special; T epochs of one "
     "tree; PLD: its d Gaussian releases per epoch as one Gaussian of σ/√d, since dp_accounting's PLD refuses the "
     "event)", "mechanisms/tree-aggregation.md"),
    ("truncated", "Truncated Poisson sampling (`TruncatedSubsampledGaussianDpEvent`, add/remove and replace-one; "
     "batches cut to at most B; RDP does not support it)", "mechanisms/truncated-poisson.md"),
]
NOT_IN_PRV = "n/a: prv_accountant 0.2 has no such mechanism"


def _repeat(count, event):
    return {"class_name": "SelfComposedDpEvent", "event": event, "count": count}


def _poisson(q, event):
    return {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": event}


def family_cases(quick):
    """The rows: dicts with the family key, a label, T, the relation, the event tree and how each peer is asked."""
    laplace = {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}
    cases = [dict(family="laplace", label="b = 1", steps=steps, relation=ADD_OR_REMOVE,
                  event=_repeat(steps, laplace), pld=partial(pld_laplace, "1", "1"), prv=("laplace", "1"))
             for steps in ([10] if quick else [10, 100])]
    if not quick:
        cases.append(dict(family="poisson_laplace", label="b = 1, q = 0.1", steps=100, relation=ADD_OR_REMOVE,
                          event=_repeat(100, _poisson("0.1", laplace)), pld=partial(pld_laplace, "1", "0.1"),
                          prv=None))
    for p in (["0.5"] if quick else ["0.1", "0.2", "0.3", "0.4", "0.5"]):
        rr = {"class_name": "RandomizedResponseDpEvent", "noise_parameter": p, "num_buckets": 2}
        cases.append(dict(family="randomized_response", label=f"p = {p}, k = 2", steps=100, relation=REPLACE,
                          event=_repeat(100, rr), pld=partial(pld_randomized_response, p, 2), prv=("pure", p)))
    if not quick:
        mixture = {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": "2",
                   "sensitivities": ["1", "2"], "sampling_probs": ["1/2", "1/2"]}
        cases.append(dict(family="mixture", label="σ = 2, Δ = [1, 2], p = [1/2, 1/2]", steps=50,
                          relation=ADD_OR_REMOVE, event=_repeat(50, mixture),
                          pld=partial(pld_mixture, "2", ["1", "2"], ["1/2", "1/2"]), prv=None))
        gaussian = {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}
        cases.append(dict(family="replace_gaussian", label="σ = 1, q = 0.05", steps=100, relation=REPLACE,
                          event=_repeat(100, _poisson("0.05", gaussian)),
                          pld=partial(pld_replace_gaussian, "0.05", "1"), prv=None))
        cases.append(dict(family="gaussian_replace", label="σ = 2", steps=10, relation=REPLACE,
                          event=_repeat(10, {"class_name": "GaussianDpEvent", "noise_multiplier": "2"}),
                          pld=partial(pld_replace_gaussian, "1", "2"), prv=None))
        dlap = {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 2}
        cases.append(dict(family="discrete_laplace", label="a = 1/2, s = 2", steps=50, relation=ADD_OR_REMOVE,
                          event=_repeat(50, dlap), pld=partial(pld_discrete_laplace, "1/2", 2, "1"), prv=None))
        dlap = {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1", "sensitivity": 2}
        cases.append(dict(family="discrete_laplace", label="a = 1, s = 2, q = 1/4", steps=100,
                          relation=ADD_OR_REMOVE, event=_repeat(100, _poisson("1/4", dlap)),
                          pld=partial(pld_discrete_laplace, "1", 2, "1/4"), prv=None))
        dgauss = {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "4", "sensitivity": 1}
        cases.append(dict(family="discrete_gaussian", label="σ² = 4, s = 1", steps=100, relation=ADD_OR_REMOVE,
                          event=_repeat(100, dgauss), pld=partial(pld_discrete_gaussian, "4", 1, "1"), prv=None))
        batches = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                   "sample_size": 256, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1.1"}}
        halved = dict(batches, event={"class_name": "GaussianDpEvent", "noise_multiplier": "0.55"})
        cases.append(dict(family="without_replacement", label="σ = 1.1, m/n = 256/60000", steps=1000,
                          relation=REPLACE, event=_repeat(1000, batches), rdp_event=_repeat(1000, halved),
                          pld=pld_unsupported, prv=None))
    # a gradient sum and a count per step; the second row writes σ₂ as the integer 10 (dp_accounting's events
    # take it as an int): the same question, read exactly here
    for label, second in (("σ = [1.1, 10.0], q = 0.01", "10.0"), ("σ = [1.1, 10] (10 an int), q = 0.01", 10)):
        composed = {"class_name": "ComposedDpEvent", "events": [
            {"class_name": "GaussianDpEvent", "noise_multiplier": "1.1"},
            {"class_name": "GaussianDpEvent", "noise_multiplier": second}]}
        cases.append(dict(family="composition", label=label, steps=1000, relation=ADD_OR_REMOVE,
                          event=_repeat(1000, _poisson("0.01", composed)),
                          pld=partial(pld_sampled_gaussian, "0.01", (1 / 1.1 ** 2 + 1 / 10 ** 2) ** -0.5),
                          prv=None))
    if not quick:
        cases.append(dict(family="poisson_laplace_replace", label="b = 1, q = 0.1", steps=100, relation=REPLACE,
                          event=_repeat(100, _poisson("0.1", laplace)), pld=pld_unsupported, prv=None))
        gaussians = [{"class_name": "GaussianDpEvent", "noise_multiplier": s} for s in ("1.1", "10.0")]
        halved = [{"class_name": "GaussianDpEvent", "noise_multiplier": s} for s in ("0.55", "5.0")]
        composed = {"class_name": "ComposedDpEvent", "events": gaussians}
        cases.append(dict(family="composition_replace", label="σ = [1.1, 10.0], q = 0.01", steps=1000,
                          relation=REPLACE, event=_repeat(1000, _poisson("0.01", composed)),
                          pld=partial(pld_replace_gaussian, "0.01", (1 / 1.1 ** 2 + 1 / 10 ** 2) ** -0.5),
                          prv=None))
        batch = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                 "sample_size": 256, "event": composed}
        cases.append(dict(family="composition_without_replacement", label="σ = [1.1, 10.0], m/n = 256/60000",
                          steps=1000, relation=REPLACE, event=_repeat(1000, batch),
                          rdp_event=_repeat(1000, dict(batch, event={"class_name": "ComposedDpEvent",
                                                                     "events": halved})),
                          pld=pld_unsupported, prv=None))
        epoch = {"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": "1.5", "step_counts": 1000}
        cases.append(dict(family="tree_aggregation", label="σ = 1.5, n = 1000 steps (d = 10)", steps=20,
                          relation="replace_special", event=_repeat(20, epoch),
                          pld=partial(pld_sampled_gaussian, "1", 1.5 / math.sqrt(10)), prv=None))
        for batch in (300, 270):
            truncated = {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 60000,
                         "sampling_probability": "256/60000", "truncated_batch_size": batch, "noise_multiplier": "1.1"}
            cases.append(dict(family="truncated", label=f"σ = 1.1, q = 256/60000, n = 60000, B = {batch}",
                              steps=1000, relation=ADD_OR_REMOVE, event=_repeat(1000, truncated),
                              pld=partial(pld_truncated, 60000, "256/60000", batch, "1.1"), prv=None))
        cases.append(dict(family="truncated", label="σ = 1.1, q = 256/60000, n = 60000, B = 300, replace-one",
                          steps=1000, relation=REPLACE, event=_repeat(1000, dict(truncated, truncated_batch_size=300)),
                          pld=partial(pld_truncated, 60000, "256/60000", 300, "1.1", replace_one=True), prv=None))
        large = {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 1281167,
                 "sampling_probability": "32768/1281167", "truncated_batch_size": 33000, "noise_multiplier": "2"}
        cases.append(dict(family="truncated", label="σ = 2, q = 32768/1281167, n = 1281167, B = 33000 (a large batch)",
                          steps=1000, relation=ADD_OR_REMOVE, event=_repeat(1000, large),
                          pld=partial(pld_truncated, 1281167, "32768/1281167", 33000, "2"), prv=None))
    return cases


def certified_family(event, relation, delta):
    """The producer's certified [ε_lo, ε_hi] (CPU-timed), re-verified by the auditor (its CPU time kept apart)."""
    try:
        cert, seconds = cpu_timed(lambda: api.account(event, delta=delta, neighboring_relation=relation,
                                                      rel_width=FAMILY_WIDTH))
    except (InputError, TypeError) as exc:
        return Cell(missing=f"not certified: {str(exc).splitlines()[0][:120]}")
    report, audit_seconds = cpu_timed(lambda: auditor_api.verify_certificate(cert.to_json()))
    if report.status == 1:  # FAIL: a false claim; never shown as a certified value
        return Cell(missing="auditor: FAIL")
    res = cert.result
    return Cell(value=(res["epsilon_lo_display"], res["epsilon_hi_display"]), seconds=seconds,
                lower=Fraction(res["epsilon_lo"]), upper=Fraction(res["epsilon_hi"]), audit=report.outcome,
                audit_seconds=audit_seconds)


def _float(text):
    return float(Fraction(text))


def pld_laplace(scale, q, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_laplace_mechanism(_float(scale), sampling_prob=_float(q), pessimistic_estimate=pessimistic,
                                      use_connect_dots=pessimistic)


def pld_randomized_response(p, buckets, pessimistic):
    from dp_accounting import NeighboringRelation
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_randomized_response(_float(p), buckets, pessimistic_estimate=pessimistic,
                                        neighboring_relation=NeighboringRelation.REPLACE_ONE)


def pld_discrete_laplace(parameter, sensitivity, q, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_discrete_laplace_mechanism(_float(parameter), sensitivity, pessimistic_estimate=pessimistic,
                                               sampling_prob=_float(q), use_connect_dots=pessimistic)


def pld_discrete_gaussian(sigma2, sensitivity, q, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_discrete_gaussian_mechanism(math.sqrt(_float(sigma2)), sensitivity,
                                                pessimistic_estimate=pessimistic, sampling_prob=_float(q),
                                                use_connect_dots=pessimistic)


def pld_unsupported(pessimistic):
    raise LookupError("n/a: dp_accounting's PLD does not account it")


def pld_mixture(sigma, sensitivities, probabilities, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_mixture_gaussian_mechanism(_float(sigma), [_float(d) for d in sensitivities],
                                               [_float(p) for p in probabilities], pessimistic_estimate=pessimistic,
                                               use_connect_dots=pessimistic)


def pld_replace_gaussian(q, sigma, pessimistic):
    from dp_accounting import NeighboringRelation
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_gaussian_mechanism(_float(sigma), sampling_prob=_float(q), pessimistic_estimate=pessimistic,
                                       use_connect_dots=pessimistic,
                                       neighboring_relation=NeighboringRelation.REPLACE_ONE)


def pld_sampled_gaussian(q, sigma, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_gaussian_mechanism(float(sigma), sampling_prob=_float(q), pessimistic_estimate=pessimistic,
                                       use_connect_dots=pessimistic)


def pld_truncated(n, q, batch, sigma, pessimistic, replace_one=False):
    from dp_accounting import NeighboringRelation
    from dp_accounting.pld import privacy_loss_distribution as pld
    if not pessimistic:
        raise LookupError("n/a: dp_accounting builds it pessimistic only")
    relation = {"neighboring_relation": NeighboringRelation.REPLACE_ONE} if replace_one else {}
    return pld.from_truncated_subsampled_gaussian_mechanism(n, _float(q), batch, _float(sigma), **relation)


def pld_family_epsilon(one_step, steps, delta, pessimistic):
    """dp_accounting's PLD ε(δ): ``one_step(pessimistic)`` (default discretisation 10^-4), self-composed T times."""
    return one_step(pessimistic).self_compose(steps).get_epsilon_for_delta(_float(delta))


def rdp_family_epsilon(tree, relation, delta):
    """dp_accounting's RdpAccountant on the same tree (an upper bound), or n/a where it does not support it."""
    from dp_accounting import NeighboringRelation
    from dp_accounting.rdp import RdpAccountant
    accountant = RdpAccountant(neighboring_relation=NeighboringRelation[relation.upper()])
    try:
        event = dp_accounting_event(tree)
    except AttributeError:
        raise LookupError("n/a: not a dp_accounting event") from None
    if not accountant.supports(event):
        raise LookupError("n/a: RdpAccountant does not support it")
    accountant.compose(event)
    return accountant.get_epsilon(_float(delta))


def prv_family_epsilons(spec, steps, delta):
    """prv_accountant's (lower, estimate, upper): the Laplace mechanism (μ = 1/b), or randomized response with
    k = 2 as the pure-DP mechanism of ε₀ = log((2 − p)/p) (the same loss law: ±ε₀ with masses 1 − p/2, p/2)."""
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import LaplaceMechanism, PureDPMechanism
    kind, parameter = spec
    if kind == "laplace":
        prv = LaplaceMechanism(mu=1 / _float(parameter))
    else:
        p = Fraction(parameter)
        prv = PureDPMechanism(eps=math.log((2 - p) / p))
    accountant = PRVAccountant(prvs=prv, max_self_compositions=steps, eps_error=0.01,
                               delta_error=_float(delta) / 1000)
    return accountant.compute_epsilon(delta=_float(delta), num_self_compositions=steps)


def _warm_up():
    """One untimed call of each library first, so that no row's CPU time includes an import."""
    for module in ("dp_accounting.pld.privacy_loss_distribution", "dp_accounting.rdp", "prv_accountant"):
        try:
            __import__(module)
        except ImportError:
            pass
    event = {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}
    certified_family(event, ADD_OR_REMOVE, FAMILY_DELTA)


def family_rows(quick):
    """(case, certified cell, {peer key: Cell}) for every row of the mechanism-family tables."""
    _warm_up()
    rows = []
    for case in family_cases(quick):
        steps, delta = case["steps"], FAMILY_DELTA
        print(f"compare: {case['family']} {case['label']}, T = {steps}", file=sys.stderr, flush=True)
        cert = certified_family(case["event"], case["relation"], delta)
        peers = {"pld_pess": _peer(pld_family_epsilon, case["pld"], steps, delta, True, clock=cpu_timed),
                 "pld_opt": _peer(pld_family_epsilon, case["pld"], steps, delta, False, clock=cpu_timed),
                 "rdp": _peer(rdp_family_epsilon, case.get("rdp_event", case["event"]), case["relation"], delta,
                              clock=cpu_timed)}
        prv = (Cell(missing=NOT_IN_PRV) if case["prv"] is None else
               _peer(prv_family_epsilons, case["prv"], steps, delta, clock=cpu_timed))
        for i, key in enumerate(("prv_lo", "prv", "prv_hi")):
            peers[key] = prv if prv.missing else Cell(value=prv.value[i], seconds=prv.seconds)
        rows.append((case, cert, peers))
    return rows


def family_table(rows):
    head = " | ".join(f"{label} | s" for key, label, _kind in DPSGD_PEERS if key not in ("prv_lo", "prv_hi"))
    lines = [f"| mechanism | T | certified ε(δ) | s | audit s | {head} | PRV [lower, upper] |",
             "|---|---|---|---|---|" + "---|---|" * 4 + "---|"]
    for case, cert, peers in rows:
        cells = []
        for key, _label, kind in DPSGD_PEERS:
            if key not in ("prv_lo", "prv_hi"):
                cells += [show_epsilon(peers[key], dpsgd_note(peers[key], cert, kind)), show_time(peers[key])]
        lo, hi = peers["prv_lo"], peers["prv_hi"]
        prv = lo.missing or (f"[{show_epsilon(lo, dpsgd_note(lo, cert, 'lower'))}, "
                             f"{show_epsilon(hi, dpsgd_note(hi, cert, 'upper'))}]")
        audit = "" if cert.audit_seconds is None else f"{cert.audit_seconds:.3f}"
        lines.append(f"| {case['label']} | {case['steps']} | {show_epsilon(cert)} | {show_time(cert)} | {audit} | "
                     + " | ".join(cells) + f" | {prv} |")
    return lines


# (family, peer column, why): the reason printed under the findings when that peer is below a certified interval
FINDING_REASONS = [
    ("randomized_response", "prv_hi",
     "Why PRV misses randomized response: `PRVAccountant` sizes its loss domain [−L, L] from the "
     "mechanisms' Rényi divergences (`compute_safe_domain_size`), and prv_accountant 0.2's "
     "`PureDPMechanism.rdp(α)` returns (α − 1)·ε₀/α, below the Rényi divergence of the ε₀ pair itself "
     "(for p = 0.5, ε₀ = log 3, at α = 2: 0.549 against log((3/4)²/(1/4) + (1/4)²/(3/4)) = 0.847). "
     "So L (74.9 for p = 0.5, T = 100) lies below the true ε(δ) and the composed loss is cut "
     "off: its 'upper bound' is no bound. With `eps_max=120` given by hand the same accountant returns "
     "[90.768, 90.797] for p = 0.5, around the certified interval; the exact binomial sum gives "
     "ε(10^-5) = 90.78154 (checked outside this engine with mpmath)."),
    ("gaussian_replace", "rdp",
     "Why RDP misses the Gaussian mechanism under replace-one: dp_accounting 0.6's `RdpAccountant` accepts a "
     "`GaussianDpEvent` under `REPLACE_ONE` and answers its add/remove value (sensitivity 1), the same number under "
     "both relations, where changing one record moves the sum by up to 2 (its own PLD library uses sensitivity 2 "
     "for replace-one, as this engine does)."),
    ("composition", "rdp",
     "Why RDP misses the composition written with an integer noise multiplier: dp_accounting 0.6's "
     "`_effective_gaussian_noise_multiplier` (the reduction of Gaussian events composed below one "
     "sampling to one Gaussian) returns as soon as a component's noise multiplier is not a `float`, so "
     "`GaussianDpEvent(10)` stands for the whole composition and the σ = 1.1 query is forgotten; with "
     "`GaussianDpEvent(10.0)` the same accountant answers the upper bound of the row above."),
]


def family_findings(rows):
    """Peer figures on the wrong side of the certified interval, then those outside it on the safe side."""
    wrong, loose = [], {}
    for case, cert, peers in rows:
        for key, label, kind in DPSGD_PEERS:
            peer = peers[key]
            note = dpsgd_note(peer, cert, kind)
            where = f"{FAMILY_TITLES[case['family']]}, {case['label']}, T = {case['steps']}"
            if note:
                wrong.append(f"- {where}: {label} ε = {float(peer.value)!r}{note.replace('**', '').replace('*', '')} "
                             f"[{cert.value[0]}, {cert.value[1]}].")
            elif peer.value is not None and cert.lower is not None and kind != "estimate":
                exact = Fraction(peer.value)
                if exact > cert.upper:
                    loose.setdefault(label, []).append((exact - cert.upper) / cert.upper)
                elif exact < cert.lower:
                    loose.setdefault(label, []).append((cert.lower - exact) / cert.lower)
    out = wrong or ["- none: every peer bound lies on its side of the certified interval (upper bounds at or "
                    "above ε_lo, lower bounds at or below ε_hi)."]
    for family, peer, why in FINDING_REASONS:
        if any(case["family"] == family and dpsgd_note(peers[peer], cert, "upper") for case, cert, peers in rows):
            out += ["", why]
    interface = accountant_findings(rows)
    if interface:
        out += ["", "dp_accounting's accountant interface (`PLDAccountant.compose(event)`, not the PLD-library calls "
                "of the tables):", "", *interface]
    missing = sum(1 for _case, cert, _peers in rows if cert.missing)
    if missing:
        out.append(f"- {missing} rows have no certified interval (the reason is in the table).")
    if loose:
        out += ["", "Outside the interval on its safe side (an upper bound above ε_hi or a lower bound below ε_lo: "
                "looser than the truth, not wrong):", ""]
        for label, gaps in loose.items():
            out.append(f"- {label}: {len(gaps)} rows, by {float(min(gaps)):.1e} to {float(max(gaps)):.1e} "
                       "relative to the nearer end.")
    return out


def accountant_epsilon(event, relation, delta):
    """ε(δ) from dp_accounting's ``PLDAccountant`` given the whole tree (None when it is not installed)."""
    try:
        from dp_accounting.pld import pld_privacy_accountant
    except ImportError:
        return None
    accountant = pld_privacy_accountant.PLDAccountant(neighboring_relation(relation))
    accountant.compose(dp_accounting_event(event))
    return accountant.get_epsilon(_float(delta))


def accountant_findings(rows):
    """Rows where dp_accounting's PLDAccountant, given the event tree itself (not the PLD library), answers below
    the certified lower end: the accountant interface a user calls, beside the library calls of the table."""
    out = []
    for case, cert, _peers in rows:
        if case["family"] != "randomized_response" or cert.lower is None:
            continue
        value = accountant_epsilon(case["event"], case["relation"], FAMILY_DELTA)
        if value is not None and Fraction(value) < cert.lower:
            out.append(f"- randomized response, {case['label']}, T = {case['steps']}: dp_accounting's "
                       f"`PLDAccountant` given `SelfComposedDpEvent(RandomizedResponseDpEvent, {case['steps']})` "
                       f"answers ε = {value:.6g}, below the certified [{cert.value[0]}, {cert.value[1]}].")
    if out:
        out += ["", "Why: dp_accounting 0.6's `PLDAccountant._maybe_compose` composes a randomized-response PLD "
                "once, whatever the count of an enclosing `SelfComposedDpEvent` (or of `compose(event, count)`); "
                "the other mechanisms are self-composed `count` times. The same T events listed in a "
                "`ComposedDpEvent` give the composed value. The PLD-library figures in the table "
                "(`from_randomized_response(...).self_compose(T)`) are not affected."]
    return out


FAMILY_TITLES = {"laplace": "Laplace", "poisson_laplace": "Poisson-subsampled Laplace",
                 "randomized_response": "randomized response", "mixture": "mixture of Gaussians",
                 "replace_gaussian": "replace-one subsampled Gaussian", "discrete_laplace": "discrete Laplace",
                 "gaussian_replace": "Gaussian mechanism, replace-one",
                 "discrete_gaussian": "discrete Gaussian",
                 "without_replacement": "sampling without replacement (fixed-size batches)",
                 "composition": "a composition of Gaussians in one Poisson sampling",
                 "poisson_laplace_replace": "Poisson-subsampled Laplace, replace-one",
                 "composition_replace": "a composition of Gaussians in one Poisson sampling, replace-one",
                 "composition_without_replacement": "a composition of Gaussians on fixed-size batches",
                 "tree_aggregation": "tree aggregation, replace-special",
                 "truncated": "truncated Poisson sampling"}


def families_section(rows):
    if not rows:
        return []
    lines = [
        FAMILIES_HEADING,
        "",
        f"Each row: the certified ε(δ) at δ = {FAMILY_DELTA} of T self-composed steps of one mechanism "
        f"(`producer.account(event, delta=\"{FAMILY_DELTA}\", neighboring_relation=…, rel_width=\"{FAMILY_WIDTH}\")`, "
        "`accounting/1`: ε(δ) lies in [ε_lo, ε_hi]), re-verified by the auditor (**audit s**), beside the peers "
        "where they answer for that mechanism and relation. The dominating pair behind each row, and what is "
        "certified, is on the family's page ([docs/mechanisms/](mechanisms/README.md)). **PLD pess.**: dp_accounting's "
        "`from_laplace_mechanism`, `from_randomized_response`, `from_mixture_gaussian_mechanism` or "
        "`from_gaussian_mechanism(…, neighboring_relation=REPLACE_ONE)` (connect-the-dots, default discretisation "
        "10^-4), `self_compose(T)`, `get_epsilon_for_delta(δ)`, meant as an upper bound; **PLD opt.**: the same "
        "with `pessimistic_estimate=False, use_connect_dots=False` (privacy buckets), meant as a lower bound; "
        "**RDP**: `RdpAccountant` on the same `DpEvent` tree and relation, an upper bound (n/a where "
        "`supports(event)` is false: Poisson sampling of anything but a Gaussian, mixtures, Poisson sampling "
        "under replace-one); **PRV**: prv_accountant `PRVAccountant` (`eps_error=0.01`, `delta_error=δ/1000`) "
        "with `LaplaceMechanism(1/b)`, or for randomized response with k = 2 `PureDPMechanism(log((2 − p)/p))`, "
        "whose loss law is the same (±log((2 − p)/p) with masses 1 − p/2 and p/2); `compute_epsilon` gives a "
        "lower bound, an estimate and an upper bound. **below certified**: an upper bound below ε_lo; **above "
        "certified**: a lower bound above ε_hi; *outside*: an estimate outside the interval; decided exactly on "
        "the floats' rationals.",
        "",
        "Times in this section are **CPU seconds** of the one process (`time.process_time`), not wall seconds; "
        "the machine is shared with other jobs, so they are approximate. The certified column times building "
        "the certificate; the auditor's check is timed apart.",
        "",
    ]
    for key, heading, page in FAMILIES:
        selected = [row for row in rows if row[0]["family"] == key]
        if selected:
            lines += [f"### {heading}", "", f"Dominating pair: [docs/{page}]({page}).", "",
                      *family_table(selected), ""]
    lines += ["### Findings: peer figures outside the certified intervals", "", *family_findings(rows), ""]
    return lines


def splice_section(text, section):
    """``text`` with the lines of its section headed ``section[0]`` replaced by ``section`` (inserted before the
    figure, or at the end, when the document has none yet): the section runs to the next ``## `` heading or
    image line."""
    lines = text.split("\n")
    heading = section[0]
    if heading in lines:
        start = lines.index(heading)
        end = next((i for i in range(start + 1, len(lines))
                    if lines[i].startswith("## ") or lines[i].startswith("![")), len(lines))
    else:
        start = end = next((i for i, line in enumerate(lines) if line.startswith("![")), len(lines))
    return "\n".join(lines[:start] + list(section) + lines[end:])


def document(plain, laplace, hidden, sgd=(), families=()):
    lines = [
        "# Certified δ(ε) and ε(δ) side by side with dp_accounting, OpenDP and prv_accountant",
        "",
        "Generated by `make compare` (`bench/compare.py`); do not edit by hand. "
        f"Peers: {versions()}. Times are wall seconds on the machine that ran it "
        "(the certified column: building the certificate; it is then re-verified by the auditor, not timed).",
        "",
        "## What each number means",
        "",
        "- **certified δ(ε)**: the producer's certified enclosure of the hockey-stick divergence "
        "δ(ε) = sup_S P(S) − e^ε Q(S) of the exact adaptive C-fold composition of the law against its shift "
        "by 1 (plain composition, no feedback; `producer plain`), with width below "
        f"{show_width(PRODUCT_WIDTH)}; the true value lies in it. The adaptive composition is dominated by the "
        "product pair (P^C, Q^C), whose likelihood ratio depends only on the sum of the outputs (discrete Gaussian) "
        "or on how many are at most 0 (discrete Laplace), so δ(ε) is a finite sum over that statistic's law, "
        "enclosed with arb balls (docs/plain-composition.md). Every certificate is re-checked here by the "
        "auditor by its own route (exact integer convolutions, its own exponential bounds); a certificate "
        "the auditor finds false would be dropped (none was). The time column is that of the whole "
        "certificate, which holds every ε of one law and C. The finite game at γ = 0 (`producer dg --gamma 0`) "
        "certifies the same values for C ≤ 6 by another route, and the tests check that the two agree.",
        "- **PLD pess. / PLD opt.**: dp_accounting's PLD accountant "
        "(`from_discrete_gaussian_mechanism` / `from_discrete_laplace_mechanism`, sensitivity 1, default "
        "discretisation, `self_compose(C)`, `get_delta_for_epsilon`): the pessimistic estimate is meant to be "
        "an upper bound on δ(ε), the optimistic one a lower bound.",
        "- **RDP**: dp_accounting's `RdpAccountant` with `GaussianDpEvent(σ)` composed C times, `get_delta(ε)`: "
        "an upper bound (the discrete Gaussian's Rényi divergences are at most the continuous Gaussian's).",
        "- **OpenDP**: `make_gaussian` on integers (the discrete Gaussian, ρ = 1/(2σ²) zCDP), "
        "`make_composition` of C copies, `make_zCDP_to_approxDP`, `.delta(ε)`: an upper bound. For the discrete "
        "Laplace, `make_laplace` on integers is pure ε₀-DP (ε₀ = 1/t per release, C/t composed): δ(ε) = 0 for "
        "ε >= C/t, and OpenDP states nothing below.",
        "- **DL t**: the discrete Laplace L_t(n) ∝ e^{-|n|/t} (`producer dg --laplace T`); dp_accounting's "
        "`from_discrete_laplace_mechanism` takes the parameter 1/t. RDP: n/a (not computed for the discrete Laplace).",
        "- **below certified** (an upper bound below the certified lower end) or **above certified** (a lower "
        "bound above the certified upper end): the peer is on the wrong side of the true value. Decided exactly "
        "(the peer's float read as the rational it is); the findings list says by how much, and whether that "
        "is within the float rounding of the peer (a relative excess below 10^-12) or beyond it.",
        "- Certified intervals are shown in scientific notation with 10 significant digits, rounded outward "
        "from the exact ends; peers' floats with 7.",
        "",
        "## Plain composition: certified against the accountants",
        "",
        *peer_table(plain + laplace),
        "",
        "### Findings: peer bounds on the wrong side",
        "",
        *findings(plain + laplace),
        "",
        f"## Hidden feedback (γ = {HIDDEN_GAMMA}): what ignoring the feedback would claim",
        "",
        "The certified Δ*_C(ε) of the hidden integer feedback mechanism (`producer dg --gamma 1/3`) next to the "
        "certified plain value (`producer plain`) at the same σ², C, ε: an accountant that treats the mechanism "
        "as C plain discrete-Gaussian releases reports (at best) the plain value. C ≤ 3 only: the hidden-feedback "
        "game refuses C > 6, and C = 4 .. 6 take minutes at σ² = 9.",
        "",
        "The last three columns concern a program of exactly T = C releases from the zero start (every release "
        "a possible participation; a narrower program than Δ*_C, which allows waiting and echoes): **block "
        "accounting** bounds it by composing, release by release, each release's exact dominating pair over every "
        "state it can start in (`producer blocks --splits 1+…+1`, block-composition/1, docs/paper-claims.md); "
        "**exact** is the full computation of the same program in the same certificate. Both charge the source "
        "with all T draws. Where the block column exceeds the exact one, block accounting loses what it forgets "
        "about how consecutive releases' states are tied together (the paper's Table 2).",
        "",
        *hidden_table(hidden),
        "",
        *dpsgd_section(list(sgd)),
        *families_section(list(families)),
        "![certified and peer δ(ε)](figures/comparison.png)",
        "",
    ]
    return "\n".join(lines)


def figure(plain, hidden, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    sigma2s = sorted({row[1] for row in plain}, key=Fraction)
    fig, axes = plt.subplots(1, len(sigma2s) + 1, figsize=(4.2 * (len(sigma2s) + 1), 4), squeeze=False)
    for ax, sigma2 in zip(axes[0], sigma2s):
        for budget in sorted({row[2] for row in plain if row[1] == sigma2}):
            sel = [row for row in plain if row[1] == sigma2 and row[2] == budget]
            xs = [float(Fraction(row[3])) for row in sel]
            cert = [float(row[4].upper) if row[4].upper is not None else math.nan for row in sel]
            line, = ax.plot(xs, cert, "o-", label=f"C = {budget} certified")
            for name, style in (("pld_pess", "--"), ("rdp", ":"), ("opendp", "-.")):
                ys = [row[5][name].value if row[5][name].value is not None else math.nan for row in sel]
                ax.plot(xs, ys, style, color=line.get_color(), alpha=0.7)
        ax.set_yscale("log")
        ax.set_title(f"DG σ² = {sigma2}: certified (o), PLD --, RDP :, OpenDP -.", fontsize=8)
        ax.set_xlabel("ε")
        ax.set_ylabel("δ(ε)")
        ax.legend(fontsize=6)
    ax = axes[0][-1]
    for sigma2 in sorted({row[0] for row in hidden}, key=Fraction):
        for budget in sorted({row[1] for row in hidden if row[0] == sigma2}):
            sel = [row for row in hidden if row[0] == sigma2 and row[1] == budget]
            xs = [float(Fraction(row[2])) for row in sel]
            hid = [float(row[3].upper) if row[3].upper is not None else math.nan for row in sel]
            pl = [float(row[4].upper) if row[4].upper is not None else math.nan for row in sel]
            line, = ax.plot(xs, hid, "o-", label=f"σ² = {sigma2}, C = {budget}")
            ax.plot(xs, pl, "--", color=line.get_color(), alpha=0.7)
    ax.set_yscale("log")
    ax.set_title(f"hidden feedback γ = {HIDDEN_GAMMA} (o) vs plain (--)", fontsize=8)
    ax.set_xlabel("ε")
    ax.legend(fontsize=6)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "comparison.md"))
    parser.add_argument("--figure", default=os.path.join(ROOT, "docs", "figures", "comparison.png"))
    parser.add_argument("--quick", action="store_true", help="a few rows only (a smoke run)")
    parser.add_argument("--only", choices=["families"],
                        help="compute this section alone and replace it in the existing --out document")
    args = parser.parse_args(argv)
    if args.only == "families":
        with open(args.out, encoding="utf-8") as handle:
            text = handle.read()
        text = splice_section(text, families_section(family_rows(args.quick)))
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"compare: replaced the mechanism-family section of {args.out}", file=sys.stderr)
        return 0
    plain = plain_rows(args.quick)
    laplace = laplace_rows(args.quick)
    hidden = hidden_rows(args.quick, plain)
    sgd = dpsgd_rows(args.quick)
    families = family_rows(args.quick)
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(document(plain, laplace, hidden, sgd, families))
    drawn = figure(plain, hidden, args.figure)
    print(f"compare: wrote {args.out}" + (f" and {args.figure}" if drawn else " (no figure: no matplotlib)"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
