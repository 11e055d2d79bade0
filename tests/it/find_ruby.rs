//! `llm find --outline` of big Ruby files, which are parsed in parts on threads of their own
//! (cut between methods of a class by `lang::ruby_cut`; as many parts as `-j`, one per 32 KiB
//! of the file, two at least): the outline is the one a whole parse
//! (`-j 1`) gives, whatever the file holds around the cut — heredocs and `=begin` blocks with
//! `def`/`end` lines, percent literals, interpolation holding `end`, CRLF, a BOM, multibyte
//! names — and a file with a syntax error is still reported as one.

use crate::util::TestEnv;
use serde_json::Value;

/// Methods of [`big_class`].
const RULES: usize = 1800;

/// A kpeg-like parser class of 200 KiB and more: hundreds of small methods, hostile ones among
/// them.
fn big_class() -> String {
    let mut src = String::from(
        "# coding: UTF-8\n# frozen_string_literal: true\n\n##\n# A generated parser.\nclass Big::Parser\n  # :stopdoc:\n\n    def initialize(str)\n      @str = str\n    end\n\n",
    );
    for k in 0..RULES {
        let body = match k % 6 {
            0 => format!(
                "      x = <<~EOS + <<-'RAW'\n        end\n      def fake_{k}\n      EOS\n      class Nope\n      RAW\n      x\n"
            ),
            1 => "      w = %w[end def [nested]] + %i(a b)\n      q = %q{def {end}}\n      /(end|def)#{w.size}/ =~ q\n".into(),
            2 => "      \"#{if @str then \"}\" else 'end' end} #{:end}\" # ünïcode end\n".into(),
            3 => "      return if @str.nil?\n      @x = 1 unless @y\n      [?a, ?\", ?#].each do |c| c end\n".into(),
            4 => "      _tmp = apply(:_Spnl)\n      _tmp = scan(/\\A(?-mix:[^\\n\\r])/) while _tmp\n      _tmp\n".into(),
            _ => "      @pos = _save\n      _tmp = @pos % 3 == 0 ? self.pos : nil\n".into(),
        };
        src.push_str(&format!(
            "    # Rule {k}.\n    def _rule_{k}\n{body}    end\n\n"
        ));
        if k % 100 == 50 {
            src.push_str("=begin\n  end\n  def not_a_method\n=end\n\n");
        }
    }
    src.push_str("  def ünï_end = @str\nend\n\nBig::Parser.new('x')\n");
    src
}

/// The file's outline (`--json`, per-run ids dropped) with `extra` arguments.
fn outline(env: &TestEnv, file: &str, extra: &[&str]) -> Value {
    fn drop_ids(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.remove("match_id");
                o.remove("execution_id");
                o.values_mut().for_each(drop_ids);
            }
            Value::Array(a) => a.iter_mut().for_each(drop_ids),
            _ => {}
        }
    }
    let mut args = vec!["find", "--outline", "--json", file];
    args.extend(extra);
    let (mut v, code) = env.json(&args);
    assert_eq!(code, 0, "{v:#}");
    drop_ids(&mut v);
    v
}

/// The names of an outline's symbols, nested ones after their parent's.
fn names(v: &Value) -> Vec<String> {
    fn go(ms: &Value, out: &mut Vec<String>) {
        for m in ms.as_array().into_iter().flatten() {
            out.push(m["qualified_name"].as_str().unwrap().to_string());
            go(&m["children"], out);
        }
    }
    let mut out = Vec::new();
    go(&v["data"]["matches"], &mut out);
    out
}

#[test]
fn a_big_ruby_outline_parsed_in_parts_equals_the_whole_parse() {
    let src = big_class();
    assert!(src.len() > 200 * 1024, "{} bytes", src.len());
    let env = TestEnv::new();
    env.write("big.rb", &src);
    env.write("big_crlf.rb", src.replace('\n', "\r\n"));
    env.write("big_bom.rb", format!("\u{feff}{src}"));
    for file in ["big.rb", "big_crlf.rb", "big_bom.rb"] {
        let whole = outline(&env, file, &["-j", "1"]);
        assert_eq!(
            whole["data"]["files"][0]["parse_errors"],
            Value::Null,
            "{file}"
        );
        // The class, `initialize`, the rules and the endless method; no `fake_…`, `Nope` or
        // `not_a_method` (heredoc and comment text).
        let names = names(&whole);
        assert_eq!(names.len(), RULES + 3, "{file}: {names:?}");
        assert_eq!(names[0], "Big::Parser");
        assert_eq!(names[RULES + 2], "Big::Parser::ünï_end");
        assert!(
            names
                .iter()
                .all(|n| !n.contains("fake") && !n.contains("Nope") && !n.contains("not_a")),
            "{file}: {names:?}"
        );
        // Two parts, three, and seven (one per 32 KiB).
        for j in ["2", "3", "12"] {
            assert_eq!(outline(&env, file, &["-j", j]), whole, "{file} -j{j}");
        }
    }
}

#[test]
fn a_big_ruby_file_with_a_syntax_error_is_outlined_as_a_whole_parse_reads_it() {
    // The error in the second half, and in the fifth of seven parts.
    let src = big_class().replacen("def _rule_1100\n", "def _rule_1100(\n", 1);
    let env = TestEnv::new();
    env.write("broken.rb", &src);
    let whole = outline(&env, "broken.rb", &["-j", "1"]);
    assert_eq!(whole["data"]["files"][0]["parse_errors"], true, "{whole:#}");
    for j in ["2", "12"] {
        assert_eq!(outline(&env, "broken.rb", &["-j", j]), whole, "-j{j}");
    }
}

/// `class Outer::Reopened` is `Outer::Reopened`, its parent `Outer`, and found by that name
/// (it was `Reopened` with no parent, and `find Outer::Reopened` found nothing); its methods
/// follow. `class ::Top` starts from the global scope.
#[test]
fn a_class_named_in_a_scope_belongs_to_it() {
    let env = TestEnv::new();
    env.write(
        "r.rb",
        "module Outer\nend\n\nclass Outer::Reopened\n  def m; end\nend\n\nclass A::B::C < Base\nend\n\nclass ::Top\nend\n",
    );
    let (v, code) = env.json(&["find", "--json", "Outer::Reopened::m", "r.rb"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["data"]["matches"][0]["parent"], "Reopened", "{v:#}");
    for (name, parent) in [("Outer::Reopened", "Outer"), ("A::B::C", "B")] {
        let (v, code) = env.json(&["find", "--json", name, "r.rb"]);
        assert_eq!(code, 0, "{name}: {v:#}");
        assert_eq!(v["data"]["matches"][0]["qualified_name"], name, "{v:#}");
        assert_eq!(v["data"]["matches"][0]["parent"], parent, "{v:#}");
    }
    let (v, code) = env.json(&["find", "--json", "Top", "r.rb"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["data"]["matches"][0]["qualified_name"], "Top", "{v:#}");
    assert_eq!(
        v["data"]["matches"][0]["parent"],
        serde_json::Value::Null,
        "{v:#}"
    );
}
