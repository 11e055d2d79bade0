//! When the allocator gives freed memory back to the system: mimalloc's purge delay, set per
//! phase of a run. `MIMALLOC_PURGE_DELAY` in the environment always wins (to measure other
//! settings).

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_e`; libmimalloc-sys names no constant
/// for it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Memory freed is given back to the system at once rather than after mimalloc's delay (10
/// ms): for a search, which frees a stream of file buffers and rendered results; with the
/// delay its peak RSS grew with the size of the tree (16 copies of the Rust corpus, `--format
/// jsonl -j16`, 16 cores: 171 → 117 MB). Not for `ast`/`find`, whose parse trees come and go
/// much faster (the system time of `find` doubled).
pub fn purge_at_once() {
    set_purge_delay(0);
}

/// The run's work is done: what its threads free from now on (their buffers and heaps, as
/// they end) stays with the process, which is about to exit. Each purge is an `madvise` that
/// interrupts every other core running one of the process's threads, to flush its TLB (a
/// virtual machine's cores exit to the host for it): 16 workers ending one by one made
/// hundreds of them: without them a search on a tree of ten files at `-j16` took a fifth less
/// CPU time and 30% less time.
pub fn keep_freed() {
    set_purge_delay(-1);
}

fn set_purge_delay(ms: std::ffi::c_long) {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets a plain option; mimalloc reads it when it next purges.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, ms) };
    }
}
