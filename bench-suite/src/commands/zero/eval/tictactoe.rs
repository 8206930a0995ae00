//! `zero eval --game tictactoe`: games with a search guided by the network against perfect play (a player that
//! picks uniformly, from the seed, among the moves that keep the exact value), as X and as O, and its raw value
//! and policy heads on every position still in play, judged by the exact values of retrograde analysis.

use super::args::Measure;
use super::heads::outcome_sign;
use crate::games::{GameArgs, GameName};
use crate::output::Metric;
use anyhow::{Result, bail};
use khela::net::load;
use khela_exact::retro::{self, Table};
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::tictactoe::{Board, TicTacToe, space::TicTacToeSpace};
use khela_games::{Game, Node, Player};
use khela_mcts::random::{Pcg, Random};
use khela_zero::eval::{Truth, judge};
use khela_zero::player::{Guided, best};
use khela_zero::{Encode, Net};
use std::collections::HashSet;
use std::path::Path;

/// The rows of `zero eval --game tictactoe`.
pub(super) fn rows(game_args: &GameArgs, net: &Path, args: &Measure) -> Result<Vec<Metric>> {
    game_args.spec()?.params.only("Tic-tac-toe", &[])?;
    if args.set.is_some() || args.limit.is_some() || args.tables.is_some() {
        bail!(
            "zero eval --game tictactoe judges all 4,520 positions still in play: it takes no --set, --tables or \
             --limit"
        );
    }
    if args.depth.is_some() {
        bail!("zero eval --game tictactoe plays perfect play, not the engine: it takes no --depth");
    }
    let net = load(&TicTacToe, GameName::Tictactoe.into(), net)?;
    let space = TicTacToeSpace::plain();
    let exact = retro::solve(&space, |_| {})?;
    let positions = truths(&exact, &space);
    let judged = judge(&TicTacToe, &net, &positions, 256);
    let guided = Guided { simulations: args.simulations, ..Guided::default() };
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for net_side in [Player::Max, Player::Min] {
        for g in 0..args.games {
            let seed = splitmix64(args.seed ^ splitmix64(g * 2 + u64::from(net_side == Player::Min)));
            let payoff = duel(&net, &exact, &space, &guided, net_side, seed);
            match (payoff * if net_side == Player::Max { 1.0 } else { -1.0 }).partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => wins += 1,
                Some(std::cmp::Ordering::Less) => losses += 1,
                _ => draws += 1,
            }
        }
    }
    Ok(vec![
        Metric::new("losses_vs_perfect", losses),
        Metric::new("draws_vs_perfect", draws),
        Metric::new("wins_vs_perfect", wins),
        Metric::new("games_vs_perfect", 2 * args.games),
        Metric::share("value_sign_accuracy", judged.value_sign_accuracy),
        Metric::share("policy_top1_optimal", judged.policy_top1_optimal),
        Metric::new("positions", judged.positions as u64),
    ])
}

/// The optimal moves of a decision node: those whose child is worst for the opponent.
fn optimal(exact: &Table, space: &TicTacToeSpace, board: &Board) -> Vec<u8> {
    let mut moves = Vec::new();
    TicTacToe.moves(board, &mut moves);
    let value = |mv: u8| {
        let child = TicTacToe.child(board, mv);
        -outcome_sign(exact.outcome(space, &child).expect("every position is in the table"))
    };
    let top = moves.iter().map(|&mv| value(mv)).max().expect("a decision node has moves");
    moves.into_iter().filter(|&mv| value(mv) == top).collect()
}

/// Every position reachable from the empty board and still in play, with its truth (4,520 of them).
fn truths(exact: &Table, space: &TicTacToeSpace) -> Vec<(Board, Truth)> {
    let (mut seen, mut stack, mut out) = (HashSet::new(), vec![Board::EMPTY], Vec::new());
    let mut moves = Vec::new();
    while let Some(board) = stack.pop() {
        if !seen.insert(board) || !matches!(TicTacToe.node(&board), Node::Decision(_)) {
            continue;
        }
        let sign = outcome_sign(exact.outcome(space, &board).expect("every position is in the table"));
        let optimal = optimal(exact, space, &board).into_iter().map(|mv| TicTacToe.action(mv)).collect();
        out.push((board, Truth { sign, optimal }));
        TicTacToe.moves(&board, &mut moves);
        stack.extend(moves.iter().map(|&mv| TicTacToe.child(&board, mv)));
    }
    out.sort_by_key(|(board, _)| TicTacToe.key(board));
    out
}

/// A game of the network (as `net_side`) against perfect play; the payoff, MAX's view.
fn duel(net: &Net, exact: &Table, space: &TicTacToeSpace, guided: &Guided, net_side: Player, seed: u64) -> f64 {
    let mut line = Line::new(&TicTacToe, Board::EMPTY);
    let mut rng = Pcg::from_seed(seed);
    loop {
        if let Some(end) = line.end(&TicTacToe) {
            return end.payoff();
        }
        let board = *line.state();
        let mv = if board.to_move() == net_side {
            best(&TicTacToe, net, &board, line.history(), guided, seed)
        } else {
            let choices = optimal(exact, space, &board);
            choices[rng.below(choices.len())]
        };
        line.play(&TicTacToe, mv);
    }
}
