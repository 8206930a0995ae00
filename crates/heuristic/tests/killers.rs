//! Killer moves in the Engine's ordering ([`Shallow`] with the game's order, Connect-4's threats): at a parent of
//! the horizon's leaves that the table names no best move for, the move that last cut off such a node of the same
//! ply is searched first, and the others are ordered only if it does not cut the node off. They change no value,
//! with or without a table, and they spare the game's order at the nodes they cut off.

use khela_exact::{Algorithm, Natural, Orderer, SearchConfig, Searcher, Shallow, Tactical};
use khela_games::Evaluator;
use khela_games::Player;
use khela_games::conformance::random_lines;
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::TicTacToe;
use khela_heuristic::connect4::Threats;
use khela_heuristic::tictactoe::OpenLines;
use khela_heuristic::{Heuristic, SORTED_PLIES, SORTED_PLIES_WITH_GAME_ORDER, child_estimate};
use std::cell::Cell;

type C4<'a> = Heuristic<'a, Connect4, Threats>;

/// An ordering that counts the calls of the one it wraps, and hides its killers if told to.
struct Spy<'c, O> {
    inner: O,
    killers: bool,
    orders: &'c Cell<u64>,
}

impl<'a, O: Orderer<C4<'a>>> Orderer<C4<'a>> for Spy<'_, O> {
    fn order(&mut self, game: &C4<'a>, state: &Position, player: Player, ply: usize, moves: &mut [u8]) {
        self.orders.set(self.orders.get() + 1);
        self.inner.order(game, state, player, ply, moves);
    }

    fn keeps_killers(&self) -> bool {
        self.killers && self.inner.keeps_killers()
    }

    fn killer(&self, ply: usize, depth: u32) -> Option<u8> {
        self.inner.killer(ply, depth)
    }

    fn cut_by(&mut self, mv: u8, ply: usize, depth: u32) {
        self.inner.cut_by(mv, ply, depth);
    }
}

#[test]
fn killers_keep_every_value_and_spare_the_games_order() {
    let estimate = |h: &C4<'_>, s: &Position| h.evaluator.evaluate(h.game, s);
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let heuristic = Heuristic::new(&game, &threats);
    let uncounted = Cell::new(0);
    // The order's calls (of plain alpha-beta's searches only) and the nodes, without the killers and with them.
    let (orders, mut nodes) = ([Cell::new(0), Cell::new(0)], [0; 2]);
    let spy = |killers: bool, counted: bool| Spy {
        inner: Shallow::new(child_estimate, SORTED_PLIES_WITH_GAME_ORDER).with_game_order(&heuristic),
        killers,
        orders: if counted { &orders[usize::from(killers)] } else { &uncounted },
    };
    for (_, position) in random_lines(&game, &Position::EMPTY, 40, 0..30, 0x4b11) {
        for depth in 1..=6 {
            let expected = Searcher::new(&heuristic, Natural).with_evaluator(estimate).run_to_depth(
                Algorithm::NegamaxAlphaBeta,
                &position,
                depth,
            );
            for killers in [false, true] {
                // Plain alpha-beta, no table: no node has a best move from the table.
                let mut searcher = Searcher::new(&heuristic, spy(killers, true)).with_evaluator(estimate);
                let found = searcher.run_to_depth(Algorithm::NegamaxAlphaBeta, &position, depth);
                assert_eq!(found.value, expected.value, "{position:?} depth {depth}, killers {killers}");
                nodes[usize::from(killers)] += found.stats.nodes;
                // As the Engine searches: iterative deepening by two, a table, the game's tactics. The table's
                // best moves and the killers both go first, each where it applies.
                let config = SearchConfig { table_mib: Some(1), ..SearchConfig::depth_limited(depth) };
                let order = Tactical::new(spy(killers, false), &heuristic);
                let mut searcher =
                    config.searcher(&heuristic, order, heuristic.horizon()).with_cache(config.table().unwrap());
                let found = searcher.run_to_depth(config.algorithm, &position, depth);
                assert_eq!(found.value, expected.value, "{position:?} depth {depth} deepening, killers {killers}");
            }
        }
    }
    // Killers cut off most parents of leaves they are tried at: without a table, the game's order is called
    // about half as often, in fewer nodes.
    let orders = orders.map(|count| count.get());
    assert!(orders[1] * 10 < orders[0] * 6, "the game's order called {orders:?} times (without, with killers)");
    assert!(nodes[1] < nodes[0], "nodes {nodes:?} (without, with killers)");
}

#[test]
fn a_killer_is_the_last_cut_at_a_parent_of_leaves_of_its_ply() {
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let heuristic = Heuristic::new(&game, &threats);
    let mut order = Shallow::new(child_estimate, SORTED_PLIES_WITH_GAME_ORDER).with_game_order(&heuristic);
    let orderer: &mut dyn Orderer<C4<'_>> = &mut order;
    assert!(orderer.keeps_killers());
    assert_eq!(orderer.killer(3, 1), None);
    orderer.cut_by(2, 3, 1);
    orderer.cut_by(5, 3, 1);
    // Only parents of leaves (one ply left) keep killers: a cut deeper in the tree is not one.
    orderer.cut_by(4, 3, 2);
    orderer.cut_by(6, 1, 3);
    assert_eq!(orderer.killer(3, 1), Some(5));
    assert_eq!([orderer.killer(3, 2), orderer.killer(2, 1), orderer.killer(1, 3)], [None; 3]);
    // The tactics pass them on; a game without its own order keeps none (its history learns instead).
    let tactical = Tactical::new(order, &heuristic);
    assert_eq!(Orderer::<C4<'_>>::killer(&tactical, 3, 1), Some(5));
    let open_lines = Heuristic::new(&TicTacToe, &OpenLines);
    let history = Shallow::new(child_estimate, SORTED_PLIES).with_game_order(&open_lines);
    assert!(!Orderer::<Heuristic<'_, TicTacToe, OpenLines>>::keeps_killers(&history));
}
