//! Words for a large table in memory mapped for it alone, which the operating system is asked to back with huge
//! pages (Linux's transparent huge pages, `madvise` mode, as most distributions ship it): a table probed at
//! random misses the processor's address cache (TLB) on most probes with 4 KiB pages — 8,192 of them for
//! 32 MiB — and on almost none with 2 MiB ones (measured on Connect-4's solver: see docs/src/measured-choices.md,
//! 'Transposition tables').

use memmap2::MmapMut;
use self_cell::{MutBorrow, self_cell};
use std::sync::atomic::AtomicU64;
use zerocopy::FromBytes;

/// The words, borrowed from their mapping.
type Words<'a> = &'a [AtomicU64];

self_cell!(
    /// A mapping and its words.
    struct Mapped {
        owner: MutBorrow<MmapMut>,

        #[covariant]
        dependent: Words,
    }
);

/// Zeroed words of their own mapping, threads sharing them through `&HugeWords` (atomics).
pub(crate) struct HugeWords(Mapped);

impl HugeWords {
    /// `len` words, all zero (an anonymous mapping is).
    ///
    /// # Panics
    ///
    /// If the system cannot map that much memory, as an allocation that fails aborts.
    pub(crate) fn zeroed(len: usize) -> HugeWords {
        let bytes = len.max(1).checked_mul(8).expect("a table's size in bytes fits in a usize");
        let map = MmapMut::map_anon(bytes).unwrap_or_else(|error| panic!("mapping {bytes} bytes for a table: {error}"));
        // Advice, which a kernel without transparent huge pages ignores or refuses: either way the table works.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        HugeWords(Mapped::new(MutBorrow::new(map), |map| {
            let words =
                <[AtomicU64]>::mut_from_bytes(map.borrow_mut()).expect("a mapping is page-aligned, whole words");
            &words[..len]
        }))
    }
}

impl std::ops::Deref for HugeWords {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        self.0.borrow_dependent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn words_start_at_zero_and_keep_what_is_stored() {
        let words = HugeWords::zeroed(1 << 20);
        assert_eq!(words.len(), 1 << 20);
        assert!(words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        words[12345].store(u64::MAX, Ordering::Relaxed);
        assert_eq!(words[12345].load(Ordering::Relaxed), u64::MAX);
        assert_eq!(HugeWords::zeroed(0).len(), 0);
    }
}
