"""What the PettingZoo and Gymnasium environments share: a game taken for an environment, its observation's space,
nature's moves, and the picture as rendered."""

from typing import Any, Dict, NamedTuple, Optional

import numpy as np
from gymnasium import spaces

from . import _khela

#: The render modes both environments take: the picture returned (``ansi``) or printed (``human``).
RENDER_MODES = ["ansi", "human"]


class Taken(NamedTuple):
    """A game taken for an environment: the game, its number of actions, and its observation's space (the
    network's planes, from 0 to their largest value)."""

    game: _khela.Game
    actions: int
    observation: spaces.Box


def take(game: str, render_mode: Optional[str]) -> Taken:
    """The game of the game string ``game`` for an environment, or ``ValueError`` saying why it has none (no
    numbered actions: Nim without a start, Sixteen Soldiers a chain a move)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: ansi, human or None")
    loaded = _khela.load(game)
    try:
        actions = loaded.num_distinct_actions()
        shape = tuple(loaded.observation_tensor_shape())
        high = loaded.observation_tensor_high()
    except ValueError as err:
        raise ValueError(f"no environment for {loaded.title}: {err}") from None
    return Taken(loaded, actions, spaces.Box(0.0, high, shape, np.float32))


def start(game: _khela.Game, options: Optional[Dict[str, Any]]) -> _khela.State:
    """A new game's state: the game's start, or ``options["position"]`` in the game's notation."""
    position = (options or {}).get("position")
    return game.new_initial_state() if position is None else game.state(position)


def mask(state: _khela.State, moves: bool) -> np.ndarray:
    """The action mask (int8) of a player: the legal actions where ``moves`` (the player is to move, the game not
    over), zeros elsewhere."""
    if moves and not state.is_terminal():
        return np.asarray(state.legal_action_mask(), dtype=np.int8)
    return np.zeros(state.game.num_distinct_actions(), dtype=np.int8)


def draw_nature(state: _khela.State, rng: np.random.Generator) -> None:
    """Plays nature's moves at ``state`` (a chance node's outcome drawn by its probability from ``rng``) until a
    player is to move or the game is over."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        chosen = rng.choice(len(outcomes), p=[p for _, p in outcomes])
        state.apply_move(outcomes[chosen][0])


def render(state: _khela.State, render_mode: Optional[str]) -> Optional[str]:
    """The picture of ``state`` as ``render_mode`` asks: returned (``ansi``), printed (``human``) or neither."""
    if render_mode is None:
        return None
    picture = str(state)
    if render_mode == "human":
        print(picture)
        return None
    return picture
