//! Bagh-Chal's placement phase valued one layer at a time, win, draw or loss in two bits a number: the fast
//! path of layered backward induction for the game the generic solver ([`super::solve`]) is too slow and too
//! large for (3.3·10¹⁰ numbers on the standard board). Its tables are the generic solver's, number for number,
//! without the distances (tested on small variants).
//!
//! # What makes it fast
//!
//! It walks a layer's numbers in order — a slice, a class of tiger sets, the empty points' sets in the
//! combinatorial number system, the next from the last by Gosper's rule — and numbers each position's moves
//! without building a position:
//!
//! - a goat placed keeps the tigers where they are, so on a tiger set that no symmetry keeps (all but a few
//!   per cent) the child's number is the class's, with the empty set one point smaller: its rank is the rank
//!   of the points below the placement plus the points above, each one place lower, summed once for all the
//!   placements of a position;
//! - a tiger's move is one of the few of its class (worked out once), each with the class it leads to and the
//!   symmetry that takes the tigers there; the child's number is that symmetry's image of the empty set,
//!   closed up over the tigers and ranked a byte at a time.
//!
//! Boards whose tiger set some symmetry keeps are numbered the generic way ([`Classes::number`]). A layer needs
//! the layer before it only (goats placing lead to the tigers to move with one goat more; tigers to the goats
//! with as many), and the last placements lead out of the phase, to the sliding phase's table.

use super::LayeredError;
use super::packed::{Packed, Wdl, put};
use khela_games::Space;
use khela_games::alquerque::{NONE, Points, points};
use khela_games::bagh_chal::placement::{PlacementPhase, Slice};
use khela_games::numbering::{Binomial, Classes, compress, expand};
use std::ops::Range;

/// The positions of a layer's slice counted by value: up to symmetry, and in full (each class of positions
/// counted as many times as it has images).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceCount {
    /// Classes of positions won, drawn and lost by the side to move.
    pub canonical: [u64; 3],
    /// Positions won, drawn and lost by the side to move.
    pub full: [u64; 3],
}

/// A layer valued by [`Solver::layer`]: its table and its slices' counts.
#[derive(Clone, Debug)]
pub struct LayerValues {
    /// The codes of the layer's numbers, counted from the layer's first.
    pub table: Packed,
    /// The layer's slices, in the order of their numbers, each with its counts.
    pub slices: Vec<(Slice, SliceCount)>,
}

/// A layer: one count of goats placed, one side to move, its slices.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Goats placed.
    pub placed: u8,
    /// Whether the goats are to move.
    pub goats_to_move: bool,
    /// Its numbers in the phase.
    pub numbers: Range<u64>,
    /// Its slices, with their numbers in the phase.
    pub slices: Vec<(Slice, Range<u64>)>,
}

/// A tiger's move on a class's set: where it goes, and where its child's board is numbered.
#[derive(Clone, Copy, Debug)]
struct TigerMove {
    from: u8,
    to: u8,
    /// The goat jumped over, or [`NONE`] for a step.
    over: u8,
    /// The tigers after the move.
    tigers: Points,
    /// Their class.
    class: usize,
    /// The one symmetry that moves them to their class's set, or `None` where several do.
    symmetry: Option<u8>,
}

/// The layered solver of a placement phase (see the module documentation).
pub struct Solver<'a> {
    space: &'a PlacementPhase,
    classes: &'a Classes,
    all: Points,
    tigers_win_at: u8,
    layers: Vec<Layer>,
    /// Each class's tiger moves.
    moves: Vec<Vec<TigerMove>>,
    rank: ChunkRank,
    binomial: Binomial,
}

impl<'a> Solver<'a> {
    /// The solver of `space`'s layers.
    pub fn new(space: &'a PlacementPhase) -> Solver<'a> {
        let classes = space.classes();
        let game = space.game();
        let board = game.board();
        let all = board.all();
        let slices = space.slices();
        let layers = space
            .stages()
            .into_iter()
            .map(|ranges| {
                let numbers = ranges[0].start..ranges.last().expect("a layer has a slice").end;
                let slices: Vec<(Slice, Range<u64>)> =
                    slices.iter().filter(|(_, r)| numbers.contains(&r.start)).cloned().collect();
                let (placed, goats_to_move) = (slices[0].0.placed, slices[0].0.goats_to_move);
                Layer { placed, goats_to_move, numbers, slices }
            })
            .collect();
        let moves = (0..classes.len())
            .map(|class| {
                let tigers = classes.set(class);
                let mut moves = Vec::new();
                for from in points(tigers) {
                    let jumps = board.jumps(from).iter().map(|&(_, over, to)| (over, to));
                    let steps = points(board.adjacent(from)).map(|to| (NONE, to));
                    for (over, to) in steps.chain(jumps) {
                        if tigers & (1 << to) != 0 || (over != NONE && tigers & (1 << over) != 0) {
                            continue;
                        }
                        let after = tigers & !(1 << from) | 1 << to;
                        let (class, movers) = classes.least(after);
                        let symmetry = (movers.count_ones() == 1).then_some(movers.trailing_zeros() as u8);
                        moves.push(TigerMove { from, to, over, tigers: after, class, symmetry });
                    }
                }
                moves
            })
            .collect();
        let free = board.len() as u32 - classes.size();
        Solver {
            space,
            classes,
            all,
            tigers_win_at: game.captures_to_win(),
            layers,
            moves,
            rank: ChunkRank::new(free),
            binomial: Binomial::new(free as usize),
        }
    }

    /// The layers, in the order they are valued: the last placements first, the start last.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Values layer `layer` from `previous`, the table of the layer before it (`None` for the first layer), and
    /// `outside`: the sliding phase's value for the tigers to move of a board after the last placement, given
    /// the goats captured and the board's number by the phase's [`Classes`] (tigers first, empty points
    /// second). `on_chunk` hears of each run of numbers valued, with its length. Runs in the current rayon
    /// pool; the same table for any number of threads.
    pub fn layer(
        &self,
        layer: usize,
        previous: Option<&Packed>,
        outside: &(impl Fn(u8, u64) -> Option<Wdl> + Sync),
        on_chunk: &(impl Fn(u64) + Sync),
    ) -> Result<LayerValues, LayeredError> {
        let this = &self.layers[layer];
        let before = layer.checked_sub(1).map(|k| &self.layers[k]);
        if let (Some(before), None) = (before, previous) {
            return Err(LayeredError::Missing { layer, before: before.numbers.end - before.numbers.start });
        }
        // Where each child slice starts in the previous layer's table, by goats captured.
        let child_side = !this.goats_to_move;
        let child_placed = this.placed + u8::from(this.goats_to_move);
        let bases: Vec<Option<u64>> = (0..=self.tigers_win_at)
            .map(|captured| {
                before?.slices.iter().find_map(|(s, r)| {
                    (s.placed == child_placed && s.captured == captured && s.goats_to_move == child_side)
                        .then(|| r.start - before.expect("a layer before").numbers.start)
                })
            })
            .collect();
        let last = this.goats_to_move && child_placed == self.space.game().goats();
        let context = Context { solver: self, this, previous, bases: &bases, last, outside };
        let len = this.numbers.end - this.numbers.start;
        let zero = || Ok(vec![SliceCount::default(); this.slices.len()]);
        let (table, counts) = Packed::fill(
            len,
            |range, bytes| {
                let counts = context.fill(range.clone(), bytes);
                on_chunk(range.end - range.start);
                counts
            },
            zero,
            |a, b| {
                let (mut a, b) = (a?, b?);
                for (x, y) in a.iter_mut().zip(b) {
                    for k in 0..3 {
                        x.canonical[k] += y.canonical[k];
                        x.full[k] += y.full[k];
                    }
                }
                Ok(a)
            },
        );
        let slices = this.slices.iter().map(|(s, _)| *s).zip(counts?).collect();
        Ok(LayerValues { table, slices })
    }
}

/// What valuing one layer needs.
struct Context<'s, 'a, F> {
    solver: &'s Solver<'a>,
    this: &'s Layer,
    previous: Option<&'s Packed>,
    /// The child slices' first numbers in `previous`, by goats captured.
    bases: &'s [Option<u64>],
    /// Whether the children are after the last placement, out of the phase.
    last: bool,
    outside: &'s F,
}

impl<F: Fn(u8, u64) -> Option<Wdl> + Sync> Context<'_, '_, F> {
    /// Values the layer's numbers `range` (counted from the layer's first) into `bytes`.
    fn fill(&self, range: Range<u64>, bytes: &mut [u8]) -> Result<Vec<SliceCount>, LayeredError> {
        let s = self.solver;
        let mut counts = vec![SliceCount::default(); self.this.slices.len()];
        let first = self.this.numbers.start;
        let mut i = range.start;
        while i < range.end {
            // The slice holding number i, and from it on to the end of the range or of the slice.
            let k = self.this.slices.iter().position(|(_, r)| r.contains(&(first + i))).expect("a slice");
            let (slice, numbers) = &self.this.slices[k];
            let arrangements = s.classes.arrangements(slice.empties);
            let within = first + i - numbers.start;
            let (mut class, mut rank) = ((within / arrangements) as usize, within % arrangements);
            let mut empty_c = s.binomial.unrank(rank, slice.empties);
            let stop = range.end.min(numbers.end - first);
            while i < stop {
                let tigers = s.classes.set(class);
                let empty = expand(empty_c, tigers);
                let goats = s.all & !tigers & !empty;
                let symmetric = s.classes.is_symmetric(class);
                if !symmetric || s.classes.stands_for(class, goats) {
                    let board = Board { class, tigers, empty, empty_c, goats, symmetric };
                    let value =
                        if slice.goats_to_move { self.goats(slice, &board)? } else { self.tigers(slice, &board)? };
                    put(bytes, i - range.start, value.code());
                    let images =
                        if symmetric { s.classes.images(tigers, goats) } else { s.classes.symmetries().len() as u64 };
                    counts[k].canonical[value.slot()] += 1;
                    counts[k].full[value.slot()] += images;
                }
                i += 1;
                rank += 1;
                if rank == arrangements {
                    (class, rank, empty_c) = (class + 1, 0, (1 << slice.empties) - 1);
                } else {
                    empty_c = next_set(empty_c);
                }
            }
        }
        Ok(counts)
    }

    /// The value of a child, for its side to move: in the previous layer's table, or out of the phase.
    #[inline]
    fn child(&self, captured: u8, number: u64, position: impl Fn() -> String) -> Result<Wdl, LayeredError> {
        let missing = || LayeredError::Outside { position: position(), child: format!("board number {number}") };
        if self.last {
            return (self.outside)(captured, number).ok_or_else(missing);
        }
        let base = self.bases[usize::from(captured)].ok_or_else(missing)?;
        let previous = self.previous.expect("checked: a layer before");
        previous.get(base + number).ok_or_else(missing)
    }

    /// The goats place a goat: the best of their placements, each to the tigers with the same board and one
    /// empty point fewer.
    fn goats(&self, slice: &Slice, b: &Board) -> Result<Wdl, LayeredError> {
        let s = self.solver;
        let after = slice.empties - 1;
        if after == 0 {
            return Ok(Wdl::Win); // the board is full: the tigers cannot move
        }
        let arrangements = s.classes.arrangements(after);
        let class_first = b.class as u64 * arrangements;
        let describe = || format!("goats to move, tigers {:#x}, goats {:#x}", b.tigers, b.goats);
        let mut best = Wdl::Loss;
        if b.symmetric {
            for x in points(b.empty) {
                let number = s.classes.number(b.tigers, b.empty & !(1 << x));
                best = better(best, self.child(slice.captured, number, describe)?.flip());
                if best == Wdl::Win {
                    break;
                }
            }
            return Ok(best);
        }
        // The rank of the empty set without its j-th point: the points below it as they are, the points above
        // it each one place lower.
        let mut at = [0u8; 64];
        let n = points(b.empty_c).zip(&mut at).map(|(p, slot)| *slot = p).count();
        let mut above = [0u64; 65];
        for j in (0..n).rev() {
            above[j] = above[j + 1] + s.binomial.get(usize::from(at[j]), j);
        }
        let mut below = 0;
        for j in 0..n {
            let number = class_first + below + above[j + 1];
            best = better(best, self.child(slice.captured, number, describe)?.flip());
            if best == Wdl::Win {
                break;
            }
            below += s.binomial.get(usize::from(at[j]), j + 1);
        }
        Ok(best)
    }

    /// The tigers move: the best of their steps and captures, each to the goats with as many goats placed.
    fn tigers(&self, slice: &Slice, b: &Board) -> Result<Wdl, LayeredError> {
        let s = self.solver;
        let describe = || format!("tigers to move, tigers {:#x}, goats {:#x}", b.tigers, b.goats);
        let mut best = None;
        for m in &s.moves[b.class] {
            let capture = m.over != NONE;
            if b.empty & (1 << m.to) == 0 || (capture && b.goats & (1 << m.over) == 0) {
                continue;
            }
            let captured = slice.captured + u8::from(capture);
            if captured >= s.tigers_win_at {
                return Ok(Wdl::Win);
            }
            let mut empty = b.empty & !(1 << m.to) | 1 << m.from;
            if capture {
                empty |= 1 << m.over;
            }
            let number = match m.symmetry {
                Some(g) => {
                    let image = s.classes.symmetries()[usize::from(g)].apply(empty);
                    let rank = s.rank.rank(compress(image, s.classes.set(m.class)));
                    m.class as u64 * s.classes.arrangements(empty.count_ones()) + rank
                }
                None => s.classes.number(m.tigers, empty),
            };
            let value = self.child(captured, number, describe)?.flip();
            best = Some(best.map_or(value, |b| better(b, value)));
            if best == Some(Wdl::Win) {
                break;
            }
        }
        Ok(best.unwrap_or(Wdl::Loss)) // no move: the tigers are trapped
    }
}

/// A board of the layer being valued.
struct Board {
    class: usize,
    tigers: Points,
    empty: Points,
    /// The empty points, closed up over the tigers.
    empty_c: Points,
    goats: Points,
    symmetric: bool,
}

/// The better of two values for the side that chooses.
#[inline]
fn better(a: Wdl, b: Wdl) -> Wdl {
    if b.code() < a.code() { b } else { a }
}

/// The next set of as many points, in the order of their ranks (Gosper's rule); `set` is not empty.
#[inline]
fn next_set(set: Points) -> Points {
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    ripple | (((set ^ ripple) >> 2) / low)
}

/// The combinatorial number system's rank a byte at a time: `table[k][byte][below]`, the part of the rank of
/// the points in byte `k` when `below` points lie under it.
struct ChunkRank {
    table: Vec<u64>,
    width: usize,
}

impl ChunkRank {
    /// The tables for sets among `size` points.
    fn new(size: u32) -> ChunkRank {
        let binomial = Binomial::new(size as usize + 8);
        let (bytes, width) = (size.div_ceil(8) as usize, size as usize + 1);
        let mut table = vec![0; bytes * 256 * width];
        for k in 0..bytes {
            for byte in 0..256u64 {
                for below in 0..width {
                    table[(k * 256 + byte as usize) * width + below] = points(byte)
                        .enumerate()
                        .map(|(i, p)| binomial.get(8 * k + usize::from(p), below + i + 1))
                        .sum();
                }
            }
        }
        ChunkRank { table, width }
    }

    /// The rank of `set` among the sets of as many points (as [`Binomial::rank`]).
    #[inline]
    fn rank(&self, set: Points) -> u64 {
        let (mut rank, mut below, mut rest, mut k) = (0, 0, set, 0);
        while rest != 0 {
            let byte = (rest & 255) as usize;
            rank += self.table[(k * 256 + byte) * self.width + below];
            below += byte.count_ones() as usize;
            rest >>= 8;
            k += 1;
        }
        rank
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_follow_in_rank_order_and_rank_a_byte_at_a_time() {
        let binomial = Binomial::new(21);
        let rank = ChunkRank::new(21);
        for k in 1..=6u32 {
            let mut set: Points = (1 << k) - 1;
            for r in 0..binomial.get(21, k as usize) {
                assert_eq!((binomial.rank(set), rank.rank(set)), (r, r), "{set:#b}");
                set = next_set(set);
            }
        }
    }
}
