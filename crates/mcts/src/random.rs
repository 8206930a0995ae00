//! Random numbers, through one small trait so the generator can be swapped.
//!
//! Every random choice of a search goes through [`Random`]: a uniform index ([`Random::below`]) for playouts and
//! expansion, a uniform float ([`Random::unit`]) for chance outcomes and temperature sampling, and raw bits
//! ([`Random::bits`]) for the Dirichlet noise of [`rand_distr`]. [`Pcg`] is the default; [`Python`] draws as
//! CPython's `random.Random(seed)` does, so a Python reference that makes the same calls gets the same numbers.

use khela_games::Game;
use khela_games::rng::PyRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::convert::Infallible;

/// A source of random numbers for a search.
pub trait Random {
    /// A generator seeded with `seed`: equal seeds give equal sequences.
    fn from_seed(seed: u64) -> Self
    where
        Self: Sized;

    /// A uniform index in `0..n`.
    ///
    /// # Panics
    ///
    /// May panic if `n` is 0.
    fn below(&mut self, n: usize) -> usize;

    /// A uniform float in `[0, 1)`.
    fn unit(&mut self) -> f64;

    /// 64 uniform bits.
    fn bits(&mut self) -> u64;
}

/// PCG (the 128-bit multiplicative generator `Pcg64Mcg`): fast, small, and the default.
#[derive(Clone, Debug)]
pub struct Pcg(Pcg64Mcg);

impl Random for Pcg {
    fn from_seed(seed: u64) -> Pcg {
        Pcg(Pcg64Mcg::seed_from_u64(seed))
    }

    #[inline]
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        self.0.random()
    }

    #[inline]
    fn bits(&mut self) -> u64 {
        self.0.random()
    }
}

/// CPython's `random.Random(seed)`: [`Random::below`] is `_randbelow(n)`, [`Random::unit`] is `random()`, and
/// [`Random::bits`] is `getrandbits(64)`.
///
/// ```
/// use khela_mcts::random::{Python, Random};
/// // python3 -c "import random; r = random.Random(1); print([r._randbelow(9) for _ in range(4)], r.random())"
/// let mut rng = Python::from_seed(1);
/// let draws: Vec<usize> = (0..4).map(|_| rng.below(9)).collect();
/// assert_eq!(draws, [2, 1, 4, 1]);
/// assert_eq!(rng.unit(), 0.49543508709194095);
/// ```
#[derive(Clone, Debug)]
pub struct Python(PyRandom);

impl Random for Python {
    fn from_seed(seed: u64) -> Python {
        Python(PyRandom::new(seed))
    }

    #[inline]
    fn below(&mut self, n: usize) -> usize {
        self.0.randbelow(n as u64) as usize
    }

    /// `random()`, as [`PyRandom::random`] draws it.
    #[inline]
    fn unit(&mut self) -> f64 {
        self.0.random()
    }

    #[inline]
    fn bits(&mut self) -> u64 {
        self.0.getrandbits(64)
    }
}

/// An outcome of chance node `state` of `game`, drawn by its probabilities with one [`Random::unit`]: how
/// front ends roll the dice of a game being played.
///
/// ```
/// use khela_games::einstein::{Einstein, Move, Setup};
/// use khela_mcts::random::{Pcg, Random, roll};
/// let setup = Setup::random(0);
/// let mut dice = Pcg::from_seed(1);
/// assert!(matches!(roll(&Einstein::new(setup), &setup.state(), &mut dice), Move::Roll(1..=6)));
/// ```
pub fn roll<G: Game, R: Random + ?Sized>(game: &G, state: &G::State, rng: &mut R) -> G::Move {
    let mut outcomes = Vec::new();
    game.outcomes(state, &mut outcomes);
    outcomes[pick(rng.unit(), outcomes.iter().map(|&(_, p)| p))].0
}

/// The index where `u` falls among consecutive intervals of the given widths (the last if rounding leaves `u`
/// past them all).
pub(crate) fn pick(u: f64, widths: impl Iterator<Item = f64>) -> usize {
    let mut end = 0.0;
    let mut last = 0;
    for (index, width) in widths.enumerate() {
        end += width;
        if u < end {
            return index;
        }
        last = index;
    }
    last
}

/// Any [`Random`] seen as a `rand` generator, for the samplers of [`rand_distr`].
pub(crate) struct Bits<'a, R: ?Sized>(pub(crate) &'a mut R);

impl<R: Random + ?Sized> rand::TryRng for Bits<'_, R> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.0.bits() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.bits())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            chunk.copy_from_slice(&self.0.bits().to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcg_is_seeded() {
        let draws = |seed| {
            let mut rng = Pcg::from_seed(seed);
            (0..8).map(|_| rng.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
        let mut rng = Pcg::from_seed(5);
        assert!((0..1000).map(|_| rng.unit()).all(|u| (0.0..1.0).contains(&u)));
    }
}
