//! Alpha-beta with a transposition table returns exactly the value of the search without one — under every
//! replacement policy, and with tiny tables that force key collisions and overwrites. This is the textbook's
//! classic bug (storing a cut-off node's bound as its exact value) shown absent. The same on Connect-4's End-Easy
//! benchmark set is in `end_easy.rs`.

use khela_exact::connect4::Knowledge;
use khela_exact::{Algorithm, ByValue, History, Natural, Orderer, Preference, Reversed, Searcher, Shuffled, Stats};
use khela_games::conformance::reachable;
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player, Value};
use khela_tt::{Replacement, Table};
use std::cell::Cell;
use std::rc::Rc;

const POLICIES: [Replacement; 3] = [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier];
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
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Table::with_mib(1, Replacement::TwoTier));
    let with_table = searcher.run(Algorithm::AlphaBeta, &Board::EMPTY);
    assert_eq!(with_table.value, plain.value);
    assert!(with_table.stats.nodes < plain.stats.nodes / 2, "{} vs {}", with_table.stats.nodes, plain.stats.nodes);
}

/// An ordering as `inner` orders, counting the moves it is given, staged by the loop or not as `stages` says.
struct Counted<O> {
    inner: O,
    stages: bool,
    ordered: Rc<Cell<u64>>,
}

impl<G: Game, O: Orderer<G>> Orderer<G> for Counted<O> {
    fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]) {
        self.ordered.set(self.ordered.get() + moves.len() as u64);
        self.inner.order(game, state, player, ply, moves);
    }

    fn stages(&self) -> bool {
        self.stages
    }

    fn learns(&self) -> bool {
        self.inner.learns()
    }

    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        self.inner.reward(mv, ply, depth);
    }
}

/// The search of `board` by `algorithm` with a fresh table and `inner` counted, staged or not: its value and
/// counters, and the moves ordered.
fn counted_run<O: Orderer<TicTacToe>>(
    inner: O,
    stages: bool,
    board: &Board,
    algorithm: Algorithm,
) -> (Value, Stats, u64) {
    let ordered = Rc::new(Cell::new(0));
    let order = Counted { inner, stages, ordered: Rc::clone(&ordered) };
    let mut searcher = Searcher::new(&TicTacToe, order).with_cache(Table::with_mib(1, Replacement::TwoTier));
    let result = searcher.run(algorithm, board);
    (result.value, result.stats, ordered.get())
}

/// Where the table names a node's best move, the loop searches it first and orders the others only if it does
/// not cut the node off (`Orderer::stages`): from every seventh tic-tac-toe position, with both pruning algorithms and
/// three orderings, and from 40 random Connect-4 positions of 30 stones with the solver's knowledge, the same value,
/// nodes and cut-offs as ordering every move first, and fewer moves ordered. An ordering that learns (the history)
/// or shuffles is not staged.
#[test]
fn staged_ordering_visits_the_same_nodes_for_less() {
    let (mut staged_moves, mut all_moves) = (0, 0);
    let preference = || Preference(vec![4, 0, 2, 6, 8, 1, 3, 5, 7]);
    let hashed: fn(&TicTacToe, &Board) -> Value = |game, board| (game.key(board) % 7) as Value;
    for board in reachable(&TicTacToe, Board::EMPTY).iter().step_by(7) {
        for algorithm in PRUNING {
            let runs = [
                (
                    counted_run(ByValue::best_first(hashed), true, board, algorithm),
                    counted_run(ByValue::best_first(hashed), false, board, algorithm),
                ),
                (counted_run(Reversed, true, board, algorithm), counted_run(Reversed, false, board, algorithm)),
                (counted_run(preference(), true, board, algorithm), counted_run(preference(), false, board, algorithm)),
            ];
            for (staged, all) in runs {
                assert_eq!((staged.0, staged.1), (all.0, all.1), "{board} {algorithm:?}");
                (staged_moves, all_moves) = (staged_moves + staged.2, all_moves + all.2);
            }
        }
    }
    // Connect-4 near its end, solved with the solver's knowledge (its threat order) over a plain table.
    let game = Connect4::standard();
    let (mut rng, mut moves) = (0xc4_u64, Vec::new());
    for _ in 0..40 {
        let mut position = Position::EMPTY;
        while position.moves_played() < 30 && matches!(game.node(&position), Node::Decision(_)) {
            game.moves(&position, &mut moves);
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            game.play(&mut position, moves[(rng >> 33) as usize % moves.len()]);
        }
        let run = |stages: bool| {
            let ordered = Rc::new(Cell::new(0));
            let order = Counted { inner: Knowledge, stages, ordered: Rc::clone(&ordered) };
            let mut searcher = Searcher::new(&game, order).with_cache(Table::with_mib(1, Replacement::TwoTier));
            let result = searcher.run(Algorithm::NegamaxAlphaBeta, &position);
            (result.value, result.stats, ordered.get())
        };
        let (staged, all) = (run(true), run(false));
        assert_eq!((staged.0, staged.1), (all.0, all.1), "{position:?}");
        (staged_moves, all_moves) = (staged_moves + staged.2, all_moves + all.2);
    }
    assert!(staged_moves < all_moves, "{staged_moves} moves ordered staged, {all_moves} all at once");
    assert!(Orderer::<TicTacToe>::stages(&Reversed) && Orderer::<TicTacToe>::stages(&preference()));
    assert!(!Orderer::<TicTacToe>::stages(&History::default()) && !Orderer::<TicTacToe>::stages(&Shuffled::new(1)));
}
