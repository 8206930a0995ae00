//! A game's positions as input planes (a network's, an environment's observation), asked of its entry through [`Entry::with_planes`]: the shape of
//! the encoding and the function that encodes (khela-zero's [`Encode`]), for the dynamic face's observations.

use crate::registry::{Entry, VisitNet};
use khela_zero::{Encode, Shape};

/// The shape of a game's encoding and the largest value of its planes, through [`Entry::with_planes`].
pub(super) struct Shaped;

impl VisitNet for Shaped {
    type Output<'e, G: khela_games::Game + 'e> = (Shape, f32);

    fn visit<E: Entry>(self, entry: &E) -> (Shape, f32)
    where
        E::Game: Encode,
    {
        (entry.game().shape(), entry.game().largest())
    }
}

/// The function that encodes a game's positions, through [`Entry::with_planes`].
pub(super) struct Encoded;

impl VisitNet for Encoded {
    type Output<'e, G: khela_games::Game + 'e> = Box<dyn Fn(&G::State) -> Vec<f32> + 'e>;

    fn visit<'e, E: Entry>(self, entry: &'e E) -> Self::Output<'e, E::Game>
    where
        E::Game: Encode,
    {
        let game = entry.game();
        Box::new(move |state| {
            let mut planes = vec![0.0; game.shape().len()];
            game.encode(state, &mut planes);
            planes
        })
    }
}
