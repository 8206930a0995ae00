"""Games and their states through the typed API (``khela.load``, over the khela library's dynamic face): moves in
the game's notation, chance nodes, copies, serialisation, the analysis against a plain minimax written here, and
refusals."""

import copy
import doctest

import pytest

import khela


def minimax(state):
    """The first player's exact value of a tic-tac-toe state, by plain minimax written from the rules the state
    exposes (legal moves, apply, returns): an independent check of the library's exact analysis."""
    if state.is_terminal():
        return state.returns()[0]
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply_move(move)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def test_a_game_loads_by_its_game_string():
    game = khela.load("connect4(width=5,height=4)")
    assert (game.name, game.title, game.players) == ("connect4(width=5,height=4)", "Connect-4 5x4", ["X", "O"])
    state = game.new_initial_state()
    assert state.legal_moves() == ["1", "2", "3", "4", "5"]
    assert (state.current_player(), state.is_terminal(), state.returns()) == (0, False, [0.0, 0.0])
    assert khela.load("bagh-chal(rules=bagh-bandi)").players == ["goats", "tigers"]
    assert repr(game) == 'khela.load("connect4(width=5,height=4)")'


def test_moves_are_played_taken_back_and_copied_apart():
    state = khela.load("tictactoe").state("X...O...X")
    assert state.current_player() == 1
    state.apply_move("2")
    assert state.legal_moves() == ["1", "3", "5", "6", "7"]
    assert state.history() == ["2"]
    twin = state.clone()
    twin.apply_move("6")
    assert state.history() == ["2"] and twin.history() == ["2", "6"]
    assert copy.deepcopy(twin).history() == ["2", "6"] and copy.copy(state).history() == ["2"]
    assert str(state) == " X . O\n . O .\n . . X"
    assert state.undo() and not state.undo()


def test_the_exact_analysis_is_plain_minimax_on_every_position_of_a_game():
    game = khela.load("tictactoe")
    seen, stack, checked = set(), [game.new_initial_state()], 0
    while stack and checked < 400:
        state = stack.pop()
        key = tuple(state.history())
        if key in seen or state.is_terminal():
            continue
        seen.add(key)
        rows = state.analyse()
        assert [r["move"] for r in rows] == state.legal_moves()
        for row in rows:
            child = state.clone()
            child.apply_move(row["move"])
            assert row["value"] == minimax(child), (state.history(), row)
        mover = 1 if state.current_player() == 0 else -1
        top = max(mover * r["value"] for r in rows)
        assert [r["best"] for r in rows] == [mover * r["value"] == top for r in rows]
        checked += 1
        for move in state.legal_moves():
            child = state.clone()
            child.apply_move(move)
            stack.append(child)
    assert checked == 400


def test_the_trap_is_answered():
    # X...O...X with O's 2: O threatens 2-4-6; X's 6 blocks it and makes two lines at once, a win.
    state = khela.load("tictactoe").state("X...O...X")
    state.apply_move("2")
    assert [r["move"] for r in state.analyse() if r["best"]] == ["6"]
    assert state.choose("engine:4") == "6"
    # To depth 2 every other move lets O complete the line: the evaluator's loss, -100 for X.
    assert [(r["move"], r["value"], r["visits"]) for r in state.analyse(depth=2)] == [
        ("1", -100.0, None),
        ("3", -100.0, None),
        ("5", -100.0, None),
        ("6", -1.0, None),
        ("7", -100.0, None),
    ]
    uct = state.analyse(iterations=2000, seed=1)
    assert sum(r["visits"] for r in uct) == 2000
    assert [r["move"] for r in uct if r["best"]] == ["6"]
    assert state.analyse(iterations=2000, seed=1) == uct, "the same seed, the same visits"


def test_chance_nodes_give_their_outcomes():
    state = khela.load("pig(goal=10)").new_initial_state()
    assert (state.current_player(), state.legal_moves(), state.chance_outcomes()) == (0, ["roll", "hold"], [])
    state.apply_move("roll")
    assert state.is_chance_node() and state.current_player() == khela.CHANCE
    assert state.chance_outcomes() == [(str(face), 1 / 6) for face in range(1, 7)]
    state.apply_move("1")
    # A one ends the turn with nothing banked: the second player's turn.
    assert state.current_player() == 1 and state.history() == ["roll", "1"]
    einstein = khela.load("einstein").new_initial_state()
    assert einstein.current_player() == khela.CHANCE and len(einstein.chance_outcomes()) == 6


def test_a_state_is_written_out_and_read_back():
    game = khela.load("connect4")
    state = game.new_initial_state()
    for move in ["4", "4", "5"]:
        state.apply_move(move)
    text = state.serialize()
    again = game.deserialize(text)
    assert again.history() == ["4", "4", "5"] and str(again) == str(state)
    with pytest.raises(ValueError, match="not a serialized state"):
        game.deserialize("{")


def test_bad_input_is_refused_with_the_library_s_message():
    with pytest.raises(ValueError, match="width"):
        khela.load("tictactoe(width=3)")
    with pytest.raises(ValueError):
        khela.load("chess")
    state = khela.load("tictactoe").new_initial_state()
    with pytest.raises(ValueError, match="not legal here"):
        state.apply_move("9")
    assert state.history() == []
    with pytest.raises(ValueError, match="depth or iterations"):
        state.analyse(depth=2, iterations=10)
    with pytest.raises(ValueError):
        state.choose("engine:x")


def test_the_package_s_own_examples_run():
    results = doctest.testmod(khela)
    assert (results.failed, results.attempted) == (0, 9)
