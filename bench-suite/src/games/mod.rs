//! The games on the command line: `--game` and the options that spell a game's parameters ([`GameArgs`]),
//! turned into the `khela` library's game string ([`khela::Spec`]), and the command-line side of the games' own
//! solvers (a module a solver: [`connect4`], [`nim`], [`pig`]), which show what they find as rows and tables.
//! Everything else a command knows of a game comes from the library's registry ([`khela::registry`]).

mod connect4;
mod nim;
mod pig;
mod runs;

pub use khela::registry::{
    Capability, Entry, Exact, Family, GameName, NetCommand, Own, Published, Scope, Spec, View, Visit, outcome, refuse,
    with,
};

use crate::names::describe;
use crate::output::OutArg;
use anyhow::{Result, bail};
use clap::Args;
use clap::builder::{PossibleValue, TypedValueParser};
pub use connect4::truths as connect4_truths;
use khela_games::{Game, Notation};
pub use runs::{OwnSolve, SetRun};
use strum::VariantArray;

/// Which game, which position, and the game's parameters: what every command that plays a game takes.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game, with its parameters if any: a name (see the games command), or a game string like
    /// connect4(width=8,height=7), bagh-chal(rules=bagh-bandi), sixteen-soldiers(rules=optional,quiet-limit=40),
    /// pig(goal=50), einstein(setup=123456/123456). The options below spell the same parameters.
    #[arg(long, value_name = "GAME", value_parser = game_string())]
    pub game: Spec,
    /// The position, in the game's notation (see --game) [default: the game's start].
    #[arg(long, visible_alias = "heaps")]
    pub position: Option<String>,
    /// The board's width, for games played on boards of several sizes (Connect-4): the parameter width.
    #[arg(long)]
    pub width: Option<u32>,
    /// The board's height, for games played on boards of several sizes (Connect-4): the parameter height.
    #[arg(long)]
    pub height: Option<u32>,
    /// The rules, for games played by several (Bagh-Chal: bagh-chal or bagh-bandi, then keys
    /// size=N,tigers=P+P,goats=N,stacks=P:N+P:N,first=goats|tigers,captures=N; Sixteen Soldiers: compulsory,
    /// optional, continue): the parameter rules [default: the game's standard].
    #[arg(long)]
    pub rules: Option<String>,
    /// Sixteen Soldiers' tournament rule: after this many plies without a capture the game ends and the side
    /// with more pieces wins: the parameter quiet-limit [default: no such rule].
    #[arg(long)]
    pub quiet_limit: Option<u16>,
    /// The score that wins, for racing games (Pig: 100 by default, Piglet: 10; 1 to 1000): the parameter goal.
    #[arg(long)]
    pub goal: Option<u32>,
    /// The cubes' arrangement, for EinStein: FIRST/SECOND, six digits each, the cube numbers on the first
    /// player's a1 b1 a2 c1 b2 a3 and the second's e5 e4 d5 e3 d4 c5 (like 123456/123456), or random:N, the
    /// setup drawn from seed N: the parameter setup [default: random:0; match and play draw a setup a game from
    /// their seed].
    #[arg(long, value_name = "SETUP")]
    pub setup: Option<String>,
}

impl GameArgs {
    /// The default options of `game`, at its start.
    pub fn of(game: GameName) -> GameArgs {
        GameArgs {
            game: Spec::of(game),
            position: None,
            width: None,
            height: None,
            rules: None,
            quiet_limit: None,
            goal: None,
            setup: None,
        }
    }

    /// The game string these options give: `--game`'s, with the parameters the other options spell added (the
    /// same parameter given both ways must have one value).
    pub fn spec(&self) -> Result<Spec> {
        let mut spec = self.game.clone();
        let options = [
            ("width", self.width.map(|w| w.to_string())),
            ("height", self.height.map(|h| h.to_string())),
            ("rules", self.rules.clone()),
            ("quiet-limit", self.quiet_limit.map(|q| q.to_string())),
            ("goal", self.goal.map(|g| g.to_string())),
            ("setup", self.setup.clone()),
        ];
        for (key, value) in options {
            if let Some(value) = value {
                spec.params.set(key, &value).map_err(|e| anyhow::anyhow!("--game {}: {e}", self.game))?;
            }
        }
        Ok(spec)
    }
}

/// Builds the entry of the game the options give and hands it to `visitor` ([`khela::registry::visit`]).
pub fn visit<V: Visit>(args: &GameArgs, visitor: V) -> Result<V::Output> {
    khela::registry::visit(&args.spec()?, visitor)
}

/// Runs `command` on the game the options give, one a network plays ([`khela::registry::visit_net`]).
pub fn visit_net<C: NetCommand>(args: &GameArgs, name: &str, command: C) -> Result<C::Output> {
    khela::registry::visit_net(&args.spec()?, name, command)
}

/// The position the options give of the entry's game, or its start ([`khela::registry::position`]).
pub fn position<E: Entry>(
    entry: &E,
    args: &GameArgs,
    verb: Option<&str>,
) -> Result<(String, <E::Game as Game>::State)> {
    khela::registry::position(entry, args.position.as_deref(), verb)
}

/// What the solver `own` draws with `solve --plot`, if it draws anything.
pub fn plot_of(own: Own) -> Option<&'static str> {
    match own {
        Own::Pig(_) => Some("the optimal policy's hold boundary"),
        Own::Connect4(_) | Own::Nim => None,
    }
}

/// Solves the position written `text` of the entry's game with its own solver `own`, and writes what it finds.
pub fn solve_own<E: Entry>(entry: &E, own: Own, text: &str, run: &OwnSolve) -> Result<()> {
    // Each solver is made for its game, whose notation reads the position.
    match own {
        Own::Connect4(game) => connect4::position(&game, text, &game.parse_position(text)?, run),
        Own::Nim => nim::solve(text, &khela_games::nim::Nim.parse_position(text)?, run),
        Own::Pig(game) => pig::solve(game, &entry.title(), text, &game.parse_position(text)?, run),
    }
}

/// `solve --set`: the game's own solver on files of positions with their known scores, each checked.
pub fn solve_sets<E: Entry>(entry: &E, run: &SetRun) -> Result<()> {
    match entry.exact() {
        Exact::Own(Own::Connect4(game)) => connect4::sets(&game, run),
        _ => bail!("solve --set: {} has no benchmark sets to solve (Connect-4 has)", entry.title()),
    }
}

/// `solve --check-xor`: the exact search checked against the game's closed-form theory on every position of
/// `family`.
pub fn check_theory<E: Entry>(entry: &E, family: Family, out: &OutArg) -> Result<()> {
    match entry.theory() {
        Some(khela::registry::Theory::Bouton) => nim::check_bouton(family, out),
        None => bail!("{} has no closed-form theory to check", entry.title()),
    }
}

/// A parser of game strings (`connect4(width=8)`, [`khela::Spec`]) that `--help` shows with every game's name
/// and description, as [`named`] shows a library's names.
pub fn game_string() -> impl TypedValueParser<Value = khela::Spec> {
    GameString
}

/// See [`game_string`].
#[derive(Clone, Copy)]
struct GameString;

impl TypedValueParser for GameString {
    type Value = khela::Spec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<khela::Spec, clap::Error> {
        let text = value.to_string_lossy();
        text.parse().map_err(|err: anyhow::Error| {
            let flag = arg.map_or_else(|| "--game".to_string(), ToString::to_string);
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value '{text}' for '{flag}': {err}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let games = khela::GameName::VARIANTS.iter().map(|&game| {
            let name: &'static str = game.into();
            PossibleValue::new(name).help(describe(game))
        });
        Some(Box::new(games))
    }
}
