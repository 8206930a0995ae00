//! A network of a game whose every position is in one endgame small enough to solve in memory (tic-tac-toe's
//! 765 classes): its search with `--simulations` against perfect play (a player that picks uniformly, from the
//! seed, among the moves that keep the exact outcome), `--games` as each side, and its raw value and policy
//! heads on every position still in play reachable from the start, judged by the tables.

use super::args::Measure;
use super::heads::{BATCH, outcome_sign};
use crate::games::{Entry, Scope};
use crate::output::Metric;
use anyhow::{Result, bail};
use khela::known::Known;
use khela::net::load;
use khela_exact::retro;
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::{Game, Node, Player};
use khela_mcts::random::{Pcg, Random};
use khela_zero::eval::{Truth, judge};
use khela_zero::player::{Guided, best};
use khela_zero::{Encode, Net};
use std::collections::HashSet;
use std::path::Path;

/// The most numbers of an endgame solved in memory for judging a network on the whole game.
const IN_MEMORY: u64 = 1 << 20;

/// The tables of the entry's whole game, solved in memory, where one small endgame holds `start` (and so every
/// position after it); `None` for a game judged otherwise.
pub(super) fn tables<E: Entry>(entry: &E, start: &<E::Game as Game>::State) -> Result<Option<Known<E::Game>>> {
    let Some(endgame) = entry.endgame(&Scope::default()) else { return Ok(None) };
    let endgame = endgame?;
    if (endgame.plies_to)(start) != Some(0) || endgame.space.len() > IN_MEMORY {
        return Ok(None);
    }
    let table = retro::solve(&*endgame.space, |_| {})?;
    Ok(Some(Known { endgame, table, before: None, missing: Vec::new() }))
}

/// The rows of the network at `net` judged by `known`, the tables of the whole game of `entry` (named `name`),
/// from `start`: its games against perfect play, then its heads on every position in play.
pub(super) fn rows<E: Entry>(
    entry: &E,
    known: &Known<E::Game>,
    start: &<E::Game as Game>::State,
    name: &str,
    net: &Path,
    args: &Measure,
) -> Result<Vec<Metric>>
where
    E::Game: Encode,
{
    let title = entry.title();
    if args.set.is_some() || args.limit.is_some() || args.tables.is_some() {
        bail!("zero eval judges every position of {title} still in play: it takes no --set, --tables or --limit");
    }
    if args.depth.is_some() {
        bail!("zero eval plays {title} against perfect play, not the engine: it takes no --depth");
    }
    let game = entry.game();
    let net = load(game, name, net)?;
    let positions = truths(game, known, start);
    let judged = judge(game, &net, &positions, BATCH);
    let guided = Guided { simulations: args.simulations, ..Guided::default() };
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for net_side in [Player::Max, Player::Min] {
        for g in 0..args.games {
            let seed = splitmix64(args.seed ^ splitmix64(g * 2 + u64::from(net_side == Player::Min)));
            let payoff = duel(game, &net, known, start, &guided, net_side, seed);
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

/// The moves of a decision node that keep its outcome's sign for the side to move, in the game's order.
fn optimal<G: Game>(known: &Known<G>, state: &G::State) -> Vec<G::Move> {
    let moves = known.moves(state).expect("the tables hold every position of the game");
    let top = moves.iter().map(|&(_, o)| outcome_sign(o)).max().expect("a decision node has moves");
    moves.into_iter().filter(|&(_, o)| outcome_sign(o) == top).map(|(mv, _)| mv).collect()
}

/// Every position reachable from `start` and still in play, with its truth, in the order of their keys.
fn truths<G: Encode>(game: &G, known: &Known<G>, start: &G::State) -> Vec<(G::State, Truth)> {
    let (mut seen, mut stack, mut out) = (HashSet::new(), vec![start.clone()], Vec::new());
    let mut moves = Vec::new();
    while let Some(state) = stack.pop() {
        if !seen.insert(game.key(&state)) || !matches!(game.node(&state), Node::Decision(_)) {
            continue;
        }
        let sign = outcome_sign(known.outcome(&state).expect("the tables hold every position of the game"));
        let optimal = optimal(known, &state).into_iter().map(|mv| game.action(mv)).collect();
        game.moves(&state, &mut moves);
        stack.extend(moves.iter().map(|&mv| game.child(&state, mv)));
        out.push((state, Truth { sign, optimal }));
    }
    out.sort_by_key(|(state, _)| game.key(state));
    out
}

/// A game of the network (as `net_side`) against perfect play from `start`; the payoff, MAX's view.
fn duel<G: Encode>(
    game: &G,
    net: &Net,
    known: &Known<G>,
    start: &G::State,
    guided: &Guided,
    net_side: Player,
    seed: u64,
) -> f64 {
    let mut line = Line::new(game, start.clone());
    let mut rng = Pcg::from_seed(seed);
    loop {
        if let Some(end) = line.end(game) {
            return end.payoff();
        }
        let state = line.state().clone();
        let Node::Decision(mover) = game.node(&state) else { unreachable!("a game of the whole tables has no dice") };
        let mv = if mover == net_side {
            best(game, net, &state, line.history(), guided, seed)
        } else {
            let choices = optimal(known, &state);
            choices[rng.below(choices.len())]
        };
        line.play(game, mv);
    }
}
