//! `llm find --refs NAME` of a name defined in several files and languages, and `find NAME`:
//! what is parsed (only files and regions holding NAME as a whole word), the enclosing symbol of
//! each reference (nested items, attributes, decorators), CRLF/BOM/multibyte files, and the
//! same results at every thread count.

use crate::util::{check_span, TestEnv};
use serde_json::Value;

/// A BOM, CRLF line ends, multibyte text before the names, an attribute and a doc comment
/// holding the name, a module with a struct and an impl of the same name.
const A_RS: &[u8] = b"\xef\xbb\xbf//! \xc3\xa9\r\nuse std::result::Result;\r\n\r\n#[derive(Debug)]\r\npub enum Error { Bad(String) }\r\n\r\n/// Returns a Result \xe2\x80\x94 ok\r\n#[cfg_attr(test, allow(Result))]\r\npub fn parse(s: &str) -> Result<u8, Error> {\r\n    let \xc3\xa9 = \"Result\"; // Result\r\n    s.parse::<u8>().map_err(|_| Error::Bad(\xc3\xa9.into()))\r\n}\r\n\r\nmod inner {\r\n    pub struct Result<T>(T);\r\n    impl<T> Result<T> {\r\n        pub fn get(self) -> T { self.0 }\r\n        fn wrap(t: T) -> Result<T> { Result(t) }\r\n    }\r\n}\r\n";

fn tree() -> TestEnv {
    let t = TestEnv::new();
    t.write("a.rs", A_RS);
    t.write(
        "b.rs",
        "type IoResult = std::io::Result<()>;\nfn g() -> IoResult { Ok(()) }\n",
    );
    // Only glued into longer words: never parsed for `Result`.
    t.write(
        "c.rs",
        "type IoResult<T> = Results<T>;\nstruct Results<T>(T);\n",
    );
    t.write(
        "d.py",
        "class Result:\n    def method(self):\n        return Result()\n\n\n@Result.register\n@other\ndef f(x: \"Result\"):\n    return x\n",
    );
    t.write(
        "e.go",
        "package p\n\n// Result is a result.\ntype Result struct{ n int }\n\nfunc (r Result) Get() Result {\n\treturn Result{n: r.n}\n}\n",
    );
    t
}

type Row = (
    String,
    u64,
    u64,
    String,
    bool,
    Option<String>,
    Option<String>,
);

fn rows(t: &TestEnv, v: &Value) -> Vec<Row> {
    let s = |x: &Value| x.as_str().map(str::to_string);
    v["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let span = &m["span"];
            check_span(t.path(), span);
            let file = span["file_path"].as_str().unwrap();
            let bytes = t.read(file);
            let r = span["byte_start"].as_u64().unwrap() as usize
                ..span["byte_end"].as_u64().unwrap() as usize;
            assert_eq!(&bytes[r], b"Result", "{m}");
            (
                file.to_string(),
                span["start_line"].as_u64().unwrap(),
                span["start_col"].as_u64().unwrap(),
                s(&m["context"]).unwrap(),
                m["is_definition"].as_bool().unwrap(),
                s(&m["enclosing"]),
                s(&m["enclosing_kind"]),
            )
        })
        .collect()
}

#[test]
fn refs_of_a_name_defined_in_several_files_with_nesting_attributes_and_decorators() {
    let t = tree();
    let (v, code) = t.json(&["find", "--json", "--refs", "Result"]);
    assert_eq!(code, 0, "{v}");
    let row = |f: &str, l, c, ctx: &str, def, enc: Option<&str>, kind: Option<&str>| -> Row {
        (
            f.into(),
            l,
            c,
            ctx.into(),
            def,
            enc.map(Into::into),
            kind.map(Into::into),
        )
    };
    let want = vec![
        row("a.rs", 2, 17, "import", false, None, None),
        // In the attribute above `parse`: its span holds its attributes.
        row(
            "a.rs",
            8,
            23,
            "identifier",
            false,
            Some("parse"),
            Some("function"),
        ),
        row(
            "a.rs",
            9,
            25,
            "identifier",
            false,
            Some("parse"),
            Some("function"),
        ),
        row(
            "a.rs",
            15,
            15,
            "definition",
            true,
            Some("inner::Result"),
            Some("struct"),
        ),
        row(
            "a.rs",
            16,
            12,
            "definition",
            true,
            Some("inner::Result"),
            Some("impl"),
        ),
        row(
            "a.rs",
            18,
            25,
            "identifier",
            false,
            Some("inner::Result::wrap"),
            Some("method"),
        ),
        row(
            "a.rs",
            18,
            37,
            "call",
            false,
            Some("inner::Result::wrap"),
            Some("method"),
        ),
        row("b.rs", 1, 25, "path", false, Some("IoResult"), Some("type")),
        row(
            "d.py",
            1,
            6,
            "definition",
            true,
            Some("Result"),
            Some("class"),
        ),
        row(
            "d.py",
            3,
            15,
            "call",
            false,
            Some("Result.method"),
            Some("method"),
        ),
        // A decorator belongs to the function it decorates.
        row(
            "d.py",
            6,
            1,
            "identifier",
            false,
            Some("f"),
            Some("function"),
        ),
        row(
            "e.go",
            4,
            5,
            "definition",
            true,
            Some("Result"),
            Some("struct"),
        ),
        row(
            "e.go",
            6,
            8,
            "identifier",
            false,
            Some("Result.Get"),
            Some("method"),
        ),
        row(
            "e.go",
            6,
            22,
            "identifier",
            false,
            Some("Result.Get"),
            Some("method"),
        ),
        row(
            "e.go",
            7,
            8,
            "identifier",
            false,
            Some("Result.Get"),
            Some("method"),
        ),
    ];
    assert_eq!(rows(&t, &v), want);
    // c.rs holds `Result` only inside longer words: not parsed at all.
    let stats = &v["data"]["stats"];
    assert_eq!(stats["files_parsed"], 4, "{stats}");
    assert_eq!(stats["files_skipped_prefilter"], 1, "{stats}");
    let files: Vec<&str> = v["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.rs", "b.rs", "d.py", "e.go"]);
}

#[test]
fn definitions_skip_files_with_the_name_only_inside_longer_words() {
    let t = tree();
    let (v, code) = t.json(&["find", "--json", "Result"]);
    assert_eq!(code, 0, "{v}");
    let got: Vec<(&str, &str)> = v["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["qualified_name"].as_str().unwrap(),
                m["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("inner::Result", "struct"),
            ("inner::Result", "impl"),
            ("Result", "class"),
            ("Result", "struct")
        ]
    );
    assert_eq!(v["data"]["stats"]["files_skipped_prefilter"], 1);
    // `--prefix` needs NAME only at the start of a word: `Results` is found, `IoResult` not.
    let (v, code) = t.json(&["find", "--json", "--prefix", "Result", "c.rs"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["data"]["matches"][0]["qualified_name"], "Results");
    assert_eq!(v["data"]["match_count"], 1);
    let (v, code) = t.json(&["find", "--json", "--refs", "Result", "c.rs"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("no_matches")), "{v}");
}

/// The JSON with the random match ids taken out.
fn redacted(mut v: Value) -> Value {
    for m in v["data"]["matches"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("match_id");
    }
    v["data"].clone()
}

#[test]
fn refs_and_definitions_are_the_same_at_every_thread_count() {
    let t = tree();
    // Many files, so that several workers take some.
    for i in 0..40 {
        let body = format!(
            "mod m{i} {{\n    pub struct Result;\n    impl Result {{\n        pub fn new() -> Result {{ Result }}\n    }}\n}}\n\nfn f{i}() -> std::io::Result<()> {{\n    let _ = m{i}::Result::new();\n    Ok(())\n}}\n"
        );
        t.write(&format!("many/f{i:02}.rs"), body);
    }
    for args in [
        &["find", "--json", "--refs", "Result"][..],
        &["find", "--json", "--refs", "new"][..],
        &["find", "--json", "Result"][..],
    ] {
        let run = |j: &str| {
            let mut a = args.to_vec();
            a.extend(["-j", j]);
            let (v, code) = t.json(&a);
            assert_eq!(code, 0, "{v}");
            redacted(v)
        };
        let one = run("1");
        assert!(one["match_count"].as_u64().unwrap() >= 40, "{one}");
        assert_eq!(one, run("2"), "{args:?}");
        assert_eq!(one, run("4"), "{args:?}");
    }
}
