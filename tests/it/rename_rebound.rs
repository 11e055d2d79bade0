//! `llm patch --rename` where one name is bound by several definitions of one scope, Ruby's
//! singleton methods, and TypeScript's typed object literals. Found by an invariant run (round
//! 5: rename, check the file, rename back; each of these said `ok` and left code that no
//! longer ran or compiled, or the rename back was refused `PATCH_E009`).

use crate::util::TestEnv;

/// Python: a module-level name assigned in both branches of an `if`, and a method defined in
/// both, are one variable each; renaming one branch's left the other's, and `END` was
/// undefined where the other branch ran.
#[test]
fn python_if_else_twins_are_one_name() {
    let src = "import sys\n\nif sys.byteorder == \"little\":\n    END = \"<\"\nelse:\n    END = \">\"\n\n\nclass A:\n    if sys.platform == \"win32\":\n        def g(self):\n            return 1\n    else:\n        def g(self):\n            return 2\n\n\nprint(END, A().g())\n";
    let env = TestEnv::new();
    env.write("f.py", src);
    let (v, code) = env.rename_at("f.py", "END", "4", "ORDER");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("f.py"), src.replace("END", "ORDER"));
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("1 other definition"),
        "{v}"
    );
    let (v, code) = env.rename_at("f.py", "A.g", "14", "h");
    assert_eq!(code, 0, "{v}");
    let both = src.replace("END", "ORDER").replace("g(", "h(");
    assert_eq!(env.text("f.py"), both);
    // …and back, byte for byte (refused `PATCH_E009` when one twin kept the name).
    let (v, code) = env.rename_at("f.py", "ORDER", "6", "END");
    assert_eq!(code, 0, "{v}");
    let (v, code) = env.rename_at("f.py", "A.h", "11", "g");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("f.py"), src);
}

/// Python: a property's getter and its `@x.setter` are one attribute; renamed from either,
/// the other def kept the name (`property 'hh' of 'H' object has no setter`, or NameError on
/// `@hh.setter`).
#[test]
fn python_property_getter_and_setter_go_together() {
    let src = "class H:\n    @property\n    def headers(self):\n        return self.hdrs\n\n    @headers.setter\n    def headers(self, value):\n        self.hdrs = value\n\n\nh = H()\nh.headers = 1\n";
    for line in ["3", "7"] {
        let env = TestEnv::new();
        env.write("p.py", src);
        let (v, code) = env.rename_at("p.py", "H.headers", line, "fields");
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("p.py"), src.replace("headers", "fields"));
    }
}

/// Python: a lambda's default value is evaluated in the scope around it; in a class body
/// that sees the class's attributes (`lambda x=limit: x`), and was left when `limit` was
/// renamed (NameError when the class was created). Its body does not see them.
#[test]
fn python_lambda_default_in_a_class_body_is_the_attribute() {
    let src = "class C:\n    limit = 512\n    limits = dict(f=lambda x=limit: x)\n    g = lambda self: limit\n";
    let env = TestEnv::new();
    env.write("l.py", src);
    let (v, code) = env.rename_at("l.py", "C.limit", "2", "size");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("l.py"),
        "class C:\n    size = 512\n    limits = dict(f=lambda x=size: x)\n    g = lambda self: limit\n"
    );
}

/// Bash: a function defined in both branches of an `if` is one command name; renaming one
/// left the other, and the calls failed where that branch ran.
#[test]
fn bash_function_twins_under_if_branches_go_together() {
    let src = "if [[ -n ${ZSH_VERSION-} ]]; then\n    _hold() { echo zsh; }\nelse\n    _hold()\n    {\n        echo bash\n    }\nfi\n_hold\n";
    let env = TestEnv::new();
    env.write("a.sh", src);
    let (v, code) = env.rename_at("a.sh", "_hold", "4", "_held");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.sh"), src.replace("_hold", "_held"));
}

/// Ruby: `TSort.tsort(…)` calls the singleton method `def TSort.tsort` (or `def self.tsort`),
/// not the instance method `tsort` beside it: renaming the singleton left the call, and
/// renaming the instance method renamed it. A class reopened in the file defines one method.
#[test]
fn ruby_singleton_and_instance_methods_are_two() {
    let src = "module TSort\n  def tsort\n    TSort.tsort(1, 2)\n  end\n\n  def TSort.tsort(a, b)\n    a + b\n  end\nend\n";
    let env = TestEnv::new();
    env.write("t.rb", src);
    let (v, code) = env.rename_at("t.rb", "TSort::tsort", "6", "sorted");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("t.rb"),
        src.replace(".tsort", ".sorted"),
        "the singleton and its call"
    );
    let env = TestEnv::new();
    env.write("t.rb", src);
    let (v, code) = env.rename_at("t.rb", "TSort::tsort", "2", "sorted");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("t.rb"), src.replace("def tsort", "def sorted"));
    let src =
        "class A\n  def g\n    1\n  end\nend\n\nclass A\n  def g\n    2\n  end\nend\n\nA.new.g\n";
    let env = TestEnv::new();
    env.write("r.rb", src);
    let (v, code) = env.rename_at("r.rb", "A::g", "8", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("r.rb"), src.replace("g\n", "h\n"));
}

/// TypeScript: a key of an object literal or pattern whose type is written as the field's
/// interface is the field (`const t: Test = { ready: false }`, `{ ready } as Test`, a
/// parameter's `({ ready }: Test)`); it was left (`excluded`, as any object's key is), and
/// tsc failed (TS2353). Another object's key stays.
#[test]
fn typescript_typed_object_literal_keys_follow_the_field() {
    let src = "interface Test {\n  actual: number;\n  ready: boolean;\n}\n\nfunction run(actual: number, ready: boolean): Test {\n  const t: Test = { actual, ready: false };\n  const u = { ready } as Test;\n  const other = { ready: 1 };\n  return t;\n}\n\nfunction show({ ready }: Test) {\n  return ready;\n}\n";
    let env = TestEnv::new();
    env.write("t.ts", src);
    let (v, code) = env.rename_at("t.ts", "Test.ready", "3", "done");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  ready: boolean", "  done: boolean")
        .replace("actual, ready: false", "actual, done: false")
        .replace("{ ready } as", "{ done: ready } as")
        .replace("show({ ready }", "show({ done: ready }");
    assert_eq!(env.text("t.ts"), want);
    // …and back, to the shorthand it was.
    let (v, code) = env.rename_at("t.ts", "Test.done", "3", "ready");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("t.ts"), src);
}

/// Python: in a function, `def wrapper` in each branch of an `if` binds one local, which
/// `return wrapper` returns; renaming one left the others and the return
/// (UnboundLocalError where that branch had run).
#[test]
fn python_local_twins_in_a_function_are_one_name() {
    let src = "def make(n):\n    if n == 0:\n        def wrapper():\n            return 0\n    else:\n        def wrapper():\n            return n\n    wrapper.n = n\n    return wrapper\n\n\ndef wrapper():\n    return -1\n";
    let env = TestEnv::new();
    env.write("w.py", src);
    let (v, code) = env.rename_at("w.py", "make.wrapper", "3", "inner");
    assert_eq!(code, 0, "{v}");
    let want = src.replacen("wrapper", "inner", 4);
    assert_eq!(env.text("w.py"), want, "the module-level `wrapper` stays");
    // …and back, byte for byte, where no module-level `wrapper` takes the name.
    let src = &src[..src.find("\n\n\ndef wrapper").unwrap() + 1];
    let env = TestEnv::new();
    env.write("w.py", src);
    let (v, code) = env.rename_at("w.py", "make.wrapper", "6", "inner");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("w.py"), src.replace("wrapper", "inner"));
    let (v, code) = env.rename_at("w.py", "make.inner", "3", "wrapper");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("w.py"), src);
}

/// A class whose singleton methods are defined in `class << self`, beside an instance method
/// of one of their names, and the same class written with `def self.build`.
const CLASS_SELF: &str = r#"class Foo
  class << self
    def build(x)
      new(x)
    end

    def make
      build(1)
    end
  end

  def build
    :instance
  end

  def use
    Foo.build(2)
    self.class.build(3)
    build
  end
end

Foo.build(4)
"#;

/// Ruby: a `def` in `class << self` is a singleton method, as `def self.build` is: not a
/// twin of the instance method `build`. Renaming it renamed the instance method with it (and
/// the bare `build` in `use`, the instance method's call) and left the bare `build(1)` in
/// `make`, a singleton method's call; renaming the instance method renamed the singleton and
/// the `Foo.build` calls. `self.class.build` in an instance method is the singleton's call.
#[test]
fn ruby_class_self_methods_are_singletons() {
    let def_self = CLASS_SELF
        .replace("  class << self\n    def build(x)\n      new(x)\n    end\n\n    def make\n      build(1)\n    end\n  end\n", "  def self.build(x)\n    new(x)\n  end\n\n  def self.make\n    build(1)\n  end\n");
    assert_ne!(def_self, CLASS_SELF);
    for (src, line) in [(CLASS_SELF, "3"), (def_self.as_str(), "2")] {
        let env = TestEnv::new();
        env.write("a.rb", src);
        let (v, code) = env.rename_at("a.rb", "Foo::build", line, "create");
        assert_eq!(code, 0, "{v}");
        let want = src
            .replace("build(x)", "create(x)")
            .replace("build(1)", "create(1)")
            .replace(".build(", ".create(");
        assert_eq!(env.text("a.rb"), want, "the singleton and its calls");
        let instance = (src.lines().position(|l| l == "  def build").unwrap() + 1).to_string();
        let env = TestEnv::new();
        env.write("a.rb", src);
        let (v, code) = env.rename_at("a.rb", "Foo::build", &instance, "inst");
        assert_eq!(code, 0, "{v}");
        let want = src
            .replace("  def build\n", "  def inst\n")
            .replace("    build\n", "    inst\n");
        assert_eq!(env.text("a.rb"), want, "the instance method and its call");
    }
}

/// Ruby: a module's `class << self` methods are the module's singleton methods: `Config.load`
/// and `self.load` in them are theirs; a bare `load` in an instance method is the instance
/// method's. Renaming either renamed both definitions, or the other's calls.
#[test]
fn ruby_module_class_self_methods_are_singletons() {
    let src = r#"module Config
  class << self
    def load(path)
      parse(File.read(path))
    end

    def reload
      self.load(@path)
    end

    def parse(text)
      text.lines
    end
  end

  def load
    :mixin
  end

  def use
    load
  end
end

Config.load("a.yml")
"#;
    let env = TestEnv::new();
    env.write("config.rb", src);
    let (v, code) = env.rename_at("config.rb", "Config::load", "3", "read");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("def load(path)", "def read(path)")
        .replace(".load(", ".read(");
    assert_eq!(env.text("config.rb"), want);
    let env = TestEnv::new();
    env.write("config.rb", src);
    let (v, code) = env.rename_at("config.rb", "Config::load", "16", "mixin");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  def load\n", "  def mixin\n")
        .replace("    load\n", "    mixin\n");
    assert_eq!(env.text("config.rb"), want);
}

/// Ruby: `private` and `attr_accessor` in `class << self` change nothing of the above: the
/// private singleton `lookup` and its bare call are renamed together, the instance method
/// `lookup` of the name stays, and renaming that leaves the singleton.
#[test]
fn ruby_private_class_self_methods_are_singletons() {
    let src = r#"class Registry
  class << self
    attr_accessor :default

    def fetch(key)
      lookup(key) || default
    end

    private

    def lookup(key)
      store[key]
    end

    def store
      @store ||= {}
    end
  end

  def lookup(key)
    self.class.fetch(key)
  end
end

Registry.fetch(:a)
"#;
    let env = TestEnv::new();
    env.write("registry.rb", src);
    let (v, code) = env.rename_at("registry.rb", "Registry::lookup", "11", "find_key");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("lookup(key) ||", "find_key(key) ||")
        .replace("    def lookup(key)", "    def find_key(key)");
    assert_eq!(env.text("registry.rb"), want);
    let env = TestEnv::new();
    env.write("registry.rb", src);
    let (v, code) = env.rename_at("registry.rb", "Registry::lookup", "20", "get");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("registry.rb"),
        src.replace("  def lookup(key)\n    self", "  def get(key)\n    self")
    );
}
