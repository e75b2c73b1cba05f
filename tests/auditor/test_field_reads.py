"""Issue 19, item 3: every field of a certificate is read by the checks of its kind.

Each reference certificate is verified by the auditor with its kind's checks
handed a tracked copy (:mod:`tests.auditor.field_reads`), recording every field
path they read; then the schema of each kind is walked, and every leaf field
present in a reference must have been read - except

- the top level's ``schema`` and ``digest`` (read by the reader and the
  digest check before any kind's checks run),
- a field whose value the schema fixes (one ``const``): nothing is left to
  check,
- ``producer.name`` / ``producer.version`` anywhere (provenance, not a claim:
  any program may write a certificate; docs/certificates.md), and
- the entries of :data:`UNREAD_TODAY`, each with its reason.

The lists must be exact both ways: a field no check reads fails the test, and
so does an entry of :data:`UNREAD_TODAY` (or :data:`NOT_EXERCISED`) that is
read after all or no longer in the schema - remove it then.  A schema leaf
that no reference used here holds cannot be judged; each is listed in
:data:`NOT_EXERCISED` with the reason, so that a new field is never silently
skipped.
"""

import json
import subprocess
from fractions import Fraction
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.auditor import (accounting_corpus, bracket_corpus, dpsgd_calibration_corpus, noise_corpus,
                           plain_releases_corpus)
from tests.auditor.field_reads import INDEX, present_paths, read_paths, schema_leaves, schema_of
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
# the references slowest to verify, whose fields the quicker ones of the same kind also hold (the slow
# test reads every reference)
SLOW_NAMES = {"dg-interval-published-c3-eps2.json", "dg-interval-published-c3-gamma336_1009-eps4.json",
              "deadline-witness-published-max.json",
              "calibration-published-c4-delta1e-4.json", "envelope-sign-t3-n3-k2-j3.json",
              "envelope-t3-n4-k3-j2.json", "separation-one-digit-dg-c2-eps2.json"}
SLOW_NAMES |= {"minimum-depth-c8-g1_3-sigma2_9-eps4_91.json"}
QUICK = sorted(p for d in ("certificates", "certificates/plain", "certificates/resource", "certificates/dpsgd",
                           "certificates/paper") for p in (ROOT / d).glob("*.json")
               if p.name not in SLOW_NAMES) + [ROOT / "certificates" / "hierarchy" / "hierarchy-c3-p2-eps2-small.json"]
# The C = 32 and C = 64 brackets hold the fields of the C = 8 bracket (the same kind and route) and take
# about 5 minutes to verify even untracked; `make certificates` verifies them, untracked, every CI run.
LARGE_BRACKETS = {f"epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c{c}-delta1e-4.json" for c in (32, 64)}
EVERY = sorted(p for d in ("certificates", "certificates/plain", "certificates/hierarchy", "certificates/slow",
                           "certificates/resource", "certificates/dpsgd", "certificates/paper")
               for p in (ROOT / d).glob("*.json") if p.name not in LARGE_BRACKETS)

# Small certificates made here with the producer's command line (a black box), for fields the quick
# references do not hold: a hierarchy with cuts and a δ query; target-{0} lines.
MADE = {
    "hierarchy-cuts-delta": ("hierarchy", "--gamma", "1/3", "--sigma2", "9", "--budget", "3", "--cuts", "0",
                             "--delta", "1/20", "--priors", "60", "--radius", "10", "--source-scale", "2^24"),
    "target-zero": ("calibrate-lower", "--claim", "target-zero", "--budget", "2", "--radius", "6",
                    "--priors", "101", "--scale", "2^30"),
    "blocks-finite-law": ("blocks", "--gamma", "2/5", "--weights", "3,1,2", "--offset", "0", "--budget", "2",
                          "--epsilon", "1/3", "--splits", "1+1", "--targets", "1/2"),
}

PROVENANCE = {("producer", "name"), ("producer", "version")}

# Fields no check reads today, by kind, each with its reason: prose for people and labels, documented
# as outside the claims.
UNREAD_TODAY = {
    "brace-run/1": {
        ("input", "bank", "name"): "a label of the input (the bank's file name): names it, claims nothing",
        ("result", "claim", "reason"): "prose for people explaining the claim's status, outside the claims",
    },
    "brace-compare/1": {
        ("input", "bank", "name"): "a label of the input (the bank's file name): names it, claims nothing",
        ("result", "brace", "claim", "reason"): "prose for people, outside the claims (as in brace-run/1)",
    },
    "hierarchy/1": {
        ("input", "numerics", "logit_range"): "how the producer chose the grid; outside the claims "
                                              "(docs/certificates.md, hierarchy/1): every grid is checked as given",
    },
    **{kind: {("input", "numerics", f"{side}_logit_range"): "how the producer chose the grid, as hierarchy/1's "
              "logit_range: every grid is checked as given" for side in ("lower", "upper")}
       for kind in ("minimum-deletion/1", "minimum-depth/1")},
    "epsilon-bracket/1": {
        ("result", "upper_witness", "input", "numerics", "logit_range"): "the embedded hierarchy/1's (see there)",
    },
    **{kind: {("input", "effort"): "how much the producer's search could spend (an opt-in of the request); "
              "outside the claims (docs/certificates.md): every recipe is checked as given, and the auditor's own "
              "--budget decides whether the check runs"} for kind in ("dpsgd/1", "accounting/1")},
}

# Schema leaves that no certificate used here holds, by kind, each with its reason.
_WITNESS_SOURCE = ("the calibration's witnesses always have width-based sources; an explicit source of a "
                   "dg-interval/1 is read by the same checks (verify_dg), exercised by "
                   "dg-interval-c1-explicit-source.json")
_SAME_MECHANISM = ("an embedded bound must be for the discrete Gaussian and the enclosing input's source "
                   "{radius, scale}: a discrete-Laplace or width-sourced dg-interval/1 is rejected for being "
                   "one (auditor.lower.embedded.check_question), so no valid certificate holds these fields")
_CAPPED_LOWER = ("a hierarchy-witness bracket's lower witness is a target-zero calibration-lower/1 (another claim "
                 "is a false claim); the capped-preparation fields are read by the same calibration-lower/1 checks, "
                 "exercised by calibration-lower-k2-capped-c4.json")
_ADD_LOWER = ("the add order's lower side is computed only when it can decide the answer (the remove order "
              "gives it at every reference); it is read by the same checks as the remove order's")
_ONE_POINT = ("an embedded dpsgd/1 answers at the one target ε (the ε-points form; a δ question is another "
              "question, a FAIL), so it never holds the fields of ε(δ); the same dpsgd/1 checks read them in the "
              "dpsgd/1 references")
_ONE_STAGE = ("an embedded dpsgd/1 is of exactly one stage (a schedule is another question, a FAIL), so no product "
              "combines stages; the same dpsgd/1 checks read combine windows")
_CHEAP_CALIBRATION = ("the calibration references' dpsgd/1 certificates are too cheap to regrid or split (the "
                      "producer does both only for compositions of 10^9 work units or more); the same dpsgd/1 "
                      "checks read them (dpsgd-q0_01-s1-t1000-epsilons.json, dpsgd-q0_01-s1-t1001-epsilons.json, "
                      "and embedded certificates in tests/auditor/test_pld_regrid.py and test_pld_split.py; the "
                      "coarse tail: dpsgd-coarse-tail, made here)")
NOT_EXERCISED = {
    "accounting/1": {("input", "event", "step_counts", "[]"): "tree aggregation's list of step counts: not held "
                     "by the certificates this survey reads; the reference accounting-special-tree-aggregation-… "
                     "holds one, and tests/auditor/test_accounting_checks.py checks the list form"},
    "dpsgd/1": {("result", "discretisation", "windows", "add", "lower") + rest: _ADD_LOWER
                for rest in (("combine", "[]", "[]"), ("stages", "[]", "[]", "[]"))},
    "dpsgd-calibration/1": {
        **{("result", side, "input", "delta"): _ONE_POINT for side in ("meets", "misses")},
        **{("result", side, "input", "effort"): "a calibration writes its dpsgd/1 certificates at the default "
           "effort; an opt-in effort claims nothing (dpsgd/1 in UNREAD_TODAY)" for side in ("meets", "misses")},
        **{("result", side, "result", key): _ONE_POINT for side in ("meets", "misses")
           for key in ("epsilon_lo", "epsilon_hi", "epsilon_lo_display", "epsilon_hi_display", "lower_order")},
        **{("result", side, "result", "discretisation", "windows", order, chain, "combine", "[]", "[]"): _ONE_STAGE
           for side in ("meets", "misses") for order in ("remove", "add") for chain in ("upper", "lower")
           if (order, chain) != ("add", "lower")},
        **{("result", side, "result", "discretisation", "windows", "add", "lower") + rest: _ADD_LOWER
           for side in ("meets", "misses") for rest in (("combine", "[]", "[]"), ("stages", "[]", "[]", "[]"))},
        **{("result", side, "result", "discretisation", "regrids", "[]") + rest: _CHEAP_CALIBRATION
           for side in ("meets", "misses")
           for rest in (("after",), ("factor",), ("share_bits",), ("shares", "[]", "[]"))},
        **{("result", side, "result", "discretisation", "split") + rest: _CHEAP_CALIBRATION
           for side in ("meets", "misses")
           for rest in (("body", "remove", "[]"), ("body", "add", "[]"), ("factor",), ("share_bits",),
                        ("shares", "[]", "[]"), ("coarse_tail",))},
    },
    "finite-budget/1": {("result", "rewards", "[]", "lo"): "the bound needs the rewards' upper ends only: the "
                        "producer writes hi alone (lo is optional in the schema, checked when present)"},
    "minimum-deletion/1": {("result", "lowers", "[]", "removed", "[]"): "every reference removes one cut, so the "
                           "only model with one cut fewer removed is S_all itself (removed = [])"},
    "calibration/1": {("result", witness, "input", "source", key): _WITNESS_SOURCE
                      for witness in ("lower_witness", "upper_witness") for key in ("radius", "scale")},
    **{kind: {(("result", bound) + rest): _SAME_MECHANISM
              for rest in (("input", "noise", "t"), ("input", "source", "width"), ("result", "source", "noise", "t"))}
       for kind, bound in (("deadline-witness/1", "reference"), ("separation/1", "privacy_bound"))},
    "epsilon-bracket/1": {
        **{("result", "lower_witness", "input", key): _CAPPED_LOWER
           for key in ("cap", "event_threshold", "horizon", "target")},
        ("result", "lower_witness", "input", "signs", INDEX): _CAPPED_LOWER,
        **{("result", "lower_witness", "result", key): _CAPPED_LOWER
           for key in ("atoms", "hit", "suffix_p", "suffix_q")},
        **{("result", "lower_witness", "result", "window", key): _CAPPED_LOWER for key in ("low", "high")},
        ("result", "upper_witness", "input", "model", "depth"): "the quick hierarchy-witness bracket's hierarchy "
            "is a cut game; a depth model is read by the same hierarchy/1 checks (hierarchy-c8-p4-delta1e-4.json, and "
            "the slow bracket of the c8 references in test_epsilon_bracket_checks.py)",
        ("result", "upper_witness", "input", "query", "epsilon"): "an upper witness answers the δ query (an ε "
            "query is a false claim); an ε query is read by the same hierarchy/1 checks",
    },
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = {}
    folder = tmp_path_factory.mktemp("made")
    for name, args in MADE.items():
        path = folder / f"{name}.json"
        done = subprocess.run([sys.executable, "-m", "producer", *args, "-o", str(path), "--quiet"],
                              capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
        assert done.returncode == 0, done.stderr
        out[name] = json.loads(path.read_text())
    # epsilon-bracket/1 has no reference yet: brackets assembled around the producer's witnesses
    out["bracket-product-pair"] = bracket_corpus.product_pair()
    out["bracket-laplace-pair"] = bracket_corpus.laplace_pair()
    out["bracket-hierarchy-null-lower"] = bracket_corpus.small_hierarchy_witness(lower=False)
    out["bracket-hierarchy-target-zero"] = bracket_corpus.small_hierarchy_witness()
    # noise/1: assembled around the producer's plain-composition/1 and dg-interval/1 certificates
    for name, case in (("gaussian-pair", noise_corpus.GAUSSIAN_PAIR), ("laplace-pair", noise_corpus.LAPLACE_PAIR),
                       ("gaussian-game", noise_corpus.GAUSSIAN_GAME), ("laplace-game", noise_corpus.LAPLACE_GAME)):
        out[f"noise-{name}"] = noise_corpus.certificate(case)
    out["noise-gaussian-game-explicit-source"] = noise_corpus.certificate(noise_corpus.GAUSSIAN_GAME,
                                                                          noise_corpus.EXPLICIT_SOURCE)
    # noise/1's releases form: the factor, the question's releases, embedded releases-form certificates
    out["noise-releases-mixed"] = noise_corpus.certificate(noise_corpus.MIXED_RELEASES)
    out["noise-releases-one-laplace"] = noise_corpus.certificate(noise_corpus.ONE_LAPLACE)
    # plain-composition/1's releases form and relative widths, beside their references (brute-force built)
    out["plain-releases-mixed"] = plain_releases_corpus.built("mixed")
    out["plain-releases-relative"] = plain_releases_corpus.built("tiny-relative")
    # accounting/1: the dpsgd/1 references rewritten (every event class in one tree), and hand-built families
    dpsgd = ROOT / "certificates" / "dpsgd"
    # (the epsilons ones carry regrids, result/discretisation/regrids, and at T = 1001 a split)
    for name in ("dpsgd-q0_01-s1-t1000-delta1e-5.json", "dpsgd-gaussian-s2-t10-epsilons.json",
                 "dpsgd-q0_01-s1-t1000-epsilons.json", "dpsgd-q0_01-s1-t1001-epsilons.json"):
        cert = accounting_corpus.from_dpsgd(json.loads((dpsgd / name).read_text()))
        out[f"accounting-{name}"] = accounting_corpus.with_dropped_leaves(cert)
    # a split's coarse tail (result/discretisation/split/coarse_tail), inserted into a reference, and rewritten
    from tests.auditor.test_pld_coarse_tail import _with_coarse_tail
    out["dpsgd-coarse-tail"] = _with_coarse_tail(json.loads((dpsgd / "dpsgd-q0_01-s1-t1000-delta1e-5.json")
                                                            .read_text()), 1500)
    out["accounting-coarse-tail"] = accounting_corpus.from_dpsgd(out["dpsgd-coarse-tail"])
    for name in ("laplace", "laplace-sampled", "randomized-response", "randomized-response-once", "mixture",
                 "mixture-once", "mixed", "without-replacement", "without-replacement-laplace", "discrete-laplace",
                 "discrete-gaussian", "discrete-gaussian-sampled"):
        out[f"accounting-{name}"] = accounting_corpus.family_certificate(name)
    out["accounting-delta-mixed"] = accounting_corpus.delta_certificate("mixed", Fraction(9, 10), Fraction(11, 10))
    # accounting/1's truncated Poisson sampling at the top of the tree (its fields; its stage's n, B and p̂)
    from producer import api
    out["accounting-truncated"] = api.account(
        {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 100, "sampling_probability": "1/10",
         "truncated_batch_size": 12, "noise_multiplier": 2}, delta="1e-5").as_dict()
    # accounting/1's lattice route: result.lattice (points and ε(δ))
    for name in ("lattice-rr", "lattice-rr-delta"):
        out[f"accounting-{name}"] = accounting_corpus.lattice_certificate(name)
    # a request's opt-in effort (input.effort), on both kinds of the pld route
    from producer import api
    out["dpsgd-effort"] = api.dpsgd(sampling_rate="1/20", noise_multiplier=1, steps=7, epsilons="1",
                                    rel_width="1/100", effort=2).as_dict()
    laplace = {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
               "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": 1}}
    out["accounting-effort"] = api.account({"class_name": "SelfComposedDpEvent", "count": 5, "event": laplace},
                                           delta="1e-5", rel_width="1/100", effort=2).as_dict()
    # dpsgd-calibration/1: assembled around the producer's dpsgd/1 certificates, every solve and both countings
    for name in ("noise-tf-privacy", "steps", "epochs-opacus", "sampling-rate"):
        out[f"dpsgd-calibration-{name}"] = dpsgd_calibration_corpus.certificate(name)
    return out


def _survey(certs):
    """{kind: (logs, present paths)} after verifying every certificate with tracked reads (each OK)."""
    found = defaultdict(lambda: ([], set()))
    for name, cert in certs:
        report, log = read_paths(cert)
        assert report.outcome == "OK", (name, report.failures[:2], report.error, report.unchecked)
        logs, present = found[cert["schema"]]
        logs.append(log)
        present |= present_paths(cert)
    return found


def _judge(found):
    """{kind: (unread, absent)} of the schema leaves, the exemptions of the module docstring applied."""
    out = {}
    for kind, (logs, present) in found.items():
        unread, absent = set(), set()
        for path, fixed in schema_leaves(schema_of(kind)).items():
            if fixed or path in (("schema",), ("digest",)) or path[-2:] in PROVENANCE:
                continue
            if not any(p[:len(path)] == path for p in present):
                absent.add(path)
            elif not any(log.covers(path) for log in logs):
                unread.add(path)
        out[kind] = (unread, absent)
    return out


def _show(paths):
    return sorted("/".join(p) for p in paths)


# NOT_EXERCISED entries that only the slow references exercise: the survey over every reference drops them.
SLOW_EXERCISES = {
    "epsilon-bracket/1": {("result", "upper_witness", "input", "model", "depth")},   # the C = 8 P_4 bracket
}


def _assert_every_field_is_read(judged, every=False):
    problems = []
    for kind, (unread, absent) in sorted(judged.items()):
        allowed, skipped = set(UNREAD_TODAY.get(kind, {})), set(NOT_EXERCISED.get(kind, {}))
        if every:
            skipped -= SLOW_EXERCISES.get(kind, set())
        if unread - allowed:
            problems.append(f"{kind}: no check reads {_show(unread - allowed)}")
        if allowed - unread:
            problems.append(f"{kind}: UNREAD_TODAY lists {_show(allowed - unread)}, which is read or absent: "
                            "remove it")
        if absent - skipped:
            problems.append(f"{kind}: no certificate here holds {_show(absent - skipped)}: exercise it or list "
                            "it in NOT_EXERCISED with the reason")
        if skipped - absent:
            problems.append(f"{kind}: NOT_EXERCISED lists {_show(skipped - absent)}, which is exercised or "
                            "gone: remove it")
    assert not problems, "\n".join(problems)


def _files(paths):
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in paths]


@pytest.mark.slow  # in make references (CI); the default suite stays within minutes
def test_every_field_of_every_kind_is_read_by_its_checks(made):
    _assert_every_field_is_read(_judge(_survey(_files(QUICK) + sorted(made.items()))))


@pytest.mark.slow
def test_every_field_is_read_over_every_reference(made):
    _assert_every_field_is_read(_judge(_survey(_files(EVERY) + sorted(made.items()))), every=True)


@pytest.mark.slow
def test_every_kind_is_surveyed(made):
    from auditor.checks import KINDS
    kinds = {cert["schema"].split("/")[0] for _, cert in _files(QUICK) + sorted(made.items())}
    assert kinds == set(KINDS)


# ---- the tracking itself ---------------------------------------------------------------------------

def test_tracking_sees_a_read_and_misses_an_unread_field():
    """A check that reads one field of two: the log covers that one only; equality reads a whole object."""
    from tests.auditor.field_reads import ReadLog, TrackedDict
    log = ReadLog()
    cert = TrackedDict({"input": {"a": 1, "b": [1, 2]}, "result": {"c": {"d": 1}, "e": "x"}}, (), log)
    assert cert["input"]["a"] == 1
    assert cert["result"]["c"] == {"d": 1}
    assert [x for x in cert["input"]["b"]] == [1, 2]
    assert log.covers(("input", "a")) and log.covers(("result", "c", "d")) and log.covers(("input", "b", INDEX))
    assert not log.covers(("result", "e"))
    assert set(cert["result"]) == {"c", "e"} and not log.covers(("result", "e"))   # keys alone read no value
