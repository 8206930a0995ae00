//! Monte Carlo search chosen by name: the one list of names for policies, priors and parallelism, and the one
//! dispatcher from names to a search, for every front end (the harness's command line, Python bindings).
//!
//! A [`MctsPlan`] names what to run ([`PolicyKind`], [`PriorKind`], the generator [`Rng`], [`Parallelism`]) and how
//! much; [`run`] builds the policy, picks the generator type, runs root or tree parallelism on the current rayon
//! pool, and chooses the move, so that the same plan gives the same numbers whoever calls it (but tree
//! parallelism on several threads, whose threads race for the tree). The names come
//! from the variants (`strum`, lowercase), as for [`Rng`]: [`std::fmt::Display`] writes them,
//! [`std::str::FromStr`] reads them, [`strum::VariantArray::VARIANTS`] lists them and
//! [`strum::EnumMessage::get_documentation`] gives each one's one-line doc, for a command line's help.
//!
//! # Examples
//!
//! ```
//! use khela_games::rng::Rng;
//! use khela_games::tictactoe::{Board, TicTacToe};
//! use khela_games::{Evaluator, NoEvaluator, Value};
//! use khela_mcts::{EvaluatorPrior, MctsConfig, MctsPlan, Parallelism, PlanError, PriorKind, plan};
//!
//! /// X's stones minus O's.
//! #[derive(Clone)]
//! struct Material;
//!
//! impl Evaluator<TicTacToe> for Material {
//!     fn evaluate(&self, _: &TicTacToe, board: &Board) -> Value {
//!         Value::from(board.x.count_ones()) - Value::from(board.o.count_ones())
//!     }
//!
//!     fn bound(&self) -> Value {
//!         5.0
//!     }
//! }
//!
//! let plan = MctsPlan {
//!     policy: "puct".parse().unwrap(),
//!     prior: Some(PriorKind::Evaluator),
//!     rng: Rng::Python,
//!     parallelism: Parallelism::Root,
//!     threads: 1,
//!     iterations: 2000,
//! };
//! let config = MctsConfig { seed: 1, choice: plan.policy.choice(), ..MctsConfig::default() };
//! let board = TicTacToe::parse("XX.OO....").unwrap();
//! let prior = EvaluatorPrior { evaluator: Material, temperature: 1.0 };
//! let found = plan::run(&TicTacToe, board, &plan, config, Some(prior)).unwrap();
//! assert_eq!(found.best, Some(2)); // X completes the top row.
//! assert_eq!(found.summary.iterations, 2000);
//!
//! // A game without an evaluator passes NoEvaluator's type, and cannot have the evaluator prior.
//! let refused = plan::run(&TicTacToe, board, &plan, config, None::<EvaluatorPrior<NoEvaluator>>);
//! assert_eq!(refused, Err(PlanError::NoEvaluator));
//! ```

use crate::choose;
use crate::meter::Meter;
use crate::parallel::root_parallel_metered;
use crate::random::{Pcg, Python, Random};
use crate::{EvaluatorPrior, FinalMove, Flat, MctsConfig, MoveStats, Policy, Puct, RunSummary, Search, Uct, Uniform};
use khela_games::rng::Rng;
use khela_games::{Evaluator, Game};
use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};
use thiserror::Error;

/// The searches, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum PolicyKind {
    /// Flat Monte Carlo: the iterations are playouts after each move (the move usually chosen: the best mean).
    Flat,
    /// UCT: UCB1 selection, c = √2 (the move usually chosen: the most visited).
    Uct,
    /// PUCT (AlphaZero's rule) with the plan's prior (the move usually chosen: the most visited).
    Puct,
}

impl PolicyKind {
    /// How the policy's final move is usually chosen: the best mean for flat Monte Carlo
    /// ([`FinalMove::BestMean`]), the most visited move for UCT and PUCT ([`FinalMove::MostVisits`]).
    pub fn choice(self) -> FinalMove {
        match self {
            PolicyKind::Flat => FinalMove::BestMean,
            PolicyKind::Uct | PolicyKind::Puct => FinalMove::MostVisits,
        }
    }
}

/// PUCT's priors, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum PriorKind {
    /// Every move equally likely.
    Uniform,
    /// A softmax over the game's evaluator's estimates of the children.
    Evaluator,
}

/// How threads share the work, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum Parallelism {
    /// One tree per thread (seeds S, S+1, …), iterations shared out, counts summed: same threads, same output.
    Root,
    /// One tree shared by the threads, with virtual loss: with more than one thread the output varies.
    Tree,
}

/// A Monte Carlo search by name: what to run and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MctsPlan {
    /// The search.
    pub policy: PolicyKind,
    /// PUCT's prior; `None` is the uniform prior. Only PUCT takes one: naming a prior for flat Monte Carlo or
    /// UCT is refused.
    pub prior: Option<PriorKind>,
    /// The generator of every random choice.
    pub rng: Rng,
    /// How threads share the work.
    pub parallelism: Parallelism,
    /// The threads: the trees of root parallelism, the threads sharing the tree of tree parallelism.
    pub threads: usize,
    /// The iterations; for flat Monte Carlo, playouts after each move (at most [`u32::MAX`]).
    pub iterations: u64,
}

/// Why a plan was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PlanError {
    /// A prior named for a policy that takes none.
    #[error("prior {prior} is for the puct policy, not {policy}")]
    PriorWithoutPuct {
        /// The prior named.
        prior: PriorKind,
        /// The policy, flat or uct.
        policy: PolicyKind,
    },
    /// The evaluator prior, without an evaluator to take it from.
    #[error("prior evaluator needs an evaluator of the game, and none was given")]
    NoEvaluator,
    /// More playouts per move than flat Monte Carlo counts.
    #[error("{iterations} playouts after each move for flat Monte Carlo; the most is {}", u32::MAX)]
    PerMoveTooLarge {
        /// The iterations asked for.
        iterations: u64,
    },
    /// No thread to search on.
    #[error("threads 0: a search needs at least one thread")]
    NoThreads,
}

impl MctsPlan {
    /// The playouts in all from a position with `moves` legal moves: for flat Monte Carlo, the iterations after
    /// each move times the moves (saturating at [`u64::MAX`]); otherwise the iterations.
    ///
    /// ```
    /// use khela_games::rng::Rng;
    /// use khela_mcts::{MctsPlan, Parallelism, PolicyKind};
    /// let plan = MctsPlan {
    ///     policy: PolicyKind::Flat,
    ///     prior: None,
    ///     rng: Rng::Pcg,
    ///     parallelism: Parallelism::Root,
    ///     threads: 1,
    ///     iterations: 1000,
    /// };
    /// assert_eq!(plan.total_iterations(7), 7000);
    /// assert_eq!(MctsPlan { policy: PolicyKind::Uct, ..plan }.total_iterations(7), 1000);
    /// ```
    pub fn total_iterations(&self, moves: usize) -> u64 {
        match self.policy {
            PolicyKind::Flat => self.iterations.saturating_mul(moves as u64),
            PolicyKind::Uct | PolicyKind::Puct => self.iterations,
        }
    }

    /// Checks what can be checked without a game: a prior only for PUCT, flat Monte Carlo's playouts per move
    /// within [`u32::MAX`], at least one thread. [`run`] checks it too; a front end may call it first, to refuse
    /// a plan before it reads a position.
    ///
    /// # Errors
    ///
    /// [`PlanError::PriorWithoutPuct`], [`PlanError::PerMoveTooLarge`] or [`PlanError::NoThreads`], naming the
    /// bad value.
    pub fn check(&self) -> Result<(), PlanError> {
        if let (Some(prior), PolicyKind::Flat | PolicyKind::Uct) = (self.prior, self.policy) {
            return Err(PlanError::PriorWithoutPuct { prior, policy: self.policy });
        }
        if self.policy == PolicyKind::Flat && u32::try_from(self.iterations).is_err() {
            return Err(PlanError::PerMoveTooLarge { iterations: self.iterations });
        }
        if self.threads == 0 {
            return Err(PlanError::NoThreads);
        }
        Ok(())
    }
}

/// What a planned search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The root's moves, in natural order (for root parallelism, summed over the trees).
    pub stats: Vec<MoveStats<M>>,
    /// What the search did (for root parallelism, summed over the trees).
    pub summary: RunSummary,
    /// The move chosen by `config.choice`, or `None` when no move was searched.
    pub best: Option<M>,
}

/// Searches `state` as `plan` says, with the settings of `config`, on the current rayon pool (install a pool of
/// `plan.threads` threads to have them all), and chooses the move.
///
/// The policy is [`Flat`] with the plan's iterations per move, [`Uct::default`], or [`Puct::new`] with
/// [`Uniform`] or `evaluator`; the generator is [`Pcg`] or [`Python`]. Root parallelism is
/// [`root_parallel`](crate::root_parallel) with `plan.threads` trees, tree parallelism [`Search::run_parallel`]
/// on `plan.threads` threads, both for [`MctsPlan::total_iterations`]. The move is [`choose`]n from the statistics by `config.choice` with a fresh
/// generator seeded by `config.seed` (not the search's, which tree parallelism has drawn from), so a plan gives
/// the same numbers as the same search written by hand. At a terminal position nothing is searched: no
/// statistics and no move.
///
/// Pass `None::<EvaluatorPrior<NoEvaluator>>` (see [`khela_games::NoEvaluator`]) for a game without an evaluator.
///
/// # Errors
///
/// Those of [`MctsPlan::check`], and [`PlanError::NoEvaluator`] for the evaluator prior when `evaluator` is `None`.
pub fn run<G, E>(
    game: &G,
    state: G::State,
    plan: &MctsPlan,
    config: MctsConfig,
    evaluator: Option<EvaluatorPrior<E>>,
) -> Result<MctsResult<G::Move>, PlanError>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync,
{
    run_metered(game, state, plan, config, evaluator, &Meter::new())
}

/// [`run`], counting each iteration on `meter` as it is run (on whichever thread runs it), so that another thread
/// can show the search's progress against [`MctsPlan::total_iterations`], and stopping when the meter is stopped.
/// Unstopped, the outcome is [`run`]'s, to the bit.
///
/// # Errors
///
/// Those of [`run`].
pub fn run_metered<G, E>(
    game: &G,
    state: G::State,
    plan: &MctsPlan,
    config: MctsConfig,
    evaluator: Option<EvaluatorPrior<E>>,
    meter: &Meter,
) -> Result<MctsResult<G::Move>, PlanError>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync,
{
    plan.check()?;
    let mut moves = Vec::new();
    game.moves(&state, &mut moves);
    let run = Run { game, plan, config, iterations: plan.total_iterations(moves.len()), meter };
    Ok(match (plan.policy, plan.prior.unwrap_or(PriorKind::Uniform)) {
        (PolicyKind::Flat, _) => {
            let per_move = u32::try_from(plan.iterations).expect("checked by MctsPlan::check");
            run.with_policy(state, Flat { per_move })
        }
        (PolicyKind::Uct, _) => run.with_policy(state, Uct::default()),
        (PolicyKind::Puct, PriorKind::Uniform) => run.with_policy(state, Puct::new(Uniform)),
        (PolicyKind::Puct, PriorKind::Evaluator) => {
            run.with_policy(state, Puct::new(evaluator.ok_or(PlanError::NoEvaluator)?))
        }
    })
}

/// What a search needs besides its policy and position.
struct Run<'a, G> {
    game: &'a G,
    plan: &'a MctsPlan,
    config: MctsConfig,
    iterations: u64,
    meter: &'a Meter,
}

impl<G> Run<'_, G>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    /// Searches `state` with `policy` and the plan's generator.
    fn with_policy<P: Policy<G> + Clone + Send + Sync>(&self, state: G::State, policy: P) -> MctsResult<G::Move> {
        match self.plan.rng {
            Rng::Pcg => self.search::<P, Pcg>(state, policy),
            Rng::Python => self.search::<P, Python>(state, policy),
        }
    }

    /// Searches `state` with `policy` and generator `R`, in the plan's parallelism.
    fn search<P, R>(&self, state: G::State, policy: P) -> MctsResult<G::Move>
    where
        P: Policy<G> + Clone + Send + Sync,
        R: Random + Send,
    {
        let Run { game, plan, config, iterations, meter } = *self;
        let (stats, summary) = match plan.parallelism {
            Parallelism::Root => {
                root_parallel_metered::<G, P, R>(game, &state, &policy, &config, plan.threads, iterations, Some(meter))
            }
            Parallelism::Tree => {
                let mut search: Search<'_, G, P, R> = Search::new(game, state, policy, config).metered(meter);
                let summary = search.run_parallel(iterations, plan.threads);
                (search.stats(), summary)
            }
        };
        let best = choose(&stats, config.choice, &mut R::from_seed(config.seed));
        MctsResult { stats, summary, best }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::{EnumMessage, VariantArray};

    /// Each variant's name reads back as the variant, and its doc is one line of help.
    fn round_trips<T>(expected: &[&str])
    where
        T: VariantArray + EnumMessage + Copy + PartialEq + std::fmt::Debug + std::fmt::Display,
        T: std::str::FromStr + Into<&'static str>,
        <T as std::str::FromStr>::Err: std::fmt::Debug,
    {
        let names: Vec<&str> = T::VARIANTS.iter().map(|&v| v.into()).collect();
        assert_eq!(names, expected);
        for &variant in T::VARIANTS {
            let name: &'static str = variant.into();
            assert_eq!(variant.to_string(), name);
            assert_eq!(name.parse::<T>().unwrap(), variant);
            let help = variant.get_documentation().unwrap_or_default();
            assert!(!help.is_empty() && !help.contains('\n'), "{name}: {help:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        round_trips::<PolicyKind>(&["flat", "uct", "puct"]);
        round_trips::<PriorKind>(&["uniform", "evaluator"]);
        round_trips::<Parallelism>(&["root", "tree"]);
        assert!("UCT".parse::<PolicyKind>().is_err(), "names are lowercase");
    }

    #[test]
    fn refuses_bad_plans() {
        let plan = MctsPlan {
            policy: PolicyKind::Uct,
            prior: Some(PriorKind::Evaluator),
            rng: Rng::Pcg,
            parallelism: Parallelism::Root,
            threads: 1,
            iterations: 100,
        };
        let err = plan.check().unwrap_err();
        assert_eq!(err, PlanError::PriorWithoutPuct { prior: PriorKind::Evaluator, policy: PolicyKind::Uct });
        assert_eq!(err.to_string(), "prior evaluator is for the puct policy, not uct");
        let flat = MctsPlan { policy: PolicyKind::Flat, prior: Some(PriorKind::Uniform), ..plan };
        assert!(flat.check().unwrap_err().to_string().starts_with("prior uniform is for the puct policy, not flat"));
        let huge = MctsPlan { policy: PolicyKind::Flat, prior: None, iterations: 1 << 32, ..plan };
        assert_eq!(huge.check(), Err(PlanError::PerMoveTooLarge { iterations: 1 << 32 }));
        assert!(huge.check().unwrap_err().to_string().contains("4294967296 playouts after each move"));
        assert!(MctsPlan { policy: PolicyKind::Uct, prior: None, iterations: 1 << 32, ..plan }.check().is_ok());
        let idle = MctsPlan { policy: PolicyKind::Puct, threads: 0, ..plan };
        assert_eq!(idle.check(), Err(PlanError::NoThreads));
    }

    #[test]
    fn choices() {
        assert_eq!(PolicyKind::Flat.choice(), FinalMove::BestMean);
        assert_eq!(PolicyKind::Uct.choice(), FinalMove::MostVisits);
        assert_eq!(PolicyKind::Puct.choice(), FinalMove::MostVisits);
    }
}
