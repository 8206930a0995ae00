//! Depth-limited search against exact search and against a direct depth-limited minimax written here.
//!
//! - At a depth that reaches every leaf, the engine's value is the exact value (on the evaluator's scale), from
//!   every reachable tic-tac-toe position and on random explicit trees, with or without quiescence, whatever the
//!   evaluator says.
//! - At every shallower depth, the engine (iterative deepening, a transposition table, evaluator ordering) and
//!   every algorithm of the exact crate run to that depth return the value of a direct depth-limited minimax with
//!   quiescence, written here without the library.

use khela_exact::{Algorithm, Memo, Natural, Observer, Orderer, SearchConfig, Searcher, Shallow, Stats, Tactical};
use khela_games::Evaluator;
use khela_games::conformance::reachable;
use khela_games::connect4::{Connect4, Position};
use khela_games::nim::Nim;
use khela_games::settled::Settled;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::tree::Tree;
use khela_games::{Game, Node, Player, Value};
use khela_heuristic::connect4::Threats;
use khela_heuristic::tictactoe::OpenLines;
use khela_heuristic::{Analysis, Engine, Heuristic, SORTED_PLIES, SORTED_PLIES_WITH_GAME_ORDER, child_estimate};
use std::num::NonZeroU32;
use std::ops::ControlFlow;

/// An evaluator that knows nothing: a hash of the state's key into -8..=8. Noisy moves are the moves that end
/// the game, so quiescence has something to do in any game.
struct Blind {
    seed: u64,
}

impl<G: Game> Evaluator<G> for Blind {
    fn evaluate(&self, game: &G, state: &G::State) -> Value {
        let mut z = game.key(state) ^ self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % 17) as Value - 8.0
    }

    fn bound(&self) -> Value {
        8.0
    }

    fn noisy(&self, game: &G, state: &G::State, moves: &mut Vec<G::Move>) {
        game.moves(state, moves);
        moves.retain(|&mv| matches!(game.node(&game.child(state, mv)), Node::Terminal(_)));
    }
}

/// Depth-limited expectiminimax with quiescence, written directly: terminal test first, then the horizon, where
/// a decision node with noisy moves is searched over them alone; chance plies take no depth.
fn direct<G: Game, E: Evaluator<G>>(game: &G, eval: &E, state: &G::State, depth: u32, quiescence: bool) -> Value {
    let mut moves = Vec::new();
    let player = match game.node(state) {
        Node::Terminal(payoff) => return eval.terminal(payoff),
        // A chance node with no depth left is a leaf too: the evaluator values it before the draw.
        Node::Chance if depth == 0 => return eval.evaluate(game, state),
        Node::Chance => {
            let mut outcomes = Vec::new();
            game.outcomes(state, &mut outcomes);
            return outcomes
                .iter()
                .map(|&(outcome, p)| p * direct(game, eval, &game.child(state, outcome), depth, quiescence))
                .sum();
        }
        Node::Decision(player) => player,
    };
    if depth > 0 {
        game.moves(state, &mut moves);
    } else if quiescence {
        eval.noisy(game, state, &mut moves);
    }
    if moves.is_empty() {
        return eval.evaluate(game, state);
    }
    let values =
        moves.iter().map(|&mv| direct(game, eval, &game.child(state, mv), depth.saturating_sub(1), quiescence));
    if player == Player::Max {
        values.fold(Value::NEG_INFINITY, Value::max)
    } else {
        values.fold(Value::INFINITY, Value::min)
    }
}

#[test]
fn full_depth_is_exact_from_every_tictactoe_position() {
    let blind = Blind { seed: 3 };
    let mut exact = Searcher::new(&TicTacToe, Natural).with_cache(Memo::new());
    let positions = reachable(&TicTacToe, Board::EMPTY);
    assert_eq!(positions.len(), 5_478);
    for quiescence in [false, true] {
        // A one-entry table, kept across all positions: entries from earlier searches must not change a value.
        let options = SearchConfig { quiescence, table_mib: Some(0), ..SearchConfig::depth_limited(9) };
        let mut engine = Engine::new(&TicTacToe, &blind, options);
        for board in &positions {
            let value = exact.run(Algorithm::Minimax, board).value;
            let found = engine.search(board);
            assert_eq!(found.value, Evaluator::<TicTacToe>::terminal(&blind, value), "{board} quiescence {quiescence}");
            // The number of empty cells is enough to reach every leaf too.
            let empties = board.empty().count_ones();
            let mut shallow = Engine::new(&TicTacToe, &blind, SearchConfig { depth: empties, ..options });
            assert_eq!(shallow.search(board).value, found.value, "{board} to depth {empties}");
        }
    }
}

#[test]
fn every_depth_matches_direct_depth_limited_minimax_on_tictactoe() {
    let blind = Blind { seed: 11 };
    let heuristic = Heuristic::new(&TicTacToe, &blind);
    // Every 7th position, every depth to 4, both quiescence settings.
    for board in reachable(&TicTacToe, Board::EMPTY).iter().step_by(7) {
        for depth in 0..=4 {
            for quiescence in [false, true] {
                let expected = direct(&TicTacToe, &blind, board, depth, quiescence);
                let options = SearchConfig { quiescence, table_mib: Some(1), ..SearchConfig::depth_limited(depth) };
                let engine = Engine::new(&TicTacToe, &blind, options).search(board);
                assert_eq!(engine.value, expected, "{board} depth {depth} quiescence {quiescence}");
                for &algorithm in Algorithm::ALL {
                    let mut searcher =
                        Searcher::new(&heuristic, Natural).with_evaluator(|h, s| h.evaluator.evaluate(h.game, s));
                    if quiescence {
                        searcher = searcher.with_quiescence(|h, s, moves| h.evaluator.noisy(h.game, s, moves));
                    }
                    let value = searcher.run_to_depth(algorithm, board, depth).value;
                    assert_eq!(value, expected, "{algorithm:?} {board} depth {depth} quiescence {quiescence}");
                }
            }
        }
    }
}

#[test]
fn analysis_values_every_move_and_the_principal_variation_is_legal() {
    let blind = Blind { seed: 5 };
    for board in reachable(&TicTacToe, Board::EMPTY).iter().step_by(13) {
        let Node::Decision(mover) = TicTacToe.node(board) else { continue };
        for depth in 1..=4 {
            let mut engine = Engine::new(&TicTacToe, &blind, SearchConfig::depth_limited(depth));
            let analysis = engine.search(board);
            let values = engine.analyse(board);
            // Each move's value is the direct value of its child one ply shallower; the best of them is the
            // position's value, and the move chosen attains it.
            for mv in &values {
                let child = TicTacToe.child(board, mv.mv);
                assert_eq!(mv.value, direct(&TicTacToe, &blind, &child, depth - 1, false));
            }
            let best = values.iter().map(|m| mover.view(m.value)).fold(Value::NEG_INFINITY, Value::max);
            assert_eq!(mover.view(analysis.value), best, "{board} depth {depth}");
            let chosen = values.iter().find(|m| Some(m.mv) == analysis.best).unwrap();
            assert_eq!(chosen.value, analysis.value);
            // The principal variation starts with the move chosen and keeps the value, searched directly (the
            // blind evaluator's values are pseudo-random, so that a wrong move seldom would).
            assert_eq!(analysis.pv.first(), analysis.best.as_ref());
            assert!(analysis.depth <= depth);
            let value_at = |position: &Board, left| direct(&TicTacToe, &blind, position, left, false);
            check_line(&TicTacToe, board, &analysis, value_at, &format!("{board} depth {depth}"));
        }
    }
}

/// Checks the principal variation of `analysis`, a search of `state`: it is legal and no longer than the depth
/// searched, and every position along it has the analysis' value when `value_at` searches it to the plies left
/// of the search that chose it (each move of the line keeps the value).
fn check_line<G: Game>(
    game: &G,
    state: &G::State,
    analysis: &Analysis<G::Move>,
    mut value_at: impl FnMut(&G::State, u32) -> Value,
    context: &str,
) {
    assert!(analysis.pv.len() <= analysis.depth as usize, "{context}: pv {:?}", analysis.pv);
    let mut position = state.clone();
    for (k, &mv) in analysis.pv.iter().enumerate() {
        let mut legal = Vec::new();
        game.moves(&position, &mut legal);
        assert!(legal.contains(&mv), "{context}: pv {:?}", analysis.pv);
        game.play(&mut position, mv);
        let left = analysis.depth - 1 - k as u32;
        assert_eq!(value_at(&position, left), analysis.value, "{context}: pv {:?} after {} moves", analysis.pv, k + 1);
    }
}

/// An observer that stops iterative deepening after `at` plies, counting the iterations it saw.
struct StopAt {
    at: u32,
    seen: Vec<u32>,
}

impl<G: Game> Observer<G> for &mut StopAt {
    const ACTIVE: bool = false;

    fn deepened(&mut self, depth: u32, _: Value, _: &Stats) -> ControlFlow<()> {
        self.seen.push(depth);
        if depth >= self.at { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// Stopped after depth 3 of 6 on Connect-4 (deepening by one), the engine returns the depth-3 search: its value
/// and move, a principal variation no longer than 3, and `depth` 3; unstopped, every iteration is reported, the
/// last one too, and the depth is the configured one. With the evaluator's deepening step (two), the iterations
/// are 2, 4 and 6, and stopped after 4 it returns the depth-4 search.
#[test]
fn an_observer_can_stop_the_deepening() {
    let game = Connect4::standard();
    let position = game.parse("4453").unwrap();
    let threats = Threats::new(&game);
    let by_one = |depth| SearchConfig { deepening_step: Some(NonZeroU32::MIN), ..SearchConfig::depth_limited(depth) };
    let mut stop = StopAt { at: 3, seen: Vec::new() };
    let stopped = Engine::new(&game, &threats, by_one(6)).search_observed(&position, &mut stop);
    assert_eq!(stop.seen, [1, 2, 3]);
    let three = Engine::new(&game, &threats, by_one(3)).search(&position);
    assert_eq!((stopped.value, stopped.best, stopped.depth), (three.value, three.best, 3));
    assert!(!stopped.pv.is_empty() && stopped.pv.len() <= 3, "{:?}", stopped.pv);
    let mut never = StopAt { at: u32::MAX, seen: Vec::new() };
    let full = Engine::new(&game, &threats, by_one(6)).search_observed(&position, &mut never);
    assert_eq!(never.seen, [1, 2, 3, 4, 5, 6]);
    assert_eq!(full.depth, 6);
    assert_eq!(full, Engine::new(&game, &threats, by_one(6)).search(&position));

    assert_eq!(Evaluator::<Connect4>::deepening_step(&threats).get(), 2);
    let mut stop = StopAt { at: 4, seen: Vec::new() };
    let stopped = Engine::new(&game, &threats, SearchConfig::depth_limited(6)).search_observed(&position, &mut stop);
    assert_eq!(stop.seen, [2, 4]);
    let four = Engine::new(&game, &threats, SearchConfig::depth_limited(4)).search(&position);
    assert_eq!((stopped.value, stopped.best, stopped.depth), (four.value, four.best, 4));
    let mut never = StopAt { at: u32::MAX, seen: Vec::new() };
    let full = Engine::new(&game, &threats, SearchConfig::depth_limited(6)).search_observed(&position, &mut never);
    assert_eq!(never.seen, [2, 4, 6]);
    assert_eq!(full.value, Engine::new(&game, &threats, by_one(6)).search(&position).value);
}

/// A random tree in the nested-list notation from a small LCG: up to `levels` deep, one to three children,
/// leaves in -20..=20, and (if `chance`) a third of the inner nodes chance nodes with equal probabilities.
fn random_tree(state: &mut u64, levels: u32, chance: bool) -> String {
    let mut next = |n: u64| {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*state >> 33) % n
    };
    if levels == 0 || next(8) == 0 {
        return (next(41) as i64 - 20).to_string();
    }
    let (count, is_chance) = (1 + next(3), chance && next(3) == 0);
    let kids: Vec<String> = (0..count).map(|_| random_tree(state, levels - 1, chance)).collect();
    if is_chance {
        let parts: Vec<String> = kids.iter().map(|kid| format!("1/{count}:{kid}")).collect();
        format!("{{{}}}", parts.join(","))
    } else {
        format!("[{}]", kids.join(","))
    }
}

/// At full depth the engine is exact on random trees with and without chance nodes; at every shallower depth
/// it is the direct depth-limited expectiminimax (to rounding: the two sum means in different orders).
#[test]
fn full_depth_is_exact_on_random_explicit_trees() {
    let blind = Blind { seed: 9 };
    let mut rng = 0x1234_5678;
    for case in 0..500 {
        let text = random_tree(&mut rng, 6, case % 2 == 1);
        let game = Tree::parse(&text, if case % 4 < 2 { Player::Max } else { Player::Min }).unwrap();
        // Expectiminimax over the same terminal values (the evaluator's scale), without a horizon.
        let exact = Searcher::new(&Heuristic::new(&game, &blind), Natural).run(Algorithm::Minimax, &0).value;
        for quiescence in [false, true] {
            let options = SearchConfig { quiescence, ..SearchConfig::depth_limited(6) };
            let value = Engine::new(&game, &blind, options).search(&0).value;
            assert_eq!(value, exact, "{text} quiescence {quiescence}");
            // Shallower: depth-limited expectiminimax, the evaluator at the horizon, chance plies not counted.
            for depth in 0..6 {
                let options = SearchConfig { depth, quiescence, ..options };
                let value = Engine::new(&game, &blind, options).search(&0).value;
                let expected = direct(&game, &blind, &0, depth, quiescence);
                assert!((value - expected).abs() <= 1e-12 * expected.abs().max(1.0), "{text} depth {depth}");
            }
        }
    }
}

/// The positions of `games` seeded random Connect-4 games, each from the empty board to its last decision node.
fn random_connect4_positions(games: usize, seed: u64) -> Vec<Position> {
    let game = Connect4::standard();
    let (mut rng, mut moves, mut positions) = (seed, Vec::new(), Vec::new());
    for _ in 0..games {
        let mut position = Position::EMPTY;
        while let Node::Decision(_) = game.node(&position) {
            positions.push(position);
            game.moves(&position, &mut moves);
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            game.play(&mut position, moves[(rng >> 33) as usize % moves.len()]);
        }
    }
    positions
}

/// A depth-limited search with the real evaluators, whose proofs are final (iterative deepening stops at a
/// proven win or loss), returns the value of plain alpha-beta to the full depth: from tic-tac-toe positions and
/// from Connect-4 positions a seeded random game reached, at every depth to 6, with and without quiescence.
#[test]
fn stopping_at_a_proof_keeps_the_value() {
    fn check<G: Game, E: Evaluator<G>>(game: &G, evaluator: &E, state: &G::State, depth: u32) {
        let heuristic = Heuristic::new(game, evaluator);
        for quiescence in [false, true] {
            let mut plain = Searcher::new(&heuristic, Natural).with_evaluator(|h, s| h.evaluator.evaluate(h.game, s));
            if quiescence {
                plain = plain.with_quiescence(|h, s, moves| h.evaluator.noisy(h.game, s, moves));
            }
            let expected = plain.run_to_depth(Algorithm::AlphaBeta, state, depth).value;
            let options = SearchConfig { quiescence, table_mib: Some(1), ..SearchConfig::depth_limited(depth) };
            let found = Engine::new(game, evaluator, options).search(state);
            let context = format!("{state:?} depth {depth} quiescence {quiescence}");
            assert_eq!(found.value, expected, "{context}");
            // The principal variation keeps the value, searched plainly.
            let value_at = |position: &G::State, left| plain.run_to_depth(Algorithm::AlphaBeta, position, left).value;
            check_line(game, state, &found, value_at, &context);
        }
    }
    assert!(Evaluator::<TicTacToe>::proofs_are_final(&OpenLines));
    for board in reachable(&TicTacToe, Board::EMPTY).iter().step_by(5) {
        for depth in 1..=6 {
            check(&TicTacToe, &OpenLines, board, depth);
        }
    }
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    // Random games, checked every few plies.
    for position in random_connect4_positions(60, 0x5eed).iter().step_by(3) {
        for depth in 1..=6 {
            check(&game, &threats, position, depth);
        }
    }
}

/// The game's tactics ([`Tactical`]: a win on the move, a loss on every reply, the moves that lose on the reply
/// left out) change no value of a depth-limited search and prune: from the Connect-4 positions of seeded random
/// games and every tic-tac-toe position, at every depth to 6, with and without quiescence, negamax alpha-beta and
/// minimax-view alpha-beta with them return plain alpha-beta's value, in fewer nodes over all; and searched to the
/// end of tic-tac-toe, the value of minimax.
#[test]
fn tactics_change_no_value_and_prune() {
    /// Nodes without and with the tactics, over every search of `state` to `depth`.
    fn check<G: Game, E: Evaluator<G>>(game: &G, evaluator: &E, state: &G::State, depth: u32) -> (u64, u64) {
        let heuristic = Heuristic::new(game, evaluator);
        let (mut plain_nodes, mut tactical_nodes) = (0, 0);
        for quiescence in [false, true] {
            for algorithm in [Algorithm::AlphaBeta, Algorithm::NegamaxAlphaBeta] {
                let estimate = |h: &Heuristic<'_, G, E>, s: &G::State| h.evaluator.evaluate(h.game, s);
                let noisy = |h: &Heuristic<'_, G, E>, s: &G::State, moves: &mut Vec<G::Move>| {
                    h.evaluator.noisy(h.game, s, moves)
                };
                let mut plain = Searcher::new(&heuristic, Natural).with_evaluator(estimate);
                let mut tactical =
                    Searcher::new(&heuristic, Tactical::new(Natural, &heuristic)).with_evaluator(estimate);
                if quiescence {
                    plain = plain.with_quiescence(noisy);
                    tactical = tactical.with_quiescence(noisy);
                }
                let expected = plain.run_to_depth(algorithm, state, depth);
                let found = tactical.run_to_depth(algorithm, state, depth);
                assert_eq!(found.value, expected.value, "{state:?} {algorithm} depth {depth} quiescence {quiescence}");
                plain_nodes += expected.stats.nodes;
                tactical_nodes += found.stats.nodes;
            }
        }
        (plain_nodes, tactical_nodes)
    }
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let (mut plain, mut tactical) = (0, 0);
    for position in random_connect4_positions(30, 0x7ac7) {
        for depth in 0..=6 {
            let (a, b) = check(&game, &threats, &position, depth);
            (plain, tactical) = (plain + a, tactical + b);
        }
    }
    assert!(tactical * 10 < plain * 9, "Connect-4: {tactical} nodes with the tactics, {plain} without");
    let (mut plain, mut tactical) = (0, 0);
    let mut exact = Searcher::new(&TicTacToe, Natural);
    let mut exact_tactical = Searcher::new(&TicTacToe, Tactical::new(Natural, &TicTacToe));
    for board in reachable(&TicTacToe, Board::EMPTY) {
        for depth in 0..=6 {
            let (a, b) = check(&TicTacToe, &OpenLines, &board, depth);
            (plain, tactical) = (plain + a, tactical + b);
        }
        let value = exact.run(Algorithm::Minimax, &board).value;
        assert_eq!(exact_tactical.run(Algorithm::AlphaBeta, &board).value, value, "{board} to the end");
    }
    assert!(tactical * 10 < plain * 9, "tic-tac-toe: {tactical} nodes with the tactics, {plain} without");
    // On through a game with nothing settled; off where there is nothing to give: an evaluator whose proofs are
    // not final, a game without tactics (the loop then lists no moves early).
    assert!(Orderer::<Settled<'_, Connect4>>::prunes(&Tactical::new(Natural, &Settled::new(&game, None))));
    let blind = Blind { seed: 1 };
    let unproven = Heuristic::new(&TicTacToe, &blind);
    assert!(!Orderer::<Heuristic<'_, TicTacToe, Blind>>::prunes(&Tactical::new(Natural, &unproven)));
    assert!(!Orderer::<Nim>::prunes(&Tactical::new(Natural, &Nim)));
}

#[test]
fn the_games_move_order_changes_no_value_and_prunes() {
    // The evaluator's ordering at the first plies, and below it the history or the game's order (Connect-4's
    // threats), each with the game's tactics (as the Engine orders a game without an order and one with), against
    // plain alpha-beta, in each of 20 seeded random games' positions at depths 1 to 6. (Without the tactics, the
    // threats visit more nodes than the history here.)
    let estimate = |h: &Heuristic<'_, Connect4, Threats>, s: &Position| h.evaluator.evaluate(h.game, s);
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let heuristic = Heuristic::new(&game, &threats);
    let (mut history_nodes, mut ordered_nodes) = (0, 0);
    for position in random_connect4_positions(20, 0x0bde) {
        for depth in 1..=6 {
            let history = Shallow::new(child_estimate, SORTED_PLIES);
            let ordered = Shallow::new(child_estimate, SORTED_PLIES_WITH_GAME_ORDER).with_game_order(&heuristic);
            let expected = Searcher::new(&heuristic, Natural).with_evaluator(estimate).run_to_depth(
                Algorithm::NegamaxAlphaBeta,
                &position,
                depth,
            );
            for (order, nodes) in [(history, &mut history_nodes), (ordered, &mut ordered_nodes)] {
                let order = Tactical::new(order, &heuristic);
                let mut searcher = Searcher::new(&heuristic, order).with_evaluator(estimate);
                let found = searcher.run_to_depth(Algorithm::NegamaxAlphaBeta, &position, depth);
                assert_eq!(found.value, expected.value, "{position:?} depth {depth}");
                *nodes += found.stats.nodes;
            }
        }
    }
    assert!(
        ordered_nodes * 10 < history_nodes * 9,
        "{ordered_nodes} nodes in the game's order, {history_nodes} by history"
    );
    // The Engine searches with that order: its nodes are those of the same search built here with it, not with
    // the history's. `Settled` (the command line's game) passes the order on.
    let (mut engine_nodes, mut built_nodes, mut history_built_nodes) = (0, 0, 0);
    let settled = Settled::new(&game, None);
    assert!(settled.has_move_order());
    for position in random_connect4_positions(5, 0x5e77) {
        let config = SearchConfig { table_mib: Some(1), ..SearchConfig::depth_limited(5) };
        engine_nodes += Engine::new(&game, &threats, config).search(&position).stats.nodes;
        let orders = [
            Shallow::new(child_estimate, SORTED_PLIES_WITH_GAME_ORDER).with_game_order(&heuristic),
            Shallow::new(child_estimate, SORTED_PLIES),
        ];
        // The Engine deepens by the evaluator's step.
        let built = SearchConfig { deepening_step: Some(Evaluator::<Connect4>::deepening_step(&threats)), ..config };
        for (order, nodes) in orders.into_iter().zip([&mut built_nodes, &mut history_built_nodes]) {
            let order = Tactical::new(order, &heuristic);
            let mut searcher =
                built.searcher(&heuristic, order, heuristic.horizon()).with_cache(built.table().unwrap());
            *nodes += searcher.run_to_depth(config.algorithm, &position, config.depth).stats.nodes;
        }
        let (mut moves, mut ordered) = (Vec::new(), Vec::new());
        if let Node::Decision(_) = game.node(&position) {
            game.moves(&position, &mut moves);
            ordered.clone_from(&moves);
            game.order_moves(&position, &mut moves);
            settled.order_moves(&position, &mut ordered);
            assert_eq!(ordered, moves, "{position:?}");
        }
    }
    assert_eq!(engine_nodes, built_nodes, "the Engine against the search built with the game's order");
    assert_ne!(engine_nodes, history_built_nodes, "the Engine searches as the history would");
    // The history stops learning where the game's order stands in for it; a game without an order keeps it.
    let ordered = Shallow::new(child_estimate, SORTED_PLIES_WITH_GAME_ORDER).with_game_order(&heuristic);
    assert!(!Orderer::<Heuristic<'_, Connect4, Threats>>::learns(&ordered));
    let open_lines = Heuristic::new(&TicTacToe, &OpenLines);
    let kept = Shallow::new(child_estimate, SORTED_PLIES).with_game_order(&open_lines);
    assert!(Orderer::<Heuristic<'_, TicTacToe, OpenLines>>::learns(&kept));
}
