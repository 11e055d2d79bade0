//! C and C++ for `llm patch --rename`'s taken-name check (`taken.rs`): the names a renamed
//! file's headers declare at file scope. A header included with quotes (`#include "util.h"`)
//! is read as a compiler reads it (beside the including file, else under the root), and its
//! own quoted includes in turn; a new name one of them declares would clash with the renamed
//! one (`static int other(…)` after the header's `int other(int);`, or a call of `LIMIT(…)`
//! after `#define LIMIT 10`): refused (`PATCH_E009`). System headers (`<stdio.h>`) are not read.

use super::scopes::words;
use super::taken::{file_scope_declaration, refusal, Renamed};
use crate::error::Error;
use crate::lang::{symbols, Language};
use crate::span::LineIndex;
use crate::walk::display_path;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use symbols::SymbolKind;
use tree_sitter::{Node, Tree};

/// How many includes deep a renamed file's headers are followed.
const DEPTH: usize = 16;

/// The headers read for one rename: each once, whichever renamed file includes it (a cycle of
/// includes ends where it comes back).
pub(super) struct Headers<'a> {
    root: &'a Path,
    seen: HashSet<PathBuf>,
}

/// A header to read: where, and the headers through which the renamed file includes it.
struct Pending {
    path: PathBuf,
    through: Vec<String>,
}

impl<'a> Headers<'a> {
    /// Headers resolved beside their includer first, then under `root`.
    pub fn new(root: &'a Path) -> Self {
        Headers {
            root,
            seen: HashSet::new(),
        }
    }

    /// Checks that `new` is declared at file scope of no header the C or C++ file `path`
    /// (`bytes`, parsed whole as `tree`) includes with quotes, directly or through another
    /// header. `read` gives a header's bytes; one that cannot be read is skipped.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &mut self,
        language: &Language,
        path: &Path,
        bytes: &[u8],
        tree: &Tree,
        new: &str,
        renamed: &Renamed,
        read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
    ) -> Result<(), Error> {
        if !matches!(language.name, "c" | "cpp") {
            return Ok(());
        }
        let includer = display_path(path);
        let mut pending: Vec<Pending> = self.resolve(path, bytes, tree, &[]);
        let mut depth = 0;
        while !pending.is_empty() && depth < DEPTH {
            depth += 1;
            let mut next = Vec::new();
            for h in pending {
                let Ok(key) = std::fs::canonicalize(&h.path) else {
                    continue;
                };
                if !self.seen.insert(key) {
                    continue;
                }
                let Some(src) = read(&h.path) else {
                    continue;
                };
                let hits = words(&src, new);
                if hits.is_empty() && memchr::memmem::find(&src, b"include").is_none() {
                    continue;
                }
                // Read as the including file's language, as its compiler reads it.
                let tree = language.parse(&src);
                let display = display_path(&h.path);
                if !hits.is_empty() {
                    if let Some(what) = declared(language, &src, &tree, &display, new, renamed) {
                        let via = match h.through.is_empty() {
                            true => String::new(),
                            false => format!(" through {}", h.through.join(", ")),
                        };
                        let what = format!("{what} (a header {includer} includes{via})");
                        return Err(refusal(new, &what, &display));
                    }
                }
                let mut through = h.through.clone();
                through.push(display);
                next.extend(self.resolve(&h.path, &src, &tree, &through));
            }
            pending = next;
        }
        Ok(())
    }

    /// The headers `path` (`bytes`, parsed as `tree`) includes with quotes that exist.
    fn resolve(&self, path: &Path, bytes: &[u8], tree: &Tree, through: &[String]) -> Vec<Pending> {
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut out = Vec::new();
        quoted_includes(tree.root_node(), bytes, &mut |name| {
            let found = [dir.join(name), self.root.join(name)]
                .into_iter()
                .find(|p| p.is_file());
            if let Some(path) = found {
                out.push(Pending {
                    path,
                    through: through.to_vec(),
                });
            }
        });
        out
    }
}

/// Calls `each` with the file name of every `#include "…"` at file scope under `node` (in
/// `#if` branches and `extern "C" {…}` too; not in a function's body).
fn quoted_includes(node: Node, bytes: &[u8], each: &mut dyn FnMut(&str)) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "preproc_include" => {
                let Some(p) = child.child_by_field_name("path") else {
                    continue;
                };
                if p.kind() != "string_literal" {
                    continue;
                }
                // The quotes off; a file name has no escapes.
                let text = &bytes[p.start_byte()..p.end_byte()];
                let name = text.strip_prefix(b"\"").and_then(|t| t.strip_suffix(b"\""));
                if let Some(name) = name.and_then(|n| std::str::from_utf8(n).ok()) {
                    each(name);
                }
            }
            k if k.starts_with("preproc_")
                || k == "linkage_specification"
                || k == "declaration_list" =>
            {
                quoted_includes(child, bytes, each)
            }
            _ => {}
        }
    }
}

/// Which of C's name spaces a kind's names are in, as the header check compares them.
#[derive(PartialEq)]
enum Space {
    /// A macro replaces every later identifier of its name, of whatever kind.
    Macro,
    /// Struct, union and enum tags (and C++ classes).
    Tag,
    /// Functions, variables, typedefs, enum constants, C++ namespaces.
    Ordinary,
    /// A member's name is its type's: only a macro reaches it.
    Member,
}

fn space(kind: SymbolKind) -> Space {
    match kind {
        SymbolKind::Macro => Space::Macro,
        SymbolKind::Struct | SymbolKind::Union | SymbolKind::Enum | SymbolKind::Class => Space::Tag,
        SymbolKind::Field | SymbolKind::Method | SymbolKind::Constructor => Space::Member,
        _ => Space::Ordinary,
    }
}

/// The renamed symbol's name space: a member's, but a C enum constant's name is the file's.
fn renamed_space(language: &Language, renamed: &Renamed) -> Space {
    match (renamed.owner, renamed.kind) {
        (None, kind) => space(kind),
        (Some(_), SymbolKind::Variant) if language.name == "c" => Space::Ordinary,
        (Some(_), _) => Space::Member,
    }
}

/// What `new` is at file scope of the header `display` (`bytes`, parsed as `tree`) that the
/// renamed symbol would clash with (`declared at util.h:4`); `None`: nothing.
fn declared(
    language: &Language,
    bytes: &[u8],
    tree: &Tree,
    display: &str,
    new: &str,
    renamed: &Renamed,
) -> Option<String> {
    let want = renamed_space(language, renamed);
    let clash = |theirs: Space| {
        theirs == Space::Macro
            || (want != Space::Member && (want == Space::Macro || theirs == want))
    };
    let syms = symbols::symbols(language, bytes, tree, display);
    // An enum constant is named at file scope (in C, even of an enum in a struct); in C++ not
    // in a class's enum, nor in an `enum class`.
    let enum_constant = |s: &symbols::Symbol| {
        let at_top = |p: &symbols::Symbol| {
            p.depth == 0
                && (language.name == "c" || matches!(p.kind, SymbolKind::Enum | SymbolKind::Type))
        };
        s.kind == SymbolKind::Variant
            && s.parent_index.is_none_or(|p| at_top(&syms[p]))
            && !(language.name == "cpp" && scoped_enum(tree, s.name_span.byte_start))
    };
    let named = syms.iter().find(|s| {
        s.name == new
            && (s.depth == 0 || s.kind == SymbolKind::Macro || enum_constant(s))
            && clash(space(s.kind))
    });
    if let Some(s) = named {
        let what = match s.kind {
            SymbolKind::Macro => "defined as a macro",
            SymbolKind::Variant => "declared as an enum constant",
            _ => "defined",
        };
        return Some(format!("{what} at {display}:{}", s.name_span.start_line));
    }
    // A prototype or an `extern` variable declares the name without defining it (no symbol).
    let w = (words(bytes, new).into_iter()).find(|w| file_scope_declaration(tree, w))?;
    clash(Space::Ordinary).then(|| {
        let line = LineIndex::new(bytes).span(display, w.clone()).start_line;
        format!("declared at {display}:{line}")
    })
}

/// Whether the enum constant named at `at` is of a C++ `enum class` (or `enum struct`), whose
/// constants are named through it.
fn scoped_enum(tree: &Tree, at: usize) -> bool {
    let mut node = tree.root_node().descendant_for_byte_range(at, at);
    while let Some(n) = node {
        if n.kind() == "enum_specifier" {
            let mut cursor = n.walk();
            let scoped = n
                .children(&mut cursor)
                .any(|c| matches!(c.kind(), "class" | "struct"));
            return scoped;
        }
        node = n.parent();
    }
    false
}
