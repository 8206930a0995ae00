//! Tree policies: what the one search loop asks at a node — grow one child or all of them, how deep to go, and
//! which child to descend into.
//!
//! [`Flat`] (flat Monte Carlo), [`Uct`] (UCB1) and [`Puct`] (AlphaZero's rule) are the three; the loop
//! ([`crate::Search`]) is the same for all of them.

use crate::prior::{Prior, Uniform};
use khela_games::Game;
use std::sync::LazyLock;

/// How a node grows its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// One untried move per visit, drawn uniformly from the untried moves (kept in natural order), until none
    /// is left; only then does selection choose among the children (UCT).
    OneAtRandom,
    /// Every child at once, in natural order, when the node is first passed through; selection chooses among
    /// them from the start, unvisited ones included (flat Monte Carlo, PUCT).
    All,
}

/// What a policy sees of a child when it scores it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child {
    /// Visits, virtual losses included.
    pub visits: f64,
    /// The sum of the scores (win 1, draw ½, loss 0) of the player who moved into the child.
    pub wins: f64,
    /// The prior probability of the move (1 / moves under a uniform prior).
    pub prior: f64,
}

/// A tree policy.
pub trait Policy<G: Game> {
    /// How a node grows its children.
    fn expansion(&self) -> Expansion;

    /// The depth below which the tree does not grow: nodes at this depth are played out from, never opened
    /// (flat Monte Carlo: 1, the root's children). The root is at depth 0.
    fn max_depth(&self) -> usize {
        usize::MAX
    }

    /// Clears `out` and writes the prior probability of each of `moves` (the legal moves of decision node
    /// `state`, in natural order). The default is uniform.
    fn priors(&self, game: &G, state: &G::State, moves: &[G::Move], out: &mut Vec<f64>) {
        Uniform.priors(game, state, moves, out);
    }

    /// The part of the score that depends on the parent only, computed once per selection from its visits
    /// (UCB1: ln N; PUCT: √N).
    fn parent_term(&self, visits: f64) -> f64;

    /// The score of a child; selection descends into the first child with the largest score.
    fn score(&self, child: Child, parent_term: f64) -> f64;

    /// The policies and iterations of `parts` independent trees that together do the work of one search of
    /// `iterations` iterations (root parallelism). The default: this policy in every tree, the iterations
    /// shared out evenly (the first trees one more when they do not divide).
    fn split(&self, iterations: u64, parts: usize) -> Vec<(Self, u64)>
    where
        Self: Sized + Clone,
    {
        (0..parts as u64).map(|k| (self.clone(), share(iterations, k, parts as u64))).collect()
    }
}

/// Part `k` of `total` shared out evenly between `parts`, the first parts one more when they do not divide.
fn share(total: u64, k: u64, parts: u64) -> u64 {
    total / parts + u64::from(k < total % parts)
}

/// UCB1 = w/n + c·√(ln N / n): the mean score of the player who moved into a child (`wins` over `visits`),
/// plus an exploration bonus that grows with the parent's visits `parent_visits` and shrinks with the child's.
///
/// ```
/// // A child won 4 of its 5 playouts; its parent was visited 16 times; c = √2.
/// let value = khela_mcts::ucb1(4.0, 5.0, 16.0, std::f64::consts::SQRT_2);
/// assert_eq!(format!("{value:.2}"), "1.85");
/// ```
pub fn ucb1(wins: f64, visits: f64, parent_visits: f64, c: f64) -> f64 {
    ucb1_from_log(wins, visits, parent_visits.ln(), c)
}

/// UCB1 from ln N, in the textbook reference's order of operations (so that equal scores tie alike).
#[inline]
fn ucb1_from_log(wins: f64, visits: f64, ln_parent: f64, c: f64) -> f64 {
    wins / visits + c * (ln_parent / visits).sqrt()
}

/// The index of the first child with the largest score, skipping the `None`s (children a solver proved lost
/// for the player choosing); `None` if every child was skipped.
pub fn select<G: Game, P: Policy<G> + ?Sized>(
    policy: &P,
    parent_visits: f64,
    children: impl IntoIterator<Item = Option<Child>>,
) -> Option<usize> {
    // Children are scored a batch at a time into an array, a loop without branches that the compiler turns
    // into vector arithmetic (the divisions and square roots dominate selection).
    const BATCH: usize = 8;
    let term = policy.parent_term(parent_visits);
    let mut children = children.into_iter();
    let mut best: Option<(usize, f64)> = None;
    let mut base = 0;
    loop {
        let mut batch = [Child { visits: 1.0, wins: 0.0, prior: 0.0 }; BATCH];
        let mut open = [false; BATCH];
        let mut len = 0;
        for child in (&mut children).take(BATCH) {
            if let Some(child) = child {
                (batch[len], open[len]) = (child, true);
            }
            len += 1;
        }
        let scores: [f64; BATCH] = std::array::from_fn(|i| policy.score(batch[i], term));
        for i in (0..len).filter(|&i| open[i]) {
            // Strictly larger: the first of equal scores wins, as the textbook's reference selects.
            if best.is_none_or(|(_, top)| scores[i] > top) {
                best = Some((base + i, scores[i]));
            }
        }
        if len < BATCH {
            return best.map(|(index, _)| index);
        }
        base += BATCH;
    }
}

/// Flat Monte Carlo: the root's children only, each played out `per_move` times, all the playouts of the first
/// move (in natural order), then all of the second, and so on. Choose the final move by its mean
/// ([`crate::FinalMove::BestMean`]); a search of `per_move` × moves iterations gives every move its playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flat {
    /// The playouts of each move.
    pub per_move: u32,
}

impl<G: Game> Policy<G> for Flat {
    fn expansion(&self) -> Expansion {
        Expansion::All
    }

    fn max_depth(&self) -> usize {
        1
    }

    fn parent_term(&self, _: f64) -> f64 {
        0.0
    }

    /// 1 for a child still short of its playouts, 0 otherwise: the first such child is played out.
    fn score(&self, child: Child, _: f64) -> f64 {
        f64::from(u8::from(child.visits < f64::from(self.per_move)))
    }

    /// Each move's playouts shared out between the trees (`iterations` is `per_move` × moves).
    fn split(&self, iterations: u64, parts: usize) -> Vec<(Self, u64)> {
        let moves = iterations / u64::from(self.per_move.max(1));
        (0..parts as u64)
            .map(|k| {
                let per_move = share(u64::from(self.per_move), k, parts as u64);
                (Flat { per_move: per_move as u32 }, per_move * moves)
            })
            .collect()
    }
}

/// UCT: UCB1 selection ([`ucb1`]) with exploration constant `c`, one child expanded at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uct {
    /// The exploration constant.
    pub c: f64,
}

impl Default for Uct {
    /// c = √2, the textbook's (and Kocsis and Szepesvári's, for rewards in [0, 1]).
    fn default() -> Uct {
        Uct { c: std::f64::consts::SQRT_2 }
    }
}

impl<G: Game> Policy<G> for Uct {
    fn expansion(&self) -> Expansion {
        Expansion::OneAtRandom
    }

    /// ln N, from a table of the small counts that most nodes have (the same values `ln` computes).
    fn parent_term(&self, visits: f64) -> f64 {
        static LN: LazyLock<Vec<f64>> = LazyLock::new(|| (0..4096).map(|n| f64::from(n).ln()).collect());
        match LN.get(visits as usize) {
            Some(&ln) if visits.fract() == 0.0 => ln,
            _ => visits.ln(),
        }
    }

    #[inline]
    fn score(&self, child: Child, ln_parent: f64) -> f64 {
        ucb1_from_log(child.wins, child.visits, ln_parent, self.c)
    }
}

/// PUCT, AlphaZero's rule: Q + c_puct · P · √N / (1 + n), with the priors P of a [`Prior`]; all children are
/// created at once. Scores lie in [0, 1] (AlphaZero's values in [−1, 1]); an unvisited child's Q is
/// `unvisited`, by default ½, a draw, as AlphaZero's Q = 0 is on its scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct<P> {
    /// The exploration constant c_puct.
    pub c: f64,
    /// Q of a child not yet visited.
    pub unvisited: f64,
    /// Where the priors come from.
    pub prior: P,
}

impl<P> Puct<P> {
    /// PUCT with `prior`, c_puct = 1 and unvisited children worth a draw.
    pub fn new(prior: P) -> Puct<P> {
        Puct { c: 1.0, unvisited: 0.5, prior }
    }
}

impl<G: Game, P: Prior<G>> Policy<G> for Puct<P> {
    fn expansion(&self) -> Expansion {
        Expansion::All
    }

    fn priors(&self, game: &G, state: &G::State, moves: &[G::Move], out: &mut Vec<f64>) {
        self.prior.priors(game, state, moves, out);
    }

    fn parent_term(&self, visits: f64) -> f64 {
        visits.sqrt()
    }

    #[inline]
    fn score(&self, child: Child, sqrt_parent: f64) -> f64 {
        let q = if child.visits > 0.0 { child.wins / child.visits } else { self.unvisited };
        q + self.c * child.prior * sqrt_parent / (1.0 + child.visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::tictactoe::TicTacToe;

    /// The textbook's UCB1 exercise: a root visited 16 times; children A (n = 10, w = 7), B (n = 5, w = 4) and
    /// C (n = 1, w = 1); c = √2. The textbook gives 1.45, 1.85 and 3.35, and C is selected. A's exact value is
    /// 1.4447 (0.7 + 0.7447), which is 1.44 to two decimals: the textbook's 1.45 rounds the bonus to 0.745
    /// first. So the test asserts the exact values to four decimals, and each within rounding of the book's.
    #[test]
    fn ucb1_textbook_exercise() {
        let children = [(7.0, 10.0), (4.0, 5.0), (1.0, 1.0)];
        let values = children.map(|(w, n)| ucb1(w, n, 16.0, std::f64::consts::SQRT_2));
        assert_eq!(values.map(|v| format!("{v:.4}")), ["1.4447", "1.8531", "3.3548"]);
        for (value, book) in values.iter().zip([1.45, 1.85, 3.35]) {
            assert!((value - book).abs() < 0.006, "{value} against the book's {book}");
        }
        let stats = children.map(|(wins, visits)| Some(Child { visits, wins, prior: 0.0 }));
        assert_eq!(select::<TicTacToe, _>(&Uct::default(), 16.0, stats), Some(2));
    }

    #[test]
    fn selection_takes_the_first_of_equal_scores_and_skips_proven_losses() {
        let even = Child { visits: 2.0, wins: 1.0, prior: 0.5 };
        assert_eq!(select::<TicTacToe, _>(&Uct::default(), 4.0, [Some(even), Some(even)]), Some(0));
        assert_eq!(select::<TicTacToe, _>(&Uct::default(), 4.0, [None, Some(even)]), Some(1));
        assert_eq!(select::<TicTacToe, _>(&Uct::default(), 4.0, [None, None]), None);
    }

    #[test]
    fn puct_follows_the_prior_before_any_visit() {
        let puct = Puct::new(Uniform);
        let child = |prior| Some(Child { visits: 0.0, wins: 0.0, prior });
        assert_eq!(select::<TicTacToe, _>(&puct, 1.0, [child(0.2), child(0.5), child(0.3)]), Some(1));
        // Q + c·P·√N/(1 + n) = 0.75 + 0.5·2/3.
        let score = Policy::<TicTacToe>::score(&puct, Child { visits: 2.0, wins: 1.5, prior: 0.5 }, 2.0);
        assert!((score - (0.75 + 1.0 / 3.0)).abs() < 1e-15);
    }

    #[test]
    fn flat_fills_the_first_move_short_of_its_playouts() {
        let flat = Flat { per_move: 3 };
        let child = |visits| Some(Child { visits, wins: 0.0, prior: 0.0 });
        assert_eq!(select::<TicTacToe, _>(&flat, 7.0, [child(3.0), child(1.0), child(0.0)]), Some(1));
    }
}
