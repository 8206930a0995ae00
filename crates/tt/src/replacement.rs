//! Replacement policies, and the bucket arithmetic shared by the fixed-size tables ([`crate::Table`] and
//! [`crate::AtomicTable`]).

/// Which stored entry a fixed-size table gives up when a new entry maps to an occupied bucket.
///
/// A table is an array of buckets; a key maps to one bucket, and a bucket holds one entry
/// ([`Replacement::Always`], [`Replacement::DepthPreferred`]) or two ([`Replacement::TwoTier`]). The rules below
/// are the whole policy: tables keep no ages or generations, so an entry is only ever given up to a store into its
/// bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// One slot per bucket; every store writes it, whatever it held.
    Always,
    /// One slot per bucket; a store writes it if it is empty or the new entry's depth is at least the stored
    /// entry's depth, whichever key that entry has. Otherwise the store is skipped: a shallower result never
    /// replaces a deeper one, not even for the same key.
    DepthPreferred,
    /// Two slots per bucket, a depth-preferred slot and an always-replace slot. A store goes to the
    /// depth-preferred slot if that slot is empty or the new entry's depth is at least the stored one's; the
    /// entry it displaces, if it is of another key, moves down to the always-replace slot (whose entry is given
    /// up). Otherwise the store goes to the always-replace slot. A probe looks at the depth-preferred slot first,
    /// so when both slots hold the key it returns the deeper entry.
    TwoTier,
}

impl Replacement {
    /// The number of slots per bucket.
    #[inline]
    pub fn ways(self) -> usize {
        match self {
            Replacement::Always | Replacement::DepthPreferred => 1,
            Replacement::TwoTier => 2,
        }
    }

    /// Where a store of an entry of `key` searched to `depth` goes, given what the bucket's first slot holds
    /// (its key and depth, or `None` if it is empty).
    #[inline]
    pub(crate) fn placement(self, key: u64, depth: u32, first: Option<(u64, u32)>) -> Placement {
        let deep_enough = first.is_none_or(|(_, stored)| depth >= stored);
        match self {
            Replacement::Always => Placement::First,
            Replacement::DepthPreferred if deep_enough => Placement::First,
            Replacement::DepthPreferred => Placement::Skip,
            Replacement::TwoTier => match first {
                _ if !deep_enough => Placement::Second,
                Some((stored, _)) if stored != key => Placement::DemoteThenFirst,
                _ => Placement::First,
            },
        }
    }
}

/// Where a store writes in its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Write the first slot.
    First,
    /// Move the first slot's entry to the second slot, then write the first slot.
    DemoteThenFirst,
    /// Write the second slot.
    Second,
    /// Write nothing.
    Skip,
}

/// The number of buckets of a table of at most `slots` slots with `ways` slots per bucket: the largest power of
/// two that fits, and at least one.
pub(crate) fn bucket_count(slots: usize, ways: usize) -> usize {
    let buckets = (slots / ways).max(1);
    1 << buckets.ilog2()
}

/// The bucket of `key` among `buckets` (a power of two).
///
/// The key is multiplied by 2^64 / φ and the bucket is the top bits of the product (Fibonacci hashing), so every
/// bit of the key counts: keys that are perfect encodings of a state rather than random (tic-tac-toe's two
/// 9-bit masks) spread over the buckets as well as Zobrist keys do.
#[inline]
pub(crate) fn bucket_of(key: u64, buckets: usize) -> usize {
    let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((u128::from(mixed) * buckets as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        fn check(policy: Replacement, key: u64, depth: u32, first: Option<(u64, u32)>, expected: Placement) {
            assert_eq!(
                policy.placement(key, depth, first),
                expected,
                "{policy:?} storing ({key}, {depth}) over {first:?}"
            );
        }
        use Placement::{DemoteThenFirst, First, Second, Skip};
        use Replacement::{Always, DepthPreferred, TwoTier};
        check(Always, 1, 0, None, First);
        check(Always, 1, 0, Some((1, 9)), First);
        check(Always, 1, 0, Some((2, 9)), First);
        check(DepthPreferred, 1, 0, None, First);
        check(DepthPreferred, 1, 3, Some((2, 3)), First);
        check(DepthPreferred, 1, 4, Some((2, 3)), First);
        check(DepthPreferred, 1, 2, Some((2, 3)), Skip);
        check(DepthPreferred, 1, 2, Some((1, 3)), Skip);
        check(DepthPreferred, 1, 3, Some((1, 3)), First);
        check(TwoTier, 1, 0, None, First);
        check(TwoTier, 1, 3, Some((2, 3)), DemoteThenFirst);
        check(TwoTier, 1, 3, Some((1, 3)), First);
        check(TwoTier, 1, 2, Some((2, 3)), Second);
        check(TwoTier, 1, 2, Some((1, 3)), Second);
    }

    #[test]
    fn bucket_counts_are_powers_of_two() {
        fn check(slots: usize, ways: usize, expected: usize) {
            assert_eq!(bucket_count(slots, ways), expected, "{slots} slots, {ways} ways");
        }
        check(0, 1, 1);
        check(1, 1, 1);
        check(1, 2, 1);
        check(7, 1, 4);
        check(8, 1, 8);
        check(8, 2, 4);
        check(9, 2, 4);
        check(1 << 20, 2, 1 << 19);
    }

    #[test]
    fn buckets_are_in_range_and_use_every_key_bit() {
        for buckets in [1, 2, 64, 1 << 20] {
            for key in [0, 1, u64::MAX, 0x1234_5678_9ABC_DEF0] {
                assert!(bucket_of(key, buckets) < buckets);
            }
        }
        // Tic-tac-toe-like keys that differ only above bit 9 still spread over 512 buckets.
        let used: std::collections::HashSet<usize> = (0..512u64).map(|o| bucket_of(o << 9, 512)).collect();
        assert!(used.len() > 256, "{} buckets used", used.len());
    }
}
