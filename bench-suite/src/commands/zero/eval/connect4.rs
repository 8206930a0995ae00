//! `zero eval --game connect4`: the network's search (`--simulations`) against UCT with ten times as many
//! iterations, `--games` as each colour, each pair of games from the same seeded opening of two random plies;
//! and with `--set FILE`, on the set's positions, the raw heads and the search judged by the exact solver — the
//! share whose value's sign matches the exact score's, and whose top move is optimal (keeps the position's win,
//! draw or loss).

use super::args::Measure;
use crate::games::{Entry, GameArgs, GameName, connect4::Connect4Entry};
use crate::net::{Guide, guide, load};
use crate::output::Metric;
use crate::players::{Contender, Seat, play_out};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use khela_exact::connect4::Solver;
use khela_games::connect4::{Connect4, Position, benchmark};
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::{Game, NoEvaluator};
use khela_mcts::random::{Pcg, Random};
use khela_zero::Encode;
use khela_zero::eval::{Truth, judge, sign_of};
use khela_zero::player::{Guided, search};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// UCT's iterations for each of the network's simulations.
const UCT_FACTOR: u32 = 10;

/// Random plies of each pair of games' opening.
const OPENING: u32 = 2;

/// The most simulations of the network an evaluation may ask for against UCT (which runs ten times as many
/// iterations): about 120 times the 100 games as each colour of 200 simulations (8.4e5 at most, 2.3
/// minutes here), some hours.
const MAX_SIMULATIONS: f64 = 1e8;

/// The transposition table of the solver that labels `--set`'s positions, MiB.
const SOLVER_MIB: usize = 64;

/// The rows of `zero eval --game connect4`.
pub(super) fn rows(game_args: &GameArgs, net: &Path, args: &Measure) -> Result<Vec<Metric>> {
    if args.limit.is_some() && args.set.is_none() {
        bail!("--limit counts the positions of --set, which is not given");
    }
    if args.games == 0 && args.set.is_none() {
        bail!("--games 0 plays no game: it measures the heads on the positions of --set, which is not given");
    }
    // A game of Connect-4 lasts at most 21 moves a side.
    let simulations = (2 * args.games * 21) as f64 * f64::from(args.simulations);
    if simulations > MAX_SIMULATIONS {
        bail!(
            "--games {} with --simulations {} asks for up to {simulations:.1e} simulations of the network and \
             {:.1e} iterations of UCT; at most {MAX_SIMULATIONS:.0e} simulations",
            args.games,
            args.simulations,
            simulations * f64::from(UCT_FACTOR)
        );
    }
    let entry = Connect4Entry::new(game_args)?;
    let game = entry.game();
    let name: &str = GameName::Connect4.into();
    let guide = guide(game, name, net)?;
    // The set's positions are labelled first: a bad file is refused before any game is played.
    let positions = args.set.as_deref().map(|path| labelled(game, path, args.limit)).transpose()?;
    let mut rows = Vec::new();
    // `--games 0` measures the heads on `--set` only.
    if args.games > 0 {
        let (wins, draws, losses) = against_uct(game, net, guide.as_ref(), args);
        let games = 2 * args.games;
        rows.extend([
            Metric::new("wins_vs_uct", wins),
            Metric::new("draws_vs_uct", draws),
            Metric::new("losses_vs_uct", losses),
            Metric::new("games_vs_uct", games),
            Metric::new("uct_iterations", u64::from(args.simulations * UCT_FACTOR)),
            Metric::share("winrate_vs_uct", (wins as f64 + draws as f64 / 2.0) / games as f64),
        ]);
    }
    if let Some(positions) = positions {
        let net = load(game, name, net)?;
        let raw = judge(game, &net, &positions, 256);
        let guided = Guided { simulations: args.simulations, ..Guided::default() };
        let (signs, tops) = positions
            .par_iter()
            .map(|(p, truth)| {
                let outcome = search(game, &net, p, &[], &guided, args.seed);
                let (wins, visits) = outcome.stats.iter().fold((0.0, 0), |(w, v), s| (w + s.wins, v + s.visits));
                let value = 2.0 * wins / visits.max(1) as f64 - 1.0;
                let top = outcome.best.is_some_and(|mv| truth.optimal.contains(&game.action(mv)));
                (usize::from(sign_of(value as f32) == truth.sign), usize::from(top))
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let n = positions.len().max(1) as f64;
        rows.extend([
            Metric::new("positions", positions.len() as u64),
            Metric::share("value_sign_accuracy", raw.value_sign_accuracy),
            Metric::share("policy_top1_optimal", raw.policy_top1_optimal),
            Metric::share("search_value_sign_accuracy", signs as f64 / n),
            Metric::share("search_top1_optimal", tops as f64 / n),
        ]);
    }
    Ok(rows)
}

/// The positions of the benchmark file at `path` (the first `limit`), each with its exact truth, checked against
/// the file's score.
fn labelled(game: &Connect4, path: &Path, limit: Option<u64>) -> Result<Vec<(Position, Truth)>> {
    let mut scored = benchmark::read(path)?;
    scored.truncate(limit.map_or(usize::MAX, |n| n as usize));
    let mut solver = Solver::new(game, SOLVER_MIB)?;
    let bar = Progress::new("zero eval", scored.len() as u64, 0);
    let mut positions = Vec::with_capacity(scored.len());
    for (i, line) in scored.iter().enumerate() {
        let where_ = || format!("--set {}:{}", path.display(), i + 1);
        let p = game.parse(&line.moves).with_context(where_)?;
        let truth = truth(game, &mut solver, &p).with_context(where_)?;
        if truth.sign != line.score.signum() as i8 {
            bail!("{}: the solver's value has sign {}, the file's score is {}", where_(), truth.sign, line.score);
        }
        positions.push((p, truth));
        bar.update(i as u64 + 1, scored.len() as u64, || format!("{}/{} positions solved", i + 1, scored.len()));
    }
    bar.finish();
    Ok(positions)
}

/// The exact truth of `p`, a position in play: its value's sign for the side to move and the moves that keep
/// it.
fn truth(game: &Connect4, solver: &mut Solver<'_>, p: &Position) -> Result<Truth> {
    let Some(moves) = solver.analyse(p, true) else { bail!("the game is over") };
    let sign = moves.iter().map(|(_, s)| s.score.signum()).max().expect("a position in play has moves");
    let optimal = moves.iter().filter(|(_, s)| s.score.signum() == sign).map(|&(col, _)| game.action(col)).collect();
    Ok(Truth { sign: sign as i8, optimal })
}

/// Games of the network at `net` (loaded as `guide`) against UCT, `args.games` as each colour: its wins, draws
/// and losses.
fn against_uct(game: &Connect4, net: &Path, guide: &dyn Guide<Position, u8>, args: &Measure) -> (u64, u64, u64) {
    let total = 2 * args.games;
    let net = Contender::Net(net.to_path_buf(), args.simulations);
    let uct = Contender::Mcts(u64::from(args.simulations * UCT_FACTOR));
    let bar = Progress::new("zero eval", total, 0);
    let done = AtomicU64::new(0);
    let results: Vec<f64> = (0..total)
        .into_par_iter()
        .map(|g| {
            // The two games of a pair share the opening; each game's players have their own seeds.
            let opening = splitmix64(args.seed ^ splitmix64(g / 2));
            let seed = splitmix64(opening ^ splitmix64(g + 1));
            let result = duel(game, guide, [&net, &uct], g % 2 == 0, opening, seed);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.update(n, total, || format!("{n}/{total} games against UCT"));
            result
        })
        .collect();
    bar.finish();
    let count = |f: fn(f64) -> bool| results.iter().filter(|&&r| f(r)).count() as u64;
    (count(|r| r > 0.0), count(|r| r == 0.0), count(|r| r < 0.0))
}

/// A game of the network's search (`players[0]`, with `guide`; first if `net_first`) against UCT (`players[1]`)
/// after the opening drawn from `opening`: its result for the network, 1 a win, 0 a draw, −1 a loss.
fn duel(
    game: &Connect4,
    guide: &dyn Guide<Position, u8>,
    [net, uct]: [&Contender; 2],
    net_first: bool,
    opening: u64,
    seed: u64,
) -> f64 {
    let mut line = Line::new(game, Position::EMPTY);
    let mut rng = Pcg::from_seed(opening);
    let mut moves = Vec::new();
    for _ in 0..OPENING {
        game.moves(line.state(), &mut moves);
        line.play(game, moves[rng.below(moves.len())]);
    }
    let seat = |contender: &Contender, guide, seed| {
        Seat::<'_, Connect4, NoEvaluator>::new(game, None, contender, guide, 1, seed)
            .expect("a seat needs nothing else")
    };
    let (net_seat, uct_seat) = (seat(net, Some(guide), seed), seat(uct, None, seed ^ 1));
    let mut seats = if net_first { [net_seat, uct_seat] } else { [uct_seat, net_seat] };
    let (end, _) = play_out(game, &mut line, &mut seats, &mut rng, |_| {});
    let payoff = end.payoff() * if net_first { 1.0 } else { -1.0 };
    payoff.signum() * f64::from(payoff != 0.0)
}
