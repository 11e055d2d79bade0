//! Python: grammar, extensions and aliases.

use super::Language;

/// The Python language entry.
pub static PYTHON: Language = Language {
    name: "python",
    aliases: &["py", "python3"],
    extensions: &["py", "pyi"],
    grammar: || tree_sitter_python::LANGUAGE.into(),
};
