//! `llm patch --rename` on a semver-like crate and Python classes: sites classified certain,
//! possible or excluded; comments and strings reported as leftovers.

use crate::util::TestEnv;

// ---- precise rename (a semver-like crate) ----

const SV_IDENTIFIER: &str = r#"//! Compact storage of identifiers.
//!
//! ```
//! let id = unsafe { Identifier::new_unchecked("alpha") };
//! assert_eq!(id.as_str(), "alpha");
//! ```

use core::num::NonZeroUsize;
use core::ptr::NonNull;

pub(crate) struct Identifier {
    head: NonNull<u8>,
    tail: [u8; 8],
}

impl Identifier {
    pub(crate) const fn empty() -> Self {
        // This is the empty identifier; see `new_unchecked` for the others.
        let head = unsafe { NonNull::new_unchecked(usize::MAX as *mut u8) };
        Identifier { head, tail: [!0; 8] }
    }

    /// Safety: `string` must be ASCII. Calls `Identifier::new_unchecked` recursively? No.
    pub(crate) unsafe fn new_unchecked(string: &str) -> Self {
        let len = NonZeroUsize::new_unchecked(string.len());
        let ptr = NonNull::new_unchecked(string.as_ptr() as *mut u8);
        let _ = len;
        Identifier { head: ptr, tail: [0; 8] }
    }

    pub(crate) fn as_str(&self) -> &str {
        "x"
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.as_str().is_empty()
    }

    pub(crate) fn clone_it(&self) -> Self {
        unsafe { Self::new_unchecked(self.as_str()) }
    }
}
"#;
const SV_LIB: &str = r#"mod identifier;
mod parse;

use crate::identifier::Identifier;

pub struct Prerelease {
    identifier: Identifier,
}

pub struct BuildMetadata {
    identifier: Identifier,
}

impl Prerelease {
    pub fn new(text: &str) -> Self {
        Prerelease { identifier: unsafe { Identifier::new_unchecked(text) } }
    }

    /// Returns the text, as `Identifier::as_str` does.
    pub fn as_str(&self) -> &str {
        self.identifier.as_str()
    }

    pub fn is_empty(&self) -> bool {
        self.as_str().is_empty()
    }
}

impl BuildMetadata {
    pub fn as_str(&self) -> &str {
        self.identifier.as_str()
    }
}

pub fn describe(p: &Prerelease) -> String {
    format!("as_str: {}", p.as_str())
}
"#;
const SV_PARSE: &str = r#"use crate::identifier::Identifier;

pub(crate) fn identifier(input: &str) -> Identifier {
    // new_unchecked is fine here: the input was checked.
    unsafe { Identifier::new_unchecked(input) }
}
"#;

fn semver_like() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        "Cargo.toml",
        "[package]\nname = \"sv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    env.write("src/identifier.rs", SV_IDENTIFIER);
    env.write("src/lib.rs", SV_LIB);
    env.write("src/parse.rs", SV_PARSE);
    env
}

fn sites(v: &serde_json::Value, class: &str) -> Vec<(String, u64)> {
    v["result"]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["class"] == class)
        .map(|s| {
            (
                s["span"]["file_path"].as_str().unwrap().to_string(),
                s["span"]["start_line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn rename_leaves_other_types_paths_alone() {
    let env = semver_like();
    let (v, code) = env.rename(
        "src/identifier.rs",
        "Identifier::new_unchecked",
        "new_unchecked_str",
    );
    assert_eq!(code, 0, "{v}");
    let id = String::from_utf8(env.read("src/identifier.rs")).unwrap();
    assert!(
        id.contains("NonNull::new_unchecked(usize::MAX as *mut u8)"),
        "{id}"
    );
    assert!(
        id.contains("NonZeroUsize::new_unchecked(string.len())"),
        "{id}"
    );
    assert!(
        id.contains("NonNull::new_unchecked(string.as_ptr() as *mut u8)"),
        "{id}"
    );
    assert!(
        id.contains("pub(crate) unsafe fn new_unchecked_str(string: &str)"),
        "{id}"
    );
    assert!(
        id.contains("Self::new_unchecked_str(self.as_str())"),
        "{id}"
    );
    assert!(String::from_utf8(env.read("src/lib.rs"))
        .unwrap()
        .contains("Identifier::new_unchecked_str(text)"));
    assert!(String::from_utf8(env.read("src/parse.rs"))
        .unwrap()
        .contains("Identifier::new_unchecked_str(input)"));
    assert_eq!(sites(&v, "excluded").len(), 3, "{v}");
    assert_eq!(sites(&v, "certain").len(), 4, "{v}");
    // The doc comment's doctest and the comments are reported, not rewritten.
    let left = v["result"]["leftovers"].as_array().unwrap();
    assert_eq!(left.len(), 4, "{v}");
    assert!(left
        .iter()
        .all(|l| l["kind"] == "comment" && l["renamed"] == false));
    assert!(id.contains("Identifier::new_unchecked(\"alpha\")"));
    assert!(
        v["message"].as_str().unwrap().contains("--in-comments"),
        "{v}"
    );
}

#[test]
fn rename_does_not_touch_other_types_definitions() {
    let env = semver_like();
    let (v, code) = env.rename("src/identifier.rs", "Identifier::as_str", "as_text");
    assert_eq!(code, 0, "{v}");
    let lib = String::from_utf8(env.read("src/lib.rs")).unwrap();
    assert_eq!(
        lib.matches("pub fn as_str(&self) -> &str").count(),
        2,
        "{lib}"
    );
    // Receivers of unknown type are `possible` and renamed by default…
    assert_eq!(lib.matches("self.identifier.as_text()").count(), 2, "{lib}");
    // …`self.as_str()` inside another type's impl is that type's method.
    assert!(lib.contains("self.as_str().is_empty()"), "{lib}");
    let id = String::from_utf8(env.read("src/identifier.rs")).unwrap();
    assert!(
        id.contains("fn as_text(&self)") && id.contains("self.as_text().is_empty()"),
        "{id}"
    );
    let excluded = sites(&v, "excluded");
    assert!(
        excluded.contains(&("src/lib.rs".to_string(), 20))
            && excluded.contains(&("src/lib.rs".to_string(), 30)),
        "{excluded:?}"
    );
}

#[test]
fn rename_certain_only_and_in_comments() {
    let env = semver_like();
    let (v, code) = env.patch(&[
        "--file",
        "src/identifier.rs",
        "--symbol",
        "Identifier::as_str",
        "--rename",
        "as_text",
        "--certain-only",
        "--in-comments",
    ]);
    assert_eq!(code, 0, "{v}");
    let lib = String::from_utf8(env.read("src/lib.rs")).unwrap();
    assert_eq!(lib.matches("self.identifier.as_str()").count(), 2, "{lib}");
    assert!(lib.contains("as `Identifier::as_text` does"), "{lib}");
    // Strings stay without --in-strings.
    assert!(lib.contains("\"as_str: {}\""), "{lib}");
    let id = String::from_utf8(env.read("src/identifier.rs")).unwrap();
    assert!(
        id.contains("//! assert_eq!(id.as_text(), \"alpha\");"),
        "{id}"
    );
    assert!(sites(&v, "possible").iter().all(|_| true));
    assert!(v["result"]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["class"] != "possible" || s["renamed"] == false));
}

#[test]
fn python_rename_through_self_and_other_classes() {
    let env = TestEnv::new();
    env.write(
        "shapes.py",
        "class Circle:\n    def area(self):\n        return 3\n\n    def twice(self):\n        return 2 * self.area()\n\n\nclass Square:\n    def area(self):\n        return 4\n\n    def twice(self):\n        return 2 * self.area()\n\n\ndef total(c, s):\n    \"\"\"Sum of area() of both.\"\"\"\n    return Circle.area(c) + s.area()\n",
    );
    let (v, code) = env.patch(&[
        "--file",
        "shapes.py",
        "--symbol",
        "Circle.area",
        "--rename",
        "surface",
        "--in-strings",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("shapes.py")).unwrap(),
        "class Circle:\n    def surface(self):\n        return 3\n\n    def twice(self):\n        return 2 * self.surface()\n\n\nclass Square:\n    def area(self):\n        return 4\n\n    def twice(self):\n        return 2 * self.area()\n\n\ndef total(c, s):\n    \"\"\"Sum of surface() of both.\"\"\"\n    return Circle.surface(c) + s.surface()\n"
    );
    assert_eq!(v["result"]["leftovers"][0]["kind"], "string");
}

#[test]
fn a_missing_in_path_stops_the_rename() {
    let env = TestEnv::new();
    let src = "fn alpha() {}\nfn main() {\n    alpha();\n}\n";
    env.write("a.rs", src);
    let (v, code) = env.json(&[
        "patch", "--file", "a.rs", "--symbol", "alpha", "--rename", "beta", "--in", "nope",
        "--json",
    ]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "LLM_E004", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("nope"),
        "{v}"
    );
    assert_eq!(env.read("a.rs"), src.as_bytes());
}

/// Renames `symbol` (of `kind`) in `file` to `new`; the files' contents after it.
fn renamed(env: &TestEnv, file: &str, symbol: &str, kind: &str, new: &str) -> String {
    let (v, code) = env.patch(&[
        "--file", file, "--symbol", symbol, "--kind", kind, "--rename", new,
    ]);
    assert_eq!(code, 0, "{v}");
    String::from_utf8(env.read(file)).unwrap()
}

#[test]
fn renames_follow_what_the_syntax_says_a_name_is() {
    // Found by a correctness run: each of these was renamed (or left) wrongly.
    let env = TestEnv::new();
    // Python: `timeout=` in a call names the callee's parameter.
    env.write("cfg.py", "def timeout():\n    return 5\n");
    env.write(
        "run.py",
        "import subprocess\nfrom cfg import timeout\n\n\ndef go():\n    return subprocess.run([\"true\"], timeout=timeout())\n",
    );
    renamed(&env, "cfg.py", "timeout", "function", "default_timeout");
    assert_eq!(
        String::from_utf8(env.read("run.py")).unwrap(),
        "import subprocess\nfrom cfg import default_timeout\n\n\ndef go():\n    return subprocess.run([\"true\"], timeout=default_timeout())\n"
    );
    // …but a dataclass field's keyword in its constructor call is the field.
    env.write(
        "d.py",
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    x: int\n\n\np = Point(x=1)\nprint(p.x)\n",
    );
    assert_eq!(
        renamed(&env, "d.py", "Point.x", "field", "px"),
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    px: int\n\n\np = Point(px=1)\nprint(p.px)\n"
    );
    // TypeScript: a key stays a key; a shorthand keeps its key and takes the new value.
    env.write(
        "a.ts",
        "export function load(p: string) { return p; }\nexport const api = { load, other: 1 };\nexport const cfg = { load: 5 };\n",
    );
    assert_eq!(
        renamed(&env, "a.ts", "load", "function", "fetchData"),
        "export function fetchData(p: string) { return p; }\nexport const api = { load: fetchData, other: 1 };\nexport const cfg = { load: 5 };\n"
    );
    // Rust: a getter and its field share a name; a parameter and a shorthand are neither.
    let rs = "pub struct User { name: String }\nimpl User {\n    pub fn new(name: String) -> Self { User { name } }\n    pub fn name(&self) -> &str { &self.name }\n}\n";
    env.write("lib.rs", rs);
    assert_eq!(
        renamed(&env, "lib.rs", "User::name", "method", "display_name"),
        rs.replace("pub fn name(", "pub fn display_name(")
    );
    env.write("lib.rs", rs);
    assert_eq!(
        renamed(&env, "lib.rs", "User::name", "field", "full_name"),
        "pub struct User { full_name: String }\nimpl User {\n    pub fn new(name: String) -> Self { User { full_name: name } }\n    pub fn name(&self) -> &str { &self.full_name }\n}\n"
    );
    // Rust: a trait method's implementations and its calls on `self` go with it; another
    // type's inherent method of the same name stays.
    let tr = "pub trait Shape {\n    fn area(&self) -> f64;\n}\npub struct Sq(f64);\nimpl Shape for Sq {\n    fn area(&self) -> f64 { self.0 }\n}\nimpl Sq {\n    pub fn twice(&self) -> f64 { self.area() * 2.0 }\n}\npub struct Other;\nimpl Other {\n    pub fn area(&self) -> f64 { 1.0 }\n}\n";
    env.write("shape.rs", tr);
    assert_eq!(
        renamed(&env, "shape.rs", "Shape::area", "method", "surface"),
        tr.replacen("fn area", "fn surface", 2)
            .replace("self.area()", "self.surface()")
    );
    // Python and Java: a subclass's override and its calls on `self`/`this` go with the base
    // method (left, the program ran the base's method silently); another class's stays.
    let py = "class Base:\n    def area(self):\n        return 0\n\n    def report(self):\n        return self.area()\n\n\nclass Sq(Base):\n    def area(self):\n        return 4\n\n    def twice(self):\n        return self.area() * 2\n\n\nclass Other:\n    def area(self):\n        return 9\n";
    env.write("shapes.py", py);
    assert_eq!(
        renamed(&env, "shapes.py", "Base.area", "method", "surface"),
        py.replacen("def area", "def surface", 2)
            .replace("self.area()", "self.surface()")
    );
    let java = "class Base { int area() { return 0; } int report() { return this.area(); } }\nclass Sq extends Base { int area() { return 4; } }\nclass Other { int area() { return 9; } }\n";
    env.write("Base.java", java);
    assert_eq!(
        renamed(&env, "Base.java", "Base.area", "method", "surface"),
        java.replacen("int area()", "int surface()", 2)
            .replace("this.area()", "this.surface()")
    );
    // Rust: inline format arguments name the constant (`{{LIMIT}}` and prose do not).
    env.write(
        "fmt.rs",
        "const LIMIT: usize = 3;\nfn f() { println!(\"{LIMIT} {LIMIT:>4} {{LIMIT}} LIMIT\"); }\n",
    );
    assert_eq!(
        renamed(&env, "fmt.rs", "LIMIT", "const", "MAX"),
        "const MAX: usize = 3;\nfn f() { println!(\"{MAX} {MAX:>4} {{LIMIT}} LIMIT\"); }\n"
    );
    // JavaScript: `A.load` through `import * as A` is the module's function.
    env.write("a.js", "export function load(x) { return x; }\n");
    env.write(
        "b.js",
        "import * as A from \"./a.js\";\nconsole.log(A.load(2));\n",
    );
    renamed(&env, "a.js", "load", "function", "fetchIt");
    assert_eq!(
        String::from_utf8(env.read("b.js")).unwrap(),
        "import * as A from \"./a.js\";\nconsole.log(A.fetchIt(2));\n"
    );
    // Java: the bare call inside the class is the method; the bare name the field.
    let java = "class A { int size; int size(){ return size; } int twice(){ return size()*2; } }\nclass B { int size; int get(){ return this.size; } }\n";
    env.write("A.java", java);
    assert_eq!(
        renamed(&env, "A.java", "A.size", "method", "count"),
        java.replace("int size(){", "int count(){")
            .replace("size()*2", "count()*2")
    );
    // PHP: `$this->name` is the property and `$name` a variable, not the method.
    let php = "<?php\nclass User {\n    public $name;\n    public function __construct(string $name) { $this->name = $name; }\n    public function name(): string { return $this->name; }\n}\n";
    env.write("a.php", php);
    assert_eq!(
        renamed(&env, "a.php", "User::name", "method", "label"),
        php.replace("function name()", "function label()")
    );
    // C: `l->count` and `q.count` are fields, not the function.
    let c = "struct L { int count; };\nint count(struct L *l) { return l->count; }\nint main(void) { struct L q; q.count = 1; return count(&q); }\n";
    env.write("a.c", c);
    assert_eq!(
        renamed(&env, "a.c", "count", "function", "total"),
        c.replace("int count(struct", "int total(struct")
            .replace("return count(&q)", "return total(&q)")
    );
}
