"""khela's rules side by side with OpenSpiel's (the ``open-spiel`` wheel from PyPI): random games of tic-tac-toe,
Connect-4 and Nim played move for move in both libraries, their legal moves, terminal states and returns compared
at every ply, and perft from random positions. Skipped, saying so, where open-spiel is not installed."""

import random

import pytest

import khela

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed here (pip install open_spiel)")

GAMES = 1000


def nim_moves(kstate):
    """khela's legal Nim moves as (heap, taken) pairs, from its notation: `H:T` takes heap H down to T."""
    heaps = [int(h) for h in str(kstate).split(",")]
    moves = {}
    for text in kstate.legal_moves():
        heap, to = (int(x) for x in text.split(":"))
        moves[(heap, heaps[heap] - to)] = text
    return moves


def spiel_nim_moves(sstate):
    """OpenSpiel's legal Nim actions as (heap, taken) pairs: `pile:P, take:K;`, piles counted from 1."""
    moves = {}
    for action in sstate.legal_actions():
        text = sstate.action_to_string(sstate.current_player(), action)
        pile, take = (int(part.split(":")[1]) for part in text.rstrip(";").split(","))
        moves[(pile - 1, take)] = action
    return moves


def sign(x):
    return float((x > 0) - (x < 0))


def same_point(kstate, sstate, what):
    """Both libraries agree on who moves, whether it is over, and the returns."""
    assert kstate.is_terminal() == sstate.is_terminal(), what
    if kstate.is_terminal():
        # khela's Connect-4 payoff counts the cells left (Pons' score); OpenSpiel's is ±1: the winner agrees.
        assert [sign(r) for r in kstate.returns()] == list(sstate.returns()), what
    else:
        assert kstate.current_player() == sstate.current_player(), what


def test_tictactoe_and_connect4_play_alike_move_for_move():
    rng = random.Random(1)
    for ours, theirs in [("tictactoe", "tic_tac_toe"), ("connect4", "connect_four")]:
        game, spiel = khela.load(ours), pyspiel.load_game(theirs)
        assert game.num_distinct_actions() == spiel.num_distinct_actions()
        ended = set()
        for _ in range(GAMES):
            kstate, sstate = game.new_initial_state(), spiel.new_initial_state()
            while True:
                what = f"{ours} after {kstate.history()}"
                same_point(kstate, sstate, what)
                if kstate.is_terminal():
                    ended.add(tuple(sstate.returns()))
                    break
                assert kstate.legal_actions() == sstate.legal_actions(), what
                action = rng.choice(kstate.legal_actions())
                kstate.apply_action(action)
                sstate.apply_action(action)
        assert {(1.0, -1.0), (-1.0, 1.0)} <= ended, f"{ours}: both players won some games ({ended})"


def test_nim_plays_alike_move_for_move():
    rng = random.Random(2)
    for heaps in ["3;4;5", "1;2", "7", "2;2;6;1"]:
        game = khela.load("nim")
        spiel = pyspiel.load_game("nim", {"pile_sizes": heaps, "is_misere": False})
        for _ in range(GAMES // 4):
            kstate, sstate = game.state(heaps.replace(";", ",")), spiel.new_initial_state()
            while True:
                what = f"nim {heaps} after {kstate.history()}"
                same_point(kstate, sstate, what)
                if kstate.is_terminal():
                    break
                ours, theirs = nim_moves(kstate), spiel_nim_moves(sstate)
                assert sorted(ours) == sorted(theirs), what
                move = rng.choice(sorted(ours))
                kstate.apply_move(ours[move])
                sstate.apply_action(theirs[move])


def perft(state, depth, moves, play):
    """The lines of `depth` plies from `state` (fewer where the game ends), by the library's own moves."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for move in moves(state):
        child = state.clone()
        play(child, move)
        total += perft(child, depth - 1, moves, play)
    return total


def test_perft_from_random_positions_agrees():
    rng = random.Random(3)
    for ours, theirs, depth in [("tictactoe", "tic_tac_toe", 9), ("connect4", "connect_four", 4)]:
        game, spiel = khela.load(ours), pyspiel.load_game(theirs)
        for _ in range(8):
            kstate, sstate = game.new_initial_state(), spiel.new_initial_state()
            for _ in range(rng.randrange(0 if ours == "tictactoe" else 4, 5 if ours == "tictactoe" else 16)):
                if kstate.is_terminal():
                    break
                action = rng.choice(kstate.legal_actions())
                kstate.apply_action(action)
                sstate.apply_action(action)
            moves, play = (lambda s: s.legal_actions()), (lambda s, a: s.apply_action(a))
            assert perft(kstate, depth, moves, play) == perft(sstate, depth, moves, play), kstate.history()
