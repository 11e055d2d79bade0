//! Tests of `ruby_cut`: in hostile Ruby, a cut is a member boundary of the whole-file parse
//! or there is none, and the parts' symbols are the whole parse's.

use super::*;
use crate::lang::{by_name, Language};
use crate::span::LineIndex;
use std::path::Path;
use tree_sitter::{Node, Tree};

fn ruby() -> &'static Language {
    by_name("ruby").unwrap()
}

/// Whether `c` is what the whole-file parse `tree` has: `close` the `end` of a class or
/// module (or the file's end, with `head` 0), and `head` and `cut` each between two children
/// of its body (or of the file), with a member that is no comment between them and after
/// `cut`.
fn is_member_boundary(tree: &Tree, src: &[u8], c: BlockCut) -> Result<(), String> {
    let root = tree.root_node();
    let list: Node = if c.close == src.len() && c.head == 0 {
        root
    } else {
        let end = root
            .descendant_for_byte_range(c.close, c.close + 3)
            .ok_or("no node at close")?;
        let container = end.parent().ok_or("end without parent")?;
        if end.kind() != "end"
            || !matches!(container.kind(), "class" | "module" | "singleton_class")
        {
            return Err(format!(
                "close is a {} in a {}",
                end.kind(),
                container.kind()
            ));
        }
        let body = container
            .child_by_field_name("body")
            .ok_or("container without body")?;
        if c.head <= body.start_byte() {
            return Err(format!(
                "head {} before the body {:?}",
                c.head,
                body.byte_range()
            ));
        }
        body
    };
    let mut w = list.walk();
    let children: Vec<Node> = list.children(&mut w).collect();
    let member = |r: std::ops::Range<usize>| {
        children
            .iter()
            .any(|n| r.start <= n.start_byte() && n.end_byte() <= r.end && n.kind() != "comment")
    };
    for at in [c.head, c.cut] {
        if let Some(n) = children
            .iter()
            .find(|n| n.start_byte() < at && at < n.end_byte())
        {
            return Err(format!("{at} inside a {} {:?}", n.kind(), n.byte_range()));
        }
    }
    if c.head > 0 && !member(c.head..c.cut) || !member(c.cut..c.close) {
        return Err(format!("no member between {c:?}"));
    }
    Ok(())
}

/// The parts of `src` (any size; two, three and five) against its whole parse: every cut is a
/// member boundary and the parts give the whole parse's symbols, or a part has a syntax error
/// (`false`). `None`: no cut, or the whole file has a syntax error.
fn check(src: &[u8], name: &str) -> Option<bool> {
    let l = ruby();
    let whole = l.parse(src);
    let index = LineIndex::new(src);
    if whole.root_node().has_error() {
        // A file with a syntax error: a part has one too, so that it is parsed whole.
        for n in [2, 3, 5] {
            if let Some(h) = parts(src, n) {
                assert!(
                    h.iter()
                        .any(|h| l.parse_ranges(src, &index, h).root_node().has_error()),
                    "{name}: parts {h:?} hide the file's syntax error"
                );
            }
        }
        return None;
    }
    for c in cuts(src)? {
        if let Err(e) = is_member_boundary(&whole, src, c) {
            panic!("{name}: {c:?}: {e}");
        }
    }
    let whole = crate::lang::symbols(l, src, &whole, name);
    let key = |s: &crate::lang::Symbol| serde_json::to_string(s).unwrap();
    let whole: Vec<String> = whole.iter().map(key).collect();
    for n in [2, 3, 5] {
        let split_at = any_parts(src, n)?;
        if n == 2 {
            assert_eq!(split_at, block_cut(src)?.parts(src.len()));
        }
        let Some(split) = l.symbols_of_parts(
            src,
            &index,
            name,
            &split_at,
            None,
            &mut Vec::new(),
            &mut Vec::new(),
            &|s| s,
        ) else {
            return Some(false); // a part has a syntax error
        };
        let split: Vec<String> = split.concat().iter().map(key).collect();
        if let Some(k) = (0..split.len().max(whole.len())).find(|&k| split.get(k) != whole.get(k)) {
            panic!(
                "{name}: parts {split_at:?}: symbol {k} of {} split, {} whole:\n{:?}\n{:?}",
                split.len(),
                whole.len(),
                split.get(k),
                whole.get(k)
            );
        }
    }
    Some(true)
}

/// The text from the cut to the end of its line.
fn cut_line(src: &str) -> Option<&str> {
    let c = block_cut(src.as_bytes())?;
    let rest = &src[c.cut..];
    Some(&rest[..rest.find('\n').map_or(rest.len(), |k| k + 1)])
}

/// A class of `n` small methods around `middle`, so that the best cut is near it.
fn class_around(middle: &str, n: usize) -> String {
    let mut s = String::from("# A class.\nclass A < B\n");
    for k in 0..n {
        s.push_str(&format!("  def a{k}(x)\n    x + {k}\n  end\n\n"));
    }
    s.push_str(middle);
    for k in 0..n {
        s.push_str(&format!("  def b{k}\n    {k}\n  end\n"));
    }
    s.push_str("end\n");
    s
}

#[test]
fn a_class_is_cut_between_methods_near_its_middle() {
    let src = class_around("", 10);
    let c = block_cut(src.as_bytes()).unwrap();
    assert_eq!(
        &src[..c.head],
        "# A class.\nclass A < B\n  def a0(x)\n    x + 0\n  end\n"
    );
    assert_eq!(&src[c.close..], "end\n");
    assert!(src[c.cut..].starts_with("  def b0\n") || src[c.cut..].starts_with("\n  def"));
    assert_eq!(check(src.as_bytes(), "a.rb"), Some(true));
    // Comments above a method go with it.
    let src = class_around("  # Doc of m.\n  # More.\n  def m; end\n", 10);
    let c = block_cut(src.as_bytes()).unwrap();
    assert!(src[c.cut..].starts_with("\n  # Doc of m.\n"));
    assert_eq!(check(src.as_bytes(), "a.rb"), Some(true));
}

#[test]
fn top_level_items_and_nested_containers() {
    let mut src = String::new();
    for k in 0..20 {
        src.push_str(&format!("def f{k}\n  {k}\nend\n"));
    }
    let c = block_cut(src.as_bytes()).unwrap();
    assert_eq!((c.head, c.close), (0, src.len()));
    assert_eq!(check(src.as_bytes(), "f.rb"), Some(true));
    // The biggest container wins: the cut is in the class inside the module.
    let src = format!(
        "module M\n  VERSION = '1'\n{}end\n",
        class_around("", 8).replace("# A class.\n", "")
    );
    let c = block_cut(src.as_bytes()).unwrap();
    assert!(src[..c.head].ends_with("class A < B\n  def a0(x)\n    x + 0\n  end\n"));
    assert_eq!(&src[c.close..], "end\nend\n");
    assert_eq!(check(src.as_bytes(), "m.rb"), Some(true));
}

/// Hostile middles: whatever they hold, the cut is a member boundary (checked against the
/// whole parse), never inside them.
#[test]
fn hostile_ruby_is_cut_at_member_boundaries_or_not_at_all() {
    let middles = [
        // Heredocs holding `def` and `end` lines, several on a line, quoted and squiggly.
        "  def h\n    x = <<~EOS + <<-'RAW'\n  end\n  def fake\n    EOS\n  end\n    RAW\n    x\n  end\n",
        "  def h2\n    <<EOS\nend\ndef fake\nEOS\n  end\n",
        "  def h3\n    foo(<<~A, <<~\"B\")\n      #{end_of}\n    A\n      end\n    B\n  end\n",
        // A heredoc whose terminator follows an interpolation.
        "  def h4\n    <<~A\n      x #{1}\n    A\n  end\n",
        // `=begin` comments holding code, with `=end` mid-line.
        "=begin\n  end\n  def fake\n=end\n  def c; end\n",
        "=begin x\n  def fake\n  y =end\n  def c2; end\n",
        // Percent literals with nesting delimiters.
        "  W = %w[end def [nested] class]\n  Q = %q{def {end} }\n  R = %r{end\\}#{1}}x\n  I = %i(a b)\n  def p; %(a (b) end); end\n",
        // Strings with interpolation holding `end`, `}` and quotes.
        "  def s\n    \"#{if x then \"}\" else 'end' end} #{\"#{:end}\"}\"\n  end\n",
        "  def s2\n    'it''s \\' end'\n  end\n",
        // Modifiers, endless definitions, labels, keyword-named methods and symbols.
        "  def m\n    return if x\n    y = 1 unless z\n    a while b\n    begin; end until c\n  end\n",
        "  def e = 1\n  def e2(a) = a + 1\n  def ==(o) = true\n  def x=(v)\n    @x = v\n  end\n",
        "  def k(if:, end: 1, class: 2)\n    foo(do: 1).end.class\n    [:end, :if, :def, :\"end\"]\n  end\n  def end; end\n  def self.class; end\n",
        // Aliases of keyword-named methods, by name, symbol and global.
        "  alias klass class\n  alias :then_ :then\n  alias $new $old\n  alias + add\n  undef end\n",
        // Loops with `do`, blocks with `do` and braces.
        "  def l\n    while x do y end\n    for a in b do c end\n    until (q do end) do r end\n    e.each do |v| v end\n    f { |w| w }\n  end\n",
        // Characters, regexps, divisions, `%` and `<<` as operators.
        "  def c\n    [?a, ?\", ?#, ?\\n, ?\\u{41}, ?(]\n    x = a / b / c\n    y = foo /e\"nd/\n    z = 5 % 3\n    arr << 1\n    t = x ? 1 : 2\n  end\n",
        // Singleton class, nested class, case/in, rescue.
        "  class << self\n    def s; end\n  end\n  class Inner; end\n  def r\n    case x\n    in {a:} then 1\n    end\n    case y\n    when 2 then 3\n    end\n  rescue E => e\n    raise\n  ensure\n    nil\n  end\n",
        // Globals that look like quotes, multibyte names and text.
        "  def g\n    $' + $\" + $` + $/ + $; + $-w.to_s + $1.to_s\n  end\n  def ünï(é)\n    \"ü#{é}\" # ♥ end\n  end\n",
        // A body on the line of the parameters (webrick's `def _make_regex(str) /…/n end`).
        "  def re(str) /([#{str}])/n end\n  def re2 = /x/\n",
        // A line continuation before the next method's line.
        "  def lc\n    x = 1 +\\\n      2\n  end\n",
    ];
    let mut seen = 0;
    for m in middles {
        let src = class_around(m, 6);
        let l = ruby();
        assert!(
            !l.parse(src.as_bytes()).root_node().has_error(),
            "the test's own Ruby has an error:\n{src}"
        );
        // Every cut (the best one near the middle, others in and around it) is a member
        // boundary, and the parts give the whole parse's symbols.
        assert_eq!(check(src.as_bytes(), "h.rb"), Some(true), "{src}");
        seen += cuts(src.as_bytes()).unwrap().len();
        // The middle twice, alone in a class, and at top level.
        for alone in [format!("class A\n{m}{m}end\n"), format!("{m}{m}")] {
            if !l.parse(alone.as_bytes()).root_node().has_error() {
                assert_ne!(check(alone.as_bytes(), "m.rb"), Some(false), "{alone}");
            }
        }
    }
    assert!(seen > 11 * middles.len(), "{seen} cuts");
}

#[test]
fn crlf_bom_and_tabs_are_cut_as_the_parse_reads_them() {
    let src = class_around(
        "\t# Tab-indented.\n\tdef t\n\t\t<<~X\n\t\tdef no\n\t\tX\n\tend\n",
        6,
    );
    let crlf = src.replace('\n', "\r\n");
    let bom = format!("\u{feff}{src}");
    for s in [&src, &crlf, &bom] {
        let c = block_cut(s.as_bytes()).expect("a cut");
        assert!(s[..c.cut].ends_with('\n'), "a cut starts a line");
        assert_eq!(check(s.as_bytes(), "t.rb"), Some(true));
    }
}

/// What the scan cannot be sure of gives no cut.
#[test]
fn unsure_files_have_no_cut() {
    for src in [
        // Unbalanced: a missing `end`, a stray one, an unclosed string or heredoc.
        "class A\n  def a\n  end\n  def b\n  end\n",
        "class A\n  def a\n  end\nend\nend\n",
        "class A\n  def a\n    \"open\n  end\n  def b\n  end\nend\n",
        "class A\n  def a\n    <<~EOS\n  end\n  def b\n  end\nend\n",
        // A bracket closed by a keyword.
        "class A\n  def a\n    foo(\n  end\n  def b\n  end\nend\n)\n",
        // Cut off after a singleton `def`'s receiver.
        "class A\n  def a\n  end\n  def self.",
    ] {
        assert_eq!(block_cut(src.as_bytes()), None, "{src}");
    }
    // A class's first member stays with its head: no cut before it; after it, heads over
    // several lines or with code after `;` are cut as any.
    assert_eq!(block_cut(b"class A\n  def a\n  end\n  X = 1\nend\n"), None);
    for head in [
        "class A <\n  B\n",
        "class A; X = 1\n",
        "class A < Struct.new(:a,\n    :b)\n",
    ] {
        let src = format!("{head}  def a\n  end\n  def b\n  end\n  def c\n  end\nend\n");
        assert_eq!(cut_line(&src), Some("  def c\n"), "{src}");
        assert_eq!(check(src.as_bytes(), "a.rb"), Some(true), "{src}");
    }
    // After `__END__`, nothing is code.
    let src = "def a\nend\ndef b\nend\n__END__\nclass\ndef c\n";
    assert_eq!(cut_line(src), Some("def b\n"));
}

/// A method list in one class whose cut the corpus found wrong once would go here; meanwhile
/// this repository's own Ruby fixture.
#[test]
fn the_ruby_fixture_splits_as_it_parses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/symbols.rb");
    let src = std::fs::read(path).unwrap();
    assert_ne!(check(&src, "symbols.rb"), Some(false));
}

/// Every Ruby file under `LLM_REGIONS_CORPUS`: its cuts (any size of file) are member boundaries
/// of the whole parse, and its parts give the whole parse's symbols.
/// `LLM_REGIONS_CORPUS=DIR cargo test --lib ruby_parts_on_a_corpus -- --ignored`.
#[test]
#[ignore]
fn ruby_parts_on_a_corpus() {
    let dir = std::env::var("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
    let (mut files, mut cut, mut compared, mut unsure) = (0, 0, 0, 0);
    for (p, l, src) in crate::lang::source_files(Path::new(&dir)) {
        if l.name != "ruby" {
            continue;
        }
        files += 1;
        if cuts(&src).is_none() && !l.parse(&src).root_node().has_error() {
            eprintln!("the scan is not sure of {}", p.display());
            unsure += 1;
        }
        match check(&src, &p.display().to_string()) {
            Some(true) => {
                cut += 1;
                compared += 1;
            }
            Some(false) => {
                cut += 1;
                eprintln!("a part has a syntax error: {}", p.display());
            }
            None => {}
        }
    }
    eprintln!("{files} files, {cut} cut, {compared} compared, {unsure} unsure");
    assert!(compared > 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
    /// Any soup of Ruby's tokens is scanned without a panic, and its cuts are in order: a
    /// line start after the head, before the container's `end`.
    #[test]
    fn the_scan_reads_any_token_soup(
        tokens in proptest::collection::vec(proptest::sample::select(vec![
            "def ", "end", "class ", "module ", "if ", "do ", "while ", "x", " ", "\n", ";",
            "<<~A", "<<-'B'", "A\n", "B", "=begin", "=end", "__END__", "%w[", "%q{", "#{", "}",
            "{", "(", ")", "[", "]", "\"", "'", "`", "/", "?", ":", ".", "=", "\\", "#", "$",
            "@", "é", "\r\n", "\u{feff}", "def self.", "def x = ", "end:", ":end",
        ]), 0..120)
    ) {
        let src = tokens.concat();
        let src = src.as_bytes();
        for c in cuts(src).into_iter().flatten() {
            proptest::prop_assert!(c.head <= c.cut && c.cut < c.close && c.close <= src.len());
            proptest::prop_assert_eq!(src[c.cut - 1], b'\n');
        }
        let _ = parts(src, 2);
        let _ = parts(src, 5);
    }
}
