"""accounting/1 certificates for the auditor's tests, made without the producer (docs/accounting.md).

* :func:`from_dpsgd`: a ``dpsgd/1`` reference rewritten as the ``accounting/1`` certificate of the same question:
  each stage (q, σ, T) a ``SelfComposedDpEvent`` of count T of a ``PoissonSampledDpEvent`` of a
  ``GaussianDpEvent`` (a ``ComposedDpEvent`` of them for a schedule), the relation ``add_or_remove_one``, the
  orders remove/add renamed forward/backward, the stages sorted by the canonical JSON of their mechanism and the
  recipe's per-stage lists (ranges, window lists) permuted the same way (the ``combine`` windows are kept: with
  two stages the one product is the same either way round, convolution being commutative).
* :func:`full_windows`: a recipe that truncates nothing (every window the whole product), so that a hand-built
  certificate's bounds are those of its grid alone.
* :func:`certificate`: a sealed ``accounting/1`` certificate from its parts.
* :data:`FAMILIES`, :func:`family_certificate`, :func:`delta_certificate`: certificates of the other families
  (Laplace, sampled Laplace under either relation, two Laplace steps, randomized response, a mixture of
  Gaussians, a Poisson sampling of a composition of Gaussian events, the replace-one sampled Gaussian, a
  Gaussian sampled without replacement, a Laplace mechanism sampled without replacement once and twice, a discrete
  Laplace (once and thrice) and a discrete Gaussian sampled without replacement, a
  replace-one tree of a Gaussian and randomized response) whose recipes are chosen here and whose claims are
  set from the mpmath references of :mod:`tests.auditor.accounting_reference`: lower = low·δ and
  upper = high·δ at each ε (10 % either side by default), or ε_lo = low·ε(δ), ε_hi = high·ε(δ).
"""

import copy
import json
from fractions import Fraction

import mpmath

from auditor.claims import outward
from auditor.rationals import write_rational
from tests.auditor import accounting_reference as ref
from tests.auditor.accounting_reference import mp
from tests.reseal import reseal

PRODUCER = {"name": "dp-certify-tests", "version": "0"}
ORDERS = ("forward", "backward")
ORDER_NAMES = {"remove": "forward", "add": "backward", None: None}


def canonical(mechanism):
    return json.dumps(mechanism, sort_keys=True, separators=(",", ":"))


def gaussian_event(q, sigma, steps, poisson=True):
    inner = {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}
    if poisson:
        inner = {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": inner}
    return {"class_name": "SelfComposedDpEvent", "count": steps, "event": inner}


def from_dpsgd(cert, poisson=True):
    """The ``accounting/1`` certificate of a ``dpsgd/1`` certificate's question and recipe (module docstring)."""
    inp, res = cert["input"], copy.deepcopy(cert["result"])
    stages = inp["stages"]
    events = [gaussian_event(s["sampling_rate"], s["noise_multiplier"], s["steps"],
                             poisson=poisson or s["sampling_rate"] != "1") for s in stages]
    event = events[0] if len(events) == 1 else {"class_name": "ComposedDpEvent", "events": events}
    mechanisms = [{"mechanism": "gaussian", "sampling": s["sampling_rate"], "sigma": s["noise_multiplier"]}
                  for s in stages]
    order = sorted(range(len(stages)), key=lambda s: canonical(mechanisms[s]))
    assert len({canonical(m) for m in mechanisms}) == len(stages), "equal stages would merge"
    assert len(stages) <= 2 or order == sorted(order), "combine windows are only kept for two stages"
    out = {"schema": "accounting/1", "producer": dict(PRODUCER),
           "input": {"event": event, "relation": "add_or_remove_one", "rel_width": inp["rel_width"]},
           "result": {"stages": [{"mechanism": mechanisms[s], "count": stages[s]["steps"]} for s in order],
                      "route": res["route"], "discretisation": None},
           "digest": ""}
    for key in ("delta", "epsilons"):
        if key in inp:
            out["input"][key] = copy.deepcopy(inp[key])
    for key in ("epsilon_lo", "epsilon_hi", "epsilon_lo_display", "epsilon_hi_display"):
        if key in res:
            out["result"][key] = res[key]
    if "lower_order" in res:
        out["result"]["lower_order"] = ORDER_NAMES[res["lower_order"]]
    if "points" in res:
        out["result"]["points"] = [dict(pt, lower_order=ORDER_NAMES[pt["lower_order"]]) for pt in res["points"]]
    d = res["discretisation"]
    if d is not None:
        windows = {}
        for old, new in (("remove", "forward"), ("add", "backward")):
            chains = {}
            for side in ("upper", "lower"):
                chain = d["windows"][old][side]
                chains[side] = None if chain is None else {"stages": [chain["stages"][s] for s in order],
                                                           "combine": chain["combine"]}
            windows[new] = chains
        out["result"]["discretisation"] = {"grid": d["grid"], "p_bits": d["p_bits"], "q_bits": d["q_bits"],
                                           "ranges": [d["ranges"][s] for s in order], "windows": windows}
        if "regrids" in d:   # one stage: the same regrids
            out["result"]["discretisation"]["regrids"] = d["regrids"]
        if "split" in d:     # one stage: the same split, its bodies under the engine's order names
            body = {new: d["split"]["body"][old] for old, new in (("remove", "forward"), ("add", "backward"))}
            out["result"]["discretisation"]["split"] = dict(d["split"], body=body)
    return reseal(out)


DROPPED = [   # leaves that cannot change the output's law (docs/accounting.md §3), of every event class
    {"class_name": "NoOpDpEvent"},
    {"class_name": "SelfComposedDpEvent", "count": 0,
     "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "2"}},
    {"class_name": "PoissonSampledDpEvent", "sampling_probability": "0",
     "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}},
    {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": "1", "sensitivities": ["0", "0"],
     "sampling_probs": ["1/3", "2/3"]},
    {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1", "sensitivity": 0},
    {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/2",
     "event": {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "2", "sensitivity": 0}},
    {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": 100, "sampling_probability": "1/2",
     "truncated_batch_size": 0, "noise_multiplier": "1"},
]


def with_dropped_leaves(cert):
    """``cert`` with its tree composed with :data:`DROPPED` (the same stages, the same question), resealed."""
    out = copy.deepcopy(cert)
    events = [out["input"]["event"]] + copy.deepcopy(DROPPED)
    out["input"]["event"] = {"class_name": "ComposedDpEvent", "events": events}
    return reseal(out)


def reversed_schedule(cert):
    """A two-stage ``dpsgd/1`` certificate with its stages listed the other way round (the same question: the
    product of the two stage powers is commutative), resealed."""
    out = copy.deepcopy(cert)
    out["input"]["stages"].reverse()
    d = out["result"]["discretisation"]
    d["ranges"].reverse()
    for order in ("remove", "add"):
        for side in ("upper", "lower"):
            if d["windows"][order][side] is not None:
                d["windows"][order][side]["stages"].reverse()
    return reseal(out)


def power_windows(lo, hi, steps):
    """Windows of the T-fold power of an array on [lo, hi] that keep every entry, and the power's index range."""
    windows, (a, b) = [], (lo, hi)
    for bit in bin(steps)[3:]:
        a, b = 2 * a, 2 * b
        windows.append([a, b])
        if bit == "1":
            a, b = a + lo, b + hi
            windows.append([a, b])
    return windows, (a, b)


def full_windows(ranges, counts, lower=("forward", "backward")):
    """``windows`` of a recipe that truncates nothing, both orders; lower chains for the orders in ``lower``."""
    chains = {}
    for order in ("forward", "backward"):
        per_stage, spans = [], []
        for (lo, hi), T in zip(ranges, counts):
            if order == "backward":
                lo, hi = -hi, -lo
            w, span = power_windows(lo, hi, T)
            per_stage.append(w)
            spans.append(span)
        combine, (a, b) = [], spans[0]
        for c, d in spans[1:]:
            a, b = a + c, b + d
            combine.append([a, b])
        chain = {"stages": per_stage, "combine": combine}
        chains[order] = {"upper": chain, "lower": copy.deepcopy(chain) if order in lower else None}
    return chains


def discretisation(grid, p_bits, q_bits, ranges, counts, lower=("forward", "backward")):
    return {"grid": grid, "p_bits": p_bits, "q_bits": q_bits, "ranges": [list(r) for r in ranges],
            "windows": full_windows(ranges, counts, lower)}


def point(epsilon, lower, upper, lower_order):
    lower, upper = Fraction(lower), Fraction(upper)
    return {"epsilon": write_rational(Fraction(epsilon)), "lower": write_rational(lower),
            "upper": write_rational(upper), "lower_display": outward(lower, 10)[0],
            "upper_display": outward(upper, 10)[1], "lower_order": lower_order if lower > 0 else None}


def certificate(event, relation, stages, question, rel_width, result):
    """A sealed ``accounting/1`` certificate: ``question`` {"delta": ...} or {"epsilons": [...]}, ``result`` the
    fields after ``stages`` (route, discretisation, and the ends or points)."""
    cert = {"schema": "accounting/1", "producer": dict(PRODUCER),
            "input": dict({"event": event, "relation": relation, "rel_width": rel_width}, **question),
            "result": dict({"stages": stages}, **result), "digest": ""}
    return reseal(cert)


# ---- hand-built certificates of the other families -------------------------------------------------------------

def _frac(x):
    return Fraction(mpmath.nstr(x, 30))


def _laplace_range(q, b, N):
    low = mpmath.log(1 - mp(q) + mp(q) * mpmath.exp(-1 / mp(b)))
    high = mpmath.log(1 - mp(q) + mp(q) * mpmath.exp(1 / mp(b)))
    return [int(mpmath.floor(low * N)) - 1, int(mpmath.floor(high * N)) + 2]


def _rr_range(p, k, N):
    L = mpmath.log((1 - mp(p) + mp(p) / k) / (mp(p) / k))
    top = int(mpmath.floor(L * N))
    return [-top - 2, top + 2]


def _discrete_range(law, N, top=None):
    """[lo, hi] holding every atom of ``law`` (or up to the loss ``top``, a truncation for unbounded losses)."""
    values = [mp(v) for v, _, _ in law.atoms]
    high = max(values) if top is None else mp(top)
    return [int(mpmath.floor(max(min(values), -high) * N)) - 2, int(mpmath.floor(high * N)) + 2]


def _composed(law, steps):
    """The composed atom law of ``steps`` steps of a lattice law (atom values as mpmath numbers)."""
    return ref.atom_law(ref.Law(law.preimage, law.cdf_p, law.cdf_q, [(mp(v), p, q) for v, p, q in law.atoms]), steps)


DLAP = ref.discrete_laplace(1, Fraction(1, 2), 2)
DLAP_SAMPLED = ref.discrete_laplace(Fraction(1, 4), Fraction(1), 2)
DLAP_REPLACE = ref.discrete_laplace(1, Fraction(1), 2)            # replace-one, s = 1: the pair of shift 2
DLAP_REPLACE_SAMPLED = ref.replace_discrete_laplace(Fraction(1, 10), Fraction(1, 2), 1)   # replace-one, q < 1
DGAUSS = ref.discrete_gaussian(1, Fraction(4), 1)
DGAUSS_REPLACE_SAMPLED = ref.replace_discrete_gaussian(Fraction(1, 5), Fraction(2), 1)   # replace-one, q < 1
DGAUSS_SAMPLED = ref.discrete_gaussian(Fraction(1, 5), Fraction(2), 2)
DGAUSS_REPLACE = ref.discrete_gaussian(1, Fraction(9), 2)         # replace-one, s = 1: the pair of shift 2


def _merged(law):
    """A law of atoms with the atoms of equal value (to 30 digits) merged."""
    merged = {}
    for v, p, q in law.atoms:
        key = mpmath.nstr(mp(v), 30)
        old = merged.get(key, (v, 0, 0))
        merged[key] = (v, old[1] + p, old[2] + q)
    return ref.Law(law.preimage, law.cdf_p, law.cdf_q, list(merged.values()), total=law.total)


WOR_DLAP = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 100,
            "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 2}}
WOR_DLAP_STAGE = {"mechanism": "discrete_laplace_without_replacement", "parameter": "1/2", "sampling": "1/10",
                  "sensitivity": 2}
WOR_DLAP_LAW = _merged(ref.without_replacement_discrete_laplace(Fraction(1, 10), Fraction(1, 2), 2))
"""100 of 1000 records without replacement, then the discrete Laplace a = 1/2, s = 2: the symmetrised pair."""
WOR_DGAUSS = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 100,
              "event": {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "2", "sensitivity": 1}}
WOR_DGAUSS_STAGE = {"mechanism": "discrete_gaussian_without_replacement", "sampling": "1/10", "sensitivity": 1,
                    "sigma_squared": "2"}
WOR_DGAUSS_LAW = ref.without_replacement_discrete_gaussian(Fraction(1, 10), Fraction(2), 1)


def _discrete_truth(law):
    return lambda e: {o: ref.delta_lattice(law, e, o) for o in ORDERS}


RR = {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "3/4", "num_buckets": 4}
WITHOUT_REPLACEMENT = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000,
                       "sample_size": 100, "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1"}}
RR_STAGE = {"buckets": 4, "mechanism": "randomized_response", "noise": "3/4", "sampling": "1"}
WOR_LAPLACE = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 100,
               "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1/2"}}
WOR_LAPLACE_STAGE = {"mechanism": "laplace_without_replacement", "sampling": "1/10", "scale": "1/2"}

COMPOSITION = {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
               "event": {"class_name": "ComposedDpEvent", "events": [
                   {"class_name": "GaussianDpEvent", "noise_multiplier": "1"},
                   {"class_name": "SelfComposedDpEvent", "count": 2,
                    "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "2"}}]}}
COMPOSITION_LAW = ref.sampled_gaussian(Fraction(1, 10), mpmath.sqrt(mp(Fraction(2, 3))))
"""The one Gaussian of :data:`COMPOSITION`: σ = √(2/3) in mpmath."""
REPLACE_COMPOSITION_LAW = ref.replace_gaussian(Fraction(1, 10), mpmath.sqrt(mp(Fraction(2, 3))))
"""The same under replace-one: the replace-one sampled Gaussian of σ = √(2/3)."""
WOR_COMPOSITION = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 100,
                   "event": COMPOSITION["event"]}
"""The composition of :data:`COMPOSITION` on batches of 100 of 1000 records drawn without replacement."""


def _wor_laplace_range(gamma, b, N):
    """[−H, H] past the buckets of ±a₊, a₊ = log(1 − γ + γ·e^{2/b}) the loss's largest value."""
    top = mpmath.log(1 - mp(gamma) + mp(gamma) * mpmath.exp(2 / mp(b)))
    H = int(mpmath.floor(top * N)) + 2
    return [-H, H]


def _replace_laplace_range(q, b, N):
    """[−H, H] past the buckets of ±ℓ_max, the replace-one sampled Laplace's extreme losses."""
    H = int(mpmath.floor(ref.replace_sampled_laplace(q, b).top * N)) + 2
    return [-H, H]


REPLACE_LAPLACE = ref.replace_sampled_laplace(Fraction(1, 5), Fraction(1, 2))
REPLACE_LAPLACE_HALF = ref.replace_sampled_laplace(Fraction(1, 2), Fraction(1, 2))    # atoms ±2: grid levels ±80

# name: (event, relation, [(stage mechanism, count, range)], grid, ε list, reference δ per order at ε)
FAMILIES = {
    "laplace": (
        {"class_name": "LaplaceDpEvent", "noise_multiplier": "1"}, "add_or_remove_one",
        [({"mechanism": "laplace", "sampling": "1", "scale": "1"}, 1, [-64, 65])], 64,
        ["0", "1/2", "3/4"], lambda e: {o: ref.delta_one(ref.laplace(1, 1), e, o) for o in ORDERS}),
    "laplace-sampled": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/5",
         "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1/2"}}, "add_or_remove_one",
        [({"mechanism": "laplace", "sampling": "1/5", "scale": "1/2"}, 1,
          _laplace_range(Fraction(1, 5), Fraction(1, 2), 100))],
        100, ["0", "1/10", "1/2"],
        lambda e: {o: ref.delta_one(ref.laplace(Fraction(1, 5), Fraction(1, 2)), e, o) for o in ORDERS}),
    "replace-laplace-sampled": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/5",
         "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1/2"}}, "replace_one",
        [({"mechanism": "laplace", "sampling": "1/5", "scale": "1/2"}, 1,
          _replace_laplace_range(Fraction(1, 5), Fraction(1, 2), 100))],
        100, ["0", "1/10", "1/2"], lambda e: {o: ref.delta_one(REPLACE_LAPLACE, e, o) for o in ORDERS}),
    "replace-laplace-half": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/2",
         "event": {"class_name": "LaplaceDpEvent", "noise_multiplier": "1/2"}}, "replace_one",
        [({"mechanism": "laplace", "sampling": "1/2", "scale": "1/2"}, 1,
          _replace_laplace_range(Fraction(1, 2), Fraction(1, 2), 40))],
        40, ["0", "1/2", "3/2"], lambda e: {o: ref.delta_one(REPLACE_LAPLACE_HALF, e, o) for o in ORDERS}),
    "laplace-twice": (
        {"class_name": "SelfComposedDpEvent", "count": 2, "event": {"class_name": "LaplaceDpEvent",
                                                                    "noise_multiplier": "1"}}, "add_or_remove_one",
        [({"mechanism": "laplace", "sampling": "1", "scale": "1"}, 2, [-64, 65])], 64,
        ["1/2", "1"], lambda e: {"forward": ref.delta_laplace_twice(1, e)}),
    "randomized-response": (
        {"class_name": "SelfComposedDpEvent", "count": 5, "event": RR}, "replace_one",
        [(RR_STAGE, 5, _rr_range(Fraction(3, 4), 4, 40))], 40,
        ["0", "1", "2"], lambda e: {"forward": ref.delta_rr(Fraction(3, 4), 4, 5, e)}),
    "mixture": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/4",
         "event": {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": "1", "sensitivities": ["2", "1"],
                   "sampling_probs": ["1/2", "1/2"]}}, "add_or_remove_one",
        [({"mechanism": "mixture_of_gaussians", "probabilities": ["1/2", "1/2"], "sampling": "1/4",
           "sensitivities": ["1", "2"], "sigma": "1"}, 1, [-29, 1200])], 100,
        ["0", "1/2", "1"],
        lambda e: {o: ref.delta_one(ref.mixture(1, [1, 2], [Fraction(1, 2)] * 2, Fraction(1, 4)), e, o)
                   for o in ORDERS}),
    "gaussian-composition": (   # a noisy sum and a noisy count per step: σ² = 1/(1 + 2/4) = 2/3 (docs/accounting.md §3)
        COMPOSITION, "add_or_remove_one",
        [({"mechanism": "gaussian_composition", "sampling": "1/10", "sigma_squared": "2/3"}, 1, [-12, 1500])], 100,
        ["0", "1/2", "2"], lambda e: {o: ref.delta_one(COMPOSITION_LAW, e, o) for o in ORDERS}),
    "replace-gaussian-composition": (   # the same tree under replace-one: the replace-one Gaussian of σ² = 2/3
        COMPOSITION, "replace_one",
        [({"mechanism": "gaussian_composition", "sampling": "1/10", "sigma_squared": "2/3"}, 1, [-1500, 1500])], 100,
        ["0", "1/2", "2"], lambda e: {o: ref.delta_one(REPLACE_COMPOSITION_LAW, e, o) for o in ORDERS}),
    "without-replacement-composition": (   # its batches drawn without replacement: the symmetrised pair, σ² = 2/3
        WOR_COMPOSITION, "replace_one",
        [({"mechanism": "gaussian_composition_without_replacement", "sampling": "1/10", "sigma_squared": "2/3"}, 1,
          [-1000, 1000])], 100,
        ["0", "1/2", "2"],
        lambda e: {o: ref.delta_without_replacement(Fraction(1, 10), mpmath.sqrt(mp(Fraction(2, 3))), e)
                   for o in ORDERS}),
    "mixture-once": (
        {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": "1", "sensitivities": ["2", "0", "1"],
         "sampling_probs": ["1/4", "1/2", "1/4"]}, "add_or_remove_one",
        [({"mechanism": "mixture_of_gaussians", "probabilities": ["1/2", "1/4", "1/4"], "sampling": "1",
           "sensitivities": ["0", "1", "2"], "sigma": "1"}, 1, [-70, 1200])], 100,
        ["0", "1"],
        lambda e: {o: ref.delta_one(ref.mixture(1, [0, 1, 2], [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], 1),
                                    e, o) for o in ORDERS}),
    "randomized-response-once": (
        {"class_name": "RandomizedResponseDpEvent", "noise_parameter": "1/3", "num_buckets": 5}, "replace_one",
        [({"buckets": 5, "mechanism": "randomized_response", "noise": "1/3", "sampling": "1"}, 1,
          _rr_range(Fraction(1, 3), 5, 30))], 30,
        ["0", "1"], lambda e: {"forward": ref.delta_rr(Fraction(1, 3), 5, 1, e)}),
    "replace-gaussian": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
         "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "1/2"}}, "replace_one",
        [({"mechanism": "gaussian", "sampling": "1/10", "sigma": "1/2"}, 1, [-1500, 1500])], 100,
        ["0", "1/2", "2"],
        lambda e: {o: ref.delta_one(ref.replace_gaussian(Fraction(1, 10), Fraction(1, 2)), e, o)
                   for o in ORDERS}),
    "without-replacement": (   # 100 of 1000 records without replacement, then the replace-one Gaussian σ = 1
        WITHOUT_REPLACEMENT, "replace_one",
        [({"mechanism": "gaussian_without_replacement", "sampling": "1/10", "sigma": "1"}, 1, [-1000, 1000])], 100,
        ["0", "1/2", "2"],
        lambda e: {o: ref.delta_without_replacement(Fraction(1, 10), 1, e) for o in ORDERS}),
    "without-replacement-mixed": (   # and the whole dataset of 500 as the batch: N(1, 4) against N(−1, 4)
        {"class_name": "ComposedDpEvent", "events": [
            WITHOUT_REPLACEMENT,
            {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 500, "sample_size": 500,
             "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "2"}}]}, "replace_one",
        [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 1, [-1000, 1000]),
         ({"mechanism": "gaussian_without_replacement", "sampling": "1/10", "sigma": "1"}, 1, [-1000, 1000])], 100,
        ["0", "1/2", "2"],
        lambda e: {"forward": ref.delta_gaussian_with_without_replacement(1, Fraction(1, 10), 1, e)}),
    "without-replacement-laplace": (   # 100 of 1000 records without replacement, then the replace-one Laplace b = 1/2
        WOR_LAPLACE, "replace_one",
        [(WOR_LAPLACE_STAGE, 1, _wor_laplace_range(Fraction(1, 10), Fraction(1, 2), 100))], 100,
        ["0", "1/2", "1"],
        lambda e: {o: ref.hockey_laplace_ab(Fraction(1, 10), Fraction(1, 2), e) for o in ORDERS}),
    "without-replacement-laplace-twice": (
        {"class_name": "SelfComposedDpEvent", "count": 2, "event": WOR_LAPLACE}, "replace_one",
        [(WOR_LAPLACE_STAGE, 2, _wor_laplace_range(Fraction(1, 10), Fraction(1, 2), 100))], 100,
        ["0", "1/2", "3"],
        lambda e: {"forward": ref.delta_laplace_without_replacement_twice(Fraction(1, 10), Fraction(1, 2), e)}),
    "discrete-laplace": (
        {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 2}, "add_or_remove_one",
        [({"mechanism": "discrete_laplace", "parameter": "1/2", "sampling": "1", "sensitivity": 2}, 1,
          _discrete_range(DLAP, 40))], 40, ["0", "1/2", "3/4"], _discrete_truth(DLAP)),
    "discrete-laplace-sampled": (
        {"class_name": "SelfComposedDpEvent", "count": 3, "event": {
            "class_name": "PoissonSampledDpEvent", "sampling_probability": "1/4",
            "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1", "sensitivity": 2}}},
        "add_or_remove_one",
        [({"mechanism": "discrete_laplace", "parameter": "1", "sampling": "1/4", "sensitivity": 2}, 3,
          _discrete_range(DLAP_SAMPLED, 100))], 100, ["0", "1/4", "1"],
        lambda e: {"forward": ref.delta_atoms(_composed(DLAP_SAMPLED, 3), e)}),
    "discrete-laplace-replace": (
        {"class_name": "SelfComposedDpEvent", "count": 2,
         "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1", "sensitivity": 1}}, "replace_one",
        [({"mechanism": "discrete_laplace", "parameter": "1", "sampling": "1", "sensitivity": 1}, 2,
          _discrete_range(DLAP_REPLACE, 20))], 20, ["0", "1", "2"],
        lambda e: {"forward": ref.delta_atoms(_composed(DLAP_REPLACE, 2), e)}),
    "discrete-laplace-replace-sampled": (
        {"class_name": "SelfComposedDpEvent", "count": 10, "event": {
            "class_name": "PoissonSampledDpEvent", "sampling_probability": "1/10",
            "event": {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": "1/2", "sensitivity": 1}}},
        "replace_one",
        [({"mechanism": "discrete_laplace", "parameter": "1/2", "sampling": "1/10", "sensitivity": 1}, 10,
          _discrete_range(DLAP_REPLACE_SAMPLED, 100))], 100, ["0", "1/10", "1/2"],
        lambda e: {"forward": ref.delta_atoms(_composed(DLAP_REPLACE_SAMPLED, 10), e)}),
    "discrete-gaussian": (
        {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "4", "sensitivity": 1}, "add_or_remove_one",
        [({"mechanism": "discrete_gaussian", "sampling": "1", "sensitivity": 1, "sigma_squared": "4"}, 1,
          _discrete_range(DGAUSS, 40, top=8))], 40, ["0", "1/4", "1"], _discrete_truth(DGAUSS)),
    "discrete-gaussian-sampled": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/5",
         "event": {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "2", "sensitivity": 2}},
        "add_or_remove_one",
        [({"mechanism": "discrete_gaussian", "sampling": "1/5", "sensitivity": 2, "sigma_squared": "2"}, 1,
          _discrete_range(DGAUSS_SAMPLED, 60, top=12))], 60, ["0", "1/4", "1"], _discrete_truth(DGAUSS_SAMPLED)),
    "discrete-gaussian-replace": (
        {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "9", "sensitivity": 1}, "replace_one",
        [({"mechanism": "discrete_gaussian", "sampling": "1", "sensitivity": 1, "sigma_squared": "9"}, 1,
          _discrete_range(DGAUSS_REPLACE, 40, top=8))], 40, ["0", "1/4", "1"], _discrete_truth(DGAUSS_REPLACE)),
    "discrete-gaussian-replace-sampled": (
        {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/5",
         "event": {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": "2", "sensitivity": 1}}, "replace_one",
        [({"mechanism": "discrete_gaussian", "sampling": "1/5", "sensitivity": 1, "sigma_squared": "2"}, 1,
          _discrete_range(DGAUSS_REPLACE_SAMPLED, 60, top=8))], 60, ["0", "1/4", "1"],
        _discrete_truth(DGAUSS_REPLACE_SAMPLED)),
    "without-replacement-discrete-laplace": (
        WOR_DLAP, "replace_one", [(WOR_DLAP_STAGE, 1, _discrete_range(WOR_DLAP_LAW, 100))], 100,
        ["0", "1/10", "1/4"], _discrete_truth(WOR_DLAP_LAW)),
    "without-replacement-discrete-laplace-thrice": (
        {"class_name": "SelfComposedDpEvent", "count": 3, "event": WOR_DLAP}, "replace_one",
        [(WOR_DLAP_STAGE, 3, _discrete_range(WOR_DLAP_LAW, 100))], 100, ["0", "1/4", "1/2"],
        lambda e: {"forward": ref.delta_atoms(_composed(WOR_DLAP_LAW, 3), e)}),
    "without-replacement-discrete-gaussian": (
        WOR_DGAUSS, "replace_one", [(WOR_DGAUSS_STAGE, 1, _discrete_range(WOR_DGAUSS_LAW, 60, top=8))], 60,
        ["0", "1/4", "1"], _discrete_truth(WOR_DGAUSS_LAW)),
    "mixed": (   # replace-one: N(1, 4) against N(−1, 4) (μ² = 1), and two steps of randomized response
        {"class_name": "ComposedDpEvent", "events": [
            {"class_name": "GaussianDpEvent", "noise_multiplier": "2"},
            {"class_name": "SelfComposedDpEvent", "count": 2, "event": RR}]}, "replace_one",
        [(RR_STAGE, 2, _rr_range(Fraction(3, 4), 4, 100)),
         ({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 1, [-1000, 1000])], 100,
        ["0", "1/2", "2"],
        lambda e: {"forward": ref.delta_gaussian_with_atoms(
            1, ref.atom_law(ref.randomized_response(Fraction(3, 4), 4), 2), e)}),
}

_TRUTH = {}


def truth(name):
    """{ε: {order: δ}} of a family, computed once."""
    if name not in _TRUTH:
        spec = FAMILIES[name]
        _TRUTH[name] = {e: spec[5](Fraction(e)) for e in spec[4]}
    return _TRUTH[name]


def family_certificate(name, low=Fraction(9, 10), high=Fraction(11, 10), edit=None):
    """The family's certificate with lower = low·δ and upper = high·δ at each ε (lower_order: the larger order);
    a name of :data:`LATTICE` is that lattice-route certificate."""
    if name in LATTICE:
        return lattice_certificate(name, low, high)
    event, relation, stages, grid, epsilons, _ = FAMILIES[name]
    points = []
    for e in epsilons:
        deltas = truth(name)[e]
        order = max(deltas, key=lambda o: deltas[o])
        true = deltas[order]
        points.append(point(Fraction(e), _frac(true * mp(low)), min(Fraction(1), _frac(true * mp(high))),
                                   order))
    ranges, counts = [r for _, _, r in stages], [c for _, c, _ in stages]
    result = {"route": "pld", "discretisation": discretisation(grid, 48, 56, ranges, counts),
              "points": points}
    cert = certificate(event, relation, [{"mechanism": m, "count": c} for m, c, _ in stages],
                              {"epsilons": list(epsilons)}, "1/4", result)
    if edit is not None:
        edit(cert)
        reseal(cert)
    return cert


def _bisect(f, target, lo, hi):
    """The ε with f(ε) = target for a nonincreasing f, by bisection in mpmath."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    for _ in range(80):
        mid = (lo + hi) / 2
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


DELTA_QUESTIONS = {   # name: (family, δ, reference δ(ε) at a real ε, the lower order)
    "randomized-response": ("randomized-response", Fraction(1, 10),
                            lambda e: ref.delta_atoms(ref.atom_law(ref.randomized_response(Fraction(3, 4), 4), 5), e)),
    "mixed": ("mixed", Fraction(1, 100), lambda e: ref.delta_gaussian_with_atoms(
        1, ref.atom_law(ref.randomized_response(Fraction(3, 4), 4), 2), e)),
    "without-replacement": ("without-replacement", Fraction(1, 1000),
                            lambda e: ref.delta_without_replacement(Fraction(1, 10), 1, e)),
    "without-replacement-laplace": ("without-replacement-laplace", Fraction(1, 100),
                                    ref.without_replacement_laplace(Fraction(1, 10), Fraction(1, 2)).hockey),
    "replace-laplace-sampled": ("replace-laplace-sampled", Fraction(1, 100),
                                lambda e: ref.delta_one(REPLACE_LAPLACE, e, "forward")),
    "gaussian-composition": ("gaussian-composition", Fraction(1, 1000), lambda e: max(
        ref.delta_one(COMPOSITION_LAW, e, o) for o in ORDERS)),
    "without-replacement-composition": ("without-replacement-composition", Fraction(1, 1000),
                                        lambda e: ref.delta_without_replacement(Fraction(1, 10),
                                                                                mpmath.sqrt(mp(Fraction(2, 3))), e)),
    "mixture": ("mixture", Fraction(1, 1000), lambda e: max(
        ref.delta_one(ref.mixture(1, [1, 2], [Fraction(1, 2)] * 2, Fraction(1, 4)), e, o) for o in ORDERS)),
}


def delta_certificate(name, low, high):
    family, delta, f = DELTA_QUESTIONS[name]
    event, relation, stages, grid, _, _ = FAMILIES[family]
    true = _bisect(f, mp(delta), 0, 20)
    lo, hi = _frac(true * mp(low)), _frac(true * mp(high))
    ranges, counts = [r for _, _, r in stages], [c for _, c, _ in stages]
    result = {"route": "pld", "discretisation": discretisation(grid, 48, 72, ranges, counts),
              "epsilon_lo": write_rational(lo), "epsilon_hi": write_rational(hi),
              "epsilon_lo_display": outward(lo, 10)[0], "epsilon_hi_display": outward(hi, 10)[1],
              "lower_order": "forward"}
    return certificate(event, relation, [{"mechanism": m, "count": c} for m, c, _ in stages],
                              {"delta": write_rational(delta)}, "1/4", result)




# ---- the lattice route: one randomized-response stage, its T-fold law exactly (docs/accounting.md §5) ---------------

def rr_law(p, k):
    """(β, g, α) of one step of randomized response, exact Fractions."""
    p = Fraction(p)
    beta = p / k
    return beta, (k - 2) * beta, 1 - p + beta


def rr_power(p, k, steps):
    """{m: P_T(m)}: the coefficients of (β/x + g + α·x)^T, exact Fractions (a polynomial power, T small)."""
    one = dict(zip((-1, 0, 1), rr_law(p, k)))
    out = {0: Fraction(1)}
    for _ in range(steps):
        nxt = {}
        for m, mass in out.items():
            for d, step in one.items():
                nxt[m + d] = nxt.get(m + d, Fraction(0)) + mass * step
        out = nxt
    return out


def rr_delta(p, k, steps, epsilon):
    """δ(ε) = Σ_m P_T(m)·(1 − e^ε·r^−m)_+ in mpmath (both orders: the pair is symmetric)."""
    beta, _, alpha = rr_law(p, k)
    r, e = mp(alpha / beta), mp(epsilon) if not isinstance(epsilon, mpmath.mpf) else epsilon
    total = mpmath.mpf(0)
    for m, mass in rr_power(p, k, steps).items():
        w = 1 - mpmath.exp(e) * r ** (-m)
        if w > 0:
            total += mp(mass) * w
    return total


def lattice_windows(steps):
    """Windows of the T-fold power on m = −1, 0, 1 that keep every entry."""
    return power_windows(-1, 1, steps)[0]


# name: (noise p, buckets k, count T, K, question {"epsilons": [...]} or {"delta": ...})
LATTICE = {
    "lattice-rr": ("3/4", 4, 10, 64, {"epsilons": ["0", "1/2", "1", "100"]}),
    "lattice-rr-binary": ("1/2", 2, 7, 96, {"epsilons": ["1/10", "2"]}),
    "lattice-rr-delta": ("1/2", 3, 12, 64, {"delta": "1/100"}),
    "lattice-rr-fifths": ("4/5", 5, 9, 64, {"epsilons": ["1/2", "2"]}),   # masses off the 2^-K grid
}


def lattice_event(p, k, steps):
    inner = {"class_name": "RandomizedResponseDpEvent", "noise_parameter": p, "num_buckets": k}
    return inner if steps == 1 else {"class_name": "SelfComposedDpEvent", "count": steps, "event": inner}


def lattice_certificate(name, low=Fraction(9, 10), high=Fraction(11, 10), bits=None, windows=None):
    """The lattice-route certificate of :data:`LATTICE`'s ``name``: the recipe K with windows that truncate
    nothing, and claims lower = low·δ, upper = high·δ at each ε (from :func:`rr_delta`), or ε_lo = low·ε(δ),
    ε_hi = high·ε(δ); ``bits`` and ``windows`` replace the recipe's."""
    p, k, steps, K, question = LATTICE[name]
    mechanism = {"buckets": k, "mechanism": "randomized_response", "noise": p, "sampling": "1"}
    result = {"route": "lattice", "discretisation": None,
              "lattice": {"bits": K if bits is None else bits,
                          "windows": lattice_windows(steps) if windows is None else windows}}
    if "epsilons" in question:
        points = []
        for e in question["epsilons"]:
            true = rr_delta(p, k, steps, Fraction(e))
            points.append(point(Fraction(e), _frac(true * mp(low)), min(Fraction(1), _frac(true * mp(high))),
                                "forward"))
        result["points"] = points
    else:
        delta = mp(Fraction(question["delta"]))
        true = _bisect(lambda e: rr_delta(p, k, steps, e), delta, 0, 20)
        lo, hi = _frac(true * mp(low)), _frac(true * mp(high))
        result.update({"epsilon_lo": write_rational(lo), "epsilon_hi": write_rational(hi),
                       "epsilon_lo_display": outward(lo, 10)[0], "epsilon_hi_display": outward(hi, 10)[1],
                       "lower_order": "forward"})
    return certificate(lattice_event(p, k, steps), "replace_one", [{"mechanism": mechanism, "count": steps}],
                       dict(question), "1/4", result)
