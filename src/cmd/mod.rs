//! The commands' logic: each takes plain options and returns data. Nothing here parses
//! arguments or prints.

pub mod apply;
pub mod ast;
pub mod find;
pub mod patch;
pub mod search;
pub mod show;
pub mod transform;
pub mod tree;
pub mod write;
