//! Entries packed into one 64-bit word, for the lock-free [`crate::AtomicTable`].
//!
//! The layout, from the least significant bit:
//!
//! ```text
//!  63         51 50 49  48  47          32 31                           0
//! +-------------+-----+---+--------------+-------------------------------+
//! |    depth    |bound| m |     move     |          value (f32)          |
//! +-------------+-----+---+--------------+-------------------------------+
//!     13 bits    2 bits 1     16 bits                 32 bits
//! ```
//!
//! - `value`: the value as the bits of an `f32`, rounded outward when `f32` cannot hold it (see [`pack`]).
//! - `move`: the best move as [`PackedMove::pack`] gives it; `m` is 1 if there is a best move.
//! - `bound`: 0 for an empty slot (so the all-zero word is an empty slot), 1 exact, 2 lower, 3 upper.
//! - `depth`: the depth searched, saturated at [`MAX_PACKED_DEPTH`].

use crate::table_entry::{Bound, TableEntry, Value};

/// The largest depth a packed entry holds: deeper entries are stored as this deep, which is sound (an entry only
/// claims less search than was done) but makes them useless to probes that need more.
pub const MAX_PACKED_DEPTH: u32 = (1 << 13) - 1;

/// A move type that fits in 16 bits, so that [`crate::AtomicTable`] can pack it into one word with the rest of
/// the entry.
///
/// `unpack(pack(m)) == m` must hold for every move `m` a game generates.
///
/// # Examples
///
/// ```
/// use khela_tt::PackedMove;
///
/// assert_eq!(<u32 as PackedMove>::unpack(7u32.pack()), 7);
/// ```
pub trait PackedMove: Copy {
    /// The move as 16 bits.
    ///
    /// # Panics
    ///
    /// Implementations for wider types panic if the move does not fit in 16 bits.
    fn pack(self) -> u16;

    /// The move packed as `bits`.
    fn unpack(bits: u16) -> Self;
}

impl PackedMove for u8 {
    #[inline]
    fn pack(self) -> u16 {
        u16::from(self)
    }

    /// Keeps the low 8 bits (only a packed `u8` is ever unpacked).
    #[inline]
    fn unpack(bits: u16) -> u8 {
        bits as u8
    }
}

impl PackedMove for u16 {
    #[inline]
    fn pack(self) -> u16 {
        self
    }

    #[inline]
    fn unpack(bits: u16) -> u16 {
        bits
    }
}

impl PackedMove for u32 {
    /// # Panics
    ///
    /// If the move is above `u16::MAX`.
    #[inline]
    fn pack(self) -> u16 {
        u16::try_from(self).expect("a u32 move packed by khela-tt must fit in 16 bits")
    }

    #[inline]
    fn unpack(bits: u16) -> u32 {
        u32::from(bits)
    }
}

impl PackedMove for usize {
    /// # Panics
    ///
    /// If the move is above `u16::MAX`.
    #[inline]
    fn pack(self) -> u16 {
        u16::try_from(self).expect("a usize move packed by khela-tt must fit in 16 bits")
    }

    #[inline]
    fn unpack(bits: u16) -> usize {
        usize::from(bits)
    }
}

const MOVE_SHIFT: u32 = 32;
const HAS_MOVE_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 49;
const DEPTH_SHIFT: u32 = 51;

/// The entry as one word.
///
/// A value `f32` cannot hold exactly is rounded outward, so the packed entry claims no more than the entry did:
/// a lower bound is rounded down, an upper bound up, and an exact value becomes a lower bound rounded down (it
/// then still settles every window whose `beta` is at or below it, but no longer answers windows above it).
/// Values beyond `f32`'s range become `±f32::MAX` that way; infinities stay infinite. Small integers and the
/// halves and quarters games use are held exactly.
#[inline]
pub(crate) fn pack<M: PackedMove>(entry: &TableEntry<M>) -> u64 {
    let value = entry.raw_value();
    let (value, bound) = match entry.bound() {
        Bound::Exact if Value::from(value as f32) == value => (value as f32, 1),
        Bound::Exact | Bound::Lower => (round_down(value), 2),
        Bound::Upper => (round_up(value), 3),
    };
    let (has_move, mv) = entry.best().map_or((0, 0), |mv| (1, mv.pack()));
    u64::from(value.to_bits())
        | u64::from(mv) << MOVE_SHIFT
        | has_move << HAS_MOVE_SHIFT
        | bound << BOUND_SHIFT
        | u64::from(entry.depth().min(MAX_PACKED_DEPTH)) << DEPTH_SHIFT
}

/// The entry packed as `data`, or `None` for an empty slot.
#[inline]
pub(crate) fn unpack<M: PackedMove>(data: u64) -> Option<TableEntry<M>> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        0 => return None,
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let value = Value::from(f32::from_bits(data as u32));
    let best = ((data >> HAS_MOVE_SHIFT) & 1 == 1).then(|| M::unpack((data >> MOVE_SHIFT) as u16));
    Some(TableEntry::new(value, bound, depth_of(data), best))
}

/// The depth packed in a non-empty `data`.
#[inline]
pub(crate) fn depth_of(data: u64) -> u32 {
    (data >> DEPTH_SHIFT) as u32
}

/// Whether `data` is an empty slot.
#[inline]
pub(crate) fn is_empty(data: u64) -> bool {
    (data >> BOUND_SHIFT) & 3 == 0
}

/// The largest `f32` at or below `value`.
fn round_down(value: Value) -> f32 {
    let near = value as f32;
    if Value::from(near) > value { near.next_down() } else { near }
}

/// The smallest `f32` at or above `value`.
fn round_up(value: Value) -> f32 {
    let near = value as f32;
    if Value::from(near) < value { near.next_up() } else { near }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(entry: TableEntry<u16>) -> TableEntry<u16> {
        unpack(pack(&entry)).expect("a packed entry is never an empty slot")
    }

    #[test]
    fn representable_entries_round_trip_exactly() {
        let cases = [
            TableEntry::new(0.0, Bound::Exact, 0, None),
            TableEntry::new(-1.0, Bound::Lower, 1, Some(0)),
            TableEntry::new(0.5, Bound::Upper, 42, Some(u16::MAX)),
            TableEntry::new(-0.25, Bound::Exact, MAX_PACKED_DEPTH, Some(7)),
            TableEntry::new(1e6, Bound::Exact, 3, Some(1)),
            TableEntry::new(Value::INFINITY, Bound::Lower, 3, None),
            TableEntry::new(Value::NEG_INFINITY, Bound::Upper, 3, None),
        ];
        for entry in cases {
            assert_eq!(round_trip(entry), entry);
        }
    }

    #[test]
    fn the_all_zero_word_is_an_empty_slot() {
        assert!(is_empty(0));
        assert_eq!(unpack::<u16>(0), None);
        assert!(!is_empty(pack(&TableEntry::new(0.0, Bound::Exact, 0, None::<u16>))));
    }

    #[test]
    fn depth_saturates() {
        let entry = TableEntry::new(1.0, Bound::Exact, MAX_PACKED_DEPTH + 1, None::<u16>);
        assert_eq!(round_trip(entry).depth(), MAX_PACKED_DEPTH);
        assert_eq!(round_trip(TableEntry::new(1.0, Bound::Exact, u32::MAX, None)).depth(), MAX_PACKED_DEPTH);
    }

    #[test]
    fn unrepresentable_values_round_outward() {
        let third = 1.0 / 3.0;
        let lower = round_trip(TableEntry::new(third, Bound::Lower, 1, None));
        assert_eq!(lower.bound(), Bound::Lower);
        assert!(lower.raw_value() < third);
        let upper = round_trip(TableEntry::new(third, Bound::Upper, 1, None));
        assert_eq!(upper.bound(), Bound::Upper);
        assert!(upper.raw_value() > third);
        let exact = round_trip(TableEntry::new(third, Bound::Exact, 1, None));
        assert_eq!(exact.bound(), Bound::Lower);
        assert!(exact.raw_value() < third);
        assert_eq!(round_trip(TableEntry::new(1e300, Bound::Lower, 1, None)).raw_value(), Value::from(f32::MAX));
        assert_eq!(round_trip(TableEntry::new(-1e300, Bound::Upper, 1, None)).raw_value(), Value::from(f32::MIN));
    }

    #[test]
    fn moves_pack() {
        assert_eq!(<u8 as PackedMove>::unpack(255u8.pack()), 255);
        assert_eq!(<u16 as PackedMove>::unpack(65535u16.pack()), 65535);
        assert_eq!(<u32 as PackedMove>::unpack(65535u32.pack()), 65535);
        assert_eq!(<usize as PackedMove>::unpack(300usize.pack()), 300);
    }

    #[test]
    #[should_panic(expected = "fit in 16 bits")]
    fn wide_moves_are_refused() {
        let _ = 65536u32.pack();
    }

    fn any_bound() -> impl Strategy<Value = Bound> {
        prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)]
    }

    proptest! {
        /// Whatever the value, the packed entry never settles a window the entry did not settle, and it settles
        /// it with a value on the same side.
        #[test]
        fn packing_is_sound(
            value in -1e40f64..1e40,
            bound in any_bound(),
            depth in 0u32..20000,
            needed in 0u32..20000,
            alpha in -1e40f64..1e40,
            width in 0f64..1e40,
        ) {
            let beta = alpha + width;
            let entry = TableEntry::new(value, bound, depth, Some(5u16));
            let packed = round_trip(entry);
            prop_assert_eq!(packed.best(), Some(5));
            if let Some(answer) = packed.cutoff(needed, alpha, beta) {
                let original = entry.cutoff(needed, alpha, beta);
                prop_assert!(original.is_some(), "{:?} answers ({}, {}) but {:?} does not", packed, alpha, beta, entry);
                if answer >= beta {
                    prop_assert!(value >= answer);
                } else if answer <= alpha {
                    prop_assert!(value <= answer);
                } else {
                    prop_assert_eq!(answer, value);
                }
            }
        }
    }
}
