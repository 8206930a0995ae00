//! Random number generators shared by the games and the searches.
//!
//! [`Rng`] names the generator a random tree or a Monte Carlo search draws from, by the names the command line
//! and the CSV files use (`pcg`, `python`).
//!
//! [`PyRandom`] reproduces Python's `random.Random(seed)` bit for bit, for the draws khela needs (`getrandbits`,
//! `randbelow`, `randint`, `random`), so that tables computed by a Python reference come out identical. Every
//! CPython-compatible draw in khela is made here.
//!
//! [`splitmix64`] is the one 64-bit mixing function of khela's hashes (Nim's heaps, the implicit trees' nodes,
//! the alquerque games' keys, the seeds of a match's games).

use rand_mt::Mt;
use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};

/// Which random generator draws: for a random tree ([`crate::random_tree`]), the leaves; for a Monte Carlo
/// search (`khela-mcts`), every random choice.
///
/// - `pcg`, the default: for random trees, PCG-32 with jump-ahead, so that leaf `i` is computed on demand from
///   output words `2i` and `2i + 1` and a tree takes no memory (the sweep's implicit trees hash every value from
///   the seed and the node with PCG's output function instead); for searches, the 128-bit multiplicative PCG
///   (`Pcg64Mcg`), fast and small.
/// - `python`: bit-compatible with CPython's `random.Random(seed)`, so that a Python reference making the same
///   calls gets the same numbers. For trees, `randint(lo, hi)` once per leaf, left to right (the leaves are drawn
///   up front and held in memory); for searches, `_randbelow(n)` for every index draw and `random()` for every
///   float, through [`PyRandom`].
///
/// Each name comes from the variant (`strum`, lowercase): [`std::fmt::Display`] writes it,
/// [`std::str::FromStr`] reads it back, [`strum::VariantArray::VARIANTS`] lists the variants, and
/// [`strum::EnumMessage::get_documentation`] gives each variant's one-line doc, for a command line's help.
///
/// # Examples
///
/// ```
/// use khela_games::rng::Rng;
/// use strum::{EnumMessage, VariantArray};
///
/// assert_eq!(Rng::Python.to_string(), "python");
/// assert_eq!("pcg".parse::<Rng>(), Ok(Rng::Pcg));
/// assert_eq!(<&str>::from(Rng::Pcg), "pcg");
/// assert_eq!(Rng::VARIANTS, [Rng::Pcg, Rng::Python]);
/// assert!(Rng::Python.get_documentation().unwrap().starts_with("CPython's"));
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage,
)]
#[strum(serialize_all = "lowercase")]
pub enum Rng {
    /// PCG: values on demand for trees (a PCG-32 stream or a PCG-style hash), Pcg64Mcg for searches.
    #[default]
    Pcg,
    /// CPython's random.Random(seed): randint(lo, hi) per leaf for trees, randbelow(n) and random() for searches.
    Python,
}

/// Python's `random.Random(seed)`: MT19937 seeded by `init_by_array` with the seed's 32-bit words, least
/// significant first (`[0]` for seed 0), as CPython does for integer seeds.
///
/// ```
/// use khela_games::rng::PyRandom;
/// // python3 -c "import random; r = random.Random(42); print([r.randint(0, 99) for _ in range(5)])"
/// let mut rng = PyRandom::new(42);
/// let draws: Vec<i64> = (0..5).map(|_| rng.randint(0, 99)).collect();
/// assert_eq!(draws, [81, 14, 3, 94, 35]);
/// ```
#[derive(Clone, Debug)]
pub struct PyRandom {
    mt: Mt,
}

impl PyRandom {
    /// Seeds the generator as `random.Random(seed)` does.
    pub fn new(seed: u64) -> PyRandom {
        let (low, high) = (seed as u32, (seed >> 32) as u32);
        let mt = if high == 0 { Mt::new_with_key([low]) } else { Mt::new_with_key([low, high]) };
        PyRandom { mt }
    }

    /// Python's `getrandbits(k)` for `k` ≤ 64: whole 32-bit words least significant first, the last one cut to
    /// its top bits.
    ///
    /// # Panics
    ///
    /// Panics if `k` > 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits({k}) is limited to 64 bits here");
        let mut result = 0u64;
        let mut filled = 0;
        while filled < k {
            let mut word = u64::from(self.mt.next_u32());
            let want = (k - filled).min(32);
            if want < 32 {
                word >>= 32 - want;
            }
            result |= word << filled;
            filled += want;
        }
        result
    }

    /// Python's `_randbelow(n)`: rejection sampling with `getrandbits(n.bit_length())`.
    ///
    /// # Panics
    ///
    /// Panics if `n` is 0 (Python raises).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow(0)");
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// Python's `randint(lo, hi)`: a uniform integer in `lo..=hi`.
    ///
    /// # Panics
    ///
    /// Panics if `lo > hi` (Python raises), or if the range spans all 2⁶⁴ values (which would need a 65-bit
    /// draw; khela's trees refuse such ranges first).
    pub fn randint(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "randint({lo}, {hi})");
        let span = (hi as i128 - lo as i128 + 1) as u64;
        (lo as i128 + self.randbelow(span) as i128) as i64
    }

    /// Python's `random()`: a uniform float in `[0, 1)` with 53 random bits, the top 27 bits of one 32-bit word
    /// and the top 26 of the next making `(a · 2²⁶ + b) / 2⁵³`.
    ///
    /// ```
    /// use khela_games::rng::PyRandom;
    /// // python3 -c "import random; r = random.Random(1); print([r.random() for _ in range(3)])"
    /// let mut rng = PyRandom::new(1);
    /// let draws: Vec<f64> = (0..3).map(|_| rng.random()).collect();
    /// assert_eq!(draws, [0.13436424411240122, 0.8474337369372327, 0.763774618976614]);
    /// ```
    pub fn random(&mut self) -> f64 {
        let high = self.mt.next_u32() >> 5;
        let low = self.mt.next_u32() >> 6;
        (f64::from(high) * 67_108_864.0 + f64::from(low)) / 9_007_199_254_740_992.0
    }
}

/// SplitMix64's output function (Steele, Lea and Flood): a bijection of 64-bit words that spreads every input
/// bit over every output bit. Structured numbers (a board in base 3, a node number, a seed and an index) come out
/// as well-spread words, and distinct inputs stay distinct.
///
/// ```
/// use khela_games::rng::splitmix64;
/// assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
/// ```
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::{EnumMessage, VariantArray};

    #[test]
    fn rng_names_round_trip() {
        let names: Vec<&str> = Rng::VARIANTS.iter().map(|&rng| rng.into()).collect();
        assert_eq!(names, ["pcg", "python"]);
        for &rng in Rng::VARIANTS {
            let name: &'static str = rng.into();
            assert_eq!(rng.to_string(), name);
            assert_eq!(name.parse::<Rng>(), Ok(rng));
            let help = rng.get_documentation().unwrap_or_default();
            assert!(!help.is_empty() && !help.contains('\n'), "{rng}: {help:?}");
        }
        assert!("PCG".parse::<Rng>().is_err(), "names are lowercase");
        assert_eq!(Rng::default(), Rng::Pcg);
    }

    // Each expected list was printed by CPython 3.11, e.g.
    // python3 -c "import random; r=random.Random(1); print([r.randint(0, 99) for _ in range(8)])".
    fn check(seed: u64, lo: i64, hi: i64, expected: &[i64]) {
        let mut rng = PyRandom::new(seed);
        let got: Vec<i64> = expected.iter().map(|_| rng.randint(lo, hi)).collect();
        assert_eq!(got, expected, "seed {seed}, randint({lo}, {hi})");
    }

    #[test]
    fn matches_cpython() {
        check(0, 0, 99, &PY_SEED0);
        check(1, 0, 99, &PY_SEED1);
        check(42, 0, 99, &PY_SEED42);
        check(1 << 40, -5, 5, &PY_SEED_BIG);
        check(7, 0, (1 << 31) - 1, &PY_SEED7_WIDE);
        check(3, 0, 0, &[0, 0, 0]);
    }

    #[test]
    fn randbelow_matches_cpython() {
        let mut rng = PyRandom::new(5);
        let got: Vec<u64> = (1..=8).map(|n| rng.randbelow(n)).collect();
        assert_eq!(got, PY_RANDBELOW5);
    }

    #[test]
    fn random_matches_cpython() {
        // python3 -c "import random; r = random.Random(42); print([r.random() for _ in range(3)])"
        let mut rng = PyRandom::new(42);
        let got: Vec<f64> = (0..3).map(|_| rng.random()).collect();
        assert_eq!(got, [0.6394267984578837, 0.025010755222666936, 0.27502931836911926]);
        // python3 -c "import random; r = random.Random(1 << 40); print([r.random() for _ in range(2)])"
        let mut rng = PyRandom::new(1 << 40);
        assert_eq!([rng.random(), rng.random()], [0.1036394562812375, 0.6705558677439764]);
    }

    const PY_SEED0: [i64; 8] = [49, 97, 53, 5, 33, 65, 62, 51];
    const PY_SEED1: [i64; 8] = [17, 72, 97, 8, 32, 15, 63, 97];
    const PY_SEED42: [i64; 8] = [81, 14, 3, 94, 35, 31, 28, 17];
    const PY_SEED_BIG: [i64; 8] = [-4, 0, 5, -4, 1, -5, 1, 1];
    const PY_SEED7_WIDE: [i64; 3] = [1_390_851_128, 647_892_279, 1_695_753_998];
    const PY_RANDBELOW5: [u64; 8] = [0, 1, 2, 0, 3, 1, 5, 0];
}
