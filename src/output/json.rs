//! JSON and JSON-lines rendering of envelopes and streamed items.

use serde::Serialize;
use std::io::{self, Write};

/// Writes one envelope: pretty on a terminal, compact otherwise, then a newline.
pub fn envelope<T: Serialize>(out: &mut impl Write, value: &T, pretty: bool) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, value)?;
    } else {
        serde_json::to_writer(&mut *out, value)?;
    }
    out.write_all(b"\n")
}

/// Writes one JSON line `{"type":TAG, ...fields of value}`. `value` must serialize to an object.
pub fn tagged_line<T: Serialize>(out: &mut impl Write, tag: &str, value: &T) -> io::Result<()> {
    let body = serde_json::to_vec(value)?;
    debug_assert!(body.first() == Some(&b'{'));
    write!(out, "{{\"type\":\"{tag}\"")?;
    if body.len() > 2 {
        out.write_all(b",")?;
    }
    out.write_all(&body[1..])?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_lines() {
        let mut v = Vec::new();
        tagged_line(&mut v, "match", &serde_json::json!({"a": 1})).unwrap();
        tagged_line(&mut v, "empty", &serde_json::json!({})).unwrap();
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "{\"type\":\"match\",\"a\":1}\n{\"type\":\"empty\"}\n"
        );
    }
}
