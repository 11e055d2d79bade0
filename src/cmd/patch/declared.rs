//! `llm patch --rename` of a Go, Java, C# or PHP member: the type a declaration writes for a
//! value (`s := Square{…}`, `var q Square`, `Tag t = new Tag()`, `var m = new Movie()`, `$p =
//! new Pet()`, a parameter's or a Go receiver's `s Square`), and so whether `s.Label`, a Go
//! struct literal's key (`Square{Label: …}`) or a C# object initializer's (`new Movie { Title =
//! … }`) is the renamed member's or another type's of the same name. The rename reads it
//! before the qualifier rules (`rename::rename_core`); the project's other types that declare
//! a member of the name are gathered first ([`Others`]).

use super::classes::{CERTAIN, EXCLUDED};
use crate::error::{Code, Error};
use crate::lang::symbols::{Symbol, SymbolKind};
use crate::lang::Language;
use std::cell::OnceCell;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// How far a value's declaration is followed (`b := a` where `a := Square{}`).
const DEPTH: usize = 4;

/// The languages whose declarations this reads.
pub(super) fn supported(language: &Language) -> bool {
    matches!(language.name, "go" | "java" | "csharp" | "php")
}

/// The project's types, other than the renamed member's owner, that declare a member of the
/// renamed name themselves (`Square` with its own `Label` when `Base.Label` is renamed), and
/// the Go interfaces among them.
#[derive(Default)]
pub(super) struct Others {
    pub(super) types: Vec<String>,
    /// The types among them whose member of the name is a method.
    pub(super) methods: Vec<String>,
    pub(super) interfaces: Vec<String>,
}

impl Others {
    /// Gathers them from `files` (path shown, the symbols of its regions around the name):
    /// every member named `name` but the target's (`is_target(file, name offset)`) and those
    /// of a class whose header names the owner (an override, renamed with it).
    pub(super) fn scan<'a>(
        files: impl Iterator<Item = (&'a str, &'a [Symbol])>,
        name: &str,
        owner: &str,
        is_target: impl Fn(&str, usize) -> bool,
    ) -> Others {
        let mut out = Others::default();
        for (display, syms) in files {
            for m in syms.iter().filter(|m| m.name == name) {
                // A Go method's type is named by its receiver, outside the type (which the
                // regions parsed may leave out: an interface's methods are inside it).
                let parent = m.parent_index.and_then(|p| syms.get(p));
                let Some(name) = parent.map(|p| p.name.as_str()).or(m.parent.as_deref()) else {
                    continue;
                };
                if is_target(display, m.name_span.byte_start)
                    || name == owner
                    || parent.is_some_and(|p| super::classes::extends(p, owner))
                {
                    continue;
                }
                if m.kind == SymbolKind::Method {
                    if parent.is_some_and(|p| p.kind == SymbolKind::Interface) {
                        out.interfaces.push(name.to_string());
                    }
                    out.methods.push(name.to_string());
                }
                out.types.push(name.to_string());
            }
        }
        out
    }
}

/// One file's declarations, read for a member of `owner`.
pub(super) struct Declared<'a> {
    language: &'static Language,
    bytes: &'a [u8],
    owner: &'a str,
    /// Whether the renamed member is a method: a field is not the one called, nor the
    /// reverse.
    callable: bool,
    others: &'a Others,
    /// The whole file's tree: a value's declaration may lie outside the regions parsed
    /// (parsed when first asked for, shared with the rename's other readers).
    full: &'a OnceCell<Tree>,
}

impl<'a> Declared<'a> {
    pub(super) fn of(
        language: &'static Language,
        bytes: &'a [u8],
        owner: &'a str,
        kind: SymbolKind,
        others: &'a Others,
        full: &'a OnceCell<Tree>,
    ) -> Option<Self> {
        supported(language).then_some(Declared {
            language,
            bytes,
            owner,
            callable: matches!(kind, SymbolKind::Method | SymbolKind::Function),
            others,
            full,
        })
    }

    fn text(&self, node: Node) -> &'a str {
        std::str::from_utf8(&self.bytes[node.byte_range()]).unwrap_or_default()
    }

    /// The class the declarations settle for the occurrence at `range`: `certain` through a
    /// value of the owner's type or in a literal of it, `excluded` through one of another
    /// type that declares its own member of the name, and a PHP named argument (`f(name:
    /// 1)`, a parameter's name). `None`: nothing written says.
    pub(super) fn class(&self, range: Range<usize>) -> Option<&'static str> {
        let tree = self.full.get_or_init(|| self.language.parse(self.bytes));
        let node = tree
            .root_node()
            .descendant_for_byte_range(range.start, range.end)?;
        let parent = node.parent()?;
        let is = |field: &str| parent.child_by_field_name(field) == Some(node);
        let written = match (self.language.name, parent.kind()) {
            ("php", "argument") if is("name") => return Some(EXCLUDED),
            ("go", "literal_element") => {
                let keyed = parent.parent().filter(|k| k.kind() == "keyed_element")?;
                if keyed.child_by_field_name("key") != Some(parent) {
                    return None;
                }
                let literal = keyed.parent()?.parent()?;
                self.literal_type(literal)?
            }
            ("csharp", "assignment_expression") if is("left") => {
                let init = parent
                    .parent()
                    .filter(|i| i.kind() == "initializer_expression")?;
                let creation = init
                    .parent()
                    .filter(|c| c.kind() == "object_creation_expression")?;
                self.text(creation.child_by_field_name("type")?).to_string()
            }
            ("go", "selector_expression") if is("field") => {
                self.value_type(parent.child_by_field_name("operand")?, DEPTH)?
            }
            ("java", "field_access") if is("field") => {
                self.value_type(parent.child_by_field_name("object")?, DEPTH)?
            }
            ("java", "method_invocation") if is("name") => {
                self.value_type(parent.child_by_field_name("object")?, DEPTH)?
            }
            ("csharp", "member_access_expression") if is("name") => {
                self.value_type(parent.child_by_field_name("expression")?, DEPTH)?
            }
            ("php", "member_access_expression" | "member_call_expression") if is("name") => {
                self.value_type(parent.child_by_field_name("object")?, DEPTH)?
            }
            _ => return None,
        };
        let head = head(&written);
        let called = match parent.kind() {
            "method_invocation" | "member_call_expression" => true,
            "selector_expression" | "member_access_expression" => parent
                .parent()
                .is_some_and(|c| matches!(c.kind(), "call_expression" | "invocation_expression")),
            _ => false,
        };
        if head == self.owner && called == self.callable {
            Some(CERTAIN)
        } else if self.others.types.iter().any(|t| t == head) {
            Some(EXCLUDED)
        } else {
            None
        }
    }

    /// A Go composite literal's written type (`Square{…}`, `pkg.Square{…}`).
    fn literal_type(&self, literal: Node) -> Option<String> {
        (literal.kind() == "composite_literal")
            .then(|| literal.child_by_field_name("type"))
            .flatten()
            .map(|t| self.text(t).to_string())
    }

    /// The type written for the value of an expression: a name's declared type (a parameter's,
    /// a receiver's, a variable's or a field's, or its value's), a new object's, a Go literal's.
    fn value_type(&self, expr: Node, depth: usize) -> Option<String> {
        let depth = depth.checked_sub(1)?;
        match expr.kind() {
            "composite_literal" => self.literal_type(expr),
            "unary_expression" | "parenthesized_expression" | "pointer_expression" => {
                self.value_type(expr.named_child(0)?, depth)
            }
            "object_creation_expression" => {
                let t = expr
                    .child_by_field_name("type")
                    .or_else(|| named(expr).find(|c| c.kind() == "name"))?;
                Some(self.text(t).to_string())
            }
            "identifier" | "variable_name" => {
                // PHP: `$p`'s name is `p`.
                let name = match expr.kind() {
                    "variable_name" => self.text(named(expr).next()?),
                    _ => self.text(expr),
                };
                if name == "this" {
                    return None;
                }
                let (ty, value) = self.declaration(name, expr)?;
                match (ty, value) {
                    (Some(t), _) if !matches!(self.text(t), "var" | "auto") => {
                        Some(self.text(t).to_string())
                    }
                    (_, Some(v)) => self.value_type(v, depth),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The declaration `name` at `from` is bound by, nearest first: its written type and its
    /// value (either may be missing). Only declarations before `from` count, but parameters.
    fn declaration<'t>(
        &self,
        name: &str,
        from: Node<'t>,
    ) -> Option<(Option<Node<'t>>, Option<Node<'t>>)> {
        let mut n = from;
        while let Some(scope) = n.parent() {
            let found = named(scope)
                .filter(|c| c.start_byte() < from.start_byte())
                .filter_map(|c| self.declares(c, name))
                .last();
            if found.is_some() {
                return found;
            }
            n = scope;
        }
        None
    }

    /// The type and value `node` (a statement, a parameter list, a class member) declares
    /// `name` with, if it declares it.
    fn declares<'t>(
        &self,
        node: Node<'t>,
        name: &str,
    ) -> Option<(Option<Node<'t>>, Option<Node<'t>>)> {
        let is = |n: Option<Node>| n.is_some_and(|n| self.text(n) == name);
        match node.kind() {
            // Go: `s := Square{…}`, `a, b := x, y`.
            "short_var_declaration" => {
                let left = node.child_by_field_name("left")?;
                let at = named(left).position(|l| self.text(l) == name)?;
                let value = named(node.child_by_field_name("right")?).nth(at);
                Some((None, value))
            }
            // Go: `var q Square`, `var q = Square{}`.
            "var_declaration" => named(node).find_map(|s| self.declares(s, name)),
            "var_spec" => {
                let mut c = node.walk();
                let at = (node.children_by_field_name("name", &mut c)).position(|n| is(Some(n)))?;
                let value = node
                    .child_by_field_name("value")
                    .and_then(|v| named(v).nth(at));
                Some((node.child_by_field_name("type"), value))
            }
            // Go: a receiver's or parameter's `s Square`, `a, b T`.
            "parameter_list" => named(node).find_map(|p| {
                let mut c = p.walk();
                let hit = p
                    .children_by_field_name("name", &mut c)
                    .any(|n| is(Some(n)));
                hit.then(|| (p.child_by_field_name("type"), None))
            }),
            // Java: `Tag t = …`, a field's `Tag t;`; C#'s `variable_declaration`.
            "local_variable_declaration" | "field_declaration" if self.language.name == "java" => {
                let d = named(node)
                    .filter(|d| d.kind() == "variable_declarator")
                    .find(|d| is(d.child_by_field_name("name")))?;
                Some((
                    node.child_by_field_name("type"),
                    d.child_by_field_name("value"),
                ))
            }
            "local_declaration_statement" | "field_declaration" => {
                named(node).find_map(|d| self.declares(d, name))
            }
            "variable_declaration" => {
                let d = named(node)
                    .filter(|d| d.kind() == "variable_declarator")
                    .find(|d| is(d.child_by_field_name("name")))?;
                // C#: the value follows the name, with no field of its own.
                let value = named(d).filter(|v| v.kind() != "identifier").last();
                Some((node.child_by_field_name("type"), value))
            }
            // Java, C# and PHP parameters.
            "formal_parameters" => named(node).find_map(|p| {
                let n = p.child_by_field_name("name")?;
                let n = match n.kind() {
                    "variable_name" => named(n).next()?,
                    _ => n,
                };
                is(Some(n)).then(|| (p.child_by_field_name("type"), None))
            }),
            // PHP: `$p = new Pet();`.
            "expression_statement" => {
                let a = node
                    .named_child(0)
                    .filter(|a| a.kind() == "assignment_expression")?;
                let left = a.child_by_field_name("left")?;
                (left.kind() == "variable_name" && named(left).next().is_some_and(|n| is(Some(n))))
                    .then(|| (None, a.child_by_field_name("right")))
            }
            _ => None,
        }
    }
}

/// A written type's name: `*pkg.Square[T]` is `Square`, `List<Tag>` is `List`, `?Pet` is
/// `Pet`, `\App\Pet` is `Pet`.
fn head(written: &str) -> &str {
    let t = written.trim().trim_start_matches(['*', '&', '?']);
    let t = t.split(['<', '[', '{', '(']).next().unwrap_or(t).trim();
    t.rsplit(['.', '\\']).next().unwrap_or(t)
}

fn named(node: Node) -> impl Iterator<Item = Node> {
    let mut c = node.walk();
    node.named_children(&mut c).collect::<Vec<_>>().into_iter()
}

/// Go: whether renaming `target` (a method) alone would leave a type's method, or an
/// interface's, that satisfies an interface by the same name: Go types implement interfaces
/// by their method names, so renaming an interface's method without its implementations (or
/// one implementation without the interface) no longer compiles. The first such other, as
/// `Type.name`.
fn go_interface_tie(target: &Symbol, owner_kind: SymbolKind, others: &Others) -> Option<String> {
    if target.kind != SymbolKind::Method {
        return None;
    }
    let first = match owner_kind {
        SymbolKind::Interface => others.methods.first(),
        _ => others.interfaces.first(),
    }?;
    Some(format!("{first}.{}", target.name))
}

/// Refuses (`PATCH_E010`) a Go method's rename tied to another by an interface (see
/// [`go_interface_tie`]); `owner_kind`: the kind of the method's owner.
pub(super) fn refuse_go_interface_tie(
    target: &Symbol,
    owner_kind: SymbolKind,
    others: &Others,
) -> Result<(), Error> {
    let Some(other) = go_interface_tie(target, owner_kind, others) else {
        return Ok(());
    };
    Err(Error::new(
        Code::PatchNotAName,
        format!(
            "`{}` may be tied to `{other}`: Go types implement an interface by their methods' names, and renamed alone one would no longer implement it",
            target.qualified_name
        ),
        "rename the interface's method and its implementations by hand (or with gopls rename), or leave the name",
    ))
}
