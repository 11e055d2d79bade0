//! C and C++ `llm patch --rename` onto a name a quoted header declares (`#include "util.h"`):
//! the renamed file compiled no more (`static int other(…)` after the header's `int
//! other(int);`, a function named like the header's macro), and the rename said `ok`.

use crate::util::TestEnv;

const UTIL_H: &str = "#ifndef UTIL_H\n#define UTIL_H\n\nint helper(int x);\nint other(int y);\n#define LIMIT 10\n#define SQUARE(v) ((v) * (v))\n\nenum color { RED, GREEN };\ntypedef unsigned long count_t;\nstruct point {\n    int x;\n    int y;\n};\n\nstatic inline int twice(int v) {\n    int doubled = v * 2;\n    return doubled;\n}\n\n#endif\n";

const MAIN_C: &str = "#include <stdio.h>\n#include \"util.h\"\n\nstruct pair {\n    int first;\n};\n\nstatic int compute(int a) {\n    return a * 2;\n}\n\nint main(void) {\n    struct pair p = {compute(helper(1))};\n    printf(\"%d\\n\", p.first);\n    return 0;\n}\n";

/// Refused, naming `at` (a header's path and line), with nothing written.
fn refused(env: &TestEnv, file: &str, symbol: &str, new: &str, at: &str) {
    let before = env.text(file);
    let (v, code) = env.rename(file, symbol, new);
    assert_eq!(code, 1, "{symbol} -> {new}: {v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{symbol} -> {new}: {v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains(at), "{symbol} -> {new}: {v}");
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("pick another name"),
        "{v}"
    );
    assert_eq!(env.text(file), before, "{symbol} -> {new}");
}

/// A prototype, a macro (object-like or function-like), an enum constant, a typedef and an
/// inline function of an included header take their names; a struct tag takes its name from
/// another tag only, and a field's name, a local's or a parameter's in the header is no name
/// of the file.
#[test]
fn a_quoted_headers_file_scope_names_are_taken() {
    let env = TestEnv::new();
    env.write("util.h", UTIL_H);
    env.write("main.c", MAIN_C);
    for (new, at) in [
        ("other", "declared at util.h:5"),
        ("LIMIT", "defined as a macro at util.h:6"),
        ("SQUARE", "defined as a macro at util.h:7"),
        ("GREEN", "declared as an enum constant at util.h:9"),
        ("count_t", "defined at util.h:10"),
        ("twice", "defined at util.h:16"),
    ] {
        refused(&env, "main.c", "compute", new, at);
        assert!(
            env.text("util.h") == UTIL_H,
            "the header is left alone: {new}"
        );
    }
    // A field is renamed onto a macro's name no more than a function is.
    refused(&env, "main.c", "pair::first", "LIMIT", "util.h:6");
    // Tags are a name space of their own: `point` is free for a function, not for a struct.
    refused(&env, "main.c", "pair", "point", "defined at util.h:11");
    for new in ["point", "x", "doubled", "y", "v"] {
        let env = TestEnv::new();
        env.write("util.h", UTIL_H);
        env.write("main.c", MAIN_C);
        let (v, code) = env.rename("main.c", "compute", new);
        assert_eq!(code, 0, "{new}: {v}");
        assert_eq!(env.text("main.c"), MAIN_C.replace("compute", new));
    }
}

/// Includes of included headers are read, each beside the header that includes it
/// (`inc/a.h` includes `"b.h"`: `inc/b.h`); the refusal says through which.
#[test]
fn a_nested_headers_names_are_taken() {
    let env = TestEnv::new();
    env.write(
        "inc/a.h",
        "#pragma once\n#include \"b.h\"\n\nint alpha(void);\n",
    );
    env.write(
        "inc/b.h",
        "#pragma once\n\nextern int verbose;\nint beta(void);\n",
    );
    // A `b.h` beside main.c is not the one `inc/a.h` includes.
    env.write("b.h", "int unrelated(void);\n");
    let main = "#include \"inc/a.h\"\n\nstatic int step(int n) {\n    return n + alpha();\n}\n\nint run(void) {\n    return step(verbose);\n}\n";
    env.write("main.c", main);
    refused(&env, "main.c", "step", "beta", "declared at inc/b.h:4");
    refused(&env, "main.c", "step", "verbose", "through inc/a.h");
    let (v, code) = env.rename("main.c", "step", "unrelated");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("main.c"), main.replace("step", "unrelated"));
}

/// Headers that include each other are each read once: the check ends, and still finds a name
/// in either.
#[test]
fn an_include_cycle_ends() {
    let env = TestEnv::new();
    env.write(
        "a.h",
        "#ifndef A_H\n#define A_H\n#include \"b.h\"\nint from_a(void);\n#endif\n",
    );
    env.write(
        "b.h",
        "#ifndef B_H\n#define B_H\n#include \"a.h\"\nint from_b(void);\n#endif\n",
    );
    let main = "#include \"a.h\"\n\nint work(void) {\n    return from_a() + from_b();\n}\n";
    env.write("main.c", main);
    refused(&env, "main.c", "work", "from_b", "declared at b.h:4");
    refused(&env, "main.c", "work", "from_a", "declared at a.h:4");
    let (v, code) = env.rename("main.c", "work", "labour");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("main.c"), main.replace("work", "labour"));
}

/// A quoted header that is not there is skipped (the headers after it are still read), and a
/// system header (`<util.h>`) is not read, even where a file of its name lies beside the
/// includer.
#[test]
fn a_missing_or_system_header_is_not_read() {
    let env = TestEnv::new();
    env.write("util.h", UTIL_H);
    env.write("config.h", "#define VERSION 3\n");
    let main = "#include \"missing.h\"\n#include <util.h>\n#include \"config.h\"\n\nstatic int compute(int a) {\n    return a * VERSION;\n}\n\nint main(void) {\n    return compute(1);\n}\n";
    env.write("main.c", main);
    refused(&env, "main.c", "compute", "VERSION", "config.h:1");
    let (v, code) = env.rename("main.c", "compute", "other");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("main.c"), main.replace("compute", "other"));
}

/// A header not beside its includer is looked for under the root (`src/main.c` including
/// `"util.h"` of the root).
#[test]
fn a_header_under_the_root_is_read() {
    let env = TestEnv::new();
    env.write("util.h", UTIL_H);
    env.write("src/main.c", MAIN_C);
    refused(
        &env,
        "src/main.c",
        "compute",
        "other",
        "declared at util.h:5",
    );
}

/// Renaming a function a header declares is still the rename of its prototype, its definition
/// and its calls: the header's declaration is the renamed symbol, not another of the name.
#[test]
fn a_function_declared_in_a_header_is_renamed_there() {
    let env = TestEnv::new();
    env.write("util.h", UTIL_H);
    let helper = "#include \"util.h\"\n\nint helper(int x) {\n    return x + LIMIT;\n}\n";
    env.write("helper.c", helper);
    env.write("main.c", MAIN_C);
    let (v, code) = env.rename("helper.c", "helper", "assist");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("util.h"), UTIL_H.replace("helper", "assist"));
    assert_eq!(env.text("helper.c"), helper.replace("helper", "assist"));
    assert_eq!(env.text("main.c"), MAIN_C.replace("helper", "assist"));
    // …and back.
    let (v, code) = env.rename("helper.c", "assist", "helper");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("util.h"), UTIL_H);
    // Onto a name the header declares beside it: refused.
    refused(&env, "helper.c", "helper", "other", "util.h:5");
}

/// C++: a header's function, macro and namespace take their names from a function, and a
/// class its name from a class; a function may share a class's name (`class stat` beside
/// `int stat()`), as in one file. A scoped enum's constants are named through it.
#[test]
fn a_cpp_headers_names_are_taken() {
    let hpp = "#pragma once\n#include <string>\n\n#define MAX_SIZE 64\n\nnamespace geo {\nint area(int w, int h);\n}\n\nclass Widget {\npublic:\n    int size() const;\n};\n\nenum class Mode { Fast, Slow };\n\nint perimeter(int w, int h);\n";
    let cpp = "#include \"shapes.hpp\"\n\nclass Gadget {\npublic:\n    int weight() const { return 1; }\n};\n\nstatic int measure(int w) {\n    return w * 2;\n}\n\nint main() {\n    Gadget g;\n    return measure(g.weight());\n}\n";
    let env = TestEnv::new();
    env.write("shapes.hpp", hpp);
    env.write("main.cpp", cpp);
    refused(
        &env,
        "main.cpp",
        "measure",
        "perimeter",
        "declared at shapes.hpp:17",
    );
    refused(&env, "main.cpp", "measure", "MAX_SIZE", "shapes.hpp:4");
    refused(
        &env,
        "main.cpp",
        "measure",
        "geo",
        "defined at shapes.hpp:6",
    );
    refused(
        &env,
        "main.cpp",
        "Gadget",
        "Widget",
        "defined at shapes.hpp:10",
    );
    for new in ["Widget", "Fast", "size"] {
        let env = TestEnv::new();
        env.write("shapes.hpp", hpp);
        env.write("main.cpp", cpp);
        let (v, code) = env.rename("main.cpp", "measure", new);
        assert_eq!(code, 0, "{new}: {v}");
        assert_eq!(env.text("main.cpp"), cpp.replace("measure", new));
    }
}
