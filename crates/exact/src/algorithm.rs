//! The exact-search algorithms, with the names tables and command lines use for them.

use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};

/// The exact-search algorithms. At chance nodes every one of them takes the probability-weighted mean of the
/// outcomes, each searched with a full window: that is expectiminimax.
///
/// Each has one name, its [`Display`](std::fmt::Display) form, which [`FromStr`](std::str::FromStr) reads back
/// and tables and command lines use; [`VariantArray::VARIANTS`] lists them all, in the order below;
/// [`EnumMessage::get_message`] describes each in a few words, [`EnumMessage::get_documentation`] in full.
///
/// ```
/// use khela_exact::Algorithm;
/// assert_eq!(Algorithm::IterativeDeepening.to_string(), "id");
/// assert_eq!("negamax-alphabeta".parse(), Ok(Algorithm::NegamaxAlphaBeta));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: MAX maximises, MIN minimises, every node is searched.
    #[strum(message = "Plain minimax: every node")]
    Minimax,
    /// Minimax with alpha-beta pruning: a node's remaining children are cut when α ≥ β.
    #[strum(message = "Alpha-beta")]
    AlphaBeta,
    /// Minimax in the side-to-move view: every node maximises the negated values of its children.
    #[strum(message = "Minimax in the side-to-move view")]
    Negamax,
    /// Negamax with alpha-beta pruning.
    #[strum(serialize = "negamax-alphabeta", message = "Negamax with alpha-beta")]
    NegamaxAlphaBeta,
    /// NegaScout (principal variation search): the first child with the full window, the others with a null
    /// window around α, re-searched with (v, β) when they fail high.
    #[strum(message = "NegaScout (principal variation search)")]
    NegaScout,
    /// MTD(f): null-window alpha-beta searches, with the searcher's cache as memory, converging on the value
    /// from a first guess (the evaluator's value of the root, or 0).
    #[strum(message = "MTD(f): null-window searches from a first guess, with a table as memory")]
    MtdF,
    /// Iterative deepening: alpha-beta to depth 1, 2, … with the evaluator at the horizon, each iteration
    /// ordered by the best moves the cache kept from the one before, until an iteration meets no horizon (or
    /// reaches the depth limit of [`crate::Searcher::run_to_depth`]). With bounds on the values
    /// ([`crate::Searcher::with_bounds`]), its iterations prune chance nodes as [`Algorithm::Star2`] does.
    #[strum(serialize = "id", message = "Iterative deepening alpha-beta, the evaluator at the horizon, with a table")]
    IterativeDeepening,
    /// Alpha-beta with Ballard's Star1 pruning at chance nodes: with every leaf value known to lie in
    /// [`crate::Searcher::with_bounds`]' range, a chance node stops as soon as the outcomes searched so far, with
    /// the others at their bounds, settle it outside the window; each outcome is searched with the window that
    /// matters for the node. Without bounds it is [`Algorithm::AlphaBeta`].
    #[strum(message = "Alpha-beta with Ballard's Star1 pruning at chance nodes, given bounds on the values")]
    Star1,
    /// Star1 with Star2's probing phase first: at a chance node whose outcomes lead to decision nodes, each of
    /// them is probed by searching its first move only, which bounds its value from the mover's side; the
    /// chance node stops if the probes already settle it, and the Star1 phase starts from the tighter bounds.
    #[strum(message = "Star1 after Star2's probing phase")]
    Star2,
}

impl Algorithm {
    /// Every algorithm, in the order above ([`VariantArray::VARIANTS`], without the trait in scope).
    pub const ALL: &'static [Algorithm] = <Algorithm as VariantArray>::VARIANTS;

    /// The name used in tables and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let names: Vec<&str> = Algorithm::VARIANTS.iter().map(|a| a.name()).collect();
        assert_eq!(
            names,
            ["minimax", "alphabeta", "negamax", "negamax-alphabeta", "negascout", "mtdf", "id", "star1", "star2"]
        );
        for &algorithm in Algorithm::VARIANTS {
            assert_eq!(algorithm.name().parse(), Ok(algorithm));
            assert!(algorithm.get_documentation().is_some_and(|doc| !doc.is_empty()), "{algorithm}");
            assert!(algorithm.get_message().is_some_and(|message| !message.is_empty()), "{algorithm}");
        }
    }
}
