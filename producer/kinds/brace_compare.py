"""The ``brace-compare/1`` certificate: BRACE against its baselines on the same bank, draws and start.

The question is that of ``brace-run/1`` (:class:`producer.kinds.brace_run.Request`).
The result holds the whole BRACE run, the clean trajectory, and the naive,
global-noise and clean-endpoint baselines of *BRACE: Differential Privacy
for Dense Associative Memory with LSR Energy* (§6) driven by the same
standard-normal draws, with every per-coordinate squared error
(docs/brace.md).  Limits: those of brace-run/1.
"""

from producer.brace import baselines
from producer.brace.retrieval import clean_trajectory
from producer.certificates.canonical import make_certificate
from producer.display import approx
from producer.kinds.brace_run import Request, execute, fr, inputs_text, privacy_text, result_json, vec

__all__ = ["KIND", "VERSION", "Request", "build", "claim"]

KIND, VERSION = "brace-compare", 1
METHOD = ("BRACE and the section 6 baselines with shared standard-normal draws; errors are "
          "per-coordinate squared distances to the clean trajectory")


def _baseline_json(rule, steps, clean):
    return {
        "rule": rule,
        "steps": [{"t": s.t, "count": s.count, "scale": fr(s.scale), "variance": fr(s.variance),
                   "xi": vec(s.xi), "Y": vec(s.Y)} for s in steps],
        "errors": [fr(baselines.per_coordinate_error(s.Y, clean[s.t])) for s in steps],
    }


def compare(req, progress=None):
    """The ``result`` of a brace-compare certificate."""
    cal, gamma, consts, steps = execute(req, progress)
    brace = result_json(req, cal, gamma, consts, steps)
    pts, q, T = req.bank.points, req.query, req.horizon
    clean = clean_trajectory(pts, q, req.r2, T)
    zetas = [s.zeta for s in steps]
    r_hi, rho_lo, g = consts.r[1], cal.rho_lower, req.grid_bits
    naive = baselines.iterative(pts, q, req.r2, T, r_hi, rho_lo, zetas, g, counted=True)
    glob = baselines.iterative(pts, q, req.r2, T, r_hi, rho_lo, zetas, g, counted=False)
    end = baselines.endpoint(q, clean[T], T, r_hi, rho_lo, zetas[T - 1], g)
    return {
        "method": METHOD,
        "brace": brace,
        "clean": [vec(z) for z in clean],
        "brace_errors": [fr(baselines.per_coordinate_error(s.Y, clean[s.t])) for s in steps],
        "baselines": {
            "naive": _baseline_json(baselines.NAIVE, naive, clean),
            "global": _baseline_json(baselines.GLOBAL, glob, clean),
            "endpoint": _baseline_json(baselines.ENDPOINT, end, clean),
        },
    }


def build(request, progress=None):
    """The brace-compare certificate (a dict) for a validated :class:`Request`."""
    return make_certificate(KIND, VERSION, request.as_input(), compare(request, progress))


def claim(cert):
    inp, res = cert["input"], cert["result"]
    errors = [f"BRACE {approx(res['brace_errors'][-1])}"]
    for name, baseline in sorted(res["baselines"].items()):
        errors.append(f"{name} {approx(baseline['errors'][-1])}")
    return (f"BRACE against baselines: {privacy_text(res['brace'])} for {inputs_text(inp)}; "
            f"final squared error per coordinate: {', '.join(errors)}")
