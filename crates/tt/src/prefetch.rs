//! Asking the processor for memory before it is read: a table probed at random waits on memory at each probe,
//! and several probes asked for together wait once.

/// Asks the processor to bring `item`'s cache line into its caches, without waiting for it (on x86 processors;
/// elsewhere nothing).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse"))]
    safe_arch::prefetch_t0(item);
    #[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse")))]
    let _ = item;
}
