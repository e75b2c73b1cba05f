"""minimum-depth/1: the Table S1 diagnosis at C = 8 (slow), and small-case consistency."""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import InputError
from producer.references import paper

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "minimum-depth-1.schema.json").read_text())
PAPER = ROOT / "certificates" / "paper"
SMALL = dict(gamma="1/3", sigma2="1", budget=3, epsilon="1", upper_priors=60, lower_priors=60, radius=8,
             scale="2^40")


def test_small_certificate_is_consistent():
    cert = api.minimum_depth(delta="1/5", depth=2, **SMALL)
    jsonschema.validate(cert.as_dict(), SCHEMA)
    res = cert.result
    assert res["lower"]["model"] == {"game": "depth", "depth": 1}
    assert res["upper"]["model"] == {"game": "depth", "depth": 2}
    lam_hi, tau = mpq(res["threshold"]["upper"]), mpq(res["tau"])
    assert mpq(res["transfer"]) == (1 + lam_hi) * 6 * tau
    assert mpq(res["lower"]["lower"]) == mpq(res["lower"]["finite_lower"]) - mpq(res["transfer"])
    # the depth-one lower never exceeds a hierarchy/1 upper of the same model and source
    upper_p1 = api.hierarchy_upper("1/3", "1", 3, depth=1, epsilon="1", priors=60, radius=8, source_scale="2^40")
    assert mpq(res["lower"]["finite_lower"]) <= mpq(upper_p1.result["finite_upper"])
    assert (res["minimum_depth"] == 2) == (res["upper"]["below_delta"] and res["lower"]["above_delta"])


def test_bad_depth_is_refused():
    with pytest.raises(InputError, match="2 <= H <= C"):
        api.minimum_depth(delta="1/5", depth=1, **SMALL)
    with pytest.raises(InputError, match="2 <= H <= C"):
        api.minimum_depth(delta="1/5", depth=4, **SMALL)


@pytest.mark.slow
@pytest.mark.parametrize("name, depth", [("minimum-depth-c8-g1_3-sigma2_9-eps4_91.json", 3),
                                         ("minimum-depth-c8-g1_3-sigma2_9-eps4_94.json", 2)])
def test_table_s1_diagnosis(tmp_path, name, depth):
    """ε = 4.91: depth two fails structurally and depth three certifies; ε = 4.94: depth two certifies."""
    (path,) = paper.generate(str(tmp_path), {name})
    assert Path(path).read_bytes() == (PAPER / name).read_bytes()
    cert = json.loads((PAPER / name).read_text())
    jsonschema.validate(cert, SCHEMA)
    res = cert["result"]
    assert res["minimum_depth"] == depth
    assert mpq(res["lower"]["lower"]) > mpq(1, 10 ** 4) > mpq(res["upper"]["upper"])


def test_a_source_scale_beyond_the_float_range_answers():
    """S = 2^4000 is within the source limits: the float hints take shares of the rows, never a float of them."""
    fields = dict(SMALL, scale="2^4000", upper_priors=30, lower_priors=30)
    huge = api.minimum_depth(delta="1/5", depth=2, **fields).result
    near = api.minimum_depth(delta="1/5", depth=2, **dict(fields, scale="2^2000")).result
    for side, value in (("upper", "upper"), ("lower", "lower")):
        assert abs(mpq(huge[side][value]) - mpq(near[side][value])) < mpq(1, 10 ** 100)
    assert huge["minimum_depth"] == near["minimum_depth"]
