"""A khela game as a single-agent Gymnasium environment against a khela player:
``khela.gymnasium.env("connect4", opponent="engine:4")``.

The agent plays ``side`` (0 the first player, 1 the second); the opponent (a player as the command line names it:
``random``, ``engine:D``, ``mcts:N``, ``net:PATH[:N]``, ``perfect``) answers within ``step``, seeded from
``reset``'s seed, so that the same seed and the same actions give the same game. The observation is the
position's planes (``State.observation_tensor()``, float32 planes × height × width), always at the agent's turn
or at the end; ``info["action_mask"]`` (int8) marks the legal actions. Nature's moves (EinStein's die, Pig's) are
drawn from the same seed. The reward is the agent's payoff at the end (+1, 0, −1). An illegal action ends the
episode as a loss (reward −1, ``info["illegal"]``), the usual rule for agents that ignore the mask. Needs
``pip install "./crates/python[envs]"``.

    >>> import khela.gymnasium
    >>> env = khela.gymnasium.env("tictactoe", opponent="engine:4")
    >>> observation, info = env.reset(seed=0)
    >>> observation.shape, info["action_mask"].tolist()
    ((3, 3, 3), [1, 1, 1, 1, 1, 1, 1, 1, 1])
    >>> observation, reward, terminated, truncated, info = env.step(4)
    >>> int(observation[1].sum()), terminated   # the engine answered: one O on the board, X to move again
    (1, False)
"""

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _khela
from ._envs import RENDER_MODES, draw_nature, mask, render, start, take

__all__ = ["ID", "KhelaGym", "env"]

#: The environment's id for ``gymnasium.make(ID, game=..., opponent=..., side=...)``, registered when this module
#: is imported: ``gymnasium.make("khela.gymnasium:khela/Game-v0", ...)`` imports it first.
ID = "khela/Game-v0"


class KhelaGym(gymnasium.Env[np.ndarray, np.int64]):
    """A khela game against a khela player (see the module's documentation)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self, game: str = "connect4", opponent: str = "random", side: int = 0, render_mode: Optional[str] = None
    ):
        if side not in (0, 1):
            raise ValueError(f"side {side!r}: 0 (the first player) or 1 (the second)")
        self.game, actions, self.observation_space = take(game, render_mode)
        self.opponent_spec = opponent
        self.opponent = _khela.Player(opponent)
        self.side = side
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(actions)
        self.state = self.game.new_initial_state()
        self.over = False

    def _answer(self) -> None:
        """Nature's and the opponent's moves until the agent is to move or the game is over."""
        draw_nature(self.state, self.np_random)
        while not self.state.is_terminal() and self.state.current_player() != self.side:
            self.state.apply_action(self.opponent.action(self.state))
            draw_nature(self.state, self.np_random)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """A new game (from ``options["position"]`` in the game's notation if given), the opponent's first moves
        played when it moves first; its choices seeded from ``seed``."""
        super().reset(seed=seed)
        self.opponent = _khela.Player(self.opponent_spec, int(self.np_random.integers(2**63)))
        self.state = start(self.game, options)
        self._answer()
        self.over = self.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), {"action_mask": mask(self.state, True)}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        if self.over:
            raise ValueError("the episode is over: reset the environment")
        if int(action) not in self.state.legal_actions():
            # The game stands where it was, but the episode ends: a loss.
            self.over = True
            info = {"action_mask": mask(self.state, False), "illegal": True}
            return self.state.observation_tensor(), -1.0, True, False, info
        self.state.apply_action(int(action))
        self._answer()
        self.over = self.state.is_terminal()
        reward = self.state.returns()[self.side] if self.over else 0.0
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), reward, self.over, False, {"action_mask": mask(self.state, True)}

    def render(self) -> Optional[str]:
        return render(self.state, self.render_mode)


def env(game: str = "connect4", opponent: str = "random", side: int = 0, render_mode: Optional[str] = None) -> KhelaGym:
    """The single-agent environment of ``game`` (a game string) against ``opponent``, the agent playing ``side``."""
    return KhelaGym(game, opponent, side, render_mode)


if ID not in gymnasium.registry:
    gymnasium.register(ID, entry_point="khela.gymnasium:KhelaGym")
