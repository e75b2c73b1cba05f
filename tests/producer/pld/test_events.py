"""Reading a DpEvent tree (docs/accounting.md §2-§3): exact numbers, every dp_accounting class accepted or refused
in one line, multiplicities, nested sampling, sampling without replacement, dropping, merging, sorting, the
relation's domain, the limits."""

import collections
import math

import pytest
from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.pld import events
from producer.pld.events import event_json, stage_mechanisms, stages
from producer.pld.discrete import DiscreteGaussian, DiscreteLaplace
from producer.pld.laplace import ReplaceOneLaplace, ReplaceOneSampledLaplace, SubsampledLaplace
from producer.pld.mixture import GaussianMixture
from producer.pld.randomized_response import RandomizedResponse
from producer.pld.replace_discrete import ReplaceSampledDiscreteGaussian, ReplaceSampledDiscreteLaplace
from producer.pld.replace_gaussian import ReplaceOneGaussian, ReplaceOneGaussianComposition
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.pld.without_replacement import (WithoutReplacementGaussian, WithoutReplacementGaussianComposition,
                                              WithoutReplacementDiscreteLaplace, WithoutReplacementLaplace)
from producer.references.accounting import (NO_OP, compose, discrete_gaussian, discrete_laplace, gaussian, laplace,
                                            mixture, poisson, randomized_response, repeat, tree_aggregation)


def _read(tree, relation="add_or_remove_one"):
    return stage_mechanisms(event_json(tree), relation)


def test_numbers_are_exact_and_floats_read_as_their_shortest_decimal():
    tree = event_json(poisson(0.01, gaussian("1.1")))
    assert tree == {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/100",
                    "event": {"class_name": "GaussianDpEvent", "noise_multiplier": "11/10"}}
    assert event_json(laplace(mpq(3, 7)))["noise_multiplier"] == "3/7"
    assert event_json(laplace("1e-1"))["noise_multiplier"] == "1/10"
    assert event_json(repeat(7.0, NO_OP))["count"] == 7  # an integral float count
    with pytest.raises(InputError, match="not a finite number"):
        event_json(gaussian(float("inf")))
    with pytest.raises(LimitError, match="more than 256 bits"):
        event_json(gaussian(f"1/{2**300}"))


def test_numpy_scalars_are_read_like_the_python_numbers_they_print_as():
    np = pytest.importorskip("numpy")
    tree = event_json(repeat(np.int64(7), poisson(np.float64(0.01), gaussian(np.float32(1.1)))))
    assert tree == event_json(repeat(7, poisson("0.01", gaussian("1.1"))))
    with pytest.raises(InputError, match="expected a number"):
        event_json(gaussian(np.bool_(True)))
    with pytest.raises(InputError, match="not an integer"):
        event_json(repeat(np.float64(1.5), NO_OP))


def test_multiplicities_and_nested_sampling_multiply_and_equal_stages_merge():
    tree = compose(repeat(3, repeat(4, poisson("1/2", poisson("1/5", gaussian(1))))),
                   repeat(5, poisson("1/10", gaussian("1"))), gaussian(2), NO_OP)
    read = _read(tree)
    assert read == [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 1),
                    ({"mechanism": "gaussian", "sampling": "1/10", "sigma": "1"}, 17)]


def test_stages_are_sorted_by_their_canonical_json():
    tree = compose(laplace(1), gaussian(3), mixture(1, [0, 2], ["1/2", "1/2"]), gaussian(2))
    keys = [events.canonical(m) for m, _ in _read(tree)]
    assert keys == sorted(keys) and len(keys) == 4
    assert keys[0].startswith('{"mechanism":"gaussian","sampling":"1","sigma":"2"')


def test_mixture_components_merge_and_sort_by_sensitivity():
    (m, count), = _read(repeat(2, mixture(2, [3, "1", 3, 0], ["1/8", "1/2", "1/8", "1/4"])))
    assert m == {"mechanism": "mixture_of_gaussians", "sigma": "2", "sensitivities": ["0", "1", "3"],
                 "probabilities": ["1/4", "1/2", "1/4"], "sampling": "1"} and count == 2


@pytest.mark.parametrize("tree", [
    NO_OP, repeat(0, gaussian(1)), poisson(0, laplace(1)), mixture(1, [0, 0], ["1/2", "1/2"]),
    compose(NO_OP, repeat(5, poisson(0, gaussian(1))), repeat(0, laplace(2))), compose(),
])
def test_leaves_without_privacy_loss_are_dropped(tree):
    assert _read(tree) == []


@pytest.mark.parametrize("leaf", [randomized_response("1/2", 1), randomized_response(1, 7)])
def test_randomized_response_without_privacy_loss_is_dropped_under_replace_one(leaf):
    assert _read(compose(leaf, gaussian(1)), "replace_one") == [
        ({"mechanism": "gaussian", "sampling": "1", "sigma": "1"}, 1)]


@pytest.mark.parametrize("name", sorted(events.REFUSED))
def test_every_other_dp_accounting_class_is_refused_in_one_line_naming_what_answers(name):
    with pytest.raises(InputError) as info:
        event_json(compose(gaussian(1), {"class_name": name}))
    text = str(info.value)
    assert text.startswith(f"events[1] ({name}) is not accounted: ") and "\n" not in text
    assert events.REFUSED[name] in text


def test_an_unknown_class_and_wrong_fields_are_named():
    with pytest.raises(InputError, match="FooDpEvent: not a dp_accounting event this kind reads"):
        event_json({"class_name": "FooDpEvent"})
    with pytest.raises(InputError, match=r"unknown field\(s\) sigma; missing field\(s\) noise_multiplier"):
        event_json({"class_name": "GaussianDpEvent", "sigma": 1})
    with pytest.raises(InputError, match="needs its class_name"):
        event_json({"noise_multiplier": 1})
    with pytest.raises(InputError, match="is not an event"):
        event_json(42)


@pytest.mark.parametrize("tree, message", [
    ({"noise_multiplier": 1}, "an event needs its class_name"), (42, "42 is not an event"),
    ({"class_name": 3}, "class_name must be a string, got 3"),
    ({"schema": "dg-interval/1", "digest": "0", "input": {}}, "this is a certificate ('dg-interval/1'), not an event "
                                                               "tree"),
])
def test_the_root_event_is_named_without_an_empty_place(tree, message):
    with pytest.raises(InputError) as info:
        event_json(tree)
    assert str(info.value).startswith(message)


def test_an_inner_event_is_named_by_its_place():
    with pytest.raises(InputError, match=r"^event: an event needs its class_name"):
        event_json({"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/2", "event": {}})


def test_a_sampled_composition_of_gaussians_is_one_gaussian_of_the_summed_precision():
    # 1/σ² = Σ m_i/σ_i²: 1/(11/10)² + 2·3/10² (the SelfComposed inside multiplies), the no-op adds nothing
    tree = repeat(7, poisson("1/100", compose(gaussian("1.1"), repeat(2, repeat(3, gaussian(10))), NO_OP)))
    variance = 1 / (1 / mpq(121, 100) + mpq(6, 100))
    assert _read(tree) == [({"mechanism": "gaussian_composition", "sampling": "1/100",
                             "sigma_squared": f"{variance.numerator}/{variance.denominator}"}, 7)]
    law = stages(event_json(tree), "add_or_remove_one")[0][0].law
    assert law.variance == variance and law.dominating_mu2 == 1 / variance
    # nested samplings multiply first; one Gaussian reached once is the ordinary stage
    assert _read(poisson("1/2", poisson("1/5", compose(gaussian(2), NO_OP, repeat(0, gaussian(1)))))) == [
        ({"mechanism": "gaussian", "sampling": "1/10", "sigma": "2"}, 1)]
    assert _read(poisson("1/2", repeat(4, gaussian(2)))) == [
        ({"mechanism": "gaussian_composition", "sampling": "1/2", "sigma_squared": "1"}, 1)]
    assert _read(poisson("1/2", compose(NO_OP, repeat(0, gaussian(1))))) == []


def test_a_composition_sampled_with_probability_one_or_zero_is_read_leaf_by_leaf():
    assert _read(poisson(1, compose(gaussian(2), laplace(1)))) == _read(compose(gaussian(2), laplace(1)))
    assert _read(poisson(0, compose(gaussian(2), laplace(1)))) == []
    # the leaves a Poisson sampling may not wrap directly: read as usual at 1, dropped at 0 (nothing runs)
    rr, batch = randomized_response("1/2", 3), without_replacement(10, 3, gaussian(1))
    for leaf in (rr, batch):
        assert _read(poisson(1, compose(leaf, NO_OP)), "replace_one") == _read(leaf, "replace_one")
        assert _read(poisson(0, compose(leaf, NO_OP)), "replace_one") == []


def test_the_sigma_squared_of_a_sampled_composition_has_at_most_4096_bits():
    # 1/σ² = Σ 1/p_i² over distinct primes near 2^20: each adds about 40 bits to the denominator
    primes = [p for p in range(2**20 + 1, 2**20 + 4000, 2) if all(p % d for d in range(3, 1100, 2))]
    def tree(n):
        return poisson("1/2", compose(*[gaussian(f"{p}/1000000") for p in primes[:n]]))
    _read(tree(100))
    with pytest.raises(LimitError, match="beyond the auditor's 4096"):
        _read(tree(110))


@pytest.mark.parametrize("tree,relation,message", [
    (poisson("1/2", compose(gaussian(1), laplace(1))), "add_or_remove_one",
     r"events\[1\] \(LaplaceDpEvent\): a Poisson sampling of a composition is accounted only when every event"),
    (poisson("1/2", compose(gaussian(1), poisson("1/2", gaussian(1)))), "add_or_remove_one",
     "not a PoissonSampledDpEvent"),
    (poisson("1/2", repeat(101, gaussian(1))), "add_or_remove_one", "below 1/100"),
])
def test_a_sampled_composition_of_anything_but_gaussians_is_refused_in_one_line(tree, relation, message):
    with pytest.raises(InputError, match=message):
        _read(tree, relation)


def test_a_sampled_composition_under_replace_one_is_the_replace_one_gaussian_of_the_summed_precision():
    tree = repeat(7, poisson("1/100", compose(gaussian("1.1"), repeat(6, gaussian(10)), NO_OP)))
    variance = 1 / (1 / mpq(121, 100) + mpq(6, 100))
    assert _read(tree, "replace_one") == _read(tree)
    law = stages(event_json(tree), "replace_one")[0][0].law
    assert isinstance(law, ReplaceOneGaussianComposition)
    assert law.variance == variance and law.dominating_mu2 == 4 / variance
    assert law.audit_scale() == (mpq(1, 100), 1)   # ⌊σ⌋ = isqrt(⌊σ²⌋)
    # one Gaussian reached once keeps its stage, and its replace-one pair
    assert _read(poisson("1/2", compose(gaussian(2), NO_OP)), "replace_one") == [
        ({"mechanism": "gaussian", "sampling": "1/2", "sigma": "2"}, 1)]


def test_a_composition_on_batches_drawn_without_replacement_is_one_gaussian_of_the_summed_precision():
    tree = repeat(5, without_replacement(60000, 256, compose(gaussian("1.1"), repeat(2, repeat(3, gaussian(10))),
                                                             NO_OP)))
    variance = 1 / (1 / mpq(121, 100) + mpq(6, 100))
    assert _read(tree, "replace_one") == [({"mechanism": "gaussian_composition_without_replacement",
                                            "sampling": "8/1875",
                                            "sigma_squared": f"{variance.numerator}/{variance.denominator}"}, 5)]
    law = stages(event_json(tree), "replace_one")[0][0].law
    assert isinstance(law, WithoutReplacementGaussianComposition)
    assert law.variance == variance and law.base.variance == variance / 4 and law.dominating_mu2 == 4 / variance
    # one Gaussian reached once: its own stage; none: dropped; the whole dataset: read leaf by leaf
    assert _read(without_replacement(10, 3, compose(gaussian(2), NO_OP, repeat(0, gaussian(1)))), "replace_one") == \
        _read(without_replacement(10, 3, gaussian(2)), "replace_one")
    assert _read(without_replacement(10, 3, compose(NO_OP, repeat(0, gaussian(1)))), "replace_one") == []
    assert _read(repeat(2, without_replacement(10, 10, compose(gaussian(2), repeat(3, gaussian(1))))),
                 "replace_one") == _read(repeat(2, compose(gaussian(2), repeat(3, gaussian(1)))), "replace_one")
    with pytest.raises(InputError, match="replace_one only"):
        _read(without_replacement(10, 3, compose(gaussian(2), gaussian(1))))
    with pytest.raises(LimitError, match=r"SampledWithoutReplacementDpEvent\): .* σ² = 1/101, below 1/100"):
        _read(compose(NO_OP, without_replacement(10, 3, repeat(101, gaussian(1)))), "replace_one")


def test_poisson_sampling_of_randomized_response_is_refused():
    with pytest.raises(InputError, match="Poisson sampling of a RandomizedResponseDpEvent"):
        event_json(poisson("1/2", randomized_response("1/2", 3)))


@pytest.mark.parametrize("tree,relation,message", [
    (randomized_response("1/2", 3), "add_or_remove_one",
     "randomized response is defined under replace_one and replace_special only"),
    (repeat(0, randomized_response("1/2", 1)), "add_or_remove_one", "replace_one and replace_special only"),
    (mixture(1, [1], [1]), "replace_one", "add_or_remove_one only"),
])
def test_leaves_the_relation_does_not_define_are_refused(tree, relation, message):
    with pytest.raises(InputError, match=message):
        _read(tree, relation)


def test_a_poisson_sampled_laplace_under_replace_one_reads_into_its_laplace_stage():
    assert _read(repeat(3, poisson("1/2", poisson("1/5", laplace(2)))), "replace_one") == [
        ({"mechanism": "laplace", "sampling": "1/10", "scale": "2"}, 3)]
    law = stages(event_json(poisson("1/10", laplace(2))), "replace_one")[0][0].law
    assert isinstance(law, ReplaceOneSampledLaplace) and law.parameters() == (2, mpq(1, 10))
    assert isinstance(stages(event_json(laplace(2)), "replace_one")[0][0].law, ReplaceOneLaplace)


@pytest.mark.parametrize("tree,message,error", [
    (gaussian("1/20"), r"σ = 0.05 is outside the domain \[0.1, 10\^4\]", LimitError),
    (gaussian(0), "σ must be positive", InputError),
    (laplace("1/200"), r"b = 0.005 is outside the domain", LimitError),
    (mixture(1, [101], [1]), r"Δ = 101 is outside the domain \[0, 100\]", LimitError),
    (mixture(1, [-1], [1]), "Δ must be >= 0", InputError),
    (mixture(1, [1, 2], ["1/2", "1/3"]), "must sum to 1 exactly", InputError),
    (mixture(1, [1, 2], [1]), "2 sensitivities but 1 sampling_probs", InputError),
    (mixture(1, list(range(17)), ["1/17"] * 17), "exceed the limit of 16", LimitError),
    (mixture(1, [], []), "at least one component", InputError),
    (randomized_response(0, 3), r"p must lie in \(0, 1\]", InputError),
    (randomized_response("1/2", 10**9 + 1), "exceeds the limit", LimitError),
    (randomized_response("1/2", 0), "at least 1", InputError),
    (poisson("3/2", gaussian(1)), r"q must lie in \[0, 1\]", InputError),
    (repeat(10**7 + 1, gaussian(1)), "exceeds the limit", LimitError),
    (repeat(-1, gaussian(1)), "must be >= 0", InputError),
    (repeat("x", gaussian(1)), "not an integer", InputError),
    (discrete_laplace(0, 1), "a must be positive", InputError),
    (discrete_laplace("-1/2", 1), "a must be positive", InputError),
    (discrete_laplace("1/101", 1), r"a = 1/101 is outside the domain \[0.01, ", LimitError),
    (discrete_laplace(101, 1), "a = 101 is outside the domain", LimitError),
    (discrete_laplace(1, 1001), "exceeds the limit 1 000", LimitError),
    (discrete_laplace(1, -1), "must be >= 0", InputError),
    (discrete_laplace(1, "3/2"), "not an integer", InputError),
    (discrete_gaussian(0, 1), "σ² must be positive", InputError),
    (discrete_gaussian("1/101", 1), "σ² = 1/101 is outside the domain", LimitError),
    (discrete_gaussian(10**6 + 1, 1), "σ² = 1000001 is outside the domain", LimitError),
    (discrete_gaussian(1, 1001), "exceeds the limit 1 000", LimitError),
])
def test_parameters_outside_the_domain_are_refused_naming_the_place(tree, message, error):
    with pytest.raises(error, match=message):
        event_json(compose(NO_OP, tree))


def test_the_size_limits_of_the_tree():
    deep = gaussian(1)
    for _ in range(events.MAX_DEPTH):
        deep = repeat(1, deep)
    assert _read(deep)[0][1] == 1  # just inside: 100 levels below the root
    with pytest.raises(LimitError, match="nested more than 100 deep"):
        event_json(repeat(1, deep))
    with pytest.raises(LimitError, match="more than 10 000 events"):
        event_json(compose(*[NO_OP] * events.MAX_EVENTS))
    event_json(compose(*[NO_OP] * (events.MAX_EVENTS - 1)))
    with pytest.raises(LimitError, match="more than 10 000 000 mechanism steps"):
        _read(repeat(10**4, repeat(10**3 + 1, gaussian(1))))
    assert _read(repeat(10**4, repeat(10**3, gaussian(1))))[0][1] == 10**7
    with pytest.raises(LimitError, match="17 distinct stages"):
        _read(compose(*[gaussian(1 + mpq(k, 100)) for k in range(17)]))


def test_the_discrete_laplace_reads_sampled_dropped_and_merged():
    tree = compose(repeat(3, discrete_laplace("0.5", 2)), poisson("1/10", discrete_laplace(mpq(1, 2), 2)),
                   discrete_laplace(1, 0), poisson(0, discrete_laplace(1, 1)), discrete_laplace("1/2", 2.0))
    assert event_json(discrete_laplace(0.25, 3)) == {"class_name": "DiscreteLaplaceDpEvent",
                                                     "noise_parameter": "1/4", "sensitivity": 3}
    assert _read(tree) == [
        ({"mechanism": "discrete_laplace", "parameter": "1/2", "sampling": "1", "sensitivity": 2}, 4),
        ({"mechanism": "discrete_laplace", "parameter": "1/2", "sampling": "1/10", "sensitivity": 2}, 1)]
    assert _read(compose(discrete_laplace(100, 1000), discrete_laplace("1/100", 1))) == [
        ({"mechanism": "discrete_laplace", "parameter": "1/100", "sampling": "1", "sensitivity": 1}, 1),
        ({"mechanism": "discrete_laplace", "parameter": "100", "sampling": "1", "sensitivity": 1000}, 1)]


def test_the_discrete_laplace_pair_is_the_shift_by_s_or_by_2s():
    tree = event_json(compose(discrete_laplace("1/2", 3), poisson("1/4", discrete_laplace(1, 1))))
    assert [s.law for s in stages(tree, "add_or_remove_one")[0]] == [DiscreteLaplace(1, 1, 1, mpq(1, 4)),
                                                                     DiscreteLaplace(mpq(1, 2), 3, 3, 1)]
    (law,) = [s.law for s in stages(event_json(discrete_laplace("1/2", 3)), "replace_one")[0]]
    assert law == DiscreteLaplace(mpq(1, 2), 3, 6, 1) and law != DiscreteLaplace(mpq(1, 2), 3, 3, 1)
    assert law.parameters() == (mpq(1, 2), mpq(3), mpq(1))  # the stage mechanism's numbers (the auditor's parts)
    (law,) = [s.law for s in stages(event_json(poisson("1/2", discrete_laplace(1, 1))), "replace_one")[0]]
    assert law == ReplaceSampledDiscreteLaplace(1, 1, mpq(1, 2)) and law.shift == 2
    assert _read(poisson(0, discrete_laplace(1, 0)), "replace_one") == []


def test_the_discrete_gaussian_reads_into_its_pair_under_both_relations():
    tree = event_json(compose(repeat(2, discrete_gaussian("0.25", 3)), poisson("1/4", discrete_gaussian(10**6, 1)),
                              discrete_gaussian(1, 0)))
    assert [m for m, _ in stage_mechanisms(tree, "add_or_remove_one")] == [
        {"mechanism": "discrete_gaussian", "sampling": "1", "sensitivity": 3, "sigma_squared": "1/4"},
        {"mechanism": "discrete_gaussian", "sampling": "1/4", "sensitivity": 1, "sigma_squared": "1000000"}]
    assert [s.law for s in stages(tree, "add_or_remove_one")[0]] == [DiscreteGaussian(mpq(1, 4), 3, 3, 1),
                                                                     DiscreteGaussian(10**6, 1, 1, mpq(1, 4))]
    (law,) = [s.law for s in stages(event_json(discrete_gaussian(2, 3)), "replace_one")[0]]
    assert law == DiscreteGaussian(2, 3, 6, 1)
    (law,) = [s.law for s in stages(event_json(poisson("1/2", discrete_gaussian(1, 1))), "replace_one")[0]]
    assert law == ReplaceSampledDiscreteGaussian(1, 1, mpq(1, 2)) and law.shift == 2


def test_each_stage_gets_the_pair_of_its_relation():
    tree = event_json(compose(gaussian(1), laplace(2), poisson("1/2", gaussian(3)),
                              mixture(1, [1], [1])))
    laws = [s.law for s in stages(tree, "add_or_remove_one")[0]]
    assert laws == [SubsampledGaussian(1, 1), SubsampledGaussian(mpq(1, 2), 3), SubsampledLaplace(2, 1),
                    GaussianMixture(1, [1], [1], 1)]
    tree = event_json(compose(gaussian(1), laplace(2), randomized_response("1/3", 4)))
    laws = [s.law for s in stages(tree, "replace_one")[0]]
    assert laws == [RandomizedResponse(mpq(1, 3), 4), ReplaceOneGaussian(1, 1), ReplaceOneLaplace(2)]  # "buckets" first


# ---- dp_accounting's objects, duck-typed (dp_accounting is not a dependency) ---------------------------

class _Attribute:
    def __init__(self, name):
        self.name = name


def _attrs_class(name, fields):
    """A stand-in for an attrs-decorated DpEvent class (``__attrs_attrs__`` lists its fields)."""
    def init(self, *values):
        for f, v in zip(fields, values):
            setattr(self, f, v)
    return type(name, (), {"__attrs_attrs__": tuple(_Attribute(f) for f in fields), "__init__": init})


def test_dp_accounting_objects_and_their_named_tuples_are_read_alike():
    Gaussian = _attrs_class("GaussianDpEvent", ["noise_multiplier"])
    Poisson = _attrs_class("PoissonSampledDpEvent", ["sampling_probability", "event"])
    SelfComposed = _attrs_class("SelfComposedDpEvent", ["event", "count"])
    obj = SelfComposed(Poisson(0.01, Gaussian(1.0)), 10)
    expected = event_json(repeat(10, poisson("0.01", gaussian(1))))
    assert event_json(obj) == expected
    Tuple = collections.namedtuple("T", ["module_name", "class_name", "sampling_probability", "event"])
    Leaf = collections.namedtuple("L", ["module_name", "class_name", "noise_multiplier"])
    Outer = collections.namedtuple("O", ["module_name", "class_name", "event", "count"])
    named = Outer("dp_accounting.dp_event", "SelfComposedDpEvent",
                  Tuple("dp_accounting.dp_event", "PoissonSampledDpEvent", 0.01,
                        Leaf("dp_accounting.dp_event", "GaussianDpEvent", 1.0)), 10)
    assert event_json(named) == expected

    class WithNamedTuple:
        def to_named_tuple(self):
            return named
    assert event_json(WithNamedTuple()) == expected
    assert event_json(dict(expected, module_name="dp_accounting.dp_event")) == expected


def test_an_objects_own_fields_are_read_before_its_named_tuple():
    """dp_accounting's to_named_tuple() spells a text field out as a list ("1.5" as "['1', '.', '5']"): the
    attrs fields, which hold the text, are read instead."""
    Gaussian = _attrs_class("GaussianDpEvent", ["noise_multiplier"])
    Gaussian.to_named_tuple = lambda self: {"class_name": "GaussianDpEvent", "noise_multiplier": str(list("1.5"))}
    assert event_json(Gaussian("1.5")) == event_json(gaussian("1.5"))


def test_an_event_class_is_refused_in_one_line_asking_for_an_instance():
    Gaussian = _attrs_class("GaussianDpEvent", ["noise_multiplier"])
    Gaussian.to_named_tuple = lambda self: None   # called on the class, it would want its self
    with pytest.raises(InputError, match=r"^GaussianDpEvent is an event class, not an event: give an instance"):
        event_json(Gaussian)
    Poisson = _attrs_class("PoissonSampledDpEvent", ["sampling_probability", "event"])
    with pytest.raises(InputError, match=r"^event: GaussianDpEvent is an event class"):
        event_json(Poisson("0.01", Gaussian))


def test_dp_accountings_own_events_with_text_fields_are_read_as_their_json_form():
    dpa = pytest.importorskip("dp_accounting")
    obj = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent("0.01", dpa.GaussianDpEvent("1.5")), 10)
    assert event_json(obj) == event_json(repeat(10, poisson("0.01", gaussian("1.5"))))
    with pytest.raises(InputError, match="is an event class, not an event"):
        event_json(dpa.GaussianDpEvent)


# ---- sampling without replacement (fixed-size batches) of a Gaussian ---------------------------------

def without_replacement(n, m, event):
    return {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": n, "sample_size": m,
            "event": event}


def test_a_batch_drawn_without_replacement_reads_into_its_own_stage_under_replace_one():
    tree = event_json(repeat(10, without_replacement(60000.0, "256", gaussian(1.1))))
    assert tree["event"] == {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 60000,
                             "sample_size": 256, "event": {"class_name": "GaussianDpEvent",
                                                           "noise_multiplier": "11/10"}}
    assert stage_mechanisms(tree, "replace_one") == [
        ({"mechanism": "gaussian_without_replacement", "sigma": "11/10", "sampling": "8/1875"}, 10)]
    (stage,), _ = stages(tree, "replace_one")
    assert stage.law == WithoutReplacementGaussian(mpq(8, 1875), mpq(11, 10)) and stage.steps == 10


def test_the_whole_dataset_as_the_batch_is_the_unsampled_gaussian_and_merges_with_it():
    tree = compose(repeat(3, without_replacement(7, 7, gaussian(2))), gaussian(2),
                   repeat(2, without_replacement(70, 7, gaussian(2))), without_replacement(700, 70, gaussian(2)))
    assert _read(tree, "replace_one") == [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 4),
                                          ({"mechanism": "gaussian_without_replacement", "sampling": "1/10",
                                            "sigma": "2"}, 3)]


@pytest.mark.parametrize("tree", [without_replacement(10, 0, gaussian(1)), without_replacement(10, 3, NO_OP),
                                  repeat(0, without_replacement(10, 3, gaussian(1)))])
def test_an_empty_batch_or_a_no_op_on_the_batch_is_dropped(tree):
    assert _read(tree, "replace_one") == []


@pytest.mark.parametrize("tree", [without_replacement(10, 3, gaussian(1)), without_replacement(10, 3, NO_OP),
                                  repeat(0, without_replacement(10, 0, gaussian(1)))])
def test_sampling_without_replacement_is_refused_under_add_or_remove_before_the_dropping(tree):
    event_json(tree)  # the tree itself is well formed
    with pytest.raises(InputError) as info:
        _read(compose(gaussian(1), tree), "add_or_remove_one")
    text = str(info.value)
    assert events.WITHOUT_REPLACEMENT_RELATION in text and "\n" not in text
    assert "use PoissonSampledDpEvent under add_or_remove_one" in text


@pytest.mark.parametrize("tree,message,error", [
    (without_replacement(10, 3, randomized_response("1/2", 3)),
     r"sampling without replacement of a RandomizedResponseDpEvent is not accounted \(a Gaussian, a Laplace, a "
     r"discrete Laplace, a discrete Gaussian, a composition of Gaussians or a no-op only\)", InputError),
    (without_replacement(10, 3, repeat(2, compose(gaussian(1), laplace(1)))),
     r"event.event.events\[1\] \(LaplaceDpEvent\): a sampling without replacement of a composition is accounted "
     "only when every event in it is a GaussianDpEvent or a NoOpDpEvent", InputError),
    (without_replacement(10, 10, compose(gaussian(1), laplace(1))), "not a LaplaceDpEvent", InputError),
    (without_replacement(10, 3, compose(gaussian(1), poisson("1/2", gaussian(1)))), "not a PoissonSampledDpEvent",
     InputError),
    (without_replacement(10, 3, poisson("1/2", gaussian(1))), "of a PoissonSampledDpEvent is not accounted",
     InputError),
    (without_replacement(10, 3, without_replacement(5, 2, gaussian(1))), "of a SampledWithoutReplacementDpEvent",
     InputError),
    (poisson("1/2", without_replacement(10, 3, gaussian(1))), "Poisson sampling of a batch drawn without "
                                                              "replacement", InputError),
    (without_replacement(10, 11, gaussian(1)), r"sample_size m = 11 .* source_dataset_size n = 10 \(m <= n\)",
     InputError),
    (without_replacement(10**12 + 1, 3, gaussian(1)), "source_dataset_size: 1000000000001 exceeds the limit "
                                                      "1 000 000 000 000", LimitError),
    (without_replacement(0, 0, gaussian(1)), "n must be at least 1", InputError),
    (without_replacement(10, -1, gaussian(1)), "sample_size: must be >= 0", InputError),
    (without_replacement(10, 3, gaussian("1/20")), r"σ = 0.05 is outside the domain", LimitError),
    (without_replacement(10, 3, laplace("1/200")), r"b = 0.005 is outside the domain", LimitError),
    (without_replacement(10, 3, laplace(0)), "b must be positive", InputError),
])
def test_what_a_batch_drawn_without_replacement_may_not_hold_is_refused_in_one_line(tree, message, error):
    with pytest.raises(error, match=message) as info:
        event_json(compose(NO_OP, tree))
    assert "\n" not in str(info.value)


def test_the_largest_dataset_is_accepted():
    assert _read(without_replacement(10**12, 1, gaussian(1)), "replace_one")[0][0]["sampling"] == "1/1000000000000"


# ---- sampling without replacement of a Laplace mechanism ---------------------------------------------------

def test_a_laplace_on_a_batch_drawn_without_replacement_reads_into_its_own_stage_under_replace_one():
    tree = event_json(repeat(10, without_replacement(60000, 256, laplace("2.5"))))
    assert tree["event"]["event"] == {"class_name": "LaplaceDpEvent", "noise_multiplier": "5/2"}
    read = stage_mechanisms(tree, "replace_one")
    assert read == [({"mechanism": "laplace_without_replacement", "sampling": "8/1875", "scale": "5/2"}, 10)]
    assert events.canonical(read[0][0]) == \
        '{"mechanism":"laplace_without_replacement","sampling":"8/1875","scale":"5/2"}'
    (stage,), stage_json = stages(tree, "replace_one")
    assert stage.law == WithoutReplacementLaplace(mpq(8, 1875), mpq(5, 2)) and stage.steps == 10
    assert stage.law != WithoutReplacementGaussian(mpq(8, 1875), mpq(5, 2))
    assert stage_json == [{"mechanism": read[0][0], "count": 10}]


def test_the_whole_dataset_as_the_batch_is_the_unsampled_replace_one_laplace_and_merges_with_it():
    tree = compose(repeat(3, without_replacement(7, 7, laplace(2))), laplace(2),
                   repeat(2, without_replacement(70, 7, laplace(2))), without_replacement(700, 70, laplace(2)),
                   repeat(4, without_replacement(700, 70, gaussian(2))))
    assert _read(tree, "replace_one") == [
        ({"mechanism": "gaussian_without_replacement", "sampling": "1/10", "sigma": "2"}, 4),
        ({"mechanism": "laplace", "scale": "2", "sampling": "1"}, 4),
        ({"mechanism": "laplace_without_replacement", "sampling": "1/10", "scale": "2"}, 3)]
    assert _read(without_replacement(7, 7, laplace(2)), "replace_one") == _read(laplace(2), "replace_one")
    (stage,), _ = stages(event_json(without_replacement(5, 5, laplace(3))), "replace_one")
    assert stage.law == ReplaceOneLaplace(mpq(3))


def test_nested_self_compositions_multiply_a_laplace_batch_count():
    tree = repeat(3, compose(repeat(5, without_replacement(100, 1, laplace(1))), NO_OP,
                             without_replacement(100, 1, laplace(1))))
    assert _read(tree, "replace_one") == [
        ({"mechanism": "laplace_without_replacement", "sampling": "1/100", "scale": "1"}, 18)]


@pytest.mark.parametrize("tree", [without_replacement(10, 0, laplace(1)),
                                  repeat(0, without_replacement(10, 3, laplace(1))),
                                  repeat(4, without_replacement(10**12, 0, laplace("1/100")))])
def test_an_empty_batch_of_a_laplace_is_dropped(tree):
    assert _read(tree, "replace_one") == []


@pytest.mark.parametrize("tree", [without_replacement(10, 3, laplace(1)), without_replacement(10, 10, laplace(1)),
                                  without_replacement(10, 0, laplace(1))])
def test_a_laplace_batch_is_refused_under_add_or_remove_with_the_gaussians_message(tree):
    with pytest.raises(InputError) as info:
        _read(compose(laplace(1), tree), "add_or_remove_one")
    assert events.WITHOUT_REPLACEMENT_RELATION in str(info.value) and "\n" not in str(info.value)


def test_a_laplace_batch_inside_poisson_sampling_is_refused_when_read_and_when_handed_over():
    with pytest.raises(InputError, match="Poisson sampling of a batch drawn without replacement"):
        event_json(poisson("1/2", without_replacement(10, 3, laplace(1))))
    leaf = event_json(without_replacement(10, 3, laplace(1)))
    tree = {"class_name": "PoissonSampledDpEvent", "sampling_probability": "1/2", "event": leaf}
    with pytest.raises(InputError, match="Poisson sampling of a batch drawn without replacement is not accounted"):
        stage_mechanisms(tree, "replace_one")


def test_the_laplace_stage_law_is_refused_under_add_or_remove():
    mechanism = {"mechanism": "laplace_without_replacement", "sampling": "1/10", "scale": "1"}
    assert events.stage_law(mechanism, "replace_one") == WithoutReplacementLaplace(mpq(1, 10), 1)
    with pytest.raises(InputError, match="replace_one only"):
        events.stage_law(mechanism, "add_or_remove_one")


def test_a_discrete_event_on_batches_reads_into_its_stage():
    tree = compose(without_replacement(10, 3, discrete_laplace("1/2", 2)),
                   without_replacement(10, 10, discrete_gaussian(4, 1)),
                   without_replacement(10, 3, discrete_gaussian(4, 0)))
    assert _read(tree, "replace_one") == [
        ({"mechanism": "discrete_gaussian", "sampling": "1", "sensitivity": 1, "sigma_squared": "4"}, 1),
        ({"mechanism": "discrete_laplace_without_replacement", "parameter": "1/2", "sampling": "3/10",
          "sensitivity": 2}, 1)]
    laws = [s.law for s in stages(event_json(tree), "replace_one")[0]]
    assert laws == [DiscreteGaussian(4, 1, 2, 1), WithoutReplacementDiscreteLaplace(mpq(3, 10), mpq(1, 2), 2)]


# ---- one epoch of tree aggregation (replace_special) -------------------------------------------------

def test_the_tree_depth_is_the_ceiling_of_log2_of_the_largest_step_count_plus_one():
    """dp_accounting's ⌈log2(n + 1)⌉ (in floats, exact for these n), and the least d with 2^d > n by counting."""
    for n in list(range(1, 4100)) + [2**k + d for k in range(12, 41) for d in (-1, 0, 1)]:
        least = next(d for d in range(64) if 2 ** d > n)
        assert events.tree_depth(n) == least == events.tree_depth([0, n, n // 2]), n
        if n < 2**20:
            assert least == math.ceil(math.log2(n + 1)), n
    assert events.tree_depth(0) == events.tree_depth([0, 0]) == 0


@pytest.mark.parametrize("tree, expected", [
    (tree_aggregation(2, 15), [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 4)]),
    (repeat(10, tree_aggregation("1.5", [3, 1000, 7])),
     [({"mechanism": "gaussian", "sampling": "1", "sigma": "3/2"}, 100)]),
    (compose(tree_aggregation(2, 1), repeat(3, gaussian(2)), tree_aggregation(3, 2)),
     [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 4),
      ({"mechanism": "gaussian", "sampling": "1", "sigma": "3"}, 2)]),
    (compose(tree_aggregation(2, 0), tree_aggregation(2, [0, 0]), repeat(0, tree_aggregation(2, 9)),
             poisson(0, compose(tree_aggregation(2, 9))), gaussian(5)),
     [({"mechanism": "gaussian", "sampling": "1", "sigma": "5"}, 1)]),
    (poisson(1, compose(tree_aggregation(2, 3))), [({"mechanism": "gaussian", "sampling": "1", "sigma": "2"}, 2)]),
])
def test_tree_aggregation_reads_as_its_depth_of_gaussian_releases_under_replace_special(tree, expected):
    """Each record enters at most d = ⌈log2(n + 1)⌉ nodes: the Gaussian event of σ, d times; none at n = 0."""
    assert _read(tree, "replace_special") == expected
    assert event_json(tree_aggregation("0.5", [3, 4]))["step_counts"] == [3, 4]
    assert event_json(tree_aggregation(0.5, 3)) == tree_aggregation("1/2", 3)


@pytest.mark.parametrize("relation", ["add_or_remove_one", "replace_one"])
@pytest.mark.parametrize("tree", [tree_aggregation(2, 15), tree_aggregation(2, 0), repeat(0, tree_aggregation(1, 3))])
def test_tree_aggregation_is_refused_in_one_line_under_the_other_relations_before_the_dropping(tree, relation):
    with pytest.raises(InputError) as info:
        _read(compose(gaussian(1), tree), relation)
    text = str(info.value)
    assert "SingleEpochTreeAggregationDpEvent" in text and "replace_special only" in text and "\n" not in text
    assert text.endswith('ask for neighboring_relation="replace_special"')


@pytest.mark.parametrize("tree, message, error", [
    (poisson("1/2", tree_aggregation(1, 3)), "Poisson sampling of a SingleEpochTreeAggregationDpEvent is not",
     InputError),
    (poisson("1/2", compose(tree_aggregation(1, 3))), "not a SingleEpochTreeAggregationDpEvent", InputError),
    (tree_aggregation("1/20", 3), r"σ = 0.05 is outside the domain", LimitError),
    (tree_aggregation(1, -1), "must be >= 0", InputError),
    (tree_aggregation(1, []), "the steps of at least one tree", InputError),
    (tree_aggregation(1, [1, "x"]), r"step_counts\[1\]: .*not an integer", InputError),
    (tree_aggregation(1, 10**12 + 1), "exceeds the limit", LimitError),
    (tree_aggregation(1, [1] * (10**4 + 1)), "trees exceed the limit of 10000", LimitError),
    ({"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": 1}, r"missing field\(s\) step_counts",
     InputError),
])
def test_what_tree_aggregation_may_not_be_is_refused_naming_the_place(tree, message, error):
    with pytest.raises(error, match=message):
        _read(compose(NO_OP, tree), "replace_special")


def test_a_tree_aggregation_epoch_on_batches_drawn_without_replacement_is_refused():
    with pytest.raises(InputError, match="sampling without replacement of a SingleEpochTreeAggregationDpEvent"):
        event_json(without_replacement(100, 10, tree_aggregation(1, 3)))


# ---- the truncated Poisson sampling ----------------------------------------------------------------------------

def _truncated(n, q, batch, sigma="1"):
    return {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": n, "sampling_probability": q,
            "truncated_batch_size": batch, "noise_multiplier": sigma}


def test_a_truncated_sampling_reads_into_its_stage_with_the_rounded_rate():
    from producer.pld.truncated import TruncatedSampledGaussian, truncation
    (stage, count), = _read(repeat(7, _truncated(1000, 0.01, 12, 1.5)))
    p_hat = truncation(1000, mpq(1, 100), 12).conditional
    assert count == 7 and stage == {"mechanism": "truncated_gaussian", "sigma": "3/2", "sampling": "1/100",
                                    "dataset_size": 1000, "batch_size": 12, "conditional_sampling": str(p_hat)}
    law, = stages(event_json(_truncated(1000, 0.01, 12, 1.5)), "add_or_remove_one")[0]
    assert isinstance(law.law, TruncatedSampledGaussian) and law.law.conditional == p_hat


def test_a_batch_the_others_never_fill_is_the_sampled_gaussian_and_nothing_released_is_dropped():
    assert _read(compose(_truncated(10, "1/2", 10), poisson("1/2", gaussian(1)))) == [
        ({"mechanism": "gaussian", "sampling": "1/2", "sigma": "1"}, 2)]
    assert _read(compose(_truncated(0, "1/2", 3), _truncated(10, 0, 3), _truncated(10, "1/2", 0))) == []


def test_a_truncated_sampling_is_refused_under_replace_special_naming_replace_one():
    with pytest.raises(InputError, match="not replace_special .* ask for neighboring_relation=\"replace_one\""):
        _read(repeat(0, _truncated(100, "1/2", 3)), "replace_special")


def test_a_truncated_sampling_under_replace_one_has_the_replace_one_components():
    from producer.pld.replace_gaussian import ReplaceOneGaussian
    from producer.pld.truncated import TruncatedSampledGaussian
    stage, = stages(event_json(repeat(7, _truncated(1000, 0.01, 12, 1.5))), "replace_one")[0]
    law = stage.law
    assert isinstance(law, TruncatedSampledGaussian) and law.replace_one
    assert isinstance(law._untruncated, ReplaceOneGaussian) and law._truncated.noise == mpq(3, 4)
    assert law.dominating_mu2 == 4 / mpq(3, 4) ** 2 and law.audit_mass_units() == 1600


@pytest.mark.parametrize("tree, message", [
    (poisson("1/2", _truncated(100, "1/2", 3)), "Poisson sampling of a TruncatedSubsampledGaussianDpEvent"),
    (_truncated(100, "1/2", 3, "1/6"), r"σ = 1/6 is outside the domain \[0.2"),
    (_truncated(100, "3/2", 3), "q must lie in"),
    (_truncated(-1, "1/2", 3), "dataset_size: must be >= 0"),
    (_truncated(10 ** 12, "1/2", 5 * 10 ** 11), "half the noise_multiplier dominates it"),
])
def test_a_truncated_sampling_outside_its_domain_is_refused_in_one_line(tree, message):
    with pytest.raises(InputError, match=message) as error:
        event_json(tree)
    assert "\n" not in str(error.value)


def test_the_truncated_samplings_sums_are_limited_in_all():
    one = _truncated(10 ** 6, "1/2", 20000)   # 9.6·10^9 bit operations each: seven fit in 2^36, eight do not
    event_json(compose(*[one] * 7))
    with pytest.raises(LimitError, match="truncated samplings would need"):
        event_json(compose(*[one] * 8))


def test_large_truncated_batches_are_limited_in_all():
    """Large batches take the incomplete beta route; the auditor's sums there grow as √((n − 1)q(1 − q)), which
    the tree holds at most MAX_TAIL_ROOTS of in all (before any work)."""
    from producer.pld.truncated import MAX_TAIL_ROOTS, long_route, tail_root
    one = _truncated(10 ** 12, "1/1000", 10 ** 9)      # √(10^9) ≈ 31 623: two fit, three do not
    assert long_route(10 ** 12, mpq(1, 1000), 10 ** 9) and 2 * tail_root(10 ** 12, mpq(1, 1000)) <= MAX_TAIL_ROOTS
    event_json(compose(one, one))
    with pytest.raises(LimitError, match="large truncated batches are beyond the limit") as error:
        event_json(compose(one, one, one))
    assert "\n" not in str(error.value) and "half the noise_multiplier" in str(error.value)
