//! `zero eval`: a network measured against exact truth, as CSV `metric,value`, for any game a network plays,
//! by what its entry offers:
//!
//! - a game whose every position is in one small endgame (tic-tac-toe): games against perfect play, and the raw
//!   heads on every position still in play, judged by the tables solved in memory ([`whole`]);
//! - any other: games against UCT with ten times the simulations and with `--depth` against the engine
//!   ([`games`]); and the raw heads and the search judged on positions whose values are known ([`heads`]) —
//!   a benchmark file's, labelled by the game's own solver (`--set`, Connect-4's), or positions drawn from each
//!   table of the endgame (`--tables`, Bagh-Chal's sliding phase; [`drawn`]).

mod args;
mod drawn;
mod games;
mod heads;
mod whole;

pub use args::{EvalArgs, Measure};

use crate::games::{self as registry, Entry, Exact, GameArgs, NetCommand, Own};
use crate::output::{Metric, Sink, metric_table};
use anyhow::{Result, bail};
use khela::known::Known;
use khela::net::{guide, load};
use khela_zero::Encode;
use std::path::Path;

/// Runs `zero eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    let sink = Sink::new(&args.out, None)?;
    let rows = metrics(&args.game, &args.net, &args.measure)?;
    sink.emit(&rows, || metric_table(&rows).to_string())
}

/// The measurements of the network at `net` for the game of `game`.
pub fn metrics(game: &GameArgs, net: &Path, measure: &Measure) -> Result<Vec<Metric>> {
    registry::visit_net(game, "zero eval", Eval { game, net, measure })?
}

/// `zero eval` on a game's entry.
struct Eval<'a> {
    game: &'a GameArgs,
    net: &'a Path,
    measure: &'a Measure,
}

impl NetCommand for Eval<'_> {
    type Output = Result<Vec<Metric>>;

    fn visit<E: Entry>(self, entry: &E) -> Result<Vec<Metric>>
    where
        E::Game: Encode,
    {
        let Eval { game: game_args, net, measure: args } = self;
        let name: &str = game_args.game.name.into();
        let (_, start) = registry::position(entry, game_args, Some("evaluate from"))?;
        if let Some(known) = whole::tables(entry, &start)? {
            return whole::rows(entry, &known, &start, name, net, args);
        }
        let solver = match entry.exact() {
            Exact::Own(Own::Connect4(game)) => Some(game),
            _ => None,
        };
        let positions =
            if solver.is_some() { "the positions of --set" } else { "the positions drawn from each table of --tables" };
        args.need_positions(args.set.is_some() || args.tables.is_some(), positions)?;
        let opponents = games::opponents(args, args.depth, entry.plies_left(&start).0)?;
        let game = entry.game();
        let guide = guide(entry, name, net, "zero eval")?;
        // The positions are labelled first: a bad file or directory is refused before any game.
        let heads: Option<Box<dyn FnOnce() -> Result<Vec<Metric>>>> = match (&args.set, &args.tables, solver) {
            (Some(_), Some(_), _) => bail!("--set and --tables are two sources of positions: give one"),
            (Some(path), None, Some(c4)) => {
                let positions = registry::connect4_truths(&c4, path, args.limit.map(|n| n as usize))?;
                Some(Box::new(move || Ok(heads::judged(&c4, &load(&c4, name, net)?, &positions, args))))
            }
            (Some(_), None, None) => bail!(
                "--set is for Connect-4's benchmark files; {}'s positions are drawn from --tables DIR",
                entry.title()
            ),
            (None, Some(dir), _) => {
                let known = Known::load(entry, name, dir, "zero eval")?;
                let positions = drawn::positions(game, dir, &known, args.limit.unwrap_or(drawn::PER_TABLE), args.seed)?;
                Some(Box::new(move || Ok(heads::judged(game, &load(game, name, net)?, &positions, args))))
            }
            (None, None, _) => None,
        };
        let mut rows = Vec::new();
        // `--games 0` measures the heads only.
        if args.games > 0 {
            let evaluator = entry.scale().map(|scale| scale.evaluator);
            for opponent in &opponents {
                let sides = games::against(game, &start, evaluator.as_ref(), guide.as_ref(), net, opponent, args)?;
                rows.extend(sides.rows(opponent, entry.sides()));
            }
        }
        if let Some(heads) = heads {
            rows.extend(heads()?);
        }
        Ok(rows)
    }
}
