"""Root covers: which preparations a synchronised root may choose (R1 of docs/mechanism.md §4).

A root with c participations left chooses a pure state k = B·z and a sign j;
in the engine's notation the alternative is the residue r = a·z mod B^c with
j (producer/game/engine.py).  A *root cover* is a set of such alternatives
proved to contain a maximiser for every query point, at every level c.  The
engine takes one cover and asks it, level by level, for its alternatives;
producer/game/values.py only chooses which cover to use.

- :class:`AllRoots` (``enumerate``): every residue mod B^c (R1); one sign for
  symmetric laws (reflection pairs (r, j) with (−r, −j)).
- :class:`SupportReduction` (``reduced``): the C1/C2 support reduction for
  symmetric laws (producer/game/support.py) at c <= 2; all roots otherwise.
- :class:`CarryCellCover` (``compiled``): the closed carry-cell cover
  (producer/game/compilation.py) at every level, or all roots where B^c is no
  larger.
"""

from producer.game import compilation
from producer.game.support import reduced_root_alternatives, reduction_applies

SIGNS = (1, -1)


def root_signs(law):
    """Both signs, or +1 alone for a symmetric law (reflection)."""
    return (1,) if law.is_symmetric() else SIGNS


class RootCover:
    """The interface: ``alternatives`` (the list the engine maximises over) and ``size``."""

    name = None

    def alternatives(self, law, gamma, c):
        """The (r, j) root alternatives at level c, in the engine's tie order."""
        raise NotImplementedError

    def size(self, law, gamma, c):
        """An upper bound on len(alternatives(...)) that is cheap to compute (work estimates)."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class AllRoots(RootCover):
    name = "enumerate"

    def alternatives(self, law, gamma, c):
        return [(r, j) for r in range(gamma.B ** c) for j in root_signs(law)]

    def size(self, law, gamma, c):
        return gamma.B ** c * len(root_signs(law))


class SupportReduction(RootCover):
    name = "reduced"

    def alternatives(self, law, gamma, c):
        # the candidates are distinct residues, so never more than B^c; they are
        # used even when not fewer (the sign −1 then names the witness)
        if reduction_applies(law, c):
            return reduced_root_alternatives(law, gamma, c)
        return AllRoots().alternatives(law, gamma, c)

    def size(self, law, gamma, c):
        if reduction_applies(law, c):
            return min(len(reduced_root_alternatives(law, gamma, c)), AllRoots().size(law, gamma, c))
        return AllRoots().size(law, gamma, c)


class CarryCellCover(RootCover):
    """``always``: use the cover even where all B^c residues are fewer (to test the cover)."""

    name = "compiled"

    def __init__(self, always=False):
        self.always = always

    def alternatives(self, law, gamma, c):
        # the cover argument holds for each initial sign separately; reflection
        # makes the two signs' maxima equal for a symmetric law
        residues = compilation.cover_residues(law, gamma, c, self.always)
        return [(r, j) for r in residues for j in root_signs(law)]

    def size(self, law, gamma, c):
        return compilation.cover_size(law, gamma, c) * len(root_signs(law))

    def __repr__(self):
        return f"CarryCellCover(always={self.always})"


COVERS = {cover.name: cover for cover in (AllRoots, SupportReduction, CarryCellCover)}


def cover_named(method):
    """The cover of a method name (``enumerate``, ``reduced``, ``compiled``)."""
    return COVERS[method]()
