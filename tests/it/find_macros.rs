//! `llm find` in C++ that tree-sitter reads through unexpanded macros (googletest's
//! `GTEST_API_`, Boost's `BOOST_SYMBOL_VISIBLE`, `BOOST_ASIO_NOEXCEPT`): the definitions keep
//! their own names.

use crate::util::TestEnv;
use serde_json::Value;

/// Headers as Boost and googletest write them (CRLF, tabs, a multibyte comment), one shape
/// each: tree-sitter's recovery from one misread class can swallow what follows it.
const HEADERS: &[(&str, &str)] = &[
    ("exception.hpp", "// Fehlerbehandlung — ünïcode\r\nnamespace boost {\r\nstruct BOOST_SYMBOL_VISIBLE bad_graph : public std::invalid_argument {\r\n\tbad_graph(const std::string& what_arg);\r\n};\r\nstruct BOOST_SYMBOL_VISIBLE not_a_dag : public bad_graph {\r\n\tnot_a_dag();\r\n};\r\n}  // namespace boost\r\n"),
    ("gtest.h", "class GTEST_API_ TestInfo {\r\n public:\r\n\tint id;\r\n};\r\n\r\nGTEST_API_ FailureReporterInterface* GetFailureReporter() {\r\n\treturn 0;\r\n}\r\n\r\nstruct point make_point(int x) {\r\n\treturn point{x};\r\n}\r\n"),
    ("parsers.hpp", "class BOOST_PROGRAM_OPTIONS_DECL basic_parsed_options<wchar_t> {\npublic:\n\tint n;\n};\n"),
    ("buffer.hpp", "class buffer {\npublic:\n\tstd::size_t size() const BOOST_ASIO_NOEXCEPT\n\t{\n\t\treturn size_;\n\t}\n};\n"),
];
fn flat(ms: &[Value], out: &mut Vec<(String, String, u64)>) {
    for m in ms {
        out.push((
            m["kind"].as_str().unwrap().to_string(),
            m["name"].as_str().unwrap().to_string(),
            m["name_span"]["start_line"].as_u64().unwrap_or(0),
        ));
        flat(m["children"].as_array().map_or(&[][..], |v| v), out);
    }
}

#[test]
fn cpp_definitions_behind_macros_keep_their_names() {
    let env = TestEnv::new();
    let mut have = Vec::new();
    for (name, text) in HEADERS {
        let path = format!("include/{name}");
        env.write(&path, text);
        let (v, _) = env.json(&["find", "--json", "--outline", &path]);
        let mut found = Vec::new();
        flat(v["data"]["matches"].as_array().unwrap(), &mut found);
        have.extend(
            found
                .into_iter()
                .map(|(k, n, l)| (k, format!("{name}:{n}"), l)),
        );
    }
    for (kind, name, line) in [
        ("struct", "exception.hpp:bad_graph", 3),
        ("struct", "exception.hpp:not_a_dag", 6),
        ("class", "gtest.h:TestInfo", 1),
        ("function", "gtest.h:GetFailureReporter", 6),
        ("function", "gtest.h:make_point", 10),
        ("class", "parsers.hpp:basic_parsed_options", 1),
        ("class", "buffer.hpp:buffer", 1),
        ("method", "buffer.hpp:size", 3),
    ] {
        assert!(
            have.iter()
                .any(|h| (h.0.as_str(), h.1.as_str(), h.2) == (kind, name, line)),
            "no {kind} {name} at line {line} in {have:?}"
        );
    }
    // The macros are never definitions, and a C-style `struct point f()` is a function only.
    for (_, name, _) in &have {
        let name = name.split(':').nth(1).unwrap();
        assert!(
            !name.starts_with("BOOST_") && !name.starts_with("GTEST_") && name != "point",
            "{have:?}"
        );
    }
    // `size() const BOOST_ASIO_NOEXCEPT` is found by name, its body the braces after the macro.
    let (v, code) = env.json(&["find", "--json", "size", "include"]);
    assert_eq!(code, 0, "{v:#}");
    let m = &v["data"]["matches"][0];
    assert_eq!(m["span"]["start_line"], 3, "{v:#}");
    assert_eq!(m["body_span"]["start_line"], 4, "{v:#}");
    assert_eq!(m["body_span"]["end_line"], 6, "{v:#}");
}
