//! `llm patch --rename` and what a word is where it stands: a Bash command's argument, a
//! destructured local, a class attribute. Each case was renamed wrongly and reported `ok` by an
//! adversarial run; where the interpreter is one CI installs, the program runs before and after
//! and must print the same.

use crate::util::{site_class, TestEnv};

/// What `program file` prints (stdout and stderr) in the fixture's directory.
fn run(env: &TestEnv, program: &str, file: &str) -> String {
    let out = std::process::Command::new(program)
        .arg(file)
        .current_dir(env.path())
        .output()
        .unwrap_or_else(|e| panic!("{program} is needed to run {file}: {e}"));
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn bash_renames_command_names_not_arguments_or_variables() {
    let env = TestEnv::new();
    let sh = "log() { echo \"LOG: $*\"; }\nlog start\nprintf '%s\\n' log\necho log $(log inner)\n\
              level=log\necho \"$level\"\nshow() { local log=5; echo \"$log\"; }\nshow\n\
              if false; then git log -1; xargs log; fi\n";
    env.write("s.sh", sh);
    let before = run(&env, "bash", "s.sh");
    let (v, code) = env.rename("s.sh", "log", "log_msg");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("s.sh"),
        sh.replacen("log()", "log_msg()", 1)
            .replace("\nlog start", "\nlog_msg start")
            .replace("$(log inner)", "$(log_msg inner)")
            .replace("xargs log", "xargs log_msg")
    );
    assert_eq!(run(&env, "bash", "s.sh"), before);
    assert_eq!(
        site_class(&v, "s.sh", 3, 14),
        "excluded",
        "printf's argument"
    );
    assert_eq!(site_class(&v, "s.sh", 9, 19), "excluded", "git's argument");
    assert_eq!(
        site_class(&v, "s.sh", 9, 33),
        "possible",
        "xargs runs its argument"
    );
    assert_eq!(
        site_class(&v, "s.sh", 5, 6),
        "excluded",
        "an assignment's value"
    );
    assert_eq!(site_class(&v, "s.sh", 7, 29), "excluded", "a variable");
}

#[test]
fn javascript_destructured_parameter_is_a_local() {
    let env = TestEnv::new();
    let js = "function g(x) { return x + 1; }\nfunction d({ g }) { return g; }\n\
              const e = ({ k: [g] }) => g;\nfunction f() { const { g } = { g: 5 }; return g; }\n\
              console.log(d({ g: 3 }), e({ k: [4] }), f(), g(1));\n";
    env.write("m.js", js);
    let before = run(&env, "node", "m.js");
    let (v, code) = env.rename("m.js", "g", "inc");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("m.js"),
        js.replacen("function g(", "function inc(", 1)
            .replace("g(1)", "inc(1)")
    );
    assert_eq!(run(&env, "node", "m.js"), before);
    assert_eq!(site_class(&v, "m.js", 2, 13), "excluded", "the parameter");
}

#[test]
fn commonjs_export_key_follows_the_rename_and_other_modules_keep_theirs() {
    let env = TestEnv::new();
    env.write(
        "util.js",
        "function g(x) { return x + 1; }\nfunction other() { return 0; }\nmodule.exports = { g, other };\n",
    );
    env.write("util2.js", "exports.g = function (x) { return x * 2; };\n");
    let main = "const { g } = require(\"./util\");\nconst { g: h } = require(\"./util\");\n\
                const u = require(\"./util\");\nconst u2 = require(\"./util2\");\n\
                console.log(g(1), h(2), u.g(3), u2.g(4));\n";
    env.write("main.js", main);
    let other = "const { g } = require(\"./util2\");\nconsole.log(g(10));\n";
    env.write("other.js", other);
    let before = (run(&env, "node", "main.js"), run(&env, "node", "other.js"));
    let (v, code) = env.rename("util.js", "g", "inc");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("util.js"),
        "function inc(x) { return x + 1; }\nfunction other() { return 0; }\nmodule.exports = { inc, other };\n"
    );
    assert_eq!(
        env.text("main.js"),
        main.replace("{ g }", "{ inc }")
            .replace("{ g: h }", "{ inc: h }")
            .replace("g(1)", "inc(1)")
            .replace("u.g(3)", "u.inc(3)")
    );
    assert_eq!(env.text("other.js"), other, "util2's own g");
    let after = (run(&env, "node", "main.js"), run(&env, "node", "other.js"));
    assert_eq!(after, before);
    assert_eq!(site_class(&v, "main.js", 5, 35), "excluded", "u2.g");
    assert_eq!(site_class(&v, "main.js", 5, 26), "certain", "u.g");
}

#[test]
fn python_class_attribute_shadows_in_the_class_body_and_a_default_is_outside() {
    let env = TestEnv::new();
    let py = "def g(x):\n    return x + 1\n\nclass C:\n    g = 10\n    y = g + 1\n\n    def m(self):\n        return g(2)\n\n\ndef d(g=g):\n    return g(5)\n\n\nprint(C.y, C().m(), d())\n";
    env.write("m.py", py);
    let before = run(&env, "python3", "m.py");
    let (v, code) = env.patch(&[
        "--file", "m.py", "--symbol", "g", "--kind", "function", "--rename", "inc",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("m.py"),
        py.replacen("def g(", "def inc(", 1)
            .replace("return g(2)", "return inc(2)")
            .replace("g=g", "g=inc")
    );
    assert_eq!(run(&env, "python3", "m.py"), before);
    assert_eq!(
        site_class(&v, "m.py", 6, 8),
        "excluded",
        "the class attribute"
    );

    // A class attribute takes the new name only in its class: elsewhere it is free.
    let env = TestEnv::new();
    let py = "def g(x):\n    return x + 1\n\nclass Obj:\n    inc = 4\n\nprint(g(1), Obj.inc)\n";
    env.write("b.py", py);
    let (v, code) = env.rename("b.py", "g", "inc");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("b.py"), py.replace("g(", "inc("));
    // …where a renamed site lies in the class body, the attribute would capture it.
    env.write(
        "c.py",
        "def g(x):\n    return x + 1\n\nclass Obj:\n    inc = 4\n    y = g(1)\n",
    );
    let (v, code) = env.rename("c.py", "g", "inc");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
    assert_ne!(code, 0);
}

#[test]
fn python_import_from_another_module_rebinds_the_name_in_the_definitions_file() {
    let env = TestEnv::new();
    let py = "def floor(x):\n    return \"pure-python\"\n\n\nprint(floor(0.5))\n\ntry:\n    from math import floor\nexcept ImportError:\n    pass\n\nprint(floor(1.5))\n";
    env.write("m.py", py);
    let before = run(&env, "python3", "m.py");
    let (v, code) = env.rename("m.py", "floor", "fl");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("m.py"),
        py.replacen("def floor(", "def fl(", 1)
            .replacen("floor(0.5)", "fl(0.5)", 1)
    );
    assert_eq!(run(&env, "python3", "m.py"), before);
    assert_eq!(site_class(&v, "m.py", 8, 21), "excluded", "math's floor");
    assert_eq!(
        site_class(&v, "m.py", 12, 6),
        "excluded",
        "after the import"
    );
}

#[test]
fn go_field_and_for_loop_variable_are_not_the_function() {
    let env = TestEnv::new();
    let util = "package util\n\nfunc G(x int) int { return x + 1 }\n\ntype T struct{ G int }\n\n\
                func (t T) M() int { return t.G + G(0) }\n\nfunc Loop() int {\n\tr := G(1)\n\
                \tfor G := 0; G < 1; G++ {\n\t\tr += G\n\t}\n\treturn r\n}\n";
    env.write("util/util.go", util);
    let main = "package main\n\nimport (\n\t\"fmt\"\n\tu \"ex/util\"\n)\n\n\
                func main() {\n\tt := u.T{G: 2}\n\tfmt.Println(u.G(1), t.M(), t.G)\n}\n";
    env.write("main.go", main);
    let (v, code) = env.patch(&[
        "--file",
        "util/util.go",
        "--symbol",
        "G",
        "--kind",
        "function",
        "--rename",
        "Inc",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("util/util.go"),
        util.replace("func G(", "func Inc(")
            .replace("G(0)", "Inc(0)")
            .replace("r := G(1)", "r := Inc(1)")
    );
    assert_eq!(env.text("main.go"), main.replace("u.G(1)", "u.Inc(1)"));
}

/// Ruby: a bare name in an instance method of a class that defines a method of that name calls
/// that method, not the free function being renamed (it was renamed: ArgumentError).
#[test]
fn ruby_bare_name_in_a_class_with_its_own_method_is_left_alone() {
    let env = TestEnv::new();
    env.write(
        "util.rb",
        "def g(x)\n  x + 1\nend\n\nclass K\n  def g\n    \"method\"\n  end\n\n  def run\n    [g, self.g]\n  end\nend\n\nclass L\n  def run\n    g(1)\n  end\nend\n\np [g(1), K.new.run, L.new.run]\n",
    );
    let before = run(&env, "ruby", "util.rb");
    let (v, code) = env.patch(&[
        "--file", "util.rb", "--symbol", "g", "--kind", "function", "--rename", "inc",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(site_class(&v, "util.rb", 11, 5), "excluded", "{v}");
    assert!(env.text("util.rb").contains("    [g, self.g]\n"));
    assert!(env.text("util.rb").contains("    inc(1)\n"));
    assert_eq!(run(&env, "ruby", "util.rb"), before);
}

/// Python: the module's `__all__` entry follows the rename (a star import reads the name from
/// it: left as it was, `from util import *` lost the function); another string stays.
#[test]
fn python_dunder_all_entry_follows_the_rename() {
    let env = TestEnv::new();
    env.write(
        "util.py",
        "__all__ = [\"g\", \"h\"]\n\n\ndef g():\n    return 1\n\n\ndef h():\n    return 2\n\n\nNAME = \"g\"\n",
    );
    env.write("main.py", "from util import *\n\nprint(g(), h())\n");
    let before = run(&env, "python3", "main.py");
    let (v, code) = env.rename("util.py", "g", "inc");
    assert_eq!(code, 0, "{v}");
    let util = env.text("util.py");
    assert!(util.starts_with("__all__ = [\"inc\", \"h\"]\n"), "{util}");
    assert!(util.ends_with("NAME = \"g\"\n"), "{util}");
    assert_eq!(run(&env, "python3", "main.py"), before);
}

/// Java, C++ and Rust resolve a bare name to the innermost class, namespace or module that
/// declares a member of that name, and `ns::g` goes through `ns`: those were renamed with the
/// outer `g` (Java: `Inner.call()` then returned 3 instead of 200; C++: `ns::inc` does not
/// exist; Rust: `inner::local` called the outer function).
#[test]
fn a_nearer_scope_with_its_own_member_keeps_the_name() {
    let env = TestEnv::new();
    env.write(
        "Util.java",
        "public class Util {\n    static int g(int x) { return x + 1; }\n    static int use() { return g(1); }\n    static class Inner {\n        static int g(int x) { return x * 100; }\n        static int call() { return g(2); }\n    }\n}\n",
    );
    let (v, code) = env.patch(&[
        "--file",
        "Util.java",
        "--symbol",
        "g",
        "--parent",
        "Util",
        "--rename",
        "inc",
    ]);
    assert_eq!(code, 0, "{v}");
    let java = env.text("Util.java");
    assert!(
        java.contains("static int use() { return inc(1); }"),
        "{java}"
    );
    assert!(
        java.contains("static int call() { return g(2); }"),
        "{java}"
    );
    env.write(
        "m.cpp",
        "int g(int x) { return x + 1; }\nnamespace ns { int g(int x) { return x * 100; } int call() { return g(2); } }\nstruct K {\n    int g(int x) { return -x; }\n    int run() { return g(3) + ::g(3); }\n};\nint main() { return g(1) + ns::g(1) + ns::call(); }\n",
    );
    let (v, code) = env.patch(&[
        "--file", "m.cpp", "--symbol", "g", "--line", "1", "--rename", "inc",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("m.cpp"),
        "int inc(int x) { return x + 1; }\nnamespace ns { int g(int x) { return x * 100; } int call() { return g(2); } }\nstruct K {\n    int g(int x) { return -x; }\n    int run() { return g(3) + ::inc(3); }\n};\nint main() { return inc(1) + ns::g(1) + ns::call(); }\n"
    );
    env.write(
        "util.rs",
        "pub fn g() -> i32 { 1 }\n\npub mod inner {\n    pub fn g() -> i32 { 100 }\n    pub fn local() -> i32 { g() }\n}\n\npub fn top() -> i32 { g() + inner::g() }\n",
    );
    let (v, code) = env.patch(&[
        "--file", "util.rs", "--symbol", "g", "--line", "1", "--rename", "inc",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("util.rs"),
        "pub fn inc() -> i32 { 1 }\n\npub mod inner {\n    pub fn g() -> i32 { 100 }\n    pub fn local() -> i32 { g() }\n}\n\npub fn top() -> i32 { inc() + inner::g() }\n"
    );
}

/// Another type defining a member of the same name makes the possible sites (calls on values
/// of unknown type) maybe its: the message says so and where, with what to do.
#[test]
fn possible_sites_beside_another_definition_of_the_name_are_flagged() {
    let env = TestEnv::new();
    env.write(
        "lib.rs",
        "pub struct Arg;\npub struct Group;\nimpl Arg {\n    pub fn get_id(&self) -> u8 { 1 }\n}\nimpl Group {\n    pub fn get_id(&self) -> u8 { 2 }\n}\npub fn ids(a: &Arg, g: &Group) -> u8 {\n    a.get_id() + g.get_id()\n}\n",
    );
    let (v, code) = env.patch(&[
        "--file",
        "lib.rs",
        "--symbol",
        "get_id",
        "--parent",
        "Arg",
        "--rename",
        "ident",
        "--dry-run",
    ]);
    assert_eq!(code, 0, "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("the name is defined 1 other time (first at lib.rs:7)"),
        "{message}"
    );
    assert!(message.contains("--certain-only"), "{message}");
}

#[test]
fn typescript_overload_signatures_follow_their_implementation() {
    // tsc: TS2389 "Function implementation name must be 'concat'" when only the
    // implementation was renamed (rxjs's concat.ts).
    let env = TestEnv::new();
    let ts = "export function concat(a: number): number;\nexport function concat(a: string): string;\nexport function concat(a: any): any {\n  return a;\n}\n\nexport class Queue {\n  add(a: number): void;\n  add(a: string): void;\n  add(a: any): void {}\n\n  run(): void {\n    this.add(1);\n  }\n}\n\nconcat(1);\n";
    env.write("o.ts", ts);
    let user = "import { concat } from \"./o\";\n\nconcat(\"x\");\n";
    env.write("use.ts", user);
    // From the implementation.
    let (v, code) = env.patch(&[
        "--file", "o.ts", "--symbol", "concat", "--line", "3", "--rename", "join",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("o.ts"), ts.replace("concat", "join"));
    assert_eq!(env.text("use.ts"), user.replace("concat", "join"));
    assert_eq!(site_class(&v, "o.ts", 1, 16), "certain");
    assert_eq!(site_class(&v, "o.ts", 2, 16), "certain");
    // From an overload signature of a method: the others, the implementation and `this.add`.
    let (v, code) = env.patch(&[
        "--file",
        "o.ts",
        "--symbol",
        "Queue.add",
        "--line",
        "8",
        "--rename",
        "plus",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("o.ts"),
        ts.replace("concat", "join").replace("add", "plus")
    );
    assert_eq!(
        site_class(&v, "o.ts", 10, 2),
        "certain",
        "the implementation"
    );
    assert_eq!(site_class(&v, "o.ts", 13, 9), "certain", "this.add");
}

#[test]
fn a_renamed_shorthand_comes_back_as_a_shorthand() {
    // JavaScript: `{ fill }` renamed away is `{ fill: fill2 }`; renamed back, `{ fill }` again
    // (it was `{ fill: fill }`; three.js's TextureUtils.js).
    let env = TestEnv::new();
    let js = "function fill() {}\n\nconst U = {\n\tfill\n};\n\nconst { fill: f } = U;\nf();\n";
    env.write("u.js", js);
    let (v, code) = env.rename("u.js", "fill", "fill2");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("u.js"),
        js.replacen("fill()", "fill2()", 1)
            .replace("\tfill\n", "\tfill: fill2\n")
    );
    let (v, code) = env.rename("u.js", "fill2", "fill");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("u.js"), js);

    // Rust: a field in a struct literal and a pattern, beside a parameter of its old name.
    let env = TestEnv::new();
    let rs = "pub struct User {\n    pub name: String,\n}\n\npub fn make(name: String) -> User {\n    User { name }\n}\n\npub fn get(u: User) -> String {\n    let User { name } = u;\n    name\n}\n";
    env.write("src/lib.rs", rs);
    let (v, code) = env.rename("src/lib.rs", "User::name", "full");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("src/lib.rs"),
        rs.replace("pub name", "pub full")
            .replace("User { name }", "User { full: name }")
    );
    // The parameter `name` does not capture the field's key: not refused.
    let (v, code) = env.rename("src/lib.rs", "User::full", "name");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("src/lib.rs"), rs);
}

/// A Ruby symbol that names a method to `send`, `method`, `respond_to?`, `alias_method`,
/// `private` or `alias` is renamed with it (`possible`); left as it was, `send(:g)` raised
/// NoMethodError. `define_method(:g)` defines another `g` and stays.
#[test]
fn ruby_symbols_naming_the_method_go_with_it() {
    let env = TestEnv::new();
    let src = "class A\n  def g; end\n  alias :y :g\n  alias_method :x, :g\n  private :g\n  define_method(:g) { 1 }\n  def h(o)\n    method(:g)\n    o.send(:g, :g)\n    respond_to?(:g)\n  end\nend\n";
    env.write("a.rb", src);
    let (v, code) = env.rename("a.rb", "A#g", "k");
    assert_eq!(code, 0, "{v}");
    let want = "class A\n  def k; end\n  alias :y :k\n  alias_method :x, :k\n  private :k\n  define_method(:g) { 1 }\n  def h(o)\n    method(:k)\n    o.send(:k, :g)\n    respond_to?(:k)\n  end\nend\n";
    assert_eq!(String::from_utf8(env.read("a.rb")).unwrap(), want);
    let (v, code) = env.rename("a.rb", "A#k", "g");
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("a.rb")).unwrap(), src);
}

/// TypeScript: renaming an interface's method leaves a variable of its name alone (a bare
/// name never reaches a member; it was renamed `possible`, and `begin` was undefined), nor a
/// shorthand `{ start }` (an object's key, as `{ start: 1 }`; it became `{ start: begin }`).
#[test]
fn typescript_member_rename_leaves_a_variable_of_its_name() {
    let env = TestEnv::new();
    let src = "interface Timer {\n  start(): void;\n}\nconst start = Date.now();\nfunction el(t: Timer) { t.start(); return Date.now() - start; }\nconst o = { start };\n";
    env.write("t.ts", src);
    let (v, code) = env.rename("t.ts", "Timer.start", "begin");
    assert_eq!(code, 0, "{v}");
    let want = "interface Timer {\n  begin(): void;\n}\nconst start = Date.now();\nfunction el(t: Timer) { t.begin(); return Date.now() - start; }\nconst o = { start };\n";
    assert_eq!(String::from_utf8(env.read("t.ts")).unwrap(), want);
    assert_eq!(site_class(&v, "t.ts", 5, 55), "excluded", "{v}");
    let (v, code) = env.rename("t.ts", "Timer.begin", "start");
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("t.ts")).unwrap(), src);
}

/// A definition nested in a function is local to it: renaming it renamed the module-level
/// definition's uses of the name elsewhere in the file too (Python's `Foo()` in another
/// function then raised NameError). Python, JavaScript, Rust (their scopes read), Go (a local
/// type: the function's span).
#[test]
fn a_definition_local_to_a_function_keeps_the_module_level_ones_uses() {
    let env = TestEnv::new();
    let py = "class Foo:\n    def run(self):\n        return 1\n\n\ndef make():\n    class Foo:\n        def run(self):\n            return 2\n\n    def inner():\n        return Foo().run()\n\n    return Foo().run() + inner()\n\n\ndef use():\n    return Foo().run()\n\n\nprint(make(), use())\n";
    env.write("m.py", py);
    let before = run(&env, "python3", "m.py");
    assert_eq!(before, "4 1\n");
    let (v, code) = env.patch(&[
        "--file", "m.py", "--symbol", "Foo", "--line", "7", "--rename", "Local",
    ]);
    assert_eq!(code, 0, "{v}");
    let want = py
        .replacen("    class Foo:", "    class Local:", 1)
        .replacen(
            "return Foo().run()\n\n    return Foo()",
            "return Local().run()\n\n    return Local()",
            1,
        );
    assert_eq!(env.text("m.py"), want);
    assert_eq!(run(&env, "python3", "m.py"), before);
    assert_eq!(site_class(&v, "m.py", 18, 11), "excluded", "use()'s Foo");

    for (file, src, symbol, line, want) in [
        (
            "a.js",
            "function helper() {\n  return 1;\n}\n\nfunction make() {\n  function helper() {\n    return 2;\n  }\n  const f = () => helper();\n  return helper() + f();\n}\n\nfunction use() {\n  return helper();\n}\n",
            "helper",
            "6",
            "function helper() {\n  return 1;\n}\n\nfunction make() {\n  function local() {\n    return 2;\n  }\n  const f = () => local();\n  return local() + f();\n}\n\nfunction use() {\n  return helper();\n}\n",
        ),
        (
            "a.rs",
            "fn helper() -> u32 {\n    1\n}\n\nfn make() -> u32 {\n    fn helper() -> u32 {\n        2\n    }\n    let f = || helper();\n    helper() + f()\n}\n\nfn use_it() -> u32 {\n    helper()\n}\n",
            "helper",
            "6",
            "fn helper() -> u32 {\n    1\n}\n\nfn make() -> u32 {\n    fn local() -> u32 {\n        2\n    }\n    let f = || local();\n    local() + f()\n}\n\nfn use_it() -> u32 {\n    helper()\n}\n",
        ),
        (
            "a.go",
            "package a\n\ntype T struct{}\n\nfunc make() int {\n\ttype T struct{ x int }\n\tv := T{x: 1}\n\treturn v.x\n}\n\nfunc use() T {\n\treturn T{}\n}\n",
            "T",
            "6",
            "package a\n\ntype T struct{}\n\nfunc make() int {\n\ttype local struct{ x int }\n\tv := local{x: 1}\n\treturn v.x\n}\n\nfunc use() T {\n\treturn T{}\n}\n",
        ),
    ] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.patch(&[
            "--file", file, "--symbol", symbol, "--line", line, "--rename", "local",
        ]);
        assert_eq!(code, 0, "{file}: {v}");
        assert_eq!(env.text(file), want, "{file}");
    }
}
