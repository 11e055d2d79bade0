//! `llm patch --delete` of list members, of definitions with a comment after them on their
//! line, and of Go constants in a group: exact file contents after, CRLF and tabs kept.

use crate::util::{check_span, TestEnv};
use serde_json::Value;

/// Deletes `symbol` from `file` and returns the envelope and exit code.
fn delete(env: &TestEnv, file: &str, symbol: &str) -> (Value, i32) {
    env.patch(&["--file", file, "--symbol", symbol, "--delete"])
}

/// Writes `before`, deletes `symbol`, and asserts the file is then `after`.
fn deletes_to(env: &TestEnv, file: &str, before: &str, symbol: &str, after: &str) -> Value {
    env.write(file, before);
    let (v, code) = delete(env, file, symbol);
    assert_eq!(code, 0, "{symbol}: {v}");
    assert_eq!(
        String::from_utf8(env.read(file)).unwrap(),
        after,
        "deleting {symbol} from {before:?}"
    );
    v
}

/// A list member goes with its own separator: the `,` after a Rust field or variant (the gate
/// refused the `,` left alone on its line), and for the last member without one, the `,`
/// before it, so the list keeps its style. Attributes and doc comments go with the member.
#[test]
fn a_rust_field_or_variant_takes_its_comma() {
    let env = TestEnv::new();
    let point = "/// A point.\r\n#[derive(Debug)]\r\npub struct Point {\r\n    /// Across.\r\n    #[serde(default)]\r\n    pub x: i32,\r\n    pub y: i32,\r\n}\r\n";
    deletes_to(
        &env,
        "point.rs",
        point,
        "Point::x",
        "/// A point.\r\n#[derive(Debug)]\r\npub struct Point {\r\n    pub y: i32,\r\n}\r\n",
    );
    deletes_to(
        &env,
        "point.rs",
        point,
        "Point::y",
        "/// A point.\r\n#[derive(Debug)]\r\npub struct Point {\r\n    /// Across.\r\n    #[serde(default)]\r\n    pub x: i32,\r\n}\r\n",
    );
    // No trailing comma: deleting the last variant takes the comma before it.
    let level = "pub enum Level {\n    Low,\n    Mid(u8),\n    High { at: u32 }\n}\n";
    deletes_to(
        &env,
        "level.rs",
        level,
        "Level::High",
        "pub enum Level {\n    Low,\n    Mid(u8)\n}\n",
    );
    deletes_to(
        &env,
        "level.rs",
        level,
        "Level::Low",
        "pub enum Level {\n    Mid(u8),\n    High { at: u32 }\n}\n",
    );
    // On one line: the member, its comma and the space after it; the last one with the
    // comma before it.
    let one = "enum Dir { North, East, South }\n";
    deletes_to(
        &env,
        "dir.rs",
        one,
        "Dir::North",
        "enum Dir { East, South }\n",
    );
    deletes_to(
        &env,
        "dir.rs",
        one,
        "Dir::East",
        "enum Dir { North, South }\n",
    );
    deletes_to(
        &env,
        "dir.rs",
        one,
        "Dir::South",
        "enum Dir { North, East }\n",
    );
}

/// The last member's comma before it, with a comment after that comma: two edits, the comment
/// kept; `span_after` is where the member was.
#[test]
fn the_comma_before_the_last_member_goes_and_a_comment_after_it_stays() {
    let env = TestEnv::new();
    let v = deletes_to(
        &env,
        "kind.rs",
        "enum Kind {\n    Plain, // the default\n    /// Fenced.\n    #[doc(hidden)]\n    Fenced // rare\n}\n\nfn f() {}\n",
        "Kind::Fenced",
        "enum Kind {\n    Plain // the default\n}\n\nfn f() {}\n",
    );
    assert_eq!(
        v["result"]["files"][0]["edits"].as_array().unwrap().len(),
        2
    );
    let after = &v["result"]["span_after"];
    check_span(env.path(), after);
    assert_eq!(
        (after["start_line"].as_u64(), after["start_col"].as_u64()),
        (Some(3), Some(0)),
        "{v}"
    );
}

/// C, C#, Java and TypeScript enum members (tabs, CRLF): the comma goes with the member. A
/// Java enum's last constant before `;` and the class body takes the comma before it, never
/// the `;`.
#[test]
fn enum_members_take_their_comma_in_every_language() {
    let env = TestEnv::new();
    let c = "enum color {\r\n\tRED = 1,\r\n\tGREEN,\r\n\tBLUE\r\n};\r\n";
    deletes_to(
        &env,
        "color.c",
        c,
        "color::RED",
        "enum color {\r\n\tGREEN,\r\n\tBLUE\r\n};\r\n",
    );
    deletes_to(
        &env,
        "color.c",
        c,
        "color::BLUE",
        "enum color {\r\n\tRED = 1,\r\n\tGREEN\r\n};\r\n",
    );
    let cs = "namespace App\n{\n\tpublic enum Mode\n\t{\n\t\tRead,\n\t\tWrite,\n\t}\n}\n";
    deletes_to(
        &env,
        "Mode.cs",
        cs,
        "Mode.Read",
        "namespace App\n{\n\tpublic enum Mode\n\t{\n\t\tWrite,\n\t}\n}\n",
    );
    let java = "public enum Planet {\n    MERCURY(1.0),\n    VENUS(2.0);\n\n    private final double mass;\n\n    Planet(double mass) { this.mass = mass; }\n}\n";
    deletes_to(
        &env,
        "Planet.java",
        java,
        "Planet.VENUS",
        "public enum Planet {\n    MERCURY(1.0);\n\n    private final double mass;\n\n    Planet(double mass) { this.mass = mass; }\n}\n",
    );
    deletes_to(
        &env,
        "Planet.java",
        java,
        "Planet.MERCURY",
        "public enum Planet {\n    VENUS(2.0);\n\n    private final double mass;\n\n    Planet(double mass) { this.mass = mass; }\n}\n",
    );
    let ts = "export enum Color { Red = \"r\", Green = \"g\" }\n";
    deletes_to(
        &env,
        "color.ts",
        ts,
        "Color.Red",
        "export enum Color { Green = \"g\" }\n",
    );
    deletes_to(
        &env,
        "color.ts",
        ts,
        "Color.Green",
        "export enum Color { Red = \"r\" }\n",
    );
}

/// A TypeScript interface member takes its `;` (or `,`): a line holding only `;` was left and
/// reported ok (tsc: TS1131 Property or signature expected).
#[test]
fn a_typescript_interface_member_takes_its_semicolon() {
    let env = TestEnv::new();
    let map = "export interface NumberMap {\r\n  has(v: number): boolean;\r\n  size: number;\r\n  get(v: number): string\r\n}\r\n";
    deletes_to(
        &env,
        "map.ts",
        map,
        "NumberMap.has",
        "export interface NumberMap {\r\n  size: number;\r\n  get(v: number): string\r\n}\r\n",
    );
    deletes_to(
        &env,
        "map.ts",
        map,
        "NumberMap.size",
        "export interface NumberMap {\r\n  has(v: number): boolean;\r\n  get(v: number): string\r\n}\r\n",
    );
    // The last member without one keeps the `;` before it: the list is `;`-terminated.
    deletes_to(
        &env,
        "map.ts",
        map,
        "NumberMap.get",
        "export interface NumberMap {\r\n  has(v: number): boolean;\r\n  size: number;\r\n}\r\n",
    );
    let opts = "interface Opts { a: number, b?: string }\n";
    deletes_to(
        &env,
        "opts.ts",
        opts,
        "Opts.a",
        "interface Opts { b?: string }\n",
    );
    deletes_to(
        &env,
        "opts.ts",
        opts,
        "Opts.b",
        "interface Opts { a: number }\n",
    );
}

/// Python statements on one line: the `;` between them goes with the one deleted.
#[test]
fn a_python_statement_takes_its_semicolon() {
    let env = TestEnv::new();
    let src = "WIDTH = 80; HEIGHT = 24\n";
    deletes_to(&env, "size.py", src, "WIDTH", "HEIGHT = 24\n");
    deletes_to(&env, "size.py", src, "HEIGHT", "WIDTH = 80\n");
}

/// A comment on the same line after a definition is the definition's: it goes with it (it was
/// left alone, mis-indented: ` // the x`).
#[test]
fn a_comment_after_a_definition_on_its_line_goes_with_it() {
    let env = TestEnv::new();
    deletes_to(
        &env,
        "t.go",
        "package p\n\ntype T struct {\n\tX int // the x\n\tY int\n}\n",
        "T.X",
        "package p\n\ntype T struct {\n\tY int\n}\n",
    );
    deletes_to(
        &env,
        "m.go",
        "package p\n\nconst (\n\tA = 1 // first\n\tB = 2\n)\n",
        "A",
        "package p\n\nconst (\n\tB = 2\n)\n",
    );
    deletes_to(
        &env,
        "buf.c",
        "struct buf {\r\n\tint len; /* bytes used */\r\n\tint cap; // bytes held\r\n};\r\n",
        "buf::len",
        "struct buf {\r\n\tint cap; // bytes held\r\n};\r\n",
    );
    deletes_to(
        &env,
        "buf.c",
        "struct buf {\r\n\tint len; /* bytes used */\r\n\tint cap; // bytes held\r\n};\r\n",
        "buf::cap",
        "struct buf {\r\n\tint len; /* bytes used */\r\n};\r\n",
    );
    // A block comment that goes on over the lines below.
    deletes_to(
        &env,
        "q.c",
        "struct q {\n\tstruct list_head head; /*\n\t\t\t\t * Waiters, oldest first.\n\t\t\t\t */\n\tint len;\n};\n",
        "q::head",
        "struct q {\n\tint len;\n};\n",
    );
    deletes_to(
        &env,
        "conf.py",
        "TIMEOUT = 30  # seconds\nRETRIES = 3\n",
        "TIMEOUT",
        "RETRIES = 3\n",
    );
    deletes_to(
        &env,
        "Box.java",
        "class Box {\n    int w; // width\n    int h;\n}\n",
        "Box.w",
        "class Box {\n    int h;\n}\n",
    );
    // After a Rust field's comma.
    deletes_to(
        &env,
        "s.rs",
        "struct S {\n    a: u8, // first\n    b: u8,\n}\n",
        "S::a",
        "struct S {\n    b: u8,\n}\n",
    );
}

/// A definition that shares its line with another keeps the line's indentation and the other
/// definition; a comment after both is the line's, not the first one's.
#[test]
fn a_definition_sharing_its_line_leaves_the_rest_of_it_indented() {
    let env = TestEnv::new();
    let src = "struct pair {\n\tint a; int b; // both\n};\n";
    deletes_to(
        &env,
        "pair.c",
        src,
        "pair::a",
        "struct pair {\n\tint b; // both\n};\n",
    );
    deletes_to(
        &env,
        "pair.c",
        src,
        "pair::b",
        "struct pair {\n\tint a; // both\n};\n",
    );
}

/// One of several names one declaration declares goes alone, with its comma (and in Go its
/// value): `int x, y;` went whole, `y` too, reported ok, and was then refused (`PATCH_E011`).
/// Where the declaration cannot lose it (Go's `a, b = f()`: one call gives both) it still is.
#[test]
fn one_name_of_a_declaration_of_several_goes_alone() {
    let env = TestEnv::new();
    let src = "struct point {\n\tint x, y;\n\tint z;\n};\n";
    deletes_to(
        &env,
        "point.c",
        src,
        "point::x",
        "struct point {\n\tint y;\n\tint z;\n};\n",
    );
    deletes_to(
        &env,
        "point.c",
        src,
        "point::y",
        "struct point {\n\tint x;\n\tint z;\n};\n",
    );
    let java = "class A {\n    int c = 1, d = 2, e;\n}\n";
    deletes_to(
        &env,
        "A.java",
        java,
        "A.d",
        "class A {\n    int c = 1, e;\n}\n",
    );
    let cs = "class A {\n    int a, b = 2;\n}\n";
    deletes_to(&env, "A.cs", cs, "A.b", "class A {\n    int a;\n}\n");
    let go = "package p\n\nvar a, b = 1, 2\n";
    deletes_to(&env, "m.go", go, "a", "package p\n\nvar b = 2\n");
    deletes_to(&env, "m.go", go, "b", "package p\n\nvar a = 1\n");

    // Python unpacks by position: `READ = 1, 2` would make READ a tuple.
    let py = "READ, WRITE = 1, 2\n";
    env.write("g.py", py);
    let (v, code) = delete(&env, "g.py", "WRITE");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("PATCH_E011")),
        "{v}"
    );
    assert_eq!(env.read("g.py"), py.as_bytes());

    let src = "package p\n\nfunc f() (int, int) { return 1, 2 }\n\nvar a, b = f()\n";
    env.write("f.go", src);
    let (v, code) = delete(&env, "f.go", "b");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("PATCH_E011")),
        "{v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("with `a`"), "{v}");
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("--with-text"),
        "{v}"
    );
    assert_eq!(env.read("f.go"), src.as_bytes());
}

/// Go: the first constant of a group gives its value to the specs after it that have none
/// (`A Mode = 1 << iota` then `B`, `C`): deleting it left `B` without a value (gofmt: missing
/// constant value), reported ok. It is refused, as is deleting a later constant whose
/// expression the next one repeats; the syntax gate rejects a valueless first spec however it
/// comes (a replace here).
#[test]
fn a_go_constant_whose_value_the_next_ones_repeat_is_refused() {
    let env = TestEnv::new();
    let src = "package p\n\ntype Mode uint\n\nconst (\n\t// A is first.\n\tA Mode = 1 << iota\n\tB\n\tC\n)\n";
    env.write("mode.go", src);
    let (v, code) = delete(&env, "mode.go", "A");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("PATCH_E011")),
        "{v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("`B` would be left without a value"), "{v}");
    let fix = v["error"]["remediation"].as_str().unwrap();
    assert!(fix.contains("llm patch --file mode.go --symbol B"), "{v}");
    assert_eq!(env.read("mode.go"), src.as_bytes());
    // A later constant with a value of its own, repeated by the next one.
    let later = "package p\n\nconst (\n\tA = 1\n\tB = 2\n\tC\n)\n";
    env.write("later.go", later);
    let (v, code) = delete(&env, "later.go", "B");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("PATCH_E011")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`C` would repeat"),
        "{v}"
    );
    assert_eq!(env.read("later.go"), later.as_bytes());
    // A constant that repeats the one before it, or whose next one has its own value, goes.
    deletes_to(
        &env,
        "b.go",
        src,
        "B",
        "package p\n\ntype Mode uint\n\nconst (\n\t// A is first.\n\tA Mode = 1 << iota\n\tC\n)\n",
    );
    // The gate: a first spec without a value, left by a replace.
    env.write("mode.go", src);
    let (v, code) = env.patch(&[
        "--file",
        "mode.go",
        "--symbol",
        "A",
        "--with-text",
        "// gone",
    ]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("missing constant value"),
        "{v}"
    );
    assert_eq!(env.read("mode.go"), src.as_bytes());
}

/// Deleting a Go constant before others that count iota applies, with a warning naming them:
/// their values change.
#[test]
fn deleting_a_go_constant_before_iota_ones_warns() {
    let env = TestEnv::new();
    let v = deletes_to(
        &env,
        "size.go",
        "package size\n\nconst (\n\t_ = iota // skip zero\n\tKB = 1 << (10 * iota)\n\tMB\n)\n",
        "_",
        "package size\n\nconst (\n\tKB = 1 << (10 * iota)\n\tMB\n)\n",
    );
    let warning = &v["diagnostics"][0];
    assert_eq!(
        (warning["level"].as_str(), warning["code"].as_str()),
        (Some("warning"), Some("PATCH_E011")),
        "{v}"
    );
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .contains("`KB`, `MB` now have other values"),
        "{v}"
    );
    // Plain values: no warning.
    let v = deletes_to(
        &env,
        "plain.go",
        "package p\n\nconst (\n\tA = 1\n\tB = 2\n)\n",
        "A",
        "package p\n\nconst (\n\tB = 2\n)\n",
    );
    assert_eq!(v["diagnostics"].as_array().map(Vec::len), Some(0), "{v}");
}

/// An `llm apply` batch's patch delete takes the separator too, the one before it as its own
/// edit.
#[test]
fn an_apply_batch_delete_takes_the_separator() {
    let env = TestEnv::new();
    env.write("e.rs", "enum E {\n    A, // a\n    B\n}\n");
    let batch = r#"{"op":"patch","file":"e.rs","symbol":"E::B","delete":true}"#;
    let (v, code) = env.json_stdin(&["apply", "--json"], batch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("e.rs")).unwrap(),
        "enum E {\n    A // a\n}\n"
    );
}

/// A list written with leading commas (`  , B`): the member's line goes whole, its comma with
/// it (a line of spaces was left where `, B` had been).
#[test]
fn a_member_after_a_leading_comma_takes_its_line() {
    let env = TestEnv::new();
    let src = "enum E {\n    A\n  , B\n  , C\n}\n";
    deletes_to(&env, "e.rs", src, "E::B", "enum E {\n    A\n  , C\n}\n");
    deletes_to(&env, "e.rs", src, "E::C", "enum E {\n    A\n  , B\n}\n");
    let ts = "interface P {\n  a: number\n  ; b: string\n}\n";
    deletes_to(&env, "p.ts", ts, "P.b", "interface P {\n  a: number\n}\n");
}
