"""auditor.decide: the one retry rule (open claims once more at RETRY_FACTOR times the precision),
and the dg-interval checks deciding through it (no retry loop of their own)."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from auditor import decide
from auditor.api import verify_certificate
from auditor.decide import DISPROVED, OPEN, PROVED, RETRY_FACTOR, retried
from auditor.outcomes import OK
from tests.auditor.verdicts import only_unproved

ROOT = Path(__file__).resolve().parents[2] / "certificates"
WIDEN = Fraction(1, 1 << 20)


@given(st.dictionaries(st.integers(0, 20), st.integers(1, 5), max_size=8), st.integers(1, 200))
def test_retried_asks_each_open_claim_again_once_at_the_higher_precision(needed, bits):
    """Claim k is decided once the precision reaches needed[k]·bits (brute force: the two rounds)."""
    calls = []

    def decide_at(pending, b):
        calls.append((list(pending), b))
        return {k: PROVED if b >= needed[k] * bits else OPEN for k in pending}

    decisions = retried(decide_at, list(needed), bits)
    for k, n in needed.items():
        assert decisions[k] == (PROVED if n <= RETRY_FACTOR else OPEN)
    assert calls[:1] == ([(list(needed), bits)] if needed else [])
    second = [k for k in needed if needed[k] > 1]
    assert calls[1:] == ([(second, bits * RETRY_FACTOR)] if second else [])


def test_retried_keeps_a_disproof_from_the_first_round():
    rounds = iter([{"a": DISPROVED, "b": OPEN}, {"b": PROVED}])
    assert retried(lambda pending, bits: next(rounds), ["a", "b"], 8) == {"a": DISPROVED, "b": PROVED}


def _widened(bounds):
    def wide(*args):
        lo, hi = bounds(*args)
        return lo * (1 - WIDEN), hi * (1 + WIDEN)
    return wide


@pytest.mark.parametrize("name,pointer", [("dg-interval-c1-explicit-source.json", "/result/source/weights/"),
                                          ("dg-interval-published-c2-eps2.json", "/result/source/weights/")])
def test_dg_interval_source_is_decided_by_auditor_decide(monkeypatch, name, pointer):
    cert = json.loads((ROOT / name).read_text())
    assert verify_certificate(cert).status == OK
    monkeypatch.setattr(decide, "normaliser_bounds", _widened(decide.normaliser_bounds))
    only_unproved(verify_certificate(cert), pointer)


def test_dg_interval_threshold_is_decided_by_auditor_decide(monkeypatch):
    cert = json.loads((ROOT / "dg-interval-published-c2-eps2.json").read_text())
    monkeypatch.setattr(decide, "exp_bounds", _widened(decide.exp_bounds))
    only_unproved(verify_certificate(cert), "/result/threshold/")


@given(st.integers(1, 5), st.integers(1, 200))
def test_retried_claim_is_retried_once_at_the_higher_precision(needed, bits):
    """One claim decided once the precision reaches needed·bits: proved after at most one retry."""
    calls = []

    def decide_at(b):
        calls.append(b)
        return PROVED if b >= needed * bits else OPEN

    decision = decide.retried_claim(decide_at, bits)
    assert calls == ([bits] if needed == 1 else [bits, RETRY_FACTOR * bits])
    assert decision == (PROVED if needed <= RETRY_FACTOR else OPEN)


def test_exp_states_starts_at_exp_bits(monkeypatch):
    """exp_states without ``bits`` encloses e^ε first at exp_bits of its sides (the limits assume it)."""
    seen = []

    def recording(x, bits):
        seen.append(bits)
        return Fraction(0), Fraction(10 ** 9)   # a valid but useless enclosure: the claim stays open

    monkeypatch.setattr(decide, "exp_bounds", recording)
    lower = Fraction(3, 1 << 70)
    assert decide.exp_states(Fraction(2), lower, Fraction(5))[:2] == (OPEN, OPEN)
    assert decide.exp_bits([lower, Fraction(5)]) == 71 + 48
    assert seen == [71 + 48, RETRY_FACTOR * (71 + 48)]
    assert decide.source_bits(1 << 40) == 41 + 64
