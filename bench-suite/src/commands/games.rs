//! `games`: the games the harness knows, how their positions are written, and what each command can do with
//! them — the registry, printed.

use crate::games::{self, Capability, Entry, GameArgs, GameName, Visit};
use crate::output::{self, OutArg, Sink};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use strum::VariantArray;

/// Options of `games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// One game of the registry.
#[derive(Serialize)]
struct Row {
    game: &'static str,
    positions: &'static str,
    start: String,
    evaluator: String,
    commands: String,
}

/// Runs `games`.
pub fn run(args: &GamesArgs) -> Result<()> {
    let mut rows = Vec::new();
    for &game in GameName::VARIANTS {
        let game_args = GameArgs::of(game);
        rows.push(games::visit(&game_args, Describe(game))?);
    }
    Sink::new(&args.out, None)?.emit(&rows, || {
        let mut table = output::table(&["game", "positions", "start", "evaluator", "commands"]);
        for row in &rows {
            table.add_row(vec![row.game, row.positions, &row.start, &row.evaluator, &row.commands]);
        }
        format!("The games every command takes with --game (and --position in the game's notation)\n{table}")
    })
}

/// A game's row.
struct Describe(GameName);

impl Visit for Describe {
    type Output = Row;

    fn visit<E: Entry>(self, entry: E) -> Row {
        let game = self.0;
        let has = |capability| games::with(capability).contains(&game.into());
        let mut commands = Vec::new();
        if has(Capability::Exact) {
            commands.push("solve");
        }
        if has(Capability::Evaluator) {
            commands.extend(["solve --depth", "eval", "mcts --prior evaluator"]);
        }
        if has(Capability::Theory) {
            commands.push("solve --check-xor");
        }
        if has(Capability::Tally) {
            commands.push("count");
        }
        if has(Capability::PerPly) {
            commands.push("count --depth");
        }
        // Every game is played by every player that needs no more than its rules (Monte Carlo, random).
        commands.extend(["mcts", "play", "match"]);
        if has(Capability::Network) {
            commands.push("zero");
        }
        if has(Capability::Retro) {
            commands.extend(["retro", "solve/mcts/play/match --tables"]);
        }
        if has(Capability::Placement) {
            commands.push("retro --phase placement");
        }
        Row {
            game: game.into(),
            positions: entry.notation(),
            start: entry
                .start()
                .map_or(format!("none: give {}", entry.position_flag()), |text| entry.name_position(&text)),
            evaluator: entry.scale().map_or_else(String::new, |scale| scale.about.to_string()),
            commands: commands.join(", "),
        }
    }
}
