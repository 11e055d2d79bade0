//! How `llm patch --rename` ties another file's bare occurrences of a free symbol to it: through
//! an import from the definition's module (`from b import g`, `import { g } from "./b"`, `use
//! crate::b::g`), or as the language lets a file see another's names without one (a Go package's
//! directory, a Ruby or C global); a file with its own top-level `g` keeps it.

use crate::lang::references::Reference;
use crate::lang::{symbols, Language};
use std::path::Path;
use tree_sitter::{Node, Tree};

/// The names another file reaches the module of `def_file` by: its stem (`b` for `b.py`), the
/// directory for a file that stands for it (`b/__init__.py`, `b/mod.rs`, `b/index.js`), and
/// `crate` for a Rust crate root.
pub(super) fn module_names(language: &Language, def_file: &str) -> Vec<String> {
    let path = Path::new(def_file);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let dir = (path.parent())
        .and_then(Path::file_name)
        .map(|d| d.to_string_lossy().into_owned());
    let mut out = Vec::new();
    match stem.as_deref() {
        Some("lib" | "main") if language.name == "rust" => out.push("crate".to_string()),
        Some("mod" | "__init__" | "index") => out.extend(dir),
        Some(s) => out.push(s.to_string()),
        None => {}
    }
    out
}

/// The text of the import that holds `range`: a Python `import`/`from … import`, a JavaScript
/// `import` or top-level `const { g } = require(…)`, a Rust `use`, a Go `import`.
pub(super) fn import_text(
    tree: &Tree,
    bytes: &[u8],
    range: std::ops::Range<usize>,
) -> Option<String> {
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end);
    while let Some(n) = node {
        let import = match n.kind() {
            "import_statement"
            | "import_from_statement"
            | "future_import_statement"
            | "use_declaration"
            | "import_declaration" => true,
            "variable_declarator" => n.child_by_field_name("value").is_some_and(|v| {
                v.kind() == "call_expression"
                    && v.child_by_field_name("function")
                        .is_some_and(|f| &bytes[f.byte_range()] == b"require")
            }),
            _ => false,
        };
        if import {
            return Some(String::from_utf8_lossy(&bytes[n.byte_range()]).into_owned());
        }
        node = n.parent();
    }
    None
}

/// Whether an import's text names one of `modules` as a word (`from b import g`, `"./b.js"`).
pub(super) fn names_module(text: &str, modules: &[String]) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .any(|w| modules.iter().any(|m| m == w))
}

/// What a file other than the definition's does with a free symbol's name.
pub(super) struct Foreign {
    /// The class of its imports of the name: `certain` from the definition's module (or
    /// through `crate::`/`super::`/`self::`), `possible` from another (it may re-export it),
    /// `excluded` from a CommonJS `require` of another module's path (its own name).
    pub imports: &'static str,
    /// The class of its bare occurrences: `excluded` when the file defines the name itself at
    /// top level; the imports' class when it imports it; else as the language lets a file see
    /// another's names: Python, Rust and JavaScript modules only by an import (a glob or star
    /// import makes them `possible`), Go in the same package directory (`certain`), the
    /// others (Ruby, C, C++, PHP, Bash, JavaScript scripts) `possible`, but a C or C++ file
    /// that `#include`s the definition's file `certain`.
    pub bare: &'static str,
}

/// The classes of [`Foreign`] for the file `display` (`bytes`, `tree`, its references `refs`
/// to `name` and its symbols `syms`), for a free symbol of kind `kind` defined in `def_file`.
#[allow(clippy::too_many_arguments)]
pub(super) fn foreign(
    language: &Language,
    tree: &Tree,
    bytes: &[u8],
    display: &str,
    refs: &[Reference],
    syms: &[symbols::Symbol],
    own_top_level_binding: bool,
    kind: symbols::SymbolKind,
    def_file: &str,
    modules: &[String],
) -> Foreign {
    use super::classes::{CERTAIN, EXCLUDED, POSSIBLE};
    let imports: Vec<(String, std::ops::Range<usize>)> = (refs.iter())
        .filter_map(|r| import_text(tree, bytes, r.span.range()).map(|t| (t, r.span.range())))
        .collect();
    let through_path = |r: &std::ops::Range<usize>| {
        let q = super::classes::qualifier(language.name, bytes, r.start);
        matches!(q, Some(("::", Some(q))) if matches!(q.as_str(), "crate" | "super" | "self"))
    };
    let linked = (imports.iter()).any(|(t, r)| names_module(t, modules) || through_path(r));
    // A `require` of another module by its path only imports that module's own name.
    let elsewhere = !imports.is_empty() && imports.iter().all(|(t, _)| requires_other(t, modules));
    let import_class = match () {
        _ if linked => CERTAIN,
        _ if elsewhere => EXCLUDED,
        _ => POSSIBLE,
    };
    let own = own_top_level_binding
        || refs.iter().any(|r| {
            r.is_definition
                && !imports.iter().any(|(_, i)| *i == r.span.range())
                && (syms.iter()).any(|s| {
                    // Not a Rust `impl P` (a use of `P`) nor a member defined outside its
                    // type (C++ `Shape::Shape() {}`, a Go method).
                    s.name_span.range() == r.span.range()
                        && s.depth == 0
                        && s.kind != symbols::SymbolKind::Impl
                        && s.parent.is_none()
                })
        });
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    let bare = if own {
        EXCLUDED
    } else if !imports.is_empty() {
        import_class
    } else {
        match language.name {
            "python" if has(b"import *") => POSSIBLE,
            "python" => EXCLUDED,
            "rust" if kind == symbols::SymbolKind::Macro || has(b"::*") => POSSIBLE,
            "rust" => EXCLUDED,
            "javascript" | "typescript" | "tsx" if es_module(bytes) => EXCLUDED,
            "go" if Path::new(display).parent() == Path::new(def_file).parent() => CERTAIN,
            "go" => EXCLUDED,
            "c" | "cpp" if includes(bytes, def_file) => CERTAIN,
            _ => POSSIBLE,
        }
    };
    Foreign {
        imports: import_class,
        bare,
    }
}

/// C and C++: whether the file `#include`s the definition's file by its name (`#include
/// "shape.hpp"`, `"geo/shape.hpp"`): the names declared there are the file's.
fn includes(bytes: &[u8], def_file: &str) -> bool {
    let Some(name) = Path::new(def_file).file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    bytes.split(|&b| b == b'\n').any(|line| {
        let Some(rest) = line.trim_ascii_start().strip_prefix(b"#") else {
            return false;
        };
        let Some(rest) = rest.trim_ascii_start().strip_prefix(b"include") else {
            return false;
        };
        let path = rest.trim_ascii().trim_ascii_start();
        let path = path
            .strip_prefix(b"\"")
            .and_then(|p| p.split(|&b| b == b'"').next());
        path.is_some_and(|p| p == name.as_bytes() || p.ends_with(format!("/{name}").as_bytes()))
    })
}

/// Whether a JavaScript or TypeScript file is a module (a line starts with `import` or
/// `export`): its names come from imports, not from scripts loaded beside it.
fn es_module(bytes: &[u8]) -> bool {
    bytes.split(|&b| b == b'\n').any(|line| {
        let t = line.trim_ascii_start();
        ["import ", "import{", "export "]
            .iter()
            .any(|k| t.starts_with(k.as_bytes()))
    })
}

/// Whether an import's text is a CommonJS `require` of a module by a literal path that is not
/// the definition's (`require("./util2")`): that module exports its own name, not a re-export of
/// the definition (CommonJS re-exports write the definition's module: `require("./util").g`).
fn requires_other(text: &str, modules: &[String]) -> bool {
    text.find("require(").is_some_and(|i| {
        let arg = text[i + "require(".len()..].trim_start();
        arg.starts_with(['"', '\'', '`']) && !names_module(arg, modules)
    })
}

/// Whether an import's text is a CommonJS `require` of the definition's module.
pub(super) fn requires(text: &str, modules: &[String]) -> bool {
    text.contains("require(") && names_module(text, modules)
}

/// JavaScript: the class of `q.name` where the file binds `q` to a `require` of a module by a
/// literal path (`const u = require("./util")`): `certain` for the definition's module,
/// `excluded` for another. `None`: `q` is not bound so.
pub(super) fn required_as(bytes: &[u8], q: &str, modules: &[String]) -> Option<&'static str> {
    let text = std::str::from_utf8(bytes).ok()?;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(q).find_map(|(at, _)| {
        if text[..at].chars().next_back().is_some_and(word) {
            return None;
        }
        let rest = text[at + q.len()..].trim_start();
        let rest = rest.strip_prefix('=')?.trim_start();
        if !rest.starts_with("require(") {
            return None;
        }
        let call = &rest[..rest.find(')').unwrap_or(rest.len())];
        if names_module(call, modules) {
            Some(super::classes::CERTAIN)
        } else {
            requires_other(call, modules).then_some(super::classes::EXCLUDED)
        }
    })
}

/// Go: whether the file imports a package it names `q` (`import "ex/q"`, `import q "ex/util"`):
/// `q.Name` reaches a package's function only so; through any other `q` it is a field or a
/// method of a value. Read from the text: the tree a rename parses may leave the imports out.
pub(super) fn go_package(bytes: &[u8], q: &str) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return true;
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let by_path = [format!("\"{q}\""), format!("/{q}\"")];
    by_path.iter().any(|p| text.contains(p.as_str()))
        || text.match_indices(q).any(|(at, _)| {
            let before = text[..at].trim_end_matches([' ', '\t']);
            let after = &text[at + q.len()..];
            !text[..at].chars().next_back().is_some_and(word)
                && (before.ends_with('\n') || before.ends_with("import") || before.ends_with('('))
                && after.starts_with([' ', '\t'])
                && after.trim_start_matches([' ', '\t']).starts_with('"')
        })
}

/// Whether `word` is the whole text of a string in a module-level `__all__ = [...]` (or `+=`,
/// a tuple): the name of one of the module's exports.
pub(super) fn in_dunder_all(
    tree: &tree_sitter::Tree,
    bytes: &[u8],
    word: &std::ops::Range<usize>,
) -> bool {
    let quoted = |b: Option<&u8>| matches!(b, Some(b'"' | b'\''));
    if !quoted(word.start.checked_sub(1).and_then(|i| bytes.get(i))) || !quoted(bytes.get(word.end))
    {
        return false;
    }
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(word.start, word.end);
    while let Some(node) = n {
        match node.kind() {
            "assignment" | "augmented_assignment" => {
                return node
                    .child_by_field_name("left")
                    .is_some_and(|l| &bytes[l.byte_range()] == b"__all__")
                    && node
                        .parent()
                        .is_some_and(|p| p.kind() == "expression_statement")
                    && node
                        .parent()
                        .and_then(|p| p.parent())
                        .is_some_and(|m| m.kind() == "module");
            }
            "string" | "string_content" | "list" | "tuple" | "expression_list" => n = node.parent(),
            _ => return false,
        }
    }
    false
}

/// Python: whether the name at `range` in an import binds that name in the file: `import
/// time`, `import time.sub` (its first segment), `from m import time`, `… as time`. A module
/// named (`from time import sleep`), a name imported under another (`import time as _time`)
/// or a later segment of a dotted name binds nothing of that name.
pub(super) fn python_import_binds(tree: &Tree, range: std::ops::Range<usize>) -> bool {
    let Some(node) = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)
    else {
        return true;
    };
    let Some(parent) = node.parent() else {
        return true;
    };
    let is = |n: Node, field: &str| {
        n.parent()
            .and_then(|p| p.child_by_field_name(field))
            .is_some_and(|c| c.id() == n.id())
    };
    match parent.kind() {
        "aliased_import" => is(node, "alias"),
        "dotted_name" => {
            let first = parent.named_child(0).is_some_and(|c| c.id() == node.id());
            let holder = parent.parent();
            match holder.map(|h| h.kind()) {
                // `import a.b as c`: the alias binds.
                Some("aliased_import") => false,
                Some("import_from_statement") => {
                    !is(parent, "module_name") && parent.named_child_count() == 1
                }
                _ => first,
            }
        }
        _ => true,
    }
}
