"""A dp_accounting ``DpEvent`` tree, read exactly and flattened into stages (docs/accounting.md §2–§3).

Three steps, each checked before any computation:

1. :func:`event_json`: the tree in its JSON form, from a dp_accounting
   ``DpEvent`` object (an instance, not its class; duck-typed: its attrs
   fields, else its ``to_named_tuple()``; dp_accounting is not needed), a
   named tuple of that form, or a dict with ``class_name``.  Every number
   is exact: a string is read as a rational or a decimal, a binary float as
   the shortest decimal that prints as it (``repr``), and is written as a
   reduced rational string; counts and bucket numbers are integers.  Every event class of
   dp_accounting is accepted or refused here, in one line naming it and what
   answers instead; the domain of every parameter and the sizes of the tree
   are checked.
2. :func:`stage_mechanisms`: the leaves, depth first, each with its
   multiplicity (the product of the counts of its ``SelfComposedDpEvent``
   ancestors) and sampling probability (the product of the probabilities
   of its ``PoissonSampledDpEvent`` ancestors; a ``SampledWithoutReplacementDpEvent``
   is a leaf of its own, with its batch fraction γ = m/n and its Gaussian or Laplace inside), read into stage mechanisms
   under the neighbouring relation (leaves the relation does not define are
   refused); leaves that cannot change the output's law are dropped, equal
   mechanisms merged (counts added), and the stages sorted by the canonical
   JSON of their mechanism.
3. :func:`stage_law`: a stage mechanism's forward dominating pair
   (docs/accounting.md §4), the law the PLD engine composes.

Errors are :class:`producer.errors.InputError` (:class:`LimitError` for a
size or a parameter outside the documented domain) whose message starts
with the place in the tree (``events[2].event``); the kind module prefixes
the parameter's name.
"""

import json
import numbers

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.names import option
from producer.pld.discrete import DiscreteGaussian, DiscreteLaplace
from producer.pld.laplace import ReplaceOneLaplace, ReplaceOneSampledLaplace, SubsampledLaplace
from producer.pld.mechanism import Stage
from producer.pld.mixture import GaussianMixture
from producer.pld.randomized_response import RandomizedResponse, RandomizedResponseSpecial
from producer.pld.replace_discrete import ReplaceSampledDiscreteGaussian, ReplaceSampledDiscreteLaplace
from producer.pld.replace_gaussian import ReplaceOneGaussian, ReplaceOneGaussianComposition
from producer.pld.subsampled_gaussian import SampledGaussianComposition, SubsampledGaussian
from producer.pld.truncated import MAX_SUM_WORK, MAX_TAIL_ROOTS, TruncatedSampledGaussian, long_route, tail_root
from producer.pld.truncated import sum_work as truncation_work
from producer.pld.truncated import truncation
from producer.pld.without_replacement import (WithoutReplacementGaussian, WithoutReplacementGaussianComposition,
                                              WithoutReplacementDiscreteGaussian, WithoutReplacementDiscreteLaplace,
                                              WithoutReplacementLaplace)
from producer.rationals import describe_rational, format_rational, parse_integer, parse_rational

ADD_OR_REMOVE, REPLACE, REPLACE_SPECIAL = "add_or_remove_one", "replace_one", "replace_special"
RELATIONS = (ADD_OR_REMOVE, REPLACE, REPLACE_SPECIAL)

MAX_EVENTS = 10**4
MAX_DEPTH = 100             # nesting depth of the tree (JSON readers recurse)
MAX_NUMBER_BITS = 256       # numerator and denominator of every number in the tree
MAX_COMPONENTS = 16
MAX_COUNT = 10**7
MAX_TOTAL_COUNT = 10**7     # Σ T_s
MAX_STAGES = 16
MAX_BUCKETS = 10**9
SIGMA_RANGE = (mpq(1, 10), mpq(10**4))
SCALE_RANGE = (mpq(1, 100), mpq(10**4))
SENSITIVITY_MAX = mpq(100)
MAX_DATASET_SIZE = 10**12   # n of a SampledWithoutReplacementDpEvent
MAX_TREE_STEPS = 10**12     # each step count of a SingleEpochTreeAggregationDpEvent (a depth of at most 40)
MAX_TREES = 10**4           # the step counts of one SingleEpochTreeAggregationDpEvent
TRUNCATED_SIGMA_RANGE = (mpq(1, 5), mpq(10**4))   # σ of a truncated sampling (its pair holds σ/2 >= 1/10)
DISCRETE_LAPLACE_RANGE = (mpq(1, 100), mpq(100))   # the noise parameter a
DISCRETE_GAUSSIAN_RANGE = (mpq(1, 100), mpq(10**6))  # σ² of the discrete Gaussian
INTEGER_SENSITIVITY_MAX = 1000                     # s of the discrete mechanisms

ACCOUNTED = ("GaussianDpEvent", "LaplaceDpEvent", "DiscreteLaplaceDpEvent", "DiscreteGaussianDpEvent",
             "MixtureOfGaussiansDpEvent", "RandomizedResponseDpEvent", "PoissonSampledDpEvent",
             "SampledWithoutReplacementDpEvent", "SingleEpochTreeAggregationDpEvent",
             "TruncatedSubsampledGaussianDpEvent", "SelfComposedDpEvent", "ComposedDpEvent", "NoOpDpEvent")
FIELDS = {
    "NoOpDpEvent": (),
    "GaussianDpEvent": ("noise_multiplier",),
    "LaplaceDpEvent": ("noise_multiplier",),
    "DiscreteLaplaceDpEvent": ("noise_parameter", "sensitivity"),
    "DiscreteGaussianDpEvent": ("sigma_squared", "sensitivity"),  # this project's extension, not dp_accounting's
    "MixtureOfGaussiansDpEvent": ("standard_deviation", "sensitivities", "sampling_probs"),
    "RandomizedResponseDpEvent": ("noise_parameter", "num_buckets"),
    "PoissonSampledDpEvent": ("sampling_probability", "event"),
    "SampledWithoutReplacementDpEvent": ("source_dataset_size", "sample_size", "event"),
    "SingleEpochTreeAggregationDpEvent": ("noise_multiplier", "step_counts"),
    "TruncatedSubsampledGaussianDpEvent": ("dataset_size", "sampling_probability", "truncated_batch_size",
                                           "noise_multiplier"),
    "SelfComposedDpEvent": ("event", "count"),
    "ComposedDpEvent": ("events",),
}
# every other event class of dp_accounting 0.6, and what answers instead
REFUSED = {
    "NonPrivateDpEvent": "a non-private event has no finite ε: no certificate bounds it",
    "UnsupportedDpEvent": "dp_accounting's marker for a mechanism it cannot account; describe the mechanism by "
                          "the events this kind reads (" + ", ".join(ACCOUNTED) + ")",
    "SampledWithReplacementDpEvent": "sampling with replacement is not accounted; Poisson sampling "
                                     "(PoissonSampledDpEvent) is, and sampling without replacement "
                                     "(SampledWithoutReplacementDpEvent) under replace_one",
    "RepeatAndSelectDpEvent": "repeat-and-select (a random number of runs, the best result released) is not "
                              "accounted; if the number of runs never exceeds k, a SelfComposedDpEvent of its event "
                              "with count k bounds it (releasing all k results; the best is post-processing)",
    "ZCDpEvent": "a zCDP statement is an RDP bound, not a dominating pair: no certified ε(δ) follows from it here",
}
SAMPLEABLE = ("GaussianDpEvent", "LaplaceDpEvent", "DiscreteLaplaceDpEvent", "DiscreteGaussianDpEvent",
              "MixtureOfGaussiansDpEvent", "PoissonSampledDpEvent", "NoOpDpEvent",
              "ComposedDpEvent", "SelfComposedDpEvent")  # a composition: of Gaussians when it is sampled (§3)
COMPOSITION = ("ComposedDpEvent", "SelfComposedDpEvent")
COMPOSED_VARIANCE_MIN = mpq(1, 100)  # σ² of a sampled composition: σ >= 1/10, the Gaussian's own domain
MAX_VARIANCE_BITS = 4096             # its numerator and denominator (the auditor's limit; UNCHECKED beyond)
BATCHABLE = ("GaussianDpEvent", "LaplaceDpEvent", "DiscreteLaplaceDpEvent", "DiscreteGaussianDpEvent",
             "NoOpDpEvent")   # what SampledWithoutReplacementDpEvent may wrap
# (and a composition of Gaussian events and no-ops, §3)
SAMPLED_COMPOSITION = "sampled composition"   # the stage reader's marker for a Poisson-sampled composition
WITHOUT_REPLACEMENT_RELATION = ("sampling without replacement is accounted under replace_one only (n is public), "
                                "as in dp_accounting; use PoissonSampledDpEvent under add_or_remove_one")


# ---- exact numbers ----------------------------------------------------------------------------

def read_number(value, where, bits=MAX_NUMBER_BITS):
    """An exact rational from a string, an int, a Fraction/mpq, a numpy scalar, or a binary float (its shortest
    decimal, :func:`producer.rationals.float_text`).

    ``bits`` bounds the numerator's and the denominator's bits (None: only
    the digit limits of :func:`producer.rationals.parse_rational`).
    """
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Number)):
        raise InputError(f"{where}: expected a number, got {_shown(value)}")
    number = parse_rational(value, where)  # a float (Python's or numpy's) as its shortest decimal
    if bits is not None and max(int(number.numerator).bit_length(), int(number.denominator).bit_length()) > bits:
        raise LimitError(f"{where}: {describe_rational(number)} has a numerator or denominator of more than "
                         f"{bits} bits (the limit)")
    return number


def read_count(value, where, largest):
    """An integer in [0, largest] from an int (numpy's too) or its decimal text (a float only when it is integral)."""
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Number)):
        raise InputError(f"{where}: expected an integer, got {_shown(value)}")
    count = parse_integer(value, where)  # numpy integers, and floats of integer value (7.0)
    if count < 0:
        raise InputError(f"{where}: must be >= 0, got {count}")
    if count > largest:
        raise LimitError(f"{where}: {count} exceeds the limit {largest:,}".replace(",", " "))
    return count


def _shown(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-4:]}"


def _in_range(value, lo, hi, where, what):
    if value <= 0:
        raise InputError(f"{where}: {what} must be positive, got {describe_rational(value)}")
    if not lo <= value <= hi:
        raise LimitError(f"{where}: {what} = {describe_rational(value)} is outside the domain "
                         f"[{describe_rational(lo)}, {_power(hi)}]")
    return value


def _power(value):
    text = format_rational(value)
    return f"10^{len(text) - 1}" if text.startswith("1") and set(text[1:]) <= {"0"} and len(text) > 2 else text


def _probability(value, where, what, positive=False):
    if not (0 < value <= 1 if positive else 0 <= value <= 1):
        interval = "(0, 1]" if positive else "[0, 1]"
        raise InputError(f"{where}: {what} must lie in {interval}, got {describe_rational(value)}")
    return value


# ---- 1. the tree in its JSON form ---------------------------------------------------------------

def _node(obj, where):
    """(class name, {field: value}) of one event in any accepted form (fields not yet read)."""
    at = f"{where}: " if where else ""  # the root has no place to name
    if isinstance(obj, dict):
        if "class_name" not in obj:
            if not where and isinstance(obj.get("schema"), str) and "digest" in obj:
                raise InputError(f"this is a certificate ({_shown(obj['schema'])}), not an event tree (an accounting "
                                 f"certificate holds its tree as input.event)")
            raise InputError(f"{at}an event needs its class_name (e.g. \"GaussianDpEvent\")")
        fields = {k: v for k, v in obj.items() if k not in ("class_name", "module_name")}
        return obj["class_name"], fields
    if isinstance(obj, type):
        raise InputError(f"{at}{obj.__name__} is an event class, not an event: give an instance, e.g. "
                         f"{obj.__name__}(...) with its fields")
    attrs = getattr(type(obj), "__attrs_attrs__", None)
    if attrs is not None:  # its own fields: dp_accounting's to_named_tuple() spells a text field out as a list
        return type(obj).__name__, {a.name: getattr(obj, a.name) for a in attrs}
    if hasattr(obj, "to_named_tuple") and callable(obj.to_named_tuple):
        obj = obj.to_named_tuple()
    if hasattr(obj, "_asdict") and hasattr(obj, "class_name"):
        fields = {k: v for k, v in obj._asdict().items() if k not in ("class_name", "module_name")}
        return obj.class_name, fields
    raise InputError(f"{at}{_shown(obj)} is not an event (a dp_accounting DpEvent, or a dict with its "
                     f"class_name and fields)")


class _Reader:
    """The walk of :func:`event_json`: counts events, tracks depth, reads every field."""

    def __init__(self):
        self.events = 0
        self.truncation_work = 0
        self.tail_roots = 0

    def read(self, obj, where, depth):
        self.events += 1
        if self.events > MAX_EVENTS:
            raise LimitError(f"the tree has more than {MAX_EVENTS:,} events (the limit)".replace(",", " "))
        if depth > MAX_DEPTH:
            raise LimitError(f"{where}: the tree is nested more than {MAX_DEPTH} deep (the limit)")
        name, fields = _node(obj, where)
        if not isinstance(name, str):
            raise InputError(f"{where + ': ' if where else ''}class_name must be a string, got {_shown(name)}")
        here = f"{where} ({name})" if where else name
        if name in REFUSED:
            raise InputError(f"{here} is not accounted: {REFUSED[name]}")
        if name not in FIELDS:
            raise InputError(f"{here}: not a dp_accounting event this kind reads (it reads "
                             f"{', '.join(ACCOUNTED)})")
        expected = FIELDS[name]
        extra = sorted(set(fields) - set(expected))
        missing = [f for f in expected if f not in fields]
        if extra or missing:
            parts = ([f"unknown field(s) {', '.join(extra)}"] if extra else []) + \
                    ([f"missing field(s) {', '.join(missing)}"] if missing else [])
            raise InputError(f"{here}: {'; '.join(parts)} (its fields: {', '.join(expected) or 'none'})")
        return getattr(self, "_" + name)(fields, here, where, depth)

    def _NoOpDpEvent(self, fields, here, where, depth):
        return {"class_name": "NoOpDpEvent"}

    def _GaussianDpEvent(self, fields, here, where, depth):
        sigma = _in_range(read_number(fields["noise_multiplier"], f"{here}.noise_multiplier"), *SIGMA_RANGE,
                          f"{here}.noise_multiplier", "σ")
        return {"class_name": "GaussianDpEvent", "noise_multiplier": format_rational(sigma)}

    def _LaplaceDpEvent(self, fields, here, where, depth):
        scale = _in_range(read_number(fields["noise_multiplier"], f"{here}.noise_multiplier"), *SCALE_RANGE,
                          f"{here}.noise_multiplier", "b")
        return {"class_name": "LaplaceDpEvent", "noise_multiplier": format_rational(scale)}

    def _DiscreteLaplaceDpEvent(self, fields, here, where, depth):
        a = _in_range(read_number(fields["noise_parameter"], f"{here}.noise_parameter"), *DISCRETE_LAPLACE_RANGE,
                      f"{here}.noise_parameter", "a")
        s = read_count(fields["sensitivity"], f"{here}.sensitivity", INTEGER_SENSITIVITY_MAX)
        return {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": format_rational(a), "sensitivity": s}

    def _DiscreteGaussianDpEvent(self, fields, here, where, depth):
        s2 = _in_range(read_number(fields["sigma_squared"], f"{here}.sigma_squared"), *DISCRETE_GAUSSIAN_RANGE,
                       f"{here}.sigma_squared", "σ²")
        s = read_count(fields["sensitivity"], f"{here}.sensitivity", INTEGER_SENSITIVITY_MAX)
        return {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": format_rational(s2), "sensitivity": s}

    def _MixtureOfGaussiansDpEvent(self, fields, here, where, depth):
        sigma = _in_range(read_number(fields["standard_deviation"], f"{here}.standard_deviation"), *SIGMA_RANGE,
                          f"{here}.standard_deviation", "σ")
        deltas = self._list(fields["sensitivities"], f"{here}.sensitivities")
        probs = self._list(fields["sampling_probs"], f"{here}.sampling_probs")
        if len(deltas) != len(probs):
            raise InputError(f"{here}: {len(deltas)} sensitivities but {len(probs)} sampling_probs (one each)")
        deltas = [read_number(d, f"{here}.sensitivities[{i}]") for i, d in enumerate(deltas)]
        probs = [read_number(p, f"{here}.sampling_probs[{i}]") for i, p in enumerate(probs)]
        for i, d in enumerate(deltas):
            if d < 0:
                raise InputError(f"{here}.sensitivities[{i}]: Δ must be >= 0, got {describe_rational(d)}")
            if d > SENSITIVITY_MAX:
                raise LimitError(f"{here}.sensitivities[{i}]: Δ = {describe_rational(d)} is outside the domain "
                                 f"[0, 100]")
        for i, p in enumerate(probs):
            _probability(p, f"{here}.sampling_probs[{i}]", "p", positive=True)
        if sum(probs, mpq(0)) != 1:
            raise InputError(f"{here}.sampling_probs: must sum to 1 exactly, they sum to "
                             f"{describe_rational(sum(probs, mpq(0)))}")
        return {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": format_rational(sigma),
                "sensitivities": [format_rational(d) for d in deltas],
                "sampling_probs": [format_rational(p) for p in probs]}

    def _list(self, value, where):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise InputError(f"{where}: expected a list, got {_shown(value)}")
        values = list(value)
        if not values:
            raise InputError(f"{where}: give at least one component")
        if len(values) > MAX_COMPONENTS:
            raise LimitError(f"{where}: {len(values)} components exceed the limit of {MAX_COMPONENTS}")
        return values

    def _RandomizedResponseDpEvent(self, fields, here, where, depth):
        p = _probability(read_number(fields["noise_parameter"], f"{here}.noise_parameter"),
                         f"{here}.noise_parameter", "p", positive=True)
        k = read_count(fields["num_buckets"], f"{here}.num_buckets", MAX_BUCKETS)
        if k < 1:
            raise InputError(f"{here}.num_buckets: k must be at least 1, got {k}")
        return {"class_name": "RandomizedResponseDpEvent", "noise_parameter": format_rational(p),
                "num_buckets": k}

    def _PoissonSampledDpEvent(self, fields, here, where, depth):
        q = _probability(read_number(fields["sampling_probability"], f"{here}.sampling_probability"),
                         f"{here}.sampling_probability", "q")
        inner = self.read(fields["event"], f"{where}.event" if where else "event", depth + 1)
        if inner["class_name"] == "SampledWithoutReplacementDpEvent":
            raise InputError(f"{here}: Poisson sampling of a batch drawn without replacement (two sampling schemes "
                             f"in one step) is not accounted; use one of them")
        if inner["class_name"] not in SAMPLEABLE:
            raise InputError(f"{here}: Poisson sampling of a {inner['class_name']} is not accounted; wrap each "
                             f"Gaussian, Laplace, discrete Laplace, discrete Gaussian or mixture-of-Gaussians event "
                             f"in its own PoissonSampledDpEvent (a composition of Gaussian events may be sampled "
                             f"as one)")
        return {"class_name": "PoissonSampledDpEvent", "sampling_probability": format_rational(q), "event": inner}

    def _SampledWithoutReplacementDpEvent(self, fields, here, where, depth):
        n = read_count(fields["source_dataset_size"], f"{here}.source_dataset_size", MAX_DATASET_SIZE)
        if n < 1:
            raise InputError(f"{here}.source_dataset_size: n must be at least 1, got {n}")
        m = read_count(fields["sample_size"], f"{here}.sample_size", 1 << MAX_NUMBER_BITS)
        if m > n:
            raise InputError(f"{here}: the batch of sample_size m = {m} records cannot be drawn without replacement "
                             f"from source_dataset_size n = {n} (m <= n)")
        inner = self.read(fields["event"], f"{where}.event" if where else "event", depth + 1)
        if inner["class_name"] in COMPOSITION:
            _gaussians_of(inner, f"{where}.event" if where else "event", "a sampling without replacement")
        elif inner["class_name"] not in BATCHABLE:
            raise InputError(f"{here}: sampling without replacement of a {inner['class_name']} is not accounted "
                             f"(a Gaussian, a Laplace, a discrete Laplace, a discrete Gaussian, a composition of "
                             f"Gaussians or a no-op only); wrap each of those events in its own "
                             f"SampledWithoutReplacementDpEvent")
        return {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": n, "sample_size": m,
                "event": inner}

    def _SingleEpochTreeAggregationDpEvent(self, fields, here, where, depth):
        sigma = _in_range(read_number(fields["noise_multiplier"], f"{here}.noise_multiplier"), *SIGMA_RANGE,
                          f"{here}.noise_multiplier", "σ")
        steps = fields["step_counts"]
        if isinstance(steps, (str, bytes, dict)) or not hasattr(steps, "__iter__"):
            steps = read_count(steps, f"{here}.step_counts", MAX_TREE_STEPS)
        else:
            steps = list(steps)
            if not steps:
                raise InputError(f"{here}.step_counts: give the steps of at least one tree")
            if len(steps) > MAX_TREES:
                raise LimitError(f"{here}.step_counts: {len(steps)} trees exceed the limit of {MAX_TREES}")
            steps = [read_count(n, f"{here}.step_counts[{i}]", MAX_TREE_STEPS) for i, n in enumerate(steps)]
        return {"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": format_rational(sigma),
                "step_counts": steps}

    def _TruncatedSubsampledGaussianDpEvent(self, fields, here, where, depth):
        n = read_count(fields["dataset_size"], f"{here}.dataset_size", MAX_DATASET_SIZE)
        q = _probability(read_number(fields["sampling_probability"], f"{here}.sampling_probability"),
                         f"{here}.sampling_probability", "q")
        B = read_count(fields["truncated_batch_size"], f"{here}.truncated_batch_size", MAX_DATASET_SIZE)
        sigma = _in_range(read_number(fields["noise_multiplier"], f"{here}.noise_multiplier"),
                          *TRUNCATED_SIGMA_RANGE, f"{here}.noise_multiplier", "σ")
        if n and B and q and long_route(n, q, B):   # (the tree's truncated samplings in all: the auditor's limits)
            self.tail_roots += tail_root(n, q)
            if self.tail_roots > MAX_TAIL_ROOTS:
                raise LimitError(f"{here}: the binomial sums of the tree's large truncated batches are beyond the "
                                 f"limit (Σ (⌊√((n − 1)·q·(1 − q))⌋ + 2) = {self.tail_roots}, the limit "
                                 f"{MAX_TAIL_ROOTS}); {truncated_alternative()}")
        elif n and B and q:
            self.truncation_work += truncation_work(n, q, B)
            if self.truncation_work > MAX_SUM_WORK:
                raise LimitError(f"{here}: the exact binomial tails of the tree's truncated samplings would need "
                                 f"about {self.truncation_work:.2g} bit operations (the limit: {MAX_SUM_WORK:.2g}); "
                                 f"{truncated_alternative()}")
        return {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": n,
                "sampling_probability": format_rational(q), "truncated_batch_size": B,
                "noise_multiplier": format_rational(sigma)}

    def _SelfComposedDpEvent(self, fields, here, where, depth):
        count = read_count(fields["count"], f"{here}.count", MAX_COUNT)
        inner = self.read(fields["event"], f"{where}.event" if where else "event", depth + 1)
        return {"class_name": "SelfComposedDpEvent", "event": inner, "count": count}

    def _ComposedDpEvent(self, fields, here, where, depth):
        events = fields["events"]
        if isinstance(events, (str, bytes, dict)) or not hasattr(events, "__iter__"):
            raise InputError(f"{here}.events: expected a list of events, got {_shown(events)}")
        out = []
        for i, e in enumerate(events):
            out.append(self.read(e, f"{where}.events[{i}]" if where else f"events[{i}]", depth + 1))
        return {"class_name": "ComposedDpEvent", "events": out}


def event_json(obj):
    """The JSON form of the event tree ``obj`` (exact numbers, dp_accounting's names), validated."""
    return _Reader().read(obj, "", 0)


# ---- 2. the stages --------------------------------------------------------------------------------

def _leaves(tree, relation):
    """(leaf JSON, multiplicity, sampling probability, place) for every leaf, depth first (a
    ``SampledWithoutReplacementDpEvent`` of m < n records is a leaf: it wraps a single Gaussian, Laplace or
    no-op, or a composition of Gaussians and no-ops; one of the whole dataset is read through under replace_one,
    and is a leaf, refused, under the other relations; a ``SingleEpochTreeAggregationDpEvent`` of depth d is the
    Gaussian event of its σ, d times, under replace_special, refused under the other relations)."""
    stack = [(tree, 1, mpq(1), "")]
    while stack:
        node, count, q, where = stack.pop()
        name = node["class_name"]
        if name == "SelfComposedDpEvent":
            stack.append((node["event"], count * node["count"], q, f"{where}.event" if where else "event"))
        elif name == "PoissonSampledDpEvent":
            inner, sampled = node["event"], q * mpq(node["sampling_probability"])
            place = f"{where}.event" if where else "event"
            if inner["class_name"] in COMPOSITION and 0 < sampled < 1:
                yield {"class_name": SAMPLED_COMPOSITION, "event": inner}, count, sampled, place
            else:  # q = 1 (or 0): a composition inside is read as if the sampling were not there
                stack.append((inner, count, sampled, place))
        elif (name == "SampledWithoutReplacementDpEvent" and node["event"]["class_name"] in COMPOSITION
              and node["sample_size"] == node["source_dataset_size"] and relation == REPLACE):
            # the batch is the whole dataset: the composition is read as if the sampling were not there
            stack.append((node["event"], count, q, f"{where}.event" if where else "event"))
        elif name == "SingleEpochTreeAggregationDpEvent":
            # d Gaussian releases of sensitivity 1 (docs/mechanisms/tree-aggregation.md); the relation is checked
            # before any leaf is dropped
            if relation != REPLACE_SPECIAL:
                raise InputError(f"{where} ({name}): {tree_relation()}" if where else f"{name}: {tree_relation()}")
            gaussian = {"class_name": "GaussianDpEvent", "noise_multiplier": node["noise_multiplier"]}
            yield gaussian, count * tree_depth(node["step_counts"]), q, where
        elif name == "ComposedDpEvent":
            for i in reversed(range(len(node["events"]))):
                place = f"{where}.events[{i}]" if where else f"events[{i}]"
                stack.append((node["events"][i], count, q, place))
        else:
            yield node, count, q, where


def _mechanism(leaf, q, relation, where):
    """The stage mechanism of one leaf (None when it cannot change the output's law), or a refusal."""
    name = leaf["class_name"]
    here = f"{where} ({name})" if where else name
    if name == SAMPLED_COMPOSITION:
        return _sampled_composition(leaf["event"], q, where)
    if name == "SampledWithoutReplacementDpEvent":
        return _without_replacement(leaf, q, relation, here)
    if name == "TruncatedSubsampledGaussianDpEvent":
        return _truncated(leaf, q, relation, here)
    if name == "RandomizedResponseDpEvent":
        if relation == ADD_OR_REMOVE:
            raise InputError(f"{here}: randomized response is defined under replace_one and replace_special only "
                             f"(adding or removing a record is not a change of one bucket), as in dp_accounting")
        p, k = mpq(leaf["noise_parameter"]), leaf["num_buckets"]
        if k == 1 or p == 1 or q == 0:
            return None
        return {"mechanism": "randomized_response", "noise": format_rational(p), "buckets": k, "sampling": "1"}
    if name == "LaplaceDpEvent":
        if q == 0:
            return None
        return {"mechanism": "laplace", "scale": leaf["noise_multiplier"], "sampling": format_rational(q)}
    if name == "DiscreteLaplaceDpEvent":
        if q == 0 or leaf["sensitivity"] == 0:
            return None
        return {"mechanism": "discrete_laplace", "parameter": leaf["noise_parameter"],
                "sensitivity": leaf["sensitivity"], "sampling": format_rational(q)}
    if name == "DiscreteGaussianDpEvent":
        if q == 0 or leaf["sensitivity"] == 0:
            return None
        return {"mechanism": "discrete_gaussian", "sigma_squared": leaf["sigma_squared"],
                "sensitivity": leaf["sensitivity"], "sampling": format_rational(q)}
    if name == "MixtureOfGaussiansDpEvent":
        if relation == REPLACE:
            raise InputError(f"{here}: the mixture of Gaussians is defined under add_or_remove_one only, as in "
                             f"dp_accounting")
        merged = {}
        for d, p in zip(leaf["sensitivities"], leaf["sampling_probs"]):
            merged[mpq(d)] = merged.get(mpq(d), mpq(0)) + mpq(p)
        if q == 0 or all(d == 0 for d in merged):
            return None
        deltas = sorted(merged)
        return {"mechanism": "mixture_of_gaussians", "sigma": leaf["standard_deviation"],
                "sensitivities": [format_rational(d) for d in deltas],
                "probabilities": [format_rational(merged[d]) for d in deltas], "sampling": format_rational(q)}
    if name == "GaussianDpEvent":
        if q == 0:
            return None
        return {"mechanism": "gaussian", "sigma": leaf["noise_multiplier"], "sampling": format_rational(q)}
    return None  # NoOpDpEvent


def truncated_alternative():
    """What answers where a truncated Poisson sampling is refused: the untruncated one at half the noise."""
    return ("a PoissonSampledDpEvent of a GaussianDpEvent at the same sampling_probability and half the "
            "noise_multiplier dominates it (docs/mechanisms/truncated-poisson.md)")


def _truncated(leaf, q, relation, here):
    """The stage of a truncated Poisson sampling (add/remove or replace-one): none when nothing is released, the
    sampled Gaussian when the batch never overflows (n − 1 < B), otherwise its labelled mixture with p̂."""
    if relation == REPLACE_SPECIAL:
        replace = option("neighboring_relation", "replace_one", flag="--relation", python='"replace_one"')
        raise InputError(f"{here}: the truncated Poisson sampling is accounted under add_or_remove_one or "
                         f"replace_one, not replace_special (the zero record would still take a batch slot); "
                         f"ask for {replace}, which bounds it (the zero record is one of its replacements)")
    n, rate, B = leaf["dataset_size"], mpq(leaf["sampling_probability"]) * q, leaf["truncated_batch_size"]
    if n == 0 or B == 0 or rate == 0:
        return None
    sigma = leaf["noise_multiplier"]
    law = truncation(n, rate, B)
    if law is None:   # the other n − 1 records never fill the batch: the sampled Gaussian
        return {"mechanism": "gaussian", "sigma": sigma, "sampling": format_rational(rate)}
    return {"mechanism": "truncated_gaussian", "sigma": sigma, "sampling": format_rational(rate),
            "dataset_size": n, "batch_size": B, "conditional_sampling": format_rational(law.conditional)}


def tree_relation():
    """Why tree aggregation is refused under add/remove and replace-one, and the option that answers."""
    relation = option("neighboring_relation", "replace_special", flag="--relation", python='"replace_special"')
    return ("tree aggregation is defined under replace_special only (a record replaced by the zero record, the "
            "adjacency of its analysis; adding or removing one moves every later record to another leaf), as in "
            f"dp_accounting; ask for {relation}")


def tree_depth(step_counts):
    """d = ⌈log2(n + 1)⌉ for the largest step count n: the most nodes of one tree that hold one record's
    contribution (n.bit_length(), exactly; docs/mechanisms/tree-aggregation.md)."""
    counts = step_counts if isinstance(step_counts, list) else [step_counts]
    return max(counts).bit_length()


def _gaussians_of(tree, where, sampling):
    """[(σ, m)] of the Gaussian events of a composition under ``sampling`` (a phrase naming the sampling node),
    m the product of the SelfComposed counts from it, m >= 1; refused at any other event but a no-op."""
    gaussians = []
    stack = [(tree, 1, where)]
    while stack:
        node, count, place = stack.pop()
        name = node["class_name"]
        if name == "SelfComposedDpEvent":
            stack.append((node["event"], count * node["count"], f"{place}.event"))
        elif name == "ComposedDpEvent":
            stack.extend((e, count, f"{place}.events[{i}]") for i, e in reversed(list(enumerate(node["events"]))))
        elif name == "GaussianDpEvent":
            if count:
                gaussians.append((node["noise_multiplier"], count))
        elif name != "NoOpDpEvent":
            raise InputError(f"{place} ({name}): {sampling} of a composition is accounted only when every event in "
                             f"it is a GaussianDpEvent or a NoOpDpEvent (then it is one Gaussian mechanism), not a "
                             f"{name}; wrap it in its own sampling event")
    return gaussians


def _composed_variance(gaussians, where):
    """σ² = 1/Σ m_i/σ_i² of a sampled composition of Gaussian events (docs/mechanisms/poisson-subsampling.md),
    within the auditor's limits."""
    variance = 1 / _balanced_sum([count / mpq(sigma) ** 2 for sigma, count in gaussians])
    bits = max(variance.numerator.bit_length(), variance.denominator.bit_length())
    if bits > MAX_VARIANCE_BITS:
        raise LimitError(f"{where}: the sampled composition of Gaussian events is one Gaussian whose σ² has "
                         f"{bits} bits in its numerator or denominator, beyond the auditor's {MAX_VARIANCE_BITS}; "
                         f"use fewer distinct noise multipliers")
    if variance < COMPOSED_VARIANCE_MIN:
        raise LimitError(f"{where}: the sampled composition of Gaussian events is one Gaussian of σ² = "
                         f"{describe_rational(variance)}, below 1/100 (σ below 1/10, the Gaussian's domain)")
    return format_rational(variance)


def _sampled_composition(tree, q, where):
    """The stage of a Poisson sampling (0 < q < 1) of a composition: one Gaussian of 1/σ² = Σ m_i/σ_i² when every
    event in it is a Gaussian or a no-op (docs/mechanisms/poisson-subsampling.md), under either relation."""
    return _composition_stage(_gaussians_of(tree, where, "a Poisson sampling"), q, "gaussian",
                              "gaussian_composition", where)


def _composition_stage(gaussians, q, single, composed, where):
    """The stage of a sampled composition's Gaussian events [(σ, m)]: none reached, None; one reached once, the
    ``single`` stage of its σ; otherwise the ``composed`` stage of σ² = 1/Σ m_i/σ_i²."""
    if not gaussians:
        return None
    if len(gaussians) == 1 and gaussians[0][1] == 1:
        return {"mechanism": single, "sigma": gaussians[0][0], "sampling": format_rational(q)}
    return {"mechanism": composed, "sampling": format_rational(q),
            "sigma_squared": _composed_variance(gaussians, where)}


def _balanced_sum(terms):
    """Σ terms added in pairs: each addition's operands stay of similar size (a running sum of 10⁴ rationals of
    256-bit parts is quadratic in the growing denominator)."""
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


def _without_replacement(leaf, q, relation, here):
    """The stage mechanism of a batch of m of n records drawn without replacement (replace_one only)."""
    if relation != REPLACE:
        raise InputError(f"{here}: {WITHOUT_REPLACEMENT_RELATION}")
    if q == 0:  # inside a composition of a Poisson sampling of 0: never run
        return None
    if q != 1:  # refused when the tree is read; a tree handed over directly is checked here too
        raise InputError(f"{here}: Poisson sampling of a batch drawn without replacement is not accounted")
    gamma = mpq(leaf["sample_size"], leaf["source_dataset_size"])
    inner = leaf["event"]
    if gamma == 0 or inner["class_name"] == "NoOpDpEvent":
        return None
    if inner["class_name"] in COMPOSITION:   # γ < 1 here: γ = 1 is read leaf by leaf (_leaves)
        return _composition_stage(_gaussians_of(inner, f"{here}.event", "a sampling without replacement"), gamma,
                                  "gaussian_without_replacement", "gaussian_composition_without_replacement", here)
    if inner["class_name"] in ("DiscreteLaplaceDpEvent", "DiscreteGaussianDpEvent"):
        return _discrete_without_replacement(inner, gamma)
    noise = inner["noise_multiplier"]
    if inner["class_name"] == "LaplaceDpEvent":
        if gamma == 1:  # the batch is the whole dataset: the unsampled Laplace
            return {"mechanism": "laplace", "scale": noise, "sampling": "1"}
        return {"mechanism": "laplace_without_replacement", "sampling": format_rational(gamma), "scale": noise}
    if gamma == 1:  # the batch is the whole dataset: the unsampled Gaussian
        return {"mechanism": "gaussian", "sigma": noise, "sampling": "1"}
    return {"mechanism": "gaussian_without_replacement", "sigma": noise, "sampling": format_rational(gamma)}


def _discrete_without_replacement(inner, gamma):
    """The stage of a discrete Laplace or discrete Gaussian event on a batch drawn without replacement: the
    unsampled replace-one pair at γ = 1, else its own stage; sensitivity 0 releases nothing."""
    s = inner["sensitivity"]
    if s == 0:
        return None
    if inner["class_name"] == "DiscreteLaplaceDpEvent":
        kind, noise = "discrete_laplace", {"parameter": inner["noise_parameter"]}
    else:
        kind, noise = "discrete_gaussian", {"sigma_squared": inner["sigma_squared"]}
    if gamma == 1:
        return {"mechanism": kind, **noise, "sensitivity": s, "sampling": "1"}
    return {"mechanism": f"{kind}_without_replacement", **noise, "sensitivity": s,
            "sampling": format_rational(gamma)}


def canonical(mechanism):
    """The canonical JSON text of a stage mechanism (sorted keys, no spaces): its identity and sort key."""
    return json.dumps(mechanism, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stage_mechanisms(tree, relation):
    """[(mechanism, count)]: the stages of the JSON tree under ``relation``, merged and sorted (§3)."""
    counts, mechanisms, total = {}, {}, 0
    for leaf, count, q, where in _leaves(tree, relation):
        mechanism = _mechanism(leaf, q, relation, where)
        if mechanism is None or count == 0:
            continue
        key = canonical(mechanism)
        mechanisms[key] = mechanism
        counts[key] = counts.get(key, 0) + count
        total += count
        if total > MAX_TOTAL_COUNT:
            raise LimitError(f"the tree composes more than {MAX_TOTAL_COUNT:,} mechanism steps in all (the limit)"
                             .replace(",", " "))
    if len(counts) > MAX_STAGES:
        raise LimitError(f"the tree reads into {len(counts)} distinct stages, more than the limit of {MAX_STAGES}")
    return [(mechanisms[key], counts[key]) for key in sorted(counts)]


# ---- 3. the dominating pair of a stage -----------------------------------------------------------

def stage_law(mechanism, relation):
    """The forward dominating pair (docs/accounting.md §4) of a stage mechanism under ``relation``."""
    kind, q = mechanism["mechanism"], mpq(mechanism["sampling"])
    if kind == "randomized_response":   # the special input answers uniformly (docs/accounting.md §1)
        pair = RandomizedResponseSpecial if relation == REPLACE_SPECIAL else RandomizedResponse
        return pair(mpq(mechanism["noise"]), mechanism["buckets"])
    # replace_special (a record replaced by one that contributes nothing) has the add/remove pairs otherwise: for
    # additive noise the output moves by the record's contribution as when it is removed, a Poisson sampling of
    # the special record changes nothing, and a mixture is defined by its pair (docs/accounting.md §1)
    relation = ADD_OR_REMOVE if relation == REPLACE_SPECIAL else relation
    if kind == "gaussian":
        sigma = mpq(mechanism["sigma"])
        return SubsampledGaussian(q, sigma) if relation == ADD_OR_REMOVE else ReplaceOneGaussian(q, sigma)
    if kind == "gaussian_composition":
        variance = mpq(mechanism["sigma_squared"])
        if relation == ADD_OR_REMOVE:
            return SampledGaussianComposition(q, variance)
        return ReplaceOneGaussianComposition(q, variance)
    if kind == "laplace":
        b = mpq(mechanism["scale"])
        if relation == ADD_OR_REMOVE:
            return SubsampledLaplace(b, q)
        return ReplaceOneLaplace(b) if q == 1 else ReplaceOneSampledLaplace(b, q)
    if kind == "gaussian_without_replacement":
        if relation != REPLACE:
            raise InputError(WITHOUT_REPLACEMENT_RELATION)
        return WithoutReplacementGaussian(q, mpq(mechanism["sigma"]))
    if kind == "gaussian_composition_without_replacement":
        if relation != REPLACE:
            raise InputError(WITHOUT_REPLACEMENT_RELATION)
        return WithoutReplacementGaussianComposition(q, mpq(mechanism["sigma_squared"]))
    if kind == "laplace_without_replacement":
        if relation != REPLACE:
            raise InputError(WITHOUT_REPLACEMENT_RELATION)
        return WithoutReplacementLaplace(q, mpq(mechanism["scale"]))
    if kind in ("discrete_laplace_without_replacement", "discrete_gaussian_without_replacement"):
        if relation != REPLACE:
            raise InputError(WITHOUT_REPLACEMENT_RELATION)
        if kind == "discrete_laplace_without_replacement":
            return WithoutReplacementDiscreteLaplace(q, mpq(mechanism["parameter"]), mechanism["sensitivity"])
        return WithoutReplacementDiscreteGaussian(q, mpq(mechanism["sigma_squared"]), mechanism["sensitivity"])
    if kind == "discrete_laplace":
        a, s = mpq(mechanism["parameter"]), mechanism["sensitivity"]
        if relation == REPLACE and q != 1:
            return ReplaceSampledDiscreteLaplace(a, s, q)
        # replace-one, q = 1: |v − v′| <= 2s, the add/remove pair of the shift 2s
        return DiscreteLaplace(a, s, s if relation == ADD_OR_REMOVE else 2 * s, q)
    if kind == "discrete_gaussian":
        variance, s = mpq(mechanism["sigma_squared"]), mechanism["sensitivity"]
        if relation == REPLACE and q != 1:
            return ReplaceSampledDiscreteGaussian(variance, s, q)
        return DiscreteGaussian(variance, s, s if relation == ADD_OR_REMOVE else 2 * s, q)
    if kind == "truncated_gaussian":
        if relation == REPLACE_SPECIAL:
            raise InputError("the truncated Poisson sampling is accounted under add_or_remove_one or replace_one")
        return TruncatedSampledGaussian(mechanism["dataset_size"], q, mechanism["batch_size"],
                                        mpq(mechanism["sigma"]), mpq(mechanism["conditional_sampling"]),
                                        replace_one=relation == REPLACE)
    if kind == "mixture_of_gaussians":
        return GaussianMixture(mpq(mechanism["sigma"]), [mpq(d) for d in mechanism["sensitivities"]],
                               [mpq(p) for p in mechanism["probabilities"]], q)
    raise ValueError(f"no dominating pair for the stage mechanism {kind!r}")


def stages(tree, relation):
    """The engine's :class:`Stage` list and the stages' JSON ([{"mechanism", "count"}]) of a JSON tree."""
    read = stage_mechanisms(tree, relation)
    return ([Stage(stage_law(m, relation), count) for m, count in read],
            [{"mechanism": m, "count": count} for m, count in read])
