//! What the harness knows of a game: the [`Entry`] trait each game's file implements, the names of the games
//! ([`GameName`]) and the options every command takes a game with ([`GameArgs`]).

use super::endgame::{Endgame, Scope};
use crate::names::named;
use crate::net::GuideOf;
use crate::output::OutArg;
use anyhow::{Result, bail};
use clap::Args;
use khela_games::{Evaluator, Game, Notation, Value};
use std::path::{Path, PathBuf};
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
    /// Bagh-Chal, tigers and goats (--rules bagh-chal; bagh-bandi, two tigers and four stacks of five goats; or
    /// keys like size=3,tigers=a1,goats=4,stacks=c3:2,first=goats,captures=2): a position is the ranks from the
    /// top, T, G, a stack's height or '.', then g or t to move and the goats in hand, like
    /// T...T/...../...../...../T...T g 20.
    #[strum(serialize = "bagh-chal")]
    BaghChal,
    /// Sixteen Soldiers, Sholo Guti (--rules compulsory, optional or continue; --quiet-limit): a position is the
    /// 9 ranks from the top, X, O or '.', then x or o to move, like OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x.
    #[strum(serialize = "sixteen-soldiers")]
    SixteenSoldiers,
    /// Pig, the dice game (--goal, 100 by default): a position is the first player's score, the second's, the
    /// turn total, first or second to move, then rolled while the die is in the air, like 0 0 0 first.
    Pig,
    /// Piglet, Pig with a coin (--goal, 10 by default): positions as Pig's.
    Piglet,
    /// EinStein würfelt nicht!, the dice game (--setup FIRST/SECOND, six digits each, or random:N; by default the
    /// setup drawn from seed 0): a position is the rows from the top, '.', the first player's cubes 1-6 and the
    /// second's a-f, then first or second to move and the die's face once rolled, like
    /// 124../35.../6...d/...eb/..fca first 3.
    Einstein,
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
    /// The rules, for games played by several (Bagh-Chal: bagh-chal or bagh-bandi, then keys
    /// size=N,tigers=P+P,goats=N,stacks=P:N+P:N,first=goats|tigers,captures=N; Sixteen Soldiers: compulsory,
    /// optional, continue) [default: the game's standard].
    #[arg(long)]
    pub rules: Option<String>,
    /// Sixteen Soldiers' tournament rule: after this many plies without a capture the game ends and the side
    /// with more pieces wins [default: no such rule].
    #[arg(long)]
    pub quiet_limit: Option<u16>,
    /// The score that wins, for racing games (Pig: 100 by default, Piglet: 10; 1 to 1000).
    #[arg(long)]
    pub goal: Option<u32>,
    /// The cubes' arrangement, for EinStein: FIRST/SECOND, six digits each, the cube numbers on the first
    /// player's a1 b1 a2 c1 b2 a3 and the second's e5 e4 d5 e3 d4 c5 (like 123456/123456), or random:N, the
    /// setup drawn from seed N [default: random:0; match and play draw a setup a game from their seed].
    #[arg(long, value_name = "SETUP")]
    pub setup: Option<String>,
}

impl GameArgs {
    /// The default options of `game`, at its start.
    pub fn of(game: GameName) -> GameArgs {
        GameArgs {
            game,
            position: None,
            width: None,
            height: None,
            rules: None,
            quiet_limit: None,
            goal: None,
            setup: None,
        }
    }

    /// Refuses the game options given that the game (`title`) does not take; `takes` names those it does
    /// (`--width`, `--height`, `--rules`, `--quiet-limit`, `--goal`, `--setup`).
    pub fn refuse_options(&self, title: &str, takes: &[&str]) -> Result<()> {
        let given = [
            ("--width", self.width.is_some()),
            ("--height", self.height.is_some()),
            ("--rules", self.rules.is_some()),
            ("--quiet-limit", self.quiet_limit.is_some()),
            ("--goal", self.goal.is_some()),
            ("--setup", self.setup.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|&&(flag, given)| given && !takes.contains(&flag)) {
            let options = if takes.is_empty() { "none".to_string() } else { takes.join(", ") };
            bail!("{title} takes no {flag} (its options: {options})");
        }
        Ok(())
    }
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

/// How `solve` asks a game's own solver to solve a position.
#[derive(Debug)]
pub struct OwnSolve<'a> {
    /// Win, draw or loss only.
    pub weak: bool,
    /// The threads to solve on (a solver that runs on one ignores it).
    pub threads: usize,
    /// The transposition table's size, MiB, if asked for (the solver's default otherwise).
    pub table_mib: Option<usize>,
    /// Where the rows go.
    pub out: &'a OutArg,
    /// Where the solver's plot goes, for a game that draws one ([`Entry::solve_plot`]).
    pub plot: Option<&'a Path>,
}

/// What `solve --set` asks of a game's own solver: files of positions with their scores, solved and checked.
#[derive(Debug)]
pub struct SetRun<'a> {
    /// The files, one position and its score a line.
    pub files: &'a [PathBuf],
    /// Win, draw or loss only (the scores compared by sign).
    pub weak: bool,
    /// The threads to solve each position on.
    pub threads: usize,
    /// The transposition table's size, MiB, if asked for (the solver's default otherwise).
    pub table_mib: Option<usize>,
    /// The first positions of each file only.
    pub limit: Option<usize>,
    /// Where the CSV of every position goes.
    pub out: &'a OutArg,
    /// Where the CSV of one summary a file goes (with its sidecar of machine facts), if anywhere.
    pub summary: Option<&'a Path>,
}

/// How `solve` solves a position of the game exactly (without `--depth`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// Every move's exact value, by alpha-beta, in a table.
    MoveValues,
    /// The game's own solver ([`Entry::solve_own`]).
    Own,
    /// Every move's exact value by memoized expectiminimax (every position below valued once, in a memo), for a
    /// game whose positions transpose but never repeat; refused where [`Entry::positions_bound`] exceeds this.
    Memoized(u64),
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

    /// The position written `text`, as headings name it.
    fn name_position(&self, text: &str) -> String {
        text.to_string()
    }

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

    /// An upper bound on the positions reachable from `state` (for a board game, its cells' states to the power
    /// of the cells left); infinite if the game knows none.
    fn positions_bound(&self, state: &<Self::Game as Game>::State) -> f64 {
        let _ = state;
        f64::INFINITY
    }

    /// How `solve` solves exactly: every move's value by alpha-beta, unless the game's positions repeat (then a
    /// search has no exact value to give).
    fn exact(&self) -> Exact {
        match self.game().cycles() {
            Some(_) => Exact::Refused(
                "its positions repeat: exact values come from retrograde analysis (retro, then solve --tables DIR), \
                 not search; or use --depth",
            ),
            None => Exact::MoveValues,
        }
    }

    /// The game's own exact solver, for [`Exact::Own`]: solves the position written `text` (weakly: win, draw
    /// or loss only, if `weak`) and writes its table or CSV to `out`.
    fn solve_own(&self, text: &str, state: &<Self::Game as Game>::State, own: &OwnSolve) -> Result<()> {
        let _ = (text, state, own);
        bail!("{} has no solver of its own", self.title())
    }

    /// What the game's own solver draws with `solve --plot`, if it draws anything.
    fn solve_plot(&self) -> Option<&'static str> {
        None
    }

    /// `solve --set`: the game's own solver on files of positions with their known scores, each checked.
    fn solve_sets(&self, run: &SetRun) -> Result<()> {
        let _ = run;
        bail!("solve --set: {} has no benchmark sets to solve (Connect-4 has)", self.title())
    }

    /// The network saved at `path` (`zero train`) loaded for the game, to search its positions (`net:PATH`
    /// players, `mcts --prior net:PATH`); `command` names the refusal of a game no network plays.
    fn guide(&self, path: &Path, command: &str) -> Result<GuideOf<'_, Self::Game>> {
        let _ = path;
        Err(super::no_network(command, &self.title()))
    }

    /// The game's endgame for retrograde analysis (`retro`, `--tables`), as `scope` chooses it (Bagh-Chal: the
    /// sliding phase from the fewest goats captured asked; Sixteen Soldiers: the positions with up to so many
    /// pieces; the default scope: the whole endgame the tables hold); `None` for a game without one.
    fn endgame(&self, scope: &Scope) -> Option<Result<Endgame<Self::Game>>> {
        let _ = scope;
        None
    }

    /// A starting position drawn from `seed`, in the game's notation, for a game whose start is dealt (EinStein's
    /// setups) when the options fixed none: `match` deals one a pair of games, `play` one from its seed. `None`
    /// for the others.
    fn deal(&self, seed: u64) -> Option<String> {
        let _ = seed;
        None
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
