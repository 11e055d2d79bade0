//! `llm patch --rename` of a TypeScript member: the type a declaration writes for a value
//! (`cfg: Config`, `const c = load()` where `function load(): Config`, in the file or imported),
//! and so whether an object literal's or a destructuring pattern's key, or `cfg.timeout`, is a
//! member of the renamed member's type. The rename's classes read it (`classes::syntactic_class`).

use super::classes::{CERTAIN, EXCLUDED};
use crate::lang::symbols::{Symbol, SymbolKind};
use crate::lang::{self, Language};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tree_sitter::{Node, Tree};

/// How far a value's type is followed through other values (`const b = a; const c = b;`).
const DEPTH: usize = 8;

/// What type of a declaration is asked for.
#[derive(Clone, Copy)]
pub(super) enum Asked {
    /// A value's (`export const cfg: Config`).
    Value,
    /// A function's call's result (`export function load(): Config`).
    Returns,
    /// A function's parameter's, by position (`export function apply(c: Config)`).
    Parameter(usize),
}

/// Another module's declaration of a name a file imports: `(module, name, asked)` gives the
/// type written for what is asked of the `name` that `module` exports.
pub(super) type Imported<'a> = dyn Fn(&str, &str, Asked) -> Option<String> + 'a;

/// A TypeScript file's types as the rename of a member of an owner type reads them.
pub(super) struct Types<'a> {
    /// The renamed member's type (`Config`), and the file's types that extend it (`interface
    /// Sub extends Config`, `class C implements Config`), whose member of the name it is.
    owners: Vec<&'a str>,
    language: &'static Language,
    bytes: &'a [u8],
    imported: &'a Imported<'a>,
    /// The whole file's tree: the rename parses only the regions around the name, and a
    /// value's declaration may lie outside them (an import, a function at the top).
    full: &'a OnceCell<Tree>,
}

/// A file the rename reads.
pub(super) struct File<'a> {
    pub(super) language: &'static Language,
    pub(super) bytes: &'a [u8],
    pub(super) syms: &'a [Symbol],
    /// Whether it is the definition's file.
    pub(super) home: bool,
    /// Its whole tree, parsed when first asked for (shared with the rename's other readers).
    pub(super) full: &'a OnceCell<Tree>,
}

impl<'a> Types<'a> {
    /// The types of a TypeScript file for renaming a member of `owner` (`subtypes`: the file's
    /// types that extend it). `None` for another language, or a file that defines a type of
    /// the owner's name of its own (it reads the name as that one).
    pub(super) fn of(
        file: File<'a>,
        owner: &'a str,
        subtypes: &[&'a str],
        imported: &'a Imported<'a>,
    ) -> Option<Self> {
        let own = !file.home
            && (file.syms.iter()).any(|m| {
                m.name == owner
                    && m.parent_index.is_none()
                    && matches!(
                        m.kind,
                        SymbolKind::Class | SymbolKind::Interface | SymbolKind::Type
                    )
            });
        if own || !matches!(file.language.name, "typescript" | "tsx") {
            return None;
        }
        Some(Types {
            owners: std::iter::once(owner)
                .chain(subtypes.iter().copied())
                .collect(),
            language: file.language,
            bytes: file.bytes,
            imported,
            full: file.full,
        })
    }

    fn node(&self, range: Range<usize>) -> Option<Node<'_>> {
        let tree = self.full.get_or_init(|| self.language.parse(self.bytes));
        tree.root_node()
            .descendant_for_byte_range(range.start, range.end)
    }

    /// Whether the key at `range` (a pair's key, a shorthand property, a pattern's `{ g = 1 }`)
    /// is in an object literal or a destructuring pattern whose type is written as the owner:
    /// `const t: Test = { ready: false }`, `{ … } as Test`, `satisfies Test`, a parameter's
    /// `({ title }: Props)`, `const { title } = props` where `props: Props`, `return { … }` in a
    /// function declared `: Test`, an argument to a function of the file whose parameter is
    /// declared `Test`. The key is then the owner's member (renaming the field left it: tsc
    /// failed, TS2353).
    pub(super) fn key(&self, range: Range<usize>) -> bool {
        let Some(node) = self.node(range) else {
            return false;
        };
        let mut object = match node.kind() {
            "shorthand_property_identifier" | "shorthand_property_identifier_pattern" => {
                node.parent()
            }
            _ => node.parent().and_then(|p| p.parent()),
        };
        // `{ timeout = 3 }`: a default's pattern is in the object's.
        if object.is_some_and(|o| o.kind() == "object_assignment_pattern") {
            object = object.and_then(|o| o.parent());
        }
        object
            .filter(|o| matches!(o.kind(), "object" | "object_pattern"))
            .and_then(|o| self.object_type(o))
            .is_some_and(|t| self.is_owner(&t))
    }

    /// `q.name` at `range` through a value whose type is written: the owner's member where it
    /// is the owner (`cfg: Config`), another's where it is an object type of its own (`opts: {
    /// timeout: number }`). `None`: not written, or another named type (perhaps the owner's
    /// subtype).
    pub(super) fn receiver(&self, range: Range<usize>) -> Option<&'static str> {
        let node = self.node(range)?;
        let access = node.parent().filter(|p| p.kind() == "member_expression")?;
        if access.child_by_field_name("property") != Some(node) {
            return None;
        }
        let written = self.value_type(access.child_by_field_name("object")?, DEPTH)?;
        if self.is_owner(&written) {
            Some(CERTAIN)
        } else if written.starts_with('{') && written.ends_with('}') {
            Some(EXCLUDED)
        } else {
            None
        }
    }

    /// Whether a written type is the owner or one that extends it: `Config`, `ns.Config`,
    /// `Config<T>`.
    fn is_owner(&self, written: &str) -> bool {
        let head = written.split('<').next().unwrap_or(written).trim();
        let head = head.rsplit('.').next().unwrap_or(head);
        self.owners.contains(&head)
    }

    fn text(&self, node: Node) -> String {
        String::from_utf8_lossy(&self.bytes[node.byte_range()]).into_owned()
    }

    /// A type annotation's type (`: Config` is `Config`).
    fn written(&self, annotation: Node) -> String {
        let text = self.text(annotation);
        text.trim_start_matches(':').trim().to_string()
    }

    /// The type written for an object literal or pattern by what holds it.
    fn object_type(&self, object: Node) -> Option<String> {
        // `({ … })`, `({ … }) as T`: the parentheses add nothing.
        let mut object = object;
        while let Some(p) = object
            .parent()
            .filter(|p| p.kind() == "parenthesized_expression")
        {
            object = p;
        }
        let holder = object.parent()?;
        match holder.kind() {
            "variable_declarator" => match holder.child_by_field_name("type") {
                Some(t) => Some(self.written(t)),
                // `const { timeout } = cfg`: the value's type.
                None if holder.child_by_field_name("name") == Some(object) => {
                    self.value_type(holder.child_by_field_name("value")?, DEPTH)
                }
                None => None,
            },
            "required_parameter" | "optional_parameter" => {
                holder.child_by_field_name("type").map(|t| self.written(t))
            }
            "as_expression" | "satisfies_expression" if holder.named_child(0) == Some(object) => {
                holder.named_child(1).map(|t| self.text(t))
            }
            "return_statement" => {
                let function = ancestors(holder).find(|a| function_like(a.kind()))?;
                self.returns(function)
            }
            // `(): Config => ({ … })`.
            "arrow_function" if holder.child_by_field_name("body") == Some(object) => {
                self.returns(holder)
            }
            // `z = { … }` where `let z: Config`.
            "assignment_expression" if holder.child_by_field_name("right") == Some(object) => {
                self.value_type(holder.child_by_field_name("left")?, DEPTH)
            }
            "arguments" => self.argument_type(holder, object),
            _ => None,
        }
    }

    /// The type of the parameter an argument is passed to, for a function of the file or one
    /// it imports called by its name (`g({ … })` where `function g(c: Config)`).
    fn argument_type(&self, arguments: Node, argument: Node) -> Option<String> {
        let call = arguments
            .parent()
            .filter(|c| c.kind() == "call_expression")?;
        let callee = call
            .child_by_field_name("function")
            .filter(|f| f.kind() == "identifier")?;
        let position = named(arguments).position(|a| a == argument)?;
        let decl = self.declaration(&self.text(callee), callee)?;
        let function = match decl.kind() {
            "variable_declarator" => decl
                .child_by_field_name("value")
                .filter(|v| function_like(v.kind()))?,
            "import_specifier" => return self.import(decl, Asked::Parameter(position)),
            k if function_like(k) => decl,
            _ => return None,
        };
        parameter_type(function, position).map(|t| self.written(t))
    }

    /// The type written for the value of an expression: a name's declared type (a parameter's,
    /// a variable's, or its value's), a call's of a function declared with its return type,
    /// `x as T`, `x!`, `(x)`.
    fn value_type(&self, expr: Node, depth: usize) -> Option<String> {
        let depth = depth.checked_sub(1)?;
        match expr.kind() {
            "parenthesized_expression" | "non_null_expression" => {
                self.value_type(expr.named_child(0)?, depth)
            }
            "as_expression" | "satisfies_expression" => expr.named_child(1).map(|t| self.text(t)),
            "identifier" => {
                let name = self.text(expr);
                let decl = self.declaration(&name, expr)?;
                match decl.kind() {
                    "required_parameter" | "optional_parameter" => {
                        decl.child_by_field_name("type").map(|t| self.written(t))
                    }
                    "variable_declarator" => match decl.child_by_field_name("type") {
                        Some(t) => Some(self.written(t)),
                        None => self.value_type(decl.child_by_field_name("value")?, depth),
                    },
                    "import_specifier" => self.import(decl, Asked::Value),
                    _ => None,
                }
            }
            "call_expression" => {
                let callee = expr
                    .child_by_field_name("function")
                    .filter(|f| f.kind() == "identifier")?;
                let decl = self.declaration(&self.text(callee), callee)?;
                match decl.kind() {
                    "variable_declarator" => self.returns(
                        decl.child_by_field_name("value")
                            .filter(|v| function_like(v.kind()))?,
                    ),
                    "import_specifier" => self.import(decl, Asked::Returns),
                    k if function_like(k) => self.returns(decl),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A function's written return type (`function load(): Config`).
    fn returns(&self, function: Node) -> Option<String> {
        function
            .child_by_field_name("return_type")
            .map(|t| self.written(t))
    }

    /// The imported declaration's type, through the module the import names.
    fn import(&self, specifier: Node, asked: Asked) -> Option<String> {
        let statement = ancestors(specifier).find(|a| a.kind() == "import_statement")?;
        let source = statement.child_by_field_name("source")?;
        let module = self.text(source);
        let module = module.trim_matches(|c| c == '"' || c == '\'' || c == '`');
        let name = self.text(specifier.child_by_field_name("name")?);
        (self.imported)(module, &name, asked)
    }

    /// The declaration `name` at `from` is bound by: the nearest scope's parameter, variable,
    /// function or import of that name.
    fn declaration<'t>(&self, name: &str, from: Node<'t>) -> Option<Node<'t>> {
        for scope in ancestors(from) {
            if function_like(scope.kind()) {
                if let Some(p) = self.parameter(scope, name) {
                    return Some(p);
                }
            }
            if let Some(d) = named(scope).find_map(|c| self.declares(c, name)) {
                return Some(d);
            }
        }
        None
    }

    /// The parameter of `function` named `name` (a plain name, not a pattern).
    fn parameter<'t>(&self, function: Node<'t>, name: &str) -> Option<Node<'t>> {
        if let Some(p) = function.child_by_field_name("parameter") {
            return (self.text(p) == name).then_some(p);
        }
        named(function.child_by_field_name("parameters")?).find(|p| {
            p.child_by_field_name("pattern")
                .is_some_and(|n| n.kind() == "identifier" && self.text(n) == name)
        })
    }

    /// The declaration of `name` that the statement `node` makes, if any.
    fn declares<'t>(&self, node: Node<'t>, name: &str) -> Option<Node<'t>> {
        let is = |n: Option<Node>| n.is_some_and(|n| self.text(n) == name);
        match node.kind() {
            "lexical_declaration" | "variable_declaration" => named(node)
                .filter(|d| d.kind() == "variable_declarator")
                .find(|d| is(d.child_by_field_name("name"))),
            "function_declaration" if is(node.child_by_field_name("name")) => Some(node),
            "export_statement" => self.declares(node.child_by_field_name("declaration")?, name),
            "import_statement" => {
                let clause = named(node).find(|c| c.kind() == "import_clause")?;
                let names = named(clause).find(|c| c.kind() == "named_imports")?;
                named(names)
                    .filter(|s| s.kind() == "import_specifier")
                    .find(|s| {
                        is(s.child_by_field_name("alias")
                            .or(s.child_by_field_name("name")))
                    })
            }
            _ => None,
        }
    }
}

/// How the rename reads a file (from disk, or as an `llm apply` batch staged it).
type Read<'r> = dyn FnMut(&Path) -> Option<Vec<u8>> + 'r;

/// A module's tree and bytes.
type Parsed = (Tree, Vec<u8>);

/// The modules a rename's files import, read (as the rename reads files) and parsed once.
pub(super) struct Modules<'r> {
    read: RefCell<&'r mut Read<'r>>,
    /// Each path tried: its tree and bytes, or `None` (no TypeScript file there).
    parsed: RefCell<HashMap<PathBuf, Option<Parsed>>>,
}

impl<'r> Modules<'r> {
    pub(super) fn new(read: &'r mut Read<'r>) -> Self {
        Modules {
            read: RefCell::new(read),
            parsed: RefCell::new(HashMap::new()),
        }
    }

    /// Reads a file as the rename reads files (for the other readers beside these modules:
    /// C and C++ headers, see `headers.rs`).
    pub(super) fn read(&self, path: &Path) -> Option<Vec<u8>> {
        (self.read.borrow_mut())(path)
    }

    /// The type `module`, imported by the file at `from`, writes for `name` (see
    /// [`exported`]); `None` where the module is no TypeScript file found.
    pub(super) fn declared(
        &self,
        from: &Path,
        module: &str,
        name: &str,
        asked: Asked,
    ) -> Option<String> {
        let mut parsed = self.parsed.borrow_mut();
        for p in module_paths(from, module) {
            let entry = parsed.entry(p.clone()).or_insert_with(|| {
                let l = lang::for_path(&p).filter(|l| matches!(l.name, "typescript" | "tsx"))?;
                let b = (self.read.borrow_mut())(&p)?;
                Some((l.parse(&b), b))
            });
            if let Some((t, b)) = entry {
                return exported(t, b, name, asked);
            }
        }
        None
    }
}

/// In another module's `tree`, the type written for its top-level `name` (`export const cfg:
/// Config`), or for its call's result or parameter (`export function load(): Config`, `export
/// const load = (c: Config): Config => …`).
fn exported(tree: &Tree, bytes: &[u8], name: &str, asked: Asked) -> Option<String> {
    let text = |n: Node| String::from_utf8_lossy(&bytes[n.byte_range()]).into_owned();
    let written = |n: Node| text(n).trim_start_matches(':').trim().to_string();
    let root = tree.root_node();
    let decls = named(root).map(|c| match c.kind() {
        "export_statement" => c.child_by_field_name("declaration").unwrap_or(c),
        _ => c,
    });
    for d in decls {
        let is = |n: Option<Node>| n.is_some_and(|n| text(n) == name);
        let function = match d.kind() {
            "function_declaration" if is(d.child_by_field_name("name")) => d,
            "lexical_declaration" | "variable_declaration" => {
                let Some(v) = named(d)
                    .filter(|v| v.kind() == "variable_declarator")
                    .find(|v| is(v.child_by_field_name("name")))
                else {
                    continue;
                };
                if let Asked::Value = asked {
                    return v.child_by_field_name("type").map(written);
                }
                v.child_by_field_name("value")
                    .filter(|f| function_like(f.kind()))?
            }
            _ => continue,
        };
        return match asked {
            Asked::Returns => function.child_by_field_name("return_type").map(written),
            Asked::Parameter(i) => parameter_type(function, i).map(written),
            Asked::Value => None,
        };
    }
    None
}

/// Where a module named by a relative import (`./types`, `../api.js`) may be, from the
/// importing file: the path as written, with `.ts`, `.tsx`, `.d.ts`, or as a directory's
/// `index.ts`/`index.tsx`; a `.js` name may stand for a `.ts` file.
fn module_paths(from: &Path, module: &str) -> Vec<PathBuf> {
    if !module.starts_with('.') {
        return Vec::new();
    }
    let base = from.parent().unwrap_or(Path::new("")).join(module);
    let stem = base.to_string_lossy().into_owned();
    let mut out: Vec<PathBuf> = Vec::new();
    for tail in [".ts", ".tsx", ".d.ts", "/index.ts", "/index.tsx"] {
        out.push(format!("{stem}{tail}").into());
    }
    for js in [".js", ".jsx", ".mjs"] {
        if let Some(s) = stem.strip_suffix(js) {
            out.push(format!("{s}.ts").into());
            out.push(format!("{s}.tsx").into());
        }
    }
    out.push(base);
    out
}

/// The type annotation of a function's parameter at `position` (a required one).
fn parameter_type(function: Node, position: usize) -> Option<Node> {
    let parameter = named(function.child_by_field_name("parameters")?).nth(position)?;
    parameter
        .child_by_field_name("type")
        .filter(|_| parameter.kind() == "required_parameter")
}

fn ancestors(node: Node) -> impl Iterator<Item = Node> {
    std::iter::successors(node.parent(), |n| n.parent())
}

/// A node's named children, comments aside.
fn named(node: Node) -> impl Iterator<Item = Node> {
    (0..node.named_child_count() as u32)
        .filter_map(move |i| node.named_child(i))
        .filter(|c| c.kind() != "comment")
}

fn function_like(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration"
            | "generator_function"
    )
}
