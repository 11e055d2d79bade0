//! The one integration-test binary: every test runs the real `llm` binary.

mod apply;
mod ast;
mod faults;
mod find;
mod generate;
mod hostile;
mod journal;
mod journal_kill;
mod patch;
mod races;
mod regions;
mod reindent;
mod rename;
mod search;
mod search_flags;
mod search_names;
mod search_pcre2;
mod search_walk;
mod show;
mod transform;
mod transform_safety;
mod util;
mod write;
