//! Rust: grammar, extensions and aliases.

use super::Language;

/// The Rust language entry.
pub static RUST: Language = Language {
    name: "rust",
    aliases: &["rs"],
    extensions: &["rs"],
    grammar: || tree_sitter_rust::LANGUAGE.into(),
};
