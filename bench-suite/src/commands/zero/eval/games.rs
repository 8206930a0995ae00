//! `zero eval`'s games: the network's search against an opponent (UCT with ten times the simulations, or the
//! engine to a depth), `--games` with the network as each side, each pair of games from the same seeded opening
//! of two random plies, and the rows that report them.

use super::args::Measure;
use crate::output::Metric;
use crate::progress::Progress;
use anyhow::{Result, bail};
use khela::net::Guide;
use khela::players::{Contender, Seat, play_out};
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::{Evaluator, Game};
use khela_mcts::random::{Pcg, Random};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// UCT's iterations for each of the network's simulations.
const UCT_FACTOR: u32 = 10;

/// Random plies of each pair of games' opening.
const OPENING: u32 = 2;

/// The most simulations of the network an evaluation may ask for in its games: about 120 times the 100
/// games of Connect-4 as each colour of 200 simulations (8.4e5 at most), some hours (measured: see
/// docs/src/measured-choices.md, 'The harness').
const MAX_SIMULATIONS: f64 = 1e8;

/// The opponents of the network's games: UCT with [`UCT_FACTOR`] times its simulations, and with `depth` the
/// engine to that depth; refused, with the estimate, when they would ask for more than [`MAX_SIMULATIONS`] of
/// the network in games of at most `plies` plies.
pub(super) fn opponents(args: &Measure, depth: Option<u32>, plies: u32) -> Result<Vec<Contender>> {
    if args.games == 0 && depth.is_some() {
        bail!("--depth plays games against the engine, and --games 0 plays none");
    }
    let mut opponents = vec![Contender::Mcts(u64::from(args.simulations * UCT_FACTOR))];
    opponents.extend(depth.map(Contender::Engine));
    // Against each opponent: the network's moves of its games, at most half the plies of each.
    let against_one = (2 * args.games * u64::from(plies.div_ceil(2))) as f64 * f64::from(args.simulations);
    let simulations = against_one * opponents.len() as f64;
    if simulations > MAX_SIMULATIONS {
        bail!(
            "--games {} with --simulations {} asks for up to {simulations:.1e} simulations of the network (and \
             {:.1e} iterations of UCT); at most {MAX_SIMULATIONS:.0e} simulations",
            args.games,
            args.simulations,
            against_one * f64::from(UCT_FACTOR)
        );
    }
    Ok(opponents)
}

/// The network's results against one opponent, by its side: `[as MAX, as MIN]`, each `[wins, draws, losses]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Sides([[u64; 3]; 2]);

impl Sides {
    /// The tally of games, each whether the network was MAX and its payoff for the network.
    fn tally(games: impl IntoIterator<Item = (bool, f64)>) -> Sides {
        let mut sides = Sides::default();
        for (net_max, payoff) in games {
            let result = if payoff > 0.0 {
                0
            } else if payoff == 0.0 {
                1
            } else {
                2
            };
            sides.0[usize::from(!net_max)][result] += 1;
        }
        sides
    }

    /// The rows of the games against `opponent` (`uct`, `engine`), the sides named `sides` (MAX's, MIN's):
    /// wins, draws, losses and games, the opponent's budget, the win rate (a draw half a win), then the win rate
    /// as each side.
    pub(super) fn rows(&self, opponent: &Contender, sides: [&'static str; 2]) -> Vec<Metric> {
        let [wins, draws, losses] = [0, 1, 2].map(|k| self.0[0][k] + self.0[1][k]);
        let rate = |[w, d, l]: [u64; 3]| (w as f64 + d as f64 / 2.0) / (w + d + l).max(1) as f64;
        let (name, budget) = match opponent {
            Contender::Engine(depth) => ("engine", Metric::new("engine_depth", depth)),
            Contender::Mcts(iterations) => ("uct", Metric::new("uct_iterations", iterations)),
            _ => unreachable!("the network plays UCT and the engine"),
        };
        let named = |what: &str| format!("{what}_vs_{name}");
        let mut rows = vec![
            Metric::new(named("wins"), wins),
            Metric::new(named("draws"), draws),
            Metric::new(named("losses"), losses),
            Metric::new(named("games"), wins + draws + losses),
            budget,
            Metric::share(named("winrate"), rate([wins, draws, losses])),
        ];
        for (side, results) in sides.iter().zip(self.0) {
            rows.push(Metric::share(format!("winrate_vs_{name}_as_{side}"), rate(results)));
        }
        rows
    }
}

/// Games of the network at `net` (loaded as `guide`, seated with `simulations`) against `opponent` from `start`,
/// `args.games` as each side, on the rayon pool; `evaluator` is the engine's.
pub(super) fn against<G, E>(
    game: &G,
    start: &G::State,
    evaluator: Option<&E>,
    guide: &dyn Guide<G::State, G::Move>,
    net: &Path,
    opponent: &Contender,
    args: &Measure,
) -> Result<Sides>
where
    G: Game + Sync,
    G::State: Sync,
    E: Evaluator<G> + Sync,
{
    let total = 2 * args.games;
    let net = Contender::Net(net.to_path_buf(), args.simulations);
    let bar = Progress::new("zero eval", total, 0);
    let done = AtomicU64::new(0);
    let results = (0..total)
        .into_par_iter()
        .map(|g| {
            // The two games of a pair share the opening; each game's players have their own seeds.
            let opening = splitmix64(args.seed ^ splitmix64(g / 2));
            let seed = splitmix64(opening ^ splitmix64(g + 1));
            let net_max = g % 2 == 0;
            let payoff = duel(game, start, evaluator, guide, [&net, opponent], net_max, [opening, seed])?;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.update(n, total, || format!("{n}/{total} games against {opponent}"));
            Ok((net_max, payoff))
        })
        .collect::<Result<Vec<_>>>()?;
    bar.finish();
    Ok(Sides::tally(results))
}

/// A game of the network's search (`players[0]`, with `guide`; MAX if `net_max`) against the opponent
/// (`players[1]`) from `start`, after the opening drawn from `seeds[0]`, the players' own choices from
/// `seeds[1]`: its payoff for the network.
fn duel<G, E>(
    game: &G,
    start: &G::State,
    evaluator: Option<&E>,
    guide: &dyn Guide<G::State, G::Move>,
    [net, opponent]: [&Contender; 2],
    net_max: bool,
    [opening, seed]: [u64; 2],
) -> Result<f64>
where
    G: Game + Sync,
    G::State: Sync,
    E: Evaluator<G> + Sync,
{
    let mut line = Line::new(game, start.clone());
    let mut rng = Pcg::from_seed(opening);
    let mut moves = Vec::new();
    for _ in 0..OPENING {
        if line.end(game).is_some() {
            break;
        }
        game.moves(line.state(), &mut moves);
        line.play(game, moves[rng.below(moves.len())]);
    }
    let net_seat = Seat::new(game, evaluator, net, Some(guide), 1, seed)?;
    let opponent_seat = Seat::new(game, evaluator, opponent, None, 16, seed ^ 1)?;
    let mut seats = if net_max { [net_seat, opponent_seat] } else { [opponent_seat, net_seat] };
    let (end, _) = play_out(game, &mut line, &mut seats, &mut rng, |_| {})?;
    Ok(end.payoff() * if net_max { 1.0 } else { -1.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each game counts for the side the network played, by the sign of its payoff; the rows name the sides
    /// and give each side's win rate, a draw half a win.
    #[test]
    fn games_are_tallied_by_the_network_s_side() {
        let games = [(true, 1.0), (true, 0.5), (true, 0.0), (false, -1.0), (false, -0.25), (false, 0.0), (false, 1.0)];
        let sides = Sides::tally(games);
        assert_eq!(sides, Sides([[2, 1, 0], [1, 1, 2]]));
        let rows = sides.rows(&Contender::Engine(3), ["goats", "tigers"]);
        let rows: Vec<(String, String)> = rows.iter().map(|m| (m.name().to_string(), m.value().to_string())).collect();
        let expected = [
            ("wins_vs_engine", "3"),
            ("draws_vs_engine", "2"),
            ("losses_vs_engine", "2"),
            ("games_vs_engine", "7"),
            ("engine_depth", "3"),
            ("winrate_vs_engine", "0.5714"),
            ("winrate_vs_engine_as_goats", "0.8333"),
            ("winrate_vs_engine_as_tigers", "0.3750"),
        ];
        assert_eq!(rows, expected.map(|(m, v)| (m.to_string(), v.to_string())));
    }
}
