//! What a search found at the root — each move's statistics, proofs and the run's summary — and the move chosen
//! from them.

use crate::random::{Random, pick};

/// How the final move is chosen from the root's children.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FinalMove {
    /// The most visited (the first in natural order among equals): UCT's and PUCT's usual choice.
    MostVisits,
    /// The best mean score (the first among equals): flat Monte Carlo's choice.
    BestMean,
    /// Sampled with probability proportional to visits^(1/τ) (AlphaZero's early-game exploration); τ ≤ 0 is
    /// [`FinalMove::MostVisits`].
    Temperature(f64),
}

/// A move proved won or lost, from the view of the player who makes it. Named `win` and `loss`
/// ([`std::fmt::Display`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::Display, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Proof {
    /// The move wins under perfect play.
    Win,
    /// The move loses under perfect play.
    Loss,
}

/// What the search knows of one move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move (or chance outcome, at a chance root).
    pub mv: M,
    /// Iterations through the move (for flat Monte Carlo, its playouts).
    pub visits: u64,
    /// The sum of the mover's scores over those iterations: win 1, draw ½, loss 0.
    pub wins: f64,
    /// What the solver proved of the move.
    pub proof: Option<Proof>,
}

impl<M> MoveStats<M> {
    /// The mover's mean score, `wins / visits` (NaN before any visit).
    pub fn mean(&self) -> f64 {
        self.wins / self.visits as f64
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Iterations run (fewer than asked when the root was proved, or is terminal).
    pub iterations: u64,
    /// Nodes in the tree (in all trees, for root parallelism).
    pub nodes: usize,
    /// Times the node budget stopped the tree from growing.
    pub refused: u64,
}

/// The move `choice` picks from root statistics: a move proved won first; then, among the moves not proved
/// lost (all of them if every one is), by visits, mean or a temperature draw from `rng`.
pub fn choose<M: Copy, R: Random + ?Sized>(stats: &[MoveStats<M>], choice: FinalMove, rng: &mut R) -> Option<M> {
    if let Some(win) = stats.iter().find(|s| s.proof == Some(Proof::Win)) {
        return Some(win.mv);
    }
    let open: Vec<&MoveStats<M>> = stats.iter().filter(|s| s.proof != Some(Proof::Loss)).collect();
    let candidates = if open.is_empty() { stats.iter().collect() } else { open };
    let first_max = |key: &dyn Fn(&MoveStats<M>) -> f64| {
        candidates.iter().fold(None::<&MoveStats<M>>, |best, s| match best {
            Some(b) if key(b) >= key(s) => Some(b),
            _ => Some(s),
        })
    };
    let pick = match choice {
        FinalMove::Temperature(t) if t > 0.0 => {
            let weights: Vec<f64> = candidates.iter().map(|s| (s.visits as f64).powf(1.0 / t)).collect();
            let total: f64 = weights.iter().sum();
            Some(candidates[pick(rng.unit() * total, weights.iter().copied())])
        }
        FinalMove::MostVisits | FinalMove::Temperature(_) => first_max(&|s| s.visits as f64),
        FinalMove::BestMean => first_max(&|s| s.mean()),
    };
    pick.map(|s| s.mv)
}
