//! `llm search --colors`: rg 13's colour specs and the escape sequences its printer writes.
//! Each expected output is rg 13's, byte for byte (`rg --color always -n --column --sort path`
//! with the same flags, run on the same fixtures), written out: rg is not needed at test time.

use crate::search::{human, search};
use crate::util::TestEnv;
use serde_json::json;

fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt", "hello world\nfoo bar hello\nnothing\n");
    env.write("b.txt", "ctx before\nhello world\nfoo bar hello\nnothing\n");
    env
}

/// Human stdout with colour on (and line and column numbers, as rg is run), and the exit code.
fn coloured(env: &TestEnv, args: &[&str]) -> (String, i32) {
    let (out, _, code) = human(
        env,
        &[&["--color", "always", "-n", "--column"], args].concat(),
    );
    (out, code)
}

#[test]
fn colours_are_rg_13s_byte_for_byte() {
    let env = tree();
    let cases: &[(&str, &str)] = &[
        // rg's default colours, on every kind of line.
        (
            "hello a.txt b.txt",
            "\x1b[0m\x1b[35ma.txt\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m world\n\
             \x1b[0m\x1b[35ma.txt\x1b[0m:\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n\
             \x1b[0m\x1b[35mb.txt\x1b[0m:\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m world\n\
             \x1b[0m\x1b[35mb.txt\x1b[0m:\x1b[0m\x1b[32m3\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n",
        ),
        (
            "--heading -C1 hello a.txt b.txt",
            "\x1b[0m\x1b[35ma.txt\x1b[0m\n\
             \x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m world\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n\
             \x1b[0m\x1b[32m3\x1b[0m-nothing\n\
             \n\
             \x1b[0m\x1b[35mb.txt\x1b[0m\n\
             \x1b[0m\x1b[32m1\x1b[0m-ctx before\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m world\n\
             \x1b[0m\x1b[32m3\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n\
             \x1b[0m\x1b[32m4\x1b[0m-nothing\n",
        ),
        (
            "--vimgrep hello b.txt",
            "\x1b[0m\x1b[35mb.txt\x1b[0m:\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m world\n\
             \x1b[0m\x1b[35mb.txt\x1b[0m:\x1b[0m\x1b[32m3\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n",
        ),
        (
            "-o -b hello a.txt",
            "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m0\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:\x1b[0m20\x1b[0m:\x1b[0m\x1b[1m\x1b[31mhello\x1b[0m\n",
        ),
        (
            "-c hello a.txt b.txt",
            "\x1b[0m\x1b[35ma.txt\x1b[0m:2\n\
             \x1b[0m\x1b[35mb.txt\x1b[0m:2\n",
        ),
        (
            "-l hello a.txt b.txt",
            "\x1b[0m\x1b[35ma.txt\x1b[0m\n\
             \x1b[0m\x1b[35mb.txt\x1b[0m\n",
        ),
        // Every type and attribute: a named colour, an 8-bit one, a 24-bit one, bold and underline.
        (
            "--colors path:fg:cyan --colors path:style:underline --colors line:fg:1,2,3 --colors column:bg:white --colors column:style:bold --colors match:fg:yellow --colors match:bg:17 hello a.txt b.txt",
            "\x1b[0m\x1b[4m\x1b[36ma.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m1\x1b[0m:\x1b[0m\x1b[1m\x1b[47m1\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m world\n\
             \x1b[0m\x1b[4m\x1b[36ma.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m2\x1b[0m:\x1b[0m\x1b[1m\x1b[47m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n\
             \x1b[0m\x1b[4m\x1b[36mb.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m2\x1b[0m:\x1b[0m\x1b[1m\x1b[47m1\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m world\n\
             \x1b[0m\x1b[4m\x1b[36mb.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m3\x1b[0m:\x1b[0m\x1b[1m\x1b[47m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n",
        ),
        (
            "--colors path:fg:cyan --colors path:style:underline --colors line:fg:1,2,3 --colors column:bg:white --colors column:style:bold --colors match:fg:yellow --colors match:bg:17 --heading -C1 -b hello a.txt b.txt",
            "\x1b[0m\x1b[4m\x1b[36ma.txt\x1b[0m\n\
             \x1b[0m\x1b[38;2;1;2;3m1\x1b[0m:\x1b[0m\x1b[1m\x1b[47m1\x1b[0m:\x1b[0m\x1b[1m\x1b[47m0\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m world\n\
             \x1b[0m\x1b[38;2;1;2;3m2\x1b[0m:\x1b[0m\x1b[1m\x1b[47m9\x1b[0m:\x1b[0m\x1b[1m\x1b[47m12\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n\
             \x1b[0m\x1b[38;2;1;2;3m3\x1b[0m-\x1b[0m\x1b[1m\x1b[47m26\x1b[0m-nothing\n\
             \n\
             \x1b[0m\x1b[4m\x1b[36mb.txt\x1b[0m\n\
             \x1b[0m\x1b[38;2;1;2;3m1\x1b[0m-\x1b[0m\x1b[1m\x1b[47m0\x1b[0m-ctx before\n\
             \x1b[0m\x1b[38;2;1;2;3m2\x1b[0m:\x1b[0m\x1b[1m\x1b[47m1\x1b[0m:\x1b[0m\x1b[1m\x1b[47m11\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m world\n\
             \x1b[0m\x1b[38;2;1;2;3m3\x1b[0m:\x1b[0m\x1b[1m\x1b[47m9\x1b[0m:\x1b[0m\x1b[1m\x1b[47m23\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n\
             \x1b[0m\x1b[38;2;1;2;3m4\x1b[0m-\x1b[0m\x1b[1m\x1b[47m37\x1b[0m-nothing\n",
        ),
        (
            "--colors path:fg:cyan --colors path:style:underline --colors line:fg:1,2,3 --colors column:bg:white --colors column:style:bold --colors match:fg:yellow --colors match:bg:17 --vimgrep -o hello b.txt",
            "\x1b[0m\x1b[4m\x1b[36mb.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m2\x1b[0m:\x1b[0m\x1b[1m\x1b[47m1\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n\
             \x1b[0m\x1b[4m\x1b[36mb.txt\x1b[0m:\x1b[0m\x1b[38;2;1;2;3m3\x1b[0m:\x1b[0m\x1b[1m\x1b[47m9\x1b[0m:\x1b[0m\x1b[1m\x1b[33m\x1b[48;5;17mhello\x1b[0m\n",
        ),
        // intense: a basic colour becomes its bright 8-bit one, foreground and background.
        (
            "--colors match:style:intense --colors line:bg:yellow --colors line:style:intense hello a.txt",
            "\x1b[0m\x1b[38;5;10m\x1b[48;5;11m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[38;5;9mhello\x1b[0m world\n\
             \x1b[0m\x1b[38;5;10m\x1b[48;5;11m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[38;5;9mhello\x1b[0m\n",
        ),
        // none: a type without colour is still wrapped in resets, except matches, then left as they are unless a style is set again.
        (
            "--colors path:none --colors line:none --colors match:none -H hello a.txt",
            "\x1b[0ma.txt\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m1\x1b[0m:hello world\n\
             \x1b[0ma.txt\x1b[0m:\x1b[0m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar hello\n",
        ),
        (
            "--colors match:none --colors match:style:intense hello a.txt",
            "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0mhello\x1b[0m world\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0mhello\x1b[0m\n",
        ),
        // Later specs override earlier ones; types, attributes and values are case-insensitive; hex numbers; `none` ignores a value after it.
        (
            "--colors match:fg:200 --colors match:style:intense --colors match:style:nointense --colors match:style:bold --colors match:style:underline --colors match:style:nounderline hello a.txt",
            "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[38;5;200mhello\x1b[0m world\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[38;5;200mhello\x1b[0m\n",
        ),
        (
            "--colors match:fg:blue --colors match:fg:green --colors match:style:nobold --colors column:fg:red --colors column:none hello a.txt",
            "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[32mhello\x1b[0m world\n\
             \x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[32mhello\x1b[0m\n",
        ),
        (
            "--colors MATCH:BG:0x10,0xFF,7 --colors Path:Fg:Magenta --colors path:none:ignored -H hello a.txt",
            "\x1b[0ma.txt\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31m\x1b[48;2;16;255;7mhello\x1b[0m world\n\
             \x1b[0ma.txt\x1b[0m:\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m9\x1b[0m:foo bar \x1b[0m\x1b[1m\x1b[31m\x1b[48;2;16;255;7mhello\x1b[0m\n",
        ),
    ];
    for (args, want) in cases {
        let args: Vec<&str> = args.split(' ').collect();
        let (got, code) = coloured(&env, &args);
        assert_eq!((got.as_str(), code), (*want, 0), "{args:?}");
    }
}

#[test]
fn a_malformed_spec_is_search_e003_with_an_example() {
    let env = tree();
    for (spec, says) in [
        ("match", "the format is {type}:{attribute}:{value}"),
        ("match:fg", "the format is {type}:{attribute}:{value}"),
        ("match:fg:red:x", "the format is {type}:{attribute}:{value}"),
        ("text:fg:red", "unknown type `text`"),
        ("match:colour:red", "unknown attribute `colour`"),
        ("match:fg:pink", "`pink` is not a colour name"),
        ("match:fg:256", "`256` is not an 8-bit colour number"),
        ("match:bg:1,2", "`1,2` is not an r,g,b colour"),
        ("match:bg:1,2,300", "`1,2,300` is not an r,g,b colour"),
        ("match:style:blink", "unknown style `blink`"),
    ] {
        // Refused even with colour off, as rg.
        for color in ["always", "never"] {
            let (out, err, code) = human(&env, &["--color", color, "--colors", spec, "hello"]);
            assert_eq!((out.as_str(), code), ("", 2), "{spec}");
            assert!(err.contains("error[SEARCH_E003]"), "{spec}: {err}");
            assert!(err.contains(says), "{spec}: {err}");
            assert!(err.contains("--colors match:fg:yellow"), "{spec}: {err}");
        }
        let (v, code) = env.json(&["search", "--json", "--colors", spec, "hello"]);
        assert_eq!(
            (code, &v["error"]["code"]),
            (2, &json!("SEARCH_E003")),
            "{v}"
        );
        let help = v["error"]["remediation"].as_str().unwrap_or_default();
        assert!(help.contains("--colors match:fg:yellow"), "{help}");
    }
}

#[test]
fn without_colour_nothing_changes() {
    let env = tree();
    let specs = [
        "--colors",
        "match:fg:blue",
        "--colors",
        "path:bg:1,2,3",
        "--colors",
        "line:none",
        "--colors",
        "column:style:underline",
    ];
    for args in [
        &["hello"][..],
        &["--heading", "-C1", "hello"],
        &["--vimgrep", "hello"],
        &["-c", "hello"],
    ] {
        let (plain, _, _) = human(&env, args);
        let (with, _, code) = human(&env, &[&specs[..], args].concat());
        assert_eq!((with, code), (plain.clone(), 0), "{args:?}");
        assert!(!plain.contains('\x1b'));
        let (never, _, _) = human(&env, &[&["--color", "never"], &specs[..], args].concat());
        assert_eq!(never, plain, "{args:?}");
    }
    // JSON: the same data, with colour asked for or not.
    let (a, _) = search(&env, &["hello"]);
    let (b, _) = search(
        &env,
        &[&["--color", "always"], &specs[..], &["hello"]].concat(),
    );
    assert_eq!((a.status, a.query), (b.status, b.query));
    // match_id is new on each run.
    let data = |args: &[&str]| {
        let (mut v, _) = env.json(&[&["search", "--json"], args].concat());
        for m in v["data"]["matches"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("match_id");
        }
        v["data"].take()
    };
    assert_eq!(data(&["hello"]), data(&[&specs[..], &["hello"]].concat()));
}
