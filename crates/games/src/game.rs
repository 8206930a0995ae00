//! The game model: the two players, the kinds of node, the value convention and the [`Game`] trait every game
//! implements.

use std::fmt::Debug;
use std::hash::Hash;

/// A payoff or a backed-up value, always from MAX's (the first player's) point of view.
///
/// It is a float so that chance nodes can average; every deterministic game in khela has integer payoffs within
/// ±[`MAX_EXACT_PAYOFF`], which a float holds exactly, so searches without chance nodes compare values exactly.
pub type Value = f64;

/// The largest integer payoff the games accept, 2⁵³: beyond it a [`Value`] no longer holds every integer, and
/// leaves that differ would compare equal. Notations and tree parameters that reach past it are refused.
pub const MAX_EXACT_PAYOFF: i64 = 1 << 53;

/// One of the two players. MAX moves first. Named `max` and `min` ([`std::fmt::Display`], [`std::str::FromStr`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[strum(serialize_all = "lowercase")]
pub enum Player {
    /// The first player, who maximises [`Value`].
    Max,
    /// The second player, who minimises [`Value`].
    Min,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }

    /// Converts a value between MAX's view and this player's view (the conversion is its own inverse).
    ///
    /// ```
    /// use khela_games::Player;
    /// assert_eq!(Player::Min.view(1.0), -1.0);
    /// assert_eq!(Player::Max.view(1.0), 1.0);
    /// ```
    #[inline]
    pub fn view(self, value: Value) -> Value {
        match self {
            Player::Max => value,
            Player::Min => -value,
        }
    }
}

/// What kind of node a state is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node {
    /// The given player chooses a move ([`Game::moves`]).
    Decision(Player),
    /// Nature draws an outcome ([`Game::outcomes`]).
    Chance,
    /// The game is over; the payoff is from MAX's view.
    Terminal(Value),
}

/// The rules that end the lines of play of a game whose positions can repeat (its game graph has cycles), as
/// [`Game::cycles`] declares them: a position repeated on the line of play is a draw, and so is a game that
/// reaches `max_length` plies (OpenSpiel's `MaxGameLength`).
///
/// The line of play is what a search knows of it: the positions from its root (and, given them, the game's
/// history before the root) to the node. Both draws depend on that line, not on the position alone, so a
/// search never takes them for a position's exact value: khela's exact search counts them as horizons (a
/// result below one is incomplete, never stored as exact), and exact values of such games come from retrograde
/// analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycles {
    /// The most plies a game lasts; a game that reaches it is a draw.
    pub max_length: u32,
}

impl Cycles {
    /// Whether the position with key `key`, reached after the positions whose repetition keys ([`Game::repetition_key`]) are `before` (in order, the
    /// first position of the line first), is a draw by these rules: it repeats one of them, or `before` already
    /// holds `max_length` positions (the line has lasted `max_length` plies). Callers ask it of positions that
    /// are not terminal: a win on the last ply is a win.
    ///
    /// ```
    /// use khela_games::Cycles;
    /// let rules = Cycles { max_length: 3 };
    /// assert!(!rules.draws(&[1, 2], 3));
    /// assert!(rules.draws(&[1, 2], 1)); // a repetition
    /// assert!(rules.draws(&[1, 2, 3], 4)); // three plies played
    /// ```
    #[inline]
    pub fn draws(&self, before: &[u64], key: u64) -> bool {
        before.len() >= self.max_length as usize || before.iter().rev().any(|&k| k == key)
    }
}

/// A two-player, zero-sum, perfect-information game, possibly with chance nodes.
///
/// Implementations promise:
/// - [`Game::moves`] lists the legal moves of a decision node in one fixed, documented order, the *natural*
///   order, and lists nothing for terminal nodes;
/// - [`Game::outcomes`] lists the outcomes of a chance node with probabilities that sum to 1;
/// - [`Game::key`] is equal for equal states (it may collide for different states only where the game's
///   documentation says so).
///
/// The conformance suite [`crate::conformance::check`] tests these promises; every game runs it.
pub trait Game {
    /// A position. Searches copy it before each move ("copy-make"), so it should be small.
    type State: Clone + PartialEq + Debug;
    /// A move of a decision node, or an outcome of a chance node.
    type Move: Copy + Eq + Hash + Debug;

    /// The kind of node `state` is.
    fn node(&self, state: &Self::State) -> Node;

    /// Clears `buf` and writes the legal moves of a decision node into it, in natural order.
    fn moves(&self, state: &Self::State, buf: &mut Vec<Self::Move>);

    /// [`Game::moves`] of a state the caller knows is a decision node ([`Game::node`] said so): a game whose move
    /// generation first tests whether the game is over (Connect-4) skips that test here. Searches and counts call
    /// it at every node they expand. The default calls [`Game::moves`].
    #[inline]
    fn decision_moves(&self, state: &Self::State, buf: &mut Vec<Self::Move>) {
        self.moves(state, buf);
    }

    /// Clears `buf` and writes the outcomes of a chance node with their probabilities.
    ///
    /// Games without chance nodes keep the default, which writes nothing.
    fn outcomes(&self, state: &Self::State, buf: &mut Vec<(Self::Move, f64)>) {
        let _ = state;
        buf.clear();
    }

    /// Plays a move (or an outcome of a chance node) in place.
    fn play(&self, state: &mut Self::State, mv: Self::Move);

    /// A 64-bit key of the state, for memoization and transposition tables.
    fn key(&self, state: &Self::State) -> u64;

    /// For a game whose positions can repeat, the rules that end its cycles ([`Cycles`]); `None`, the default,
    /// for a game whose every line of play ends by itself. Searches apply them; move generation and perft
    /// counts do not.
    #[inline]
    fn cycles(&self) -> Option<Cycles> {
        None
    }

    /// The key by which the rules of [`Cycles`] know a position again: [`Game::key`] by default. A game whose
    /// states also count something that only grows between irreversible moves (Sixteen Soldiers' plies since
    /// the last capture, with its quiet limit) leaves the count out here, so that a position that comes back is a
    /// repetition whatever the count; tables keep the whole [`Game::key`].
    #[inline]
    fn repetition_key(&self, state: &Self::State) -> u64 {
        self.key(state)
    }

    /// The number of moves [`Game::moves`] would list for a decision node, using `buf` as scratch space if
    /// needed. Callers only ask it of decision nodes.
    ///
    /// Tree counting ("perft") calls it at its last ply to count leaves in bulk, without making the moves; games
    /// with a cheaper way than listing the moves (Connect-4: a population count) override it.
    #[inline]
    fn move_count(&self, state: &Self::State, buf: &mut Vec<Self::Move>) -> usize {
        self.moves(state, buf);
        buf.len()
    }

    /// For a game whose every decision node's moves are numbered, `0, 1, …` in natural order (the implicit
    /// trees): the move numbered `i`. A search that keeps the natural order and looks at no list of moves then
    /// counts a node's moves ([`Game::move_count`]) and makes each from its number instead of listing them, in
    /// fewer instructions (measured: see docs/src/measured-choices.md, 'Games'). `None` (the default) for the
    /// others.
    const NUMBERED_MOVES: Option<fn(usize) -> Self::Move> = None;

    /// What the rules alone decide at decision node `state` within the next two plies, found without playing
    /// them (Connect-4: a win on the move, a cell where the opponent would win), for searches that look two
    /// plies ahead or more. `moves` holds the node's moves in any order; it keeps them in that order, less
    /// some that let the opponent win on the reply, the fastest loss and so no better than any move kept. The
    /// result is the node's payoff (MAX's view) where the two plies decide it — the side to move wins on the
    /// move, the fastest win there is, or every move lets the opponent win on the reply (`moves` is then left
    /// unspecified) — and `None` otherwise.
    ///
    /// Only for games in which a faster win is worth at least as much as a slower one, and whose positions do not
    /// repeat (a repetition could make a move that loses on the reply a draw); the default, for every other game
    /// and those that know nothing, leaves `moves` as they are and returns `None`.
    #[inline]
    fn tactics(&self, state: &Self::State, moves: &mut Vec<Self::Move>) -> Option<Value> {
        let _ = (state, moves);
        None
    }

    /// Whether [`Game::tactics`] may know anything (`false`, the default): searches that would list a node's
    /// moves early to ask it skip that for games without tactics.
    #[inline]
    fn has_tactics(&self) -> bool {
        false
    }

    /// Sorts `moves`, the moves of decision node `state`, most promising first by what the rules tell at a glance
    /// (Connect-4: the threats each makes, [`crate::connect4::Connect4::order_by_threats`]), for orderings that
    /// take the game's word ([`Game::has_move_order`]). An order changes what a search visits, never a value. The
    /// default, for games that have none, leaves `moves` as they are.
    #[inline]
    fn order_moves(&self, state: &Self::State, moves: &mut [Self::Move]) {
        let _ = (state, moves);
    }

    /// Whether [`Game::order_moves`] orders anything (`false`, the default): orderings that would take its word
    /// keep their own for games without one.
    #[inline]
    fn has_move_order(&self) -> bool {
        false
    }

    /// The state after `mv`, leaving `state` untouched.
    #[inline]
    fn child(&self, state: &Self::State, mv: Self::Move) -> Self::State {
        let mut next = state.clone();
        self.play(&mut next, mv);
        next
    }
}
