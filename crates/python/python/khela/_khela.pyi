"""Type stubs of khela's compiled module."""

from typing import List, Literal, Union

Tree = Union[int, List["Tree"]]

class Result:
    """A search's result: the root's value, the index of its best move and the search's counters."""

    value: int
    best: int | None
    nodes: int
    leaves: int
    cutoffs: int

def minimax(tree: Tree, root: Literal["max", "min"] = "max") -> Result:
    """Plain minimax on a nested-list tree; every node is visited."""

def alphabeta(
    tree: Tree,
    root: Literal["max", "min"] = "max",
    ordering: Literal["natural", "reversed"] = "natural",
) -> Result:
    """Fail-soft alpha-beta on a nested-list tree, children in natural or reversed order."""

def random_tree(
    b: int, d: int, seed: int, rng: Literal["python", "pcg"] = "python", lo: int = 0, hi: int = 99
) -> Tree:
    """The uniform random tree of branching b and depth d, leaves drawn from lo..=hi as Python's
    random.Random(seed).randint(lo, hi) draws them (rng="python") or from khela's PCG stream."""
