//! Zobrist hashing: a state's key is the XOR of random words, one per feature present.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Random 64-bit words, one per feature, from a seeded generator (PCG 64 MCG), so the same `(features, seed)`
/// gives the same words on every machine and run.
///
/// A feature is whatever a game's state is made of, numbered from 0: "X on square 4", "player 2 to move",
/// "2 left in heap 3". The key of a state is the XOR of its features' words ([`Zobrist::key_of`]), and playing or
/// undoing a move updates it by toggling the features that changed ([`Zobrist::toggle`]), in any order.
///
/// # Examples
///
/// ```
/// use khela_tt::Zobrist;
///
/// // Tic-tac-toe: feature 9 * mark + square, with mark 0 for X and 1 for O.
/// let zobrist = Zobrist::new(18, 7);
/// let start = zobrist.key_of([]);
/// let after = zobrist.toggle(zobrist.toggle(start, 4), 9 + 0);
/// assert_eq!(after, zobrist.key_of([9, 4]));
/// assert_eq!(zobrist.toggle(zobrist.toggle(after, 4), 9), start);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Zobrist {
    words: Box<[u64]>,
}

impl Zobrist {
    /// Words for `features` features, drawn from a generator seeded with `seed`.
    pub fn new(features: usize, seed: u64) -> Zobrist {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        Zobrist { words: (0..features).map(|_| rng.next_u64()).collect() }
    }

    /// The word of `feature`.
    ///
    /// # Panics
    ///
    /// If `feature` is not below [`Zobrist::len`].
    #[inline]
    pub fn word(&self, feature: usize) -> u64 {
        self.words[feature]
    }

    /// The key of a state with the features `features`: the XOR of their words, 0 for none. A feature listed
    /// twice cancels out, as toggling it twice does.
    ///
    /// # Panics
    ///
    /// If a feature is not below [`Zobrist::len`].
    #[inline]
    pub fn key_of(&self, features: impl IntoIterator<Item = usize>) -> u64 {
        features.into_iter().fold(0, |key, feature| key ^ self.words[feature])
    }

    /// The key `key` with `feature` added if it was absent, or removed if it was present.
    ///
    /// # Panics
    ///
    /// If `feature` is not below [`Zobrist::len`].
    #[inline]
    pub fn toggle(&self, key: u64, feature: usize) -> u64 {
        key ^ self.words[feature]
    }

    /// The number of features.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no features.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    const FEATURES: usize = 64;

    #[test]
    fn seeded_and_distinct() {
        assert_eq!(Zobrist::new(FEATURES, 1), Zobrist::new(FEATURES, 1));
        assert_ne!(Zobrist::new(FEATURES, 1), Zobrist::new(FEATURES, 2));
        let zobrist = Zobrist::new(FEATURES, 1);
        let words: BTreeSet<u64> = (0..FEATURES).map(|f| zobrist.word(f)).collect();
        assert_eq!(words.len(), FEATURES);
        assert!(!words.contains(&0));
        assert_eq!(zobrist.len(), FEATURES);
        assert!(Zobrist::new(0, 1).is_empty());
    }

    proptest! {
        /// Toggling a feature gives the key of the set with that feature flipped in or out, and toggling it again
        /// gives the key back.
        #[test]
        fn toggle_flips_one_feature(
            seed in any::<u64>(),
            features in proptest::collection::btree_set(0..FEATURES, 0..20),
            feature in 0..FEATURES,
        ) {
            let zobrist = Zobrist::new(FEATURES, seed);
            let key = zobrist.key_of(features.iter().copied());
            let mut flipped = features.clone();
            if !flipped.remove(&feature) {
                flipped.insert(feature);
            }
            let toggled = zobrist.toggle(key, feature);
            prop_assert_eq!(toggled, zobrist.key_of(flipped.iter().copied()));
            prop_assert_ne!(toggled, key);
            prop_assert_eq!(zobrist.toggle(toggled, feature), key);
        }

        /// The key depends on the set of features, not on the order they are listed or toggled in.
        #[test]
        fn keys_ignore_order(seed in any::<u64>(), features in proptest::collection::vec(0..FEATURES, 0..20)) {
            let zobrist = Zobrist::new(FEATURES, seed);
            let key = zobrist.key_of(features.iter().copied());
            prop_assert_eq!(zobrist.key_of(features.iter().rev().copied()), key);
            prop_assert_eq!(features.iter().fold(0, |key, &f| zobrist.toggle(key, f)), key);
        }
    }
}
