//! The one integration-test binary: every test runs the real `llm` binary.

mod apply;
mod ast;
mod find;
mod generate;
mod patch;
mod regions;
mod rename;
mod search;
mod show;
mod transform;
mod transform_safety;
mod util;
mod write;
