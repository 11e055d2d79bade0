//! `llm patch --rename` of a TypeScript interface's field: where a written type says a key or
//! a receiver is the field's (destructuring from a typed value, literals typed by where they
//! go), and where a field of the same name is another type's. Renamed before, the literal's
//! and the pattern's keys were left (tsc: TS2353, TS2339) and a type literal's field of the
//! name was renamed as a possible site (its function's destructuring broke).

use crate::util::TestEnv;
use serde_json::Value;

const TYPES: &str = "export interface Config {\n  timeout: number;\n  retries: number;\n}\n";

/// `(line, class)` of each site in `file`, in order.
fn classes(v: &Value, file: &str) -> Vec<(u64, String)> {
    v["result"]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["span"]["file_path"] == file)
        .map(|s| {
            (
                s["span"]["start_line"].as_u64().unwrap(),
                s["class"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The brief's example across two files: the shorthand destructuring keeps its local name,
/// `c = load()` has `load`'s declared type, the literal `load` returns is a `Config`, and
/// `other`'s own `{ timeout: number }` is no site. Renamed back, the file is as it was.
#[test]
fn field_rename_follows_destructuring_and_returns_across_files() {
    let use_ts = "import { Config } from \"./types\";\n\nexport function load(): Config {\n  return { timeout: 5, retries: 2 };\n}\n\nexport function run(cfg: Config) {\n  const { timeout, retries } = cfg;\n  const c = load();\n  const { timeout: t } = c;\n  console.log(cfg.timeout, timeout, retries, t);\n}\n\nfunction other(opts: { timeout: number }) {\n  const { timeout } = opts;\n  return timeout;\n}\n";
    let env = TestEnv::new();
    env.write("types.ts", TYPES);
    env.write("use.ts", use_ts);
    let (v, code) = env.rename("types.ts", "Config.timeout", "deadline");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("types.ts"), TYPES.replace("timeout", "deadline"));
    let want = "import { Config } from \"./types\";\n\nexport function load(): Config {\n  return { deadline: 5, retries: 2 };\n}\n\nexport function run(cfg: Config) {\n  const { deadline: timeout, retries } = cfg;\n  const c = load();\n  const { deadline: t } = c;\n  console.log(cfg.deadline, timeout, retries, t);\n}\n\nfunction other(opts: { timeout: number }) {\n  const { timeout } = opts;\n  return timeout;\n}\n";
    assert_eq!(env.text("use.ts"), want);
    // Each site a declared type proves is certain; `other`'s are excluded, none possible.
    let sites = classes(&v, "use.ts");
    let renamed: Vec<_> = sites
        .iter()
        .filter(|s| s.1 != "excluded")
        .cloned()
        .collect();
    let certain = |l: u64| (l, "certain".to_string());
    assert_eq!(
        renamed,
        [certain(4), certain(8), certain(10), certain(11)],
        "{v}"
    );
    assert!(sites.iter().any(|s| s.0 == 14 && s.1 == "excluded"), "{v}");
    // …and back, byte for byte: `{ deadline: timeout }` is `{ timeout }` again.
    let (v, code) = env.rename("types.ts", "Config.deadline", "timeout");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("types.ts"), TYPES);
    assert_eq!(env.text("use.ts"), use_ts);
}

/// A field of the same name declared by another type — a type literal, a type alias's object
/// type, another interface, another class — is never a site, not even `possible`; nor is
/// `opts.timeout` where `opts` has such a type. An interface that extends the field's and a
/// class that implements it declare the same member: they are renamed with it.
#[test]
fn same_named_fields_of_other_types_are_not_sites() {
    let src = "interface Config {\n  timeout: number;\n}\n\ninterface Sub extends Config {\n  timeout: number;\n  label: string;\n}\n\nclass Impl implements Config {\n  timeout = 1;\n}\n\ninterface Unrelated {\n  timeout: string;\n}\n\nclass Other {\n  timeout = 3;\n}\n\ntype Opts = { timeout: number; name: string };\n\nfunction other(opts: { timeout: number }, o: Opts) {\n  return opts.timeout + o.name.length;\n}\n\nfunction sub(s: Sub) {\n  return s.timeout;\n}\n";
    let env = TestEnv::new();
    env.write("t.ts", src);
    let (v, code) = env.rename_at("t.ts", "Config.timeout", "2", "deadline");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("timeout", "deadline", 3)
        .replace("return s.timeout", "return s.deadline");
    assert_eq!(env.text("t.ts"), want);
    let sites = classes(&v, "t.ts");
    assert!(!sites.iter().any(|s| s.1 == "possible"), "{v}");
    for line in [15, 19, 22, 24, 25] {
        assert!(
            sites.iter().any(|s| s.0 == line && s.1 == "excluded"),
            "line {line}: {v}"
        );
    }
}

/// Destructuring a value whose type is written as the field's interface: a parameter's, a
/// variable's, a same-file function's return type, an imported function's, a destructured
/// parameter, a default, a rest. A shorthand keeps its local name; `{ timeout: t }` keeps
/// `t`. A value of no written type, or of another type, keeps its keys.
#[test]
fn destructuring_a_typed_value_renames_its_keys() {
    let api = "import { Config } from \"./types\";\n\nexport function fetchConfig(): Config {\n  return { timeout: 1, retries: 0 };\n}\n\nexport const makeConfig = (): Config => ({ timeout: 2, retries: 1 });\n";
    let src = "import { Config } from \"./types\";\nimport { fetchConfig, makeConfig as make } from \"./api\";\n\nfunction local(): Config {\n  return fetchConfig();\n}\n\nexport function a(cfg: Config) {\n  const { timeout } = cfg;\n  return timeout;\n}\n\nexport function b() {\n  const cfg: Config = fetchConfig();\n  const { timeout: t, ...rest } = cfg;\n  const { timeout = 3 } = local();\n  return t + timeout + rest.retries;\n}\n\nexport function c() {\n  const { timeout } = fetchConfig();\n  const { timeout: u } = make();\n  return timeout + u;\n}\n\nexport function d({ timeout, retries }: Config, { timeout: e = 1 }: Config) {\n  return timeout + retries + e;\n}\n\nexport function untyped(raw: string, other: { timeout: number }) {\n  const { timeout } = JSON.parse(raw);\n  const { timeout: o } = other;\n  return timeout + o;\n}\n";
    let env = TestEnv::new();
    env.write("types.ts", TYPES);
    env.write("api.ts", api);
    env.write("use.ts", src);
    let (v, code) = env.rename("types.ts", "Config.timeout", "deadline");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace(
            "a(cfg: Config) {\n  const { timeout }",
            "a(cfg: Config) {\n  const { deadline: timeout }",
        )
        .replace("{ timeout: t, ...rest }", "{ deadline: t, ...rest }")
        .replace("{ timeout = 3 }", "{ deadline: timeout = 3 }")
        .replace(
            "const { timeout } = fetchConfig()",
            "const { deadline: timeout } = fetchConfig()",
        )
        .replace("{ timeout: u }", "{ deadline: u }")
        .replace(
            "d({ timeout, retries }: Config, { timeout: e = 1 }",
            "d({ deadline: timeout, retries }: Config, { deadline: e = 1 }",
        );
    assert_eq!(env.text("use.ts"), want);
    assert_eq!(env.text("api.ts"), api.replace("{ timeout:", "{ deadline:"));
    let sites = classes(&v, "use.ts");
    assert!(!sites.iter().any(|s| s.1 == "possible"), "{v}");
}

/// Object literals typed by where they go: a variable's written type, a function's return
/// type (also an arrow's `({ … })`), `satisfies`, `as`, an argument to a function of the file
/// whose parameter is the interface, an assignment to a variable declared with it. A
/// shorthand keeps its value. A literal passed where no type is written keeps its keys.
#[test]
fn contextually_typed_object_literals_rename_their_keys() {
    let src = "interface Config {\n  timeout: number;\n  retries: number;\n}\n\nfunction apply(cfg: Config, extra: number) {\n  return cfg.retries + extra;\n}\n\nfunction log(v: unknown) {\n  console.log(v);\n}\n\nexport function make(timeout: number): Config {\n  const x: Config = { timeout: 1, retries: 0 };\n  const y = { timeout, retries: 1 } satisfies Config;\n  const z = { timeout: 2, retries: 2 } as Config;\n  let w: Config;\n  w = { timeout, retries: 3 };\n  apply({ timeout: 4, retries: 4 }, 1);\n  log({ timeout: 5 });\n  log([x, y, z, w]);\n  return { timeout, retries: 5 };\n}\n\nexport const quick = (): Config => ({ timeout: 6, retries: 6 });\n";
    let env = TestEnv::new();
    env.write("t.ts", src);
    let (v, code) = env.rename_at("t.ts", "Config.timeout", "2", "deadline");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  timeout: number;", "  deadline: number;")
        .replace("{ timeout: 1", "{ deadline: 1")
        .replace(
            "{ timeout, retries: 1 }",
            "{ deadline: timeout, retries: 1 }",
        )
        .replace("{ timeout: 2", "{ deadline: 2")
        .replace(
            "{ timeout, retries: 3 }",
            "{ deadline: timeout, retries: 3 }",
        )
        .replace("{ timeout: 4", "{ deadline: 4")
        .replace(
            "{ timeout, retries: 5 }",
            "{ deadline: timeout, retries: 5 }",
        )
        .replace("{ timeout: 6", "{ deadline: 6");
    assert_eq!(env.text("t.ts"), want);
    assert!(want.contains("log({ timeout: 5 })"));
    let sites = classes(&v, "t.ts");
    assert!(!sites.iter().any(|s| s.1 == "possible"), "{v}");
}

/// `.tsx` reads written types by the same rules: a component's destructured props, a typed
/// literal, a destructured typed value.
#[test]
fn tsx_reads_written_types_too() {
    let src = "interface Props {\n  title: string;\n  size: number;\n}\n\nexport function Card({ title, size }: Props) {\n  return <h1 style={{ fontSize: size }}>{title}</h1>;\n}\n\nexport function Page(props: Props) {\n  const { title: heading } = props;\n  const card: Props = { title: heading, size: 2 };\n  return <Card {...card} />;\n}\n\nfunction Other({ title }: { title: string }) {\n  return <p>{title}</p>;\n}\n";
    let env = TestEnv::new();
    env.write("card.tsx", src);
    let (v, code) = env.rename_at("card.tsx", "Props.title", "2", "label");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  title: string;", "  label: string;")
        .replace("Card({ title, size }", "Card({ label: title, size }")
        .replace("{ title: heading }", "{ label: heading }")
        .replace("{ title: heading, size: 2 }", "{ label: heading, size: 2 }");
    assert_eq!(env.text("card.tsx"), want);
    let sites = classes(&v, "card.tsx");
    assert!(!sites.iter().any(|s| s.1 == "possible"), "{v}");
}

/// JavaScript writes no types: a class field's rename keeps today's reading there — a key
/// of an object or a pattern is another object's (`excluded`), `cfg.timeout` is a possible
/// site. (A guard: this behaviour did not change.)
#[test]
fn javascript_keeps_its_reading_without_types() {
    let src = "class Config {\n  timeout = 1;\n}\n\nfunction run(cfg) {\n  const { timeout } = cfg;\n  return cfg.timeout + timeout + { timeout: 2 }.timeout;\n}\n";
    let env = TestEnv::new();
    env.write("c.js", src);
    let (v, code) = env.rename_at("c.js", "Config.timeout", "2", "deadline");
    assert_eq!(code, 0, "{v}");
    let want = "class Config {\n  deadline = 1;\n}\n\nfunction run(cfg) {\n  const { timeout } = cfg;\n  return cfg.deadline + timeout + { timeout: 2 }.deadline;\n}\n";
    assert_eq!(env.text("c.js"), want);
    let sites = classes(&v, "c.js");
    assert_eq!(sites.iter().filter(|s| s.1 == "possible").count(), 2, "{v}");
}

/// TypeScript and TSX are one program: a `.ts` file's interface field and function renamed
/// reach the `.tsx` components that import them (they were left: the rename walked `.ts`
/// files only, and tsc failed in every component). A literal passed to an imported function
/// whose parameter is the interface is typed by it.
#[test]
fn a_ts_rename_reaches_tsx_files() {
    let types = "export interface Config {\n  timeout: number;\n}\n\nexport function fmt(c: Config) {\n  return String(c.timeout);\n}\n";
    let view = "import { Config, fmt } from \"./types\";\n\nexport function View({ timeout }: Config) {\n  return <p title={fmt({ timeout })}>{timeout}</p>;\n}\n";
    let env = TestEnv::new();
    env.write("types.ts", types);
    env.write("View.tsx", view);
    let (v, code) = env.rename("types.ts", "Config.timeout", "deadline");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("types.ts"), types.replace("timeout", "deadline"));
    let want = view
        .replace("View({ timeout }", "View({ deadline: timeout }")
        .replace("fmt({ timeout })", "fmt({ deadline: timeout })");
    assert_eq!(env.text("View.tsx"), want);
    let (v, code) = env.patch(&[
        "--file", "types.ts", "--symbol", "fmt", "--rename", "format",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("View.tsx"), want.replace("fmt", "format"));
}

/// A shorthand written out (`{ deadline: timeout }`) takes the new name as a key only: a
/// local of that name beside it captures nothing, and the rename goes on (it was refused,
/// `PATCH_E009`, "already bound").
#[test]
fn a_local_of_the_new_name_does_not_refuse_a_written_out_shorthand() {
    let src = "interface Config {\n  timeout: number;\n}\n\nfunction run(cfg: Config) {\n  const deadline = 2;\n  const { timeout } = cfg;\n  return deadline + timeout;\n}\n";
    let env = TestEnv::new();
    env.write("t.ts", src);
    let (v, code) = env.rename_at("t.ts", "Config.timeout", "2", "deadline");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("  timeout: number", "  deadline: number")
        .replace("{ timeout } = cfg", "{ deadline: timeout } = cfg");
    assert_eq!(env.text("t.ts"), want);
}
