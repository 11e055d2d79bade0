//! Test-only: derives from a grammar's `grammar.json` (in cargo's registry, where the grammar
//! crate was unpacked) the keyword tokens every node of each kind holds, and checks each
//! language's `rules.keywords` against it — so the literal prefilter never skips a file that
//! holds a match.

use super::ALL;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

/// The grammar crate's `grammar.json` for the version in Cargo.lock (`crate/dir` for a crate
/// holding several grammars: `tree-sitter-typescript/tsx`).
pub(crate) fn grammar_json(krate: &str) -> PathBuf {
    let (krate, dir) = match krate.split_once('/') {
        Some((k, d)) => (k, format!("{d}/")),
        None => (krate, String::new()),
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).expect("Cargo.lock");
    let marker = format!("name = \"{krate}\"\nversion = \"");
    let at = lock
        .find(&marker)
        .unwrap_or_else(|| panic!("{krate} not in Cargo.lock"))
        + marker.len();
    let version = &lock[at..at + lock[at..].find('"').unwrap()];
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cargo"));
    let mut tried = Vec::new();
    for index in std::fs::read_dir(home.join("registry/src"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let p = index
            .path()
            .join(format!("{krate}-{version}/{dir}src/grammar.json"));
        if p.is_file() {
            return p;
        }
        tried.push(p);
    }
    panic!("grammar.json of {krate} {version} not found (looked at {tried:?}); `cargo fetch` unpacks it");
}

/// Keyword-like tokens (words, `macro_rules!`) every node of each visible kind holds.
pub(crate) fn derive(grammar: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let keyword = |w: &str| {
        let w = w.strip_suffix('!').unwrap_or(w);
        !w.is_empty()
            && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !w.as_bytes()[0].is_ascii_digit()
    };
    derive_tokens(grammar, &|w| keyword(w).then(|| w.to_string()))
}

/// The classes of tokens (`class` of a token's text; `None`: none) that every node of each
/// visible kind holds.
pub(crate) fn derive_tokens(
    grammar: &Value,
    class: &dyn Fn(&str) -> Option<String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let rules = grammar["rules"].as_object().expect("rules");
    let externals: HashSet<&str> = grammar["externals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["name"].as_str())
        .collect();
    struct Deriver<'a> {
        class: &'a dyn Fn(&str) -> Option<String>,
        rules: &'a serde_json::Map<String, Value>,
        externals: HashSet<&'a str>,
        memo: HashMap<String, BTreeSet<String>>,
        active: HashSet<String>,
    }
    impl Deriver<'_> {
        /// Strings in every derivation of `r` (a rule being expanded counts as none: a subset).
        fn required(&mut self, r: &Value) -> BTreeSet<String> {
            let content = |r: &Value| r["content"].clone();
            match r["type"].as_str().unwrap() {
                "STRING" => (self.class)(r["value"].as_str().unwrap())
                    .into_iter()
                    .collect(),
                "PATTERN" | "BLANK" | "REPEAT" => BTreeSet::new(),
                "SEQ" => r["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|m| self.required(m))
                    .collect(),
                "CHOICE" => {
                    let mut sets = r["members"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| self.required(m))
                        .collect::<Vec<_>>()
                        .into_iter();
                    let first = sets.next().unwrap_or_default();
                    sets.fold(first, |a, b| a.intersection(&b).cloned().collect())
                }
                "TOKEN" | "IMMEDIATE_TOKEN" => match r["content"]["type"].as_str() {
                    Some("STRING") => self.required(&content(r)),
                    _ => BTreeSet::new(),
                },
                "SYMBOL" => {
                    let name = r["name"].as_str().unwrap();
                    if self.externals.contains(name) || !self.rules.contains_key(name) {
                        return BTreeSet::new();
                    }
                    if let Some(s) = self.memo.get(name) {
                        return s.clone();
                    }
                    if !self.active.insert(name.to_string()) {
                        return BTreeSet::new();
                    }
                    let s = self.required(&self.rules[name].clone());
                    self.active.remove(name);
                    self.memo.insert(name.to_string(), s.clone());
                    s
                }
                // FIELD, ALIAS, REPEAT1, PREC*, RESERVED: their content.
                _ => self.required(&content(r)),
            }
        }
    }
    let mut d = Deriver {
        class,
        rules,
        externals,
        memo: HashMap::new(),
        active: HashSet::new(),
    };
    // Every place a visible kind comes from: its rule, and named aliases to it.
    let mut sources: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for name in rules.keys().filter(|n| !n.starts_with('_')) {
        sources
            .entry(name.clone())
            .or_default()
            .push(serde_json::json!({"type": "SYMBOL", "name": name}));
    }
    fn aliases(v: &Value, out: &mut BTreeMap<String, Vec<Value>>) {
        match v {
            Value::Object(o) => {
                if o.get("type").and_then(|t| t.as_str()) == Some("ALIAS")
                    && o.get("named") == Some(&Value::Bool(true))
                {
                    out.entry(o["value"].as_str().unwrap().to_string())
                        .or_default()
                        .push(o["content"].clone());
                }
                o.values().for_each(|x| aliases(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| aliases(x, out)),
            _ => {}
        }
    }
    aliases(&grammar["rules"], &mut sources);
    let mut out = BTreeMap::new();
    for (kind, srcs) in sources {
        let mut all: Option<BTreeSet<String>> = None;
        for s in &srcs {
            let r = d.required(s);
            all = Some(match all {
                None => r,
                Some(a) => a.intersection(&r).cloned().collect(),
            });
        }
        let kws: BTreeSet<String> = all.unwrap_or_default();
        if !kws.is_empty() {
            out.insert(kind, kws);
        }
    }
    out
}

/// Anonymous node names whose text can differ from the name: aliases whose content is not the
/// name's words — C's `"#include"` is `#[ \t]*include` (`# include`), PHP's keywords match in
/// any case (`FUNCTION`), Ruby's `"%w("` opens with any bracket (`%w[`), and external tokens
/// may be anything. A query's `"#include"` matches nodes whose text lacks `#include`, so the
/// literal prefilter must not require it.
pub(crate) fn respelled(grammar: &Value) -> BTreeSet<String> {
    let rules = grammar["rules"].as_object().expect("rules");
    let externals: HashSet<&str> = grammar["externals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["name"].as_str())
        .collect();
    let mut out = BTreeSet::new();
    let mut aliases = Vec::new();
    fn anonymous_aliases<'a>(v: &'a Value, out: &mut Vec<(&'a str, &'a Value)>) {
        match v {
            Value::Object(o) => {
                if o.get("type").and_then(|t| t.as_str()) == Some("ALIAS")
                    && o.get("named") == Some(&Value::Bool(false))
                {
                    out.push((o["value"].as_str().unwrap(), &o["content"]));
                }
                o.values().for_each(|x| anonymous_aliases(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| anonymous_aliases(x, out)),
            _ => {}
        }
    }
    anonymous_aliases(&grammar["rules"], &mut aliases);
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for (name, content) in aliases {
        let texts = Spellings {
            rules,
            externals: &externals,
            active: HashSet::new(),
        }
        .of(content);
        let faithful = texts.is_some_and(|t| t.iter().all(|t| words(t) == words(name)));
        if !faithful {
            out.insert(name.to_string());
        }
    }
    out
}

/// The texts a rule can have, as words separated by blanks; `None` when they are not a few
/// fixed strings (a pattern other than blanks, an external token, a repetition).
struct Spellings<'a> {
    rules: &'a serde_json::Map<String, Value>,
    externals: &'a HashSet<&'a str>,
    active: HashSet<&'a str>,
}

impl<'a> Spellings<'a> {
    fn of(&mut self, r: &'a Value) -> Option<Vec<String>> {
        match r["type"].as_str()? {
            "STRING" => Some(vec![r["value"].as_str()?.to_string()]),
            // `\s+` between the words of a token (JavaScript's `static get`).
            "PATTERN" => {
                let p = r["value"].as_str()?;
                let rest = ["\\s", "\\n", "\\t", "\\r", " ", "[", "]", "*", "+"]
                    .iter()
                    .fold(p.to_string(), |s, t| s.replace(t, ""));
                rest.is_empty().then(|| vec![String::new()])
            }
            "SEQ" => {
                let mut all = vec![String::new()];
                for m in r["members"].as_array()? {
                    let next = self.of(m)?;
                    all = all
                        .iter()
                        .flat_map(|a| next.iter().map(move |b| format!("{a} {b}")))
                        .collect();
                    if all.len() > 64 {
                        return None;
                    }
                }
                Some(all)
            }
            "CHOICE" => {
                let mut all = Vec::new();
                for m in r["members"].as_array()? {
                    all.extend(self.of(m)?);
                }
                Some(all)
            }
            "SYMBOL" => {
                let name = r["name"].as_str()?;
                if self.externals.contains(name) || !self.active.insert(name) {
                    return None;
                }
                let texts = self.of(self.rules.get(name)?);
                self.active.remove(name);
                texts
            }
            "BLANK" | "REPEAT" | "REPEAT1" => None,
            // TOKEN, IMMEDIATE_TOKEN, PREC*, FIELD, ALIAS: their content.
            _ => self.of(&r["content"]),
        }
    }
}

/// The keyword table of every language as `keywords.rs` holds it (`LLM_WRITE_KEYWORDS=1 cargo
/// test --lib keywords_are` rewrites the file when a grammar changes or a language is added).
fn keywords_file() -> String {
    let mut out = String::from(
        "//! Generated from each grammar's `grammar.json` by `grammar_check.rs` (`LLM_WRITE_KEYWORDS=1\n\
         //! cargo test --lib keywords_are`): per node kind, the keyword tokens every node of the kind\n\
         //! holds, and the kinds every node of which holds a `{` (in a token: `{`, `{|`, `${`). The\n\
         //! literal prefilter of `llm ast` reads the keywords; the symbol walk reads both (see\n\
         //! `pruning.rs`). A test keeps them equal to the grammars. Last, the anonymous nodes\n\
         //! whose text can differ from their name (`\"#include\"` is `# include` too), which the\n\
         //! prefilter must not require.\n\n\
         pub type Table = &'static [(&'static str, &'static [&'static str])];\n",
    );
    for l in ALL {
        let grammar: Value =
            serde_json::from_slice(&std::fs::read(grammar_json(l.grammar_crate)).unwrap()).unwrap();
        let kinds = l.named_node_kinds();
        let mut derived = derive(&grammar);
        derived.retain(|k, _| kinds.contains(&k.as_str()));
        out.push_str(&format!(
            "\n/// {}\npub const {}: Table = &[\n",
            l.grammar_crate,
            l.name.to_uppercase()
        ));
        for (k, kws) in derived {
            let kws: Vec<String> = kws.iter().map(|w| format!("{w:?}")).collect();
            out.push_str(&format!("    ({k:?}, &[{}]),\n", kws.join(", ")));
        }
        out.push_str("];\n");
        out.push_str(&format!(
            "\n/// {}: kinds holding a `{{`\npub const {}_BRACED: &[&str] = &[\n",
            l.grammar_crate,
            l.name.to_uppercase()
        ));
        for k in braced(&grammar, &kinds) {
            out.push_str(&format!("    {k:?},\n"));
        }
        out.push_str("];\n");
        out.push_str(&format!(
            "\n/// {}: anonymous nodes whose text can differ from their name\npub const {}_RESPELLED: &[&str] = &[\n",
            l.grammar_crate,
            l.name.to_uppercase()
        ));
        for k in respelled(&grammar) {
            out.push_str(&format!("    {k:?},\n"));
        }
        out.push_str("];\n");
    }
    out
}

/// The node kinds of `kinds` every node of which holds a `{` byte, in a token of its own or
/// of a descendant (`{`, `{|`, `${`).
fn braced(grammar: &Value, kinds: &[&str]) -> Vec<String> {
    let mut derived = derive_tokens(grammar, &|t| t.contains('{').then(|| "{".to_string()));
    derived.retain(|k, _| kinds.contains(&k.as_str()));
    derived.into_keys().collect()
}

#[test]
fn keywords_are_fresh_in_keywords_rs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang/keywords.rs");
    let want = keywords_file();
    if std::env::var_os("LLM_WRITE_KEYWORDS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).unwrap() == want,
        "src/lang/keywords.rs is stale: LLM_WRITE_KEYWORDS=1 cargo test --lib keywords_are"
    );
}

#[test]
fn keywords_are_what_the_grammars_say() {
    for l in ALL {
        let path = grammar_json(l.grammar_crate);
        let grammar: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        // Rules used only under an alias are no node kind of their own.
        let kinds = l.named_node_kinds();
        let mut derived = derive(&grammar);
        derived.retain(|k, _| kinds.contains(&k.as_str()));
        let listed: BTreeMap<String, BTreeSet<String>> = l
            .rules
            .keywords
            .iter()
            .map(|(k, kws)| (k.to_string(), kws.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(
            listed,
            derived,
            "{}: rules.keywords differs from {} (regenerate the KEYWORDS table)",
            l.name,
            path.display()
        );
        let braced_listed: Vec<String> = l.rules.braced.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            braced_listed,
            braced(&grammar, &kinds),
            "{}: rules.braced differs from {} (regenerate keywords.rs)",
            l.name,
            path.display()
        );
        let respelled_listed: BTreeSet<String> =
            l.rules.respelled.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            respelled_listed,
            respelled(&grammar),
            "{}: rules.respelled differs from {} (regenerate keywords.rs)",
            l.name,
            path.display()
        );
        // The extras (kinds that can appear anywhere) are the grammar's.
        let extras: BTreeSet<&str> = grammar["extras"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["type"] == "SYMBOL")
            .filter_map(|e| e["name"].as_str())
            .collect();
        assert_eq!(
            extras,
            l.extras.iter().copied().collect::<BTreeSet<&str>>(),
            "{}: extras",
            l.name
        );
        // Every listed kind is a kind of the grammar.
        for k in listed.keys() {
            assert!(
                kinds.contains(&k.as_str()),
                "{}: {k} is not a node kind",
                l.name
            );
        }
    }
}

#[test]
fn derivation_intersects_choices_and_follows_symbols() {
    let g = serde_json::json!({
        "externals": [],
        "rules": {
            "item": {"type": "SEQ", "members": [
                {"type": "CHOICE", "members": [{"type": "STRING", "value": "pub"}, {"type": "BLANK"}]},
                {"type": "STRING", "value": "fn"},
                {"type": "SYMBOL", "name": "_body"}
            ]},
            "_body": {"type": "CHOICE", "members": [
                {"type": "SEQ", "members": [{"type": "STRING", "value": "do"}, {"type": "STRING", "value": "end"}]},
                {"type": "SEQ", "members": [{"type": "STRING", "value": "{"}, {"type": "STRING", "value": "end"}]}
            ]},
            "other": {"type": "ALIAS", "named": true, "value": "item", "content": {"type": "STRING", "value": "fn"}}
        }
    });
    // The rule alone: `pub` is optional, both bodies end with `end`.
    let mut alone = g.clone();
    alone["rules"].as_object_mut().unwrap().remove("other");
    assert_eq!(
        derive(&alone)["item"],
        ["end".to_string(), "fn".to_string()].into()
    );
    // An alias to `item` holding only `fn`: `end` is not in every `item`.
    assert_eq!(derive(&g)["item"], ["fn".to_string()].into());
}
