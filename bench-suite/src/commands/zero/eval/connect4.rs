//! `zero eval --game connect4`: the network's search (`--simulations`) against UCT with ten times as many
//! iterations (and with `--depth` against the engine), `--games` as each colour ([`super::games`]); and with
//! `--set FILE`, on the set's positions, the raw heads and the search judged by the exact solver — the
//! share whose value's sign matches the exact score's, and whose top move is optimal (keeps the position's win,
//! draw or loss).

use super::args::Measure;
use super::games::{against, opponents};
use super::heads::judged;
use crate::games::{Entry, GameArgs, GameName};
use crate::output::Metric;
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use khela::games::connect4::Connect4Entry;
use khela::net::{guide, load};
use khela_exact::connect4::Solver;
use khela_games::connect4::{Connect4, Position, benchmark};
use khela_zero::Encode;
use khela_zero::eval::Truth;
use std::path::Path;

/// The transposition table of the solver that labels `--set`'s positions, MiB.
const SOLVER_MIB: usize = 64;

/// The rows of `zero eval --game connect4`.
pub(super) fn rows(game_args: &GameArgs, net: &Path, args: &Measure) -> Result<Vec<Metric>> {
    if game_args.position.is_some() {
        bail!(
            "zero eval --game connect4 plays from the empty board and judges --set's positions: it takes no --position"
        );
    }
    if args.tables.is_some() {
        bail!("--tables is for Bagh-Chal's sliding phase; Connect-4's positions are judged on --set");
    }
    args.need_positions(args.set.is_some(), "the positions of --set")?;
    let entry = Connect4Entry::new(&game_args.spec()?)?;
    let opponents = opponents(args, args.depth, entry.plies_left(&Position::EMPTY).0)?;
    let game = entry.game();
    let name: &str = GameName::Connect4.into();
    let guide = guide(&entry, name, net, "zero eval")?;
    // The set's positions are labelled first: a bad file is refused before any game is played.
    let positions = args.set.as_deref().map(|path| labelled(game, path, args.limit)).transpose()?;
    let mut rows = Vec::new();
    // `--games 0` measures the heads on `--set` only.
    if args.games > 0 {
        let evaluator = entry.scale().map(|scale| scale.evaluator);
        for opponent in &opponents {
            let sides = against(game, &Position::EMPTY, evaluator.as_ref(), guide.as_ref(), net, opponent, args)?;
            rows.extend(sides.rows(opponent, ["first", "second"]));
        }
    }
    if let Some(positions) = positions {
        rows.extend(judged(game, &load(game, name, net)?, &positions, args));
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
