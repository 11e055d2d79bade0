//! `llm find` in shell scripts that tree-sitter-bash cannot read whole (extended globs in
//! `[[ … ]]`, as bash-completion writes them): every function is still listed, with the spans
//! a clean parse gives, by outline and by name alike, and its body can be replaced.

use crate::util::TestEnv;
use serde_json::Value;

/// A completion script: a multibyte comment, tabs, a top-level line and a function body that
/// tree-sitter-bash fails on, a here-document holding what looks like a function, no final
/// newline.
const SCRIPT: &str = "#!/bin/bash\n# Completion helpers — ünïcode\n\n[[ $OSTYPE == *@(linux|darwin)* ]] || return 1\n\n# Lists the modules.\n_modules()\n{\n\tlocal cur=$1\n\tif [[ $cur == @(*/|[.~])* ]]; then\n\t\t_filedir\n\tfi\n}\n\n_kernel_versions() {\n\tCOMPREPLY=($(compgen -W '$(command ls /lib/modules)' -- \"$cur\"))\n}\n\nfunction _usage {\n\tcat <<EOF\nusage() {\n}\nEOF\n}\ncomplete -F _modules modprobe";

fn text(s: &Value) -> &'static str {
    let (a, b) = (
        s["byte_start"].as_u64().unwrap() as usize,
        s["byte_end"].as_u64().unwrap() as usize,
    );
    &SCRIPT[a..b]
}

#[test]
fn functions_of_a_script_tree_sitter_cannot_read_are_found() {
    let env = TestEnv::new();
    env.write("completions/mod.bash", SCRIPT);
    let (v, code) = env.json(&["find", "--json", "--outline", "completions/mod.bash"]);
    assert_eq!(code, 0, "{v:#}");
    let outline = v["data"]["matches"].as_array().unwrap().clone();
    let names: Vec<(&str, u64)> = outline
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap(),
                m["name_span"]["start_line"].as_u64().unwrap(),
            )
        })
        .collect();
    // Not `usage`: it is the text of a here-document.
    assert_eq!(
        names,
        [("_modules", 7), ("_kernel_versions", 15), ("_usage", 19)],
        "{v:#}"
    );
    // The function whose body has the error: its comment, head and braces.
    let m = &outline[0];
    assert_eq!(
        text(&m["span"]),
        "# Lists the modules.\n_modules()\n{\n\tlocal cur=$1\n\tif [[ $cur == @(*/|[.~])* ]]; then\n\t\t_filedir\n\tfi\n}"
    );
    assert_eq!(
        text(&m["body_span"]),
        "{\n\tlocal cur=$1\n\tif [[ $cur == @(*/|[.~])* ]]; then\n\t\t_filedir\n\tfi\n}"
    );
    assert_eq!(
        text(&outline[2]["body_span"]),
        "{\n\tcat <<EOF\nusage() {\n}\nEOF\n}"
    );

    // Found by name, the same symbol as the outline's (the file's syntax errors warned about).
    for (k, name) in ["_modules", "_kernel_versions", "_usage"]
        .iter()
        .enumerate()
    {
        let (v, code) = env.json(&["find", "--json", name, "completions"]);
        assert_eq!(code, 0, "{v:#}");
        let m = &v["data"]["matches"][0];
        for key in ["span", "body_span", "name_span", "kind", "signature"] {
            assert_eq!(m[key], outline[k][key], "{name} {key}: {v:#}");
        }
    }

    // The body sent back unchanged leaves the file byte-identical; a new one lands.
    let body = text(&outline[0]["body_span"]);
    let (v, code) = env.patch(&[
        "--file",
        "completions/mod.bash",
        "--symbol",
        "_modules",
        "--body",
        "--with-text",
        body,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("completions/mod.bash"), SCRIPT.as_bytes());
    let (v, code) = env.patch(&[
        "--file",
        "completions/mod.bash",
        "--symbol",
        "_modules",
        "--body",
        "--with-text",
        "{\n\t_filedir -d\n}",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let after = String::from_utf8(env.read("completions/mod.bash")).unwrap();
    assert_eq!(after, SCRIPT.replace(body, "{\n\t_filedir -d\n}"));

    // A body with an error of its own is refused, in a file that already had some.
    let (v, code) = env.patch(&[
        "--file",
        "completions/mod.bash",
        "--symbol",
        "_kernel_versions",
        "--body",
        "--with-text",
        "{\n\tif then fi (\n}",
    ]);
    assert_ne!(code, 0, "{v:#}");
    assert_eq!(v["error"]["code"], "LLM_E106", "{v:#}");
    assert_eq!(env.read("completions/mod.bash"), after.as_bytes());
}

/// Functions defined in the branches of an `if` whose `[[ … ]]` condition tree-sitter-bash
/// cannot read (bash-completion's `_pids`): listed, each with its own span, instead of the
/// assignments of their bodies that the whole-file recovery took for top-level constants.
#[test]
fn functions_in_an_if_with_an_unreadable_condition_are_found() {
    let script = "x=1\r\n\r\n# X/Open ps on AIX and Solaris.\nif [[ $OSTYPE == *@(solaris|aix)* ]]; then\n    _pids()\n    {\n        procs=($(ps -efo pid))\n    }\nelse\n    # BSD ps.\n    _pids()\n    {\n        local line=ä\n        procs=($(ps axo pid=))\n    }\nfi\ndone_=1";
    let env = TestEnv::new();
    env.write("c.bash", script);
    let (v, code) = env.json(&["find", "--json", "--outline", "c.bash"]);
    assert_eq!(code, 0, "{v:#}");
    let outline = v["data"]["matches"].as_array().unwrap().clone();
    let found: Vec<(&str, &str, u64)> = outline
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap(),
                m["name"].as_str().unwrap(),
                m["name_span"]["start_line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("constant", "x", 1),
            ("function", "_pids", 5),
            ("function", "_pids", 11),
            ("constant", "done_", 17)
        ],
        "{v:#}"
    );
    let span = |m: &Value, key: &str| {
        let s = &m[key];
        let (a, b) = (
            s["byte_start"].as_u64().unwrap(),
            s["byte_end"].as_u64().unwrap(),
        );
        script[a as usize..b as usize].to_string()
    };
    assert_eq!(
        span(&outline[2], "span"),
        "# BSD ps.\n    _pids()\n    {\n        local line=ä\n        procs=($(ps axo pid=))\n    }"
    );
    assert_eq!(
        span(&outline[1], "body_span"),
        "{\n        procs=($(ps -efo pid))\n    }"
    );
    // By name: both definitions, with the outline's spans.
    let (v, code) = env.json(&["find", "--json", "_pids", "c.bash"]);
    assert_eq!(code, 0, "{v:#}");
    let by_name = v["data"]["matches"].as_array().unwrap();
    assert_eq!(by_name.len(), 2, "{v:#}");
    for (m, o) in by_name.iter().zip(&outline[1..3]) {
        assert_eq!(m["span"], o["span"], "{v:#}");
        assert_eq!(m["body_span"], o["body_span"], "{v:#}");
    }
}

/// A `#!` line opening a script names its interpreter: it is no doc comment of the function on
/// the next line (Bash, Ruby), so `patch --delete` of that function keeps it. A comment below
/// it still documents the function.
#[test]
fn the_interpreter_line_documents_no_function() {
    let env = TestEnv::new();
    env.write(
        "run.sh",
        "#!/bin/bash\nf1() { echo 1; }\nf2() { echo 2; }\n",
    );
    env.write(
        "top.rb",
        "\u{feff}#!/usr/bin/env ruby\n# Says hi.\ndef top; end\n",
    );
    let (v, code) = env.json(&["find", "--json", "f1", "run.sh"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["data"]["matches"][0]["span"]["start_line"], 2, "{v:#}");
    let (v, code) = env.json(&["find", "--json", "top", "top.rb"]);
    assert_eq!(code, 0, "{v:#}");
    // After the BOM (3 bytes) and the `#!` line (20 bytes): the comment is the doc.
    assert_eq!(v["data"]["matches"][0]["span"]["byte_start"], 23, "{v:#}");
    let (v, code) = env.patch(&["--file", "run.sh", "--symbol", "f1", "--delete"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("run.sh"), b"#!/bin/bash\nf2() { echo 2; }\n");
}
