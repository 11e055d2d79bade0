//! Entry point: parse, run, exit with 0 (found/applied), 1 (nothing/rejected) or 2 (error).

use clap::Parser;
use std::process::ExitCode;

// mimalloc for Rust allocations and, below, tree-sitter's (parsing allocates heavily; ~7% less
// CPU on full `llm ast` scans). Searches allocate a few small strings per match on several threads; mimalloc does that
// markedly faster than glibc malloc (measured with bench/search.sh). Its `no_thp` feature keeps
// it off transparent huge pages: with them, peak RSS of a jsonl run went 38 → 87 MB and
// zeroing 2 MiB pages showed up in profiles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Memory freed is given back to the system at once rather than after 10 ms: a search
    // frees a stream of file buffers and rendered results, and with the delay its peak RSS
    // grew with the size of the tree (16 copies of the Rust corpus, `--format jsonl -j12`:
    // 165 → 97 MB), at no measurable cost in time (bench/search.sh).
    // (`mi_option_purge_delay` in mimalloc.h's `mi_option_e`; libmimalloc-sys names no constant
    // for it.)
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // MIMALLOC_PURGE_DELAY in the environment still wins (to measure other settings).
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets a plain option before any other thread exists.
        unsafe {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        }
    }
    // Before any tree-sitter object exists, so everything it frees came from mimalloc.
    // SAFETY: called once, first thing, before any parser, tree or query is created.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: libmimalloc_sys::mi_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }));
    }
    // `args_os`: an argument that is not UTF-8 must never panic. Paths stay `OsString`s;
    // where a value must be text, clap answers a usage error (LLM_E001).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = match llm::cli::Cli::try_parse_from(&args) {
        Ok(cli) => llm::run(cli),
        Err(e) => {
            let lossy: Vec<String> = args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            llm::usage_error(e, &lossy)
        }
    };
    ExitCode::from(code)
}
