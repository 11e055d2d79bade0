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

/// Maps in the pages of `spare` (memory about to be written whole, such as a big file's read
/// buffer) with one system call, rather than one page fault per 4 KiB page as it is first
/// written. Only a hint: a kernel without `MADV_POPULATE_WRITE` (before Linux 5.14) faults the
/// pages in as before.
pub fn prefault(spare: &mut [std::mem::MaybeUninit<u8>]) {
    let Some(pages) = whole_pages(spare.as_mut_ptr() as usize, spare.len()) else {
        return;
    };
    // SAFETY: the range lies inside `spare` (`whole_pages`), memory this process owns and is
    // about to write; populating it changes no byte of it.
    unsafe {
        let _ = rustix::mm::madvise(
            pages.start as *mut std::ffi::c_void,
            pages.len(),
            rustix::mm::Advice::LinuxPopulateWrite,
        );
    }
}

/// The whole 4 KiB pages inside `len` bytes from `start`; `None` when there are none.
fn whole_pages(start: usize, len: usize) -> Option<std::ops::Range<usize>> {
    const PAGE: usize = 4096;
    let first = start.checked_next_multiple_of(PAGE)?;
    let last = start.checked_add(len)? / PAGE * PAGE;
    (first < last).then_some(first..last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefault_stays_inside_and_keeps_the_bytes() {
        assert_eq!(whole_pages(4096, 8192), Some(4096..12288));
        assert_eq!(whole_pages(4097, 8192), Some(8192..12288));
        assert_eq!(whole_pages(4097, 4095), None);
        assert_eq!(whole_pages(1, 100), None);
        assert_eq!(whole_pages(usize::MAX - 10, 5), None);
        let mut v: Vec<u8> = Vec::with_capacity(3 << 20);
        v.extend_from_slice(b"kept");
        prefault(v.spare_capacity_mut());
        assert_eq!(v, b"kept");
        v.resize(3 << 20, 7);
        assert!(v[4..].iter().all(|&b| b == 7));
    }
}
