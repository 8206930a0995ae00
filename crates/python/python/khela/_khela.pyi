"""Type stubs of khela's compiled module."""

from os import PathLike
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional, Union, final

_Nested = Union[int, List["_Nested"]]
"""A tree as the textbook writes it: a list is a decision node, an integer a leaf."""

__all__ = [
    "Analysis",
    "CHANCE",
    "DisagreedError",
    "FEATURES",
    "Game",
    "MoveValue",
    "Player",
    "Result",
    "State",
    "TERMINAL",
    "Threat",
    "Tree",
    "_state",
    "alphabeta",
    "analyze",
    "command",
    "cores",
    "load",
    "minimax",
    "random_tree",
    "threat",
]

@final
class Result:
    """A search's result: the root's value, the index of its best move and the search's counters."""

    value: int
    best: int | None
    nodes: int
    leaves: int
    cutoffs: int

@final
class Tree:
    """A nested-list tree converted once, for many searches (a list is converted at every call)."""

    root: Literal["max", "min"]

    def __new__(cls, tree: _Nested, root: Literal["max", "min"] = "max") -> "Tree": ...
    def __len__(self) -> int:
        """The number of nodes, leaves included."""

def minimax(tree: Union[_Nested, Tree], root: Optional[Literal["max", "min"]] = None) -> Result:
    """Plain minimax on a nested-list tree or a Tree; every node is visited. root: "max" unless a Tree says
    otherwise."""

def alphabeta(
    tree: Union[_Nested, Tree],
    root: Optional[Literal["max", "min"]] = None,
    ordering: Literal["natural", "reversed"] = "natural",
) -> Result:
    """Fail-soft alpha-beta on a nested-list tree, children in natural or reversed order."""

def random_tree(
    b: int, d: int, seed: int, rng: Literal["python", "pcg"] = "python", lo: int = 0, hi: int = 99
) -> _Nested:
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

CHANCE: int
"""``State.current_player()`` at a chance node: -1."""
TERMINAL: int
"""``State.current_player()`` once the game is over: -4."""
FEATURES: tuple[str, ...]
"""What the build has beyond the default wheel: ``"commands"`` and ``"networks"`` in the full build, none in the
default one."""

@final
class Game:
    """A game, from a game string: ``khela.load("bagh-chal(rules=bagh-bandi)")``."""

    name: str
    """The game string, every parameter written out."""
    title: str
    notation: str
    """How its positions are written."""
    players: List[str]
    """The players' names in the notation, the first player's first."""
    tables: Optional[Path]
    """The directory of the exact tables it reads, if given to load()."""

    def new_initial_state(self) -> "State": ...
    def state(self, position: str) -> "State":
        """The position written in the game's notation."""
    def deserialize(self, text: str) -> "State":
        """The state State.serialize() wrote, its moves replayed."""
    def num_distinct_actions(self) -> int:
        """The size of the action space; ValueError, saying why, for a game that numbers no actions (Sixteen
        Soldiers a chain a move: sixteen-soldiers(moves=jumps) numbers its jumps; Nim without a start:
        nim(heaps=1+3+5+7) has one)."""
    def observation_tensor_shape(self) -> List[int]:
        """Planes, height, width of State.observation_tensor(); ValueError for Sixteen Soldiers a chain a move and
        Nim without a start."""
    def observation_tensor_high(self) -> float:
        """The largest value of State.observation_tensor() (1 for marks and fractions; goats where they stack; a
        Pig score's overshoot of the goal)."""

@final
class State:
    """A state of a game, with the line of play that led to it."""

    game: Game

    def current_player(self) -> int:
        """0 the first player, 1 the second, CHANCE (-1) at a chance node, TERMINAL (-4) once over."""
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> List[float]:
        """Each player's payoff, the first player's first; zeros before the end."""
    def legal_moves(self) -> List[str]:
        """The legal moves (at a chance node, the outcomes) in the game's notation, in the game's order."""
    def chance_outcomes(self) -> List[tuple[str, float]]: ...
    def apply_move(self, text: str) -> None:
        """Plays a move in the game's notation; raises ValueError, the state unchanged, if it is not legal."""
    def legal_actions(self) -> List[int]:
        """The legal moves' actions, in the order of legal_moves(): integers that mean the same move everywhere."""
    def legal_action_mask(self) -> Any:
        """A NumPy bool array over the action space, true at each legal action."""
    def apply_action(self, action: int) -> None:
        """Plays the move whose action is given; raises ValueError, the state unchanged, if it is no legal move's."""
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def observation_tensor(self) -> Any:
        """The position as planes (khela-zero's encodings): a NumPy float32 array of
        Game.observation_tensor_shape()."""
    def random_playouts(self, count: int, seed: int = 0) -> Dict[str, int]:
        """Games played to the end by random moves, seeded: {"first", "draws", "second", "plies"}."""
    def undo(self) -> bool: ...
    def history(self) -> List[str]: ...
    def clone(self) -> "State": ...
    def __copy__(self) -> "State": ...
    def __deepcopy__(self, memo: Any) -> "State": ...
    def serialize(self) -> str: ...
    def __str__(self) -> str:
        """The picture of the position."""

@final
class MoveValue:
    """One legal move's value."""

    move: str
    """The move in the game's notation."""
    action: Optional[int]
    """Its action, for a game that numbers its actions."""
    value: Optional[float]
    """Its value, the first player's view (None for a move Monte Carlo never tried)."""
    visits: Optional[int]
    """The iterations (or simulations) through it, by Monte Carlo or a network."""
    plies: Optional[int]
    """For an exact win or loss, the plies to the end under best play, where known."""
    best: bool
    """Whether it is among the best moves for the side to move."""

@final
class Analysis:
    """Every legal move of a position valued, and where the values come from."""

    source: Literal["exact", "depth", "monte-carlo", "network"]
    depth: Optional[int]
    """The depth searched, for "depth"."""
    complete: bool
    """Whether the search did all it was asked (false when the budget cut it short)."""
    mover: int
    """The side to move: 0 the first player, 1 the second."""
    moves: List[MoveValue]
    """Every legal move, in the game's order."""
    best: List[str]
    """The best moves for the side to move, in the game's notation."""

    def __len__(self) -> int: ...

def analyze(
    state: State,
    *,
    depth: Optional[int] = None,
    iterations: Optional[int] = None,
    net: Union[str, PathLike[str], None] = None,
    simulations: int = 800,
    seed: int = 0,
    budget: Optional[float] = None,
) -> Analysis:
    """Every legal move valued: exactly by default, by the engine to depth, by UCT of iterations from seed, or by a
    network's search; budget (seconds) answers with what was found by then."""

@final
class Threat:
    """What a move lets happen to the pieces within 3 moves of each side (games with captures)."""

    loses_within: Optional[int]
    """The fewest of the opponent's moves within which it takes one of the mover's pieces, whatever the mover does."""
    captures_within: Optional[int]
    """The fewest of the mover's own moves (this one the first) within which it takes one of the opponent's."""

def threat(state: State, move: str) -> Optional[Threat]:
    """The captures a legal move lets the opponent force, or itself forces, within 3 moves of each side; None for a
    game without captures."""

@final
class Player:
    """A player as the command line names it (engine:D, mcts:N, net:PATH[:N], random, perfect), seeded."""

    name: str

    def __new__(cls, spec: str, seed: int = 0) -> "Player": ...
    def move(self, state: State) -> str:
        """The move it chooses in state, in the game's notation."""
    def action(self, state: State) -> int:
        """The action of the move it chooses in state."""

def load(text: str, tables: Union[str, PathLike[str], None] = None) -> Game:
    """The game of a game string (khela.games() lists the games), reading the exact tables in tables if given."""

def _state(game: str, text: str, tables: Union[str, PathLike[str], None] = None) -> State:
    """The state State.serialize() wrote: what unpickling a state calls."""
