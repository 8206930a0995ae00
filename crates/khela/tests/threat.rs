//! Captures in sight ([`khela::threat`]): exact figures on hand-set Bagh-Chal positions, and on random
//! positions of Bagh-Chal and Sixteen Soldiers the fewest moves to a forced capture checked, up to two moves,
//! against the definition written out as nested loops over the dynamic face, the losses read off the drawn board.

use khela::{State, Threat};
use khela_mcts::random::{Pcg, Random};

/// The pieces each side has lost, read off the board: Bagh-Chal's goats captured, Sixteen Soldiers' sixteen less
/// those on the board.
fn losses(state: &State) -> [i64; 2] {
    let board = state.board();
    if let Some(captured) = board.counters.iter().find(|c| c.key == "captured") {
        return [captured.value, 0];
    }
    [0, 1].map(|side| 16 - board.pieces.iter().filter(|p| p.side == side).count() as i64)
}

/// The position after the legal move numbered `mv`.
fn after(state: &State, mv: usize) -> State {
    let mut next = state.clone();
    next.play(mv).unwrap();
    next
}

/// Whether the side to move at `state` (the attacker) takes one of `victim`'s pieces beyond `before` with its
/// next move.
fn takes_now(state: &State, victim: usize, before: i64) -> bool {
    state.legal_moves().into_iter().any(|mv| losses(&after(state, mv))[victim] > before)
}

/// The fewest of the opponent's moves (1 or 2) within which it forces a capture after move `mv`, by the
/// definition's nested loops.
fn loses_within_two(state: &State, mv: usize, mover: usize) -> Option<u32> {
    let before = losses(state)[mover];
    let child = after(state, mv);
    if takes_now(&child, mover, before) {
        return Some(1);
    }
    let two = child.legal_moves().into_iter().any(|reply| {
        let position = after(&child, reply);
        let answers = position.legal_moves();
        losses(&position)[mover] == before
            && !answers.is_empty()
            && answers.into_iter().all(|answer| {
                let next = after(&position, answer);
                next.outcome().is_none() && takes_now(&next, mover, before)
            })
    });
    two.then_some(2)
}

/// The index of the side to move in the losses.
fn mover(state: &State) -> usize {
    match state.turn() {
        khela::dynamic::Turn::Decision(player) => usize::from(player == khela_games::Player::Min),
        other => panic!("no mover at {other:?}"),
    }
}

#[test]
fn a_tiger_beside_a_goat_with_the_point_behind_empty_captures_at_once() {
    let game = khela::load("bagh-chal").unwrap();
    let state = game.state("TG..T/...../...../...../T...T t 19").unwrap();
    let capture = state.parse_move("a5xc5").unwrap();
    assert_eq!(state.threat(capture).unwrap().captures_within, Some(1));
    let step = state.parse_move("a1-a2").unwrap();
    assert_ne!(state.threat(step).unwrap().captures_within, Some(1), "the goats fill c5 before it is taken");
}

#[test]
fn a_goat_left_under_a_tiger_is_lost_within_one_move_unless_the_point_behind_it_is_filled() {
    let game = khela::load("bagh-chal").unwrap();
    let state = game.state("T...T/G..../...../...../T...T g 19").unwrap();
    let elsewhere = state.parse_move("c3").unwrap();
    assert_eq!(state.threat(elsewhere).unwrap(), Threat { loses_within: Some(1), captures_within: None });
    let behind = state.parse_move("a3").unwrap();
    assert_ne!(state.threat(behind).unwrap().loses_within, Some(1));
}

#[test]
fn games_without_captures_have_no_threats() {
    let state = khela::load("connect4").unwrap().start().unwrap();
    assert_eq!(state.threat(0), None);
    let state = khela::load("bagh-chal").unwrap().start().unwrap();
    assert_eq!(state.threat(10_000), None, "no such move");
}

#[test]
fn the_fewest_moves_to_a_forced_capture_are_the_definition_s_on_random_positions() {
    let mut rng = Pcg::from_seed(7);
    let mut seen = [0; 3];
    for game in ["bagh-chal", "bagh-chal(rules=bagh-bandi)", "sixteen-soldiers", "sixteen-soldiers(rules=optional)"] {
        let game = khela::load(game).unwrap();
        for sample in 0..40 {
            let mut state = game.start().unwrap();
            for _ in 0..(sample % 20) * 2 {
                let moves = state.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state.play(moves[rng.below(moves.len())]).unwrap();
            }
            if state.outcome().is_some() {
                continue;
            }
            let side = mover(&state);
            for mv in state.legal_moves() {
                let threat = state.threat(mv).expect("a game with captures");
                let expected = loses_within_two(&state, mv, side);
                assert_eq!(
                    threat.loses_within.filter(|&k| k <= 2),
                    expected,
                    "{} after {:?}, move {}",
                    game.title(),
                    state.history(),
                    state.move_text(mv).unwrap()
                );
                let now = losses(&after(&state, mv))[1 - side] > losses(&state)[1 - side];
                assert_eq!(threat.captures_within == Some(1), now);
                seen[expected.map_or(0, |k| k as usize)] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 20), "every case met often enough: {seen:?}");
}
