"""``producer brace-compare``: BRACE against naive, global-noise and
clean-endpoint baselines on the same bank, draws and start (brace-compare/1)."""

from producer import api
from producer.brace import baselines
from producer.kinds import brace_run as record
from producer.brace.retrieval import clean_trajectory
from producer.certificates.canonical import make_certificate
from producer.commands.brace import add_run_arguments, api_arguments
from producer.commands.common import add_output_arguments, finish

HELP = ("compare BRACE with the naive, global-noise and clean-endpoint baselines "
        "(same bank, draws and start; brace-compare/1)")
KIND, VERSION = "brace-compare", 1
METHOD = ("BRACE and the section 6 baselines with shared standard-normal draws; errors are "
          "per-coordinate squared distances to the clean trajectory")


def add_arguments(p):
    add_run_arguments(p)
    add_output_arguments(p)


def _baseline_json(rule, steps, clean):
    fr, vec = record.fr, record.vec
    return {
        "rule": rule,
        "steps": [{"t": s.t, "count": s.count, "scale": fr(s.scale), "variance": fr(s.variance),
                   "xi": vec(s.xi), "Y": vec(s.Y)} for s in steps],
        "errors": [fr(baselines.per_coordinate_error(s.Y, clean[s.t])) for s in steps],
    }


def compare(req, progress=None):
    """(input, result) of a brace-compare certificate."""
    cal, gamma, consts, steps = record.execute(req, progress)
    brace = record.result_json(req, cal, gamma, consts, steps)
    pts, q, T = req.bank.points, req.query, req.horizon
    clean = clean_trajectory(pts, q, req.r2, T)
    zetas = [s.zeta for s in steps]
    r_hi, rho_lo, g = consts.r[1], cal.rho_lower, req.grid_bits
    naive = baselines.iterative(pts, q, req.r2, T, r_hi, rho_lo, zetas, g, counted=True)
    glob = baselines.iterative(pts, q, req.r2, T, r_hi, rho_lo, zetas, g, counted=False)
    end = baselines.endpoint(q, clean[T], T, r_hi, rho_lo, zetas[T - 1], g)
    result = {
        "method": METHOD,
        "brace": brace,
        "clean": [record.vec(z) for z in clean],
        "brace_errors": [record.fr(baselines.per_coordinate_error(s.Y, clean[s.t])) for s in steps],
        "baselines": {
            "naive": _baseline_json(baselines.NAIVE, naive, clean),
            "global": _baseline_json(baselines.GLOBAL, glob, clean),
            "endpoint": _baseline_json(baselines.ENDPOINT, end, clean),
        },
    }
    return req.as_input(), result


def certificate_for(req, progress=None):
    input_, result = compare(req, progress)
    return make_certificate(KIND, VERSION, input_, result)


def run(args):
    return finish(args, api.brace_compare(args.bank, args.query, **api_arguments(args)))
