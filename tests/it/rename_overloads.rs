//! `llm patch --rename` of a definition that shares its name with others it must keep sharing
//! it with: a Java, C# or C++ method's overloads (a call's overload is not told apart without
//! types: renaming `g(int)` alone renamed `g("a")` too, and javac failed), a C++ method's
//! declaration in its class and its definition outside it (`void A::g(int) {}` was left), a
//! Rust trait impl's method and its trait's (renamed alone: E0407). Found by an invariant run
//! (rename, then rename back: refused `PATCH_E009`, or the build broke).

use crate::util::TestEnv;

#[test]
fn java_and_csharp_overloads_are_renamed_as_one_and_back() {
    for (file, src, symbol, renamed_symbol, old, new) in [
        (
            "A.java",
            "class A {\n    void g(int x) {}\n    void g(String s) {}\n    void h() { g(1); g(\"a\"); }\n}\n",
            "A.g",
            "A.k",
            "g",
            "k",
        ),
        (
            "A.cs",
            "class A {\n    void G(int x) {}\n    void G(string s) {}\n    void H() { G(1); G(\"a\"); }\n}\n",
            "A.G",
            "A.K",
            "G",
            "K",
        ),
    ] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename_at(file, symbol, "2", new);
        assert_eq!(code, 0, "{v}");
        let want = src
            .replace(&format!("void {old}("), &format!("void {new}("))
            .replace(&format!(" {old}(1); {old}("), &format!(" {new}(1); {new}("));
        assert_eq!(env.text(file), want);
        assert!(
            v["message"].as_str().unwrap().contains("1 other definition"),
            "{v}"
        );
        // …and back, byte for byte (refused `PATCH_E009` when only one overload had moved).
        let (v, code) = env.rename_at(file, renamed_symbol, "2", old);
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text(file), src);
    }
}

#[test]
fn cpp_method_declaration_definition_and_overloads_go_together() {
    let src = "class A {\npublic:\n    void g(int x);\n    void g(const char* s);\n    void h() { g(1); g(\"a\"); }\n};\nvoid A::g(int x) {}\nvoid A::g(const char* s) {}\n";
    let want = "class A {\npublic:\n    void k(int x);\n    void k(const char* s);\n    void h() { k(1); k(\"a\"); }\n};\nvoid A::k(int x) {}\nvoid A::k(const char* s) {}\n";
    // From the declaration in the class, and from a definition outside it.
    for line in ["3", "7"] {
        let env = TestEnv::new();
        env.write("a.cpp", src);
        let (v, code) = env.rename_at("a.cpp", "A::g", line, "k");
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("a.cpp"), want, "from line {line}");
        let (v, code) = env.rename_at("a.cpp", "A::k", "3", "g");
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("a.cpp"), src);
    }
}

#[test]
fn rust_trait_impl_method_is_renamed_from_its_trait() {
    let src = "struct S;\ntrait T { fn f(&self); }\ntrait U { fn f(&self); }\nimpl T for S { fn f(&self) {} }\nimpl U for S { fn f(&self) {} }\nfn m(s: S) { T::f(&s); }\n";
    let want = "struct S;\ntrait T { fn g(&self); }\ntrait U { fn f(&self); }\nimpl T for S { fn g(&self) {} }\nimpl U for S { fn f(&self) {} }\nfn m(s: S) { T::g(&s); }\n";
    let env = TestEnv::new();
    env.write("t.rs", src);
    // Only the impl's `fn f` was renamed: `g` is not a member of trait `T` (E0407).
    let (v, code) = env.rename_at("t.rs", "S::f", "4", "g");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["symbol"]["qualified_name"], "T::f", "{v}");
    assert_eq!(env.text("t.rs"), want);
    // Back (refused `PATCH_E009` before: `f` was S's other trait's).
    let (v, code) = env.rename_at("t.rs", "S::g", "4", "f");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("t.rs"), src);

    // A trait the file does not define: refused, nothing written.
    let env = TestEnv::new();
    let d = "struct S;\nimpl std::fmt::Display for S {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {\n        Ok(())\n    }\n}\n";
    env.write("d.rs", d);
    let (v, code) = env.rename_at("d.rs", "S::fmt", "3", "show");
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E010");
    assert_eq!(env.text("d.rs"), d);
}

/// C: a function or macro defined twice under `#if` branches (`f` a macro in the other), and
/// a prototype: renaming one
/// definition left the other (the other configuration's calls lost it), and the rename back
/// was refused `PATCH_E009` ("already defined").
#[test]
fn c_twins_under_if_branches_and_prototypes_go_together() {
    let src = "int f(int x);\n#ifdef A\n#define M 1\nint f(int x) { return 1; }\n#else\n#define M 2\n#define f(x) (x)\n#endif\nint g(void) { return f(M); }\n";
    for (symbol, line, old, new) in [("f", "4", "f", "h"), ("M", "3", "M", "N")] {
        let env = TestEnv::new();
        env.write("a.c", src);
        let (v, code) = env.rename_at("a.c", symbol, line, new);
        assert_eq!(code, 0, "{v}");
        let want = match old {
            "f" => src.replace("f(", "h("),
            _ => src.replace(" M", " N").replace("(M)", "(N)"),
        };
        assert_eq!(env.text("a.c"), want);
        let (v, code) = env.rename_at("a.c", new, line, old);
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("a.c"), src);
    }
}

/// JavaScript: a getter and its setter are one property; renaming one left the other (the
/// property lost a half), and the rename back was refused `PATCH_E009`.
#[test]
fn a_javascript_getter_and_its_setter_go_together() {
    let src = "class Light {\n  get power() {\n    return this.p;\n  }\n  set power(v) {\n    this.p = v;\n  }\n  dim() {\n    this.power = this.power / 2;\n  }\n}\n";
    let env = TestEnv::new();
    env.write("l.js", src);
    let (v, code) = env.rename_at("l.js", "Light.power", "2", "watts");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("l.js"), src.replace("power", "watts"));
    let (v, code) = env.rename_at("l.js", "Light.watts", "5", "power");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("l.js"), src);
}

/// Rust: a method, a free function and a module's function defined twice under `#[cfg]`
/// (a scope holds one item of a name otherwise). Renaming one left its twin, and a call
/// through `self` inside the impl was left as the twin's: the build broke in either
/// configuration. A trait impl's method of the same name is not a twin.
#[test]
fn rust_cfg_twins_go_together_and_a_trait_impl_item_stays() {
    let src = "pub struct S;\n\nimpl S {\n    #[cfg(unix)]\n    pub fn open(&self) -> u32 {\n        1\n    }\n\n    #[cfg(not(unix))]\n    pub fn open(&self) -> u32 {\n        2\n    }\n\n    pub fn go(&self) -> u32 {\n        self.open()\n    }\n}\n\npub trait T {\n    fn open(&self) -> u32;\n}\n\nstruct U;\n\nimpl T for U {\n    fn open(&self) -> u32 {\n        3\n    }\n}\n\n#[cfg(unix)]\nfn helper() -> u32 { 1 }\n#[cfg(not(unix))]\nfn helper() -> u32 { 2 }\n\n#[cfg(unix)]\nmod imp {\n    pub fn get() -> u32 { 1 }\n}\n#[cfg(not(unix))]\nmod imp {\n    pub fn get() -> u32 { 2 }\n}\n\npub fn run() -> u32 { helper() + S.open() + imp::get() }\n";
    let method = src
        .replacen("pub fn open(&self)", "pub fn open_file(&self)", 2)
        .replace("self.open()", "self.open_file()")
        .replace("S.open()", "S.open_file()");
    for (symbol, line, new, back_line, want) in [
        ("S::open", "10", "open_file", "5", method),
        (
            "helper",
            "32",
            "helper2",
            "34",
            src.replace("helper()", "helper2()"),
        ),
        (
            "imp::get",
            "42",
            "fetch",
            "38",
            src.replace("get()", "fetch()"),
        ),
    ] {
        let env = TestEnv::new();
        env.write("lib.rs", src);
        let (v, code) = env.rename_at("lib.rs", symbol, line, new);
        assert_eq!(code, 0, "{symbol}: {v}");
        assert_eq!(env.text("lib.rs"), want, "{symbol}");
        let renamed = symbol
            .rsplit_once("::")
            .map_or(new.to_string(), |(p, _)| format!("{p}::{new}"));
        let old = symbol.rsplit("::").next().unwrap();
        let (v, code) = env.rename_at("lib.rs", &renamed, back_line, old);
        assert_eq!(code, 0, "{symbol} back: {v}");
        assert_eq!(env.text("lib.rs"), src, "{symbol} back");
    }
}

/// A method that overrides one its class's header names in the file is renamed from the
/// method it overrides, with every override and call (renamed alone, Python and JavaScript
/// ran the base's method instead, javac refused `@Override`, C# `override` and C++ `override`
/// had nothing to override, and a bare call in the subclass was left).
#[test]
fn an_override_is_renamed_from_the_method_it_overrides() {
    for (file, src, symbol, want) in [
        (
            "c.py",
            "class Shape:\n    def area(self):\n        return 0\n\n\nclass Sq(Shape):\n    def area(self):\n        return 4\n\n\ndef total(shapes):\n    return sum(s.area() for s in shapes)\n",
            "Sq.area",
            "class Shape:\n    def surface(self):\n        return 0\n\n\nclass Sq(Shape):\n    def surface(self):\n        return 4\n\n\ndef total(shapes):\n    return sum(s.surface() for s in shapes)\n",
        ),
        (
            "a.cs",
            "class B {\n    public virtual int M() { return 1; }\n}\nclass C : B {\n    public override int M() { return 2; }\n    int G() { return M() + base.M(); }\n}\n",
            "C.M",
            "class B {\n    public virtual int surface() { return 1; }\n}\nclass C : B {\n    public override int surface() { return 2; }\n    int G() { return surface() + base.surface(); }\n}\n",
        ),
        (
            "a.cpp",
            "struct B {\n    virtual int f() { return 1; }\n};\nstruct D : public B {\n    int f() override { return 2; }\n    int g() { return f(); }\n};\n",
            "D::f",
            "struct B {\n    virtual int surface() { return 1; }\n};\nstruct D : public B {\n    int surface() override { return 2; }\n    int g() { return surface(); }\n};\n",
        ),
        (
            "a.ts",
            "class B {\n  m(): number { return 1; }\n}\nclass C extends B {\n  override m(): number { return 2; }\n  g(): number { return this.m(); }\n}\n",
            "C.m",
            "class B {\n  surface(): number { return 1; }\n}\nclass C extends B {\n  override surface(): number { return 2; }\n  g(): number { return this.surface(); }\n}\n",
        ),
        (
            "b.php",
            "<?php\nclass B {\n    public function m() { return 1; }\n}\nclass C extends B {\n    #[\\Override]\n    public function m() { return 2; }\n    public function g() { return $this->m(); }\n}\n",
            "C.m",
            "<?php\nclass B {\n    public function surface() { return 1; }\n}\nclass C extends B {\n    #[\\Override]\n    public function surface() { return 2; }\n    public function g() { return $this->surface(); }\n}\n",
        ),
    ] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename(file, symbol, "surface");
        assert_eq!(code, 0, "{file}: {v}");
        assert_eq!(env.text(file), want, "{file}");
    }
}

/// An override of a method the file does not define (a library's interface), a PHP method of
/// a built-in interface its class implements, and a method the language calls by its name are
/// refused: renamed alone, javac failed (`@Override`), PHP stopped with a fatal error (the
/// class no longer implemented `Countable`), Python no longer called `__getitem__`.
#[test]
fn an_override_of_a_method_the_file_does_not_define_is_refused() {
    for (file, src, symbol, says) in [
        (
            "A.java",
            "class A implements Runnable {\n    @Override\n    public void run() {}\n    void go() { run(); }\n}\n",
            "A.run",
            "`@Override`",
        ),
        (
            "a.cs",
            "class A : System.IDisposable {\n    public override string ToString() { return \"a\"; }\n}\n",
            "A.ToString",
            "`override`",
        ),
        (
            "a.php",
            "<?php\nclass C implements Countable {\n    public function count(): int { return 0; }\n}\necho count(new C());\n",
            "C.count",
            "`Countable::count`",
        ),
        (
            "d.py",
            "class D(dict):\n    def __getitem__(self, k):\n        return 1\n",
            "D.__getitem__",
            "calls by its name",
        ),
    ] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename(file, symbol, "other");
        assert_eq!(code, 2, "{file}: {v}");
        assert_eq!(v["error"]["code"], "PATCH_E010", "{file}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{file}: {message}");
        assert!(v["error"]["remediation"].as_str().unwrap().contains("Nothing was renamed"));
        assert_eq!(env.text(file), src, "{file}");
    }
}
