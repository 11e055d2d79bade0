//! The one integration-test binary: every test runs the real `llm` binary.

mod generate;
mod search;
mod util;
