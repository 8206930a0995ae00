//! The textbook's Monte Carlo figures on the trap `X...O...X` (O to move; the corners 2 and 6 lose, the edges
//! 1, 3, 5, 7 draw), asserted exactly.
//!
//! The exact tables replay the textbook's Python reference with `random.Random(1)`: a playout picks each move
//! with `randbelow(len(moves))` over the legal moves in natural order; UCT expands a node by drawing an index
//! into its untried moves (natural order) and removing that entry, then plays out from the new child; selection
//! takes the first child with the largest UCB1, children in expansion order; flat Monte Carlo runs all the
//! playouts of move 1, then of move 2, and so on.

use khela_games::tictactoe::{Board, TicTacToe};
use khela_mcts::random::{Pcg, Python, Random};
use khela_mcts::{FinalMove, Flat, MctsConfig, MoveStats, Policy, Search, Uct};
use rayon::prelude::*;

fn trap() -> Board {
    TicTacToe::parse("X...O...X").unwrap()
}

/// Runs `iterations` iterations from the trap and returns the root statistics and the chosen move.
fn search<P: Policy<TicTacToe>, R: Random>(
    policy: P,
    choice: FinalMove,
    seed: u64,
    iterations: u64,
) -> (Vec<MoveStats<u8>>, u8) {
    let config = MctsConfig { seed, choice, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, R> = Search::new(&TicTacToe, trap(), policy, config);
    assert_eq!(search.run(iterations).iterations, iterations);
    let best = search.best().expect("the trap has moves");
    (search.stats(), best)
}

fn flat<R: Random>(seed: u64) -> (Vec<MoveStats<u8>>, u8) {
    search::<_, R>(Flat { per_move: 1000 }, FinalMove::BestMean, seed, 6 * 1000)
}

fn uct<R: Random>(seed: u64) -> (Vec<MoveStats<u8>>, u8) {
    search::<_, R>(Uct::default(), FinalMove::MostVisits, seed, 3000)
}

/// Flat Monte Carlo, 1,000 playouts per move, `--rng python --seed 1`: the textbook's means
/// {1: 0.553, 2: 0.589, 3: 0.563, 5: 0.546, 6: 0.544, 7: 0.528}, choosing the losing corner 2.
#[test]
fn flat_monte_carlo_textbook_table() {
    let (stats, best) = flat::<Python>(1);
    let table: Vec<(u8, u64, String)> = stats.iter().map(|s| (s.mv, s.visits, format!("{:.3}", s.mean()))).collect();
    let expected = [(1, "0.553"), (2, "0.589"), (3, "0.563"), (5, "0.546"), (6, "0.544"), (7, "0.528")];
    assert_eq!(table, expected.map(|(mv, mean)| (mv, 1000, mean.to_string())));
    assert_eq!(best, 2);
}

/// UCT, 3,000 iterations, `--rng python --seed 1`: the textbook's visits
/// {1: 698, 2: 143, 3: 671, 5: 662, 6: 147, 7: 679}, choosing the drawing edge 1.
#[test]
fn uct_textbook_table() {
    let (stats, best) = uct::<Python>(1);
    let visits: Vec<(u8, u64)> = stats.iter().map(|s| (s.mv, s.visits)).collect();
    assert_eq!(visits, [(1, 698), (2, 143), (3, 671), (5, 662), (6, 147), (7, 679)]);
    assert_eq!(best, 1);
}

/// Over seeds 0..99, flat Monte Carlo (1,000 playouts per move) picks a losing corner in at least 80 seeds,
/// UCT (3,000 iterations) a drawing edge in at least 98: random playouts make the corner look good, the tree
/// search sees through it. Both generators.
#[test]
fn flat_falls_into_the_trap_and_uct_does_not() {
    fn count(pick: fn(u64) -> (Vec<MoveStats<u8>>, u8), wanted: [u8; 4]) -> usize {
        (0..100u64).into_par_iter().filter(|&seed| wanted.contains(&pick(seed).1)).count()
    }
    for (name, corners, edges) in [
        ("pcg", count(flat::<Pcg>, [2, 6, 2, 6]), count(uct::<Pcg>, [1, 3, 5, 7])),
        ("python", count(flat::<Python>, [2, 6, 2, 6]), count(uct::<Python>, [1, 3, 5, 7])),
    ] {
        eprintln!("{name}: flat picks a corner in {corners} of 100 seeds, UCT an edge in {edges}");
        assert!(corners >= 80, "{name}: flat Monte Carlo picked a losing corner in only {corners} of 100 seeds");
        assert!(edges >= 98, "{name}: UCT picked a drawing edge in only {edges} of 100 seeds");
    }
}
