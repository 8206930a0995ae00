//! What khela knows of a game: the [`Entry`] trait each game's file implements, and what an entry says of its
//! game's values, evaluator, counts, exact solver and network.

use super::endgame::{Endgame, Scope};
use super::params::Spec;
use crate::board::{Board, Gesture};
use crate::verdict::Before;
use anyhow::Result;
use khela_exact::retro::Outcome;
use khela_games::connect4::Connect4;
use khela_games::pig::Pig;
use khela_games::{Actions, Evaluator, Game, Notation, Player, Value};
use khela_zero::Encode;
use std::borrow::Cow;
use std::path::Path;

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
    /// The game's own solver, which a front end runs and shows as it shows that solver's results.
    Own(Own),
    /// Every move's exact value by memoized expectiminimax (every position below valued once, in a memo), for a
    /// game whose positions transpose but never repeat; refused where [`Entry::positions_bound`] exceeds this.
    Memoized(u64),
    /// Not at all, for this reason.
    Refused(&'static str),
}

/// A game's own exact solver: a solver of `khela-exact` made for a family of games, with the game it solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Own {
    /// The Connect-4 solver (`khela_exact::connect4::Solver`): every move's exact score, on a board of any size;
    /// it also runs benchmark sets of positions with their known scores.
    Connect4(Connect4),
    /// Memoized negamax over heap multisets, sound because Nim is impartial: wins and losses after each move.
    Nim,
    /// Value iteration over every position (`khela_exact::iterate`), for Pig and Piglet: winning chances, and
    /// the optimal policy's hold boundary, which a front end may draw.
    Pig(Pig),
}

/// A closed-form theory of a game's values, which the exact search can be checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theory {
    /// Bouton's XOR rule for Nim: the side to move loses exactly when the nim-sum is 0.
    Bouton,
}

impl Theory {
    /// Its name: `Bouton's XOR rule`.
    pub fn name(self) -> &'static str {
        match self {
            Theory::Bouton => "Bouton's XOR rule",
        }
    }
}

/// Something done with a game whose positions are encoded as planes ([`Encode`]): [`Entry::with_net`] calls it
/// with the entry of a game a network plays ([`Observe`] with that of any encoded game). What it gives back may
/// depend on the game ([`VisitNet::Output`]).
pub trait VisitNet {
    /// What it gives back for the game `G`, borrowed from the entry for `'e`.
    type Output<'e, G: Game + 'e>;

    /// Does it with `entry`.
    fn visit<'e, E: Entry>(self, entry: &'e E) -> Self::Output<'e, E::Game>
    where
        E::Game: Encode;
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

/// Every move of a position with its value, the first player's view.
pub type MoveValues<G> = Vec<(<G as Game>::Move, Value)>;

/// The function that numbers a game's moves, given its entry ([`Entry::actions`]): the game's own numbering
/// ([`khela_games::Actions::action`], through [`numbered`]) or one its parameters fix (Nim's from its start).
pub type ActionOf<E> = fn(&E, <<E as Entry>::Game as Game>::Move) -> usize;

/// The actions of a game that numbers its moves once for the whole game ([`khela_games::Actions`]), as
/// [`Entry::actions`] gives them.
pub fn numbered<E: Entry>(entry: &E) -> Result<(usize, ActionOf<E>), &'static str>
where
    E::Game: Actions,
{
    Ok((entry.game().actions(), |entry, mv| entry.game().action(mv)))
}

/// A game's positions as planes for observations (an environment's, [`Entry::observer`]): their shape (planes,
/// height, width), the largest value a plane holds, and the function that writes a position's planes.
pub struct Observer<'e, G: Game> {
    /// Planes, height, width.
    pub shape: [usize; 3],
    /// Every value is from 0 to it.
    pub largest: f32,
    /// The planes of a position, plane by plane, each row by row from the top.
    pub encode: Encoder<'e, G>,
}

/// A function that writes a position's planes ([`Observer::encode`]).
pub type Encoder<'e, G> = Box<dyn Fn(&<G as Game>::State) -> Vec<f32> + Send + Sync + 'e>;

/// The observer of a game encoded as a network's planes ([`Encode`]), through [`Entry::with_net`] or
/// [`Entry::observer`].
pub struct Observe;

impl VisitNet for Observe {
    type Output<'e, G: Game + 'e> = Observer<'e, G>;

    fn visit<'e, E: Entry>(self, entry: &'e E) -> Observer<'e, E::Game>
    where
        E::Game: Encode,
    {
        let game = entry.game();
        let shape = game.shape();
        Observer {
            shape: [shape.planes, shape.height, shape.width],
            largest: game.largest(),
            encode: Box::new(move |state| {
                let mut planes = vec![0.0; shape.len()];
                game.encode(state, &mut planes);
                planes
            }),
        }
    }
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
pub trait Entry: Sized + Send + Sync + 'static {
    /// The game.
    type Game: Notation<State: Send + Sync, Move: Send + Sync> + Sync;
    /// Its evaluator ([`khela_games::NoEvaluator`] for a game without one).
    type Evaluator: Evaluator<Self::Game> + Clone + Send + Sync;

    /// The entry for these parameters (a board size, rules), refusing any the game does not take.
    ///
    /// # Errors
    ///
    /// A parameter the game does not take, or a value it refuses: the message names it.
    fn new(spec: &Spec) -> Result<Self>;

    /// The game.
    fn game(&self) -> &Self::Game;

    /// The game's name in headings: `Tic-tac-toe`, `Connect-4 7x6`.
    fn title(&self) -> String;

    /// The two sides as tables of results name them, the first player's first: by default the notation's names
    /// of the players (`goats`, `tigers`).
    fn sides(&self) -> [&'static str; 2] {
        [Player::Max, Player::Min].map(|player| self.game().player_name(player))
    }

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

    /// Every move of `state` (a decision node) with its exact value, the first player's view, by the game's own
    /// solver ([`Exact::Own`]), for an analysis; `None` where the solver values no moves (Pig's value iteration
    /// gives winning chances, which a front end shows as the solver's own results).
    fn own_values(&self, state: &<Self::Game as Game>::State) -> Option<Result<MoveValues<Self::Game>>> {
        let _ = state;
        None
    }

    /// The network capability: `visitor` run with this entry, for a game a network plays (its positions encoded,
    /// [`Encode`]); `None` for the others. A game with a network declares it by returning
    /// `Some(visitor.visit(self))`.
    fn with_net<V: VisitNet>(&self, visitor: V) -> Option<V::Output<'_, Self::Game>> {
        let _ = visitor;
        None
    }

    /// The observation capability: the game's positions as planes, for observations and environments — every
    /// game a network plays ([`Entry::with_net`], by default), and those encoded only for observations (Pig,
    /// EinStein, Dots and Boxes, whose chance nodes or rules khela-zero's training does not serve; Sixteen
    /// Soldiers jump by jump, whose network is still to come; Nim from a start, whose heaps shape its planes);
    /// for the others, why not.
    fn observer(&self) -> Result<Observer<'_, Self::Game>, &'static str> {
        self.with_net(Observe).ok_or("it has no network, nor any other encoding")
    }

    /// The game's actions: their number and the function that numbers a move, for a game whose moves are
    /// numbered once for the whole game ([`numbered`], or by its parameters: Nim from a start); for the others,
    /// why not.
    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        Err("its moves are played by number or in its notation")
    }

    /// The game's start in its notation, if it has one: its notation's ([`Notation::start`]), or one its
    /// parameters give (Nim's heaps).
    fn start(&self) -> Option<Cow<'_, str>> {
        self.game().start().map(Cow::Borrowed)
    }

    /// Refuses a position (written `text`) that the game's parameters do not admit (Nim from a start: more heaps,
    /// or a larger one, than the start has), saying why.
    ///
    /// # Errors
    ///
    /// The position outside the game.
    fn admit(&self, text: &str, state: &<Self::Game as Game>::State) -> Result<()> {
        let _ = (text, state);
        Ok(())
    }

    /// The parameter that fixes the game's start, if one is given (EinStein's `setup`), so that a position may
    /// not be given beside it.
    fn start_fixed_by(&self) -> Option<&'static str> {
        None
    }

    /// The game's endgame for retrograde analysis (`retro`, `--tables`), as `scope` chooses it (Bagh-Chal: the
    /// sliding phase from the fewest goats captured asked; Sixteen Soldiers: the positions with up to so many
    /// pieces; the default scope: the whole endgame the tables hold); `None` for a game without one.
    fn endgame(&self, scope: &Scope) -> Option<Result<Endgame<Self::Game>>> {
        let _ = scope;
        None
    }

    /// The game's placement phase, for layered backward induction and its tables (`retro --phase placement`):
    /// Bagh-Chal's family without stacks; `None` for the other games.
    fn placement(&self) -> Option<Result<crate::layers::Placement>> {
        None
    }

    /// The values of the positions before the game's endgame from their tables in `dir` (`name` the game's name
    /// in the files): Bagh-Chal's placement phase where `retro --phase placement` wrote it there; `None` where
    /// the game has no such phase or `dir` holds none of its tables.
    fn before_endgame(&self, name: &str, dir: &Path) -> Option<Result<Box<dyn Before<Self::Game>>>> {
        let _ = (name, dir);
        None
    }

    /// The values of the positions before the game's endgame solved here, in memory, the endgame's positions
    /// valued by `endgame`: where the game has such a phase of at most `most` numbers; `None` elsewhere.
    fn solve_before_endgame(
        &self,
        endgame: &(dyn Fn(&<Self::Game as Game>::State) -> Option<Outcome> + Sync),
        most: u64,
    ) -> Option<Result<Box<dyn Before<Self::Game>>>> {
        let _ = (endgame, most);
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

    /// The closed-form theory of the game's values that the exact search can be checked against, if it has one.
    fn theory(&self) -> Option<Theory> {
        None
    }

    /// The pieces each player has lost to captures at `state`, the first player's first, for a game with
    /// captures (what [`crate::threat`] watches); `None` for others.
    fn losses(&self, state: &<Self::Game as Game>::State) -> Option<[u32; 2]> {
        let _ = state;
        None
    }

    /// About how many seconds [`Entry::own_values`] takes on `state` on one core, where the game can tell: an
    /// analysis with a deadline refuses up front a position its solver would not value in time, rather than
    /// keep a core busy past the answer. `None`: quick, or unknown.
    fn own_seconds(&self, state: &<Self::Game as Game>::State) -> Option<f64> {
        let _ = state;
        None
    }

    /// The plies to the end under best play that the exact value `value` (the first player's view) of a move of
    /// `state` implies, the move itself the first, where the game's scale of exact values says (a Connect-4 score
    /// says when the winner's last stone falls); `None` for a draw, and for games whose values do not say.
    fn exact_plies(&self, state: &<Self::Game as Game>::State, value: Value) -> Option<u32> {
        let _ = (state, value);
        None
    }

    /// The position drawn as a board for people ([`crate::board`]).
    fn board(&self, state: &<Self::Game as Game>::State) -> Board;

    /// How the legal move `mv` of `state` is made on [`Entry::board`]'s board.
    fn gesture(&self, state: &<Self::Game as Game>::State, mv: <Self::Game as Game>::Move) -> Gesture;
}
