//! The lock-free fixed-size table.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::concurrent::ConcurrentTable;
use crate::packed::{PackedMove, depth_of, is_empty, pack, unpack};
use crate::replacement::{Placement, Replacement, bucket_count, bucket_of};
use crate::table_entry::TableEntry;

/// One slot: the entry packed into one word (the layout is drawn in `packed.rs`) and that word XORed with the key.
///
/// A writer stores `key ^ data` and then `data`, as two independent atomic stores, so a reader racing with
/// writers may see the halves of two different writes. It recovers the key as `check ^ data` and accepts the
/// entry only if that is the probed key: a torn pair yields a key that matches nothing (unless two 64-bit words
/// collide by chance). This is Hyatt's "lockless hashing" from Crafty.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The slot's words, as one reader sees them.
    #[inline]
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, data)
    }

    #[inline]
    fn save(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// A lock-free fixed-size transposition table that threads share: the buckets and [`Replacement`] of [`crate::Table`],
/// with each slot two atomic words (Hyatt's XOR trick: a torn write reads as a key mismatch, so a probe never
/// returns a mix of two entries or another key's entry).
///
/// The price is packing: an entry must fit in one 64-bit word, from the low bits up the value as an `f32` (32
/// bits), the best move (16 bits, and 1 bit for whether there is one), the bound (2 bits, 0 marking an empty
/// slot) and the depth (13 bits). So values are stored as `f32`, rounded outward when `f32` cannot hold them (a
/// lower bound down, an upper bound up, and an exact value becomes a lower bound rounded down; integers up to
/// 2^24 and halves, quarters and the like are held exactly), depths saturate at [`crate::MAX_PACKED_DEPTH`]
/// (8191), and moves must convert to 16 bits ([`PackedMove`]). A returned entry therefore never claims more than
/// the stored one did. The policy's decision reads
/// the bucket and then writes it without a lock, so a racing store can win over a deeper one; that only loses
/// information, never mixes it. The table keeps no counters (shared counters would make every probe contend for
/// one cache line); a searcher counts its own probes and hits.
///
/// # Examples
///
/// ```
/// use khela_tt::{AtomicTable, Bound, ConcurrentTable, Replacement, TableEntry};
///
/// let table = AtomicTable::<u8>::with_mib(1, Replacement::DepthPreferred);
/// std::thread::scope(|scope| {
///     for thread in 0..2u64 {
///         let table = &table;
///         scope.spawn(move || table.store(thread, TableEntry::new(0.5, Bound::Lower, 3, Some(thread as u8))));
///     }
/// });
/// assert_eq!(table.probe(1).unwrap().cutoff(3, -1.0, 0.5), Some(0.5));
/// assert_eq!(table.probe(1).unwrap().best(), Some(1));
/// assert!(table.probe(2).is_none());
/// ```
#[derive(Debug)]
pub struct AtomicTable<M> {
    /// Bucket `b` is `slots[b * ways..(b + 1) * ways]`.
    slots: Box<[Slot]>,
    buckets: usize,
    policy: Replacement,
    moves: PhantomData<fn(M) -> M>,
}

impl<M: PackedMove> AtomicTable<M> {
    /// A table that takes at most `mib` MiB (2^20 bytes) for its slots, with the largest power-of-two number of
    /// buckets that fits, and at least one. A slot takes 16 bytes.
    pub fn with_mib(mib: usize, policy: Replacement) -> AtomicTable<M> {
        AtomicTable::with_entries(mib.saturating_mul(1 << 20) / size_of::<Slot>(), policy)
    }

    /// A table of at most `entries` slots (the largest power-of-two number of buckets that fits, and at least one
    /// bucket).
    pub fn with_entries(entries: usize, policy: Replacement) -> AtomicTable<M> {
        let buckets = bucket_count(entries, policy.ways());
        AtomicTable {
            slots: (0..buckets * policy.ways()).map(|_| Slot::default()).collect(),
            buckets,
            policy,
            moves: PhantomData,
        }
    }

    /// The entry stored for `key`, if any (see [`ConcurrentTable::probe`]).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TableEntry<M>> {
        let ways = self.policy.ways();
        let first = bucket_of(key, self.buckets) * ways;
        self.slots[first..first + ways].iter().find_map(|slot| {
            let (stored, data) = slot.load();
            if stored == key { unpack(data) } else { None }
        })
    }

    /// Records `entry` for `key` by the table's [`Replacement`] (see [`ConcurrentTable::store`]).
    #[inline]
    pub fn store(&self, key: u64, entry: TableEntry<M>) {
        let data = pack(&entry);
        let first = bucket_of(key, self.buckets) * self.policy.ways();
        let (held_key, held_data) = self.slots[first].load();
        let held = (!is_empty(held_data)).then(|| (held_key, depth_of(held_data)));
        match self.policy.placement(key, depth_of(data), held) {
            Placement::First => self.slots[first].save(key, data),
            Placement::DemoteThenFirst => {
                self.slots[first + 1].save(held_key, held_data);
                self.slots[first].save(key, data);
            }
            Placement::Second => self.slots[first + 1].save(key, data),
            Placement::Skip => {}
        }
    }

    /// Empties every slot. Stores racing with it may survive it.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.save(0, 0);
        }
    }

    /// The number of occupied slots, counted by reading every slot (so a snapshot only if no thread writes).
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|slot| !is_empty(slot.load().1)).count()
    }

    /// Whether no slot is occupied (see [`AtomicTable::len`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
}

impl<M: PackedMove> ConcurrentTable for AtomicTable<M> {
    type Move = M;

    #[inline]
    fn probe(&self, key: u64) -> Option<TableEntry<M>> {
        AtomicTable::probe(self, key)
    }

    #[inline]
    fn store(&self, key: u64, entry: TableEntry<M>) {
        AtomicTable::store(self, key, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;
    use crate::table_entry::Bound;
    use proptest::prelude::*;
    use rayon::prelude::*;

    fn entry(depth: u32, best: u16) -> TableEntry<u16> {
        TableEntry::new(f64::from(best), Bound::Exact, depth, Some(best))
    }

    #[test]
    fn sizes() {
        assert_eq!(size_of::<Slot>(), 16);
        assert_eq!(AtomicTable::<u16>::with_mib(1, Replacement::Always).capacity(), 1 << 16);
        assert_eq!(AtomicTable::<u16>::with_mib(1, Replacement::TwoTier).capacity(), 1 << 16);
        assert_eq!(AtomicTable::<u16>::with_entries(1000, Replacement::TwoTier).capacity(), 512);
        assert_eq!(AtomicTable::<u16>::with_entries(1, Replacement::TwoTier).capacity(), 2);
    }

    #[test]
    fn empty_slots_answer_no_key_not_even_zero() {
        let table = AtomicTable::<u16>::with_entries(4, Replacement::Always);
        assert!(table.probe(0).is_none());
        assert!(table.is_empty());
        table.store(0, entry(1, 5));
        assert_eq!(table.probe(0), Some(entry(1, 5)));
        table.clear();
        assert!(table.probe(0).is_none());
    }

    /// A slot whose two words come from two different writes, as a reader racing with writers may see it.
    #[test]
    fn torn_slots_match_no_key() {
        let table = AtomicTable::<u16>::with_entries(1, Replacement::Always);
        let (key_a, data_a) = (0x0123_4567_89AB_CDEF, pack(&entry(3, 10)));
        let (key_b, data_b) = (0xFEDC_BA98_7654_3210, pack(&entry(5, 20)));
        let slot = &table.slots[0];
        // The check word of `a`'s write with the data word of `b`'s, and the reverse.
        for (check, data) in [(key_a ^ data_a, data_b), (key_b ^ data_b, data_a)] {
            slot.check.store(check, Relaxed);
            slot.data.store(data, Relaxed);
            assert!(table.probe(key_a).is_none());
            assert!(table.probe(key_b).is_none());
        }
        // A whole write reads back.
        slot.save(key_b, data_b);
        assert_eq!(table.probe(key_b), Some(entry(5, 20)));
        assert!(table.probe(key_a).is_none());
    }

    #[derive(Clone, Copy, Debug)]
    enum Op {
        Probe(u64),
        Store(u64, u32, u16),
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            (0u64..24).prop_map(Op::Probe),
            (0u64..24, 0u32..6, any::<u16>()).prop_map(|(k, d, m)| Op::Store(k, d, m)),
        ];
        proptest::collection::vec(op, 0..200)
    }

    proptest! {
        /// On one thread, with values `f32` holds, the atomic table answers exactly as the plain table does under
        /// every policy: the same buckets, the same replacements.
        #[test]
        fn behaves_like_the_plain_table(ops in ops(), entries in 1usize..16) {
            for policy in [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier] {
                let mut plain = Table::with_entries(entries, policy);
                let atomic = AtomicTable::with_entries(entries, policy);
                for &op in &ops {
                    match op {
                        Op::Probe(key) => prop_assert_eq!(atomic.probe(key), plain.probe(key), "{:?}", policy),
                        Op::Store(key, depth, best) => {
                            plain.store(key, entry(depth, best));
                            atomic.store(key, entry(depth, best));
                        }
                    }
                }
                prop_assert_eq!(atomic.len(), plain.len());
            }
        }
    }

    /// The entry every thread stores for `key` at `depth`: its value and move are functions of the key, so a probe
    /// that returned a torn or foreign entry would show it.
    fn keyed(key: u64, depth: u32) -> TableEntry<u16> {
        TableEntry::new((key % 1000) as f64, Bound::Lower, depth, Some((key % 65521) as u16))
    }

    #[test]
    fn threads_never_see_a_wrong_entry() {
        for policy in [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier] {
            let table = AtomicTable::with_entries(64, policy);
            let hits: usize = (0..8u64)
                .into_par_iter()
                .map(|thread| {
                    let mut hits = 0;
                    let mut state = thread.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for _ in 0..20_000 {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Few keys, so threads keep writing the same slots.
                        let key = (state >> 20) % 256 * 0x0101_0101_0101;
                        if state & 3 == 0 {
                            table.store(key, keyed(key, (state >> 8) as u32 % 8));
                        } else if let Some(found) = table.probe(key) {
                            assert_eq!(found, keyed(key, found.depth()), "{policy:?}: key {key:#x}");
                            hits += 1;
                        }
                    }
                    hits
                })
                .sum();
            assert!(hits > 0, "{policy:?}");
        }
    }
}
