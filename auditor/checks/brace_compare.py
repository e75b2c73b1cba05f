"""Checks of ``brace-compare/1`` certificates.

The embedded BRACE run gets every ``brace-run`` check; the clean trajectory,
every baseline step (scale, variance, noise against the shared draws, exact
grid rounding) and every per-coordinate squared error are recomputed.  Every
vector must have the bank's dimension (malformed otherwise).
``result.method`` and each baseline's ``rule`` are fixed descriptions
(:data:`METHOD`, :data:`RULES`): an unknown text is malformed, another
baseline's rule is a false claim.
"""

from fractions import Fraction

from auditor.brace.geometry import on_grid_round, sqdist, update
from auditor.brace.replay import noise_matches, fail_undecided, vector, verify_run
from auditor.certificate import Malformed
from auditor import common
from auditor.checks.brace_run import run_text
from auditor.claims import enclosure_text, number as _q
from auditor.rationals import read_rational

METHOD = ("BRACE and the section 6 baselines with shared standard-normal draws; errors are per-coordinate "
          "squared distances to the clean trajectory")
RULES = {
    "endpoint": "clean endpoint plus noise: scale 2Tr, variance s^2/(2 rho_lo), draw zeta_T",
    "global": "global-noise DAM: scale 2r, variance T s^2/(2 rho_lo)",
    "naive": "naive DAM: scale 2r/max(1, m_t), variance T s^2/(2 rho_lo)",
}


def _vec(values, ptr):
    return tuple(read_rational(v, f"{ptr}/{i}") for i, v in enumerate(values))


def _error(y, z):
    return sqdist(y, z) / len(z)


def _check_errors(report, ptr, claimed, ys, clean_at):
    report.equal(ptr, len(claimed), len(ys), "number of errors")
    for i, (c, (t, y)) in enumerate(zip(claimed, ys)):
        report.equal(f"{ptr}/{i}", read_rational(c, f"{ptr}/{i}"), _error(y, clean_at[t]),
                     "per-coordinate squared error")


def _check_baseline(report, ptr, b, ri, consts, clean, zetas, kind):
    T, g, q = ri.horizon, ri.grid_bits, ri.query
    r_hi, rho_lo, tol = consts["r"][1], consts["rho_lo"], consts["tolerance"]
    steps = b["steps"]
    expected = 1 if kind == "endpoint" else T
    report.equal(f"{ptr}/steps", len(steps), expected, "number of baseline steps")
    y = q
    ys = []
    for i, s in enumerate(steps[:expected]):
        sp = f"{ptr}/steps/{i}"
        t = T if kind == "endpoint" else i + 1
        report.equal(f"{sp}/t", common.integer(s["t"], f"{sp}/t", 1), t, "step index")
        if s["count"] is not None:
            common.integer(s["count"], f"{sp}/count", 0)
        if kind == "endpoint":
            count, scale = None, 2 * T * r_hi
            var = scale * scale / (2 * rho_lo)
            centre = clean[T]
        else:
            J, centre = update(ri.points, y, ri.r2)
            count = len(J) if kind == "naive" else None
            scale = 2 * r_hi / max(1, len(J)) if kind == "naive" else 2 * r_hi
            var = Fraction(T) / (2 * rho_lo) * scale * scale
        report.equal(f"{sp}/count", s["count"], count, "released-gate count m_t")
        report.equal(f"{sp}/scale", read_rational(s["scale"], f"{sp}/scale"), scale, "baseline scale")
        report.equal(f"{sp}/variance", read_rational(s["variance"], f"{sp}/variance"), var, "baseline variance")
        xi = vector(s["xi"], f"{sp}/xi", len(q))
        report.check(noise_matches(var, zetas[t - 1], xi, tol), f"{sp}/xi", "xi",
                     "sqrt(variance) * zeta_t", "baseline noise is not sigma * (shared draw)")
        Y = on_grid_round(q, tuple(a + b_ for a, b_ in zip(centre, xi)), g)
        Yc = vector(s["Y"], f"{sp}/Y", len(q))
        report.equal(f"{sp}/Y", Yc, Y, "baseline release")
        ys.append((t, Yc))
        y = Yc
    _check_errors(report, f"{ptr}/errors", b["errors"], ys, clean)


def verify(cert, report):
    res = cert["result"]
    if res["method"] != METHOD:
        raise Malformed("/result/method: unknown method description")
    for kind, rule in RULES.items():
        stated = res["baselines"][kind]["rule"]
        if stated not in RULES.values():
            raise Malformed(f"/result/baselines/{kind}/rule: unknown rule description")
        report.check(stated == rule, f"/result/baselines/{kind}/rule", stated, rule,
                     "the rule of another baseline")
    run = verify_run(cert["input"], res["brace"], report, "/result/brace", settle=False)
    _verify_baselines(res, run, report)
    fail_undecided(run["undecided"], report)


def _verify_baselines(res, run, report):
    ri, consts, clean = run["input"], run["constants"], run["clean"]
    claimed_clean = [vector(z, f"/result/clean/{i}", len(ri.query)) for i, z in enumerate(res["clean"])]
    report.equal("/result/clean", claimed_clean, list(clean), "clean trajectory z_0..z_T")
    _check_errors(report, "/result/brace_errors", res["brace_errors"],
                  list(enumerate(run["released"], start=1)), clean)
    if len(run["zetas"]) != ri.horizon:
        return  # already reported by the run checks
    for kind in ("naive", "global", "endpoint"):
        _check_baseline(report, f"/result/baselines/{kind}", res["baselines"][kind], ri, consts,
                        clean, run["zetas"], kind)


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
    """The run's claim and the final-step squared errors of BRACE and each baseline."""
    res = cert["result"]
    finals = [("BRACE", res["brace_errors"])]
    finals += [(name, res["baselines"][name]["errors"]) for name in sorted(res["baselines"])]
    errors = ", ".join(f"{name} {enclosure_text(_q(errs[-1]), 4)}" for name, errs in finals if errs)
    return (f"BRACE run {run_text(cert['input'], res['brace'])}; "
            f"squared error per coordinate at the last step: {errors}")
