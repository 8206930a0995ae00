//! The positions of Pascal Pons' Connect-4 benchmark sets ([`khela_testkit::connect4`]) parse, are not
//! over, have the side to move their move count says and a score that side can still reach.
//!
//! The sets live outside the project, in `../shared/connect4/` beside the workspace. Where they are absent, as in
//! a fresh clone, the test is reported as ignored, with a note saying why (this file runs its own harness, so
//! that it can decide that when it runs).

use khela_games::connect4::Connect4;
use khela_games::{Game, Node, Player};
use khela_testkit::connect4::{POSITIONS_PER_SET, Set};
use libtest_mimic::{Arguments, Trial};
use strum::IntoEnumIterator;

fn main() {
    // Every set is looked for, so that each missing one is named.
    let missing: Vec<bool> = Set::iter().map(|set| set.missing_for("the benchmark sets' test is ignored")).collect();
    let absent = missing.contains(&true);
    let trial = Trial::test("benchmark_positions_are_open_decisions", || {
        benchmark_positions_are_open_decisions();
        Ok(())
    });
    libtest_mimic::run(&Arguments::from_args(), vec![trial.with_ignored_flag(absent)]).exit();
}

fn benchmark_positions_are_open_decisions() {
    let game = Connect4::standard();
    // The best score of a player that has played `stones` stones: a win with its next stone, and never before
    // its 4th (Pons' score, 22 minus the winner's stones, on 7×6).
    let best = |stones: u32| 22 - stones.max(3) as i32 - 1;
    for set in Set::iter() {
        let positions = set.read().unwrap_or_else(|err| panic!("{set}: {err}"));
        assert_eq!(positions.len(), POSITIONS_PER_SET, "{set}");
        for (number, scored) in positions.iter().enumerate() {
            let (moves, score) = (&scored.moves, scored.score);
            let place = format!("{set} ({}) line {}", set.file_name(), number + 1);
            let state = game.parse(moves).unwrap_or_else(|err| panic!("{place}: {err}"));
            let parity = if moves.len().is_multiple_of(2) { Player::Max } else { Player::Min };
            assert_eq!(game.node(&state), Node::Decision(parity), "{place}: {moves}");
            // The score is one the side to move (if positive) or its opponent (if negative) can still reach.
            let mover = state.moves_played() / 2;
            let other = state.moves_played() - mover;
            assert!(-best(other) <= score && score <= best(mover), "{place}: score {score} of {moves}");
        }
    }
}
