//! Root parallelism: independent searches of one position, one tree each, their root statistics summed.

use crate::meter::Meter;
use crate::policy::Policy;
use crate::random::Random;
use crate::search::{MctsConfig, Search};
use crate::stats::{MoveStats, RunSummary};
use khela_games::{Game, Node as Kind};

/// Root parallelism: `trees` independent searches from `state`, tree `k` seeded with `config.seed + k`, with the
/// policy and share of `iterations` that [`Policy::split`] gives it, run on the current rayon pool; their root
/// statistics are summed move by move. The result depends on `trees`, never on the number of threads. Returns
/// the merged statistics, in natural move order, and the summed summary.
pub fn root_parallel<G, P, R>(
    game: &G,
    state: &G::State,
    policy: &P,
    config: &MctsConfig,
    trees: usize,
    iterations: u64,
) -> (Vec<MoveStats<G::Move>>, RunSummary)
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
    P: Policy<G> + Clone + Send + Sync,
    R: Random,
{
    root_parallel_metered::<G, P, R>(game, state, policy, config, trees, iterations, None)
}

/// [`root_parallel`], counting each iteration of every tree on `meter` (if any) as it runs, and stopping when
/// it is stopped.
pub(crate) fn root_parallel_metered<G, P, R>(
    game: &G,
    state: &G::State,
    policy: &P,
    config: &MctsConfig,
    trees: usize,
    iterations: u64,
    meter: Option<&Meter>,
) -> (Vec<MoveStats<G::Move>>, RunSummary)
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
    P: Policy<G> + Clone + Send + Sync,
    R: Random,
{
    use rayon::prelude::*;
    let runs: Vec<_> = policy
        .split(iterations, trees.max(1))
        .into_par_iter()
        .enumerate()
        .map(|(k, (policy, iterations))| {
            let config = MctsConfig { seed: config.seed.wrapping_add(k as u64), ..*config };
            let search: Search<'_, G, P, R> = Search::new(game, state.clone(), policy, config);
            let mut search = match meter {
                Some(meter) => search.metered(meter),
                None => search,
            };
            let summary = search.run(iterations);
            (search.stats(), summary)
        })
        .collect();
    let mut merged: Vec<MoveStats<G::Move>> = Vec::new();
    let mut summary = RunSummary::default();
    for (stats, run) in runs {
        summary.iterations += run.iterations;
        summary.nodes += run.nodes;
        summary.refused += run.refused;
        for s in stats {
            match merged.iter_mut().find(|m| m.mv == s.mv) {
                Some(m) => {
                    m.visits += s.visits;
                    m.wins += s.wins;
                    m.proof = m.proof.or(s.proof);
                }
                None => merged.push(s),
            }
        }
    }
    // Back to natural order: a tree may have expanded a move that an earlier one had not.
    let mut moves = Vec::new();
    if let Kind::Decision(_) = game.node(state) {
        game.moves(state, &mut moves);
        merged.sort_by_key(|s| moves.iter().position(|&m| m == s.mv));
    }
    (merged, summary)
}
