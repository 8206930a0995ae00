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

import os as _os

# candle, which runs the trained networks (``khela.run(["zero", ...])``, ``net:PATH`` players), asks for the
# thread count at every matrix product and, unless this variable is set, works it out from files under /proc:
# half of self-play's time. The command-line tool sets it by starting itself again; here it is set before the
# native module loads, to the cores this process may use (rayon's own default), unless the user has set it.
if "RAYON_NUM_THREADS" not in _os.environ:
    _cores = _os.sched_getaffinity(0) if hasattr(_os, "sched_getaffinity") else None
    _os.environ["RAYON_NUM_THREADS"] = str(len(_cores) if _cores else (_os.cpu_count() or 1))

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
