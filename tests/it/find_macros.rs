//! `llm find` in C and C++ that tree-sitter reads through unexpanded macros (googletest's
//! `GTEST_API_`, Boost's `BOOST_SYMBOL_VISIBLE`, `BOOST_ASIO_NOEXCEPT`, the kernel's
//! `BPF_CALL_2(name, …) {…}`): the definitions keep their own names.

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

/// The Linux kernel declares functions through macros whose first argument is the name:
/// tree-sitter reads `SYSCALL_DEFINE1(name, int, fd)` as a call missing its `;`, then a block.
const KERNEL_C: &str = "// Größe — tabs, CRLF, no final newline\r\nBPF_CALL_2(bpf_map_push_elem, struct bpf_map *, map, void *, value)\r\n{\r\n\treturn map->ops->push(map, value);\r\n}\r\n\r\n#ifdef CONFIG_COMPAT\r\nCOMPAT_SYSCALL_DEFINE1(sysinfo, struct compat_sysinfo __user *, info)\r\n{\r\n\tTAILQ_FOREACH(np, &head, entries) {\r\n\t\tcount++;\r\n\t}\r\n\treturn 0;\r\n}\r\n#endif\r\n\r\nstatic int plain(void)\r\n{\r\n\treturn 1;\r\n}";

#[test]
fn c_functions_declared_by_macros_are_named_by_their_first_argument() {
    let env = TestEnv::new();
    env.write("kernel/helpers.c", KERNEL_C);
    let (v, _) = env.json(&["find", "--json", "--outline", "kernel/helpers.c"]);
    let mut have = Vec::new();
    flat(v["data"]["matches"].as_array().unwrap(), &mut have);
    let want = [
        ("function".to_string(), "bpf_map_push_elem".to_string(), 2),
        ("function".to_string(), "sysinfo".to_string(), 8),
        ("function".to_string(), "plain".to_string(), 17),
    ];
    // The loop macro inside `sysinfo` (`TAILQ_FOREACH(np, …) {…}`) is no definition.
    assert_eq!(have, want, "{v:#}");

    // Found by name, spanning its comment, the call and its block; the block is the body.
    let (v, code) = env.json(&["find", "--json", "bpf_map_push_elem", "kernel"]);
    assert_eq!(code, 0, "{v:#}");
    let m = &v["data"]["matches"][0];
    let text = |s: &Value| {
        let (a, b) = (
            s["byte_start"].as_u64().unwrap(),
            s["byte_end"].as_u64().unwrap(),
        );
        String::from_utf8(KERNEL_C.as_bytes()[a as usize..b as usize].to_vec()).unwrap()
    };
    assert_eq!(
        text(&m["span"]),
        "// Größe — tabs, CRLF, no final newline\r\nBPF_CALL_2(bpf_map_push_elem, struct bpf_map *, map, void *, value)\r\n{\r\n\treturn map->ops->push(map, value);\r\n}"
    );
    assert_eq!(
        text(&m["body_span"]),
        "{\r\n\treturn map->ops->push(map, value);\r\n}"
    );
    assert_eq!(text(&m["name_span"]), "bpf_map_push_elem");
    assert!(text(&m["node_span"]).starts_with("BPF_CALL_2("));
    assert_eq!(
        m["signature"],
        "BPF_CALL_2(bpf_map_push_elem, struct bpf_map *, map, void *, value)"
    );

    // Its body sent back unchanged leaves the file byte-identical; a new body lands.
    let (v, code) = env.patch(&[
        "--file",
        "kernel/helpers.c",
        "--symbol",
        "sysinfo",
        "--body",
        "--with-text",
        "{\r\n\tTAILQ_FOREACH(np, &head, entries) {\r\n\t\tcount++;\r\n\t}\r\n\treturn 0;\r\n}",
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("kernel/helpers.c"), KERNEL_C.as_bytes());
    let (v, code) = env.patch(&[
        "--file",
        "kernel/helpers.c",
        "--symbol",
        "bpf_map_push_elem",
        "--body",
        "--with-text",
        "{\n\treturn -EOPNOTSUPP;\n}",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let after = String::from_utf8(env.read("kernel/helpers.c")).unwrap();
    assert!(
        after.contains("void *, value)\r\n{\r\n\treturn -EOPNOTSUPP;\r\n}\r\n\r\n#ifdef"),
        "{after:?}"
    );
}
