//! Literal prefilter for `llm ast`: the strings a query's matches cannot exist without, so files
//! (and regions of files) lacking them are never parsed: anonymous nodes like `"unwrap"`,
//! `#eq?`/`#any-of?` arguments, and the keywords of the node kinds a pattern names (every
//! `function_item` holds the token `fn`; each language lists its kinds' keywords, checked
//! against its grammar).
//!
//! A small reader over the query's S-expression syntax finds, per top-level pattern, the items
//! that every match needs: not under `?`/`*`, not one branch of a `[...]` alternation, not a
//! negated predicate. A file can match only if, for some pattern, it contains every required
//! item (an item is a set of alternatives, for `#any-of?`).

/// One thing a match needs: any of some strings (a keyword as a whole word).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    pub alts: Vec<Vec<u8>>,
    /// A keyword token: it only counts where it is not part of a longer word.
    pub word: bool,
}

/// Per top-level pattern, the required items; each item is satisfied by any of its strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefilter {
    /// `patterns[i]` lists the needles pattern `i` needs, rarest-looking first.
    pub patterns: Vec<Vec<Needle>>,
}

/// A byte that surely continues a word. Bytes of other characters do not count: a keyword
/// glued to `é` is still a hit (a superset is safe), and one after a BOM is a keyword.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether `hay[r]` is not part of a longer word: no word byte glued to an end that is a word
/// byte itself (`macro_rules!` may be followed by a name directly).
pub fn whole_word(hay: &[u8], r: &std::ops::Range<usize>) -> bool {
    let (Some(&first), Some(&last)) = (
        hay.get(r.start),
        r.end.checked_sub(1).and_then(|i| hay.get(i)),
    ) else {
        return true;
    };
    let before = r.start > 0 && is_word_byte(hay[r.start - 1]);
    let after = hay.get(r.end).is_some_and(|&b| is_word_byte(b));
    !(is_word_byte(first) && before || is_word_byte(last) && after)
}

impl Needle {
    /// Where the needle occurs in `hay`.
    fn find_iter<'a>(&'a self, hay: &'a [u8]) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
        self.alts.iter().flat_map(move |lit| {
            memchr::memmem::find_iter(hay, lit)
                .map(move |at| at..at + lit.len())
                .filter(move |r| !self.word || whole_word(hay, r))
        })
    }
}

impl Prefilter {
    /// Whether a file with these bytes can match at all.
    pub fn may_match(&self, hay: &[u8]) -> bool {
        self.patterns
            .iter()
            .any(|needles| needles.iter().all(|n| n.find_iter(hay).next().is_some()))
    }

    /// Where the needle each pattern checks first occurs in `hay`: a match of the query lies
    /// around one of these (its root node contains one).
    pub fn hits(&self, hay: &[u8]) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        for n in self.patterns.iter().filter_map(|p| p.first()) {
            out.extend(n.find_iter(hay));
        }
        out
    }

    /// The literal checked first, for the query echo (`None` when nothing is required).
    pub fn describe(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .patterns
            .iter()
            .filter_map(|p| p.first())
            .flat_map(|n| {
                n.alts
                    .iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned())
            })
            .collect();
        v.dedup();
        v
    }
}

#[derive(Debug)]
enum Tok {
    Open(char),
    Close,
    Str(Vec<u8>),
    Capture(String),
    Quant,
    Pred(String),
    Word(String),
}

#[derive(Debug)]
enum Item {
    Group {
        bracket: bool,
        items: Vec<Item>,
        quant: bool,
        captures: Vec<String>,
    },
    Pred {
        name: String,
        args: Vec<Item>,
    },
    Str {
        text: Vec<u8>,
        quant: bool,
    },
    Capture(String),
    Word(String),
}

fn tokenize(src: &str) -> Option<Vec<Tok>> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let word_end = |mut j: usize| {
        while j < b.len() && !b" \t\r\n()[]\";".contains(&b[j]) {
            j += 1;
        }
        j
    };
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' | b'[' => {
                out.push(Tok::Open(b[i] as char));
                i += 1;
            }
            b')' | b']' => {
                out.push(Tok::Close);
                i += 1;
            }
            b'"' => {
                i += 1;
                let mut s = Vec::new();
                loop {
                    match *b.get(i)? {
                        b'"' => break,
                        b'\\' => {
                            i += 1;
                            s.push(match *b.get(i)? {
                                b'n' => b'\n',
                                b't' => b'\t',
                                b'r' => b'\r',
                                b'0' => 0,
                                c => c,
                            });
                        }
                        c => s.push(c),
                    }
                    i += 1;
                }
                i += 1;
                out.push(Tok::Str(s));
            }
            b'?' | b'*' => {
                out.push(Tok::Quant);
                i += 1;
            }
            b'+' => i += 1,
            b'@' => {
                let e = word_end(i + 1);
                out.push(Tok::Capture(src[i + 1..e].to_string()));
                i = e;
            }
            b'#' => {
                let e = word_end(i + 1);
                out.push(Tok::Pred(src[i + 1..e].to_string()));
                i = e;
            }
            _ => {
                let e = word_end(i).max(i + 1);
                // `name?`/`name*` style quantifiers glued to a word.
                let w = &src[i..e];
                out.push(Tok::Word(w.to_string()));
                if w.ends_with('?') || w.ends_with('*') {
                    out.push(Tok::Quant);
                }
                i = e;
            }
        }
    }
    Some(out)
}

fn parse_items(toks: &[Tok], pos: &mut usize, close: bool) -> Option<Vec<Item>> {
    let mut items: Vec<Item> = Vec::new();
    while *pos < toks.len() {
        let t = &toks[*pos];
        *pos += 1;
        match t {
            Tok::Close => return close.then_some(items),
            Tok::Open(c) => {
                if let Some(Tok::Pred(name)) = toks.get(*pos) {
                    *pos += 1;
                    let args = parse_items(toks, pos, true)?;
                    items.push(Item::Pred {
                        name: name.clone(),
                        args,
                    });
                } else {
                    let inner = parse_items(toks, pos, true)?;
                    items.push(Item::Group {
                        bracket: *c == '[',
                        items: inner,
                        quant: false,
                        captures: Vec::new(),
                    });
                }
            }
            Tok::Str(s) => items.push(Item::Str {
                text: s.clone(),
                quant: false,
            }),
            Tok::Quant => match items.last_mut() {
                Some(Item::Group { quant, .. }) | Some(Item::Str { quant, .. }) => *quant = true,
                _ => {}
            },
            Tok::Capture(name) => {
                if let Some(Item::Group { captures, .. }) = items.last_mut() {
                    captures.push(name.clone());
                } else {
                    items.push(Item::Capture(name.clone()));
                }
            }
            Tok::Pred(w) => items.push(Item::Word(format!("#{w}"))),
            Tok::Word(w) => items.push(Item::Word(w.clone())),
        }
    }
    (!close).then_some(items)
}

#[derive(Default)]
struct Walk<'a> {
    /// Anonymous node names whose text can differ (see [`crate::lang::Rules::respelled`]).
    respelled: &'a [&'a str],
    lits: Vec<Vec<Vec<u8>>>,
    /// Node kinds every match has.
    kinds: Vec<String>,
    optional_caps: Vec<String>,
    required_caps: Vec<String>,
    preds: Vec<(String, Vec<String>, Vec<Vec<u8>>)>,
}

fn walk(items: &[Item], required: bool, w: &mut Walk<'_>) {
    let mut last_str_req = required;
    for it in items {
        match it {
            Item::Group {
                bracket,
                items,
                quant,
                captures,
            } => {
                let req = required && !quant;
                if let (false, Some(Item::Word(kind))) = (*bracket, items.first()) {
                    if req {
                        w.kinds.push(kind.clone());
                    }
                }
                for c in captures {
                    if req {
                        w.required_caps.push(c.clone());
                    } else {
                        w.optional_caps.push(c.clone());
                    }
                }
                // `(MISSING "}")` is a node error recovery made up: its text is empty.
                let missing = matches!(items.first(), Some(Item::Word(k)) if k == "MISSING");
                let inner_req = req && !missing && (!bracket || items.len() == 1);
                walk(items, inner_req, w);
            }
            Item::Str { text, quant } => {
                last_str_req = required && !quant;
                let respelled = w.respelled.iter().any(|r| r.as_bytes() == text.as_slice());
                // A token of several words (`"is not"`) may be written with any blanks (or a
                // comment) between them: each word is required, not the string as quoted.
                if last_str_req && !respelled {
                    for part in text.split(|b| b.is_ascii_whitespace()) {
                        if !part.is_empty() {
                            w.lits.push(vec![part.to_vec()]);
                        }
                    }
                }
            }
            Item::Capture(c) => {
                // A capture after a string names that string.
                if last_str_req {
                    w.required_caps.push(c.clone());
                } else {
                    w.optional_caps.push(c.clone());
                }
            }
            Item::Pred { name, args } => {
                if !required {
                    continue;
                }
                let caps = args
                    .iter()
                    .filter_map(|a| match a {
                        Item::Capture(c) => Some(c.clone()),
                        _ => None,
                    })
                    .collect();
                let strs = args
                    .iter()
                    .filter_map(|a| match a {
                        Item::Str { text, .. } => Some(text.clone()),
                        _ => None,
                    })
                    .collect();
                w.preds.push((name.clone(), caps, strs));
            }
            Item::Word(_) => last_str_req = false,
        }
    }
}

/// Required literals of a query source, or `None` when the query could not be read this way
/// (then no file is skipped). `pattern_count` is tree-sitter's count, to cross-check;
/// `keywords` are the language's node kinds with the keyword tokens each always holds;
/// `respelled` its anonymous nodes whose text is not always their name (not required).
pub fn prefilter(
    src: &str,
    pattern_count: usize,
    keywords: &[(&str, &[&str])],
    respelled: &[&str],
) -> Option<Prefilter> {
    let toks = tokenize(src)?;
    let mut pos = 0;
    let items = parse_items(&toks, &mut pos, false)?;
    // Top-level patterns: groups and strings (captures/quantifiers attach to them).
    let tops: Vec<&Item> = items
        .iter()
        .filter(|i| matches!(i, Item::Group { .. } | Item::Str { .. }))
        .collect();
    if tops.len() != pattern_count {
        return None;
    }
    let mut patterns = Vec::new();
    for top in tops {
        let mut w = Walk {
            respelled,
            ..Walk::default()
        };
        walk(std::slice::from_ref(top), true, &mut w);
        let mut items: Vec<Needle> = w
            .lits
            .into_iter()
            .map(|alts| Needle { alts, word: false })
            .collect();
        for kind in &w.kinds {
            if let Some((_, kws)) = keywords.iter().find(|(k, _)| k == kind) {
                items.extend(kws.iter().map(|kw| Needle {
                    alts: vec![kw.as_bytes().to_vec()],
                    word: true,
                }));
            }
        }
        for (name, caps, strs) in w.preds {
            let capture_required = caps.len() == 1
                && w.required_caps.contains(&caps[0])
                && !w.optional_caps.contains(&caps[0]);
            if !capture_required || strs.is_empty() {
                continue;
            }
            let needle = Needle {
                alts: strs,
                word: false,
            };
            match name.as_str() {
                "eq?" if needle.alts.len() == 1 && !needle.alts[0].is_empty() => items.push(needle),
                "any-of?" if needle.alts.iter().all(|s| !s.is_empty()) => items.push(needle),
                _ => {}
            }
        }
        if items.is_empty() {
            return None;
        }
        items.sort_by_key(|n| std::cmp::Reverse(rarity(&n.alts)));
        patterns.push(items);
    }
    Some(Prefilter { patterns })
}

/// For a query made only of bare captured kinds — `(function_item) @f (struct_item) @s` — the
/// kind and capture names of each pattern, in pattern order: such a query can be answered by a
/// plain walk over the tree, without the query engine's per-node state machine.
pub fn bare_kinds(src: &str, pattern_count: usize) -> Option<Vec<(String, Vec<String>)>> {
    let toks = tokenize(src)?;
    let mut pos = 0;
    let items = parse_items(&toks, &mut pos, false)?;
    let mut out = Vec::new();
    for it in &items {
        match it {
            Item::Group {
                bracket: false,
                items,
                quant: false,
                captures,
            } if !captures.is_empty() => match items.as_slice() {
                [Item::Word(kind)]
                    if kind != "_"
                        && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
                {
                    out.push((kind.clone(), captures.clone()))
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    (out.len() == pattern_count && !out.is_empty()).then_some(out)
}

/// The node kinds each top-level pattern's root can have, in pattern order: a kind name, `_` for
/// a wildcard, an anonymous node's text in double quotes. `None` when the query cannot be read
/// this way or a pattern has several roots (`((a) (b))`).
pub fn pattern_roots(src: &str, pattern_count: usize) -> Option<Vec<Vec<String>>> {
    let toks = tokenize(src)?;
    let mut pos = 0;
    let items = parse_items(&toks, &mut pos, false)?;
    let roots: Vec<Vec<String>> = items
        .iter()
        .filter(|i| matches!(i, Item::Group { .. } | Item::Str { .. }))
        .map(roots_of)
        .collect::<Option<_>>()?;
    (roots.len() == pattern_count).then_some(roots)
}

fn roots_of(item: &Item) -> Option<Vec<String>> {
    match item {
        Item::Str { text, .. } => Some(vec![format!("\"{}\"", String::from_utf8_lossy(text))]),
        Item::Group {
            bracket: true,
            items,
            ..
        } => {
            let mut all = Vec::new();
            for alt in items
                .iter()
                .filter(|i| matches!(i, Item::Group { .. } | Item::Str { .. }))
            {
                all.extend(roots_of(alt)?);
            }
            (!all.is_empty()).then_some(all)
        }
        Item::Group { items, .. } => match items.first() {
            Some(Item::Word(kind)) => Some(vec![kind.trim_end_matches(['?', '*']).to_string()]),
            _ => {
                // A parenthesized pattern with its predicates: one inner pattern, or a
                // sequence of siblings (several roots).
                let inner: Vec<&Item> = items
                    .iter()
                    .filter(|i| matches!(i, Item::Group { .. } | Item::Str { .. }))
                    .collect();
                match inner.as_slice() {
                    [one] => roots_of(one),
                    _ => None,
                }
            }
        },
        _ => None,
    }
}

/// How rare an item looks: its shortest alternative's length, keywords and punctuation low.
fn rarity(alts: &[Vec<u8>]) -> usize {
    alts.iter()
        .map(|a| {
            let word = a.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
            a.len() * if word { 2 } else { 1 }
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(q: &str, n: usize) -> Option<Vec<Vec<String>>> {
        prefilter(q, n, &[], &[]).map(|p| {
            p.patterns
                .iter()
                .map(|items| {
                    items
                        .iter()
                        .map(|a| {
                            a.alts
                                .iter()
                                .map(|s| String::from_utf8_lossy(s).into_owned())
                                .collect::<Vec<_>>()
                                .join("|")
                        })
                        .collect()
                })
                .collect()
        })
    }

    #[test]
    fn eq_and_any_of() {
        assert_eq!(
            lits(
                r#"(call_expression function: (field_expression field: (field_identifier) @m) (#eq? @m "unwrap"))"#,
                1
            ),
            Some(vec![vec!["unwrap".into()]])
        );
        assert_eq!(
            lits(r#"((identifier) @i (#any-of? @i "foo" "bar"))"#, 1),
            Some(vec![vec!["foo|bar".into()]])
        );
    }

    #[test]
    fn optional_negated_and_alternatives_are_not_required() {
        assert_eq!(lits(r#"((identifier) @i (#not-eq? @i "x"))"#, 1), None);
        assert_eq!(lits(r#"(function_item "async"? @a)"#, 1), None);
        assert_eq!(lits(r#"[(identifier) "fn"] @x"#, 1), None);
        assert_eq!(lits(r#"(function_item) @f"#, 1), None);
        assert_eq!(
            lits(r#"((identifier)? @i (#eq? @i "foo"))"#, 1),
            None,
            "capture under ? is not required"
        );
    }

    #[test]
    fn anonymous_nodes_and_several_patterns() {
        assert_eq!(
            lits(
                r#"(unsafe_block "unsafe") @u ; comment "x"
                    (function_item "fn" @kw (#eq? @kw "fn"))"#,
                2
            ),
            Some(vec![vec!["unsafe".into()], vec!["fn".into(), "fn".into()]])
        );
        // Count mismatch: no prefilter rather than a wrong one.
        assert_eq!(lits(r#"(a "b")"#, 2), None);
    }

    #[test]
    fn bare_kind_queries() {
        assert_eq!(
            bare_kinds("(function_item) @f\n(struct_item) @s @t", 2),
            Some(vec![
                ("function_item".into(), vec!["f".into()]),
                ("struct_item".into(), vec!["s".into(), "t".into()])
            ])
        );
        assert_eq!(bare_kinds("(function_item)", 1), None);
        assert_eq!(bare_kinds("(function_item name: (identifier)) @f", 1), None);
        assert_eq!(bare_kinds("(_) @f", 1), None);
        assert_eq!(bare_kinds("(function_item)? @f", 1), None);
        assert_eq!(bare_kinds("((function_item) @f (#eq? @f \"x\"))", 1), None);
    }

    #[test]
    fn roots_of_patterns() {
        let r = |q: &str, n: usize| pattern_roots(q, n);
        assert_eq!(
            r(
                r#"(call_expression function: (field_expression) @f) (#eq? @f "x")"#,
                1
            ),
            Some(vec![vec!["call_expression".to_string()]])
        );
        assert_eq!(
            r(r#"((identifier) @i (#eq? @i "x")) [(a) "b"] @z (_) @w"#, 3),
            Some(vec![
                vec!["identifier".to_string()],
                vec!["a".to_string(), "\"b\"".to_string()],
                vec!["_".to_string()]
            ])
        );
        assert_eq!(r("((a) . (b))", 1), None, "two roots");
        assert_eq!(r("(a) (b)", 1), None, "count mismatch");
    }

    #[test]
    fn may_match() {
        let p = prefilter(
            r#"((identifier) @i (#any-of? @i "foo" "bar"))"#,
            1,
            &[],
            &[],
        )
        .unwrap();
        assert!(p.may_match(b"x bar y"));
        assert!(!p.may_match(b"baz"));
    }

    #[test]
    fn keywords_of_required_kinds_are_whole_words() {
        let kw: &[(&str, &[&str])] = &[
            ("function_item", &["fn"]),
            ("for_expression", &["for", "in"]),
        ];
        let p = prefilter("(function_item) @f", 1, kw, &[]).unwrap();
        assert!(p.may_match(b"pub fn f() {}"));
        assert!(!p.may_match(b"let fnord = Fn::new(); // fn_x"));
        assert!(p.may_match("\u{feff}fn bom() {}".as_bytes()), "after a BOM");
        assert_eq!(p.hits(b"fn a() {}\nfn_b fn c"), vec![0..2, 15..17]);
        assert_eq!(
            lits_kw("(for_expression body: (block (function_item)? @f))", kw),
            Some(vec![vec!["for".into(), "in".into()]]),
            "an optional kind is not required"
        );
        assert_eq!(lits_kw("[(function_item) (struct_item)] @x", kw), None);
        assert_eq!(lits_kw("(struct_item) @s", kw), None, "no keyword listed");
    }

    #[test]
    fn respelled_and_missing_tokens_are_not_required() {
        let respelled = &["#include"];
        let p = |q: &str| prefilter(q, 1, &[], respelled).map(|p| p.patterns);
        assert_eq!(
            p(r##"(preproc_include "#include" @k)"##),
            None,
            "`# include`"
        );
        assert_eq!(
            p(r#"(MISSING "}") @m"#),
            None,
            "a missing brace has no text"
        );
        assert!(p(r##"(preproc_include "#include" @k (#eq? @k "#include"))"##).is_some());
    }

    fn lits_kw(q: &str, kw: &[(&str, &[&str])]) -> Option<Vec<Vec<String>>> {
        prefilter(q, 1, kw, &[]).map(|p| {
            p.patterns
                .iter()
                .map(|n| {
                    n.iter()
                        .flat_map(|n| n.alts.iter())
                        .map(|a| String::from_utf8_lossy(a).into_owned())
                        .collect()
                })
                .collect()
        })
    }
}
