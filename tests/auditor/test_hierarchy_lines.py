"""The auditor's proof-function lower lines (auditor/hierarchy/lines.py) against the plain brute force.

tests/reference_hierarchy.PlainLines is written from docs/paper-claims.md §3.2 alone: every child
line is scanned (no hull, no integer keys) and the multi-group tangents come from m evaluated at
every pairwise crossing of the groups' lines.  The integers must be equal, line by line, for cut
games and for proof hierarchies (multi-group nodes), on irregular grids and on grids whose priors
make the tie rules matter (t = 1/2, equal rows).
"""

from hypothesis import given, settings, strategies as st

from auditor.hierarchy.graph import Graph
from auditor.hierarchy.grid import Grid
from auditor.hierarchy.lines import solve_lines
from auditor.hierarchy.model import Model
from auditor.hierarchy.words import Words
from tests.reference_hierarchy import PlainLines


def _plain(weights, a, B, C, spec, grid, K, F):
    L = len(weights) // 2
    cert = {"input": {"gamma": f"{a}/{B}", "budget": C, "model": spec},
            "result": {"source": {"radius": L, "weights": [str(w) for w in weights], "scale": str(sum(weights))},
                       "grid": {"bits": K, "numerators": [str(g) for g in grid]}, "scale_bits": F}}
    lines = PlainLines(cert).root_lines()
    return [a for a, _ in lines], [b for _, b in lines]


def _mine(weights, a, B, C, spec, grid, K, F):
    model = Model.from_json(C, spec)
    graph = Graph(weights, -(len(weights) // 2), a, B, model, Words(a, B))
    return solve_lines(graph, Grid(grid, K), F)


grids = st.lists(st.integers(1, 255), min_size=1, max_size=8, unique=True).map(
    lambda xs: sorted(set(xs) | {0, 128, 256}))
cases = st.sampled_from([(2, {"game": "cuts", "cuts": [0]}), (3, {"game": "cuts", "cuts": [0, 1]}),
                         (3, {"game": "cuts", "cuts": [1]}), (3, {"game": "cuts", "cuts": []}),
                         (2, {"game": "depth", "depth": 2}), (3, {"game": "depth", "depth": 2}),
                         (3, {"game": "depth", "depth": 3}), (4, {"game": "depth", "depth": 2})])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(1, 1, 1), (1, 2, 1), (3, 5, 3), (1, 4, 6, 4, 1)]),
       st.sampled_from([(1, 2), (1, 3), (2, 3)]), cases, grids, st.sampled_from([10, 16, 40]))
def test_lines_equal_the_plain_brute_force(weights, gamma, case, grid, F):
    (a, B), (C, spec) = gamma, case
    if C == 4 and len(weights) > 3:
        C = 3
    assert _mine(weights, a, B, C, spec, grid, 8, F) == _plain(weights, a, B, C, spec, grid, 8, F)
