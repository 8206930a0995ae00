//! MCTS-Solver: proofs agree with exact search, and a proven win is played at once.

use khela_exact::Algorithm;
use khela_exact::move_values;
use khela_games::Player;
use khela_games::connect4::Connect4;
use khela_games::tictactoe::TicTacToe;
use khela_mcts::random::Pcg;
use khela_mcts::{Config, Proof, Search, Uct};
use rayon::prelude::*;
use std::path::PathBuf;

/// On `X...O...X` the solver proves that O's corner moves 2 and 6 lose, and proves nothing wrong.
#[test]
fn solver_proves_the_trap_corners_lose() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let config = Config { solver: true, ..Config::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    search.run(10_000);
    let stats = search.stats();
    let lost: Vec<u8> = stats.iter().filter(|s| s.proof == Some(Proof::Loss)).map(|s| s.mv).collect();
    assert_eq!(lost, [2, 6]);
    assert!(stats.iter().all(|s| s.proof != Some(Proof::Win)), "{stats:?}");
    assert!([1, 3, 5, 7].contains(&search.best().unwrap()));
}

/// From every tic-tac-toe position two plies from the start, each move the solver proves won or lost (with
/// 20,000 iterations) has that value under alpha-beta.
#[test]
fn solver_proofs_agree_with_exact_values() {
    let mut checked = 0;
    for first in 0..9u8 {
        for second in (0..9u8).filter(|&c| c != first) {
            let mut board = khela_games::tictactoe::Board::EMPTY;
            board.x |= 1 << first;
            board.o |= 1 << second;
            let config = Config { solver: true, seed: u64::from(first * 9 + second), ..Config::default() };
            let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
            search.run(20_000);
            for (stats, (mv, value)) in search.stats().iter().zip(move_values(&TicTacToe, &board, Algorithm::AlphaBeta))
            {
                assert_eq!(stats.mv, mv);
                // X moves: a win for X is a positive value.
                match stats.proof {
                    Some(Proof::Win) => assert!(value > 0.0, "{board}: {mv} proved won, value {value}"),
                    Some(Proof::Loss) => assert!(value < 0.0, "{board}: {mv} proved lost, value {value}"),
                    None => {}
                }
                checked += usize::from(stats.proof.is_some());
            }
        }
    }
    assert!(checked >= 50, "only {checked} proofs");
}

/// A win in one is proved at once and the search stops there.
#[test]
fn a_proven_win_ends_the_search() {
    let board = TicTacToe::parse("XX.OO....").unwrap();
    let config = Config { solver: true, ..Config::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    let summary = search.run(10_000);
    assert!(summary.iterations < 100, "{summary:?}");
    assert_eq!(search.proof(), Some(khela_games::Player::Max));
    assert_eq!(search.best(), Some(2));
}

/// End-Easy Connect-4 (`../shared/connect4/Test_L3_R1`), every position with a non-zero score: the solver never
/// contradicts the file and proves the winner within 100,000 iterations in at least 80% of them (it proves all
/// 568, in 473 iterations on average).
#[test]
fn solver_on_end_easy_connect4() {
    let Some(report) = end_easy(None) else {
        eprintln!("NOTE: {} is absent: this test checked nothing", end_easy_path().display());
        return;
    };
    eprintln!(
        "End-Easy: {} of {} positions with a non-zero score proved within {BUDGET} iterations, {:.0} iterations per \
         proof on average",
        report.proved,
        report.positions,
        report.proof_iterations as f64 / report.proved.max(1) as f64
    );
    assert_eq!(report.positions, 568, "the file's positions with a non-zero score");
    assert!(report.contradictions.is_empty(), "{:?}", report.contradictions);
    assert!(report.proved * 5 >= report.positions * 4, "proved only {} of {}", report.proved, report.positions);
}

/// The iterations the solver gets for each position.
const BUDGET: u64 = 100_000;

/// The benchmark file, relative to this crate.
fn end_easy_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/connect4/Test_L3_R1"))
}

/// What the solver did on the positions with a non-zero score.
#[derive(Debug, Default)]
struct Report {
    /// Positions searched.
    positions: usize,
    /// Positions whose winner the solver proved within [`BUDGET`] iterations.
    proved: usize,
    /// The iterations those proofs took, summed.
    proof_iterations: u64,
    /// Positions where a proof named the wrong winner, as `(moves, score)`.
    contradictions: Vec<(String, i32)>,
}

/// Runs the solver on the first `limit` positions of the file with a non-zero score (all with `None`), or
/// returns `None` when the file is absent.
fn end_easy(limit: Option<usize>) -> Option<Report> {
    let text = std::fs::read_to_string(end_easy_path()).ok()?;
    let game = Connect4::standard();
    let positions: Vec<(String, i32)> = text
        .lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("`<moves> <score>` lines");
            (moves.to_string(), score.parse().expect("an integer score"))
        })
        .filter(|&(_, score)| score != 0)
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    let results: Vec<(Option<u64>, bool)> = positions
        .par_iter()
        .map(|(moves, score)| {
            let position = game.parse(moves).expect("a valid position");
            let mover = position.to_move();
            // The score is the side to move's: positive if it wins.
            let winner = if *score > 0 { mover } else { mover.opponent() };
            let config = Config { solver: true, ..Config::default() };
            let mut search: Search<'_, _, _, Pcg> = Search::new(&game, position, Uct::default(), config);
            let summary = search.run(BUDGET);
            let proof: Option<Player> = search.proof();
            (proof.map(|_| summary.iterations), proof.is_some_and(|p| p != winner))
        })
        .collect();
    let mut report = Report { positions: positions.len(), ..Report::default() };
    for ((iterations, wrong), position) in results.into_iter().zip(positions) {
        if let Some(iterations) = iterations {
            report.proved += 1;
            report.proof_iterations += iterations;
        }
        if wrong {
            report.contradictions.push(position);
        }
    }
    Some(report)
}
