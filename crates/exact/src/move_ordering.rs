//! Orderings chosen at run time, by name: what a command line or a table of runs asks for.
//!
//! The search loop takes any [`Orderer`]; [`MoveOrdering`] is one of them, holding whichever of the library's
//! orderings was chosen and passing the loop's calls on to it; [`MoveOrdering::named`] makes one from its
//! name ([`OrderingKind`]) and the parts it needs ([`OrderingParts`]). A new ordering is a new type
//! implementing [`Orderer`]; it joins this enum only if it should be chosen by name.

use crate::horizon::EvalFn;
use crate::oracle::Oracle;
use crate::orderer::{ByValue, History, Natural, Orderer, Preference, Reversed, Shallow, Shuffled};
use khela_games::{Game, Player};
use std::fmt;
use std::sync::Arc;
use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};
use thiserror::Error;

/// The names of the orderings [`MoveOrdering`] can hold, as tables and command lines write them.
///
/// ```
/// use khela_exact::OrderingKind;
/// assert_eq!(OrderingKind::BestFirst.to_string(), "best");
/// assert_eq!("history".parse(), Ok(OrderingKind::History));
/// ```
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Display,
    EnumString,
    IntoStaticStr,
    VariantArray,
    EnumMessage,
)]
#[strum(serialize_all = "lowercase")]
pub enum OrderingKind {
    /// Moves in their natural order.
    Natural,
    /// The natural order backwards.
    Reversed,
    /// Moves in the order of a preference list, the others after them.
    Preference,
    /// Oracle: best child first, by exact values (not counted).
    #[strum(serialize = "best")]
    BestFirst,
    /// Oracle: worst child first, by exact values (not counted).
    #[strum(serialize = "worst")]
    WorstFirst,
    /// A shuffle at every node, from a seeded generator.
    Random,
    /// Children by a static evaluation, best first.
    Static,
    /// A static evaluation near the root, the history heuristic below.
    Shallow,
    /// The history heuristic.
    History,
}

/// What an ordering chosen by name may need besides its name (see [`MoveOrdering::named`]).
pub struct OrderingParts<'a, G: Game> {
    /// The seed of `random`.
    pub seed: u64,
    /// The list of `preference`.
    pub preference: Option<Vec<G::Move>>,
    /// The exact values of `best` and `worst`.
    pub oracle: Option<&'a Arc<Oracle>>,
    /// The static evaluation of `static` and `shallow`.
    pub estimate: Option<EvalFn<G>>,
    /// The plies at which `shallow` sorts by the evaluation.
    pub plies: usize,
}

impl<G: Game> Default for OrderingParts<'_, G> {
    /// Seed 0 and nothing else.
    fn default() -> Self {
        OrderingParts { seed: 0, preference: None, oracle: None, estimate: None, plies: 0 }
    }
}

/// An ordering named without a part it needs.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("the {kind} ordering needs {part}")]
pub struct OrderingError {
    /// The ordering named.
    pub kind: OrderingKind,
    /// What it lacks.
    pub part: &'static str,
}

/// A move ordering chosen at run time: one of the library's [`Orderer`]s.
pub enum MoveOrdering<G: Game> {
    /// The game's natural order ([`Natural`]).
    Natural,
    /// The natural order backwards ([`Reversed`]).
    Reversed,
    /// A preference list ([`Preference`]).
    Preference(Preference<G::Move>),
    /// Oracle: children best first for the side to move by their exact values, ties in natural order.
    BestFirst(ByValue<Arc<Oracle>, G::Move>),
    /// Oracle: children worst first for the side to move, ties in natural order.
    WorstFirst(ByValue<Arc<Oracle>, G::Move>),
    /// A seeded shuffle at every node ([`Shuffled`]), named `random`.
    Shuffled(Shuffled),
    /// Children best first for the side to move by a static evaluation of the child (MAX's view), ties in
    /// natural order.
    Static(ByValue<EvalFn<G>, G::Move>),
    /// A static evaluation near the root and the history heuristic below ([`Shallow`]).
    Shallow(Shallow<G>),
    /// The history heuristic ([`History`]).
    History(History<G::Move>),
}

impl<G: Game> MoveOrdering<G> {
    /// Moves in the order of `list`, the others after them in natural order.
    pub fn preference(list: Vec<G::Move>) -> Self {
        MoveOrdering::Preference(Preference(list))
    }

    /// The oracle ordering, best first by the exact values of `oracle`, which must hold every state the search
    /// meets (see [`Oracle::new`]).
    pub fn best_first(oracle: &Arc<Oracle>) -> Self {
        MoveOrdering::BestFirst(ByValue::best_first(Arc::clone(oracle)))
    }

    /// The oracle ordering, worst first.
    pub fn worst_first(oracle: &Arc<Oracle>) -> Self {
        MoveOrdering::WorstFirst(ByValue::worst_first(Arc::clone(oracle)))
    }

    /// A shuffle at every node from the generator seeded with `seed`.
    pub fn shuffled(seed: u64) -> Self {
        MoveOrdering::Shuffled(Shuffled::new(seed))
    }

    /// Static ordering: children best first by `evaluate` (MAX's view).
    pub fn by_estimate(evaluate: EvalFn<G>) -> Self {
        MoveOrdering::Static(ByValue::best_first(evaluate))
    }

    /// A static evaluation (`evaluate`, MAX's view) at the first `plies` plies, the history heuristic below.
    pub fn shallow(evaluate: EvalFn<G>, plies: usize) -> Self {
        MoveOrdering::Shallow(Shallow::new(evaluate, plies))
    }

    /// The history heuristic, starting from no history.
    pub fn history() -> Self {
        MoveOrdering::History(History::default())
    }

    /// The ordering named `kind`, made from `parts`.
    ///
    /// ```
    /// use khela_exact::{MoveOrdering, OrderingKind, OrderingParts};
    /// use khela_games::tictactoe::TicTacToe;
    /// let parts = OrderingParts { seed: 7, ..OrderingParts::default() };
    /// let ordering = MoveOrdering::<TicTacToe>::named(OrderingKind::Random, &parts).unwrap();
    /// assert_eq!(ordering.name(), "random");
    /// assert!(MoveOrdering::<TicTacToe>::named(OrderingKind::BestFirst, &parts).is_err()); // No oracle.
    /// ```
    ///
    /// # Errors
    ///
    /// [`OrderingError`] when `kind` needs a part that `parts` lacks, naming both.
    pub fn named(kind: OrderingKind, parts: &OrderingParts<'_, G>) -> Result<Self, OrderingError> {
        let needs = |part: &'static str| OrderingError { kind, part };
        Ok(match kind {
            OrderingKind::Natural => MoveOrdering::Natural,
            OrderingKind::Reversed => MoveOrdering::Reversed,
            OrderingKind::Preference => {
                MoveOrdering::preference(parts.preference.clone().ok_or(needs("a preference list"))?)
            }
            OrderingKind::BestFirst => MoveOrdering::best_first(parts.oracle.ok_or(needs("an oracle"))?),
            OrderingKind::WorstFirst => MoveOrdering::worst_first(parts.oracle.ok_or(needs("an oracle"))?),
            OrderingKind::Random => MoveOrdering::shuffled(parts.seed),
            OrderingKind::Static => MoveOrdering::by_estimate(parts.estimate.ok_or(needs("a static evaluation"))?),
            OrderingKind::Shallow => {
                MoveOrdering::shallow(parts.estimate.ok_or(needs("a static evaluation"))?, parts.plies)
            }
            OrderingKind::History => MoveOrdering::history(),
        })
    }

    /// Which ordering this is.
    pub fn kind(&self) -> OrderingKind {
        match self {
            MoveOrdering::Natural => OrderingKind::Natural,
            MoveOrdering::Reversed => OrderingKind::Reversed,
            MoveOrdering::Preference(_) => OrderingKind::Preference,
            MoveOrdering::BestFirst(_) => OrderingKind::BestFirst,
            MoveOrdering::WorstFirst(_) => OrderingKind::WorstFirst,
            MoveOrdering::Shuffled(_) => OrderingKind::Random,
            MoveOrdering::Static(_) => OrderingKind::Static,
            MoveOrdering::Shallow(_) => OrderingKind::Shallow,
            MoveOrdering::History(_) => OrderingKind::History,
        }
    }

    /// The name used in tables and on the command line (`preference` for any preference list).
    pub fn name(&self) -> &'static str {
        self.kind().into()
    }
}

impl<G: Game> Orderer<G> for MoveOrdering<G> {
    #[inline(always)]
    fn reorders(&self) -> bool {
        !matches!(self, MoveOrdering::Natural)
    }

    #[inline]
    fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]) {
        match self {
            MoveOrdering::Natural => Natural.order(game, state, player, ply, moves),
            MoveOrdering::Reversed => Reversed.order(game, state, player, ply, moves),
            MoveOrdering::Preference(o) => o.order(game, state, player, ply, moves),
            MoveOrdering::BestFirst(o) | MoveOrdering::WorstFirst(o) => o.order(game, state, player, ply, moves),
            MoveOrdering::Shuffled(o) => Orderer::<G>::order(o, game, state, player, ply, moves),
            MoveOrdering::Static(o) => o.order(game, state, player, ply, moves),
            MoveOrdering::Shallow(o) => o.order(game, state, player, ply, moves),
            MoveOrdering::History(o) => o.order(game, state, player, ply, moves),
        }
    }

    /// Those that do not learn, but the shuffle ([`Shuffled`] draws differently from fewer moves).
    #[inline(always)]
    fn stages(&self) -> bool {
        !matches!(self, MoveOrdering::Shuffled(_)) && !Orderer::<G>::learns(self)
    }

    #[inline(always)]
    fn learns(&self) -> bool {
        match self {
            MoveOrdering::History(_) => true,
            MoveOrdering::Shallow(o) => Orderer::<G>::learns(o),
            _ => false,
        }
    }

    #[inline]
    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        match self {
            MoveOrdering::History(o) => Orderer::<G>::reward(o, mv, ply, depth),
            MoveOrdering::Shallow(o) => o.reward(mv, ply, depth),
            _ => {}
        }
    }
}

impl<G: Game> Clone for MoveOrdering<G> {
    fn clone(&self) -> Self {
        match self {
            MoveOrdering::Natural => MoveOrdering::Natural,
            MoveOrdering::Reversed => MoveOrdering::Reversed,
            MoveOrdering::Preference(o) => MoveOrdering::Preference(o.clone()),
            MoveOrdering::BestFirst(o) => MoveOrdering::BestFirst(o.clone()),
            MoveOrdering::WorstFirst(o) => MoveOrdering::WorstFirst(o.clone()),
            MoveOrdering::Shuffled(o) => MoveOrdering::Shuffled(o.clone()),
            MoveOrdering::Static(o) => MoveOrdering::Static(o.clone()),
            MoveOrdering::Shallow(o) => MoveOrdering::Shallow(o.clone()),
            MoveOrdering::History(o) => MoveOrdering::History(o.clone()),
        }
    }
}

impl<G: Game> fmt::Debug for MoveOrdering<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveOrdering::Preference(Preference(list)) => write!(f, "Preference({list:?})"),
            MoveOrdering::Shallow(o) => write!(f, "Shallow {{ plies: {} }}", o.plies()),
            other => f.write_str(other.name()),
        }
    }
}
