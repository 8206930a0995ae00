//! The network's view of a game: input planes, a fixed action space, and the board's symmetries.
//!
//! Every game encodes a position from the side to move's view (its pieces first), so that one network plays
//! both sides and its value head answers "how good is this for the player to move". A plane that is 1
//! everywhere when the first player (MAX) is to move tells the sides apart, which an asymmetric game like
//! Bagh-Chal needs (the goats and the tigers want different things); symmetric games carry it too, at no cost.
//!
//! The policy head scores every action of the fixed space; a position's legal moves are a subset of it, and
//! the scores of the others are masked out (left out of the softmax) wherever priors are read.

mod bagh_chal;
mod connect4;
mod dots_and_boxes;
mod einstein;
mod pig;
mod sixteen_soldiers;
mod tictactoe;

use khela_games::Actions;

/// The shape of a position's encoding: `planes` planes of `height` × `width` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The input planes.
    pub planes: usize,
    /// The board's rows.
    pub height: usize,
    /// The board's columns.
    pub width: usize,
}

impl Shape {
    /// The values of one encoded position: planes × height × width.
    pub fn len(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Whether the encoding is empty (it never is for a game).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cells of one plane.
    pub fn cells(&self) -> usize {
        self.height * self.width
    }
}

/// A game as the network sees it.
///
/// The policy head's actions are the game's own ([`Actions`]): one numbering for the networks, the Python
/// states and every other front end.
///
/// Contract, checked for every game by this crate's tests on random positions: every legal move has an action
/// below [`Actions::actions`], distinct moves have distinct actions; symmetry 0 is the identity; under symmetry
/// `k` the image of a position has as its legal actions exactly the images of the position's legal actions,
/// the same kind of node and the same payoff, and its planes hold the same values rearranged.
pub trait Encode: Actions {
    /// The shape of the input planes.
    fn shape(&self) -> Shape;

    /// Writes the planes of `state` into `out` (`shape().len()` values: plane by plane, each row by row from
    /// the top of the board), from the side to move's view.
    fn encode(&self, state: &Self::State, out: &mut [f32]);

    /// The largest value a plane holds (every value is from 0 to it): 1 for marks and fractions.
    fn largest(&self) -> f32 {
        1.0
    }

    /// The number of the board's symmetries that the rules respect (1 when there are none besides the
    /// identity).
    fn symmetry_count(&self) -> usize;

    /// The image of `state` under symmetry `k` (below [`Encode::symmetry_count`]).
    fn image(&self, state: &Self::State, k: usize) -> Self::State;

    /// The image of an action under symmetry `k`.
    fn image_action(&self, action: usize, k: usize) -> usize;
}

/// Writes a plane of `shape`'s cells from a set of cells (bit `i` is cell `i`, row by row from the top):
/// `value` on the set's cells, 0 elsewhere.
fn plane(out: &mut [f32], cells: u64, value: f32) {
    for (i, x) in out.iter_mut().enumerate() {
        *x = if cells >> i & 1 != 0 { value } else { 0.0 };
    }
}
