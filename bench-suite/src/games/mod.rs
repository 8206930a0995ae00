//! The games the harness knows, in one place: one [`Entry`] per game (its own file here), named in one list
//! ([`GameName`]) and reached through one dispatcher ([`visit`]). A command asks an entry what it needs — the
//! game and its notation (from `khela-games`), the view its values are shown in, its evaluator, its published
//! counts — and never matches on a game's name; a game a command cannot serve is refused with the list of
//! those it can ([`refuse`]).
//!
//! Adding a game to every command is its file in `crates/games` (the [`khela_games::Game`] and
//! [`khela_games::Notation`] implementations), optionally an evaluator in `crates/heuristic`, and an entry here:
//! a file implementing [`Entry`], a variant of [`GameName`] and its arm in [`visit`].

mod connect4;
mod nim;
mod tictactoe;

use crate::names::named;
use crate::output::OutArg;
use anyhow::{Result, bail};
use clap::Args;
use khela_games::{Evaluator, Game, Notation, Player, Value};
use std::fmt;
use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};

/// The games, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum GameName {
    /// Tic-tac-toe: a position is 9 characters of '.', 'X', 'O', row by row; moves are cells 0–8.
    Tictactoe,
    /// Nim: a position is the heap sizes, like 3,4,5 (--heaps); a move H:T takes heap H down to T objects.
    Nim,
    /// Connect-4 (7 × 6, or --width × --height): a position is the columns played, 1-based, like 4453.
    Connect4,
}

/// Which game, which position, and the game's options: what every command that plays a game takes.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game.
    #[arg(long, value_parser = named::<GameName>())]
    pub game: GameName,
    /// The position, in the game's notation (see --game) [default: the game's start].
    #[arg(long, visible_alias = "heaps")]
    pub position: Option<String>,
    /// The board's width, for games played on boards of several sizes (Connect-4) [default: the standard].
    #[arg(long)]
    pub width: Option<u32>,
    /// The board's height, for games played on boards of several sizes (Connect-4) [default: the standard].
    #[arg(long)]
    pub height: Option<u32>,
}

/// How a game's values are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// From the first player's view (khela's own convention, the textbook's).
    First,
    /// From the view of the side to move at the position given (Connect-4's benchmark convention).
    Mover,
}

/// A game's evaluator, with what the harness says of it.
#[derive(Clone, Debug)]
pub struct Scale<E> {
    /// The evaluator.
    pub evaluator: E,
    /// What it measures and from whose view, for headings (`open lines, X's view`).
    pub about: &'static str,
    /// The difference on its scale that PUCT's softmax prior weighs e times more (see `mcts --prior evaluator`).
    pub prior_unit: Value,
}

/// How `solve` solves a position of the game exactly (without `--depth`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// Every move's exact value, by alpha-beta, in a table.
    MoveValues,
    /// The game's own solver ([`Entry::solve_own`]).
    Own,
    /// Not at all, for this reason.
    Refused(&'static str),
}

/// What `count` knows of a game's counts per ply from its start, for its estimates of the work.
#[derive(Clone, Copy, Debug)]
pub struct Published {
    /// Move sequences per ply (perft), plies 0, 1, …
    pub sequences: &'static [u64],
    /// Distinct positions per ply.
    pub positions: &'static [u64],
    /// The growth of the sequences per ply beyond the table.
    pub growth: f64,
}

/// A key of a game's states.
pub type KeyFn<G> = fn(&G, &<G as Game>::State) -> u64;

/// How `count` tallies a game's full tree.
pub struct FullTree<G: Game> {
    /// A key that merges equivalent states (the board's symmetries), with a description of what it counts, for
    /// a second tally of distinct states up to them.
    pub symmetry: Option<(KeyFn<G>, &'static str)>,
}

/// A family of positions whose values a closed-form theory gives, for `solve --check-xor`.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// The number of heaps.
    pub heaps: u32,
    /// The largest heap size.
    pub max: u32,
}

/// A game as the harness knows it.
pub trait Entry: Sized {
    /// The game.
    type Game: Notation<State: Send + Sync, Move: Send + Sync> + Sync;
    /// Its evaluator ([`khela_games::NoEvaluator`] for a game without one).
    type Evaluator: Evaluator<Self::Game> + Clone + Send + Sync;

    /// The entry for these options (a board size), refusing options the game does not take.
    fn new(args: &GameArgs) -> Result<Self>;

    /// The game.
    fn game(&self) -> &Self::Game;

    /// The game's name in headings: `Tic-tac-toe`, `Connect-4 7x6`.
    fn title(&self) -> String;

    /// The flag positions are given with, as messages name it.
    fn position_flag(&self) -> &'static str {
        "--position"
    }

    /// How positions are written, for messages: `9 characters of '.', 'X', 'O', row by row`.
    fn notation(&self) -> &'static str;

    /// The view the game's values are shown in.
    fn view(&self) -> View;

    /// The game's evaluator, if it has one.
    fn scale(&self) -> Option<Scale<Self::Evaluator>> {
        None
    }

    /// The most moves any node has: the base of the estimates of a search's size.
    fn max_moves(&self) -> u32;

    /// The most plies a game can still last from `state`, and what they are (`empty cells of the board`).
    fn plies_left(&self, state: &<Self::Game as Game>::State) -> (u32, &'static str);

    /// How `solve` solves exactly.
    fn exact(&self) -> Exact {
        Exact::MoveValues
    }

    /// The game's own exact solver, for [`Exact::Own`]: solves the position written `text` and writes its
    /// table or CSV to `out`.
    fn solve_own(&self, text: &str, state: &<Self::Game as Game>::State, out: &OutArg) -> Result<()> {
        let _ = (text, state, out);
        bail!("{} has no solver of its own", self.title())
    }

    /// Whether `count` tallies the game's full tree (`None`: it is too large), and how.
    fn full_tree(&self) -> Option<FullTree<Self::Game>> {
        None
    }

    /// Whether `count --depth` counts this game ply by ply, and what it knows of the counts from `state` (the
    /// published counts, from the game's standard start only).
    fn per_ply(&self, state: &<Self::Game as Game>::State) -> Option<Option<Published>> {
        let _ = state;
        None
    }

    /// The closed-form theory of the game's values that `solve --check-xor` checks the search against, by
    /// name (`Bouton's XOR rule`), if it has one.
    fn theory(&self) -> Option<&'static str> {
        None
    }

    /// Checks the exact search against [`Entry::theory`] on every position of `family`, and writes the result
    /// to `out`.
    fn check_theory(&self, family: Family, out: &OutArg) -> Result<()> {
        let _ = (family, out);
        bail!("{} has no closed-form theory to check", self.title())
    }
}

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
    })
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
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Capability::Evaluator => "an evaluator",
            Capability::Exact => "an exact solver",
            Capability::Tally => "a full tree small enough to tally",
            Capability::PerPly => "counts per ply",
            Capability::Theory => "a closed-form theory to check the search against",
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
        }
    }
}

/// The names of the games, in [`GameName`]'s order, that have `capability` (with their default options).
pub fn with(capability: Capability) -> Vec<&'static str> {
    GameName::VARIANTS
        .iter()
        .filter(|&&game| {
            let args = GameArgs { game, position: None, width: None, height: None };
            visit(&args, Has(capability)).unwrap_or(false)
        })
        .map(|&game| game.into())
        .collect()
}

/// The error of a command that cannot serve `game`, which lacks `capability`: it names the games that have it.
pub fn refuse(command: &str, game: GameName, capability: Capability) -> anyhow::Error {
    anyhow::anyhow!("{command} needs {capability}, which {game} lacks; games with one: {}", with(capability).join(", "))
}

/// The position `text` of the entry's game, or its start when `text` is `None`; a game without a start needs
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
        assert_eq!(with(Capability::Evaluator), ["tictactoe", "connect4"]);
        assert_eq!(with(Capability::Exact), ["tictactoe", "nim"]);
        assert_eq!(with(Capability::Tally), ["tictactoe"]);
        assert_eq!(with(Capability::PerPly), ["tictactoe", "connect4"]);
        assert_eq!(with(Capability::Theory), ["nim"]);
        let err = refuse("eval", GameName::Nim, Capability::Evaluator).to_string();
        assert_eq!(err, "eval needs an evaluator, which nim lacks; games with one: tictactoe, connect4");
    }
}
