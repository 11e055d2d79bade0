//! The language registry: one file per language, one [`ALL`] list. Everything that parses code
//! (ast, find, patch, the mutation core's syntax check, write) goes through here.

use std::ops::Range;
use std::path::Path;
use tree_sitter::{Node, Parser, Tree};

mod python;
mod rust;

/// A language `llm` understands structurally.
pub struct Language {
    /// Canonical lowercase name (`rust`, `python`), used in JSON output and `--lang`.
    pub name: &'static str,
    /// Other names accepted by `--lang` (`rs`, `py`…).
    pub aliases: &'static [&'static str],
    /// File extensions without the dot.
    pub extensions: &'static [&'static str],
    /// The tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
}

/// Every registered language. Adding a language = one file in `src/lang/` + one line here.
pub static ALL: &[&Language] = &[&rust::RUST, &python::PYTHON];

impl Language {
    /// A fresh parser for this language.
    pub fn parser(&self) -> Parser {
        let mut parser = Parser::new();
        parser
            .set_language(&(self.grammar)())
            .expect("grammar ABI is compatible with the tree-sitter crate");
        parser
    }

    /// Parses `source`. Tree-sitter always produces a tree (with ERROR/MISSING nodes where the
    /// text does not parse).
    pub fn parse(&self, source: &[u8]) -> Tree {
        self.parser()
            .parse(source, None)
            .expect("parser has a language and no timeout")
    }
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The language registered for a file extension.
pub fn for_path(path: &Path) -> Option<&'static Language> {
    let ext = path.extension()?.to_str()?;
    ALL.iter().copied().find(|l| l.extensions.contains(&ext))
}

/// The language called `name` or one of its aliases (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static Language> {
    let name = name.to_ascii_lowercase();
    ALL.iter()
        .copied()
        .find(|l| l.name == name || l.aliases.contains(&name.as_str()))
}

/// A syntax problem found in a tree: an `ERROR` node or a `MISSING` node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte range of the node (a MISSING node is empty: the place the token was expected).
    pub range: Range<usize>,
    /// `true` for MISSING, `false` for ERROR.
    pub missing: bool,
    /// For MISSING nodes, the kind of the expected token (`;`, `)`, `identifier`…).
    pub expected: Option<String>,
}

/// Every ERROR and MISSING node of a tree, outermost first, in source order.
/// Subtrees of an ERROR node are not searched again (one error per broken region).
pub fn syntax_errors(tree: &Tree) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    if !tree.root_node().has_error() {
        return out;
    }
    collect_errors(tree.root_node(), &mut out);
    out
}

fn collect_errors(node: Node, out: &mut Vec<SyntaxError>) {
    if node.is_error() {
        out.push(SyntaxError {
            range: node.byte_range(),
            missing: false,
            expected: None,
        });
        return;
    }
    if node.is_missing() {
        out.push(SyntaxError {
            range: node.byte_range(),
            missing: true,
            expected: Some(node.kind().to_string()),
        });
        return;
    }
    if !node.has_error() {
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect_errors(child, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_aliases_and_extensions_are_unique() {
        let mut names = HashSet::new();
        let mut exts = HashSet::new();
        for l in ALL {
            assert!(names.insert(l.name), "duplicate name {}", l.name);
            for a in l.aliases {
                assert!(names.insert(a), "duplicate alias {a}");
            }
            for e in l.extensions {
                assert!(exts.insert(e), "duplicate extension {e}");
            }
        }
    }

    #[test]
    fn lookup() {
        assert_eq!(by_name("RS").unwrap().name, "rust");
        assert_eq!(for_path(Path::new("a/b.py")).unwrap().name, "python");
        assert!(for_path(Path::new("Makefile")).is_none());
    }

    #[test]
    fn syntax_errors_found() {
        let rust = by_name("rust").unwrap();
        assert!(syntax_errors(&rust.parse(b"fn main() {}\n")).is_empty());
        let errs = syntax_errors(&rust.parse(b"fn main() { let x = ; }\n"));
        assert!(!errs.is_empty());
        let py = by_name("python").unwrap();
        assert!(!syntax_errors(&py.parse(b"def f(:\n  pass\n")).is_empty());
    }
}
