//! `llm transform` input, step 1: the JSON (one value, an array, or JSON lines) read from stdin
//! or `--edits FILE`, split into edit requests or piped query output, and edit requests turned
//! into planned edits. Field aliases (older spellings from the seed tools) are accepted here.

use super::{NewText, Planned, PlannedEdit, Pos};
use crate::error::{Code, Error};
use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;

/// What the input turned out to be.
pub enum Parsed {
    /// Edit requests (`{file_path, expected_checksum, edits}`), in input order.
    Requests(Vec<Value>),
    /// Output of `llm search`/`ast`/`find` (envelope or JSON lines), merged.
    Query(QueryInput),
}

/// Piped query output: its command, every match, and every file's checksum.
pub struct QueryInput {
    /// `search`, `ast` or `find` (inferred from the matches' shape when the envelope is absent).
    pub command: String,
    pub matches: Vec<Value>,
    /// `(file_path, checksum)` from `data.files[]`.
    pub files: Vec<(String, Option<String>)>,
}

/// Parses the input text: one JSON value, an array of them, or a stream (JSON lines).
pub fn parse(text: &[u8], origin: &str) -> Result<Parsed, Error> {
    no_duplicate_keys(text, origin)?;
    let mut values = Vec::new();
    for item in serde_json::Deserializer::from_slice(text).into_iter::<Value>() {
        match item {
            Ok(Value::Array(items)) => values.extend(items),
            Ok(v) => values.push(v),
            Err(e) => {
                return Err(Error::new(
                    Code::BadRequest,
                    format!(
                        "{origin} is not valid JSON: {e} (line {}, column {})",
                        e.line(),
                        e.column()
                    ),
                    "send one JSON object {\"file_path\", \"expected_checksum\", \"edits\": [{\"byte_start\", \"byte_end\", \"new_content\"}]}, an array of them, JSON lines, or the --json output of `llm search -r`",
                ))
            }
        }
    }
    if values.is_empty() {
        return Err(Error::new(
            Code::NoEdits,
            format!("{origin} is empty: there is nothing to apply"),
            "pipe an edit request or `llm search -r TEXT --json` output, or use `llm transform FILE --old TEXT --new TEXT`",
        ));
    }
    let is_query = |v: &Value| {
        v.get("command").is_some()
            || v.get("data").is_some_and(|d| d.get("matches").is_some())
            || v.get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t == "match" || t == "summary")
    };
    let queries = values.iter().filter(|v| is_query(v)).count();
    if queries == 0 {
        for (i, v) in values.iter().enumerate() {
            if !v.is_object() || v.get("edits").is_none() {
                return Err(bad_item(
                    origin,
                    i,
                    "an object with `file_path` and `edits`",
                ));
            }
        }
        return Ok(Parsed::Requests(values));
    }
    if queries != values.len() {
        return Err(Error::new(
            Code::BadRequest,
            format!("{origin} mixes edit requests and query output"),
            "send either edit requests or the output of one `llm search`/`ast`/`find` run, not both",
        ));
    }
    let mut q = QueryInput {
        command: String::new(),
        matches: Vec::new(),
        files: Vec::new(),
    };
    for v in values {
        let tag = v.get("type").and_then(Value::as_str).map(str::to_string);
        if tag.as_deref() == Some("match") {
            q.matches.push(v);
            continue;
        }
        // An envelope (json) or the summary line (jsonl).
        if v.get("status").and_then(Value::as_str) == Some("error")
            && v.get("data").is_none_or(Value::is_null)
        {
            let msg = v
                .pointer("/error/message")
                .and_then(Value::as_str)
                .unwrap_or("the query failed");
            return Err(Error::new(
                Code::FailedQueryInput,
                format!("the piped query output is a failed run: {msg}"),
                "fix the query (see its error) and pipe its output again",
            ));
        }
        if q.command.is_empty() {
            if let Some(c) = v.get("command").and_then(Value::as_str) {
                q.command = c.to_string();
            }
        }
        if let Some(Value::Array(ms)) = v.pointer("/data/matches") {
            q.matches.extend(ms.iter().cloned());
        }
        if let Some(Value::Array(fs)) = v.pointer("/data/files") {
            for f in fs {
                if let Some(path) = str_field(f, &["file_path", "file", "path"]) {
                    let sum = str_field(f, &["checksum", "sha256"]);
                    q.files.push((path, sum));
                }
            }
        }
    }
    if q.command.is_empty() {
        let has = |k: &str| q.matches.iter().any(|m| m.get(k).is_some());
        q.command = if has("captures") {
            "ast"
        } else if has("symbol_id") || has("kind") {
            "find"
        } else {
            "search"
        }
        .to_string();
    }
    Ok(Parsed::Query(q))
}

/// Refuses an object with the same key twice anywhere in the input: JSON parsers keep one of
/// them silently, so which position or text was meant is a contradiction.
fn no_duplicate_keys(text: &[u8], origin: &str) -> Result<(), Error> {
    match duplicate_key(text) {
        Some(e) => Err(Error::new(
            Code::BadRequest,
            format!("{origin}: {e}"),
            "send each field once: with two values, which one is meant is unclear",
        )),
        None => Ok(()),
    }
}

/// The first key given twice in one object of the JSON `text` (its message, with the
/// position), if any; a syntax error is left to the parse itself.
pub(crate) fn duplicate_key(text: &[u8]) -> Option<String> {
    use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
    struct Unique;
    impl<'de> Deserialize<'de> for Unique {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(UniqueVisitor)
        }
    }
    struct UniqueVisitor;
    impl<'de> Visitor<'de> for UniqueVisitor {
        type Value = Unique;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_unit<E>(self) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
            while seq.next_element::<Unique>()?.is_some() {}
            Ok(Unique)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(serde::de::Error::custom(format!("duplicate key `{key}`")));
                }
                map.next_value::<Unique>()?;
            }
            Ok(Unique)
        }
    }
    for item in serde_json::Deserializer::from_slice(text).into_iter::<Unique>() {
        if let Err(e) = item {
            if e.is_data() {
                return Some(e.to_string());
            }
            break; // a syntax error: reported with its position by the parse itself
        }
    }
    None
}

fn bad_item(origin: &str, i: usize, wanted: &str) -> Error {
    Error::new(
        Code::BadRequest,
        format!("item {i} of {origin} is not {wanted}"),
        "each edit request is {\"file_path\": \"src/a.rs\", \"expected_checksum\": \"<sha256>\", \"edits\": [{\"byte_start\": 0, \"byte_end\": 3, \"new_content\": \"new\"}]}",
    )
}

/// The first of `keys` that is a string field of `v`.
pub fn str_field(v: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

/// One edit request as sent (with the accepted aliases).
#[derive(Debug, Deserialize)]
struct RequestIn {
    #[serde(alias = "file", alias = "path")]
    file_path: String,
    #[serde(default, alias = "checksum", alias = "before_checksum")]
    expected_checksum: Option<String>,
    edits: Vec<EditIn>,
}

/// One edit as sent: flat byte offsets, a `span` object, or line/column positions.
#[derive(Debug, Deserialize)]
struct EditIn {
    #[serde(flatten)]
    pos: PosIn,
    #[serde(default)]
    span: Option<PosIn>,
    #[serde(
        alias = "replacement",
        alias = "new_text",
        alias = "text",
        alias = "content"
    )]
    new_content: String,
    /// The text the range holds now; checked against the file when given.
    #[serde(default, alias = "old_text", alias = "matched_text")]
    old_content: Option<String>,
}

/// A position in any of the accepted spellings.
#[derive(Debug, Default, Deserialize)]
struct PosIn {
    #[serde(default, alias = "start_byte")]
    byte_start: Option<usize>,
    #[serde(default, alias = "end_byte")]
    byte_end: Option<usize>,
    #[serde(default, alias = "line_start", alias = "line_number")]
    start_line: Option<usize>,
    #[serde(default, alias = "col_start", alias = "column_number")]
    start_col: Option<usize>,
    #[serde(default, alias = "line_end")]
    end_line: Option<usize>,
    #[serde(default, alias = "col_end")]
    end_col: Option<usize>,
    /// `{"row": 1-indexed line, "column": 0-indexed byte column}` (llmastsearch).
    #[serde(default)]
    start: Option<PointIn>,
    #[serde(default)]
    end: Option<PointIn>,
}

#[derive(Debug, Deserialize)]
struct PointIn {
    row: usize,
    #[serde(alias = "col")]
    column: usize,
}

impl PosIn {
    fn resolve(&self) -> Option<Pos> {
        if let (Some(s), Some(e)) = (self.byte_start, self.byte_end) {
            // Lines and columns given as well (as every `span` llm prints has them): they must
            // name the same position.
            let start = match (&self.start, self.start_line) {
                (Some(p), _) => Some((p.row, p.column)),
                (None, Some(l)) => self.start_col.map(|c| (l, c)),
                _ => None,
            };
            let end = match (&self.end, self.end_line) {
                (Some(p), _) => Some((p.row, p.column)),
                (None, Some(l)) => self.end_col.map(|c| (l, c)),
                _ => None,
            };
            if start.is_some() || end.is_some() {
                return Some(Pos::Checked {
                    bytes: (s, e),
                    start,
                    end,
                });
            }
            return Some(Pos::Bytes(s, e));
        }
        let start = match (&self.start, self.start_line) {
            (Some(p), _) => Some((p.row, p.column)),
            (None, Some(l)) => Some((l, self.start_col.unwrap_or(0))),
            _ => None,
        }?;
        let end = match (&self.end, self.end_line) {
            (Some(p), _) => Some((p.row, p.column)),
            (None, Some(l)) => Some((l, self.end_col?)),
            _ => None,
        }?;
        Some(Pos::Lines { start, end })
    }
}

/// Turns edit request values into planned edits, one entry per request.
pub fn plan(values: Vec<Value>, origin: &str) -> Result<Vec<Planned>, Error> {
    let mut out = Vec::with_capacity(values.len());
    for (i, v) in values.into_iter().enumerate() {
        let req: RequestIn = serde_json::from_value(v).map_err(|e| {
            Error::new(
                Code::BadRequest,
                format!("edit request {i} of {origin}: {e}"),
                "each request needs `file_path` and `edits`; each edit needs `byte_start`, `byte_end` (or a `span`) and `new_content` (\"\" to delete)",
            )
        })?;
        let mut edits = Vec::with_capacity(req.edits.len());
        for (j, e) in req.edits.into_iter().enumerate() {
            let (from_span, flat) = (e.span.as_ref().and_then(PosIn::resolve), e.pos.resolve());
            if let (Some(a), Some(b)) = (&from_span, &flat) {
                if a != b {
                    return Err(Error::new(
                        Code::BadRequest,
                        format!(
                            "edit {j} of request {i} ({}) gives a `span` and flat positions that differ",
                            req.file_path
                        ),
                        "give the position once: either a `span` object or flat `byte_start`/`byte_end`",
                    )
                    .with_file(&req.file_path));
                }
            }
            let pos = from_span
                .or(flat)
                .ok_or_else(|| {
                    Error::new(
                        Code::BadRequest,
                        format!("edit {j} of request {i} ({}) has no position", req.file_path),
                        "give `byte_start` and `byte_end`, a `span` object with them, or `start_line`/`start_col`/`end_line`/`end_col`",
                    )
                    .with_file(&req.file_path)
                })?;
            edits.push(PlannedEdit {
                pos,
                new: NewText::Text(e.new_content.into_bytes()),
                old: e.old_content.map(String::into_bytes),
            });
        }
        out.push(Planned {
            path: PathBuf::from(&req.file_path),
            edits,
            expected: req.expected_checksum,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> QueryInput {
        match parse(text.as_bytes(), "stdin").unwrap_or_else(|e| panic!("{e}")) {
            Parsed::Query(q) => q,
            Parsed::Requests(_) => panic!("parsed as requests"),
        }
    }

    #[test]
    fn classifies_inputs() {
        let r = parse(
            br#"[{"file":"a","edits":[]},{"path":"b","edits":[]}]"#,
            "stdin",
        )
        .unwrap();
        assert!(matches!(r, Parsed::Requests(v) if v.len() == 2));
        let q = query(
            "{\"type\":\"match\",\"span\":{\"file_path\":\"a\",\"byte_start\":0,\"byte_end\":1}}\n\
             {\"type\":\"summary\",\"command\":\"search\",\"data\":{\"matches\":[],\"files\":[{\"file_path\":\"a\",\"checksum\":\"c\"}]}}\n",
        );
        assert_eq!(q.command, "search");
        assert_eq!(q.matches.len(), 1);
        assert_eq!(q.files, vec![("a".to_string(), Some("c".to_string()))]);
        // No envelope: the command is inferred from the matches' shape.
        let q = query(r#"{"data":{"matches":[{"captures":[],"span":{}}]}}"#);
        assert_eq!(q.command, "ast");
    }

    #[test]
    fn refuses_mixed_failed_and_unknown_inputs() {
        let mixed = "{\"file_path\":\"a\",\"edits\":[]}\n{\"command\":\"search\",\"data\":{\"matches\":[]}}";
        let err = |t: &str| match parse(t.as_bytes(), "stdin") {
            Err(e) => e.code,
            Ok(_) => panic!("accepted {t}"),
        };
        assert_eq!(err(mixed), Code::BadRequest);
        assert_eq!(err(r#"{"hello": 1}"#), Code::BadRequest);
        assert_eq!(err("  \n"), Code::NoEdits);
        assert_eq!(
            err(
                r#"{"command":"search","status":"error","data":null,"error":{"message":"bad regex"}}"#
            ),
            Code::FailedQueryInput
        );
    }

    #[test]
    fn edits_need_a_position_and_new_content() {
        let v = |s: &str| vec![serde_json::from_str::<Value>(s).unwrap()];
        let e = plan(
            v(r#"{"file_path":"a","edits":[{"new_content":"x"}]}"#),
            "stdin",
        )
        .unwrap_err();
        assert_eq!(e.code, Code::BadRequest);
        let e = plan(
            v(r#"{"file_path":"a","edits":[{"byte_start":0,"byte_end":1}]}"#),
            "stdin",
        )
        .unwrap_err();
        assert_eq!(e.code, Code::BadRequest);
        let p = plan(
            v(r#"{"file_path":"a","edits":[{"line_number":2,"column_number":1,"line_end":2,"col_end":3,"text":"y"}]}"#),
            "stdin",
        )
        .unwrap();
        assert_eq!(
            p[0].edits[0].pos,
            Pos::Lines {
                start: (2, 1),
                end: (2, 3)
            }
        );
    }

    #[test]
    fn contradictions_are_refused() {
        let v = |s: &str| vec![serde_json::from_str::<Value>(s).unwrap()];
        let e = plan(
            v(r#"{"file_path":"a","edits":[{"byte_start":0,"byte_end":1,"span":{"byte_start":2,"byte_end":3},"new_content":"x"}]}"#),
            "stdin",
        )
        .unwrap_err();
        assert_eq!(e.code, Code::BadRequest);
        // The same position twice is no contradiction; bytes with lines are checked later.
        let p = plan(
            v(r#"{"file_path":"a","edits":[{"byte_start":0,"byte_end":1,"span":{"byte_start":0,"byte_end":1},"new_content":"x"}]}"#),
            "stdin",
        )
        .unwrap();
        assert_eq!(p[0].edits[0].pos, Pos::Bytes(0, 1));
        let err = |t: &str| parse(t.as_bytes(), "stdin").err().map(|e| e.code);
        assert_eq!(
            err(
                r#"{"file_path":"a","edits":[{"byte_start":0,"byte_start":1,"byte_end":1,"new_content":"x"}]}"#
            ),
            Some(Code::BadRequest)
        );
        assert_eq!(err(r#"{"file_path":"a","edits":[]}"#), None);
    }
}
