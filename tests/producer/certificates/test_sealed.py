"""The sealed certificate (producer/certificates/sealed.py): what it states beside its bytes, the auditor's
budget among it."""

import json
from pathlib import Path

import pytest

from producer.api import Certificate

SLOW = Path(__file__).resolve().parents[3] / "certificates" / "slow"


@pytest.mark.parametrize("budget, n", [(8, 1), (32, 2), (64, 4)])
def test_a_certificate_states_the_auditor_budget_it_needs(budget, n):
    name = f"epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c{budget}-delta1e-4.json"
    data = (SLOW / name).read_bytes()
    cert = Certificate(json.loads(data))
    assert cert.to_json() == data and cert.auditor_budget == n
    if n == 1:
        assert cert.notice is None
    else:
        assert cert.notice.endswith(f"verify it with `auditor verify --budget {n}`") and "\n" not in cert.notice
    with pytest.raises(AttributeError):
        cert.auditor_budget = 1
