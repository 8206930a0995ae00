//! The games the harness knows, in one place: one [`Entry`] per game (its own file here), named in one list
//! ([`GameName`]) and reached through one dispatcher ([`visit`]). A command asks an entry what it needs — the
//! game and its notation (from `khela-games`), the view its values are shown in, its evaluator, its published
//! counts — and never matches on a game's name; a game a command cannot serve is refused with the list of
//! those it can ([`refuse`]).
//!
//! Adding a game to every command is its file in `crates/games` (the [`khela_games::Game`] and
//! [`khela_games::Notation`] implementations), optionally an evaluator in `crates/heuristic`, and an entry here:
//! a file implementing [`Entry`], a variant of [`GameName`] and its arm in [`visit`].

pub(crate) mod bagh_chal;
pub(crate) mod connect4;
mod einstein;
mod endgame;
mod entry;
mod nim;
mod pig;
mod sixteen_soldiers;
mod tictactoe;

pub use endgame::{Endgame, Scope};
pub use entry::{Entry, Exact, Family, GameArgs, GameName, OwnSolve, Published, SetRun, View};

use anyhow::{Result, bail};
use khela_games::{Game, Notation, Player, Value};
use std::fmt;
use strum::VariantArray;

/// Something a command does with a game, whichever it is: [`visit`] calls it with the game's entry.
pub trait Visit {
    /// What it gives back.
    type Output;

    /// Does it with `entry`.
    fn visit<E: Entry>(self, entry: E) -> Self::Output;
}

/// Builds the entry of the game `args` names, with its options, and hands it to `visitor`: the one place
/// where the harness turns a game's name into its entry.
pub fn visit<V: Visit>(args: &GameArgs, visitor: V) -> Result<V::Output> {
    Ok(match args.game {
        GameName::Tictactoe => visitor.visit(tictactoe::TicTacToeEntry::new(args)?),
        GameName::Nim => visitor.visit(nim::NimEntry::new(args)?),
        GameName::Connect4 => visitor.visit(connect4::Connect4Entry::new(args)?),
        GameName::BaghChal => visitor.visit(bagh_chal::BaghChalEntry::new(args)?),
        GameName::SixteenSoldiers => visitor.visit(sixteen_soldiers::SixteenSoldiersEntry::new(args)?),
        GameName::Pig | GameName::Piglet => visitor.visit(pig::PigEntry::new(args)?),
        GameName::Einstein => visitor.visit(einstein::EinsteinEntry::new(args)?),
    })
}

/// A command over the games a network plays (their positions encoded for it: [`khela_zero::Encode`]).
pub trait VisitNet {
    type Output;

    fn visit<E: Entry>(self, entry: E) -> Self::Output
    where
        E::Game: khela_zero::Encode;
}

/// The games a network plays, by name.
pub const NET_GAMES: [GameName; 3] = [GameName::Tictactoe, GameName::Connect4, GameName::BaghChal];

/// Runs `visitor` on the game of `args`, one a network plays; `command` names the refusal of another.
pub fn visit_net<V: VisitNet>(args: &GameArgs, command: &str, visitor: V) -> Result<V::Output> {
    Ok(match args.game {
        GameName::Tictactoe => visitor.visit(tictactoe::TicTacToeEntry::new(args)?),
        GameName::Connect4 => visitor.visit(connect4::Connect4Entry::new(args)?),
        GameName::BaghChal => visitor.visit(bagh_chal::BaghChalEntry::new(args)?),
        other => return Err(no_network(command, other.into())),
    })
}

/// The error of a command that needs a network's encoding of `game`, which it has not.
pub fn no_network(command: &str, game: &str) -> anyhow::Error {
    let games: Vec<&str> = NET_GAMES.iter().map(|&g| g.into()).collect();
    anyhow::anyhow!(
        "{command} needs a network's encoding of the game, which {game} does not have; the games that have it: {}",
        games.join(", ")
    )
}

/// What a command may need of a game beyond the game itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// An evaluator (`eval`, `solve --depth`, `mcts --prior evaluator`).
    Evaluator,
    /// Exact solving (`solve` without `--depth`).
    Exact,
    /// A full-tree tally (`count` without `--depth`).
    Tally,
    /// Counting per ply (`count --depth`).
    PerPly,
    /// A closed-form theory to check the search against (`solve --check-xor`).
    Theory,
    /// An endgame for retrograde analysis (`retro`).
    Retro,
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Capability::Evaluator => "an evaluator",
            Capability::Exact => "an exact solver",
            Capability::Tally => "a full tree small enough to tally",
            Capability::PerPly => "counts per ply",
            Capability::Theory => "a closed-form theory to check the search against",
            Capability::Retro => "an endgame for retrograde analysis (Bagh-Chal without stacks, Sixteen Soldiers without the quiet limit)",
        })
    }
}

/// Whether the entry has `capability`.
struct Has(Capability);

impl Visit for Has {
    type Output = bool;

    fn visit<E: Entry>(self, entry: E) -> bool {
        let start = entry.game().start().and_then(|text| entry.game().parse_position(text).ok());
        match self.0 {
            Capability::Evaluator => entry.scale().is_some(),
            Capability::Exact => !matches!(entry.exact(), Exact::Refused(_)),
            Capability::Tally => entry.full_tree().is_some(),
            Capability::PerPly => start.is_some_and(|state| entry.per_ply(&state).is_some()),
            Capability::Theory => entry.theory().is_some(),
            Capability::Retro => entry.endgame(&Scope::default()).is_some_and(|endgame| endgame.is_ok()),
        }
    }
}

/// The names of the games, in [`GameName`]'s order, that have `capability` (with their default options).
pub fn with(capability: Capability) -> Vec<&'static str> {
    GameName::VARIANTS
        .iter()
        .filter(|&&game| {
            let args = GameArgs::of(game);
            visit(&args, Has(capability)).unwrap_or(false)
        })
        .map(|&game| game.into())
        .collect()
}

/// The error of a command that cannot serve `game`, which lacks `capability`: it names the games that have it.
pub fn refuse(command: &str, game: GameName, capability: Capability) -> anyhow::Error {
    let games = with(capability).join(", ");
    anyhow::anyhow!("{command} needs {capability}, which {game} does not have; the games that have it: {games}")
}

/// The position `args` gives of the entry's game, or its start when it gives none; a game without a start needs
/// the position. `verb` is what the command would do with a finished game, for the message refusing it
/// (`None`: finished games are accepted).
pub fn position<E: Entry>(
    entry: &E,
    args: &GameArgs,
    verb: Option<&str>,
) -> Result<(String, <E::Game as Game>::State)> {
    let game = entry.game();
    let Some(text) = args.position.as_deref().or(game.start()) else {
        bail!("--game {} needs {} ({})", args.game, entry.position_flag(), entry.notation());
    };
    let state = game.parse_position(text)?;
    if let (Some(verb), khela_games::Node::Terminal(payoff)) = (verb, game.node(&state)) {
        bail!("{} position {text:?} is already over ({}); nothing to {verb}", entry.title(), outcome(game, payoff));
    }
    Ok((text.to_string(), state))
}

/// A finished game's result, by the notation's player names: `X has won`, `a draw`.
pub fn outcome<G: Notation>(game: &G, payoff: Value) -> String {
    if payoff > 0.0 {
        format!("{} has won", game.player_name(Player::Max))
    } else if payoff < 0.0 {
        format!("{} has won", game.player_name(Player::Min))
    } else {
        "a draw".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_name_their_games() {
        assert_eq!(with(Capability::Evaluator), ["tictactoe", "connect4", "bagh-chal", "sixteen-soldiers", "einstein"]);
        assert_eq!(with(Capability::Exact), ["tictactoe", "nim", "connect4", "pig", "piglet", "einstein"]);
        assert_eq!(with(Capability::Retro), ["bagh-chal", "sixteen-soldiers"]);
        assert_eq!(with(Capability::Tally), ["tictactoe"]);
        assert_eq!(with(Capability::PerPly), ["tictactoe", "connect4", "bagh-chal", "sixteen-soldiers", "einstein"]);
        assert_eq!(with(Capability::Theory), ["nim"]);
        let err = refuse("eval", GameName::Nim, Capability::Evaluator).to_string();
        assert_eq!(
            err,
            "eval needs an evaluator, which nim does not have; the games that have it: tictactoe, connect4, bagh-chal, \
             sixteen-soldiers, einstein"
        );
    }
}
