//! `llm search` internals under test: the one-pass search of a whole file must find exactly
//! what the line-by-line search finds, wherever `WholeFile` allows it.

use super::file::Worker;
use super::find::compare_whole_and_lines;
use super::{build_matcher, whole_file_search, Mode, SearchOptions, WholeFile};
use crate::walk::WalkOptions;

fn options(pattern: &str, f: impl FnOnce(&mut SearchOptions)) -> SearchOptions {
    let mut o = SearchOptions {
        patterns: vec![pattern.to_string()],
        walk: WalkOptions::default(),
        fixed_strings: false,
        ignore_case: false,
        smart_case: false,
        word: false,
        line: false,
        multiline: false,
        multiline_dotall: false,
        pcre2: false,
        engine_auto: false,
        regex_size_limit: None,
        dfa_size_limit: None,
        invert: false,
        text: false,
        binary: false,
        no_unicode: false,
        stop_on_nonmatch: false,
        quiet: false,
        include_zero: false,
        before_context: 0,
        after_context: 0,
        max_count: None,
        max_results: None,
        mode: Mode::Matches,
        replace: None,
        threads: 1,
        first_match_only: false,
        invert_replace: None,
        invert_context_hits: false,
        input: Default::default(),
        passthru: false,
        passthru_unmatched: false,
        null_data: false,
        null_data_records: false,
        full_counts: false,
    };
    f(&mut o);
    o
}

/// Texts with every kind of line end, empty lines, no final newline, lone `\r`, non-ASCII and
/// invalid UTF-8, words at line edges.
fn texts() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        &b""[..],
        b"\n",
        b"\r\n",
        b"x",
        b"self\n",
        b"self",
        b"a self b\r\nself\r\n\r\nx self\rself\n",
        b"\n\nself x\n\n",
        b"ex\re\r\r\nee\n e \n",
        b"caf\xc3\xa9 \xe9x self\xff\n\xffself\r",
        b"x\r\n\r\nx\rx\n",
        b"\xc3\xa9\xc3\xa9\n\xce\xb1\xce\xb2 x",
    ]
    .iter()
    .map(|t| t.to_vec())
    .collect();
    // Pseudo-random texts over a small alphabet.
    let alphabet = b"xse lf\r\n\n\xc3\xa9_";
    let mut seed = 0x9e37_79b9_u32;
    for len in [7, 31, 64, 200] {
        for _ in 0..12 {
            let t = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    alphabet[seed as usize % alphabet.len()]
                })
                .collect();
            v.push(t);
        }
    }
    v
}

#[test]
fn one_pass_over_the_file_finds_what_the_lines_find() {
    let patterns = [
        "self",
        "x",
        "e*",
        "x*",
        r"\b",
        r"\B",
        r"\w+",
        r"\s+",
        r"\s*",
        "^",
        "$",
        r"^\s*$",
        r"^x",
        r"x$",
        r"\r",
        r"\r$",
        r"^\r",
        "^$",
        ".",
        ".*",
        "[^x]",
        "x|",
        "|x",
        r"(?-u:\xe9)",
        r"(?-u:\xff)",
        "é",
        r"\bx\b",
        r"(?-R)$",
        r"(?-R)^x",
        r"(?m:^)e",
        r"x\r?",
        r"\p{L}+",
    ];
    let mut compared = 0;
    for p in patterns {
        let variants: [&dyn Fn(&mut SearchOptions); 6] = [
            &|_| {},
            &|o| o.word = true,
            &|o| o.line = true,
            &|o| o.ignore_case = true,
            &|o| o.max_count = Some(1),
            &|o| o.first_match_only = true,
        ];
        for variant in variants {
            let opts = options(p, variant);
            let Ok(matcher) = build_matcher(&opts) else {
                continue;
            };
            let whole = whole_file_search(&opts, &matcher);
            let mut w = Worker::new(&opts, whole, 0);
            for text in texts() {
                let has_cr = text.contains(&b'\r');
                let allowed = match whole {
                    WholeFile::Always => true,
                    WholeFile::WithoutCr => !has_cr,
                    WholeFile::Never => false,
                };
                if allowed {
                    compare_whole_and_lines(&opts, &matcher, &mut w.searcher, &text);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 3000, "{compared}");
}

#[test]
fn whole_file_search_is_refused_where_lines_matter() {
    let plain = |p: &str| {
        let o = options(p, |_| {});
        whole_file_search(&o, &build_matcher(&o).unwrap())
    };
    assert_eq!(plain("self"), WholeFile::Always);
    assert_eq!(plain(r"(?-u:\b)x\w*"), WholeFile::Always);
    assert_eq!(plain(r"\bx\w*"), WholeFile::Never);
    assert_eq!(plain("x$"), WholeFile::WithoutCr);
    assert_eq!(plain("^x"), WholeFile::WithoutCr);
    assert_eq!(plain(r"\Ax"), WholeFile::Never);
    assert_eq!(plain(r"x\z"), WholeFile::Never);
    let o = options("x", |o| o.multiline = true);
    assert_eq!(
        whole_file_search(&o, &build_matcher(&o).unwrap()),
        WholeFile::Never
    );
    let o = options("x", |o| o.line = true);
    assert_eq!(
        whole_file_search(&o, &build_matcher(&o).unwrap()),
        WholeFile::WithoutCr
    );
}
