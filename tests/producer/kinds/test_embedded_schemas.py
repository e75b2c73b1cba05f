"""Every host schema (epsilon-bracket/1, noise/1, dpsgd-calibration/1) holds the schemas it embeds unchanged,
and only those."""

import json

import pytest

from tests.producer.kinds.embedded_schemas import HOSTS, SCHEMAS, embedded_defs, own_defs


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_the_host_embeds_each_schema_unchanged(host):
    schema = json.loads((SCHEMAS / f"{host}.schema.json").read_text(encoding="utf-8"))
    expected = embedded_defs(host)
    for name, subschema in expected.items():
        assert schema["$defs"].get(name) == subschema, \
            f"{host} {name}: run python -m tests.producer.kinds.embedded_schemas"
    stale = set(schema["$defs"]) - set(expected) - set(own_defs(host, schema))
    assert not stale, f"{host}: embedded $defs no schema gives: {sorted(stale)}"


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_every_embedded_certificate_is_referenced(host):
    text = (SCHEMAS / f"{host}.schema.json").read_text(encoding="utf-8")
    for prefix in HOSTS[host]:
        assert f'"#/$defs/{prefix}_certificate"' in text, f"{host} never refers to {prefix}_certificate"


def test_a_changed_embedded_schema_shows(monkeypatch, tmp_path):
    """The comparison can fail: a host built from an altered plain-composition/1 differs."""
    plain_hosts = [host for host in HOSTS if "plain" in HOSTS[host]]
    before = {host: embedded_defs(host)["plain_point"] for host in plain_hosts}
    for path in SCHEMAS.glob("*.schema.json"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    plain = json.loads((tmp_path / "plain-composition-1.schema.json").read_text(encoding="utf-8"))
    plain["$defs"]["point"]["description"] = "altered"
    (tmp_path / "plain-composition-1.schema.json").write_text(json.dumps(plain), encoding="utf-8")
    import tests.producer.kinds.embedded_schemas as module
    monkeypatch.setattr(module, "SCHEMAS", tmp_path)
    for host in plain_hosts:
        assert module.embedded_defs(host)["plain_point"] != before[host]
