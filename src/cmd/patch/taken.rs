//! Whether `llm patch --rename`'s new name is already taken where the symbol is seen: a renamed
//! site inside a function or block that binds the new name would be captured by that binding,
//! a second definition of the name in the same scope would clash, and a bare use of the name
//! (a builtin, an import) would be captured by the renamed definition. Any of them refuses the
//! rename (`PATCH_E009`) before anything is written.

use super::scopes::{self, words, Binding};
use crate::error::{Code, Error};
use crate::lang::{symbols, Language};
use crate::span::LineIndex;
use symbols::SymbolKind;

/// A site of the rename in one file: where it starts, and whether the renamed name stands
/// bare there (unqualified, or an import), so that the file's own names can capture it.
pub(super) struct Site {
    pub at: usize,
    pub bare: bool,
}

/// The renamed symbol, as the check needs it.
pub(super) struct Renamed<'a> {
    pub owner: Option<&'a str>,
    /// The owner's qualified name (`bytes::RegexBuilder`): a type of the owner's name in
    /// another module or function (`string::RegexBuilder`) is another type.
    pub owner_qualified: Option<&'a str>,
    pub kind: SymbolKind,
    pub def_file: &'a str,
    /// A Ruby singleton method (`def self.g`, a `def` in `class << self`): an instance method
    /// of the name is another.
    pub singleton: bool,
    /// For a definition local to a function (a nested `def`, a Rust item in a block), in its
    /// own file: where the renamed binding is seen. Only a use of the new name there is
    /// captured; a top-level definition of it is shadowed, not clashed with.
    pub local: Option<std::ops::Range<usize>>,
}

/// Whether two symbols of kinds `a` and `b` share a name space: in Python, JavaScript, Ruby,
/// Go, C and Bash every name does; elsewhere a type and a function, or a field and a method,
/// may share a name (Rust's `User::name` field and method).
fn clash(language: &Language, a: SymbolKind, b: SymbolKind) -> bool {
    let callable = |k| matches!(k, SymbolKind::Function | SymbolKind::Method);
    // C's struct, union and enum tags are a name space of their own: `struct stat` beside
    // `int stat(…)` (a typedef is an ordinary name).
    let tag = |k| matches!(k, SymbolKind::Struct | SymbolKind::Union | SymbolKind::Enum);
    // A C or C++ macro replaces every later identifier of its name, whatever that names.
    let c_family = matches!(language.name, "c" | "cpp");
    if c_family && (a == SymbolKind::Macro || b == SymbolKind::Macro) {
        return true;
    }
    if language.name == "c" && tag(a) != tag(b) {
        return false;
    }
    matches!(
        language.name,
        "python" | "javascript" | "typescript" | "tsx" | "ruby" | "go" | "c" | "bash"
    ) || a == b
        || (callable(a) && callable(b))
}

/// Parent kinds whose identifier child names a definition, not a use of the name.
const DEFINING: [&str; 11] = [
    "function_definition",
    "class_definition",
    "method",
    "singleton_method",
    "function_item",
    "function_signature_item",
    "function_declaration",
    "method_declaration",
    "generator_function_declaration",
    "enum_variant",
    "mod_item",
];

/// Checks that `new` is free in the file `display` (`bytes`) for the renamed `sites` there.
pub(super) fn check(
    language: &Language,
    bytes: &[u8],
    display: &str,
    new: &str,
    renamed: &Renamed,
    sites: &[Site],
) -> Result<(), Error> {
    let hits = words(bytes, new);
    if hits.is_empty() || sites.is_empty() {
        return Ok(());
    }
    let tree = language.parse(bytes);
    let index = LineIndex::new(bytes);
    let line = |at: usize| index.span(display, at..at).start_line;
    let taken = |what: String| refusal(new, &what, display);
    let binds: Vec<Binding> = scopes::bindings(language, &tree, bytes, new);
    let local = |at: usize| binds.iter().find(|b| !b.top_level && b.holds(at));
    // Only a bare site can be captured: `self.path` is no local `path2`'s.
    let bare = sites.iter().filter(|s| s.bare);
    if let Some((s, b)) = bare.clone().find_map(|s| local(s.at).map(|b| (s, b))) {
        return Err(taken(format!(
            "bound at {display}:{} where the site at line {} lies",
            line(b.at.start),
            line(s.at)
        )));
    }
    let syms = symbols::symbols(language, bytes, &tree, display);
    // A key of another object literal (`queryFn: () => …` in each test's options) is no name
    // of the symbol's scope; one in the object of a renamed site is (a duplicate key).
    let other_object = |s: &symbols::Symbol| {
        object_of(&tree, s.name_span.range())
            .is_some_and(|o| !sites.iter().any(|site| o.contains(&site.at)))
    };
    let other_scope = |s: &symbols::Symbol| matches!((s.parent_qualified.as_deref(), renamed.owner_qualified), (Some(a), Some(b)) if a != b);
    if let Some(owner) = renamed.owner {
        if display != renamed.def_file {
            return Ok(());
        }
        if let Some(s) = syms.iter().find(|s| {
            s.name == new
                && s.parent.as_deref() == Some(owner)
                && !other_scope(s)
                && clash(language, s.kind, renamed.kind)
                && !other_object(s)
                && s.singleton == renamed.singleton
        }) {
            return Err(taken(format!(
                "a member of `{owner}` ({display}:{})",
                s.name_span.start_line
            )));
        }
        return Ok(());
    }
    if !sites.iter().any(|s| s.bare) {
        return Ok(());
    }
    // A local definition shadows the file's own of the new name where it is seen: a use of
    // that name there would be captured, a definition elsewhere is another name.
    if let Some(seen) = &renamed.local {
        return match hits.iter().find(|w| seen.contains(&w.start)) {
            Some(w) => Err(taken(format!(
                "used at {display}:{}, where the renamed local definition is seen",
                line(w.start)
            ))),
            None => Ok(()),
        };
    }
    // A definition bound in a function or block (`function Page()` in a test's callback)
    // holds no site (see above): it is not beside the symbol.
    let nested = |s: &symbols::Symbol| {
        (binds.iter()).any(|b| !b.top_level && b.at.start == s.name_span.byte_start)
    };
    // A Go method is its receiver type's, not a name of the package (`type Error` beside
    // `func (e *Error) Error()`).
    let go_method = |s: &symbols::Symbol| language.name == "go" && s.kind == SymbolKind::Method;
    if let Some(s) = (syms.iter()).find(|s| {
        s.name == new
            && s.depth == 0
            && !go_method(s)
            && clash(language, s.kind, renamed.kind)
            && !nested(s)
            && !other_object(s)
    }) {
        return Err(taken(format!(
            "defined at {display}:{}",
            s.name_span.start_line
        )));
    }
    if let Some(b) = binds.iter().find(|b| b.top_level) {
        return Err(taken(format!("bound at {display}:{}", line(b.at.start))));
    }
    // C and C++: a prototype or an `extern` variable at file scope declares the name without
    // defining it (no symbol): a function or variable renamed onto it conflicts with it, and
    // its calls would reach the renamed one.
    let ordinary = matches!(
        renamed.kind,
        SymbolKind::Function | SymbolKind::Static | SymbolKind::Const | SymbolKind::Constant
    );
    if matches!(language.name, "c" | "cpp") && ordinary {
        if let Some(w) = hits.iter().find(|w| file_scope_declaration(&tree, w)) {
            return Err(taken(format!("declared at {display}:{}", line(w.start))));
        }
    }
    if !scopes::supported(language) {
        return Ok(());
    }
    // A bare use of the name that no local binding explains: a builtin or an import, which
    // the renamed definition would capture.
    let used = hits.iter().find(|w| {
        let Some(node) = tree.root_node().descendant_for_byte_range(w.start, w.end) else {
            return false;
        };
        let next = bytes.get(w.end..).unwrap_or_default();
        node.byte_range() == **w
            && node.kind() == "identifier"
            && super::classes::qualifier(language.name, bytes, w.start).is_none()
            && !node.parent().is_some_and(|p| {
                DEFINING.contains(&p.kind())
                    || (p.kind() == "keyword_argument"
                        && p.child_by_field_name("name") == Some(node))
            })
            && !(language.name == "rust" && (next.starts_with(b"::") || next.starts_with(b"!")))
            // A module a Python import names (`import time as _time`) is no name of the file.
            && !(language.name == "python"
                && super::links::import_text(&tree, bytes, (*w).clone()).is_some()
                && !super::links::python_import_binds(&tree, (*w).clone()))
            && !binds.iter().any(|b| b.holds(w.start))
    });
    if let Some(w) = used {
        return Err(taken(format!(
            "used at {display}:{} (a builtin or a name from elsewhere)",
            line(w.start)
        )));
    }
    Ok(())
}

/// The refusal of renaming onto `new`, which is already `what` (`defined at a.c:3`) in `file`.
pub(super) fn refusal(new: &str, what: &str, file: &str) -> Error {
    Error::new(
        Code::PatchNameTaken,
        format!("`{new}` is already {what}; renaming onto it would change what the code calls"),
        format!("pick another name for --rename, or rename the other `{new}` first; nothing was renamed"),
    )
    .with_file(file)
}

/// Whether the identifier at `w` is what a C or C++ declaration at file scope declares
/// (`int stat(void);`, `extern int count;`), through its declarators, not a parameter's name.
pub(super) fn file_scope_declaration(tree: &tree_sitter::Tree, w: &std::ops::Range<usize>) -> bool {
    let Some(mut node) = tree.root_node().descendant_for_byte_range(w.start, w.end) else {
        return false;
    };
    if node.byte_range() != *w || node.kind() != "identifier" {
        return false;
    }
    while let Some(parent) = node.parent() {
        let declares = parent.child_by_field_name("declarator") == Some(node);
        match parent.kind() {
            k if k.ends_with("_declarator") && declares => node = parent,
            "declaration" if declares => {
                return parent.parent().is_some_and(|p| {
                    matches!(
                        p.kind(),
                        "translation_unit" | "linkage_specification" | "declaration_list"
                    ) || p.kind().starts_with("preproc_")
                })
            }
            _ => return false,
        }
    }
    false
}

/// The object literal whose key is the definition named at `name` (a JavaScript/TypeScript
/// `{ queryFn: () => … }` or `{ get() {} }`), as a range. `None`: not a key of one.
fn object_of(
    tree: &tree_sitter::Tree,
    name: std::ops::Range<usize>,
) -> Option<std::ops::Range<usize>> {
    let node = tree
        .root_node()
        .descendant_for_byte_range(name.start, name.end)?;
    let member = node.parent()?;
    let keyed = match member.kind() {
        "pair" => member.child_by_field_name("key") == Some(node),
        "method_definition" => member.child_by_field_name("name") == Some(node),
        _ => false,
    };
    let object = member.parent().filter(|o| keyed && o.kind() == "object")?;
    Some(object.byte_range())
}
