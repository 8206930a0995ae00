//! The positions of Pascal Pons' Connect-4 benchmark sets parse, are not over, and have the side to move their
//! move count says.
//!
//! The sets live outside the project, in `../shared/connect4/` next to the workspace (see its `README.md`):
//! files named `Test_L<level>_R<rating>`, one position a line, `<moves> <score>`, the score for the side to move.
//! Where the directory is absent, as in a fresh clone, the test says so and checks nothing.

use khela_games::connect4::Connect4;
use khela_games::{Game, Node, Player};
use std::fs;
use std::path::Path;

/// The lines each benchmark file holds, per its README.
const POSITIONS_PER_FILE: usize = 1000;

#[test]
fn benchmark_positions_are_open_decisions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/connect4");
    if !dir.is_dir() {
        eprintln!(
            "Connect-4 benchmark data is absent ({} is not a directory): this test checked nothing",
            dir.display()
        );
        return;
    }
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.file_name().and_then(|name| name.to_str()).is_some_and(|name| name.starts_with("Test_")))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no Test_* files", dir.display());

    let game = Connect4::standard();
    // The best score of a player that has played `stones` stones: a win with its next stone, and never before
    // its 4th (Pons' score, 22 minus the winner's stones, on 7×6).
    let best = |stones: u32| 22 - stones.max(3) as i32 - 1;
    for path in &files {
        let text = fs::read_to_string(path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
        let mut count = 0;
        for (number, line) in text.lines().enumerate() {
            let place = format!("{}:{}", path.display(), number + 1);
            let (moves, score) =
                line.split_once(' ').unwrap_or_else(|| panic!("{place}: {line:?} is not `<moves> <score>`"));
            let score: i32 = score.parse().unwrap_or_else(|err| panic!("{place}: score {score:?}: {err}"));
            let state = game.parse(moves).unwrap_or_else(|err| panic!("{place}: {err}"));
            let parity = if moves.len().is_multiple_of(2) { Player::Max } else { Player::Min };
            assert_eq!(game.node(&state), Node::Decision(parity), "{place}: {moves}");
            // The score is one the side to move (if positive) or its opponent (if negative) can still reach.
            let mover = state.moves_played() / 2;
            let other = state.moves_played() - mover;
            assert!(-best(other) <= score && score <= best(mover), "{place}: score {score} of {moves}");
            count += 1;
        }
        assert_eq!(count, POSITIONS_PER_FILE, "{}", path.display());
    }
}
