//! The one integration-test binary: every test runs the real `llm` binary.

mod ast;
mod find;
mod generate;
mod patch;
mod regions;
mod search;
mod search_flags;
mod transform;
mod transform_safety;
mod util;
mod write;
