"""khela from Python: the textbook's searches at khela's speed, and the harness's commands.

Trees are nested lists exactly as the textbook writes them: a list is a decision node (MAX and MIN alternate,
``root`` says who moves first), an integer is a leaf::

    >>> import khela
    >>> khela.minimax([[[3, 5], [2, 9]], [[1, 7], [4, 6]]]).value
    6
    >>> khela.alphabeta([[[3, 5], [2, 9]], [[1, 7], [4, 6]]], root="min").value
    3

A ``khela.Tree`` is converted once for many searches (a list is converted at every call)::

    >>> tree = khela.Tree(khela.random_tree(4, 6, 42))
    >>> khela.alphabeta(tree).leaves, khela.alphabeta(tree, ordering="reversed").value
    (687, 26)

Games and positions are named as on the command line (``khela.games()`` lists them)::

    >>> [(r["move"], r["visits"]) for r in khela.mcts("tictactoe", "X...O...X", "uct", 3000, 1, rng="python")][:2]
    [('1', 698), ('2', 143)]
"""

from ._khela import DisagreedError, Result, Tree, alphabeta, minimax, random_tree
from .commands import Sweep, count, games, mcts, run, solve, sweep

__all__ = [
    "DisagreedError",
    "Result",
    "Sweep",
    "Tree",
    "alphabeta",
    "count",
    "games",
    "mcts",
    "minimax",
    "random_tree",
    "run",
    "solve",
    "sweep",
]
