//! The network judged on positions whose exact values are known: its raw heads (the value's sign, the policy's
//! top move) and its search with `--simulations` (the root's mean value's sign, the move chosen).

use super::args::Measure;
use crate::output::Metric;
use khela_exact::retro::Outcome;
use khela_zero::eval::{Truth, judge, sign_of};
use khela_zero::player::{Guided, search};
use khela_zero::{Encode, Net};
use rayon::prelude::*;

/// The positions judged at a forward pass of the raw heads.
pub(super) const BATCH: usize = 256;

/// The rows of the network `net` judged on `positions` of `game`: their count, the raw heads' shares of right
/// value signs and optimal top moves, and the search's.
pub(super) fn judged<G: Encode + Sync>(
    game: &G,
    net: &Net,
    positions: &[(G::State, Truth)],
    args: &Measure,
) -> Vec<Metric>
where
    G::State: Sync,
{
    let raw = judge(game, net, positions, BATCH);
    let guided = Guided { simulations: args.simulations, ..Guided::default() };
    let (signs, tops) = positions
        .par_iter()
        .map(|(p, truth)| {
            let outcome = search(game, net, p, &[], &guided, args.seed);
            let (wins, visits) = outcome.stats.iter().fold((0.0, 0), |(w, v), s| (w + s.wins, v + s.visits));
            let value = 2.0 * wins / visits.max(1) as f64 - 1.0;
            let top = outcome.best.is_some_and(|mv| truth.optimal.contains(&game.action(mv)));
            (usize::from(sign_of(value as f32) == truth.sign), usize::from(top))
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = positions.len().max(1) as f64;
    vec![
        Metric::new("positions", positions.len() as u64),
        Metric::share("value_sign_accuracy", raw.value_sign_accuracy),
        Metric::share("policy_top1_optimal", raw.policy_top1_optimal),
        Metric::share("search_value_sign_accuracy", signs as f64 / n),
        Metric::share("search_top1_optimal", tops as f64 / n),
    ]
}

/// The sign of a value the tables of retrograde analysis give, for the side to move: 1 a win, 0 a draw, −1 a
/// loss.
pub(super) fn outcome_sign(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Win(_) => 1,
        Outcome::Loss(_) => -1,
        Outcome::Draw => 0,
    }
}
