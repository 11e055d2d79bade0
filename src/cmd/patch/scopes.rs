//! Where a name is bound, for `llm patch --rename`: a parameter, an assignment, a `let`, a loop
//! variable or a nested definition binds it in a function or block, where an occurrence is that
//! binding and not the renamed symbol; a binding of the new name there refuses the rename.
//! Read from the syntax alone, for Python, JavaScript/TypeScript, Rust, Go and Ruby.

use crate::lang::Language;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// One binding of a name.
pub(super) struct Binding {
    /// The bound identifier.
    pub at: Range<usize>,
    /// Where an occurrence of the name is this binding: the function for a Python local or a
    /// parameter, the block from the statement's end for a Rust `let` or a Go `:=`.
    pub visible: Range<usize>,
    /// Bound at the file's top level (module, program), not in a function or block.
    pub top_level: bool,
    /// Bound in a Python class body: an attribute, seen there but not in the bodies of the
    /// functions and classes nested in it (`holes`).
    pub class_body: bool,
    /// Parts of `visible` where the name is not this binding.
    pub holes: Vec<Range<usize>>,
}

impl Binding {
    /// Whether the occurrence at `at` is this binding (or names it).
    pub fn holds(&self, at: usize) -> bool {
        (self.visible.contains(&at) && !self.holes.iter().any(|h| h.contains(&at)))
            || self.at.start == at
    }
}

/// Whether [`bindings`] reads the language's scopes.
pub(super) fn supported(language: &Language) -> bool {
    matches!(
        language.name,
        "python" | "javascript" | "typescript" | "tsx" | "rust" | "go" | "ruby"
    )
}

/// Whether [`bindings`] reads the language's locals: those of [`supported`], and Java's and
/// C#'s parameters and locals, which hide a field of their name (a field's rename renamed a
/// constructor's parameter `label` and its uses with it).
fn reads_locals(language: &Language) -> bool {
    supported(language) || matches!(language.name, "java" | "csharp")
}

/// Whole-word occurrences of `name` in `bytes`.
pub(super) fn words(bytes: &[u8], name: &str) -> Vec<Range<usize>> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    memchr::memmem::find_iter(bytes, name.as_bytes())
        .map(|at| at..at + name.len())
        .filter(|r| {
            (r.start == 0 || !word(bytes[r.start - 1]))
                && bytes.get(r.end).is_none_or(|&b| !word(b))
        })
        .collect()
}

/// The bindings of `name` in `tree` (of `bytes`), in file order. Imports are not among them
/// (the rename reads those as links to a module); a Python function that declares the name
/// `global` or `nonlocal` binds nothing of it.
pub(super) fn bindings(language: &Language, tree: &Tree, bytes: &[u8], name: &str) -> Vec<Binding> {
    if !reads_locals(language) {
        return Vec::new();
    }
    let root = tree.root_node();
    let mut out = Vec::new();
    for w in words(bytes, name) {
        let Some(node) = root.descendant_for_byte_range(w.start, w.end) else {
            continue;
        };
        if node.byte_range() != w
            || !matches!(
                node.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            )
        {
            continue;
        }
        let scope = match language.name {
            "python" => python(node, bytes, name),
            "rust" => rust(node),
            "go" => go(node),
            "ruby" => ruby(node),
            "java" | "csharp" => java_csharp(node),
            _ => ecmascript(node, bytes),
        };
        if let Some((scope, from)) = scope {
            let class_body = scope.kind() == "class_definition";
            out.push(Binding {
                at: w,
                visible: from..scope.end_byte(),
                top_level: scope.parent().is_none(),
                class_body,
                holes: if class_body {
                    nested_bodies(scope)
                } else {
                    Vec::new()
                },
            });
        }
    }
    out
}

/// The child in `field` of `parent` is `node`.
fn is_field(parent: Node, field: &str, node: Node) -> bool {
    parent.child_by_field_name(field) == Some(node)
}

/// The nearest ancestor of `node` whose kind is one of `kinds`, or the root.
fn nearest<'t>(node: Node<'t>, kinds: &[&str]) -> Node<'t> {
    let mut n = node;
    while let Some(p) = n.parent() {
        if kinds.contains(&p.kind()) {
            return p;
        }
        n = p;
    }
    n
}

/// A binding visible in the whole of `scope`.
fn whole(scope: Node) -> Option<(Node, usize)> {
    Some((scope, scope.start_byte()))
}

/// The bodies of the functions, lambdas and classes nested in a Python class's body, where its
/// attributes are not seen (their default values and decorators are in the class's scope).
fn nested_bodies(class: Node) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut stack: Vec<Node> = class.child_by_field_name("body").into_iter().collect();
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        for k in n.named_children(&mut c) {
            match k.kind() {
                "function_definition" | "lambda" | "class_definition" => {
                    out.extend(k.child_by_field_name("body").map(|b| b.byte_range()));
                    stack.extend(k.child_by_field_name("parameters"));
                }
                _ => stack.push(k),
            }
        }
    }
    out
}

/// Python: a name bound anywhere in a function is local in all of its body (and in the
/// functions nested in it; default values and annotations before the body are evaluated
/// outside: `def d(g=g)`); one bound in a class body is an attribute, seen in the class body
/// but not in its methods.
fn python<'t>(node: Node<'t>, bytes: &[u8], name: &str) -> Option<(Node<'t>, usize)> {
    let mut n = node;
    let p = loop {
        let p = n.parent()?;
        match p.kind() {
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "dictionary_splat_pattern"
            | "as_pattern_target" => n = p,
            "default_parameter" | "typed_default_parameter" if is_field(p, "name", n) => n = p,
            "typed_parameter" if p.named_child(0) == Some(n) => n = p,
            _ => break p,
        }
    };
    const SCOPES: [&str; 3] = ["function_definition", "lambda", "class_definition"];
    let scope = match p.kind() {
        "parameters" | "lambda_parameters" => p.parent()?,
        "for_in_clause" if is_field(p, "left", n) => p.parent()?,
        "assignment" | "augmented_assignment" | "for_statement" if is_field(p, "left", n) => {
            nearest(p, &SCOPES)
        }
        "named_expression" if is_field(p, "name", n) => nearest(p, &SCOPES),
        "as_pattern" if n.kind() == "as_pattern_target" => nearest(p, &SCOPES),
        "function_definition" | "class_definition" if is_field(p, "name", n) => nearest(p, &SCOPES),
        _ => return None,
    };
    if scope.kind() == "function_definition" && declares_global(scope, bytes, name) {
        return None;
    }
    match scope.kind() {
        "function_definition" | "lambda" | "class_definition" => {
            Some((scope, scope.child_by_field_name("body")?.start_byte()))
        }
        _ => whole(scope),
    }
}

/// Whether a Python function's own body declares `name` `global` or `nonlocal`.
fn declares_global(function: Node, bytes: &[u8], name: &str) -> bool {
    let Some(body) = function.child_by_field_name("body") else {
        return false;
    };
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "global_statement" | "nonlocal_statement") {
            let mut c = n.walk();
            if (n.named_children(&mut c)).any(|i| &bytes[i.byte_range()] == name.as_bytes()) {
                return true;
            }
            continue;
        }
        if matches!(n.kind(), "function_definition" | "class_definition") {
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// JavaScript and TypeScript: parameters bind in their function, `var` in the function,
/// `let`/`const`, functions and classes in their block (hoisted: the whole block).
fn ecmascript<'t>(node: Node<'t>, bytes: &[u8]) -> Option<(Node<'t>, usize)> {
    const FUNCTIONS: [&str; 7] = [
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
    ];
    const BLOCKS: [&str; 5] = [
        "statement_block",
        "program",
        "for_statement",
        "for_in_statement",
        "switch_body",
    ];
    let mut n = node;
    let p = loop {
        let p = n.parent()?;
        match p.kind() {
            "object_pattern" | "array_pattern" | "rest_pattern" => n = p,
            "assignment_pattern" if is_field(p, "left", n) => n = p,
            "pair_pattern" if is_field(p, "value", n) => n = p,
            "required_parameter" | "optional_parameter" if is_field(p, "pattern", n) => n = p,
            _ => break p,
        }
    };
    match p.kind() {
        "formal_parameters" => whole(p.parent()?),
        "arrow_function" if is_field(p, "parameter", n) => whole(p),
        "catch_clause" if is_field(p, "parameter", n) => whole(p),
        "variable_declarator" if is_field(p, "name", n) => {
            // `const { g } = require("./b")` is an import.
            let value = p.child_by_field_name("value");
            if value.is_some_and(|v| {
                v.kind() == "call_expression"
                    && v.child_by_field_name("function")
                        .is_some_and(|f| &bytes[f.byte_range()] == b"require")
            }) && p.parent()?.parent()?.kind() == "program"
            {
                return None;
            }
            let declaration = p.parent()?;
            if declaration.kind() == "variable_declaration" {
                let mut fns = FUNCTIONS.to_vec();
                fns.push("program");
                whole(nearest(declaration, &fns))
            } else {
                whole(nearest(declaration, &BLOCKS))
            }
        }
        "for_in_statement" if is_field(p, "left", n) => {
            let mut c = p.walk();
            let declared =
                (p.children(&mut c)).any(|k| matches!(k.kind(), "const" | "let" | "var"));
            declared.then_some((p, p.start_byte()))
        }
        "function_declaration" | "generator_function_declaration" | "class_declaration"
            if is_field(p, "name", n) =>
        {
            let mut scopes = BLOCKS.to_vec();
            scopes.extend(FUNCTIONS);
            whole(nearest(p, &scopes))
        }
        _ => None,
    }
}

/// Rust: a `let` binds from the end of its statement to the end of its block; a parameter in
/// its function or closure; a `for` pattern in the loop's body; an item in its block.
/// Match arms are left out (a bare name there may be a constant).
fn rust(node: Node) -> Option<(Node, usize)> {
    let mut n = node;
    let p = loop {
        let p = n.parent()?;
        match p.kind() {
            "tuple_pattern" | "mut_pattern" | "ref_pattern" | "reference_pattern"
            | "slice_pattern" | "or_pattern" | "captured_pattern" => n = p,
            "tuple_struct_pattern" if !is_field(p, "type", n) => n = p,
            _ => break p,
        }
    };
    match p.kind() {
        "let_declaration" if is_field(p, "pattern", n) => Some((p.parent()?, p.end_byte())),
        "parameter" if is_field(p, "pattern", n) => whole(p.parent()?.parent()?),
        "closure_parameters" => whole(p.parent()?),
        "for_expression" if is_field(p, "pattern", n) => whole(p.child_by_field_name("body")?),
        "let_condition" if is_field(p, "pattern", n) => Some((p.parent()?, p.end_byte())),
        "function_item" | "const_item" | "static_item" if is_field(p, "name", n) => {
            let block = p.parent()?;
            (block.kind() == "block").then_some((block, block.start_byte()))
        }
        _ => None,
    }
}

/// Go: `:=` and `var` in a function bind from the statement's end to the end of the block;
/// parameters and receivers in their function; a `range` clause's names in the loop.
fn go(node: Node) -> Option<(Node, usize)> {
    let p = node.parent()?;
    match p.kind() {
        "expression_list" => {
            let statement = p.parent()?;
            match statement.kind() {
                // `for G := 0; …` binds in the whole loop, whose body is beside the clause.
                "short_var_declaration" if is_field(statement, "left", p) => {
                    let scope = statement.parent()?;
                    let scope = match scope.kind() {
                        "for_clause" => scope.parent()?,
                        _ => scope,
                    };
                    Some((scope, statement.end_byte()))
                }
                "range_clause" if is_field(statement, "left", p) => whole(statement.parent()?),
                _ => None,
            }
        }
        "var_spec" | "const_spec" if is_field(p, "name", node) => {
            let block = nearest(p, &["block", "source_file"]);
            (block.kind() == "block").then_some((block, p.end_byte()))
        }
        "parameter_declaration" | "variadic_parameter_declaration" if is_field(p, "name", node) => {
            whole(p.parent()?.parent()?)
        }
        _ => None,
    }
}

/// Ruby: an assignment makes a name a local variable from there to the end of its method,
/// block or class body; a parameter binds in its method or block.
fn ruby(node: Node) -> Option<(Node, usize)> {
    const SCOPES: [&str; 7] = [
        "method",
        "singleton_method",
        "class",
        "module",
        "block",
        "do_block",
        "lambda",
    ];
    let mut n = node;
    let p = loop {
        let p = n.parent()?;
        match p.kind() {
            "left_assignment_list" | "destructured_left_assignment" | "rest_assignment" => n = p,
            "optional_parameter"
            | "keyword_parameter"
            | "splat_parameter"
            | "hash_splat_parameter"
            | "block_parameter"
                if is_field(p, "name", n) =>
            {
                n = p
            }
            _ => break p,
        }
    };
    match p.kind() {
        "method_parameters" | "block_parameters" | "lambda_parameters" | "parameters" => {
            whole(p.parent()?)
        }
        "assignment" | "operator_assignment" if is_field(p, "left", n) => {
            Some((nearest(p, &SCOPES), p.start_byte()))
        }
        _ => None,
    }
}

/// Java and C#: a parameter binds in its method, constructor or lambda; a local from its
/// declaration to the end of its block; a loop's or a `catch`'s name in the statement.
/// A field's declarator binds nothing (it is the member).
fn java_csharp(node: Node) -> Option<(Node, usize)> {
    let p = node.parent()?;
    match p.kind() {
        "formal_parameter" | "spread_parameter" | "parameter" if is_field(p, "name", node) => {
            whole(p.parent()?.parent()?)
        }
        "inferred_parameters" => whole(p.parent()?),
        "lambda_expression" if is_field(p, "parameters", node) => whole(p),
        "implicit_parameter" => whole(p.parent()?),
        "variable_declarator" if is_field(p, "name", node) => {
            let decl = p.parent()?;
            let statement = match decl.kind() {
                "local_variable_declaration" => decl,
                "variable_declaration" => decl
                    .parent()
                    .filter(|s| s.kind() == "local_declaration_statement")?,
                _ => return None,
            };
            Some((statement.parent()?, p.start_byte()))
        }
        "enhanced_for_statement" if is_field(p, "name", node) => whole(p),
        "foreach_statement" if is_field(p, "left", node) => whole(p),
        "catch_formal_parameter" | "catch_declaration" if is_field(p, "name", node) => {
            whole(p.parent()?)
        }
        "resource" if is_field(p, "name", node) => whole(p.parent()?.parent()?),
        _ => None,
    }
}
