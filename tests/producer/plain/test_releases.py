"""Releases of a heterogeneous plain composition: the text form, canonicalisation, limits at their edges."""

import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import InputError, LimitError
from producer.kinds.plain_composition import Request
from producer.plain.releases import MAX_SENSITIVITY, Release, canonical_releases, parse_release

EPSILONS = "1/2,1,2"


def cert(releases, **widths):
    return api.plain_composition(None, None, EPSILONS, releases=releases, **(widths or {"width": "1e-12"}))


@pytest.mark.parametrize("text, fields", [
    ("dg:9x100", ("discrete-gaussian", mpq(9), 1, 100)),
    ("dl:2x5", ("discrete-laplace", mpq(2), 1, 5)),
    ("dg:4:2x20", ("discrete-gaussian", mpq(4), 2, 20)),
    ("dg:20.51:3x1", ("discrete-gaussian", mpq(2051, 100), 3, 1)),
    ("dl:1/2x7", ("discrete-laplace", mpq(1, 2), 1, 7)),
])
def test_the_text_form_is_read_exactly(text, fields):
    release = parse_release(text)
    assert (release.family, release.parameter, release.sensitivity, release.count) == fields
    assert parse_release(release.text()).key == release.key


@pytest.mark.parametrize("text, error, fragment", [
    ("dg:9", InputError, "not of the form"), ("dq:9x2", InputError, "not of the form"),
    ("dg9x2", InputError, "not of the form"), ("dg:9:1:1x2", InputError, "not of the form"),
    ("dg:9x0", InputError, "count must be an integer >= 1"), ("dg:9:0x2", InputError, "sensitivity must be"),
    ("dg:9:1.5x2", InputError, "not an integer"), ("dg:9x2.5", InputError, "not an integer"),
    (f"dg:9:{MAX_SENSITIVITY + 1}x2", LimitError, "exceeds the limit"), ("dg:ax2", InputError, "not a rational"),
])
def test_bad_release_texts_are_refused(text, error, fragment):
    with pytest.raises(error, match=fragment):
        parse_release(text)


def test_the_sensitivity_limit_is_inclusive():
    assert parse_release(f"dg:9:{MAX_SENSITIVITY}x2").sensitivity == MAX_SENSITIVITY


def test_canonical_merges_equal_releases_and_sorts():
    out = canonical_releases(["dl:2x5", "dg:9x60", "dg:4:2x20", "dg:9x40", "dg:4x1"], 1024)
    assert [r.text() for r in out] == ["dg:4x1", "dg:4:2x20", "dg:9x100", "dl:2x5"]


def test_the_total_count_limit_is_at_its_edge():
    assert sum(r.count for r in canonical_releases(["dg:9x1000", "dl:1x24"], 1024)) == 1024
    with pytest.raises(LimitError, match="1025 exceeds the limit of 1024"):
        canonical_releases(["dg:9x1000", "dl:1x25"], 1024)
    with pytest.raises(InputError, match="at least one release"):
        canonical_releases([], 1024)


def test_order_and_grouping_give_the_same_bytes():
    one = cert(["dg:9x3", "dl:2x2", "dg:4:2x1"])
    other = cert(["dg:4:2x1", "dl:2x1", "dg:9x2", "dl:2x1", "dg:9x1"])
    assert one.to_json() == other.to_json()
    assert [r["count"] for r in one.input["releases"]] == [1, 3, 2]


@pytest.mark.parametrize("law, single", [("dg:9x8", {"sigma2": 9}), ("dl:2x8", {"sigma2": None, "laplace": 2})])
def test_one_release_of_sensitivity_one_is_the_single_law_form(law, single):
    ours = cert([law])
    theirs = api.plain_composition(budget=8, epsilons=EPSILONS, width="1e-12", **single)
    assert ours.to_json() == theirs.to_json() and "releases" not in ours.input
    split = cert([law.replace("x8", "x3"), law.replace("x8", "x5")], rel_width="1/1000")
    assert split.to_json() == api.plain_composition(budget=8, epsilons=EPSILONS, rel_width="1/1000", **single).to_json()


def test_one_release_of_sensitivity_two_keeps_the_releases_form():
    ours = cert(["dg:9:2x8"])
    assert ours.input["releases"] == [{"noise": {"family": "discrete-gaussian", "sigma2": "9"}, "sensitivity": 2,
                                       "count": 8}]
    # sensitivity 2 on Z is a different question from sensitivity 1: δ(ε) is larger
    single = api.plain_composition(9, 8, EPSILONS, width="1e-12")
    for two, one in zip(ours.result["points"], single.result["points"], strict=True):
        assert mpq(two["lower"]) > mpq(one["upper"])


@pytest.mark.parametrize("kwargs, fragment", [
    ({"budget": 2, "sigma2": 9}, "not both"), ({"budget": None, "sigma2": None, "laplace": 2}, "not both"),
])
def test_releases_exclude_the_single_law_arguments(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        Request(kwargs.pop("budget"), [1], mpq(1, 10**6), releases=[Release("dg", 9, 1, 2)], **kwargs)


def test_a_release_scale_outside_the_limits_is_refused():
    with pytest.raises(LimitError, match="limits"):
        Request(None, [1], mpq(1, 10**6), releases=["dg:1/1000x2", "dl:1x1"])


def test_the_api_takes_releases_by_keyword_and_needs_epsilons():
    keyword = api.plain_composition(epsilons=EPSILONS, releases=["dg:9x3", "dl:1:2x1"], width="1e-12")
    assert keyword.to_json() == cert(["dl:1:2x1", "dg:9x3"]).to_json()
    with pytest.raises(InputError, match="at least one ε"):
        api.plain_composition(releases=["dg:9x3"])


def test_the_width_limits_are_at_their_edges():
    assert Request(2, [1], None, sigma2=9, rel_width=mpq(1, 10**30)).rel_width == mpq(1, 10**30)
    with pytest.raises(LimitError, match="10\\^-30"):
        Request(2, [1], None, sigma2=9, rel_width=mpq(1, 10**30) - mpq(1, 10**40))
    assert Request(2, [1], mpq(1, 10**60), sigma2=9).width == mpq(1, 10**60)
    with pytest.raises(InputError, match="width: give an absolute width W, a relative width R, or both"):
        Request(2, [1], None, sigma2=9)
    both = Request(None, [1], mpq(1, 10**9), releases=["dg:9x2", "dl:2x1"], rel_width=mpq(1, 10))
    assert both.as_json()["width"] == "1/1000000000" and both.as_json()["rel_width"] == "1/10"
    assert "rel_width" not in Request(2, [1], mpq(1, 10**9), sigma2=9).as_json()


def test_one_text_is_one_release_and_a_list_its_releases():
    from producer.plain.releases import parse_releases
    assert [r.text() for r in parse_releases("dg:9x100")] == ["dg:9x100"]
    assert [r.text() for r in parse_releases(["dg:9x100", "dl:2x5"])] == ["dg:9x100", "dl:2x5"]
    assert [r.text() for r in canonical_releases("dg:4:2x20", 1024)] == ["dg:4:2x20"]


@pytest.mark.parametrize("parts, text", [
    (("dg", 9, 1, 100), "dg:9x100"), (["dl", "1/2", "2", 5], "dl:1/2:2x5"),
    (("discrete-gaussian", "0.5", 1, 2), "dg:1/2x2"),
])
def test_a_release_tuple_is_read_as_the_texts_four_parts(parts, text):
    assert parse_release(parts).text() == text


@pytest.mark.parametrize("parts, fragment", [
    (("dg", 9, 10), r"^release: \('dg', 9, 10\) is not of the form law:scale\[:sensitivity\]xcount, e\.g\. dg:9x100"),
    (("dq", 9, 1, 10), "is not of the form"), ((9, "dg", 1, 10), "is not of the form"),
    (("dg", "abc", 1, 10), r"^release dg: scale: 'abc' is not a rational"),
    (("dg", 9, 1.5, 10), r"^release dg: sensitivity: 1\.5 is not an integer"),
])
def test_a_bad_release_tuple_is_refused_in_one_line(parts, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_release(parts)
