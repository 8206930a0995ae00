//! Tables that threads share: the trait a parallel search is written against, and the table built on dashmap.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use ahash::RandomState;
use dashmap::DashMap;
use dashmap::mapref::entry::Entry as MapEntry;

use crate::table_entry::TableEntry;

/// The number of shards (locks) of a [`DashTable`]'s map.
///
/// Every probe takes its shard's read lock, an atomic write to the lock's word, so threads that share few shards
/// fight over those cache lines: with dashmap's default (4 per core, so 8 on two cores) two threads are slower
/// than one, and with 512 faster (measured: see docs/src/measured-choices.md, 'Transposition tables'). A shard
/// costs 128 bytes.
const SHARDS: usize = 512;

/// A transposition table that many threads probe and store into at once through a shared reference.
///
/// Implementations: [`DashTable`] (sharded locks over hash maps, any move type, entries kept exactly) and
/// [`crate::AtomicTable`] (lock-free, entries packed into 64 bits).
///
/// # Examples
///
/// ```
/// use khela_tt::{AtomicTable, Bound, ConcurrentTable, DashTable, Replacement, TableEntry};
///
/// /// A search step written once, for either table.
/// fn remember<T: ConcurrentTable<Move = u16>>(table: &T) -> Option<f64> {
///     table.store(9, TableEntry::new(2.0, Bound::Upper, 1, Some(4)));
///     table.probe(9)?.cutoff(1, 2.0, 3.0)
/// }
/// assert_eq!(remember(&DashTable::with_entries(16)), Some(2.0));
/// assert_eq!(remember(&AtomicTable::with_entries(16, Replacement::Always)), Some(2.0));
/// ```
pub trait ConcurrentTable: Sync {
    /// The move type of the entries.
    type Move: Copy;

    /// The entry stored for `key`, if any: never an entry stored for another key, nor a mix of two entries. Only
    /// the entry's [`TableEntry::cutoff`] says whether its value may be used.
    fn probe(&self, key: u64) -> Option<TableEntry<Self::Move>>;

    /// Records `entry` for `key`, replacing what the table's rule says to replace (it may also keep what it holds
    /// and drop `entry`).
    fn store(&self, key: u64, entry: TableEntry<Self::Move>);
}

/// A bounded concurrent table on a [`DashMap`] (512 read-write-locked shards of hash maps, hashed with ahash).
///
/// Entries are kept exactly (any value, depth and move type). The rule: a key already present is replaced only if
/// the new entry's depth is at least the stored one's (the rule of [`crate::Replacement::DepthPreferred`]); a new key
/// is inserted only while the table holds fewer than its capacity of keys. Once full, new keys are dropped and the
/// table keeps the keys it has, so it suits searches whose first-stored positions (near the root) matter most;
/// [`crate::AtomicTable`] instead keeps replacing.
///
/// # Examples
///
/// ```
/// use khela_tt::{Bound, ConcurrentTable, DashTable, TableEntry};
///
/// let table = DashTable::with_entries(1);
/// table.store(1, TableEntry::new(0.1, Bound::Exact, 2, None::<u8>));
/// table.store(2, TableEntry::new(0.2, Bound::Exact, 2, None)); // Full: dropped.
/// table.store(1, TableEntry::new(0.3, Bound::Exact, 1, None)); // Shallower: dropped.
/// assert_eq!(table.probe(1).unwrap().cutoff(2, 0.0, 1.0), Some(0.1));
/// assert!(table.probe(2).is_none());
/// ```
#[derive(Debug)]
pub struct DashTable<M> {
    map: DashMap<u64, TableEntry<M>, RandomState>,
    capacity: usize,
    /// The number of keys, kept apart from the map because `DashMap::len` locks every shard. A key is counted
    /// before it is inserted, so the count never exceeds the capacity.
    len: AtomicUsize,
}

impl<M: Copy + Send + Sync> DashTable<M> {
    /// A table of about `mib` MiB (2^20 bytes), counting a key and its entry plus one control byte per bucket of
    /// the map at its maximum load of 7/8; the real size depends on how dashmap shards and grows.
    pub fn with_mib(mib: usize) -> DashTable<M> {
        let per_entry = (size_of::<(u64, TableEntry<M>)>() + 1) * 8 / 7;
        DashTable::with_entries(mib.saturating_mul(1 << 20) / per_entry)
    }

    /// A table of at most `entries` keys (at least one), allocated up front.
    pub fn with_entries(entries: usize) -> DashTable<M> {
        let capacity = entries.max(1);
        // Fixed seeds: the same keys land in the same shards on every run.
        let hasher = RandomState::with_seeds(0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 1);
        let map = DashMap::with_capacity_and_hasher_and_shard_amount(capacity, hasher, SHARDS);
        DashTable { map, capacity, len: AtomicUsize::new(0) }
    }

    /// The entry stored for `key`, if any (see [`ConcurrentTable::probe`]).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TableEntry<M>> {
        self.map.get(&key).map(|entry| *entry)
    }

    /// Records `entry` for `key` by the table's rule (see [`DashTable`]).
    #[inline]
    pub fn store(&self, key: u64, entry: TableEntry<M>) {
        match self.map.entry(key) {
            MapEntry::Occupied(mut stored) => {
                if entry.depth() >= stored.get().depth() {
                    stored.insert(entry);
                }
            }
            MapEntry::Vacant(vacant) => {
                // The shard's lock is held, so no other thread inserts this key meanwhile.
                let reserved = self.len.fetch_update(Relaxed, Relaxed, |len| (len < self.capacity).then_some(len + 1));
                if reserved.is_ok() {
                    vacant.insert(entry);
                }
            }
        }
    }

    /// Empties the table. Stores racing with it may survive it, and may then be counted wrongly against the
    /// capacity; clear a table no thread is writing.
    pub fn clear(&self) {
        self.map.clear();
        self.len.store(0, Relaxed);
    }

    /// The number of keys stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// Whether no key is stored.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most keys the table stores.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl<M: Copy + Send + Sync> ConcurrentTable for DashTable<M> {
    type Move = M;

    #[inline]
    fn probe(&self, key: u64) -> Option<TableEntry<M>> {
        DashTable::probe(self, key)
    }

    #[inline]
    fn store(&self, key: u64, entry: TableEntry<M>) {
        DashTable::store(self, key, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_entry::Bound;
    use rayon::prelude::*;

    fn entry(depth: u32, best: u64) -> TableEntry<u64> {
        TableEntry::new(best as f64 / 3.0, Bound::Exact, depth, Some(best))
    }

    #[test]
    fn keeps_the_deeper_entry_of_a_key() {
        let table = DashTable::with_entries(8);
        table.store(5, entry(3, 1));
        table.store(5, entry(2, 2));
        assert_eq!(table.probe(5), Some(entry(3, 1)));
        table.store(5, entry(3, 3));
        assert_eq!(table.probe(5), Some(entry(3, 3)));
        assert_eq!(table.len(), 1);
    }

    #[test]
    fn stops_inserting_when_full() {
        let table = DashTable::with_entries(3);
        for key in 0..10 {
            table.store(key, entry(1, key));
        }
        assert_eq!(table.len(), 3);
        assert!((0..3).all(|key| table.probe(key) == Some(entry(1, key))));
        assert!((3..10).all(|key| table.probe(key).is_none()));
        // Keys present are still updated.
        table.store(2, entry(4, 20));
        assert_eq!(table.probe(2), Some(entry(4, 20)));
        table.clear();
        assert!(table.is_empty() && table.probe(2).is_none());
        table.store(9, entry(1, 9));
        assert_eq!(table.probe(9), Some(entry(1, 9)));
    }

    #[test]
    fn sizes() {
        assert_eq!(DashTable::<u8>::with_entries(0).capacity(), 1);
        // A key and an `TableEntry<u16>` take 32 bytes, 37 with the control byte and load factor.
        assert_eq!(DashTable::<u16>::with_mib(1).capacity(), (1 << 20) / 37);
    }

    #[test]
    fn threads_never_see_a_wrong_entry_and_respect_the_capacity() {
        let table = DashTable::with_entries(100);
        (0..8u64).into_par_iter().for_each(|thread| {
            for step in 0..5_000u64 {
                let key = (step * 7 + thread * 13) % 300;
                if step % 3 == 0 {
                    table.store(key, entry((step % 5) as u32, key));
                } else if let Some(found) = table.probe(key) {
                    assert_eq!(found, entry(found.depth(), key));
                }
            }
        });
        assert_eq!(table.len(), 100);
        assert_eq!(table.map.len(), 100);
    }
}
