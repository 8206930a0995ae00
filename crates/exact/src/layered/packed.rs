//! Win, draw or loss in two bits a number: the tables of a space too large for retrograde analysis's two bytes
//! a number (Bagh-Chal's placement phase: about 3.3·10¹⁰ numbers, 8 GB at two bits).

use crate::retro::Outcome;
use rayon::prelude::*;
use std::ops::Range;

/// A position's value for its side to move, without a distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

impl Wdl {
    /// The two-bit code: 1 a win, 2 a draw, 3 a loss (0 is a number that stands for no position).
    #[inline]
    pub fn code(self) -> u8 {
        match self {
            Wdl::Win => 1,
            Wdl::Draw => 2,
            Wdl::Loss => 3,
        }
    }

    /// The value of a code; `None` for 0, no position.
    #[inline]
    pub fn from_code(code: u8) -> Option<Wdl> {
        match code & 3 {
            1 => Some(Wdl::Win),
            2 => Some(Wdl::Draw),
            3 => Some(Wdl::Loss),
            _ => None,
        }
    }

    /// An outcome without its distance.
    pub fn of(outcome: Outcome) -> Wdl {
        match outcome {
            Outcome::Win(_) => Wdl::Win,
            Outcome::Draw => Wdl::Draw,
            Outcome::Loss(_) => Wdl::Loss,
        }
    }

    /// The value for the other side: what the opponent of the side to move has.
    #[inline]
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    /// The slot of the value in a `[wins, draws, losses]` count.
    #[inline]
    pub fn slot(self) -> usize {
        usize::from(self.code() - 1)
    }
}

/// A table of two-bit codes ([`Wdl::code`]), four numbers a byte, the lowest number in the lowest bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    bytes: Vec<u8>,
    len: u64,
}

impl Packed {
    /// The bytes a table of `len` numbers takes.
    pub fn bytes_for(len: u64) -> u64 {
        len.div_ceil(4)
    }

    /// A table of `len` numbers from its bytes (as [`Packed::bytes`] gives them); `None` if there are not
    /// [`Packed::bytes_for`] of them.
    pub fn from_bytes(bytes: Vec<u8>, len: u64) -> Option<Packed> {
        (bytes.len() as u64 == Packed::bytes_for(len)).then_some(Packed { bytes, len })
    }

    /// The numbers the table holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes, four numbers each.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The code of number `i` (below [`Packed::len`]).
    #[inline]
    pub fn code(&self, i: u64) -> u8 {
        self.bytes[(i / 4) as usize] >> (2 * (i % 4)) & 3
    }

    /// The value of number `i`; `None` where it stands for no position.
    #[inline]
    pub fn get(&self, i: u64) -> Option<Wdl> {
        Wdl::from_code(self.code(i))
    }

    /// A table of `len` numbers filled in parallel (in the current rayon pool): `fill` gets ranges of numbers,
    /// each a multiple of four long but the last, with their bytes (zeros) to write, and returns a figure;
    /// the figures of the ranges are combined by `add`, in any order.
    pub fn fill<R: Send>(
        len: u64,
        fill: impl Fn(Range<u64>, &mut [u8]) -> R + Sync,
        zero: impl Fn() -> R + Sync + Send,
        add: impl Fn(R, R) -> R + Sync + Send,
    ) -> (Packed, R) {
        let mut bytes = vec![0u8; Packed::bytes_for(len) as usize];
        let figure = bytes
            .par_chunks_mut(CHUNK_BYTES)
            .enumerate()
            .map(|(k, chunk)| {
                let start = (k * CHUNK_BYTES * 4) as u64;
                fill(start..(start + chunk.len() as u64 * 4).min(len), chunk)
            })
            .reduce(zero, add);
        (Packed { bytes, len }, figure)
    }
}

/// The bytes a parallel task of [`Packed::fill`] writes: 2¹⁶ numbers, enough to amortise the scheduling.
const CHUNK_BYTES: usize = 1 << 14;

/// Writes code `code` for number `i` of a chunk whose bytes start at a multiple of four.
#[inline]
pub(crate) fn put(bytes: &mut [u8], i: u64, code: u8) {
    bytes[(i / 4) as usize] |= code << (2 * (i % 4));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_fill_covers_every_number() {
        for value in [Wdl::Win, Wdl::Draw, Wdl::Loss] {
            assert_eq!(Wdl::from_code(value.code()), Some(value));
            assert_eq!(value.flip().flip(), value);
        }
        let len = 3 * (1 << 16) + 7;
        let code = |i: u64| (i % 3 + 1) as u8;
        let (table, count) = Packed::fill(
            len,
            |range, bytes| {
                for i in range.clone() {
                    put(bytes, i - range.start, code(i));
                }
                range.end - range.start
            },
            || 0,
            |a, b| a + b,
        );
        assert_eq!(count, len);
        assert!((0..len).all(|i| table.code(i) == code(i)));
        assert_eq!(Packed::from_bytes(table.bytes().to_vec(), len), Some(table));
        assert_eq!(Packed::from_bytes(vec![0; 3], len), None);
    }
}
