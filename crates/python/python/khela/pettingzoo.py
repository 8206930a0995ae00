"""khela's two-player games as PettingZoo AEC environments: ``khela.pettingzoo.env("connect4")``.

The agents are ``player_0`` (the game's first player: X, the goats) and ``player_1``. An observation is a dict:
``observation``, the position as khela-zero's networks see it (``State.observation_tensor()``, planes × height ×
width, float32; the game is one of perfect information, so both agents observe the same planes, which say who is
to move), and ``action_mask``, int8 over the game's actions, ones at the legal actions of the agent to move and
zeros for the other. Rewards are the game's payoffs at its end (+1, 0, −1; a draw by the rules' repetition or
length cap is 0). The agent to move is the game's (in Dots and Boxes a completed box moves again). An illegal
action raises ``ValueError`` and leaves the game as it was. ``render_mode="ansi"`` returns the position's
picture, ``"human"`` prints it. ``reset(options={"position": TEXT})`` starts from a position in the game's
notation.

Environments exist for the games that number their actions and have an encoding: tic-tac-toe, Connect-4 (any
size) and the Bagh-Chal family. Needs ``pip install "./crates/python[envs]"`` (pettingzoo, gymnasium).

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

__all__ = ["KhelaEnv", "env"]

#: The agents, the first player's first.
AGENTS = ["player_0", "player_1"]


class KhelaEnv(AECEnv):  # type: ignore[misc]
    """A khela game as a PettingZoo AEC environment (see the module's documentation)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "khela_v0", "is_parallelizable": False}

    def __init__(self, game: str = "connect4", render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: ansi, human or None")
        self.game = _khela.load(game)
        try:
            actions = self.game.num_distinct_actions()
            shape = tuple(self.game.observation_tensor_shape())
        except ValueError as err:
            raise ValueError(
                f"no environment for {self.game.title}: {err} (tic-tac-toe, Connect-4 and the Bagh-Chal family have one)"
            ) from None
        if self.game.new_initial_state().is_chance_node():
            raise ValueError(f"no environment for {self.game.title}: its chance nodes have no agent")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        observation = spaces.Box(0.0, self.game.observation_tensor_high(), shape, np.float32)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(actions) for a in AGENTS}
        self.state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game from the start, or from ``options["position"]`` in the game's notation. The games have no
        chance, so the seed only seeds the action spaces' sampling."""
        position = (options or {}).get("position")
        self.state = self.game.new_initial_state() if position is None else self.game.state(position)
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}
        self._settle()

    def _settle(self) -> None:
        """The agent to move, or once the game is over, the rewards and terminations."""
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
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if not self.state.is_terminal() and AGENTS[self.state.current_player()] == agent:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(), "action_mask": mask}

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        picture = str(self.state)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def close(self) -> None:
        pass


def env(game: str = "connect4", render_mode: Optional[str] = None) -> KhelaEnv:
    """The AEC environment of ``game``, a game string: ``"connect4(width=5,height=4)"``."""
    return KhelaEnv(game, render_mode)
