//! Layered backward induction: the exact value of every position of a [`Space`] whose stages are acyclic, each
//! stage valued in one pass from the stages its moves lead to — no fixed point to iterate to, as retrograde
//! analysis ([`crate::retro`]) must find in a game whose positions repeat.
//!
//! A game with a phase that only goes forward is such a space: Bagh-Chal's placement phase (a goat placed each
//! turn of the goats'; `khela_games::bagh_chal::placement`), the placing phase of Nine Men's Morris and of
//! the other mill games, the setup of any game whose pieces enter one by one and never leave the hand again,
//! and every game whose positions never repeat (tic-tac-toe, Connect-4, Nim, when numbered by the moves made).
//! Its moves may leave the space for positions valued already — the phase that follows, solved by retrograde
//! analysis — which `outside` gives.
//!
//! # The algorithm
//!
//! The layers of [`Space::stages`] are valued in order, the first first. The promise asked of the space is
//! stronger than the contract's: every move leads to a terminal position, to a position of an *earlier layer*
//! (never to one of its own stage), or out of the space, where `outside` values it. A position's outcome for the
//! side to move is the best of its moves' — a win in `d + 1` plies over a move to a position lost in `d`, the
//! quickest; a draw over a draw; a loss in `d + 1` over a win in `d` for the opponent, the slowest — with
//! retrograde analysis's distances ([`Outcome`]), so that tables of both kinds agree where they meet. A layer
//! is one parallel pass (rayon, in the calling pool) over its numbers, each written by one thread from values
//! already final: the table is the same for any number of threads.
//!
//! # Spaces too large for memory
//!
//! [`solve`] keeps every number's outcome, two bytes each, for the whole space. Bagh-Chal's placement phase has
//! 3.5·10¹⁰ numbers on the standard board; its fast path ([`bagh_chal`]) values one layer at a time from the
//! layer before, win, draw or loss in two bits a number ([`Packed`], [`Wdl`]), each layer handed to the caller
//! to write where it likes, and is checked number for number against [`solve`] on small variants.

pub mod bagh_chal;
mod packed;

pub use packed::{Packed, Wdl};

use crate::retro::{Outcome, OutcomeTable, UNUSED};
use khela_games::{Game, Node, Space};
use rayon::prelude::*;
use thiserror::Error;

/// Why a space could not be valued by layers: a broken promise of the space, or of `outside`.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LayeredError {
    /// A move into the mover's own layer or a later one: the stages are not acyclic as the solver needs.
    #[error(
        "{position} (layer {layer}) moves to the position numbered {child}, in layer {child_layer}: a layer's moves must lead to earlier layers"
    )]
    Order {
        /// The position, as the game's `Debug` writes it.
        position: String,
        /// Its layer.
        layer: usize,
        /// The number it moves to.
        child: u64,
        /// That number's layer.
        child_layer: usize,
    },
    /// A move out of the space to a position that is not terminal and that `outside` does not value.
    #[error("{position} moves to {child}, which is neither terminal, nor in the space, nor valued outside it")]
    Outside {
        /// The position.
        position: String,
        /// Where the move leads.
        child: String,
    },
    /// A layer valued without the table of the layer before it, which its moves lead to.
    #[error("layer {layer} is valued from the layer before it ({before} numbers), which was not given")]
    Missing {
        /// The layer.
        layer: usize,
        /// The numbers of the layer before it.
        before: u64,
    },
    /// A chance node.
    #[error("{0} is a chance node; layered backward induction here is for games without chance")]
    Chance(String),
}

/// What one layer of [`solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerDone {
    /// The layer's place among the space's layers.
    pub layer: usize,
    /// Its numbers.
    pub numbers: u64,
    /// Its positions (numbers that stand for one) won, lost and drawn for the side to move.
    pub outcomes: [u64; 3],
}

/// Values every position of `space` (see the module documentation), the positions out of it that its moves
/// reach valued by `outside` (their outcome for their side to move; `None`: not known, an error); calls
/// `on_layer` after each layer. Runs in the current rayon thread pool.
///
/// ```
/// use khela_exact::layered;
/// use khela_exact::retro::{self, Outcome};
/// use khela_games::bagh_chal::{BaghChal, Setup, placement::PlacementPhase, sliding::SlidingPhase};
/// use khela_games::Space;
///
/// // Bagh-Chal on 3 × 3 points, one tiger, four goats, two captures to win.
/// let setup = Setup { size: 3, tigers: vec!["a1".into()], goats: 4, captures_to_win: 2, ..Setup::bagh_chal() };
/// let game = BaghChal::new(&setup).unwrap();
/// let sliding = SlidingPhase::new(&game, 0).unwrap();
/// let slid = retro::solve(&sliding, |_| {}).unwrap();
/// let placement = PlacementPhase::new(&game).unwrap();
/// let table = layered::solve(&placement, |s| slid.outcome(&sliding, s), |_| {}).unwrap();
/// assert_eq!(table.outcome(&placement, &game.start_position()), Some(Outcome::Draw));
/// ```
pub fn solve<S: Space + ?Sized>(
    space: &S,
    outside: impl Fn(&<S::Game as Game>::State) -> Option<Outcome> + Sync,
    mut on_layer: impl FnMut(&LayerDone),
) -> Result<OutcomeTable, LayeredError> {
    let layers = space.stages();
    let starts: Vec<u64> = layers.iter().map(|stages| stages.iter().map(|r| r.start).min().unwrap_or(0)).collect();
    let mut codes = vec![UNUSED; space.len() as usize];
    for (layer, stages) in layers.iter().enumerate() {
        let (start, end) = (starts[layer], stages.iter().map(|r| r.end).max().unwrap_or(0));
        let (done, rest) = codes.split_at_mut(start as usize);
        let done: &[u16] = done;
        let layer_of = |j: u64| starts.partition_point(|&s| s <= j) - 1;
        let counted = rest[..(end - start) as usize]
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut outcomes = [0u64; 3];
                for (k, code) in chunk.iter_mut().enumerate() {
                    let i = start + (c * CHUNK + k) as u64;
                    let Some(s) = space.position(i) else { continue };
                    let outcome = value(space, &s, &outside, |j| {
                        done.get(j as usize).filter(|&&c| c != UNUSED).copied().ok_or_else(|| LayeredError::Order {
                            position: format!("{s:?}"),
                            layer,
                            child: j,
                            child_layer: layer_of(j),
                        })
                    })?;
                    *code = outcome.code();
                    outcomes[crate::retro::Census::slot(outcome)] += 1;
                }
                Ok(outcomes)
            })
            .try_reduce(|| [0; 3], |a, b| Ok([a[0] + b[0], a[1] + b[1], a[2] + b[2]]))?;
        on_layer(&LayerDone { layer, numbers: end - start, outcomes: counted });
    }
    Ok(OutcomeTable::from_codes(codes))
}

/// The positions a parallel task values: large enough to amortise rayon's scheduling.
const CHUNK: usize = 1 << 14;

/// The outcome of `s` for its side to move: terminal, or the best of its moves', the positions of the space
/// valued by `done` (their codes), the others by `outside`.
fn value<S: Space + ?Sized>(
    space: &S,
    s: &<S::Game as Game>::State,
    outside: &impl Fn(&<S::Game as Game>::State) -> Option<Outcome>,
    done: impl Fn(u64) -> Result<u16, LayeredError>,
) -> Result<Outcome, LayeredError> {
    let game = space.game();
    let mover = match game.node(s) {
        Node::Terminal(payoff) => return Ok(Outcome::at_end(space.to_move(s), payoff)),
        Node::Chance => return Err(LayeredError::Chance(format!("{s:?}"))),
        Node::Decision(player) => player,
    };
    let mut moves = Vec::new();
    game.moves(s, &mut moves);
    let mut best: Option<Outcome> = None;
    for mv in moves {
        let child = game.child(s, mv);
        let theirs = match (game.node(&child), space.index(&child)) {
            (Node::Terminal(payoff), _) => Outcome::at_end(space.to_move(&child), payoff),
            (_, Some(j)) => Outcome::from_code(done(j)?).expect("a code written by the solver"),
            (_, None) => outside(&child)
                .ok_or_else(|| LayeredError::Outside { position: format!("{s:?}"), child: format!("{child:?}") })?,
        };
        // One ply earlier, for the mover: the opponent's outcome turned round, or the mover's own, a ply longer.
        let mine = if space.to_move(&child) == mover { later(theirs) } else { theirs.before() };
        if best.is_none_or(|b| rank(mine) > rank(b)) {
            best = Some(mine);
        }
    }
    Ok(best.expect("a decision node has moves"))
}

/// The same side's outcome a ply earlier.
fn later(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win(d) => Outcome::Win(d + 1),
        Outcome::Loss(d) => Outcome::Loss(d + 1),
        Outcome::Draw => Outcome::Draw,
    }
}

/// How good an outcome is for its side: wins above draws above losses, quicker wins and slower losses first.
fn rank(outcome: Outcome) -> (u8, i64) {
    match outcome {
        Outcome::Win(d) => (2, -i64::from(d)),
        Outcome::Draw => (1, 0),
        Outcome::Loss(d) => (0, i64::from(d)),
    }
}
