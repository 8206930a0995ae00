//! Alpha-beta with a transposition table returns exactly the value of the search without one — under every
//! replacement policy, and with tiny tables that force key collisions and overwrites. This is the textbook's
//! classic bug (storing a cut-off node's bound as its exact value) shown absent.

use khela_exact::{Algorithm, MoveOrdering, Natural, Searcher, Shared};
use khela_games::conformance::reachable;
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node};
use khela_tt::{AtomicTable, DashTable, Policy, Table};
use std::path::PathBuf;

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

/// The End-Easy benchmark set: (moves, score for the side to move), or `None` when `../shared` is absent.
fn end_easy() -> Option<Vec<(String, i32)>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/connect4/Test_L3_R1");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "NOTE: {} is absent (a fresh clone has no ../shared): the Connect-4 transposition checks checked nothing",
            path.display()
        );
        return None;
    };
    Some(
        text.lines()
            .map(|line| {
                let (moves, score) = line.split_once(' ').expect("`<moves> <score>`");
                (moves.to_string(), score.parse().expect("an integer score"))
            })
            .collect(),
    )
}

/// Pons' centre-first column order, which makes alpha-beta on Connect-4 fast.
fn centre_first() -> MoveOrdering<Connect4> {
    MoveOrdering::preference(vec![3, 2, 4, 1, 5, 0, 6])
}

#[test]
fn connect4_end_easy_with_tables_matches_the_search_without_and_the_published_scores() {
    let Some(set) = end_easy() else { return };
    let game = Connect4::standard();
    let shared_atomic = AtomicTable::with_entries(1 << 12, Policy::TwoTier);
    let shared_dash = DashTable::with_entries(1 << 12);
    for (moves, score) in set.iter().take(200) {
        let position: Position = game.parse(moves).unwrap();
        let Node::Decision(mover) = game.node(&position) else { panic!("{moves} is over") };
        let expected = mover.view(f64::from(*score));
        let plain = Searcher::new(&game, centre_first()).run(Algorithm::AlphaBeta, &position);
        assert_eq!(plain.value, expected, "{moves}: plain alpha-beta against the published score");
        for policy in POLICIES {
            for entries in [1, 3, 1 << 10] {
                let table = Table::with_entries(entries, policy);
                let mut searcher = Searcher::new(&game, centre_first()).with_cache(table);
                for algorithm in PRUNING {
                    assert_eq!(searcher.run(algorithm, &position).value, expected, "{moves} {policy:?} {entries}");
                }
            }
        }
        // The concurrent tables, shared by all the positions.
        let atomic = Searcher::new(&game, centre_first())
            .with_cache(Shared(&shared_atomic))
            .run(Algorithm::AlphaBeta, &position);
        assert_eq!(atomic.value, expected, "{moves} atomic table");
        let dash =
            Searcher::new(&game, centre_first()).with_cache(Shared(&shared_dash)).run(Algorithm::AlphaBeta, &position);
        assert_eq!(dash.value, expected, "{moves} dash table");
    }
}
