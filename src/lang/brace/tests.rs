//! Unit tests of the brace scanner: regions, gaps and block cuts against whole-file parses.

use crate::lang::by_name;

fn items(lang: &str, src: &str) -> Vec<String> {
    let l = by_name(lang).unwrap();
    (l.rules.regions.unwrap())(src.as_bytes())
        .items
        .iter()
        .map(|i| src[i.range.clone()].to_string())
        .collect()
}

fn gap_texts(lang: &str, src: &str) -> Vec<String> {
    super::gaps(super::lexicon(lang).unwrap(), src.as_bytes())
        .iter()
        .map(|g| src[g.range.clone()].to_string())
        .collect()
}

/// The gaps of runs of joined strings: each one's insides.
fn joined_texts(lang: &str, src: &str) -> Vec<Vec<String>> {
    super::gaps(super::lexicon(lang).unwrap(), src.as_bytes())
        .iter()
        .filter(|g| !g.joined.is_empty())
        .map(|g| {
            assert_eq!(g.range.start, g.joined[0].start);
            assert_eq!(g.range.end, g.joined.last().unwrap().end);
            g.joined
                .iter()
                .map(|r| src[r.clone()].to_string())
                .collect()
        })
        .collect()
}

#[test]
fn joined_strings_are_one_gap() {
    let long = "x".repeat(40);
    let go = format!(
        "package p\n\nconst a = \"{long}\" +\n\t\"b\" + \"\" +\n\t\"{long}\"\nvar c = \"{long}\"\n+ \"{long}\"\nvar d = \"c\" + 'e' + `f` + \"g\"\n"
    );
    assert_eq!(
        joined_texts("go", &go),
        [vec![long.clone(), "b".into(), "".into(), long.clone()]],
        "Go: no line break before a `+`, and one quote throughout"
    );
    // The long strings not joined are gaps alone.
    assert_eq!(gap_texts("go", &go).len(), 3);
    let java = format!(
        "class A {{\n  String a = \"{long}\"\n    + \"{long}\"+\"x\";\n  String b = \"{long}\" + \"\"\"\n    text\"\"\";\n  String c = \"{long}\" + 'c' + (\"{long}\" += \"y\") + \"{long}\" ++ \"z\";\n}}\n"
    );
    assert_eq!(
        joined_texts("java", &java),
        [vec![long.clone(), long.clone(), "x".into()]],
        "Java: not a text block, a char, `+=` or `++`"
    );
    let js = format!("const a = '{long}' + \"{long}\" + `{long}`;\nconst b = \"{long}\" + \"\\x4\";\nconst c = \"{long}\" + /* no */ \"{long}\";\n");
    assert!(
        joined_texts("javascript", &js).is_empty(),
        "JavaScript: one quote, no template, valid escapes, no comment"
    );
    let python = format!(
        "a = ('{long}'\n     '{long}' '')\nb = '{long}' '{long}'\nc = '{long}'\n'{long}'\nd = ['{long}' f'{long}', rb'{long}' \"{long}\", '''{long}''']\n"
    );
    assert_eq!(
        joined_texts("python", &python),
        [
            vec![long.clone(), long.clone(), "".into()],
            vec![long.clone(), long.clone()]
        ],
        "Python: a line break in brackets only, one quote, no f-string"
    );
    // `c`'s two, `d`'s first, its raw bytes, its "…" and its '''…''' (`f'…'` is code).
    assert_eq!(gap_texts("python", &python).len(), 8);
    let rust = format!("const A: &str = \"{long}\" + \"{long}\";\n");
    assert!(
        joined_texts("rust", &rust).is_empty(),
        "Rust joins no strings"
    );
    assert_eq!(gap_texts("rust", &rust).len(), 2);
}

#[test]
fn go_items_keep_their_doc_comments_and_skip_braces_in_strings_and_comments() {
    let src = "package p\n\nimport \"fmt\"\n\n// F does {.\n// More.\nfunc F() {\n\ts := \"}\\n\"\n\tr := `\n}\n`\n\t/* } */\n\tc := '}'\n}\n\ntype T struct {\n\tA int\n}\nvar x = 1 +\n\t2\nconst y = 2\n";
    assert_eq!(
        items("go", src),
        [
            "package p\n\n",
            "import \"fmt\"\n\n",
            "// F does {.\n// More.\nfunc F() {\n\ts := \"}\\n\"\n\tr := `\n}\n`\n\t/* } */\n\tc := '}'\n}\n\n",
            "type T struct {\n\tA int\n}\n",
            "var x = 1 +\n\t2\n",
            "const y = 2\n",
        ]
    );
}

#[test]
fn typescript_items_skip_template_literals_and_regular_expressions() {
    let src = "/** Doc. */\nexport function f() {\n  const t = `${ {a: 1}.a } }\nfunction no() {}\n`;\n  const r = /[}\"]/g;\n  return t;\n}\n@dec\nexport class A {\n  m() {}\n}\ninterface I { x: string }\n";
    assert_eq!(
        items("typescript", src),
        [
            "/** Doc. */\nexport function f() {\n  const t = `${ {a: 1}.a } }\nfunction no() {}\n`;\n  const r = /[}\"]/g;\n  return t;\n}\n",
            "@dec\nexport class A {\n  m() {}\n}\n",
            "interface I { x: string }\n",
        ]
    );
}

#[test]
fn gaps_are_long_plain_strings_and_arrays_of_numbers() {
    let long = "x".repeat(40);
    let src = format!(
        "package p\n\nconst a = \"{long}\" +\n\t\"{long}\\x4\"\nvar b = []int{{1, 2, 0x3F, -4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}\nvar c = []int{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16\n}}\nvar d = [][]byte{{{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, {{\"{long}\"}},\n}}\n"
    );
    assert_eq!(
        gap_texts("go", &src),
        [
            long.clone(),
            "1, 2, 0x3F, -4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15".into(),
            format!("{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, {{\"{long}\"}},\n"),
        ],
        "an invalid \\x escape, and a value ending its line without a comma (Go), are no gaps"
    );
}

/// A file of `lang` made of `unit` (code with data) repeated past the size at which an
/// outline skips data, with a BOM and CRLF line ends when asked.
fn big(unit: &str, bom: bool, crlf: bool) -> Vec<u8> {
    let mut text = String::new();
    if bom {
        text.push('\u{feff}');
    }
    let mut k = 0;
    while text.len() < 80 * 1024 {
        text.push_str(&unit.replace("NN", &k.to_string()));
        k += 1;
    }
    if crlf {
        text = text.replace('\n', "\r\n");
    }
    text.into_bytes()
}

/// The outline's symbols from a parse that skips the data, compared with a whole parse's.
fn outline_equals_whole(lang: &str, src: &[u8]) {
    let l = by_name(lang).unwrap();
    let index = crate::span::LineIndex::new(src);
    let skipping = l
        .parse_outline(src, &index)
        .unwrap_or_else(|| panic!("{lang}: the data is not skipped"));
    let whole = l.parse(src);
    assert!(
        !whole.root_node().has_error(),
        "{lang}: the test file has errors"
    );
    let key = |syms: Vec<crate::lang::Symbol>| {
        syms.into_iter()
            .map(|s| (serde_json::to_string(&s).unwrap(), s.parent_index))
            .collect::<Vec<_>>()
    };
    let a = key(crate::lang::symbols(l, src, &skipping, "f"));
    let b = key(crate::lang::symbols(l, src, &whole, "f"));
    assert!(a.len() > 10, "{lang}: only {} symbols", a.len());
    assert_eq!(a, b, "{lang}: the outline differs");
}

fn numbers(n: usize) -> String {
    (0..n).map(|k| format!("{k}, 0x{k:X}, ")).collect()
}

#[test]
fn outlines_that_skip_data_equal_whole_file_outlines() {
    let long = "a { long } string \\\" with \\x41 escapes, 'quotes' and /* no comment */";
    let go = format!(
        "// Table NN {{ is a table.\nvar TableNN = []uint16{{\n\t{n}\n\t-1,\n}}\n\nconst sNN = \"{long}\" + // {{\n\t\"{long}\\u00e9\"\n\n/* comment {{ */\nfunc FNN() string {{\n\treturn `raw {{\n}}`\n}}\n\ntype TNN struct{{ A [2]int }}\n\nvar gNN = [][]int{{{{1, 2}}, {{3, 4}}, {{5, 6}}, {{7, 8}}, {{9, 10}}, {{11, 12}}, {{13, 14}}}}\n",
        n = numbers(60),
    );
    let ts = format!(
        "/** Doc NN {{ */\nexport const TABLE_NN = [{n}-1];\nexport const S_NN = \"{long}\" + '{single}';\nexport function fNN(): string {{\n  const t = `template ${{TABLE_NN.length}} {{ ${{ {{a: 1}}.a }}`;\n  const r = /[{{\"]/g;\n  return t + r;\n}}\n@dec\nexport class CNN {{\n  m(): number {{ return [1, 2][0]; }}\n}}\n",
        n = numbers(60),
        single = long.replace('\'', "\\'"),
    );
    let java = format!(
        "/** Doc NN {{ */\nclass TNN {{\n    static final int[] TABLE = {{ {n}-1 }};\n    static final String S = \"{long}\" +\n        \"{long}\";\n    // comment {{\n    char m() {{ return '{{'; }}\n}}\n",
        n = numbers(60),
    );
    let rust = format!(
        "/// Doc NN {{\npub static TABLE_NN: [i32; 121] = [\n    {n}-1,\n];\npub const S_NN: &str = \"{long}\";\nfn f_NN() -> &'static str {{\n    let _c = '{{';\n    r#\"raw {{ \"# }}\n",
        n = numbers(60),
    );
    let python = format!(
        "# Table NN {{ is a table.\nTABLE_NN = [\n    {n}-1,\n]\nS_NN = '{single}'\nT_NN = (\"{long}\"\n        \"{long}\")\n\n\ndef f_NN(x):\n    \"\"\"Doc {{ '''.\"\"\"\n    return f'{{x}} {single}'\n\n\nclass C_NN:\n    y = r'\\d {single}'\n",
        n = numbers(60),
        single = long.replace('\'', "\\'"),
    );
    let java = java.replace("\\x41", "\\u0041");
    for (lang, unit) in [
        ("go", &go),
        ("typescript", &ts),
        (
            "javascript",
            &ts.replace("(): string", "()").replace("(): number", "()"),
        ),
        ("java", &java),
        ("rust", &rust),
        ("python", &python),
    ] {
        for (bom, crlf) in [(false, false), (true, true)] {
            outline_equals_whole(lang, &big(unit, bom, crlf));
        }
    }
}

#[test]
fn data_in_a_place_where_no_literal_can_be_is_parsed() {
    // Numbers in a block: the whole parse has errors, which a skipped inside would hide.
    let unit = format!("func fNN() {{\n\t{{{}}}\n}}\n", numbers(60));
    let src = big(&format!("package p\n\n{unit}"), false, false);
    let go = by_name("go").unwrap();
    assert!(go.parse(&src).root_node().has_error());
    assert!(!super::gaps(super::lexicon("go").unwrap(), &src).is_empty());
    let index = crate::span::LineIndex::new(&src);
    assert!(go.parse_outline(&src, &index).is_none());
}
