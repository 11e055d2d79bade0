//! `llm patch --rename` of a Ruby module's instance method: its calls on `self` (bare, or
//! `self.g`) in the module's own instance methods and in the classes that mix the module in
//! (`include`, `prepend`, `extend`). Each of these said `ok` and left a call of the old name
//! behind: the bare calls with arguments were read as another method's.

use crate::util::TestEnv;

/// A module whose instance methods call `grab` on `self`, and a class that includes it.
const LOADER: &str = r#"module Loader
  def grab(x)
    x + 1
  end

  def run
    grab(1)
    self.grab(2)
    grab
  end
end

class App
  include Loader

  def go
    grab(3)
  end
end
"#;

/// Ruby: in a module's instance method `self` is an instance of a class that includes the
/// module, and a bare call (`grab(1)`) or one on `self` is the module's method; so it is in
/// the instance methods of a class that includes it and does not define its own. Renaming
/// `Loader#grab` left `grab(1)` and `grab(3)`.
#[test]
fn ruby_module_instance_method_calls_on_self() {
    let env = TestEnv::new();
    env.write("m.rb", LOADER);
    let (v, code) = env.rename_at("m.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("m.rb"), LOADER.replace("grab", "fetch"));
    let sites = v["result"]["sites"].as_array().unwrap();
    assert!(
        sites.iter().all(|s| s["class"] == "certain"),
        "every call is the module's: {v}"
    );
}

/// Ruby: the same with a name that `Kernel` defines (`load`): the module comes before
/// `Kernel` in the ancestors of the class that includes it, so a bare `load(1)` there is the
/// module's method, not `Kernel#load`.
#[test]
fn ruby_module_instance_method_named_as_kernel() {
    let src = LOADER.replace("grab", "load");
    let env = TestEnv::new();
    env.write("m.rb", &src);
    let (v, code) = env.rename_at("m.rb", "Loader::load", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("m.rb"), LOADER.replace("grab", "fetch"));
}

/// Ruby: a class that includes the module and defines its own `grab` calls its own: its
/// definition and calls stay. The module's `grab(1)` and `self.grab(2)` may then be the
/// class's (`possible`), and are renamed unless `--certain-only`.
#[test]
fn ruby_module_method_beside_an_including_class_own() {
    let src = LOADER.replace(
        "  def go\n    grab(3)\n  end\n",
        "  def grab(x)\n    x * 2\n  end\n\n  def go\n    grab(3)\n    self.grab(4)\n  end\n",
    );
    let env = TestEnv::new();
    env.write("m.rb", &src);
    let (v, code) = env.rename_at("m.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let (module, class) = src.split_at(src.find("class App").unwrap());
    assert_eq!(
        env.text("m.rb"),
        format!("{}{class}", module.replace("grab", "fetch"))
    );
    let call = |text: &str| {
        let sites = v["result"]["sites"].as_array().unwrap();
        let s = sites.iter().find(|s| s["line_text"] == text).unwrap();
        s["class"].as_str().unwrap().to_string()
    };
    assert_eq!(call("    grab(1)"), "possible", "{v}");
    assert_eq!(call("    self.grab(2)"), "possible", "{v}");
    assert_eq!(call("    grab(3)"), "excluded", "{v}");
    let env = TestEnv::new();
    env.write("m.rb", &src);
    let (v, code) = env.patch(&[
        "--file",
        "m.rb",
        "--symbol",
        "Loader::grab",
        "--line",
        "2",
        "--rename",
        "fetch",
        "--in",
        "m.rb",
        "--certain-only",
    ]);
    assert_eq!(code, 0, "{v}");
    assert!(env.text("m.rb").contains(
        "  def fetch(x)\n    x + 1\n  end\n\n  def run\n    grab(1)\n    self.grab(2)\n"
    ));
}

/// Ruby: `extend Loader` lends the module's instance methods to the class itself: a bare call
/// or `self.grab` in its singleton methods (`def self.g`, `class << self`) is the module's,
/// one in its instance methods is not.
#[test]
fn ruby_module_method_in_an_extending_class() {
    let src = r#"module Loader
  def grab(x)
    x + 1
  end
end

class Cli
  extend Loader

  def self.start
    grab(1)
    self.grab(2)
  end

  class << self
    def again
      grab(3)
    end
  end

  def grab(x)
    x
  end

  def go
    grab(4)
  end
end
"#;
    let env = TestEnv::new();
    env.write("cli.rb", src);
    let (v, code) = env.rename_at("cli.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  def grab(x)\n    x + 1", "  def fetch(x)\n    x + 1")
        .replace("grab(1)", "fetch(1)")
        .replace("grab(2)", "fetch(2)")
        .replace("grab(3)", "fetch(3)");
    assert_eq!(env.text("cli.rb"), want);
}

/// Ruby: `prepend Loader` puts the module before the class: its instance methods' bare
/// calls are the module's. In a class that mixes in another module of the files with its own
/// `grab` too, the call may be either (`possible`).
#[test]
fn ruby_module_method_in_a_prepending_class() {
    let src = r#"module Loader
  def grab(x)
    x + 1
  end
end

module Cache
  def grab(x)
    x
  end
end

class Job
  prepend Loader

  def go
    grab(1)
  end
end

class Task
  include Cache
  include Loader

  def go
    grab(2)
  end
end
"#;
    let env = TestEnv::new();
    env.write("job.rb", src);
    let (v, code) = env.rename_at("job.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def grab", "def fetch", 1)
        .replace("grab(1)", "fetch(1)")
        .replace("grab(2)", "fetch(2)");
    assert_eq!(env.text("job.rb"), want);
    let sites = v["result"]["sites"].as_array().unwrap();
    let class = |text: &str| {
        let s = sites.iter().find(|s| s["line_text"] == text).unwrap();
        s["class"].as_str().unwrap().to_string()
    };
    assert_eq!(class("    grab(1)"), "certain", "{v}");
    assert_eq!(class("    grab(2)"), "possible", "{v}");
}

/// Ruby: the class that includes the module may be in another file: its calls are found the
/// same way.
#[test]
fn ruby_module_method_included_in_another_file() {
    let module = "module Loader\n  def grab(x)\n    x + 1\n  end\nend\n";
    let app = "require_relative \"loader\"\n\nclass App\n  include Loader\n\n  def go\n    grab(3)\n  end\nend\n";
    let env = TestEnv::new();
    env.write("loader.rb", module);
    env.write("app.rb", app);
    let (v, code) = env.rename("loader.rb", "Loader::grab", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("loader.rb"), module.replace("grab", "fetch"));
    assert_eq!(env.text("app.rb"), app.replace("grab", "fetch"));
}
