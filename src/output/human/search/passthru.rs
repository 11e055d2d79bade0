//! Human output of `llm search --passthru` for a file without a match: every line, as a
//! context line, as ripgrep prints it (the files with matches print through `search.rs`,
//! their context lines covering the whole file).

use super::{Head, LineKind, SearchHuman};
use crate::cmd::search::{FileMatches, FileResult};
use std::io;

impl SearchHuman {
    /// Every line of the file `m` holds the bytes of, as context lines (under its heading).
    pub(super) fn passthru_lines(
        &self,
        out: &mut Vec<u8>,
        r: &FileResult,
        m: &FileMatches<'_>,
    ) -> io::Result<()> {
        let path = self.path(r);
        if self.heading && !r.continued {
            out.extend_from_slice(&path);
            out.extend_from_slice(self.after_path("\n"));
        }
        let prefix = if self.heading || !self.show_path {
            Vec::new()
        } else {
            path
        };
        let sep: &[u8] = match prefix.is_empty() {
            true => b"",
            false => self.after_path("-"),
        };
        let n = m.bytes.len();
        for (i, line) in crate::span::lines_from(m.bytes, 0).enumerate() {
            let len = line.len() + usize::from(line.end < n);
            let text = &m.bytes[line.clone()];
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            self.prelude(
                out,
                &prefix,
                sep,
                Head::new(i + 1, None, Some(line.start)),
                b'-',
            );
            self.render(out, text, len, &[], LineKind::Context, None);
        }
        Ok(())
    }
}
