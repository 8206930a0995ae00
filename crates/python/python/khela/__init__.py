"""khela from Python: the textbook's searches at khela's speed, the games' states and searches on them, and (in
the full build, ``khela.features``) the harness's commands.

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

A game is loaded by the same game string as on the command line, and its states are played in its notation::

    >>> state = khela.load("tictactoe").state("X...O...X")
    >>> state.apply_move("2"); state.legal_moves()
    ['1', '3', '5', '6', '7']
    >>> khela.solve(state).best
    ['6']

In the full build, the harness's commands take games and positions named as on the command line (``khela.games()``
lists them)::

    >>> [(r["move"], r["visits"]) for r in khela.mcts("tictactoe", "X...O...X", "uct", 3000, 1, rng="python")][:2]
    [('1', 698), ('2', 143)]
"""

import os as _os

from ._khela import (
    CHANCE,
    FEATURES,
    TERMINAL,
    Analysis,
    DisagreedError,
    Game,
    MoveValue,
    Player,
    Result,
    State,
    Threat,
    Tree,
    analyze,
    cores,
    load,
    minimax,
    random_tree,
    threat,
)
from .commands import Sweep, count, games, run, sweep
from .search import alphabeta, mcts, player, solve

#: What this build has beyond states, searches, players, environments and the textbook's harness, which every
#: build has: ``"commands"``, every harness command on the games (``khela.run``, and ``solve``, ``count``,
#: ``mcts`` and ``games`` named by a game string), and ``"networks"``, ``net:PATH`` players and an analysis by a
#: network. The default wheel (``pip install ./crates/python``) has neither and builds far more quickly;
#: ``pip install ./crates/python -C build-args="--features full"`` has both.
features = frozenset(FEATURES)

# candle, which runs the trained networks (``khela.run(["zero", ...])``, ``net:PATH`` players), asks for the
# thread count at every matrix product and, unless RAYON_NUM_THREADS is set, works it out from files under /proc:
# half of self-play's time. And it splits element-wise operations among CANDLE_NUM_THREADS threads that spin while
# they wait, taking the cores from self-play's own threads: 1 runs them on the thread that asks. The command-line
# tool sets both by starting itself again; here they are set as soon as the native module is loaded (rayon and
# candle read them at their first use, not before): RAYON_NUM_THREADS to rayon's own default — the cores this
# process may use, quotas included — and CANDLE_NUM_THREADS to 1, each unless the user has set it.
_os.environ.setdefault("RAYON_NUM_THREADS", str(cores()))
_os.environ.setdefault("CANDLE_NUM_THREADS", "1")

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Analysis",
    "DisagreedError",
    "Game",
    "MoveValue",
    "Player",
    "State",
    "Threat",
    "Result",
    "Sweep",
    "Tree",
    "alphabeta",
    "analyze",
    "cores",
    "count",
    "features",
    "games",
    "load",
    "mcts",
    "minimax",
    "player",
    "random_tree",
    "threat",
    "run",
    "solve",
    "sweep",
]
