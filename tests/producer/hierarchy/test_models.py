"""producer.hierarchy.models: the names of cut models in messages."""

from producer.hierarchy.models import SHOWN_CUTS, CutModel, all_cuts


def test_a_short_cut_set_is_named_in_full():
    assert str(CutModel(4, [])) == "U_{}"
    assert str(CutModel(8, [0, 2, 5])) == "U_{0,2,5}"
    every = all_cuts(SHOWN_CUTS + 1)
    assert str(CutModel(SHOWN_CUTS + 1, every)) == "U_{" + ",".join(map(str, range(SHOWN_CUTS))) + "}"


def test_a_long_cut_set_is_named_by_its_ends_and_size():
    """A message naming U_S stays one short line (C = 1000 with every other cut named 500 of them)."""
    name = str(CutModel(1000, range(0, 999, 2)))
    assert name == "U_{0,2,4,6,…,996,998} (500 cuts of 0..998)"
    assert len(str(CutModel(10 ** 5, all_cuts(10 ** 5)))) < 60
