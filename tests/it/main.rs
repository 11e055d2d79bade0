//! The one integration-test binary: every test runs the real `llm` binary.

mod apply;
mod ast;
mod faults;
mod find;
mod find_es5;
mod find_macros;
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
mod search_context;
mod search_flags;
mod search_names;
mod search_pcre2;
mod show;
mod transform;
mod transform_safety;
mod util;
mod write;
mod write_lang;
