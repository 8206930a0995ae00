//! Alpha-beta with a transposition table returns exactly the value of the search without one — under every
//! replacement policy, and with tiny tables that force key collisions and overwrites. This is the textbook's
//! classic bug (storing a cut-off node's bound as its exact value) shown absent. The same on Connect-4's End-Easy
//! benchmark set is in `end_easy.rs`.

use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::conformance::reachable;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_tt::{Policy, Table};

const POLICIES: [Policy; 3] = [Policy::Always, Policy::DepthPreferred, Policy::TwoTier];
const PRUNING: [Algorithm; 2] = [Algorithm::AlphaBeta, Algorithm::NegamaxAlphaBeta];

#[test]
fn every_tictactoe_position_with_every_policy_and_table_size() {
    let positions = reachable(&TicTacToe, Board::EMPTY);
    assert_eq!(positions.len(), 5_478);
    let plain: Vec<f64> =
        positions.iter().map(|b| Searcher::new(&TicTacToe, Natural).run(Algorithm::Minimax, b).value).collect();
    for policy in POLICIES {
        for entries in [1, 2, 7, 64, 1 << 14] {
            for algorithm in PRUNING {
                // One table for all the positions, so entries from other searches and other windows are met too.
                let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Table::with_entries(entries, policy));
                for (b, &expected) in positions.iter().zip(&plain) {
                    let got = searcher.run(algorithm, b).value;
                    assert_eq!(got, expected, "{b} {policy:?} {entries} entries {algorithm:?}");
                }
                let stats = searcher.cache().stats();
                if entries >= 64 {
                    assert!(stats.hits > 0, "{policy:?} {entries}: the table was used");
                }
                if entries <= 7 {
                    assert!(stats.collisions > 0 && stats.overwrites > 0, "{policy:?} {entries}: {stats:?}");
                }
            }
        }
    }
}

#[test]
fn a_table_saves_work_and_keeps_the_value_from_the_empty_board() {
    let plain = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, &Board::EMPTY);
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Table::with_mib(1, Policy::TwoTier));
    let with_table = searcher.run(Algorithm::AlphaBeta, &Board::EMPTY);
    assert_eq!(with_table.value, plain.value);
    assert!(with_table.stats.nodes < plain.stats.nodes / 2, "{} vs {}", with_table.stats.nodes, plain.stats.nodes);
}
