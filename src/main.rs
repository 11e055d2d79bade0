//! Entry point: parse, run, exit with 0 (found/applied), 1 (nothing/rejected) or 2 (error).

use clap::Parser;
use std::process::ExitCode;

// mimalloc for Rust allocations and, below, tree-sitter's (parsing allocates heavily; ~7% less
// CPU on full `llm ast` scans). Searches allocate a few small strings per match on several threads; mimalloc does that
// markedly faster than glibc malloc (measured with bench/search.sh). The process stays off
// transparent huge pages (mimalloc v3's `no_thp` feature did that; v2, see Cargo.toml, leaves it
// to `main`): with them, peak RSS of a jsonl run went 38 → 87 MB and zeroing 2 MiB pages showed
// up in profiles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
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
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: a plain prctl on this process; failure (an old kernel) changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
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
