//! `llm patch --rename` and scopes: another file's own name, a local that shadows the symbol,
//! a new name that is already taken. Each case was found renamed wrongly (and reported `ok`).

use crate::util::{site_class, TestEnv};

#[test]
fn another_files_own_function_and_a_builtin_are_left_alone() {
    let env = TestEnv::new();
    let a = "def g():\n    return 1\n\n\nprint(g())\n";
    env.write("a.py", a);
    env.write("b.py", "def g():\n    return 2\n");
    env.write("c.py", "from b import g\n\nprint(g())\n");
    env.write("d.py", "import b\n\nprint(b.g())\n");
    let (v, code) = env.rename("b.py", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.py"), a, "a.py calls its own g");
    assert_eq!(site_class(&v, "a.py", 5, 6), "excluded");
    assert_eq!(env.text("b.py"), "def h():\n    return 2\n");
    // An import from the defining module ties the name to it.
    assert_eq!(env.text("c.py"), "from b import h\n\nprint(h())\n");
    assert_eq!(site_class(&v, "c.py", 3, 6), "certain");
    assert_eq!(env.text("d.py"), "import b\n\nprint(b.h())\n");
    assert_eq!(site_class(&v, "d.py", 3, 8), "certain");

    // A builtin of the same name in a file that never imported it from the module.
    env.write("m.py", "def open(p):\n    return 1\n");
    let u = "import m\n\nwith open(\"x\") as f:\n    pass\nm.open(1)\n";
    env.write("u.py", u);
    let (v, code) = env.rename("m.py", "open", "open2");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("u.py"), u.replace("m.open(1)", "m.open2(1)"));
    assert_eq!(site_class(&v, "u.py", 3, 5), "excluded");
}

#[test]
fn another_files_own_function_in_javascript_rust_and_ruby() {
    let env = TestEnv::new();
    let a = "function g() { return 1; }\nconsole.log(g());\n";
    env.write("a.js", a);
    env.write("b.js", "export function g() { return 2; }\n");
    env.write("c.js", "import { g } from './b.js';\nconsole.log(g());\n");
    // CommonJS: a `require` of the module imports; another call's result is the file's own.
    env.write("r.js", "const { g } = require('./b');\nconsole.log(g());\n");
    let own = "const { g } = connect('./x');\nconsole.log(g());\n";
    env.write("o.js", own);
    let (v, code) = env.rename("b.js", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.js"), a);
    assert_eq!(env.text("o.js"), own);
    assert_eq!(
        env.text("r.js"),
        "const { h } = require('./b');\nconsole.log(h());\n"
    );
    assert_eq!(
        env.text("c.js"),
        "import { h } from './b.js';\nconsole.log(h());\n"
    );

    let env = TestEnv::new();
    env.write("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    let a = "fn g() {}\nfn main() { g(); }\n";
    env.write("src/a.rs", a);
    env.write("src/b.rs", "pub fn g() {}\n");
    env.write(
        "src/c.rs",
        "use crate::b::g;\nfn k() { g(); crate::b::g(); }\n",
    );
    let (v, code) = env.rename("src/b.rs", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("src/a.rs"), a);
    assert_eq!(
        env.text("src/c.rs"),
        "use crate::b::h;\nfn k() { h(); crate::b::h(); }\n"
    );

    let env = TestEnv::new();
    let a = "def g\n  1\nend\n\nputs g\n";
    env.write("a.rb", a);
    env.write("b.rb", "def g\n  2\nend\n");
    let (v, code) = env.rename("b.rb", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), a);
    assert_eq!(env.text("b.rb"), "def h\n  2\nend\n");
}

#[test]
fn a_local_that_shadows_the_symbol_is_excluded() {
    let env = TestEnv::new();
    let c = "def f(x):\n    g = 10\n    return x + g\n\n\ndef g():\n    return 2\n\n\nprint(f(1), g())\n";
    env.write("c.py", c);
    let (v, code) = env.rename("c.py", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("c.py"),
        c.replace("def g()", "def h()").replace("g())", "h())")
    );
    assert_eq!(site_class(&v, "c.py", 2, 4), "excluded");
    assert_eq!(site_class(&v, "c.py", 3, 15), "excluded");

    // Rust: a `let` shadows from its end on, a parameter in the whole function.
    let rs = "fn g() -> i32 { 2 }\nfn f(g: i32) -> i32 { g }\nfn k() -> i32 { let a = g(); let g = 1; a + g }\n";
    env.write("a.rs", rs);
    let (v, code) = env.rename("a.rs", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("a.rs"),
        "fn h() -> i32 { 2 }\nfn f(g: i32) -> i32 { g }\nfn k() -> i32 { let a = h(); let g = 1; a + g }\n"
    );

    // JavaScript: a parameter and a `const`.
    let js = "function g() { return 2; }\nfunction f(g) { return g; }\nfunction k() { const g = 1; return g; }\ng();\n";
    env.write("a.js", js);
    let (v, code) = env.rename("a.js", "g", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("a.js"),
        js.replace("function g()", "function h()")
            .replace("\ng();", "\nh();")
    );
}

#[test]
fn a_new_name_bound_where_a_site_lies_is_refused() {
    let env = TestEnv::new();
    let c = "def f(h):\n    return h + g()\n\n\ndef g():\n    return 2\n\n\nprint(f(1))\n";
    env.write("c.py", c);
    let (v, code) = env.rename("c.py", "g", "h");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected", "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
    assert_eq!(env.text("c.py"), c);
}

#[test]
fn a_new_name_already_defined_or_used_is_refused() {
    let env = TestEnv::new();
    let py = "def f():\n    return 1\n\n\ndef g():\n    return 2\n\n\nprint(f(), g())\n";
    env.write("a.py", py);
    let rs = "fn f() -> i32 { 1 }\nfn g() -> i32 { 2 }\nfn main() { let _ = f() + g(); }\n";
    env.write("a.rs", rs);
    let k = "def f():\n    return 1\n\n\nprint(f())\n";
    env.write("k.py", k);
    let cls =
        "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n";
    env.write("m.py", cls);
    for (file, symbol, new) in [
        ("a.py", "f", "g"),
        ("a.rs", "f", "g"),
        ("k.py", "f", "print"),
        ("m.py", "A.f", "g"),
    ] {
        let before = env.read(file);
        let (v, code) = env.rename(file, symbol, new);
        assert_eq!(code, 1, "{file}: {v}");
        assert_eq!(v["error"]["code"], "PATCH_E009", "{file}: {v}");
        assert!(
            !v["error"]["remediation"].as_str().unwrap_or("").is_empty(),
            "{v}"
        );
        assert_eq!(env.read(file), before, "{file} unchanged");
    }
}

#[test]
fn names_the_language_allows_are_accepted() {
    let env = TestEnv::new();
    let rb =
        "class A\n  def blank\n    true\n  end\n\n  def use\n    blank && self.blank\n  end\nend\n";
    env.write("a.rb", rb);
    let (v, code) = env.rename("a.rb", "A.blank", "empty?");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), rb.replace("blank", "empty?"));
    let (v, code) = env.rename("a.rb", "A.empty?", "clear!");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), rb.replace("blank", "clear!"));
    // `=` only names a setter.
    let (v, code) = env.rename("a.rb", "A.clear!", "clear=");
    assert_eq!(v["error"]["code"], "PATCH_E006", "{v}");
    assert_eq!(code, 2);

    let rs = "fn pick() -> i32 { 1 }\nfn main() { let _ = pick(); }\n";
    env.write("a.rs", rs);
    let (v, code) = env.rename("a.rs", "pick", "r#match");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rs"), rs.replace("pick", "r#match"));
}

#[test]
fn method_calls_follow_the_class_the_syntax_names() {
    let env = TestEnv::new();
    // C#: the bare call inside the member's own class is the method.
    env.write(
        "r.cs",
        "class A {\n    int Len() { return 0; }\n    int Use() { return Len() + this.Len(); }\n}\n",
    );
    let (v, code) = env.rename("r.cs", "A.Len", "Size");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("r.cs"),
        "class A {\n    int Size() { return 0; }\n    int Use() { return Size() + this.Size(); }\n}\n"
    );
    // Java: …and inside a subclass whose header names the class.
    env.write(
        "A.java",
        "class A {\n    int len() { return 0; }\n}\nclass C extends A {\n    int use() { return len() + this.len() + super.len(); }\n}\n",
    );
    let (v, code) = env.rename("A.java", "A.len", "size");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("A.java"),
        "class A {\n    int size() { return 0; }\n}\nclass C extends A {\n    int use() { return size() + this.size() + super.size(); }\n}\n"
    );
    // Ruby: a bare name in another class's method is that class's.
    let rb = "class A\n  def len\n    0\n  end\n\n  def twice\n    len * 2\n  end\nend\n\nclass B\n  def len\n    1\n  end\n\n  def use\n    len + self.len\n  end\nend\n";
    env.write("r.rb", rb);
    let (v, code) = env.rename("r.rb", "A.len", "size");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("r.rb"),
        rb.replacen("def len", "def size", 1)
            .replace("len * 2", "size * 2")
    );
    // Go: a call on the receiver of a method of another type is that type's.
    let go = "package main\ntype A struct{}\ntype B struct{}\nfunc (a A) Len() int { return 0 }\nfunc (b B) Len() int { return 1 }\nfunc (b B) Use() int { return b.Len() }\nfunc (a *A) Use() int { return a.Len() }\n";
    env.write("r.go", go);
    let (v, code) = env.rename("r.go", "A.Len", "Size");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("r.go"),
        go.replace("func (a A) Len()", "func (a A) Size()")
            .replace("a.Len()", "a.Size()")
    );
}

#[test]
fn self_calls_in_another_files_class_of_the_same_name_go_to_its_own_member() {
    let env = TestEnv::new();
    let class = "class A {\n  m() { return 1; }\n  g() { return this.m(); }\n}\n";
    env.write("p.js", class);
    env.write("q.js", class);
    let py = "class A:\n    def m(self):\n        return 1\n\n    def g(self):\n        return self.m()\n";
    env.write("p.py", py);
    env.write("q.py", py);
    let (v, code) = env.rename("q.js", "A.m", "other");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("q.js"),
        class
            .replace(".m()", ".other()")
            .replace("  m()", "  other()")
    );
    assert_eq!(env.text("p.js"), class, "p.js's A has its own m");
    assert_eq!(site_class(&v, "p.js", 3, 20), "excluded");
    let (v, code) = env.rename("q.py", "A.m", "other");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("q.py"),
        py.replace("m(self)", "other(self)")
            .replace(".m()", ".other()")
    );
    assert_eq!(env.text("p.py"), py, "p.py's A has its own m");
}

#[test]
fn names_beyond_letters_and_digits_and_names_that_are_not_identifiers() {
    let env = TestEnv::new();
    // `$` in JavaScript, a private name stays private, a shell function's `-`.
    env.write("d.js", "function $q() { return 1; }\n$q();\n");
    let (v, code) = env.rename("d.js", "$q", "$r");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("d.js"), "function $r() { return 1; }\n$r();\n");
    let private = "class A {\n  #n() { return 1; }\n  g() { return this.#n(); }\n}\n";
    env.write("p.js", private);
    let (v, code) = env.rename("p.js", "#n", "n2");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("PATCH_E006")),
        "{v}"
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("private"),
        "{v}"
    );
    assert_eq!(env.text("p.js"), private);
    let (v, code) = env.rename("p.js", "#n", "#m");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("p.js"), private.replace("#n", "#m"));
    env.write("s.sh", "my-func() { echo; }\nmy-func\n");
    let (v, code) = env.rename("s.sh", "my-func", "my-fn");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("s.sh"), "my-fn() { echo; }\nmy-fn\n");

    // Operators and conversions are not renamed (they were reported `ok`, 0 sites).
    let cpp = "struct S {\n  operator bool() const { return true; }\n  S operator+(const S& o) const { return o; }\n};\n";
    env.write("a.cpp", cpp);
    let cs = "struct M {\n  public static implicit operator decimal(M m) => 0;\n  public static M operator +(M a, M b) => a;\n  public int this[int i] => i;\n  ~M() {}\n}\n";
    env.write("a.cs", cs);
    env.write("r.rb", "class R\n  def +(o)\n    self\n  end\nend\n");
    for (file, symbol) in [
        ("a.cpp", "operator+"),
        ("a.cpp", "operator bool"),
        ("a.cs", "operator decimal"),
        ("a.cs", "+"),
        ("a.cs", "this"),
        ("a.cs", "~M"),
        ("r.rb", "+"),
    ] {
        let (v, code) = env.rename(file, symbol, "x");
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (2, Some("PATCH_E010")),
            "{file} {symbol}: {v}"
        );
    }
    assert_eq!(env.text("a.cpp"), cpp);
    assert_eq!(env.text("a.cs"), cs);
}

#[test]
fn a_local_that_no_bare_site_meets_and_a_sibling_scopes_function_do_not_block() {
    // Every site of the field is `self.path`: a local `path2` cannot capture it.
    let env = TestEnv::new();
    let rs = "pub struct S {\n    path: u32,\n}\n\nimpl S {\n    pub fn f(&self) -> u32 {\n        let path2 = 1;\n        self.path + path2\n    }\n}\n";
    env.write("s.rs", rs);
    let (v, code) = env.rename("s.rs", "S::path", "path2");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("s.rs"),
        rs.replace("path:", "path2:")
            .replace("self.path", "self.path2")
    );
    let go = "package p\n\ntype S struct {\n\tpath int\n}\n\nfunc (s *S) F() int {\n\tpath2 := 1\n\treturn s.path + path2\n}\n";
    env.write("s.go", go);
    let (v, code) = env.rename("s.go", "S.path", "path2");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("s.go"),
        go.replace("\tpath int", "\tpath2 int")
            .replace("s.path", "s.path2")
    );

    // A test's own function in each callback: renaming one back to the other's name.
    let env = TestEnv::new();
    let tsx = "describe(\"page\", () => {\n  it(\"renders\", () => {\n    function Page() {\n      return <div />;\n    }\n    render(<Page />);\n  });\n\n  it(\"renders again\", () => {\n    function Page() {\n      return <span />;\n    }\n    render(<Page />);\n  });\n});\n";
    env.write("page.test.tsx", tsx);
    let (v, code) = env.patch(&[
        "--file",
        "page.test.tsx",
        "--symbol",
        "Page",
        "--line",
        "10",
        "--rename",
        "Page2",
    ]);
    assert_eq!(code, 0, "{v}");
    let (v, code) = env.rename("page.test.tsx", "Page2", "Page");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("page.test.tsx"), tsx);

    // Each test's own options object: a key of another object is not beside the renamed one.
    let opts = "it(\"one\", () => {\n  useQuery({\n    queryKey: [\"a\"],\n    queryFn: () => 1,\n  });\n});\n\nfunction Page() {\n  useQuery({ queryFn: () => 2 });\n  useQuery({ queryFn: () => 3 });\n}\n";
    env.write("opts.tsx", opts);
    for (symbol, line) in [("queryFn", "4"), ("Page.queryFn", "10")] {
        let (v, code) = env.patch(&[
            "--file", "opts.tsx", "--symbol", symbol, "--line", line, "--rename", "load",
        ]);
        assert_eq!(code, 0, "{v}");
        let back = symbol.replace("queryFn", "load");
        let (v, code) = env.patch(&[
            "--file", "opts.tsx", "--symbol", &back, "--line", line, "--rename", "queryFn",
        ]);
        assert_eq!(code, 0, "{symbol}: {v}");
        assert_eq!(env.text("opts.tsx"), opts);
    }

    // Still refused: the other function in the same callback, a bare site where the local is,
    // another key of the same object.
    let env = TestEnv::new();
    let same = "it(\"one\", () => {\n  function Page() {\n    return 1;\n  }\n  function Page2() {\n    return 2;\n  }\n  Page();\n  Page2();\n});\n";
    env.write("same.tsx", same);
    let (v, code) = env.rename("same.tsx", "Page2", "Page");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
    assert_eq!(env.text("same.tsx"), same);
    let dup = "const o = {\n  a: () => 1,\n  b: () => 2,\n};\n";
    env.write("dup.ts", dup);
    let (v, code) = env.rename("dup.ts", "b", "a");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
    let lit = "pub struct S {\n    path: u32,\n}\n\npub fn f() -> S {\n    let path2 = 1;\n    S { path: path2 }\n}\n";
    env.write("lit.rs", lit);
    // A struct literal's key is no bare name: `S { path2 }` takes the local's value, as before.
    let (v, code) = env.rename("lit.rs", "S::path", "path2");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("lit.rs"),
        "pub struct S {\n    path2: u32,\n}\n\npub fn f() -> S {\n    let path2 = 1;\n    S { path2 }\n}\n"
    );
}

/// A new name is taken only beside the renamed symbol: a member of a same-named type in
/// another module (`string::RegexBuilder` beside `bytes::RegexBuilder`) is not beside it, and
/// a struct's field declared in a function is not captured by the function's parameter of
/// the new name (both were refused `PATCH_E009`, the rename back of an `ok` rename).
#[test]
fn a_same_named_type_elsewhere_or_a_parameter_does_not_take_a_member_name() {
    let env = TestEnv::new();
    let src = "mod string {\n    pub struct B {\n        builder: u8,\n    }\n}\n\nmod bytes {\n    pub struct B {\n        builder2: u8,\n    }\n    impl B {\n        fn get(&self) -> u8 {\n            self.builder2\n        }\n    }\n}\n";
    env.write("b.rs", src);
    let (v, code) = env.rename("b.rs", "bytes::B::builder2", "builder");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("b.rs")).unwrap(),
        src.replace("builder2", "builder")
    );

    let env = TestEnv::new();
    let src = "pub fn bridge<C>(consumer: C) -> usize {\n    return with(Callback { consumer2: consumer });\n\n    struct Callback<C> {\n        consumer2: C,\n    }\n}\n";
    env.write("c.rs", src);
    let (v, code) = env.rename("c.rs", "bridge::Callback::consumer2", "consumer");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("c.rs")).unwrap(),
        "pub fn bridge<C>(consumer: C) -> usize {\n    return with(Callback { consumer });\n\n    struct Callback<C> {\n        consumer: C,\n    }\n}\n"
    );
}

/// A rename that finds no site to rename, its definition included (a Python name an import
/// from another module binds first), is refused `PATCH_E012`: it said `ok … 0 sites`.
#[test]
fn a_rename_with_nothing_to_rename_is_refused() {
    let env = TestEnv::new();
    let src = "try:\n    from _json import make_scanner as c_make_scanner\nexcept ImportError:\n    c_make_scanner = None\n";
    env.write("s.py", src);
    let (v, code) = env.patch(&[
        "--file",
        "s.py",
        "--symbol",
        "c_make_scanner",
        "--line",
        "4",
        "--rename",
        "scanner",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E012", "{v}");
    assert_eq!(env.read("s.py"), src.as_bytes());
}

/// Python: `import time as _time` binds `_time`, and `from time import sleep` nothing of the
/// name: a class `time` of the file is not rebound by them (its definition was `excluded` and
/// the rename said `ok`, renaming only `_time.time()`, a possible site).
#[test]
fn a_python_import_under_another_name_does_not_rebind_the_class() {
    let env = TestEnv::new();
    let src = "import time as _time\nfrom time import sleep\n\n\nclass time:\n    pass\n\n\ndef now():\n    return time()\n";
    env.write("tm.py", src);
    let (v, code) = env.patch(&[
        "--file", "tm.py", "--symbol", "time", "--kind", "class", "--rename", "clock",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("tm.py")).unwrap(),
        "import time as _time\nfrom time import sleep\n\n\nclass clock:\n    pass\n\n\ndef now():\n    return clock()\n"
    );
    // …and back: the module's name in the imports is no use of `time` (refused PATCH_E009).
    let (v, code) = env.patch(&[
        "--file", "tm.py", "--symbol", "clock", "--kind", "class", "--rename", "time",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("tm.py")).unwrap(), src);
}

/// Python: a bare name reaches a member only in its own class's body. Renaming `Value.set`
/// renamed `set` in another class's `value = property(get, set)` (`possible`), and the class
/// no longer loaded; in the owner's body it goes with the method (`certain`).
#[test]
fn a_python_bare_member_name_is_its_own_class_bodys_only() {
    let env = TestEnv::new();
    let src = "class Value:\n    def get(self):\n        return 1\n    def set(self, v):\n        pass\n    value = property(get, set)\n\n\nclass ValueProxy:\n    def get(self):\n        return 2\n    def set(self, v):\n        pass\n    value = property(get, set)\n";
    env.write("m.py", src);
    let (v, code) = env.rename("m.py", "Value.set", "put");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def set", "def put", 1)
        .replacen("get, set)", "get, put)", 1);
    assert_eq!(String::from_utf8(env.read("m.py")).unwrap(), want);
    assert_eq!(site_class(&v, "m.py", 14, 26), "excluded", "{v}");
}

/// Go: a method named like its receiver's type (`func (e *Error) Error()`). Renaming the
/// method renamed the receiver's type and `&Error{…}` too (`possible`), and the package no
/// longer built; renaming the type back onto `Error` was refused `PATCH_E009` (the method is
/// no name of the package).
#[test]
fn a_go_method_named_like_its_type_is_not_the_type() {
    let env = TestEnv::new();
    let src = "package p\n\ntype Error struct {\n\tCode int\n}\n\nfunc (e *Error) Error() string {\n\treturn \"x\"\n}\n\nfunc f() error { return &Error{Code: 1} }\n";
    env.write("e.go", src);
    let (v, code) = env.patch(&[
        "--file",
        "e.go",
        "--symbol",
        "Error.Error",
        "--kind",
        "method",
        "--rename",
        "Message",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("e.go")).unwrap(),
        src.replace(") Error()", ") Message()")
    );
    env.write("e.go", src);
    let (v, code) = env.patch(&[
        "--file", "e.go", "--symbol", "Error", "--kind", "struct", "--rename", "Fault",
    ]);
    assert_eq!(code, 0, "{v}");
    let (v, code) = env.patch(&[
        "--file", "e.go", "--symbol", "Fault", "--kind", "struct", "--rename", "Error",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("e.go")).unwrap(), src);
}

/// C and C++: a prototype or an `extern` variable at file scope declares a name that is no
/// symbol; renaming a function onto it said `ok` (a second `stat` beside `int stat(void);`,
/// and `stat()`'s calls then reached the renamed function, or the types conflicted). A
/// parameter's name in a prototype is no name of the file.
#[test]
fn a_c_prototype_or_extern_declaration_takes_its_name() {
    let src = "int stat(void);\nextern int counter;\nint f(int width);\n\nstatic int statf(int x) { return x; }\n\nint use(void) { return statf(1) + stat() + counter; }\n";
    for file in ["a.c", "a.cpp"] {
        for new in ["stat", "counter"] {
            let env = TestEnv::new();
            env.write(file, src);
            let (v, code) = env.rename(file, "statf", new);
            assert_eq!(code, 1, "{file} {new}: {v}");
            assert_eq!(v["error"]["code"], "PATCH_E009", "{file} {new}: {v}");
            assert!(
                v["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("declared at"),
                "{v}"
            );
            assert_eq!(env.text(file), src);
        }
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename(file, "statf", "width");
        assert_eq!(code, 0, "{file}: {v}");
        assert_eq!(env.text(file), src.replace("statf", "width"));
    }
}

/// C++: a macro of the file takes its name from a function (`static int LIMIT(…)` after
/// `#define LIMIT 10` said `ok`; in C it was refused), and in C from a struct tag too.
#[test]
fn a_c_or_cpp_macro_takes_its_name_from_every_kind() {
    let src = "#define LIMIT 10\n\nstruct box {\n    int size;\n};\n\nstatic int compute(int a) {\n    return a * LIMIT;\n}\n\nint main() {\n    struct box b = {compute(1)};\n    return b.size;\n}\n";
    for (file, symbol) in [("m.cpp", "compute"), ("m.c", "compute"), ("m.c", "box")] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename(file, symbol, "LIMIT");
        assert_eq!(code, 1, "{file} {symbol}: {v}");
        assert_eq!(v["error"]["code"], "PATCH_E009", "{file} {symbol}: {v}");
        assert_eq!(env.text(file), src);
    }
}
