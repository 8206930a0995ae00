//! The single-threaded fixed-size table.

use crate::replacement::{Placement, Replacement, bucket_count, bucket_of};
use crate::table_entry::TableEntry;

/// Counters of a table's work, since it was made or last cleared.
///
/// Every probe is exactly one of a hit, a collision or a miss on an empty bucket, so
/// `probes == hits + collisions + (misses on empty buckets)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TableStats {
    /// Calls to `probe`.
    pub probes: u64,
    /// Probes that returned an entry.
    pub hits: u64,
    /// Probes that returned nothing although the key's bucket held entries: all of other keys, told apart by the
    /// full 64-bit key stored with each entry.
    pub collisions: u64,
    /// Calls to `store`.
    pub stores: u64,
    /// Stores the policy turned down, writing nothing ([`Replacement::DepthPreferred`] keeping a deeper entry).
    pub skipped: u64,
    /// Entries of other keys that stores removed from the table (a key's own older entry replaced is not
    /// counted, nor an entry that [`Replacement::TwoTier`] moves to its always-replace slot).
    pub overwrites: u64,
}

/// A stored entry with its full key.
#[derive(Clone, Copy, Debug)]
struct Stored<M> {
    key: u64,
    entry: TableEntry<M>,
}

/// A fixed-size transposition table for one thread: a power-of-two number of buckets of one or two slots (see
/// [`Replacement`]), each slot holding an entry and the full 64-bit key it belongs to.
///
/// A key's bucket is chosen from its bits (Fibonacci hashing); since many keys share a bucket, a probe compares
/// the stored key with the probed one and never returns another key's entry.
///
/// # Examples
///
/// ```
/// use khela_tt::{Bound, Replacement, Table, TableEntry};
///
/// let mut table = Table::with_entries(1024, Replacement::TwoTier);
/// table.store(42, TableEntry::new(1.5, Bound::Exact, 6, Some(3u8)));
/// let entry = table.probe(42).unwrap();
/// assert_eq!(entry.cutoff(6, 0.0, 1.0), Some(1.5));
/// assert_eq!(entry.best(), Some(3));
/// assert!(table.probe(43).is_none());
/// assert_eq!((table.stats().probes, table.stats().hits), (2, 1));
/// ```
#[derive(Clone, Debug)]
pub struct Table<M> {
    /// Bucket `b` is `slots[b * ways..(b + 1) * ways]`; the first slot of a two-tier bucket is its
    /// depth-preferred slot.
    slots: Box<[Option<Stored<M>>]>,
    buckets: usize,
    policy: Replacement,
    len: usize,
    stats: TableStats,
}

impl<M: Copy> Table<M> {
    /// A table that takes at most `mib` MiB (2^20 bytes) for its slots, with the largest power-of-two number of
    /// buckets that fits, and at least one.
    ///
    /// A slot takes `size_of::<Option<(u64, TableEntry<M>)>>()`-ish bytes: 32 for moves of up to four bytes.
    pub fn with_mib(mib: usize, policy: Replacement) -> Table<M> {
        let slots = mib.saturating_mul(1 << 20) / size_of::<Option<Stored<M>>>();
        Table::with_entries(slots, policy)
    }

    /// A table of at most `entries` slots (the largest power-of-two number of buckets that fits, and at least one
    /// bucket): `with_entries(1, _)` makes every key collide, which tests use.
    pub fn with_entries(entries: usize, policy: Replacement) -> Table<M> {
        let buckets = bucket_count(entries, policy.ways());
        Table {
            slots: vec![None; buckets * policy.ways()].into_boxed_slice(),
            buckets,
            policy,
            len: 0,
            stats: TableStats::default(),
        }
    }

    /// The entry stored for `key`, if any. Only the entry's [`TableEntry::cutoff`] says whether its value may be used.
    #[inline]
    pub fn probe(&mut self, key: u64) -> Option<TableEntry<M>> {
        self.stats.probes += 1;
        let mut others = false;
        let bucket = self.bucket(key);
        for stored in self.slots[bucket].iter().flatten() {
            if stored.key == key {
                self.stats.hits += 1;
                return Some(stored.entry);
            }
            others = true;
        }
        if others {
            self.stats.collisions += 1;
        }
        None
    }

    /// Asks the processor to bring `key`'s bucket into its cache, without waiting for it, for a probe soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.slots[self.bucket(key).start]);
    }

    /// Records `entry` for `key`, replacing what the table's [`Replacement`] says to replace.
    #[inline]
    pub fn store(&mut self, key: u64, entry: TableEntry<M>) {
        self.stats.stores += 1;
        let first = bucket_of(key, self.buckets) * self.policy.ways();
        let held = self.slots[first].map(|stored| (stored.key, stored.entry.depth()));
        match self.policy.placement(key, entry.depth(), held) {
            Placement::First => self.put(first, Stored { key, entry }, None),
            Placement::DemoteThenFirst => {
                let demoted = self.slots[first].expect("a demotion moves an entry");
                self.put(first + 1, demoted, Some(key));
                self.put(first, Stored { key, entry }, Some(demoted.key));
            }
            Placement::Second => self.put(first + 1, Stored { key, entry }, None),
            Placement::Skip => self.stats.skipped += 1,
        }
    }

    /// Empties the table and zeroes its counters, keeping its size and policy.
    pub fn clear(&mut self) {
        self.slots.fill(None);
        self.len = 0;
        self.stats = TableStats::default();
    }

    /// The counters since the table was made or last cleared.
    #[inline]
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// The number of occupied slots.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no slot is occupied.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of slots (buckets times slots per bucket), a power of two.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The replacement policy.
    #[inline]
    pub fn policy(&self) -> Replacement {
        self.policy
    }

    /// The indices of the slots of `key`'s bucket.
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let ways = self.policy.ways();
        let first = bucket_of(key, self.buckets) * ways;
        first..first + ways
    }

    /// Writes `stored` into slot `index`, counting an overwrite if that removes an entry of another key than
    /// `stored`'s and `spared` (a key whose entry lives on in the other slot).
    fn put(&mut self, index: usize, stored: Stored<M>, spared: Option<u64>) {
        match self.slots[index].replace(stored) {
            None => self.len += 1,
            Some(old) if old.key != stored.key && Some(old.key) != spared => self.stats.overwrites += 1,
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_entry::Bound;
    use std::collections::HashMap;

    fn entry(depth: u32, best: u16) -> TableEntry<u16> {
        TableEntry::new(f64::from(best), Bound::Exact, depth, Some(best))
    }

    /// The best move of the entry `table` returns for `key`, which tests use to tell entries apart.
    fn found(table: &mut Table<u16>, key: u64) -> Option<u16> {
        table.probe(key).map(|e| e.best().unwrap())
    }

    #[test]
    fn prefetching_reaches_both_ends_of_the_table() {
        // A prefetch takes `&self` and so cannot change an entry; what it can get wrong is the slot it indexes,
        // which would panic past the table's end. These keys' buckets include the first and the last.
        for policy in [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier] {
            let table: Table<u16> = Table::with_entries(64, policy);
            let keys: Vec<u64> = (0..200u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i << 7).collect();
            let ends: Vec<usize> = keys.iter().map(|&key| table.bucket(key).end).collect();
            assert!(ends.contains(&table.slots.len()), "{policy:?}: the last bucket reached");
            assert!(ends.contains(&policy.ways()), "{policy:?}: the first bucket reached");
            for &key in &keys {
                table.prefetch(key);
            }
        }
    }

    #[test]
    fn sizes() {
        fn check(table: Table<u16>, capacity: usize) {
            assert_eq!(table.capacity(), capacity, "{:?}", table.policy());
            assert!(table.capacity().is_power_of_two());
        }
        check(Table::with_entries(0, Replacement::Always), 1);
        check(Table::with_entries(1, Replacement::TwoTier), 2);
        check(Table::with_entries(1000, Replacement::DepthPreferred), 512);
        check(Table::with_entries(1000, Replacement::TwoTier), 512);
        check(Table::with_entries(1024, Replacement::TwoTier), 1024);
        let slot = size_of::<Option<Stored<u16>>>();
        assert_eq!(slot, 32);
        check(Table::with_mib(1, Replacement::Always), (1 << 20) / slot);
        check(Table::with_mib(3, Replacement::TwoTier), (2 << 20) / slot);
    }

    #[test]
    fn always_replaces_whatever_the_slot_holds() {
        let mut table = Table::with_entries(1, Replacement::Always);
        table.store(1, entry(5, 10));
        table.store(1, entry(2, 11));
        assert_eq!(found(&mut table, 1), Some(11));
        table.store(2, entry(0, 20));
        assert_eq!(found(&mut table, 1), None);
        assert_eq!(found(&mut table, 2), Some(20));
        let stats = table.stats();
        assert_eq!((stats.stores, stats.skipped, stats.overwrites), (3, 0, 1));
        assert_eq!(table.len(), 1);
    }

    #[test]
    fn depth_preferred_keeps_the_deeper_entry() {
        let mut table = Table::with_entries(1, Replacement::DepthPreferred);
        table.store(1, entry(5, 10));
        table.store(2, entry(4, 20)); // Shallower, another key: skipped.
        table.store(1, entry(4, 11)); // Shallower, same key: skipped too.
        assert_eq!(found(&mut table, 1), Some(10));
        assert_eq!(found(&mut table, 2), None);
        table.store(1, entry(5, 12)); // As deep, same key: replaces.
        assert_eq!(found(&mut table, 1), Some(12));
        table.store(2, entry(5, 21)); // As deep, another key: replaces.
        assert_eq!(found(&mut table, 1), None);
        assert_eq!(found(&mut table, 2), Some(21));
        let stats = table.stats();
        assert_eq!((stats.stores, stats.skipped, stats.overwrites), (5, 2, 1));
    }

    #[test]
    fn two_tier_keeps_the_deep_entry_and_the_latest() {
        let mut table = Table::with_entries(2, Replacement::TwoTier);
        assert_eq!(table.capacity(), 2);
        table.store(1, entry(5, 10)); // Empty deep slot.
        table.store(2, entry(3, 20)); // Shallower: the always slot.
        table.store(3, entry(2, 30)); // Shallower: the always slot again, giving up key 2.
        assert_eq!((found(&mut table, 1), found(&mut table, 2), found(&mut table, 3)), (Some(10), None, Some(30)));
        table.store(4, entry(6, 40)); // Deeper: the deep slot; key 1 moves down, giving up key 3.
        assert_eq!((found(&mut table, 1), found(&mut table, 3), found(&mut table, 4)), (Some(10), None, Some(40)));
        assert_eq!(table.stats().overwrites, 2);
        // The same key at a lower depth goes to the always slot; probes prefer the deep slot's entry.
        table.store(4, entry(1, 41));
        assert_eq!(found(&mut table, 4), Some(40));
        assert_eq!(found(&mut table, 1), None);
        // The same key as deep replaces the deep slot without moving its own entry down.
        table.store(4, entry(6, 42));
        assert_eq!(found(&mut table, 4), Some(42));
        assert_eq!(table.len(), 2);
        assert_eq!(table.stats().overwrites, 3);
    }

    #[test]
    fn key_verification_counts_collisions() {
        let mut table = Table::with_entries(1, Replacement::Always);
        assert_eq!(found(&mut table, 7), None); // An empty bucket: a miss, not a collision.
        table.store(7, entry(1, 70));
        assert_eq!(found(&mut table, 8), None);
        assert_eq!(found(&mut table, 7), Some(70));
        assert_eq!(found(&mut table, 7 ^ (1 << 63)), None);
        let stats = table.stats();
        assert_eq!((stats.probes, stats.hits, stats.collisions), (4, 1, 2));
    }

    /// With many keys sharing few buckets, a probe only ever returns an entry stored for the probed key, and with
    /// [`Replacement::Always`] the latest one.
    #[test]
    fn never_returns_another_keys_entry() {
        for policy in [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier] {
            let mut table = Table::with_entries(4, policy);
            let mut stored: HashMap<u64, Vec<u16>> = HashMap::new();
            let mut state = 12345u64;
            for step in 0..2000u16 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let key = (state >> 40) % 32;
                if state & 1 == 0 {
                    table.store(key, entry((state >> 8) as u32 % 8, step));
                    stored.entry(key).or_default().push(step);
                } else if let Some(best) = found(&mut table, key) {
                    let history = &stored[&key];
                    assert!(history.contains(&best), "{policy:?}: key {key} returned {best}");
                    if policy == Replacement::Always {
                        assert_eq!(history.last(), Some(&best));
                    }
                }
            }
            let stats = table.stats();
            assert!(stats.collisions > 0 && stats.hits > 0, "{policy:?}: {stats:?}");
            assert!(table.len() <= table.capacity());
        }
    }

    #[test]
    fn clear_empties_and_zeroes() {
        let mut table = Table::with_entries(16, Replacement::TwoTier);
        for key in 0..40 {
            table.store(key, entry(key as u32 % 3, key as u16));
        }
        assert!(!table.is_empty());
        table.clear();
        assert!(table.is_empty());
        assert_eq!(table.stats(), TableStats::default());
        assert!((0..40).all(|key| table.probe(key).is_none()));
        assert_eq!(table.capacity(), 16);
    }
}
