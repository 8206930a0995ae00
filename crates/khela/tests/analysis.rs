//! The analysis of a position checked against simpler and independent searches: tic-tac-toe's exact values
//! against plain minimax, Connect-4's solver against alpha-beta on a small board, Nim's solver against Bouton's
//! rule; Monte Carlo's visits add up to its iterations and repeat from their seed; requests a game cannot serve
//! are refused naming why.

use khela::analysis::{Analyser, Analysis, Limit, Source};
use khela::{Game, State};
use khela_exact::{Algorithm, Natural, Searcher, move_values};
use khela_games::connect4::Connect4;
use khela_games::nim::{Heaps, Nim};
use khela_games::tictactoe::TicTacToe;
use khela_games::{Game as _, Node, Notation, Player};
use khela_mcts::random::{Pcg, Random};

/// A position `plies` random moves from the start of `game` that is still to be decided, if one is reached.
fn random_position(game: &Game, plies: usize, rng: &mut Pcg) -> Option<State> {
    let mut state = game.start().unwrap();
    for _ in 0..plies {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return None;
        }
        state.play(moves[rng.below(moves.len())]).unwrap();
    }
    state.outcome().is_none().then_some(state)
}

#[test]
fn tic_tac_toe_s_exact_values_are_plain_minimax_s() {
    let game = khela::load("tictactoe").unwrap();
    let mut rng = Pcg::from_seed(1);
    let mut checked = 0;
    for i in 0..200 {
        let Some(state) = random_position(&game, i % 8, &mut rng) else { continue };
        let analysis = state.analyse(&Analyser::Exact).unwrap();
        assert_eq!(analysis.source, Source::Exact);
        let mut board = TicTacToe.parse_position(TicTacToe.start().unwrap()).unwrap();
        for text in state.history() {
            TicTacToe.play(&mut board, text.parse().unwrap());
        }
        let mut minimax = Searcher::new(&TicTacToe, Natural);
        for m in &analysis.moves {
            let child = TicTacToe.child(&board, m.text.parse().unwrap());
            assert_eq!(
                m.value,
                Some(minimax.run(Algorithm::Minimax, &child).value),
                "{:?} {}",
                state.history(),
                m.text
            );
        }
        let best = analysis.best();
        let mover = analysis.mover;
        let top = analysis.moves.iter().map(|m| mover.view(m.value.unwrap())).fold(f64::NEG_INFINITY, f64::max);
        assert!(best.iter().all(|&i| mover.view(analysis.moves[i].value.unwrap()) == top));
        checked += 1;
    }
    assert!(checked > 150, "{checked}");
}

/// −1, 0 or 1.
fn sign(value: f64) -> i32 {
    (value > 0.0) as i32 - (value < 0.0) as i32
}

#[test]
fn connect4_s_solver_agrees_with_alpha_beta_on_a_small_board() {
    let game = khela::load("connect4(width=5,height=4)").unwrap();
    let board = Connect4::new(5, 4).unwrap();
    let mut rng = Pcg::from_seed(2);
    let mut checked = 0;
    for i in 0..60 {
        let Some(state) = random_position(&game, 4 + i % 8, &mut rng) else { continue };
        let analysis = state.analyse(&Analyser::Exact).unwrap();
        let position = board.parse_position(&state.history().concat()).unwrap();
        let truth = move_values(&board, &position, Algorithm::AlphaBeta);
        assert_eq!(analysis.moves.len(), truth.len());
        for (m, &(mv, value)) in analysis.moves.iter().zip(&truth) {
            assert_eq!(m.text, board.write_move(mv));
            // The solver counts stones; alpha-beta gives the payoff: the signs agree.
            assert_eq!(sign(m.value.unwrap()), sign(value), "{:?} {}", state.history(), m.text);
        }
        checked += 1;
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn nim_s_solver_agrees_with_bouton_s_rule() {
    let game = khela::load("nim").unwrap();
    for heaps in ["1,2,3", "3,4,5", "2,2", "7", "1,1,1", "4,9,13"] {
        let state = game.state(heaps).unwrap();
        let analysis = state.analyse(&Analyser::Exact).unwrap();
        assert_eq!(analysis.mover, Player::Max);
        let start = Nim.parse_position(heaps).unwrap();
        let mut moves = Vec::new();
        Nim.moves(&start, &mut moves);
        for (m, &mv) in analysis.moves.iter().zip(&moves) {
            let after: Heaps = Nim.child(&start, mv);
            // A move wins for the mover exactly when it leaves a nim-sum of 0.
            assert_eq!(m.value.unwrap() > 0.0, Nim::nim_sum(&after) == 0, "{heaps} {}", m.text);
        }
    }
}

#[test]
fn monte_carlo_visits_add_up_and_repeat_from_their_seed() {
    for text in ["tictactoe", "connect4", "bagh-chal", "pig(goal=20)", "einstein"] {
        let game = khela::load(text).unwrap();
        let mut state = game.start().unwrap();
        while !state.chance_outcomes().is_empty() {
            state.play(0).unwrap();
        }
        let analyser = Analyser::Mcts { iterations: 300, seed: 9 };
        let analysis = state.analyse(&analyser).unwrap();
        let visits: u64 = analysis.moves.iter().map(|m| m.visits.unwrap()).sum();
        assert_eq!(visits, 300, "{text}");
        assert!(analysis.moves.iter().all(|m| m.value.is_none_or(|v| (-1.0..=1.0).contains(&v))), "{text}");
        assert_eq!(state.analyse(&analyser).unwrap(), analysis, "{text}: the same seed, the same analysis");
        let most = analysis.moves.iter().map(|m| m.visits.unwrap()).max().unwrap();
        assert!(analysis.best().iter().all(|&i| analysis.moves[i].visits == Some(most)));
    }
}

/// A deadline already past when the search begins (a busy server's queue) still gets an answer: the deepening's
/// first depth, Monte Carlo's first run of iterations, marked incomplete.
#[test]
fn a_deadline_past_before_the_search_begins_still_gets_the_first_step() {
    let game = khela::load("connect4").unwrap();
    let state = game.start().unwrap();
    let past = std::time::Instant::now();
    let deep = state.analyse_until(&Analyser::Depth(10), past).unwrap();
    assert_eq!((deep.source, deep.complete), (Source::Depth(2), false));
    assert!(deep.moves.iter().all(|m| m.value.is_some()));
    let many = state.analyse_until(&Analyser::Mcts { iterations: 200_000, seed: 3 }, past).unwrap();
    let visits: u64 = many.moves.iter().map(|m| m.visits.unwrap()).sum();
    assert!(!many.complete && (1..200_000).contains(&visits), "{visits} iterations past the deadline");
}

/// A stop flag raised before the search begins (a front end's Ctrl-C) stops Monte Carlo after its first run, as a
/// past deadline does; left down, it changes nothing.
#[test]
fn a_raised_stop_flag_stops_monte_carlo_after_its_first_run() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let state = khela::load("connect4").unwrap().start().unwrap();
    let mcts = Analyser::Mcts { iterations: 200_000, seed: 3 };
    let raised = Limit { until: None, stop: Some(Arc::new(AtomicBool::new(true))) };
    let stopped = state.analyse_within(&mcts, &raised).unwrap();
    let visits: u64 = stopped.moves.iter().map(|m| m.visits.unwrap()).sum();
    assert!(!stopped.complete && (1..200_000).contains(&visits), "{visits} iterations after the stop");
    let down = Limit { until: None, stop: Some(Arc::new(AtomicBool::new(false))) };
    let small = Analyser::Mcts { iterations: 5_000, seed: 3 };
    assert_eq!(state.analyse_within(&small, &down).unwrap(), state.analyse(&small).unwrap());
}

#[test]
fn a_depth_limited_analysis_finds_the_win_in_one() {
    // X to move: 2 wins at once (0, 1, 2 on the top row).
    let game = khela::load("tictactoe").unwrap();
    let state = game.state("XX.OO....").unwrap();
    let analysis = state.analyse(&Analyser::Depth(1)).unwrap();
    assert_eq!(analysis.source, Source::Depth(1));
    let best: Vec<&str> = analysis.best().iter().map(|&i| analysis.moves[i].text.as_str()).collect();
    assert_eq!(best, ["2"]);
}

#[test]
fn analyses_a_game_cannot_serve_are_refused_saying_why() {
    let refused = |game: &str, analyser: Analyser, message: &str| {
        let mut state = khela::load(game).unwrap().start().unwrap();
        // EinStein starts with the die in the air: a roll first.
        if !state.chance_outcomes().is_empty() {
            let err = state.analyse(&analyser).unwrap_err().to_string();
            assert!(err.contains("the position is a chance node"), "{err}");
            state.play(0).unwrap();
        }
        let err = state.analyse(&analyser).unwrap_err().to_string();
        assert!(err.contains(message), "{game} {analyser:?}: {err}");
    };
    refused("bagh-chal", Analyser::Exact, "Bagh-Chal is not analysed exactly: its positions repeat");
    refused("einstein", Analyser::Exact, "positions below this one to value exactly, over the limit");
    refused("pig", Analyser::Depth(3), "Pig to 100 has no evaluator");
    refused("pig", Analyser::Exact, "Pig to 100's exact values come from its own solver");
    refused("tictactoe", Analyser::Depth(0), "the depth is from 1 to 12");
    refused("tictactoe", Analyser::Mcts { iterations: 0, seed: 0 }, "give from 1 to 10000000");
}

/// Dots and Boxes on 2 × 2 boxes is a first player's win, but only from an outside edge: an interior first edge
/// lets the second player draw by symmetry (Berlekamp, Conway and Guy, *Winning Ways*, the 2 × 2 game).
#[test]
fn dots_and_boxes_2x2_is_won_by_an_outside_first_edge_and_drawn_by_an_inside_one() {
    let state = khela::load("dots-and-boxes").unwrap().start().unwrap();
    let analysis = state.analyse(&Analyser::Exact).unwrap();
    let values: Vec<(&str, f64)> = analysis.moves.iter().map(|m| (m.text.as_str(), m.value.unwrap())).collect();
    let expected: Vec<(&str, f64)> = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
        .into_iter()
        .map(|edge| (edge, if ["4", "6", "7", "9"].contains(&edge) { 0.0 } else { 1.0 }))
        .collect();
    assert_eq!(values, expected);
}

/// Every move's exact value on small Dots and Boxes boards, against a memoized solver written here from the rules
/// alone (the boxes each edge closes counted afresh from the edges drawn).
#[test]
fn dots_and_boxes_values_agree_with_a_solver_from_the_rules() {
    use std::collections::HashMap;
    /// The first player's payoff with best play from `edges` drawn, `margin` boxes ahead, `first` to move.
    fn solve(
        rows: u32,
        cols: u32,
        edges: u64,
        margin: i32,
        first: bool,
        memo: &mut HashMap<(u64, i32, bool), f64>,
    ) -> f64 {
        let stride = 2 * cols + 1;
        let total = rows * stride + cols;
        if edges.count_ones() == total {
            return f64::from(margin.signum());
        }
        if let Some(&v) = memo.get(&(edges, margin, first)) {
            return v;
        }
        let complete = |e: u64| {
            let mut n = 0;
            for r in 0..rows {
                for c in 0..cols {
                    let (top, left) = (r * stride + c, r * stride + cols + c);
                    n += [top, top + stride, left, left + 1].iter().all(|&s| e & 1 << s != 0) as i32;
                }
            }
            n
        };
        let mut best = if first { f64::NEG_INFINITY } else { f64::INFINITY };
        for edge in (0..total).filter(|&e| edges & 1 << e == 0) {
            let after = edges | 1 << edge;
            let closed = complete(after) - complete(edges);
            let sign = if first { 1 } else { -1 };
            let again = closed > 0;
            let v = solve(rows, cols, after, margin + sign * closed, if again { first } else { !first }, memo);
            best = if first { best.max(v) } else { best.min(v) };
        }
        memo.insert((edges, margin, first), best);
        best
    }
    let mut rng = Pcg::from_seed(4);
    for (rows, cols) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)] {
        let game = khela::load(&format!("dots-and-boxes(rows={rows},cols={cols})")).unwrap();
        let mut memo = HashMap::new();
        for i in 0..12 {
            let Some(state) = random_position(&game, i % 5, &mut rng) else { continue };
            let replayed = khela_games::dots_and_boxes::DotsAndBoxes::new(rows, cols).unwrap();
            let position = replayed.parse_position(&state.history().join(",")).unwrap();
            let analysis = state.analyse(&Analyser::Exact).unwrap();
            for m in &analysis.moves {
                let edge: u32 = m.text.parse::<u32>().unwrap() - 1;
                let child = replayed.child(&position, edge as u8);
                let (a, b) = child.boxes();
                let Node::Decision(mover) = replayed.node(&child) else {
                    assert_eq!(m.value, Some(f64::from((a as i32 - b as i32).signum())));
                    continue;
                };
                let truth = solve(rows, cols, child.drawn(), a as i32 - b as i32, mover == Player::Max, &mut memo);
                assert_eq!(m.value, Some(truth), "{rows}x{cols} {:?} then {}", state.history(), m.text);
            }
        }
    }
}

/// The outcome of `state` for the side to move by plain negamax over every line: `Some((true, d))` a win in `d`
/// plies at the soonest, `Some((false, d))` a loss in `d` at the latest, `None` a draw.
fn distance(game: &Connect4, state: &<Connect4 as khela_games::Game>::State) -> Option<(bool, u32)> {
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let mut best: Option<Option<(bool, u32)>> = None;
    for mv in moves {
        let child = game.child(state, mv);
        let mine = match game.node(&child) {
            Node::Terminal(0.0) => None,
            Node::Terminal(_) => Some((true, 1)),
            _ => distance(game, &child).map(|(won, d)| (!won, d + 1)),
        };
        let rank = |o: Option<(bool, u32)>| match o {
            Some((true, d)) => 1_000 - i64::from(d),
            None => 0,
            Some((false, d)) => -1_000 + i64::from(d),
        };
        if best.is_none_or(|b| rank(mine) > rank(b)) {
            best = Some(mine);
        }
    }
    best.flatten()
}

#[test]
fn connect_4_s_exact_values_say_the_plies_to_the_end_that_plain_negamax_finds() {
    let game = khela::load("connect4(width=5,height=4)").unwrap();
    let board = Connect4::new(5, 4).unwrap();
    let mut rng = Pcg::from_seed(11);
    let (mut checked, mut decisive) = (0, 0);
    while checked < 60 {
        let Some(state) = random_position(&game, 11 + rng.below(4), &mut rng) else { continue };
        let analysis = state.analyse(&Analyser::Exact).unwrap();
        for m in &analysis.moves {
            let mut child = state.clone();
            child.play(m.index).unwrap();
            let child_position = board.parse_position(&child.record().moves.concat()).unwrap();
            let expected = match board.node(&child_position) {
                Node::Terminal(0.0) => None,
                Node::Terminal(_) => Some(1),
                _ => distance(&board, &child_position).map(|(_, d)| d + 1),
            };
            assert_eq!(m.plies, expected, "{:?} move {}", state.history(), m.text);
            decisive += usize::from(expected.is_some());
        }
        checked += 1;
    }
    assert!(decisive > 100, "only {decisive} decisive moves checked");
}

/// Of a position's exact wins, the best are the quickest, and of its losses the slowest, where the plies to the
/// end are known (endgame tables value wins as 1 and losses as −1): the standard Bagh-Chal position whose wins
/// take 7 to 63 plies, as `solve --tables` found them, and a lost one.
#[test]
fn the_best_of_several_exact_wins_is_the_quickest_and_of_losses_the_slowest() {
    let moves = |values: &[(f64, Option<u32>)]| {
        values
            .iter()
            .enumerate()
            .map(|(index, &(value, plies))| khela::MoveValue {
                index,
                text: index.to_string(),
                value: Some(value),
                visits: None,
                plies,
            })
            .collect()
    };
    let won = [(1.0, Some(11)), (1.0, Some(17)), (1.0, Some(7)), (1.0, Some(63)), (0.0, None), (1.0, Some(7))];
    let analysis = Analysis { source: Source::Exact, mover: Player::Max, moves: moves(&won), complete: true };
    assert_eq!(analysis.best(), [2, 5], "the wins in 7 plies");
    // The tigers (the second player) to move: the goats' wins are their losses, the slowest the best.
    let analysis = Analysis { mover: Player::Min, ..analysis };
    assert_eq!(analysis.best(), [4], "the draw, for the side that would lose the rest");
    let lost = [(1.0, Some(3)), (1.0, Some(9)), (1.0, Some(5))];
    let analysis = Analysis { source: Source::Exact, mover: Player::Min, moves: moves(&lost), complete: true };
    assert_eq!(analysis.best(), [1], "holding out 9 plies");
}
