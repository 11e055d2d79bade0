//! How `llm patch --rename` classes an occurrence of the name it renames: `certain`,
//! `possible` or `excluded`, from the qualifier before it (`Type::`, `self.`, `obj->`) and the
//! syntax around it; and whether a text range is a comment or a string.

use super::{links, typed, types};
use crate::lang::{self, symbols};

/// The symbol being renamed, as the classification needs it.
pub(super) struct Target<'a> {
    /// The language's name.
    pub(super) language: &'static str,
    /// Its parent type (impl type, class) when it is a member of one.
    pub(super) owner: Option<&'a str>,
    /// Whether it is a type (`types::is_type`): its constructors go with it, and its uses are
    /// classed by `types::use_class`.
    pub(super) is_type: bool,
    /// A type's parent (class, module, namespace): `Outer::Inner` reaches it.
    pub(super) outer: Option<&'a str>,
    /// Whether that parent is a class (struct, interface, enum).
    pub(super) outer_class: bool,
    /// What it is: a field is never called, a method or function never read as a field.
    pub(super) kind: symbols::SymbolKind,
    /// The trait it is a method of (Rust): its implementations' definitions are renamed too.
    pub(super) trait_of: Option<&'a str>,
    /// Ruby: a singleton method (`def self.g`, a `def` in `class << self`), called where
    /// `self` is its class, not on its instances.
    pub(super) singleton: bool,
    /// Ruby: for a method of a class or module, the classes and modules that inherit it or mix
    /// it in (see [`super::ancestry`]).
    pub(super) ancestry: Option<super::ancestry::Ancestry>,
    /// The definition's name span (file and offset).
    pub(super) def_file: String,
    pub(super) def_start: usize,
    /// The names another file reaches the definition's module by (`b` for `b.py`, `src/b.rs`,
    /// `b/index.js`; `crate` too for a Rust crate root): `b.g`, `b::g`, `from b import g`.
    pub(super) modules: Vec<String>,
}

pub(super) const CERTAIN: &str = "certain";
pub(super) const POSSIBLE: &str = "possible";
pub(super) const EXCLUDED: &str = "excluded";

/// The separator and qualifier written before an occurrence at `at` in a file of `language`:
/// `Type::`, `self.`, `obj->`; the qualifier is `None` for an expression (`f().`, `x[0].`,
/// `T<U>::`). `->` is a member access in C, C++ and PHP only: elsewhere it is a return type's
/// arrow (`fn f() -> P`, `def f() -> P:`), a lambda's or a Java `case X -> P.Y`. A line's
/// last `.` in a comment is not one for a name on the next line.
pub(super) fn qualifier(
    language: &str,
    bytes: &[u8],
    at: usize,
) -> Option<(&'static str, Option<String>)> {
    let mut i = at;
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    let sep = if i >= 2 && &bytes[i - 2..i] == b"::" {
        "::"
    } else if i >= 2 && &bytes[i - 2..i] == b"->" {
        if !matches!(language, "c" | "cpp" | "php") {
            return None;
        }
        "->"
    } else if i >= 1 && bytes[i - 1] == b'.' && !(i >= 2 && bytes[i - 2] == b'.') {
        "."
    } else {
        return None;
    };
    // A separator on an earlier line that ends a comment (`// … of entries.`) is no
    // qualifier: a use at the start of the next line was read as `entries.name`.
    if bytes[i..at].contains(&b'\n') {
        let line = &bytes[bytes[..i]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1)..i];
        let trimmed = line.trim_ascii_start();
        let comment = memchr::memmem::find(line, b"//").is_some()
            || memchr::memchr(b'#', line).is_some()
            || trimmed.starts_with(b"*")
            || trimmed.starts_with(b"/*");
        if comment {
            return None;
        }
    }
    let mut j = i - sep.len();
    while j > 0 && matches!(bytes[j - 1], b' ' | b'\t' | b'\n' | b'\r') {
        j -= 1;
    }
    let end = j;
    while j > 0 && (bytes[j - 1].is_ascii_alphanumeric() || matches!(bytes[j - 1], b'_' | b'$')) {
        j -= 1;
    }
    let name = (j < end).then(|| String::from_utf8_lossy(&bytes[j..end]).into_owned());
    Some((sep, name))
}

pub(super) fn is_self(q: &str) -> bool {
    matches!(q, "self" | "this" | "cls" | "Self" | "$this" | "static")
}

pub(super) fn capitalized(q: &str) -> bool {
    q.trim_start_matches('$')
        .chars()
        .next()
        .is_some_and(char::is_uppercase)
}

/// Whether the occurrence sits inside the owner's impl or class (its enclosing symbol's
/// qualified name goes through the owner).
pub(super) fn inside(enclosing: Option<&str>, owner: &str) -> bool {
    enclosing.is_some_and(|e| e.split([':', '.']).any(|seg| seg == owner))
}

/// What follows `at` in `bytes`, blanks skipped.
fn after_blanks(bytes: &[u8], at: usize) -> &[u8] {
    let rest = &bytes[at..];
    &rest[rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len())..]
}

/// The class of an occurrence at `at` in `bytes` (not a definition).
pub(super) fn classify(
    t: &Target,
    bytes: &[u8],
    at: usize,
    enclosing: Option<&str>,
    import: bool,
) -> &'static str {
    if t.is_type {
        return types::use_class(
            t.language,
            bytes,
            at,
            t.outer,
            t.outer_class,
            enclosing,
            &t.modules,
        );
    }
    let after = bytes[at..]
        .iter()
        .position(|b| !b.is_ascii_alphanumeric() && *b != b'_');
    let called = after.is_some_and(|k| after_blanks(bytes, at + k).starts_with(b"("));
    match (qualifier(t.language, bytes, at), t.owner) {
        // Unqualified: a free symbol's own name; for a member, a call is something else.
        (None, None) => CERTAIN,
        (None, Some(_)) if import => POSSIBLE,
        (None, Some(_)) => {
            if called {
                EXCLUDED
            } else {
                POSSIBLE
            }
        }
        (Some((_, Some(q))), Some(owner)) if is_self(&q) => {
            if inside(enclosing, owner) {
                CERTAIN
            } else {
                EXCLUDED
            }
        }
        (Some((_, Some(q))), Some(owner)) if q == owner => CERTAIN,
        (Some((_, Some(q))), Some(_)) if capitalized(&q) => EXCLUDED,
        // `module::name` cannot reach a member; `value.name` may.
        (Some(("::", Some(_))), Some(_)) => EXCLUDED,
        (Some(_), Some(_)) => POSSIBLE,
        (Some(("::", Some(q))), None) if q == "self" || q == "crate" || q == "super" => CERTAIN,
        // `b.g`, `b::g` through the definition's own module.
        (Some((_, Some(q))), None) if t.modules.contains(&q) => CERTAIN,
        (Some(("::", Some(q))), None) if capitalized(&q) => EXCLUDED,
        (Some(("::", _)), None) => POSSIBLE,
        // `module.name` (Python, JS): possibly the function; `self.name` is an attribute.
        (Some((_, Some(q))), None) if !is_self(&q) && !capitalized(&q) => POSSIBLE,
        (Some(_), None) => EXCLUDED,
    }
}

/// What the syntax around an occurrence says, where it settles the class before the qualifier
/// rules of [`classify`] (`None`: it does not).
/// - Excluded: a keyword argument's name (Python `f(timeout=…)`: a parameter of the callee;
///   for a field, maybe a dataclass's, left to `classify`), an object literal's or
///   destructuring key (`{ load: 5 }`), a Rust struct literal's or pattern's field for a
///   function or method, a PHP `$name`.
/// - `import * as A`: `A.load` is possible for a free function, whatever the case of `A`.
/// - Java and C++: a bare call inside the owner's class is the method (certain), outside it
///   and uncalled not (excluded).
/// - A Rust trait method called on `self`: certain inside the trait, possible elsewhere.
/// - Rust: a bare name is never a method or a field (but in a struct literal or pattern).
/// - Rust, Java, PHP, C, C++: `x.f` (`x->f`) read without a call is a field, a called one a
///   method or function; a field is never the one, a method never the other.
/// - TypeScript: what a written type says (`typed`): a key of a literal or pattern of the
///   owner's type, `cfg.name` where `cfg: Owner`, are certain; a member of a type literal is
///   excluded.
#[allow(clippy::too_many_arguments)]
pub(super) fn syntactic_class(
    language: &lang::Language,
    tree: &tree_sitter::Tree,
    bytes: &[u8],
    range: std::ops::Range<usize>,
    enclosing: Option<&str>,
    t: &Target,
    subclasses: &[&str],
    typed: Option<&typed::Types>,
) -> Option<&'static str> {
    use symbols::SymbolKind;
    let node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    let parent = node.parent()?;
    let field_of = |name: &str| {
        parent
            .child_by_field_name(name)
            .is_some_and(|c| c.byte_range() == node.byte_range())
    };
    let callable = matches!(t.kind, SymbolKind::Function | SymbolKind::Method);
    // TypeScript: a key of a literal or pattern whose type is written as the owner's is the
    // member (`const t: Test = { ready: false }`, `const { ready } = t` where `t: Test`);
    // other keys are other objects'.
    let typed_key = |node: tree_sitter::Node| match typed {
        Some(types) if types.key(node.byte_range()) => CERTAIN,
        _ => EXCLUDED,
    };
    match parent.kind() {
        // (A field may be one: `Point(x=1)` for a dataclass's `x`.)
        "keyword_argument" if field_of("name") && t.kind != SymbolKind::Field => {
            return Some(EXCLUDED)
        }
        // A struct literal's or pattern's field (Rust `Line { len: 2 }`, `User { name }`).
        "field_initializer" | "shorthand_field_initializer" | "field_pattern" if callable => {
            return Some(EXCLUDED)
        }
        // …but `const { g: h } = require("./util")` imports the module's `g`.
        "pair_pattern"
            if field_of("key")
                && links::import_text(tree, bytes, range.clone())
                    .is_some_and(|i| links::requires(&i, &t.modules)) => {}
        "pair" | "pair_pattern" if field_of("key") => return Some(typed_key(node)),
        "variable_name" if language.name == "php" => return Some(EXCLUDED),
        // TypeScript: a member declared in a type of its own that is no symbol (`opts: {
        // timeout: number }`, a class expression's field) is that type's, never the renamed
        // member (the same members by inheritance are symbols: `interface B extends A`).
        "property_signature" | "method_signature" | "public_field_definition"
            if field_of("name")
                && t.owner.is_some()
                && matches!(language.name, "typescript" | "tsx") =>
        {
            return Some(EXCLUDED)
        }
        _ => {}
    }
    // TypeScript: `cfg.timeout` where `cfg`'s type is written (`cfg: Config`).
    if let Some(c) = typed.and_then(|types| types.receiver(range.clone())) {
        return Some(c);
    }
    if language.name == "bash" {
        return super::shell::word_class(node, bytes);
    }
    // Python: a module an import names (`import time as _time`, `from time import sleep`)
    // is no class or function of the file.
    if language.name == "python"
        && links::import_text(tree, bytes, range.clone()).is_some()
        && !links::python_import_binds(tree, range.clone())
    {
        return Some(EXCLUDED);
    }
    let qualified = qualifier(language.name, bytes, range.start);
    // `import * as A from "./a"`: `A.load` may be the module's function, whatever the case of
    // `A` (a capitalised qualifier reads as a type elsewhere).
    if matches!(language.name, "javascript" | "typescript" | "tsx") && t.owner.is_none() {
        if let Some((".", Some(q))) = &qualified {
            let namespace = format!("* as {q} ");
            if memchr::memmem::find(bytes, namespace.as_bytes()).is_some() {
                return Some(POSSIBLE);
            }
            if let Some(c) = links::required_as(bytes, q, &t.modules) {
                return Some(c);
            }
        }
    }
    // Go reaches a package's function only through the package's name (`util.G`); `t.G` on
    // anything else is a field or a method.
    if language.name == "go" && t.owner.is_none() {
        if let Some((".", Some(q))) = &qualified {
            if !t.modules.contains(q) && !links::go_package(bytes, q) {
                // A field embedding a renamed type is named after it (`f.fmtFlags`).
                let name = std::str::from_utf8(&bytes[range.clone()]).unwrap_or_default();
                let embedded = t.is_type && types::go_embeds(bytes, name);
                return Some(if embedded { POSSIBLE } else { EXCLUDED });
            }
        }
    }
    // JavaScript and TypeScript reach a member only through a value (`this.start`,
    // `t.start`): a bare name is a variable, a parameter or a function (an interface method's
    // rename renamed a `const start` elsewhere in the file), and a shorthand `{ start }` is
    // an object's key, as `{ start: 1 }` is.
    if matches!(language.name, "javascript" | "typescript" | "tsx")
        && t.owner.is_some()
        && qualified.is_none()
        && matches!(
            node.kind(),
            "identifier"
                | "shorthand_property_identifier"
                | "shorthand_property_identifier_pattern"
        )
    {
        return Some(match node.kind() {
            "identifier" => EXCLUDED,
            _ => typed_key(node),
        });
    }
    // Go reaches a method or a field only through a value or its type (`e.Error()`,
    // `(*Error).Error`): a bare type name is a type (`func (e *Error) Error()` renamed its
    // receiver's type with the method `Error`), and a bare call a function.
    if language.name == "go"
        && t.owner.is_some()
        && qualified.is_none()
        && (node.kind() == "type_identifier" || (callable && node.kind() == "identifier"))
    {
        return Some(EXCLUDED);
    }
    // Python: a bare name reaches a member only in its own class's body (`value =
    // property(get, set)`); in a method or another class's body it is a local or a global
    // (ValueProxy's `property(get, set)` was renamed with `Value.set`).
    if language.name == "python"
        && t.owner.is_some()
        && qualified.is_none()
        && node.kind() == "identifier"
        && parent.kind() != "keyword_argument"
    {
        return Some(super::members::python_bare(
            node,
            bytes,
            t.owner.unwrap_or_default(),
        ));
    }
    // Ruby: a bare name inside a class that defines a method of that name is that method.
    if language.name == "ruby"
        && t.owner.is_none()
        && qualified.is_none()
        && super::members::ruby_own_method(node, bytes)
    {
        return Some(EXCLUDED);
    }
    // A type nested in a Python or JavaScript class, named bare in that class.
    if let (Some(outer), true, None) = (t.outer, t.is_type && t.outer_class, &qualified) {
        if let Some(c) = types::class_body_use(language.name, node, bytes, outer) {
            return Some(c);
        }
    }
    // A call, or Rust's turbofish before one (`x.f::<T>()`).
    let next = after_blanks(bytes, range.end);
    let called = next.starts_with(b"(") || (language.name == "rust" && next.starts_with(b"::<"));
    // Java, C# and C++ call a method of the class a member sits in (or of a subclass whose
    // header names it) by its bare name; a bare name not called is a field, a local or
    // a parameter there.
    if matches!(language.name, "java" | "csharp" | "cpp")
        && qualified.is_none()
        && t.owner.is_some()
        && callable
    {
        let owner = t.owner.unwrap_or_default();
        let own = inside(enclosing, owner) || subclasses.iter().any(|c| inside(enclosing, c));
        return Some(if called && own { CERTAIN } else { EXCLUDED });
    }
    if let (Some(owner), true) = (t.owner, callable) {
        match (language.name, &qualified) {
            ("ruby", None) => {
                return super::members::ruby_bare(
                    node,
                    bytes,
                    owner,
                    t.singleton,
                    t.ancestry.as_ref(),
                )
            }
            ("ruby", Some((".", Some(q)))) if q == "self" => {
                if let Some(c) =
                    super::members::ruby_bare(node, bytes, owner, t.singleton, t.ancestry.as_ref())
                {
                    return Some(c);
                }
            }
            // A subclass's singleton method (`Sub.g`) is its superclass's where it inherits it.
            ("ruby", Some((".", Some(q)))) if capitalized(q) => {
                if let Some(c) = t.ancestry.as_ref().and_then(|a| a.named(q)) {
                    return Some(c);
                }
            }
            ("ruby", Some((".", Some(q))))
                if q == "class" && super::members::ruby_on_self_class(node, bytes) =>
            {
                let ancestry = t.ancestry.as_ref();
                let class =
                    super::members::ruby_self_class(node, bytes, owner, t.singleton, ancestry);
                if let Some(c) = class {
                    return Some(c);
                }
            }
            ("go", Some((".", Some(q)))) => {
                if let Some(c) = super::members::go_receiver(node, bytes, q, owner) {
                    return Some(c);
                }
            }
            _ => {}
        }
    }
    if !matches!(language.name, "rust" | "java" | "php" | "c" | "cpp") {
        return None;
    }
    let field = t.kind == SymbolKind::Field;
    // A trait method is called on `self` in any impl of a type that implements the trait.
    if let (Some(tr), Some((".", Some(q)))) = (t.trait_of, &qualified) {
        if is_self(q) && called {
            return Some(if inside(enclosing, tr) {
                CERTAIN
            } else {
                POSSIBLE
            });
        }
    }
    // Rust names a method only through a value or a path, and a field only through a value
    // or in a struct literal or pattern: a bare name is a local, a parameter or a function.
    if language.name == "rust" && qualified.is_none() {
        let field_slot = matches!(
            parent.kind(),
            "field_initializer" | "shorthand_field_initializer" | "field_pattern"
        );
        if (t.owner.is_some() && callable && !called) || (field && !field_slot) {
            return Some(EXCLUDED);
        }
    }
    let Some((".", _) | ("->", _)) = qualified else {
        return None;
    };
    // C and C++ call function pointers held in fields: a called field may be the field.
    let calls_fields = matches!(language.name, "c" | "cpp");
    ((callable && !called) || (field && called && !calls_fields)).then_some(EXCLUDED)
}

/// Languages whose class headers name the classes they extend.
pub(super) fn subclassing(language: &lang::Language) -> bool {
    matches!(
        language.name,
        "python" | "java" | "javascript" | "typescript" | "tsx" | "csharp" | "cpp" | "php"
    )
}

/// Whether `c` is a class that can extend another (a C++ `struct` can).
pub(super) fn class_like(c: &symbols::Symbol) -> bool {
    matches!(
        c.kind,
        symbols::SymbolKind::Class | symbols::SymbolKind::Struct
    )
}

/// Whether class `c`'s header names `owner` after its own name (`class Sq(Base):`, `class Sq
/// extends Base implements Shape {`).
pub(super) fn extends(c: &symbols::Symbol, owner: &str) -> bool {
    let after = c
        .signature
        .find(c.name.as_str())
        .map_or("", |i| &c.signature[i + c.name.len()..]);
    after
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
        .any(|w| w == owner)
}

/// `comment`, `string` or `other` for the text at `range`, from the innermost node around it.
pub(super) fn text_kind(tree: &tree_sitter::Tree, range: std::ops::Range<usize>) -> &'static str {
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end);
    while let Some(n) = node {
        let k = n.kind();
        if k.contains("comment") {
            return "comment";
        }
        if k.contains("string") || k.contains("heredoc") || k == "char_literal" {
            return "string";
        }
        node = n.parent();
    }
    "other"
}
