//! The commands' logic: each takes plain options and returns data. Nothing here parses
//! arguments or prints.

pub mod patch;
pub mod search;
