//! MCTS-Solver on Connect-4's End-Easy benchmark set (`../shared/connect4/Test_L3_R1`), every position with a
//! non-zero score: the solver never contradicts the file and proves the winner within 100,000 iterations in at
//! least 80% of them, a margin below what it does (measured: see docs/src/measured-choices.md, 'Monte Carlo tree
//! search').
//!
//! Where the set is absent, as in a fresh clone, the test is reported as ignored, with a note saying why (this
//! file runs its own harness, so that it can decide that when it runs).

use khela_games::Player;
use khela_games::connect4::Connect4;
use khela_mcts::random::Pcg;
use khela_mcts::{MctsConfig, Search, Uct};
use khela_testkit::connect4::Set;
use libtest_mimic::{Arguments, Trial};
use rayon::prelude::*;

fn main() {
    let absent = Set::EndEasy.missing_for("the End-Easy test is ignored");
    let trial = Trial::test("solver_on_end_easy_connect4", || {
        solver_on_end_easy_connect4();
        Ok(())
    });
    libtest_mimic::run(&Arguments::from_args(), vec![trial.with_ignored_flag(absent)]).exit();
}

fn solver_on_end_easy_connect4() {
    let report = end_easy();
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

/// Runs the solver on every position of the set with a non-zero score.
fn end_easy() -> Report {
    let set = Set::EndEasy.read().unwrap_or_else(|err| panic!("{err}"));
    let game = Connect4::standard();
    let positions: Vec<(String, i32)> =
        set.into_iter().filter(|scored| scored.score != 0).map(|scored| (scored.moves, scored.score)).collect();
    let results: Vec<(Option<u64>, bool)> = positions
        .par_iter()
        .map(|(moves, score)| {
            let position = game.parse(moves).expect("a valid position");
            let mover = position.to_move();
            // The score is the side to move's: positive if it wins.
            let winner = if *score > 0 { mover } else { mover.opponent() };
            let config = MctsConfig { solver: true, ..MctsConfig::default() };
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
    report
}
