"""Type stubs of khela's compiled module."""

from typing import List, Literal, Optional, Union

Nested = Union[int, List["Nested"]]

class Result:
    """A search's result: the root's value, the index of its best move and the search's counters."""

    value: int
    best: int | None
    nodes: int
    leaves: int
    cutoffs: int

class Tree:
    """A nested-list tree converted once, for many searches (a list is converted at every call)."""

    root: Literal["max", "min"]

    def __init__(self, tree: Nested, root: Literal["max", "min"] = "max") -> None: ...
    def __len__(self) -> int:
        """The number of nodes, leaves included."""

def minimax(tree: Union[Nested, Tree], root: Optional[Literal["max", "min"]] = None) -> Result:
    """Plain minimax on a nested-list tree or a Tree; every node is visited. root: "max" unless a Tree says
    otherwise."""

def alphabeta(
    tree: Union[Nested, Tree],
    root: Optional[Literal["max", "min"]] = None,
    ordering: Literal["natural", "reversed"] = "natural",
) -> Result:
    """Fail-soft alpha-beta on a nested-list tree, children in natural or reversed order."""

def random_tree(
    b: int, d: int, seed: int, rng: Literal["python", "pcg"] = "python", lo: int = 0, hi: int = 99
) -> Nested:
    """The uniform random tree of branching b and depth d, leaves drawn from lo..=hi as Python's
    random.Random(seed).randint(lo, hi) draws them (rng="python") or from khela's PCG stream."""

class DisagreedError(Exception):
    """Results checked against known truth (a benchmark file's scores) disagree with it."""

def cores() -> int:
    """The threads rayon's pool takes by default: the cores this process may use, quotas included."""

def command(args: List[str]) -> None:
    """Runs a harness command as the command line would (the subcommand first); nothing is printed on stdout.
    Raises ValueError for bad input, DisagreedError for results that disagree with known truth and
    KeyboardInterrupt when Ctrl-C stopped it."""
