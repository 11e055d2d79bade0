//! `llm patch --rename` of a Ruby class's method: its calls on `self` (bare, or `self.g`) in
//! the subclasses that inherit it (`class Sub < Base`, up a chain of superclasses, in any file
//! the rename reads), and `Sub.g` for a singleton method. Each said `ok` and left a call of the
//! old name behind: the called bare names and `self.g` were read as another class's.

use crate::util::TestEnv;

/// A class, a subclass that calls its method on `self`, and another class with its own.
const BASE: &str = r#"class Base
  def grab(x) = x + 1
end

class Sub < Base
  def run
    grab(1)
    self.grab(2)
    grab
  end
end

class Other
  def grab(x) = x
  def run = grab(3)
end
"#;

/// The class of the site whose line is `text`.
fn class(v: &serde_json::Value, text: &str) -> String {
    let sites = v["result"]["sites"].as_array().unwrap();
    let s = sites.iter().find(|s| s["line_text"] == text).unwrap();
    s["class"].as_str().unwrap().to_string()
}

/// Ruby: in a subclass's instance method, a bare call (`grab(1)`), a bare name and
/// `self.grab` are the inherited method, `certain`; another class's `grab` stays. Renaming
/// `Base#grab` left `grab(1)` and `self.grab(2)` (NoMethodError).
#[test]
fn ruby_subclass_calls_inherited_method() {
    let env = TestEnv::new();
    env.write("a.rb", BASE);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let (renamed, other) = BASE.split_at(BASE.find("class Other").unwrap());
    assert_eq!(
        env.text("a.rb"),
        format!("{}{other}", renamed.replace("grab", "fetch"))
    );
    assert_eq!(class(&v, "    grab(1)"), "certain", "{v}");
    assert_eq!(class(&v, "    self.grab(2)"), "certain", "{v}");
    assert_eq!(class(&v, "    grab"), "certain", "{v}");
    assert_eq!(class(&v, "  def run = grab(3)"), "excluded", "{v}");
}

/// Ruby: the method is inherited through a class between (`class Sub2 < Sub`), reopened
/// classes merged; a class of the chain that mixes in a module of the files with its own
/// `grab` makes the call `possible`.
#[test]
fn ruby_two_level_chain() {
    let src = format!(
        "{BASE}class Sub\n  def more = grab(4)\nend\n\nclass Sub2 < Sub\n  def go\n    grab(5)\n  end\nend\n\nmodule Cache\n  def grab(x) = x\nend\n\nclass Mid < Base\n  include Cache\nend\n\nclass Low < Mid\n  def go = grab(6)\nend\n"
    );
    let env = TestEnv::new();
    env.write("a.rb", &src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(class(&v, "  def more = grab(4)"), "certain", "{v}");
    assert_eq!(class(&v, "    grab(5)"), "certain", "{v}");
    assert_eq!(class(&v, "  def go = grab(6)"), "possible", "{v}");
    let text = env.text("a.rb");
    assert!(text.contains("  def more = fetch(4)\n"), "{text}");
    assert!(text.contains("    fetch(5)\n"), "{text}");
    assert!(text.contains("  def run = grab(3)\n"), "{text}");
    assert!(text.contains("module Cache\n  def grab(x) = x\n"), "{text}");
}

/// Ruby: a subclass that defines its own `grab` calls its own, and so do its subclasses: its
/// definition and those calls stay (a Ruby override is not renamed with the base), while a
/// sibling subclass's call is renamed.
#[test]
fn ruby_subclass_that_overrides() {
    let src = r#"class Base
  def grab(x) = x + 1
end

class Own < Base
  def grab(x) = x * 2
  def run = grab(1)
end

class Below < Own
  def go
    self.grab(2)
  end
end

class Plain < Base
  def go = grab(3)
end
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def grab", "def fetch", 1)
        .replace("grab(3)", "fetch(3)");
    assert_eq!(env.text("a.rb"), want);
    assert_eq!(class(&v, "  def run = grab(1)"), "excluded", "{v}");
    assert_eq!(class(&v, "    self.grab(2)"), "excluded", "{v}");
    assert_eq!(class(&v, "  def go = grab(3)"), "certain", "{v}");
}

/// Ruby: a singleton method (`def self.make`) is inherited by the subclass itself: a bare
/// call in its singleton methods or `class << self`, `Sub.make` and, in a subclass's instance
/// method, `self.class.make` are the base's; a bare call in an instance method is not.
#[test]
fn ruby_subclass_inherits_singleton_method() {
    let src = r#"class Base
  def self.make(x) = x
end

class Sub < Base
  def self.go
    make(1)
  end

  class << self
    def again = self.make(2)
  end

  def run = make(3)
end

class Low < Sub
  def again = self.class.make(6)
end

class Other
  def self.make(x) = x
end

Sub.make(4)
Other.make(5)
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::make", "2", "build");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def self.make", "def self.build", 1)
        .replace("make(1)", "build(1)")
        .replace("make(2)", "build(2)")
        .replace("Sub.make(4)", "Sub.build(4)")
        .replace("make(6)", "build(6)");
    assert_eq!(env.text("a.rb"), want);
    assert_eq!(class(&v, "    make(1)"), "certain", "{v}");
    assert_eq!(class(&v, "Sub.make(4)"), "certain", "{v}");
    assert_eq!(
        class(&v, "  def again = self.class.make(6)"),
        "certain",
        "{v}"
    );
    assert_eq!(class(&v, "  def run = make(3)"), "excluded", "{v}");
    assert_eq!(class(&v, "Other.make(5)"), "excluded", "{v}");
}

/// Ruby: the subclass, and a class between, may be in other files: their calls are found
/// the same way, through a class between whose file does not name the method too.
#[test]
fn ruby_subclass_in_another_file() {
    let base = "class Base\n  def grab(x) = x + 1\nend\n";
    let mid = "require_relative \"base\"\n\nclass Mid < Base\n  def grab?\n    true\n  end\nend\n";
    let sub = "require_relative \"mid\"\n\nclass Sub < Mid\n  def run\n    grab(1)\n  end\nend\n";
    let env = TestEnv::new();
    env.write("base.rb", base);
    env.write("mid.rb", mid);
    env.write("sub.rb", sub);
    let plain = "class Plain < ::Base\nend\n";
    let deep = "class Deep < Plain\n  def run = grab(2)\nend\n";
    env.write("plain.rb", plain);
    env.write("deep.rb", deep);
    let (v, code) = env.patch(&[
        "--file",
        "base.rb",
        "--symbol",
        "Base::grab",
        "--rename",
        "fetch",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("base.rb"), base.replace("grab", "fetch"));
    assert_eq!(env.text("mid.rb"), mid);
    assert_eq!(env.text("sub.rb"), sub.replace("grab(1)", "fetch(1)"));
    assert_eq!(class(&v, "    grab(1)"), "certain", "{v}");
    assert_eq!(env.text("plain.rb"), plain);
    assert_eq!(env.text("deep.rb"), deep.replace("grab", "fetch"));
}

/// Ruby: a class that includes a module passes the module's instance method on to its
/// subclasses: a bare call there is the module's.
#[test]
fn ruby_subclass_of_an_including_class() {
    let src = r#"module Loader
  def grab(x) = x + 1
end

class App
  include Loader
end

class Web < App
  def go = grab(1)
end

class Api < App
  def grab(x) = x
  def go = grab(2)
end
"#;
    let env = TestEnv::new();
    env.write("m.rb", src);
    let (v, code) = env.rename_at("m.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def grab", "def fetch", 1)
        .replace("grab(1)", "fetch(1)");
    assert_eq!(env.text("m.rb"), want);
    assert_eq!(class(&v, "  def go = grab(1)"), "certain", "{v}");
    assert_eq!(class(&v, "  def go = grab(2)"), "excluded", "{v}");
}

/// Ruby: an override in a subclass that calls `super` would find no method once the base's
/// is renamed alone (NoMethodError): the rename is refused (`PATCH_E010`) and nothing is
/// written. One that reaches another class's method by `super` does not stop it.
#[test]
fn ruby_override_calling_super_is_refused() {
    let src = r#"class Base
  def grab(x) = x + 1
end

class Sub < Base
  def grab(x)
    super(x) * 2
  end
end
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_ne!(code, 0, "{v}");
    assert!(v.to_string().contains("PATCH_E010"), "{v}");
    assert_eq!(env.text("a.rb"), src);
    let other = src.replace("class Sub < Base", "class Sub < Other");
    let env = TestEnv::new();
    env.write("a.rb", &other);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
}
