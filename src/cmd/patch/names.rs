//! Which names `llm patch --rename` may write: an identifier of the language (Rust's raw
//! names, a Ruby method's `?`/`!`/`=`, JavaScript's `$` and private names, …), and for a Ruby
//! setter the `=` a bare new name lacks.

use crate::lang;

fn is_identifier(name: &str) -> bool {
    is_identifier_with(name, |c| c == '_')
}

/// Whether `name` is letters, digits and the `extra` characters, not starting with a digit.
fn is_identifier_with(name: &str, extra: impl Fn(char) -> bool) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| extra(c) || c.is_alphabetic())
        && chars.all(|c| extra(c) || c.is_alphanumeric())
}

/// Whether `new` may name what `old` names in `language`: a plain identifier, a Rust raw one
/// (`r#match`), a Ruby method's name ending in `?` or `!` (`empty?`), or a Ruby setter's ending
/// in `=` for a setter (`name=`; a call `x.name = 1` is written apart); `$` in JavaScript,
/// TypeScript and Java names, a JavaScript private name (`#count`) for a private one only, a
/// C# verbatim name (`@class`), a shell function's `-`, `.`, `:` (`_comp-files`).
pub(super) fn valid_name(language: &lang::Language, old: &str, new: &str) -> bool {
    let dollar = |c| c == '_' || c == '$';
    match language.name {
        "rust" => is_identifier(new.strip_prefix("r#").unwrap_or(new)),
        "ruby" => match new.strip_suffix(['?', '!', '=']) {
            Some(base) if new.ends_with('=') => old.ends_with('=') && is_identifier(base),
            Some(base) => is_identifier(base),
            None => is_identifier(new),
        },
        "javascript" | "typescript" | "tsx" => match new.strip_prefix('#') {
            Some(base) => old.starts_with('#') && is_identifier_with(base, dollar),
            None => !old.starts_with('#') && is_identifier_with(new, dollar),
        },
        "java" => is_identifier_with(new, dollar),
        "csharp" => is_identifier(new.strip_prefix('@').unwrap_or(new)),
        "bash" => {
            !new.starts_with('-') && is_identifier_with(new, |c| matches!(c, '_' | '-' | '.' | ':'))
        }
        _ => is_identifier(new),
    }
}

/// The name a rename writes: for a Ruby setter (`level=`) a bare `size` is `size=`, as a
/// setter stays one (`obj.size = 1` calls `size=`; a `def size` would not be called).
pub(super) fn new_name(language: &lang::Language, old: &str, new: &str) -> String {
    match language.name == "ruby" && old.ends_with('=') && !new.ends_with(['=', '?', '!']) {
        true => format!("{new}="),
        false => new.to_string(),
    }
}
