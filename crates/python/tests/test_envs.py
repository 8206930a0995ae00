"""The PettingZoo and Gymnasium environments (``khela.pettingzoo``, ``khela.gymnasium``) pass the two libraries'
own checkers on every game that has one, play games whose rewards agree with the rules, and refuse the others.
pettingzoo and gymnasium are the package's optional ``envs`` extra: without them these tests are skipped, saying
so."""

import doctest

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install './crates/python[envs]')")
gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install './crates/python[envs]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import khela  # noqa: E402
import khela.gymnasium  # noqa: E402
import khela.pettingzoo  # noqa: E402

GAMES = [
    "tictactoe",
    "connect4",
    "connect4(width=5,height=4)",
    "bagh-chal",
    "bagh-chal(rules=bagh-bandi)",
    "pig(goal=20)",
    "piglet",
    "einstein",
    "dots-and-boxes",
    "dots-and-boxes(rows=3,cols=2)",
    "nim(heaps=1+3+5+7)",
    "sixteen-soldiers(moves=jumps)",
    "sixteen-soldiers(moves=jumps,rules=optional,quiet-limit=40)",
]


# api_test warns of any observation that is a dict rather than an array, action masks or not (its list of
# exceptions names only its own environments), and of Pig's second player at 0 0 0, whose planes are all 0.
@pytest.mark.filterwarnings("ignore:Observation numpy array is all zeros")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_s_own_checks_pass(game):
    api_test(khela.pettingzoo.env(game), num_cycles=200)
    seed_test(lambda: khela.pettingzoo.env(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("side", [0, 1])
def test_gymnasium_s_own_check_passes(game, side):
    made = gymnasium.make(
        f"khela.gymnasium:{khela.gymnasium.ID}", game=game, opponent="random", side=side, render_mode="ansi"
    )
    check_env(made.unwrapped, skip_render_check=False)


def test_random_games_end_as_the_rules_say():
    """Random legal games through the AEC loop: the rewards at the end are the state's returns, the mask is the
    state's legal actions, and an illegal action is refused with the game unchanged."""
    rng = np.random.default_rng(3)
    outcomes = set()
    for _ in range(200):
        env = khela.pettingzoo.env("tictactoe")
        env.reset(seed=1)
        twin = khela.load("tictactoe").new_initial_state()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                assert reward == twin.returns()[khela.pettingzoo.AGENTS.index(agent)]
                env.step(None)
                continue
            assert agent == khela.pettingzoo.AGENTS[twin.current_player()]
            assert np.flatnonzero(observation["action_mask"]).tolist() == twin.legal_actions()
            assert np.array_equal(observation["observation"], twin.observation_tensor())
            action = int(rng.choice(twin.legal_actions()))
            env.step(action)
            twin.apply_action(action)
        outcomes.add(tuple(twin.returns()))
    assert outcomes == {(1.0, -1.0), (0.0, 0.0), (-1.0, 1.0)}
    env = khela.pettingzoo.env("connect4")
    env.reset()
    env.step(3)
    with pytest.raises(ValueError, match="action 9 is no legal move's here"):
        env.step(9)
    assert env.state.history() == ["4"] and env.agent_selection == "player_1"


def test_nature_is_seeded_and_a_completed_box_moves_again():
    def game(seed):
        env = khela.pettingzoo.env("einstein")
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return env.state.history()

    assert game(1) == game(1) and game(1) != game(2), "the same seed, the same dice; another seed, others"
    env = khela.pettingzoo.env("dots-and-boxes")
    env.reset()
    for action, mover in [(0, "player_0"), (2, "player_1"), (3, "player_0"), (5, "player_1")]:
        assert env.agent_selection == mover
        env.step(action)
    assert env.agent_selection == "player_1", "the second player closed the top-left box with 6: it moves again"


def test_games_without_an_environment_are_refused_in_words():
    for game, why in [
        ("nim", r"numbers no actions: .* load nim\(heaps="),
        ("sixteen-soldiers", r"numbers no actions: .* sixteen-soldiers\(moves=jumps\) plays a chain jump by jump"),
    ]:
        with pytest.raises(ValueError, match=f"no environment for .*{why}"):
            khela.pettingzoo.env(game)
        with pytest.raises(ValueError, match="no environment for"):
            khela.gymnasium.env(game)


def test_the_perfect_agent_never_loses_against_random_moves():
    """The perfect player as the agent against random moves, from either side: it never loses, and wins some."""
    results = []
    for seed in range(10):
        env = khela.gymnasium.env("tictactoe", opponent="random", side=seed % 2)
        _, info = env.reset(seed=seed)
        terminated, reward = False, 0.0
        while not terminated:
            action = khela.player("perfect").action(env.state)
            _, reward, terminated, _, info = env.step(action)
        results.append(reward)
    assert min(results) >= 0.0 and max(results) == 1.0, results


def test_the_modules_examples_run():
    for module, examples in [(khela.pettingzoo, 5), (khela.gymnasium, 6)]:
        results = doctest.testmod(module)
        assert (results.failed, results.attempted) == (0, examples), module.__name__


def test_a_finished_position_and_a_chance_ending_are_rewarded():
    env = khela.pettingzoo.env("tictactoe")
    env.reset(options={"position": "XXXOO...."})
    assert env.agent_selection == "player_0" and all(env.terminations.values())
    assert env.last()[1] == 1.0 and env._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    env.step(None)
    assert env.agents == ["player_1"] and env.last()[1] == -1.0
    # Pig ends on a roll of the die, drawn by the environment: the winner's reward is +1, the loser's -1.
    rng = np.random.default_rng(4)
    for seed in range(20):
        env = khela.pettingzoo.env("pig(goal=10)")
        env.reset(seed=seed)
        finals = {}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                finals[agent] = reward
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert sorted(finals.values()) == [-1.0, 1.0], finals


def test_the_single_agent_s_episode_ends_at_an_illegal_action():
    env = khela.gymnasium.env("tictactoe", opponent="random")
    env.reset(seed=0)
    env.step(4)
    _, reward, terminated, _, info = env.step(4)
    assert (reward, terminated, info["illegal"], info["action_mask"].any()) == (-1.0, True, True, False)
    with pytest.raises(ValueError, match="the episode is over"):
        env.step(0)
    assert env.state.history()[0] == "4" and len(env.state.history()) == 2, "the game stands where it was"
