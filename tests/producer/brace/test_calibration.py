"""eq. (8): auto gamma, refusals, and the table in docs/brace.md."""

import os
import re

import pytest
from gmpy2 import mpq

from producer.brace.calibration import Calibration, gamma_table_rows
from producer.errors import InputError

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "brace.md")


def test_auto_gamma_is_admissible_and_maximal_on_its_grid():
    c = Calibration(64, mpq(1, 100000), 3, 2)
    g = c.auto_gamma()
    assert c.holds(g)
    assert not c.holds(g + mpq(1, 10 ** 12) + mpq(1, 2 ** 40))
    assert (g * 10 ** 12).denominator == 1


@pytest.mark.parametrize("eps,delta", [("0", "1/2"), ("1", "0"), ("1", "1"), ("-3", "1/10")])
def test_bad_privacy_parameters_refused(eps, delta):
    with pytest.raises(InputError):
        Calibration(mpq(eps), mpq(delta), 3, 2)


def test_paper_gamma_violates_eq8_in_every_mnist_setting():
    for eps in (16, 32, 64):
        for T in (3, 5, 7):
            assert not Calibration(eps, mpq(1, 100000), T, 2).holds(mpq(1, 4))


def test_doc_table_matches_recomputation():
    with open(DOC, encoding="utf-8") as fh:
        text = fh.read()
    for row in gamma_table_rows():
        assert row in text, f"docs/brace.md lacks the recomputed row {row}"
    assert len(re.findall(r"^\| (16|32|64) \| [357] \|", text, re.M)) == 9
