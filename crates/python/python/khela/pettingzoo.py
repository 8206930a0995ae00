"""khela's two-player games as PettingZoo AEC environments: ``khela.pettingzoo.env("connect4")``.

The agents are ``player_0`` (the game's first player: X, the goats) and ``player_1``. An observation is a dict:
``observation``, the position's planes (``State.observation_tensor()``, planes × height × width, float32; the
game is one of perfect information, so both agents observe the same planes, which say who is to move), and ``action_mask``, int8 over the game's actions, ones at the legal actions of the agent to move and
zeros for the other. Rewards are the game's payoffs at its end (+1, 0, −1; a draw by the rules' repetition or
length cap is 0). The agent to move is the game's (in Dots and Boxes a completed box moves again). Nature's
moves (EinStein's die, Pig's) are drawn by the environment, by their probabilities, from ``reset``'s seed: the
same seed and the same actions, the same game. An illegal action raises ``ValueError`` and leaves the game as it
was. ``render_mode="ansi"`` returns the position's picture, ``"human"`` prints it. ``reset(options={"position":
TEXT})`` starts from a position in the game's notation.

Every two-player game that numbers its actions has one: tic-tac-toe, Connect-4 (any size), the Bagh-Chal family,
Pig and Piglet, EinStein, Dots and Boxes, Nim from a start (``nim(heaps=1+3+5+7)``), Sixteen Soldiers played jump
by jump (``sixteen-soldiers(moves=jumps)``: an agent whose chain of jumps goes on is selected again). Nim without
a start (its heaps bound its actions) and Sixteen Soldiers a chain a move (a chain may take any path) are
refused, saying why. Needs ``pip install "./crates/python[envs]"`` (pettingzoo,
gymnasium).

    >>> import khela.pettingzoo
    >>> env = khela.pettingzoo.env("tictactoe")
    >>> env.reset(seed=0)
    >>> for action in [4, 0, 8, 2, 1, 7, 6, 5, 3]:
    ...     env.step(action)
    >>> env.rewards, env.terminations["player_0"]
    ({'player_0': 0.0, 'player_1': 0.0}, True)
"""

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _khela
from ._envs import RENDER_MODES, draw_nature, mask, render, start, take

__all__ = ["KhelaEnv", "env"]

#: The agents, the first player's first.
AGENTS = ["player_0", "player_1"]


class KhelaEnv(AECEnv):  # type: ignore[misc]
    """A khela game as a PettingZoo AEC environment (see the module's documentation)."""

    metadata: Dict[str, Any] = {"render_modes": RENDER_MODES, "name": "khela_v0", "is_parallelizable": False}

    def __init__(self, game: str = "connect4", render_mode: Optional[str] = None):
        super().__init__()
        self.game, actions, observation = take(game, render_mode)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(actions) for a in AGENTS}
        self.state = self.game.new_initial_state()
        self._nature = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game from the start, or from ``options["position"]`` in the game's notation; ``seed`` seeds
        nature's moves and the action spaces' sampling."""
        self.state = start(self.game, options)
        if seed is not None:
            self._nature = np.random.default_rng(seed)
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}
        # The first agent is selected where the game is over already (a finished position): both are dead.
        self.agent_selection = AGENTS[0]
        self._settle()
        self._cumulative_rewards = dict(self.rewards)
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Nature's moves drawn, then the agent to move, or once the game is over, the rewards and terminations."""
        draw_nature(self.state, self._nature)
        if self.state.is_terminal():
            self.rewards = dict(zip(AGENTS, self.state.returns()))
            self.terminations = {a: True for a in AGENTS}
        else:
            self.agent_selection = AGENTS[self.state.current_player()]

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for the agent to move (``None`` once its game is over, as PettingZoo asks)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: an action, not None")
        self.state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Dict[str, Any]:
        moves = not self.state.is_terminal() and AGENTS[self.state.current_player()] == agent
        return {"observation": self.state.observation_tensor(), "action_mask": mask(self.state, moves)}

    def render(self) -> Optional[str]:
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass


def env(game: str = "connect4", render_mode: Optional[str] = None) -> KhelaEnv:
    """The AEC environment of ``game``, a game string: ``"connect4(width=5,height=4)"``."""
    return KhelaEnv(game, render_mode)
