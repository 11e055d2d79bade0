//! `llm search` input: the flags that change what text a file gives the search (`-E`,
//! `--pre`, `-z`) and where `file.rs` hands such a file over. Without them (and for every
//! file that needs none of it) the file's bytes are searched as they are, untouched.
//!
//! Two kinds of results come out of here:
//! - text decoded from an encoding whose ASCII bytes are ASCII (latin1, Shift_JIS…): matches
//!   are found in the UTF-8 text and printed from it (as ripgrep), and their JSON spans are
//!   mapped back to the bytes on disk (offsets, lines and columns from `span.rs` over those
//!   bytes, the checksum of the file): `llm transform` can take them;
//! - text that is not the file's bytes in any such way (a `--pre` command's or a
//!   decompressor's output, UTF-16 decoded): JSON spells the file `<PATH | HOW>` (as
//!   `<stdin>`, a `file_path` no mutation can take), with offsets, lines and checksum those of
//!   the text searched. Human output names the file as ripgrep does.

use super::bytes::{search_bytes, Hash};
use super::decode::{self, EncodingChoice, Origin};
use super::file::Worker;
use super::file::{max_size, unreadable, FileOutcome, Shared, SkipReason};
use super::preprocess::{self, Failure, Preprocessors};
use crate::envelope::Level;
use crate::error::{Code, Error};
use crate::walk::Candidate;
use std::path::PathBuf;

/// `-E`, `--pre`, `--pre-glob`, `-z`.
#[derive(Debug, Clone, Default)]
pub struct InputOptions {
    pub encoding: EncodingChoice,
    pub pre: Option<PathBuf>,
    pub pre_globs: Vec<String>,
    pub search_zip: bool,
}

impl InputOptions {
    /// Adds these flags to the JSON `query` echo.
    pub fn echo(&self, q: &mut serde_json::Map<String, serde_json::Value>) {
        if let Some(e) = self.encoding.echo() {
            q.insert("encoding".into(), e.into());
        }
        if let Some(p) = &self.pre {
            q.insert("pre".into(), p.display().to_string().into());
            if !self.pre_globs.is_empty() {
                q.insert("pre_globs".into(), self.pre_globs.clone().into());
            }
        }
        if self.search_zip {
            q.insert("search_zip".into(), true.into());
        }
    }

    /// The programs `--pre` and `-z` run.
    pub fn preprocessors(&self) -> crate::error::Result<Preprocessors> {
        Preprocessors::new(self.pre.as_deref(), &self.pre_globs, self.search_zip)
    }
}

/// A file that `--pre` or `-z` applies to, or any file under an explicit `-E`: its search.
/// `None` for the other files (and always without those flags).
pub(super) fn before_read(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
) -> Option<FileOutcome> {
    if let Some(outcome) = preprocessed(s, w, cand) {
        return Some(outcome);
    }
    match s.opts.input.encoding {
        EncodingChoice::Label(_) => decoded(s, w, cand, file, None),
        _ => None,
    }
}

/// A file whose first bytes (read into the worker's buffer) are a UTF-16 byte-order mark,
/// under `-E auto`: its search of the decoded text. `None` for every other file.
pub(super) fn utf16(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
) -> Option<FileOutcome> {
    let buf = &w.buf;
    if !(buf.starts_with(&[0xff, 0xfe]) || buf.starts_with(&[0xfe, 0xff])) {
        return None;
    }
    let head = buf[..3.min(buf.len())].to_vec();
    decoded(s, w, cand, file, Some(&head))
}

/// A file that `--pre` or `-z` applies to: run its program and search the output.
fn preprocessed(s: &Shared<'_>, w: &mut Worker, cand: &Candidate) -> Option<FileOutcome> {
    if !s.pre.any() {
        return None;
    }
    let program = s.pre.program(&cand.path)?;
    let text = match preprocess::run(&program, &cand.path) {
        Ok(t) => t,
        Err(Failure::Missing(e)) => {
            let err = Error::new(
                Code::DecompressorMissing,
                format!(
                    "{}: not searched: `{}` is needed to decompress it ({e})",
                    cand.display, program.shown
                ),
                format!(
                    "install the program that provides `{}` (e.g. apt-get install {}), or \
pass --no-search-zip to search the compressed bytes",
                    program.shown.split(' ').next().unwrap_or_default(),
                    package_of(&program.shown)
                ),
            );
            return Some(skipped(cand, err, Level::Warning));
        }
        Err(Failure::Failed(why)) => {
            let what = if program.pre {
                "preprocessor"
            } else {
                "decompressor"
            };
            let err = Error::new(
                Code::PreprocessFailed,
                format!(
                    "{}: not searched: the {what} command `{} {}` {why}",
                    cand.display, program.shown, cand.display
                ),
                if program.pre {
                    "fix the --pre command for this file, or leave the file out with --pre-glob"
                } else {
                    "check that the file is not corrupt (run the command by hand), or pass \
--no-search-zip"
                },
            );
            return Some(skipped(cand, err, Level::Error));
        }
    };
    // The output is decoded as a file would be (`-E`, a UTF-16 byte-order mark), as rg 13.
    let text = match decode::plan(s.opts.input.encoding, &text[..text.len().min(3)]) {
        Some(plan) => decode::decode(plan, &text).text,
        None => text,
    };
    Some(derived(s, w, cand, text, &program.shown))
}

/// The Debian package that provides a decompressor, for the remediation.
fn package_of(shown: &str) -> &'static str {
    match shown.split(' ').next().unwrap_or_default() {
        "xz" => "xz-utils",
        "uncompress" => "ncompress",
        "bzip2" => "bzip2",
        "lz4" => "lz4",
        "brotli" => "brotli",
        "zstd" => "zstd",
        _ => "gzip",
    }
}

fn skipped(cand: &Candidate, err: Error, level: Level) -> FileOutcome {
    let mut d = err.with_file(&cand.display).diagnostic(level);
    d.tool = "search".into();
    FileOutcome::Skipped(SkipReason::Unreadable, Some(d))
}

/// A file that `-E` (or a UTF-16 byte-order mark) says to decode, given its first bytes
/// (`None`: read them here), and its open handle: decode and search it. `None` for the files
/// searched as they are (and always with `-E none`).
pub(super) fn decoded(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
    prefix: Option<&[u8]>,
) -> Option<FileOutcome> {
    use std::io::{Read, Seek};
    use std::os::unix::fs::FileExt;
    let choice = s.opts.input.encoding;
    if choice == EncodingChoice::None {
        return None;
    }
    let mut head = [0u8; 3];
    let prefix = match prefix {
        Some(p) => &p[..p.len().min(3)],
        None => {
            let mut n = 0;
            while n < 3 {
                match file.read_at(&mut head[n..], n as u64) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => n += k,
                }
            }
            &head[..n]
        }
    };
    let plan = decode::plan(choice, prefix)?;
    let mut bytes = Vec::new();
    let limit = max_size(s.opts, cand).map_or(u64::MAX, |m| m.saturating_add(1));
    let mut f = file;
    if let Err(e) = f
        .seek(std::io::SeekFrom::Start(0))
        .and_then(|_| f.take(limit).read_to_end(&mut bytes))
    {
        return Some(unreadable(cand, &e));
    }
    if max_size(s.opts, cand).is_some_and(|m| bytes.len() as u64 > m) {
        return Some(FileOutcome::Skipped(SkipReason::TooLarge, None));
    }
    // Text whose decoding changes nothing is searched as it is (an ASCII file with -E latin1,
    // UTF-8 with -E utf-8).
    let ascii_same = plan.maps_back() && plan.encoding != encoding_rs::UTF_8 && bytes.is_ascii();
    let utf8_same = plan.encoding == encoding_rs::UTF_8 && std::str::from_utf8(&bytes).is_ok();
    if plan.bom == 0 && (ascii_same || utf8_same) {
        return Some(search_bytes(s, w, cand, &bytes, Hash::Now, None));
    }
    let d = decode::decode(plan, &bytes);
    if !plan.maps_back() {
        return Some(derived(s, w, cand, d.text, plan.encoding.name()));
    }
    let sum = s.want_checksum.then(|| crate::span::checksum(&bytes));
    w.origin = Some(Origin::new(bytes, d.map));
    let mut outcome = search_bytes(s, w, cand, &d.text, Hash::Apart, None);
    w.origin = None;
    if let (
        FileOutcome::Searched {
            result: Some(r), ..
        },
        Some(sum),
    ) = (&mut outcome, sum)
    {
        r.file.checksum = sum;
    }
    Some(outcome)
}

/// Searches text that is not the file's bytes (see the module's doc): in JSON the file is
/// spelled `<PATH | HOW>`.
fn derived(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    text: Vec<u8>,
    how: &str,
) -> FileOutcome {
    let mut shown = cand.clone();
    if s.want_checksum {
        shown.display = format!("<{} | {how}>", cand.display);
    }
    w.derived = true;
    let outcome = search_bytes(s, w, &shown, &text, Hash::Now, None);
    w.derived = false;
    outcome
}
