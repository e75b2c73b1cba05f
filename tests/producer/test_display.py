"""producer/display.py: the claim lines' numbers, rounded outward."""

from gmpy2 import mpq

from producer.display import show_interval


def test_show_interval_of_the_published_value():
    # the decimal displays of the dg-interval reference at γ = 1/3, σ² = 9, C = 2, ε = 2
    lo, hi = mpq(843119885145458295, 10**22), mpq(843119885309728206, 10**22)
    assert show_interval(lo, hi) == "[8.4311988514e-05, 8.4311988531e-05]"
