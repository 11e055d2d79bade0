//! `llm patch --rename` of a type (class, struct, enum, interface, trait, union, type alias):
//! its constructors and destructors go with it (Java, C#, C++ name them after the type), and so
//! do the definitions that are the same type (a Ruby class reopened or first assigned, a C#
//! partial class, TypeScript's merged declarations); Rust's `impl P`/`impl T for P` header is a
//! use of the type. A use as a type (`-> P`, `new Box(1)`, `Box.make()`, `IEquatable<Box>`,
//! `(Box) o`) is classed by what qualifies it.

use super::classes::{qualifier, CERTAIN, EXCLUDED, POSSIBLE};
use crate::error::{Code, Error};
use crate::lang::symbols::{Symbol, SymbolKind};

/// Whether a symbol of `kind` whose parent is of `parent` kind is renamed as a type. A Rust
/// associated type (in a trait or an impl) is a member, reached through a path (`CB::Output`).
pub(super) fn is_type(kind: SymbolKind, parent: Option<SymbolKind>) -> bool {
    use SymbolKind::*;
    match kind {
        Class | Struct | Enum | Interface | Trait | Union => true,
        Type => !matches!(parent, Some(Trait | Impl)),
        _ => false,
    }
}

/// What a definition of the renamed type's name in a file is to the rename.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Def {
    /// Another symbol's (another type, a method of the name): never renamed.
    Other,
    /// The renamed type itself, or what goes with it: its constructors and destructors (`Box(int
    /// v)`, `~Shape()`, `Shape::Shape()` outside the class), the same type declared again
    /// (`class Conflict` after `Conflict = Struct.new`, `partial class`, TypeScript's `interface
    /// X` beside `declare var X`, a C++ template's specialization, a C or C++ type defined
    /// again under another `#if` branch, Rust's `#[cfg]` twins).
    Same,
    /// A use of the type in a definition's name: Rust's `impl P` and `impl Clone for P`, a C++
    /// constructor defined outside its class in another file (`Shape::Shape() {}`). Classed as
    /// a use (in the type's file `certain`; elsewhere as a bare use there is).
    Use,
}

/// The type being renamed, as [`def`] needs it.
pub(super) struct Renamed<'a> {
    pub language: &'static str,
    pub name: &'a str,
    pub kind: SymbolKind,
    /// The qualified name of the type's parent (`RDoc` for `RDoc::RDoc`).
    pub parent_qualified: Option<&'a str>,
    /// Its definition's file and name's offset.
    pub def_file: &'a str,
    pub def_start: usize,
}

/// What the definition `m` (named the type's name; one of `syms`, the symbols of `file`) is to
/// the rename of `t`.
pub(super) fn def(t: &Renamed, file: &str, syms: &[Symbol], m: &Symbol) -> Def {
    let home = file == t.def_file;
    if home && m.name_span.byte_start == t.def_start {
        return Def::Same;
    }
    if m.kind == SymbolKind::Impl {
        return Def::Use;
    }
    let parent = m.parent_index.map(|p| &syms[p]);
    let is_target = |s: &Symbol| home && s.name_span.byte_start == t.def_start;
    // A constructor or destructor: named after its class (`~` before a destructor's name). A
    // Java method may have its class's name (`void MaskFill(…)`): not a constructor.
    let destructor = m.name.strip_prefix('~') == Some(t.name);
    let maker = m.parent.as_deref() == Some(t.name)
        && match t.language {
            "java" => m.kind == SymbolKind::Constructor,
            "csharp" => m.kind == SymbolKind::Constructor || destructor,
            "cpp" => matches!(
                m.kind,
                SymbolKind::Constructor | SymbolKind::Method | SymbolKind::Function
            ),
            _ => false,
        };
    if maker {
        return match parent {
            // In its class's body.
            Some(p) if is_type(p.kind, None) => match is_target(p) {
                true => Def::Same,
                false => Def::Other,
            },
            // Outside it (C++ `Shape::Shape() {}`): the class named before it.
            _ if home => Def::Same,
            _ => Def::Use,
        };
    }
    // The same type declared again, in the same scope.
    let same_scope = m.parent_qualified.as_deref() == t.parent_qualified;
    let again = match t.language {
        // `Conflict = Struct.new(…)` then `class Conflict … end`; a class or module reopened.
        "ruby" => {
            home && matches!(
                m.kind,
                SymbolKind::Class | SymbolKind::Module | SymbolKind::Constant
            )
        }
        // Declaration merging: `interface X` and `declare var X`, `namespace X`, `class X`.
        "typescript" | "tsx" => {
            home && matches!(
                m.kind,
                SymbolKind::Interface
                    | SymbolKind::Class
                    | SymbolKind::Constant
                    | SymbolKind::Module
                    | SymbolKind::Enum
            )
        }
        // `partial class X` in several files.
        "csharp" => m.kind == t.kind && m.signature.contains("partial "),
        // Rust's `#[cfg]` twins (a scope holds one item of a name otherwise).
        "rust" => home && m.kind == t.kind,
        // A template's specialization (`template <> struct X<0>`), a declaration again under
        // another `#if` branch.
        "c" | "cpp" => {
            let tag = |k| match k {
                SymbolKind::Class => SymbolKind::Struct,
                k => k,
            };
            home && tag(m.kind) == tag(t.kind)
        }
        _ => false,
    };
    if again && same_scope {
        Def::Same
    } else {
        Def::Other
    }
}

/// The class of a use of the type's name at `at` (not a definition), by what qualifies it.
/// `outer` is the name of the type's parent (a class, module or namespace; `outer_class`: a
/// class), `enclosing` the qualified name of the symbol around the use, `modules` the names
/// another file reaches the type's module by.
/// - bare: the type (`certain`): `Box b`, `new Box(1)`, `-> P`, `impl Clone for P`; but where
///   the parent has the type's own name (`class RDoc::RDoc`), a bare name before `::` is the
///   parent (`excluded`); a nested type's bare name outside its parent is `possible` (in
///   Python and JavaScript see [`class_body_use`]);
/// - `Outer::Box`, `Outer.Box` through its parent, `crate::`/`self::`/`super::`, its module
///   (`b.Box`, `b::Box`): `certain`; `self.Box` inside the parent too (Python's `self.Inner`);
/// - through another capitalised name (another type or module: `Spliterator.OfInt`), a value
///   (`x.P` in Rust, C, C++; `x->P`), `self`/`this` elsewhere: `excluded`;
/// - through anything else (`ns::Box`, `module.Box`, `java.util.Box`): `possible`.
pub(super) fn use_class(
    language: &str,
    bytes: &[u8],
    at: usize,
    outer: Option<&str>,
    outer_class: bool,
    enclosing: Option<&str>,
    modules: &[String],
) -> &'static str {
    let inside_outer = outer.is_some_and(|o| super::classes::inside(enclosing, o));
    // Python's and JavaScript's methods do not see their class's names (`class_body_use`).
    let unseen = outer_class && sees_no_class_names(language);
    let len = (bytes[at..].iter())
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80))
        .unwrap_or(bytes.len() - at);
    let old = std::str::from_utf8(&bytes[at..at + len]).unwrap_or_default();
    let next = &bytes[at + len..];
    match qualifier(language, bytes, at) {
        None if outer == Some(old) && next.starts_with(b"::") => EXCLUDED,
        None if outer.is_some() && (unseen || !inside_outer) => POSSIBLE,
        None => CERTAIN,
        Some((_, Some(q))) if Some(q.as_str()) == outer => CERTAIN,
        // `Shape::Shape()`, a constructor defined outside its class.
        Some(("::", Some(q))) if q == old => CERTAIN,
        Some(("::", Some(q))) if matches!(q.as_str(), "crate" | "self" | "super") => CERTAIN,
        Some((_, Some(q))) if modules.contains(&q) => CERTAIN,
        Some((_, Some(q))) if matches!(q.as_str(), "self" | "this" | "cls") => {
            match outer.is_some() && inside_outer {
                true => CERTAIN,
                false => EXCLUDED,
            }
        }
        Some((_, Some(q))) if super::classes::is_self(&q) || super::classes::capitalized(&q) => {
            EXCLUDED
        }
        Some(("->", _)) => EXCLUDED,
        Some((".", _)) if matches!(language, "rust" | "c" | "cpp") => EXCLUDED,
        Some(("::", _)) => POSSIBLE,
        Some((_, Some(_))) => POSSIBLE,
        Some(_) => EXCLUDED,
    }
}

/// Whether the name at `at` (`len` bytes) is called as a function: `(` after it, and no `new`
/// before it (`new Box(1)` makes a `Box`).
pub(super) fn called_bare(bytes: &[u8], at: usize, len: usize) -> bool {
    let after = bytes[at + len..].trim_ascii_start();
    let before = bytes[..at].trim_ascii_end();
    let new = before.ends_with(b"new")
        && !(before.len() > 3 && {
            let b = before[before.len() - 4];
            b.is_ascii_alphanumeric() || b == b'_'
        });
    after.starts_with(b"(") && !new
}

/// The symbol `--rename` renames for `syms[i]`: itself, or the type it is named by, defined in
/// the same file: a Rust `impl P`'s `P`, a constructor's class (Java/C# `Box(int v)`, C++
/// `Shape()`, `Shape::Shape() {}`). Renamed alone, the impl header left the type behind, and a
/// constructor became a method without a return type. A type defined elsewhere (`impl B for
/// u8`, a constructor defined outside its header) is refused (`PATCH_E010`): nothing to rename
/// here. (A destructor, `~Shape`, is no identifier: refused as one.)
pub(super) fn renamed_index(syms: &[Symbol], i: usize) -> Result<usize, Error> {
    let s = &syms[i];
    let type_name = s.name.as_str();
    let maker = s.parent.as_deref() == Some(type_name)
        && match s.language {
            "java" | "csharp" => s.kind == SymbolKind::Constructor,
            "cpp" => matches!(
                s.kind,
                SymbolKind::Constructor | SymbolKind::Method | SymbolKind::Function
            ),
            _ => false,
        };
    if s.kind != SymbolKind::Impl && !maker {
        return Ok(i);
    }
    // A constructor's class holds it; an impl's type, or an out-of-class constructor's, is
    // looked up by name (the one in the same scope first).
    if let Some(p) = s
        .parent_index
        .filter(|&p| maker && is_type(syms[p].kind, None))
    {
        return Ok(p);
    }
    let all: Vec<usize> = (0..syms.len())
        .filter(|&k| {
            let t = &syms[k];
            t.name == type_name && t.kind != SymbolKind::Impl && is_type(t.kind, None)
        })
        .collect();
    let scoped = |k: &usize| match maker {
        true => syms[*k].qualified_name.as_str() == s.parent_qualified.as_deref().unwrap_or(""),
        false => syms[*k].parent_qualified == s.parent_qualified,
    };
    let what = match maker {
        true => "constructor",
        false => "impl",
    };
    all.iter()
        .copied()
        .find(scoped)
        .or(all.first().copied())
        .ok_or_else(|| {
            Error::new(
                Code::PatchNotAName,
                format!(
                    "{what} `{}` is named by its type `{type_name}`, which is not defined in {}",
                    s.qualified_name, s.name_span.file_path
                ),
                format!(
                    "rename the type where it is defined (`llm find {type_name} --kind struct`, class, enum, trait, type); nothing was renamed"
                ),
            )
        })
}

/// Go: whether a struct of the file embeds the type `name` (a field line `name` or `*name`,
/// maybe tagged or commented): the field is named after the type, so `x.name` may be it.
pub(super) fn go_embeds(bytes: &[u8], name: &str) -> bool {
    bytes.split(|&b| b == b'\n').any(|line| {
        let line = line.trim_ascii();
        let line = line.strip_prefix(b"*").unwrap_or(line);
        line.strip_prefix(name.as_bytes()).is_some_and(|rest| {
            let rest = rest.trim_ascii_start();
            rest.is_empty() || rest.starts_with(b"`") || rest.starts_with(b"//")
        })
    })
}

/// Whether the language's methods do not see the names of their class's body (Python,
/// JavaScript, TypeScript): a nested class is reached there only as `self.Inner`/`Outer.Inner`.
fn sees_no_class_names(language: &str) -> bool {
    matches!(language, "python" | "javascript" | "typescript" | "tsx")
}

/// Python and JavaScript: the class of a bare use (`node`) of a type nested in the class
/// `outer`: in that class's body `certain` (`default = Inner()`), in a function or method
/// inside it `excluded` (a global of that name, or none). `None`: elsewhere, or another
/// language.
pub(super) fn class_body_use(
    language: &str,
    node: tree_sitter::Node,
    bytes: &[u8],
    outer: &str,
) -> Option<&'static str> {
    if !sees_no_class_names(language) {
        return None;
    }
    let mut function = false;
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "function_definition"
            | "lambda"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "generator_function" => function = true,
            "class_definition" | "class_declaration" | "class" => {
                let name = p.child_by_field_name("name")?;
                if &bytes[name.byte_range()] != outer.as_bytes() {
                    return None;
                }
                return Some(if function { EXCLUDED } else { CERTAIN });
            }
            _ => {}
        }
        n = p;
    }
    None
}
