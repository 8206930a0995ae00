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
//! - everything else a symmetry moves: a tiger's move (one of its class's few, worked out once with the class
//!   it leads to and the symmetries that take it there) and a placement on a tiger set some symmetry keeps. A
//!   symmetry with the closing up of the points on either side is a map of bits, so each class's moves become
//!   byte maps (`Maps`, built when a thread enters the class): the child's empty set is a lookup a byte of
//!   the board's, the greatest of its images where several symmetries apply (the board with the least goats,
//!   as [`Classes::number`] chooses), ranked a byte at a time.
//!
//! Each position's value is the best of its children's codes, and with the goats to move the solver notes the
//! draws with a placement that loses ([`SliceCount::fragile`]). A layer needs the layer before it only (goats
//! placing lead to the tigers to move with one goat more; tigers to the goats with as many), and the last
//! placements lead out of the phase, to the sliding phase's table.

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
    /// Of the draws with the goats to move, those with a placement that loses — one goat mistake from a loss:
    /// up to symmetry and in full. None where the tigers are to move.
    pub fragile: [u64; 2],
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

/// A tiger's move on a class's set, and where its children are numbered.
#[derive(Clone, Debug)]
struct TigerMove {
    /// Where the tiger goes, among the points the class's set leaves, closed up ([`compress`]): the move needs
    /// it empty.
    to_c: Points,
    /// The goat it jumps over, so closed up, or 0 for a step: a capture needs a goat there.
    over_c: Points,
    /// The class of the tigers after the move.
    class: usize,
    /// For each symmetry that moves the tigers after the move to their class's set, where it takes the empty
    /// points: the child's number is that of the greatest image (the board with the least goats).
    images: Vec<Image>,
}

/// Where a symmetry takes the empty points of a class's boards, closed up over the set of the class it leads
/// to: a child's empty set is `emptied` and the images of the board's empty points.
#[derive(Clone, Debug)]
struct Image {
    /// The images of the points a move empties (a tiger's `from`, and `over` for a capture); 0 for a goat.
    emptied: Points,
    /// The image of each point the class's set leaves, by its place among them; 0 for the point the move
    /// fills.
    points: Vec<Points>,
}

/// A class's moves: its tigers' moves, and for a class whose set some symmetry keeps, those symmetries' images
/// (the goats' placements there are numbered by the greatest image).
#[derive(Clone, Debug)]
struct ClassMoves {
    tigers: Vec<TigerMove>,
    keepers: Vec<Image>,
}

/// The layered solver of a placement phase (see the module documentation).
pub struct Solver<'a> {
    space: &'a PlacementPhase,
    classes: &'a Classes,
    all: Points,
    tigers_win_at: u8,
    layers: Vec<Layer>,
    /// Each class's moves.
    moves: Vec<ClassMoves>,
    rank: ChunkRank,
    binomial: Binomial,
    /// The bytes of a set of the points a class set leaves.
    bytes: usize,
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
        // Where symmetry `g` takes the empty points of the boards of set `from` to those of set `to`, but `fills`.
        let image = |g: u8, from: Points, to: Points, fills: u8, emptied: Points| {
            let g = &classes.symmetries()[usize::from(g)];
            let at = |p: u8| compress(g.apply(1 << p), to);
            let images = points(all & !from).map(|p| if p == fills { 0 } else { at(p) }).collect();
            Image { emptied: points(emptied).map(at).fold(0, |a, b| a | b), points: images }
        };
        let moves = (0..classes.len())
            .map(|class| {
                let set = classes.set(class);
                let mut tigers = Vec::new();
                for from in points(set) {
                    let jumps = board.jumps(from).iter().map(|&(_, over, to)| (over, to));
                    let steps = points(board.adjacent(from)).map(|to| (NONE, to));
                    for (over, to) in steps.chain(jumps) {
                        if set & (1 << to) != 0 || (over != NONE && set & (1 << over) != 0) {
                            continue;
                        }
                        let (child, movers) = classes.least(set & !(1 << from) | 1 << to);
                        let emptied = if over == NONE { 1 << from } else { 1 << from | 1 << over };
                        let images =
                            points(u64::from(movers)).map(|g| image(g, set, classes.set(child), to, emptied)).collect();
                        let close = |p: u8| if p == NONE { 0 } else { compress(1 << p, set) };
                        tigers.push(TigerMove { to_c: close(to), over_c: close(over), class: child, images });
                    }
                }
                let keepers = match classes.is_symmetric(class) {
                    true => points(u64::from(classes.keepers(class))).map(|g| image(g, set, set, NONE, 0)).collect(),
                    false => Vec::new(),
                };
                ClassMoves { tigers, keepers }
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
            bytes: free.div_ceil(8) as usize,
        }
    }

    /// Makes `maps` the byte maps of class `class`'s moves: its tiger moves' images where the tigers are to
    /// move, then its keepers'.
    fn maps(&self, class: usize, tigers_to_move: bool, maps: &mut Maps) {
        maps.class = class;
        maps.tables.clear();
        let moves = &self.moves[class];
        let tigers = moves.tigers.iter().filter(|_| tigers_to_move).flat_map(|m| &m.images);
        for image in tigers.chain(&moves.keepers) {
            for k in 0..self.bytes {
                let mut table = [0; 256];
                for byte in 1..256 {
                    let point = 8 * k + (byte as u32).trailing_zeros() as usize;
                    table[byte] = table[byte & (byte - 1)] | image.points.get(point).copied().unwrap_or(0);
                }
                maps.tables.push(table);
            }
        }
        maps.keepers = maps.tables.len() - moves.keepers.len() * self.bytes;
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
                    for k in 0..2 {
                        x.fragile[k] += y.fragile[k];
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
        let mut maps = Maps { class: usize::MAX, tables: Vec::new(), keepers: 0 };
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
                    let board = Board { class, tigers, empty_c, goats, symmetric };
                    if maps.class != class {
                        s.maps(class, !slice.goats_to_move, &mut maps);
                    }
                    let best = if slice.goats_to_move {
                        self.goats(slice, &board, &maps)
                    } else {
                        self.tigers(slice, &board, &maps)
                    };
                    let value = best.value(|| board.describe(slice))?;
                    put(bytes, i - range.start, value.code());
                    let images =
                        if symmetric { s.classes.images(tigers, goats) } else { s.classes.symmetries().len() as u64 };
                    let count = &mut counts[k];
                    count.canonical[value.slot()] += 1;
                    count.full[value.slot()] += images;
                    if slice.goats_to_move && best.fragile() {
                        count.fragile[0] += 1;
                        count.fragile[1] += images;
                    }
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

    /// The code of a child ([`Wdl::code`], for its side to move): in the previous layer's table, or out of the
    /// phase; 0 where neither holds it.
    #[inline]
    fn code(&self, captured: u8, number: u64) -> u8 {
        if self.last {
            return (self.outside)(captured, number).map_or(0, Wdl::code);
        }
        match (self.bases[usize::from(captured)], self.previous) {
            (Some(base), Some(previous)) => previous.code(base + number),
            _ => 0,
        }
    }

    /// The goats place a goat: the best of their placements, each to the tigers with the same board and one
    /// empty point fewer.
    fn goats(&self, slice: &Slice, b: &Board, maps: &Maps) -> Best {
        let s = self.solver;
        let mut best = Best::new();
        let after = slice.empties - 1;
        if after == 0 {
            best.see(Wdl::Loss.code(), 0); // the board is full: the tigers cannot move
            return best;
        }
        let class_first = b.class as u64 * s.classes.arrangements(after);
        if b.symmetric {
            // The child's number is that of the greatest image of its empty set by the class's keepers.
            let keepers = &maps.tables[maps.keepers..];
            let mut whole = [0; 8];
            for (image, tables) in whole.iter_mut().zip(keepers.chunks(s.bytes)) {
                *image = Maps::image(tables, b.empty_c);
            }
            for x in points(b.empty_c) {
                let (k, bit) = (usize::from(x / 8), 1 << (x % 8));
                let image = keepers.chunks(s.bytes).zip(&whole).map(|(t, w)| w ^ t[k][bit]).max().expect("a keeper");
                let number = class_first + s.rank.rank(image);
                if best.see(self.code(slice.captured, number), number) {
                    break;
                }
            }
            return best;
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
            if best.see(self.code(slice.captured, number), number) {
                break;
            }
            below += s.binomial.get(usize::from(at[j]), j + 1);
        }
        best
    }

    /// The tigers move: the best of their steps and captures, each to the goats with as many goats placed,
    /// numbered by the class's [`Maps`].
    fn tigers(&self, slice: &Slice, b: &Board, maps: &Maps) -> Best {
        let s = self.solver;
        let arrangements = [slice.empties, slice.empties + 1].map(|empties| s.classes.arrangements(empties));
        let mut best = Best::new();
        let mut next = 0;
        for m in &s.moves[b.class].tigers {
            let tables = &maps.tables[next..next + m.images.len() * s.bytes];
            next += tables.len();
            if b.empty_c & m.to_c == 0 || b.empty_c & m.over_c != 0 {
                continue; // the point is taken, or no goat lies in the way
            }
            let capture = m.over_c != 0;
            let captured = slice.captured + u8::from(capture);
            if captured >= s.tigers_win_at {
                best.see(Wdl::Loss.code(), 0);
                break;
            }
            let image = tables.chunks(s.bytes).zip(&m.images).map(|(t, i)| Maps::image(t, b.empty_c) | i.emptied).max();
            let number = m.class as u64 * arrangements[usize::from(capture)] + s.rank.rank(image.unwrap_or(0));
            if best.see(self.code(captured, number), number) {
                break;
            }
        }
        best
    }
}

/// The children's codes seen so far by a position's side to move, and from them its value.
#[derive(Clone, Copy)]
struct Best {
    /// The greatest code seen: 3, a child lost for its side to move, is a win.
    most: u8,
    /// The least code seen: 1, a child won for its side to move, a move that loses.
    least: u8,
    /// A child neither table values, by its number.
    missing: Option<u64>,
}

impl Best {
    /// Nothing seen yet: a loss, as for a side with no move.
    fn new() -> Best {
        Best { most: Wdl::Win.code(), least: Wdl::Loss.code(), missing: None }
    }

    /// Sees a child's code (0 for a child no table values) with its number; whether the value is decided, a
    /// win or a missing child.
    #[inline]
    fn see(&mut self, code: u8, number: u64) -> bool {
        if code == 0 {
            self.missing = Some(number);
            return true;
        }
        self.most = self.most.max(code);
        self.least = self.least.min(code);
        self.most == Wdl::Loss.code()
    }

    /// The value for the side to move, or the child no table values.
    fn value(&self, position: impl Fn() -> String) -> Result<Wdl, LayeredError> {
        match self.missing {
            Some(number) => {
                Err(LayeredError::Outside { position: position(), child: format!("board number {number}") })
            }
            None => Ok(Wdl::from_code(4 - self.most).expect("a code of 1 to 3")),
        }
    }

    /// A draw with a move that loses: one mistake from a loss.
    fn fragile(&self) -> bool {
        self.missing.is_none() && self.most == Wdl::Draw.code() && self.least == Wdl::Win.code()
    }
}

/// A class's moves as byte maps: for each of its [`Image`]s — its tiger moves', then its keepers' — and each
/// byte of a board's closed-up empty set, where that byte's points go. An image is then a lookup a byte.
struct Maps {
    /// The class they are for.
    class: usize,
    /// [`Solver::bytes`] tables an image.
    tables: Vec<[Points; 256]>,
    /// Where the keepers' tables start.
    keepers: usize,
}

impl Maps {
    /// The image of the closed-up empty set `empty` by the `bytes` tables `tables`.
    #[inline]
    fn image(tables: &[[Points; 256]], empty: Points) -> Points {
        tables.iter().enumerate().fold(0, |image, (k, table)| image | table[(empty >> (8 * k)) as usize & 255])
    }
}

/// A board of the layer being valued.
struct Board {
    class: usize,
    tigers: Points,
    /// The empty points, closed up over the tigers.
    empty_c: Points,
    goats: Points,
    symmetric: bool,
}

impl Board {
    /// The board in words, for an error.
    fn describe(&self, slice: &Slice) -> String {
        let side = if slice.goats_to_move { "goats" } else { "tigers" };
        format!("{side} to move, tigers {:#x}, goats {:#x}", self.tigers, self.goats)
    }
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
