//! A compact table for games with small keys and small whole-number values: one 64-bit word an entry, no full
//! key kept, threads sharing it without locks.

use crate::pages::HugeWords;
use crate::primes::{largest_prime_at_most, mul_mod, pow_mod};
use crate::table_entry::Bound;
use std::sync::atomic::Ordering;

/// What a [`CompactTable`] holds for a key: a whole-number value, its bound, and the best move if one was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactEntry {
    /// The value the search returned.
    pub value: i8,
    /// What the value says of the true value.
    pub bound: Bound,
    /// The best move, as a number below 255.
    pub best: Option<u8>,
}

/// A transposition table of one `u64` per entry, for keys of at most `key_bits` bits (as Pons' Connect-4 key,
/// 49 bits on 7 × 6) and values in `i8`: the entry of key `k` is slot `k mod p`, `p` the table's size, a prime,
/// and holds `k mod 2^32` beside the value. Two keys below `2^key_bits` that share both remainders are equal
/// (the Chinese remainder theorem, `p` odd: they are congruent modulo `p · 2^32 ≥ 2^key_bits`), so a probe
/// never returns another key's entry, and no other bits of the key need keeping. A store always replaces.
/// (Keys of positions that differ only in their first columns are a small number apart, and so are their
/// slots: a search's probes fall on fewer pages than a hash of the key would spread them over, which makes the
/// solver faster than with a multiplicative hash. The remainder is taken by multiplications with the size's
/// reciprocal, computed once (see [`Region`]), not by a division at every probe.)
///
/// Entries are single words written and read whole (relaxed atomics, plain moves on x86-64), so threads share a
/// table through `&CompactTable` with no lock and can never see half of one entry and half of another. The
/// table keeps no counters: the search that probes it counts its own.
///
/// # Examples
///
/// ```
/// use khela_tt::{Bound, CompactEntry, CompactTable};
///
/// let table = CompactTable::with_mib(2, 49).unwrap();
/// let key = 0x1_2345_6789_abcd;
/// table.store(key, CompactEntry { value: -3, bound: Bound::Upper, best: Some(4) });
/// assert_eq!(table.probe(key).map(|e| (e.value, e.best)), Some((-3, Some(4))));
/// // A key in the same slot differs in its low 32 bits (the next with the same ones is 2^49 or more away).
/// assert_eq!(table.probe(key + table.capacity()), None);
/// table.clear();
/// assert_eq!(table.probe(key), None);
/// assert!(CompactTable::with_mib(1, 49).is_err()); // 2^17 entries tell keys of 48 bits apart, no more.
/// ```
pub struct CompactTable {
    slots: HugeWords,
    /// The number of slots, a prime.
    size: u64,
    /// The bits of the keys it tells apart.
    key_bits: u32,
    /// The whole table as a region.
    whole: Region,
}

/// A part of a [`CompactTable`] that a search small enough keeps in the processor's cache: `size` slots in a
/// row (the table's first ones, or a copy beside them: [`CompactTable::beside`]), `size` a prime, keys taken
/// modulo `size`, and its entries marked with `tag` so that a probe in another region (or of the whole table,
/// tag 0) never takes them: `size` tells keys apart as the whole table's does (the Chinese remainder theorem),
/// but two sizes together would not.
///
/// A key's remainder takes one multiplication, a shift and a multiplication back, with a reciprocal computed
/// once for the table's keys, which are below `2^n` (`n` its key bits, at most [`CompactTable::MAX_KEY_BITS`]):
/// with `l = ⌈log2 size⌉` and `m = ⌈2^(n + l) / size⌉`, `⌊k · m / 2^(n + l)⌋` is `⌊k / size⌋` for every such
/// key (Granlund and Montgomery: `m · size` exceeds `2^(n + l)` by less than `2^l`, so the product's error is
/// below `k / 2^n · 1 / size < 1 / size`), and `m ≤ 2^(n + 1)` fits 64 bits (for `n = 63`, `m < 2^64`). `n` is
/// raised to `64 − l` if it is less, so that `n + l ≥ 64` and the quotient is the product's high word, shifted. A
/// region belongs to the table that made it: another table's keys may be longer. (The `strength_reduce`
/// crate's divisor, made for every 64-bit numerator, takes two 128-bit products and a branch: more instructions.)
#[derive(Clone, Copy, Debug)]
pub struct Region {
    /// Its first slot.
    first: u64,
    size: u64,
    /// `⌈2^(n + l) / size⌉`.
    multiplier: u64,
    /// `n + l − 64`.
    shift: u32,
    tag: u64,
}

/// Regions are equal when their slots and tags are (the reciprocal follows from the slots and the table's keys).
impl PartialEq for Region {
    fn eq(&self, other: &Region) -> bool {
        (self.first, self.size, self.tag) == (other.first, other.size, other.tag)
    }
}

impl Eq for Region {}

impl Region {
    /// The region of the first `size` slots (at least 2), tagged `tag`, for keys below `2^key_bits` (at most
    /// [`CompactTable::MAX_KEY_BITS`]).
    fn new(size: u64, tag: u64, key_bits: u32) -> Region {
        debug_assert!(size >= 2 && key_bits <= CompactTable::MAX_KEY_BITS, "{size} slots, {key_bits}-bit keys");
        let l = u64::BITS - (size - 1).leading_zeros();
        let n = key_bits.max(u64::BITS - l);
        let multiplier = (1u128 << (n + l)).div_ceil(u128::from(size));
        let multiplier = u64::try_from(multiplier).expect("m < 2^64 for keys of at most 63 bits");
        Region { first: 0, size, multiplier, shift: n + l - u64::BITS, tag }
    }

    /// The slot of `key`, a key below the table's `2^key_bits`: the first slot plus `key mod size`.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        let high = ((u128::from(key) * u128::from(self.multiplier)) >> u64::BITS) as u64;
        (self.first + key - (high >> self.shift) * self.size) as usize
    }

    /// The number of slots, a prime.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Its first slot.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// The slot after its last: emptying the table's first `end` slots ([`CompactTable::clear_first`]) empties
    /// the region.
    pub fn end(&self) -> u64 {
        self.first + self.size
    }

    /// Its tag: 0 for the whole table, 1 to [`CompactTable::REGIONS`] for the others. Regions of one tag and
    /// different sizes must not be used on one table: an entry of the one could be taken for another key's in
    /// the other.
    pub fn tag(&self) -> u8 {
        self.tag as u8
    }
}

impl std::fmt::Debug for CompactTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the slots: millions of them.
        f.debug_struct("CompactTable")
            .field("size", &self.size)
            .field("key_bits", &self.key_bits)
            .finish_non_exhaustive()
    }
}

/// A table too small to tell its keys apart without keeping more of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a compact table of {entries} entries tells keys of at most {most} bits apart, not {key_bits}: keys that long \
     take a table of {needed_mib} MiB or more"
)]
pub struct TooSmall {
    /// The entries the size gives.
    pub entries: u64,
    /// The bits of the keys asked for.
    pub key_bits: u32,
    /// The bits it can take.
    pub most: u32,
    /// The smallest table, in MiB, that takes keys of `key_bits` bits ([`CompactTable::min_mib`]).
    pub needed_mib: usize,
}

/// The word of an empty slot: a bound of 0 is no entry.
const EMPTY: u64 = 0;

/// The bound of each code an entry's word keeps (bits 40 and 41); 0 is an empty slot.
const BOUNDS: [Option<Bound>; 4] = [None, Some(Bound::Exact), Some(Bound::Lower), Some(Bound::Upper)];

/// Where an entry's word keeps its region's tag (2 bits).
const TAG_SHIFT: u32 = 42;

impl CompactTable {
    /// A table of at most `mib` MiB (the largest prime number of 8-byte entries that fits, at least 3), for keys
    /// below `2^key_bits`.
    ///
    /// # Errors
    ///
    /// If the table is too small for keys that long: it needs `2^(key_bits − 32)` entries or more, and no table
    /// takes keys of more than [`CompactTable::MAX_KEY_BITS`] bits.
    pub fn with_mib(mib: usize, key_bits: u32) -> Result<CompactTable, TooSmall> {
        let entries = (mib as u64).saturating_mul(1 << 20) / 8;
        let size = largest_prime_at_most(entries.max(3));
        let most = Self::most_key_bits(size);
        if key_bits > most {
            return Err(TooSmall { entries: size, key_bits, most, needed_mib: Self::min_mib(key_bits) });
        }
        // Huge pages where the system gives them (see `HugeWords`); every slot starts empty (0).
        let slots = HugeWords::zeroed(size as usize);
        Ok(CompactTable { slots, size, key_bits, whole: Region::new(size, 0, key_bits) })
    }

    /// The smallest size in MiB of a table for keys of `key_bits` bits (at most
    /// [`CompactTable::MAX_KEY_BITS`]): its prime number of entries must reach `2^(key_bits − 32)`, which a
    /// MiB (2^17 entries) past that power of two makes sure of (the primes below it are far closer together).
    pub fn min_mib(key_bits: u32) -> usize {
        let power = key_bits.saturating_sub(32);
        if power < 17 { 1 } else { (1usize << (power - 17)) + 1 }
    }

    /// The longest keys any table takes: its regions' remainders are exact for keys of at most 63 bits (see
    /// [`Region`]). (A table tells keys of `32 + log2 size` bits apart: 63 bits take 2^31 entries, 16 GiB.)
    pub const MAX_KEY_BITS: u32 = 63;

    /// The bits of the keys that `size` slots tell apart (32 kept, the rest by the remainder), up to
    /// [`CompactTable::MAX_KEY_BITS`].
    fn most_key_bits(size: u64) -> u32 {
        (32 + size.ilog2()).min(Self::MAX_KEY_BITS)
    }

    /// The number of entries, a prime.
    pub fn capacity(&self) -> u64 {
        self.size
    }

    /// The regions a table has besides the whole: tags 1, 2 and 3.
    pub const REGIONS: u8 = 3;

    /// The whole table, as a region (tag 0): what [`CompactTable::probe`] and [`CompactTable::store`] use.
    pub fn whole(&self) -> Region {
        self.whole
    }

    /// Region `tag` (1 to [`CompactTable::REGIONS`]): the first `p` slots, `p` the largest prime at most
    /// `entries` and at most the capacity. Regions of different tags may overlap; their entries never mix.
    ///
    /// # Errors
    ///
    /// If so few entries cannot tell the table's keys apart.
    ///
    /// # Panics
    ///
    /// If `tag` is not a region's.
    ///
    /// ```
    /// use khela_tt::{Bound, CompactEntry, CompactTable};
    /// let table = CompactTable::with_mib(8, 49).unwrap();
    /// let small = table.region(1, 1 << 18).unwrap();
    /// assert_eq!(small.size(), 262_139);
    /// let entry = CompactEntry { value: 1, bound: Bound::Exact, best: None };
    /// table.store_in(99, small, entry);
    /// assert_eq!(table.probe_in(99, small), Some(entry));
    /// // In the same slot, the whole table does not take the small region's entry, nor another region.
    /// assert_eq!(table.probe(99), None);
    /// assert_eq!(table.probe_in(99, table.region(2, 1 << 18).unwrap()), None);
    /// assert!(table.region(1, 1 << 16).is_err()); // 2^49 needs 2^17 entries or more.
    /// ```
    pub fn region(&self, tag: u8, entries: u64) -> Result<Region, TooSmall> {
        assert!((1..=Self::REGIONS).contains(&tag), "region {tag}: regions are 1 to {}", Self::REGIONS);
        let size = largest_prime_at_most(entries.clamp(3, self.size));
        let most = Self::most_key_bits(size);
        if self.key_bits > most {
            return Err(TooSmall {
                entries: size,
                key_bits: self.key_bits,
                most,
                needed_mib: Self::min_mib(self.key_bits),
            });
        }
        Ok(Region::new(size, u64::from(tag), self.key_bits))
    }

    /// Copy `k` of `region` (0 for `region` itself, a region of [`CompactTable::region`]): as many slots, the
    /// same tag, laid beside it `k` times its size further on; `None` where the copy would pass the table's
    /// end. A copy never takes another's entries, although their tag is the same: a key's slot in one is in
    /// no other. Threads that each keep some of their entries to themselves (in their processor's cache, not
    /// fetched from another's) take a copy each.
    ///
    /// ```
    /// use khela_tt::{Bound, CompactEntry, CompactTable};
    /// let table = CompactTable::with_mib(8, 49).unwrap();
    /// let small = table.region(1, 1 << 18).unwrap();
    /// let beside = table.beside(small, 1).unwrap();
    /// assert_eq!((beside.size(), beside.end()), (small.size(), 2 * small.size()));
    /// let entry = CompactEntry { value: 1, bound: Bound::Exact, best: None };
    /// table.store_in(99, beside, entry);
    /// assert_eq!(table.probe_in(99, beside), Some(entry));
    /// assert_eq!(table.probe_in(99, small), None);
    /// assert!(table.beside(small, 4).is_none()); // 2^20 slots hold four copies of 262,139, not five.
    /// ```
    pub fn beside(&self, region: Region, k: u64) -> Option<Region> {
        let first = region.first.checked_add(k.checked_mul(region.size)?)?;
        (first.checked_add(region.size)? <= self.size).then_some(Region { first, ..region })
    }

    /// The entry of `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<CompactEntry> {
        self.probe_in(key, self.whole())
    }

    /// The entry of `key` in `region`, if it holds one.
    #[inline(always)]
    pub fn probe_in(&self, key: u64, region: Region) -> Option<CompactEntry> {
        debug_assert!(region.end() <= self.size, "a region up to slot {} in a table of {}", region.end(), self.size);
        debug_assert!(key >> self.key_bits == 0, "key {key:#x} beyond {} bits", self.key_bits);
        let word = self.slots[region.slot(key)].load(Ordering::Relaxed);
        if word as u32 != key as u32 || word >> TAG_SHIFT & 3 != region.tag {
            return None;
        }
        // Looked up, not matched: a match compiles to a jump through a table, mispredicted as often as not.
        let bound = BOUNDS[(word >> 40 & 3) as usize]?;
        let best = (word >> 48) as u8;
        Some(CompactEntry { value: (word >> 32) as u8 as i8, bound, best: best.checked_sub(1) })
    }

    /// Asks the processor to bring `key`'s slot in `region` into its cache, without waiting for it, for a probe
    /// soon after.
    #[inline(always)]
    pub fn prefetch_in(&self, key: u64, region: Region) {
        debug_assert!(region.end() <= self.size, "a region up to slot {} in a table of {}", region.end(), self.size);
        debug_assert!(key >> self.key_bits == 0, "key {key:#x} beyond {} bits", self.key_bits);
        crate::prefetch::prefetch(&self.slots[region.slot(key)]);
    }

    /// Records `entry` for `key`, replacing whatever the slot held.
    ///
    /// # Panics
    ///
    /// In debug builds, if the best move is 255 (the entry keeps a move plus one, in a byte).
    #[inline]
    pub fn store(&self, key: u64, entry: CompactEntry) {
        self.store_in(key, self.whole(), entry);
    }

    /// Records `entry` for `key` in `region`, replacing whatever its slot held.
    ///
    /// # Panics
    ///
    /// In debug builds, if the best move is 255.
    #[inline(always)]
    pub fn store_in(&self, key: u64, region: Region, entry: CompactEntry) {
        debug_assert!(region.end() <= self.size, "a region up to slot {} in a table of {}", region.end(), self.size);
        debug_assert!(entry.best != Some(u8::MAX), "a compact entry keeps moves below 255");
        debug_assert!(key >> self.key_bits == 0, "key {key:#x} beyond {} bits", self.key_bits);
        let bound: u64 = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = entry.best.map_or(0, |m| u64::from(m) + 1);
        let word = u64::from(key as u32)
            | u64::from(entry.value as u8) << 32
            | bound << 40
            | region.tag << TAG_SHIFT
            | best << 48;
        self.slots[region.slot(key)].store(word, Ordering::Relaxed);
    }

    /// Moves every entry of `from` into `to`, as if each were stored there (replacing what `to` held in its slot),
    /// for a search that outgrows region `from` and would otherwise lose what it stored there: each key is
    /// recovered from its slot and its kept bits (the Chinese remainder theorem), and stored anew. The entries
    /// are read before any is written, since the regions overlap. Other threads may probe and store in either
    /// region meanwhile (a team's handles do, until they follow): an entry may then be replaced or missed, never
    /// taken for another key's, since every word is written whole with its key's bits and its region's tag.
    #[cold]
    #[inline(never)]
    pub fn promote(&self, from: Region, to: Region) {
        let p = from.size;
        // 2^32's inverse modulo the prime p (Fermat: a^(p − 2)).
        let inverse = pow_mod((1 << 32) % p, p - 2, p);
        let moved: Vec<(u64, u64)> = self.slots[from.first as usize..from.end() as usize]
            .iter()
            .enumerate()
            .filter_map(|(slot, word)| {
                let word = word.load(Ordering::Relaxed);
                if word >> 40 & 3 == 0 || word >> TAG_SHIFT & 3 != from.tag {
                    return None;
                }
                // key = low + 2^32 t with key ≡ slot (mod p), the slot counted from the region's first: t ≡
                // (slot − low) · 2^−32 (mod p). A key the table's keys cannot be (a word of another region of the
                // same tag) is left behind.
                let low = u64::from(word as u32);
                let t = mul_mod((slot as u64 + p - low % p) % p, inverse, p);
                let key = low | t << 32;
                (key >> self.key_bits == 0).then_some((key, word & !(3 << TAG_SHIFT) | to.tag << TAG_SHIFT))
            })
            .collect();
        for (key, word) in moved {
            self.slots[to.slot(key)].store(word, Ordering::Relaxed);
        }
    }

    /// Empties the table (between searches: one running meanwhile would find some entries gone, some not).
    pub fn clear(&self) {
        self.clear_first(self.size);
    }

    /// Empties the first `slots` slots (all of them if `slots` is the capacity or more): every region of at
    /// most that size.
    pub fn clear_first(&self, slots: u64) {
        for slot in &self.slots[..slots.min(self.size) as usize] {
            slot.store(EMPTY, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_sizes() {
        let table = CompactTable::with_mib(1, 48).unwrap();
        assert_eq!(table.capacity(), 131_071);
        assert_eq!(CompactTable::with_mib(1, 49).unwrap_err().most, 48);
        assert_eq!(CompactTable::with_mib(2, 49).unwrap().capacity(), 262_139);
        // The smallest size that takes keys of each length, and no smaller one.
        for key_bits in 33..=56 {
            let mib = CompactTable::min_mib(key_bits);
            assert!(CompactTable::with_mib(mib, key_bits).is_ok(), "{key_bits} bits in {mib} MiB");
            if mib > 1 {
                let refused = CompactTable::with_mib(mib - 1, key_bits).unwrap_err();
                assert_eq!(refused.needed_mib, mib, "{key_bits} bits");
            }
        }
        assert_eq!(CompactTable::min_mib(56), 129);
    }

    /// A region's remainder is the `%` operator's for keys of up to the table's bits: random ones, the
    /// extremes, and those around multiples of the size, for small and large sizes and key lengths.
    #[test]
    fn remainders_are_exact() {
        let mut state = 0x9e37_79b9_u64;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            state
        };
        for size in [2, 3, 5, 97, 131_071, 262_139, 4_194_301, 2_147_483_647, (1 << 32) - 5, 1 << 40] {
            for key_bits in [1, 20, 32, 49, 55, 62, CompactTable::MAX_KEY_BITS] {
                let region = Region::new(size, 0, key_bits);
                let top = (1u64 << key_bits) - 1;
                let near = |k: u64| [k.saturating_sub(1), k, k.saturating_add(1)];
                let multiples = (1..4).flat_map(|i| near(top / size / i * size)).chain(near(size));
                let keys = [0, 1, top, top - top % size].into_iter().chain(multiples).chain((0..2_000).map(|_| next()));
                for key in keys.map(|k| k & top) {
                    assert_eq!(region.slot(key) as u64, key % size, "{key} mod {size}, {key_bits}-bit keys");
                }
            }
        }
    }

    #[test]
    fn entries_round_trip_and_keys_never_mix() {
        let table = CompactTable::with_mib(2, 49).unwrap();
        let size = table.capacity();
        for (value, bound, best) in
            [(-64, Bound::Exact, None), (63, Bound::Lower, Some(0)), (0, Bound::Upper, Some(254))]
        {
            let entry = CompactEntry { value, bound, best };
            table.store(12345, entry);
            assert_eq!(table.probe(12345), Some(entry));
        }
        // Keys in the same slot: the last store wins, the other is absent, never returned as the first.
        table.store(7, CompactEntry { value: 1, bound: Bound::Exact, best: None });
        table.store(7 + size, CompactEntry { value: 2, bound: Bound::Exact, best: None });
        assert_eq!(table.probe(7), None);
        assert_eq!(table.probe(7 + size).map(|e| e.value), Some(2));
        // Keys with the same low 32 bits in the same slot are 2^32 · size apart: beyond 2^49.
        assert!(size << 32 > 1 << 49);
        table.clear();
        assert_eq!(table.probe(7 + size), None);
    }

    #[test]
    fn regions_keep_their_entries_apart() {
        let table = CompactTable::with_mib(4, 49).unwrap();
        let (one, two) = (table.region(1, 1 << 18).unwrap(), table.region(2, 1 << 18).unwrap());
        assert_eq!((one.size(), two.size()), (262_139, 262_139));
        assert_eq!(table.region(3, u64::MAX).unwrap().size(), table.capacity());
        let entry = |value| CompactEntry { value, bound: Bound::Exact, best: Some(3) };
        // A key below the smaller size has the same slot everywhere: each store replaces the one before, and
        // only the region that stored it finds it.
        for (value, region) in [(1, one), (2, two), (3, table.whole())] {
            table.store_in(777, region, entry(value));
            for other in [one, two, table.whole()] {
                let found = table.probe_in(777, other).map(|e| e.value);
                assert_eq!(found, (other == region).then_some(value), "{region:?} {other:?}");
            }
        }
        // Keys far apart, in the region's slots: its remainders tell them apart as the whole table's do.
        let key = (1u64 << 48) + 12_345;
        table.store_in(key, one, entry(9));
        assert_eq!(table.probe_in(key, one), Some(entry(9)));
        assert_eq!(table.probe_in(key + one.size(), one), None);
        // Emptying the first slots empties every region that fits in them.
        table.clear_first(one.size());
        assert_eq!(table.probe_in(key, one), None);
    }

    /// Copies of a region side by side ([`CompactTable::beside`]), the same tag: the same keys stored in each with
    /// entries of their own are found in their own copy, never in another (a key's slot is its copy's); the
    /// copies end where the next begins, and none passes the table's end.
    #[test]
    fn copies_of_a_region_keep_their_entries_apart() {
        let table = CompactTable::with_mib(2, 40).unwrap();
        let region = table.region(3, 1000).unwrap();
        let copies: Vec<Region> = (0..).map_while(|k| table.beside(region, k)).collect();
        assert_eq!(copies.len() as u64, table.capacity() / region.size());
        assert!(copies.windows(2).all(|w| w[0].end() == w[1].first() && w[0] != w[1]));
        assert!(copies.last().unwrap().end() <= table.capacity());
        let keys: Vec<u64> = (0..300u64).map(|i| i * 0x9e37_79b9 % (1 << 40)).collect();
        let entry = |copy: usize| CompactEntry { value: copy as i8 % 100, bound: Bound::Exact, best: None };
        for (copy, &region) in copies.iter().enumerate().step_by(97) {
            for &key in &keys {
                table.store_in(key, region, entry(copy));
            }
        }
        for (copy, &region) in copies.iter().enumerate() {
            let found = keys.iter().filter_map(|&key| table.probe_in(key, region)).collect::<Vec<_>>();
            if copy % 97 == 0 {
                assert!(found.len() > 200 && found.iter().all(|&e| e == entry(copy)), "copy {copy}: {found:?}");
            } else {
                assert!(found.is_empty(), "copy {copy} took another's entries: {found:?}");
            }
        }
    }

    /// Entries promoted from a region to a larger one, then to the whole table, are found there under their
    /// own keys (recovered from slot and kept bits), short of those that share a slot in the larger region; no
    /// key finds another's entry.
    #[test]
    fn promoted_entries_keep_their_keys() {
        let table = CompactTable::with_mib(16, 49).unwrap();
        // The first region a copy beside the table's first slots (its keys recovered from slots counted from its
        // own first), inside the second: promotion reads it whole before it writes the second.
        let first = table.beside(table.region(1, 1 << 18).unwrap(), 3).unwrap();
        let ladder = [first, table.region(2, 1 << 20).unwrap(), table.whole()];
        assert!(first.first() > 0 && first.end() < ladder[1].end());
        let mut state = 0x5eed_u64;
        let keys: Vec<u64> = (0..60_000)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                state >> 15
            })
            .collect();
        let entry = |i: usize| CompactEntry {
            value: ((i % 200) as i16 - 100) as i8,
            bound: BOUNDS[1 + i % 3].unwrap(),
            best: Some((i % 7) as u8),
        };
        for (i, &key) in keys.iter().enumerate() {
            table.store_in(key, ladder[0], entry(i));
        }
        for step in [0, 1] {
            let (from, to) = (ladder[step], ladder[step + 1]);
            let kept: Vec<usize> =
                (0..keys.len()).filter(|&i| table.probe_in(keys[i], from) == Some(entry(i))).collect();
            assert!(kept.len() > 40_000, "{} of {} kept in {from:?}", kept.len(), keys.len());
            table.promote(from, to);
            let mut slots = std::collections::HashMap::new();
            for &i in &kept {
                *slots.entry(keys[i] % to.size()).or_insert(0) += 1;
            }
            let mut found = 0;
            for (i, &key) in keys.iter().enumerate() {
                let got = table.probe_in(key, to);
                if kept.contains(&i) && slots[&(key % to.size())] == 1 {
                    assert_eq!(got, Some(entry(i)), "key {key:#x} promoted to {to:?}");
                }
                assert!(got.is_none() || got == Some(entry(i)), "key {key:#x} took another's entry");
                found += usize::from(got.is_some());
            }
            assert!(found >= kept.len() * 9 / 10, "{found} of {} found in {to:?}", kept.len());
        }
    }

    #[test]
    fn threads_share_it() {
        let table = CompactTable::with_mib(1, 40).unwrap();
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for k in 0..10_000u64 {
                        let key = k * 4 + t;
                        table.store(key, CompactEntry { value: (key % 100) as i8, bound: Bound::Exact, best: None });
                    }
                });
            }
        });
        // Whatever survived is whole: its value is its own key's.
        let survivors = (0..40_000u64).filter_map(|key| table.probe(key).map(|e| (key, e.value))).collect::<Vec<_>>();
        assert!(!survivors.is_empty());
        assert!(survivors.iter().all(|&(key, value)| value == (key % 100) as i8));
    }
}
