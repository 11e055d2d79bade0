//! `llm patch --rename` of a method that overrides another: renamed alone, it would no longer
//! override it (javac: `method does not override … from a supertype`; PHP: a fatal error for
//! the interface method left unimplemented; Python, JavaScript: the base's method silently runs
//! instead). It is renamed from the method it overrides when the file defines that (the
//! overrides in every subclass follow, as for any method), and refused where the syntax says
//! it overrides one the file does not define, or names a method the language itself calls.

use super::classes::{class_like, extends};
use crate::error::{Code, Error};
use crate::lang::symbols::{Symbol, SymbolKind};

/// The index the rename starts from instead of `i`: the method `i` overrides in a class or
/// interface of the file its class's header names (followed up the chain), or `i` itself.
/// Refused (`PATCH_E010`) for a method the syntax marks as an override (Java's `@Override`,
/// C#'s, C++'s and TypeScript's `override`, PHP's `#[\Override]`) of a method the file does
/// not define, a PHP method of a built-in interface its class implements (`Countable::count`),
/// a PHP magic method (`__toString`) or a Python special method (`__getitem__`).
pub(super) fn renamed_index(syms: &[Symbol], src: &[u8], i: usize) -> Result<usize, Error> {
    let mut i = i;
    // At most one step per class of the file: headers that name each other end the walk.
    for _ in 0..syms.len() {
        let s = &syms[i];
        if s.kind != SymbolKind::Method {
            return Ok(i);
        }
        if let Some(b) = base_method(syms, i) {
            i = b;
            continue;
        }
        return match marker(syms, s, src) {
            Some(m) => Err(refusal(s, m)),
            None => Ok(i),
        };
    }
    Ok(i)
}

/// The method named as `syms[i]` in a class or interface that its class's header names.
fn base_method(syms: &[Symbol], i: usize) -> Option<usize> {
    let s = &syms[i];
    let class = &syms[s.parent_index?];
    if !(class_like(class) || class.kind == SymbolKind::Interface) {
        return None;
    }
    (0..syms.len()).find(|&k| {
        let m = &syms[k];
        k != i
            && m.kind == SymbolKind::Method
            && m.name == s.name
            && m.parent_index.is_some_and(|p| {
                let base = &syms[p];
                p != s.parent_index.unwrap_or(p)
                    && (class_like(base) || base.kind == SymbolKind::Interface)
                    && extends(class, &base.name)
            })
    })
}

/// What says `s` overrides a method or is called by the language by its name.
enum Marker {
    /// The override marker as written (`@Override`, `override`, `#[\Override]`).
    Written(&'static str),
    /// A PHP built-in interface its class implements.
    Interface(&'static str),
    /// A method the language calls by its name.
    Special,
}

/// PHP's built-in interfaces and their methods.
const PHP_INTERFACES: &[(&str, &[&str])] = &[
    ("Countable", &["count"]),
    (
        "ArrayAccess",
        &["offsetExists", "offsetGet", "offsetSet", "offsetUnset"],
    ),
    ("Iterator", &["current", "key", "next", "rewind", "valid"]),
    ("IteratorAggregate", &["getIterator"]),
    ("JsonSerializable", &["jsonSerialize"]),
    ("Serializable", &["serialize", "unserialize"]),
    ("Stringable", &["__toString"]),
];

fn marker(syms: &[Symbol], s: &Symbol, src: &[u8]) -> Option<Marker> {
    let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(src.get(r).unwrap_or(b""));
    let before = text(s.span.byte_start..s.name_span.byte_start);
    let after = text(
        s.name_span.byte_end
            ..s.body_span
                .as_ref()
                .map_or(s.span.byte_end, |b| b.byte_start),
    );
    let word = |t: &str, w: &str| {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|x| x == w)
    };
    match s.language {
        "java" if before.contains("@Override") => Some(Marker::Written("@Override")),
        "csharp" | "typescript" | "tsx" if word(&before, "override") => {
            Some(Marker::Written("override"))
        }
        "cpp" if word(&after, "override") => Some(Marker::Written("override")),
        "python" if s.name.len() > 4 && s.name.starts_with("__") && s.name.ends_with("__") => {
            Some(Marker::Special)
        }
        "php" if before.contains("#[\\Override]") || before.contains("#[Override]") => {
            Some(Marker::Written("#[\\Override]"))
        }
        "php" if s.name.starts_with("__") => Some(Marker::Special),
        "php" => {
            let class = &syms[s.parent_index?];
            PHP_INTERFACES
                .iter()
                .find(|(name, methods)| {
                    methods.iter().any(|m| m.eq_ignore_ascii_case(&s.name)) && extends(class, name)
                })
                .map(|(name, _)| Marker::Interface(name))
        }
        _ => None,
    }
}

fn refusal(s: &Symbol, m: Marker) -> Error {
    let what = format!("{} `{}`", s.kind.as_str(), s.qualified_name);
    let (message, fix) = match m {
        Marker::Written(w) => (
            format!("{what} overrides a method (`{w}`) that {} does not define: renamed alone, it would no longer override it", s.name_span.file_path),
            format!("rename the overridden method where its type is defined (`llm find {} --kind method`): the overrides follow; a library type's method cannot be renamed. Nothing was renamed", s.name),
        ),
        Marker::Interface(i) => (
            format!("{what} implements PHP's built-in `{i}::{}`: renamed, the class would no longer implement `{i}`", s.name),
            "leave its name: PHP calls it through the interface. Nothing was renamed".to_string(),
        ),
        Marker::Special => (
            format!("{what} is a method the language calls by its name: renamed, it would no longer be called"),
            "leave its name, or rename the methods it calls. Nothing was renamed".to_string(),
        ),
    };
    Error::new(Code::PatchNotAName, message, fix).with_file(&s.name_span.file_path)
}
