//! `llm patch --rename`: definitions that share the renamed one's name and must keep sharing
//! it. A Rust trait impl's item is named by its trait (renamed alone, the impl no longer
//! implements it: E0407), and a Java, C# or C++ method's overloads are called by one name,
//! which the syntax cannot tell apart without types (renamed alone, `g("a")` was renamed with
//! `g(int)` and no longer compiled), nor a C++ method's declaration in its class from its
//! definition outside it (`void A::g(int) {}` was left).

use crate::error::{Code, Error};
use crate::lang::symbols::{Symbol, SymbolKind};

/// The index the rename starts from instead of `i`: a Rust trait impl's item
/// (`impl Shape for Sq { fn area … }`) is renamed from the trait's own (which renames every
/// impl's), a C++ method defined outside its class (`void A::g() {}`) from its declaration in
/// the class, when the file has it. Refused (`PATCH_E010`) for a trait impl's item whose trait
/// the file does not define: it cannot be renamed without the trait.
pub(super) fn renamed_index(syms: &[Symbol], i: usize) -> Result<usize, Error> {
    let s = &syms[i];
    if s.language == "cpp" && s.kind == SymbolKind::Function {
        return Ok(in_class(syms, s).unwrap_or(i));
    }
    let Some(tr) = s.impl_of.as_deref().filter(|_| s.kind != SymbolKind::Impl) else {
        return Ok(i);
    };
    // `fmt::Display` is named `Display` where it is defined; `Into<u8>` is `Into`.
    let tr = tr.split('<').next().unwrap_or(tr);
    let tr = tr.rsplit("::").next().unwrap_or(tr).trim();
    let item = (0..syms.len()).find(|&k| {
        let t = &syms[k];
        t.name == s.name
            && t.parent_index
                .is_some_and(|p| syms[p].kind == SymbolKind::Trait && syms[p].name == tr)
    });
    item.ok_or_else(|| {
        Error::new(
            Code::PatchNotAName,
            format!(
                "{} `{}` implements trait `{tr}`'s `{}`, which is not defined in {}: renamed alone, the impl would no longer implement it",
                s.kind.as_str(),
                s.qualified_name,
                s.name,
                s.name_span.file_path
            ),
            format!(
                "rename `{tr}::{}` where the trait is defined (`llm find {tr} --kind trait`): its impls follow; nothing was renamed",
                s.name
            ),
        )
    })
}

/// C++: the method declared in its class that a definition outside it (`void A::g() {}`)
/// defines: the first member of the class named so.
fn in_class(syms: &[Symbol], s: &Symbol) -> Option<usize> {
    let owner = s.parent_qualified.as_deref()?;
    (0..syms.len()).find(|&k| {
        let m = &syms[k];
        m.name == s.name
            && m.kind == SymbolKind::Method
            && m.parent_qualified.as_deref() == Some(owner)
            && m.parent_index.is_some()
    })
}

/// Java, C#, C++, Rust: the name offsets of the members of `target`'s class among `syms` (one file)
/// that share its name: its overloads and, in C++, their declarations and their definitions
/// outside the class (`void A::g(int) {}`); in JavaScript and TypeScript a getter's setter
/// (`get power()` and `set power(v)`: renamed alone, the property lost one half). Another
/// class's `g` is not one. In C and C++, in the definition's own file (`home`), a top-level
/// function's or macro's other definitions of the name too: its prototype, its C++
/// overloads, its twin under another `#if` branch, a function or a macro (renamed alone, the
/// other configuration's calls lost it; static functions of other files are theirs). In
/// Rust, in its own file, the items of its kind and name in its scope (an impl type, a
/// module, the file): `#[cfg]` twins, a scope holding one item of a name otherwise.
pub(super) fn same_class(syms: &[Symbol], target: &Symbol, home: bool) -> Vec<usize> {
    let callable = |k: SymbolKind| matches!(k, SymbolKind::Method | SymbolKind::Function);
    let owner = target.parent_qualified.as_deref();
    let rust = target.language == "rust";
    let twins = matches!(target.language, "c" | "cpp") && owner.is_none() && target.depth == 0;
    let languages = [
        "rust",
        "java",
        "csharp",
        "cpp",
        "c",
        "javascript",
        "typescript",
        "tsx",
    ];
    if !languages.contains(&target.language) || (owner.is_none() && !((twins || rust) && home)) {
        return Vec::new();
    }
    // A C function's twin may be a macro (`#define f(x) …` in the other branch).
    let twin = |k: SymbolKind| callable(k) || k == SymbolKind::Macro;
    let kin = |m: &Symbol| match (rust, twins) {
        // A Rust scope holds one item of a name but for `#[cfg]` twins; a trait impl's item
        // belongs to its trait (see `renamed_index`).
        (true, _) => m.kind == target.kind && m.impl_of == target.impl_of,
        (false, true) => twin(target.kind) && twin(m.kind),
        (false, false) => callable(target.kind) && callable(m.kind),
    };
    (syms.iter())
        .filter(|m| {
            m.name == target.name
                && kin(m)
                && m.parent_qualified.as_deref() == owner
                && (owner.is_some() || m.depth == 0)
                && m.name_span != target.name_span
        })
        .map(|m| m.name_span.byte_start)
        .collect()
}

/// Python, Ruby and Bash: the name offsets of the other definitions of `target`'s name in its
/// own scope (the file's top level, or its class or module), which bind the same name: one
/// variable, function or method, whichever runs (`if …: END = "<"` / `else: END = ">"`, a
/// function defined in both branches of an `if`, a property's `@x.setter`, `@overload`
/// stubs, a Ruby class reopened; in a Python function, `def wrapper` in each branch before
/// `return wrapper`). Renamed alone, the other branch kept the old name and its uses lost
/// theirs. A Ruby singleton method (`def self.g`, `def C.g`, a `def` in `class << self`) and
/// an instance method `g` are two methods.
pub(super) fn rebound(syms: &[Symbol], target: &Symbol) -> Vec<usize> {
    if !matches!(target.language, "python" | "ruby" | "bash") {
        return Vec::new();
    }
    // Ruby's `def` in a method defines a method of the class when it runs: not a local.
    let in_function = |s: &Symbol| {
        s.parent_index.is_some_and(|p| {
            matches!(syms[p].kind, SymbolKind::Function | SymbolKind::Method)
                && target.language == "ruby"
        })
    };
    let binding = |k: SymbolKind| {
        matches!(
            k,
            SymbolKind::Function
                | SymbolKind::Method
                | SymbolKind::Class
                | SymbolKind::Constant
                | SymbolKind::Field
        )
    };
    // Ruby: a method and a constant (or a class) of one name are two things.
    let kin = |m: &Symbol| {
        let method = |k| matches!(k, SymbolKind::Function | SymbolKind::Method);
        binding(m.kind)
            && (target.language != "ruby"
                || (method(m.kind) == method(target.kind) && m.singleton == target.singleton))
    };
    if in_function(target) || !binding(target.kind) {
        return Vec::new();
    }
    (syms.iter())
        .filter(|m| {
            m.name == target.name
                && m.name_span != target.name_span
                && m.parent_qualified == target.parent_qualified
                && m.depth == target.depth
                && kin(m)
        })
        .map(|m| m.name_span.byte_start)
        .collect()
}
