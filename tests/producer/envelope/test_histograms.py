"""Histogram distance and neighbours against brute force over ordered databases."""

import itertools

import pytest

from producer.envelope.histograms import count_histograms, distance, histogram_of, histograms, neighbours


def hamming(x, y):
    return sum(a != b for a, b in zip(x, y))


@pytest.mark.parametrize("T,n", [(1, 3), (2, 3), (3, 2), (3, 3), (4, 2)])
def test_histogram_list_is_complete_sorted_and_counted(T, n):
    hs = histograms(T, n)
    assert hs == sorted(set(hs))
    assert len(hs) == count_histograms(T, n)
    assert set(hs) == {histogram_of(x, T) for x in itertools.product(range(T), repeat=n)}


@pytest.mark.parametrize("T,n", [(2, 3), (3, 2), (3, 3)])
def test_distance_is_least_hamming_distance_between_databases(T, n):
    dbs = list(itertools.product(range(T), repeat=n))
    for x in dbs:
        hx = histogram_of(x, T)
        best = {}
        for y in dbs:
            hy = histogram_of(y, T)
            best[hy] = min(best.get(hy, n + 1), hamming(x, y))
        for hy, d in best.items():
            assert distance(hx, hy) == d


@pytest.mark.parametrize("T,n", [(2, 3), (3, 3)])
def test_neighbours_are_histograms_of_one_record_replacements(T, n):
    for x in itertools.product(range(T), repeat=n):
        hx = histogram_of(x, T)
        expected = {histogram_of(y, T) for y in itertools.product(range(T), repeat=n) if hamming(x, y) == 1}
        assert set(neighbours(hx)) == expected
        assert all(distance(hx, g) == 1 for g in neighbours(hx))
