//! What the property tests share: their proptest configuration.

use proptest::test_runner::{Config as ProptestConfig, RngSeed};

/// A proptest configuration running `cases` cases from the fixed `seed` (unless `PROPTEST_RNG_SEED` names
/// another, to explore other cases), writing no regression files: every run checks the same cases.
pub fn config(cases: u32, seed: u64) -> ProptestConfig {
    let base = ProptestConfig::default();
    let rng_seed = match base.rng_seed {
        RngSeed::Random => RngSeed::Fixed(seed),
        chosen => chosen,
    };
    ProptestConfig { cases, rng_seed, failure_persistence: None, ..base }
}
