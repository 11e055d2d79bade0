//! `llm find` in ES5 and CommonJS JavaScript: constructor functions, prototypes and exports.

use crate::util::TestEnv;
use serde_json::Value;

/// A CommonJS module as lodash and three.js write them: CRLF, tabs, a multibyte comment.
const MODULE: &str = "// Größe — ein Stapel\r\nfunction Stack(items) {\r\n\tthis.items = items;\r\n\tthis.peek = function () {\r\n\t\treturn this.items[0];\r\n\t};\r\n}\r\n\r\nStack.prototype.push = function (item) {\r\n\tthis.items.push(item);\r\n};\r\nStack.prototype.has = stackHas;\r\nStack.prototype.isStack = true;\r\n\r\nexports.make = function (items) {\r\n\treturn new Stack(items);\r\n};\r\nmodule.exports = function () {\r\n\treturn Stack;\r\n};\r\n";

fn flat(ms: &[Value], out: &mut Vec<String>) {
    for m in ms {
        out.push(format!(
            "{} {} {}",
            m["kind"].as_str().unwrap(),
            m["qualified_name"].as_str().unwrap(),
            m["name_span"]["start_line"]
        ));
        flat(m["children"].as_array().map_or(&[][..], |v| v), out);
    }
}

#[test]
fn es5_classes_and_commonjs_exports_are_definitions() {
    let env = TestEnv::new();
    env.write("lib/stack.js", MODULE);
    let (v, code) = env.json(&["find", "--json", "--outline", "lib/stack.js"]);
    assert_eq!(code, 0, "{v:#}");
    let mut have = Vec::new();
    flat(v["data"]["matches"].as_array().unwrap(), &mut have);
    assert_eq!(
        have,
        [
            "function Stack 2",
            "method Stack.peek 4",
            "method Stack.push 9",
            "method Stack.has 12",
            "field Stack.isStack 13",
            "function make 15",
        ],
        "`module.exports = …` names no definition"
    );
    // Found by qualified name, with the function's block as body.
    let (v, code) = env.json(&["find", "--json", "Stack.push", "lib"]);
    assert_eq!(code, 0, "{v:#}");
    let m = &v["data"]["matches"][0];
    assert_eq!(m["parent"], "Stack", "{v:#}");
    assert_eq!(m["body_span"]["start_line"], 9, "{v:#}");
    assert_eq!(m["body_span"]["end_line"], 11, "{v:#}");
}

/// `module.exports.name = …` defines the module's functions and constants as `exports.name =
/// …` does (they were missing).
#[test]
fn module_exports_members_are_definitions() {
    let env = TestEnv::new();
    env.write(
        "m.js",
        "exports.f1 = function () {};\nmodule.exports.f2 = function () {};\nmodule.exports.f3 = () => 1;\nmodule.exports.K = 3;\nmodule.exports = { a: 1 };\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "m.js"]);
    assert_eq!(code, 0, "{v:#}");
    let mut have = Vec::new();
    flat(v["data"]["matches"].as_array().unwrap(), &mut have);
    assert_eq!(
        have,
        [
            "function f1 1",
            "function f2 2",
            "function f3 3",
            "constant K 4"
        ]
    );
    let (v, code) = env.json(&["find", "--json", "f3", "m.js"]);
    assert_eq!(code, 0, "{v:#}");
}
