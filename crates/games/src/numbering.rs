//! Numbering boards of two kinds of pieces up to the board's symmetries, for the endgame spaces of the games of
//! the alquerque family (`bagh_chal::sliding`, `sixteen_soldiers::endgame`).
//!
//! A board is split three ways: a `first` set of a fixed size, a `second` set of a fixed size among the points
//! the first leaves, and the rest. [`Classes`] numbers such boards by two things, in that order of significance:
//! the class of the first set up to the symmetries (the smallest set of the class, as a bit mask, stands for
//! it; classes in the order of that set), and the second set's rank among the points the first set leaves, in
//! the combinatorial number system ([`Binomial::rank`]). A board is first moved by the symmetry that makes its
//! first set smallest and, of the symmetries that do, the rest smallest; where several symmetries keep a class's
//! set, some numbers stand for a board that another symmetry makes smaller, and so for no board.

use crate::alquerque::{Permutation, Points, points};

/// The binomial coefficients `C(m, k)` for `m, k ≤ n`, and the combinatorial number system they make.
#[derive(Clone, Debug)]
pub struct Binomial {
    /// `C(m, k)` at `m * width + k`: one flat table, one lookup a coefficient.
    table: Vec<u64>,
    width: usize,
}

impl Binomial {
    /// The coefficients up to `C(n, n)`.
    pub fn new(n: usize) -> Binomial {
        let width = n + 1;
        let coefficient =
            |m: usize, k: usize| if k > m { 0 } else { (0..k as u64).fold(1, |c, i| c * (m as u64 - i) / (i + 1)) };
        let table = (0..width * width).map(|at| coefficient(at / width, at % width)).collect();
        Binomial { table, width }
    }

    /// `C(m, k)`.
    #[inline]
    pub fn get(&self, m: usize, k: usize) -> u64 {
        self.table[m * self.width + k]
    }

    /// The rank of a set among the sets of as many points, in the combinatorial number system: the sum of
    /// `C(p, i)` over its points `p`, the `i`-th from 1.
    ///
    /// ```
    /// use khela_games::numbering::Binomial;
    /// let binomial = Binomial::new(25);
    /// assert_eq!(binomial.rank(0b111), 0);
    /// assert_eq!(binomial.unrank(binomial.rank(0b1010_0100), 3), 0b1010_0100);
    /// ```
    #[inline]
    pub fn rank(&self, set: Points) -> u64 {
        points(set).enumerate().map(|(i, p)| self.get(p as usize, i + 1)).sum()
    }

    /// The set of `k` points of rank `r` (the inverse of [`Binomial::rank`]).
    #[inline]
    pub fn unrank(&self, mut r: u64, k: u32) -> Points {
        let mut set = 0;
        for i in (1..=k as usize).rev() {
            let mut p = i - 1;
            while p + 1 < self.width && self.get(p + 1, i) <= r {
                p += 1;
            }
            r -= self.get(p, i);
            set |= 1 << p;
        }
        set
    }
}

/// `set` with the points of `gaps` taken out and the points above each gap moved down to close it.
#[inline]
pub fn compress(set: Points, gaps: Points) -> Points {
    let (mut set, mut gaps) = (set, gaps);
    while gaps != 0 {
        // The highest gap first, so that closing it moves no gap still to close.
        let p = Points::BITS - 1 - gaps.leading_zeros();
        set = set & ((1 << p) - 1) | (set >> (p + 1)) << p;
        gaps &= !(1 << p);
    }
    set
}

/// The inverse of [`compress`]: a gap opened at each point of `gaps`, lowest first.
#[inline]
pub fn expand(set: Points, gaps: Points) -> Points {
    points(gaps).fold(set, |set, p| set & ((1 << p) - 1) | (set >> p) << (p + 1))
}

/// Boards split into a first set of `size` points, a second set among the rest and the rest, numbered up to
/// symmetries (see the module documentation).
#[derive(Clone, Debug)]
pub struct Classes {
    all: Points,
    size: u32,
    symmetries: Vec<Permutation>,
    /// Each class of first sets, by its smallest set.
    sets: Vec<Points>,
    /// The symmetries that keep each class's set in place, as a bit mask over `symmetries`.
    keepers: Vec<u8>,
    /// Each first set's class and, as a bit mask over `symmetries`, the symmetries that move it to its class's
    /// smallest set: by the set's rank.
    least: Vec<(u32, u8)>,
    binomial: Binomial,
}

impl Classes {
    /// The first sets of `size` of the points `all` (the board's, from point 0 up, no gaps) in classes under
    /// `symmetries` (a group: the identity among them, closed under composition; at most 8).
    pub fn new(all: Points, size: u32, symmetries: &[Permutation]) -> Classes {
        assert!(symmetries.len() <= 8, "the keepers of a class are a byte");
        let n = all.count_ones() as usize;
        let binomial = Binomial::new(n);
        let total = binomial.get(n, size as usize);
        let (mut sets, mut keepers, mut class_of) = (Vec::new(), Vec::new(), vec![u32::MAX; total as usize]);
        let mask = |set: Points, image: Points| {
            symmetries.iter().enumerate().filter(|(_, g)| g.apply(set) == image).fold(0, |m, (k, _)| m | 1 << k)
        };
        for rank in 0..total {
            let set = binomial.unrank(rank, size);
            if symmetries.iter().all(|g| g.apply(set) >= set) {
                class_of[rank as usize] = sets.len() as u32;
                sets.push(set);
                keepers.push(mask(set, set));
            }
        }
        let least = (0..total)
            .map(|rank| {
                let set = binomial.unrank(rank, size);
                let smallest = symmetries.iter().map(|g| g.apply(set)).min().expect("the identity");
                (class_of[binomial.rank(smallest) as usize], mask(set, smallest))
            })
            .collect();
        Classes { all, size, symmetries: symmetries.to_vec(), sets, keepers, least, binomial }
    }

    /// The number of classes of first sets.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether there is no first set (more points than the board has).
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The first sets' size.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The numbers of the boards with a second set of `second` points: classes × arrangements of the second set.
    pub fn numbers(&self, second: u32) -> u64 {
        self.len() as u64 * self.arrangements(second)
    }

    /// The smallest first set of class `class` (below [`Classes::len`]): the set its numbers stand for.
    pub fn set(&self, class: usize) -> Points {
        self.sets[class]
    }

    /// Whether a symmetry other than the identity keeps the set of class `class` in place: then some of its
    /// numbers stand for no board, and its boards are moved to their numbers by more than one symmetry.
    pub fn is_symmetric(&self, class: usize) -> bool {
        self.keepers(class).count_ones() > 1
    }

    /// The symmetries that keep the set of class `class` in place (the identity among them), as a bit mask over
    /// [`Classes::symmetries`].
    pub fn keepers(&self, class: usize) -> u8 {
        self.keepers[class]
    }

    /// The symmetries, in the order [`Classes::new`] was given them.
    pub fn symmetries(&self) -> &[Permutation] {
        &self.symmetries
    }

    /// The class of a first set of the classes' size, and the symmetries (a bit mask over
    /// [`Classes::symmetries`]) that move it to its class's smallest set.
    #[inline]
    pub fn least(&self, first: Points) -> (usize, u8) {
        let (class, movers) = self.least[self.binomial.rank(first) as usize];
        (class as usize, movers)
    }

    /// Whether the board of class `class`'s set with `rest` on the points neither set takes is the one its number
    /// stands for: no symmetry that keeps the set moves `rest` to a smaller set.
    #[inline]
    pub fn stands_for(&self, class: usize, rest: Points) -> bool {
        points(u64::from(self.keepers[class])).all(|k| self.symmetries[k as usize].apply(rest) >= rest)
    }

    /// The arrangements of a second set of `second` points among the points a first set leaves.
    pub fn arrangements(&self, second: u32) -> u64 {
        let free = (self.all.count_ones() - self.size) as usize;
        if second as usize > free { 0 } else { self.binomial.get(free, second as usize) }
    }

    /// The number of the board with these `first` and `second` sets (disjoint; `first` of the classes' size),
    /// the same for every board equivalent to it, below [`Classes::numbers`] of the second set's size.
    ///
    /// The board is moved by the symmetry that makes `first` its class's smallest set and, of those that do
    /// (usually one, looked up by the first set's rank), the rest of the board smallest.
    #[inline]
    pub fn number(&self, first: Points, second: Points) -> u64 {
        debug_assert!(first & second == 0 && first.count_ones() == self.size);
        let (class, movers) = self.least[self.binomial.rank(first) as usize];
        let rest = self.all & !first & !second;
        let rest = points(u64::from(movers)).map(|k| self.symmetries[k as usize].apply(rest)).min().expect("a mover");
        let first = self.sets[class as usize];
        let second = self.all & !first & !rest;
        u64::from(class) * self.arrangements(second.count_ones()) + self.binomial.rank(compress(second, first))
    }

    /// The board numbered `number` with a second set of `second` points, as (first set, second set): the
    /// representative of its class of boards; `None` where the number stands for none (another symmetry makes
    /// it smaller) or lies beyond [`Classes::numbers`].
    pub fn board(&self, number: u64, second: u32) -> Option<(Points, Points)> {
        let arrangements = self.arrangements(second);
        if arrangements == 0 {
            return None;
        }
        let class = usize::try_from(number / arrangements).ok()?;
        let first = *self.sets.get(class)?;
        let second = expand(self.binomial.unrank(number % arrangements, second), first);
        self.stands_for(class, self.all & !first & !second).then_some((first, second))
    }

    /// How many distinct images the board (`first`, `second`) has under the symmetries.
    pub fn images(&self, first: Points, second: Points) -> u64 {
        let keep = self.symmetries.iter().filter(|g| g.apply(first) == first && g.apply(second) == second).count();
        (self.symmetries.len() / keep) as u64
    }

    /// The classes whose set some symmetry other than the identity keeps, by number, with the range of their
    /// numbers with a second set of `second` points: the only ones with numbers that stand for no board.
    pub fn symmetric(&self, second: u32) -> impl Iterator<Item = std::ops::Range<u64>> + '_ {
        let arrangements = self.arrangements(second);
        let first = move |class: usize| class as u64 * arrangements;
        (0..self.len()).filter(|&c| self.keepers[c] != 1).map(move |c| first(c)..first(c) + arrangements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alquerque::Board;

    #[test]
    fn numbers_and_sets_convert_both_ways() {
        let binomial = Binomial::new(25);
        for k in 0..=5 {
            for r in (0..binomial.get(25, k)).step_by(97) {
                let set = binomial.unrank(r, k as u32);
                assert_eq!((set.count_ones(), binomial.rank(set)), (k as u32, r));
            }
        }
        let gaps = 0b1000_0000_0100_0000_0010_0001;
        let set = 0b0101_0110_1011_1010_1101_1110;
        assert_eq!(expand(compress(set, gaps), gaps), set & !gaps);
    }

    /// On a 3 × 3 grid, every board of 2 first points and 3 second points: its number is its class's, and
    /// the numbers of the classes' boards are all different and the only ones that stand for a board.
    #[test]
    fn every_board_of_a_class_has_its_number() {
        let board = Board::grid(3);
        // A group of four: the identity, the two mirrors and the half turn.
        type Isometry = fn(u8, u8) -> (u8, u8);
        let turns: [Isometry; 4] = [|f, r| (f, r), |f, r| (2 - f, r), |f, r| (f, 2 - r), |f, r| (2 - f, 2 - r)];
        let symmetries: Vec<Permutation> =
            turns.iter().map(|map| Permutation::new(&board.symmetry(map).unwrap())).collect();
        let classes = Classes::new(board.all(), 2, &symmetries);
        let binomial = Binomial::new(9);
        let mut boards = std::collections::BTreeMap::new();
        for a in 0..binomial.get(9, 2) {
            let first = binomial.unrank(a, 2);
            for b in 0..binomial.get(7, 3) {
                let second = expand(binomial.unrank(b, 3), first);
                let number = classes.number(first, second);
                let image = symmetries.iter().map(|g| (g.apply(first), g.apply(second))).min().unwrap();
                assert!(classes.images(first, second) >= 1);
                assert_eq!(*boards.entry(image).or_insert(number), number, "{first:b} {second:b}");
            }
        }
        let numbered: Vec<u64> = (0..classes.numbers(3)).filter(|&i| classes.board(i, 3).is_some()).collect();
        let mut numbers: Vec<u64> = boards.values().copied().collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers, numbered);
        for i in numbered {
            let (first, second) = classes.board(i, 3).unwrap();
            assert_eq!(classes.number(first, second), i);
        }
        let symmetric: u64 = classes.symmetric(3).map(|r| r.end - r.start).sum();
        assert!(symmetric > 0 && symmetric < classes.numbers(3));
    }
}
