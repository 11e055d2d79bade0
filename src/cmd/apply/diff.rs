//! Parsing the two patch formats `llm apply` reads into one model of file operations: unified
//! diffs (`diff -u`, `git diff` with its extended headers) and Codex patches (`*** Begin Patch`
//! … `*** End Patch`).

use crate::error::{Code, Error};
use std::path::PathBuf;

mod codex;

pub use codex::parse_codex;

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Context(String),
    Remove(String),
    Add(String),
}

/// A run of changes located by its old lines.
#[derive(Debug, Clone, Default)]
pub struct Hunk {
    /// 1-based line of the old side (`@@ -N,…`), a hint for where to look.
    pub old_start: Option<usize>,
    /// Codex `@@ TEXT`: a line to find first; the old lines are looked for after it.
    pub anchor: Option<String>,
    pub lines: Vec<Line>,
    /// Codex `*** End of File`: the old lines end the file.
    pub at_eof: bool,
    /// `\ No newline at end of file` after the old side's last line.
    pub old_no_newline: bool,
    /// `\ No newline at end of file` after the new side's last line.
    pub new_no_newline: bool,
    /// Line of the hunk's header in the patch (for messages).
    pub patch_line: usize,
    /// Blank context lines the hunk ended with, within its header's counts, and left out of
    /// `lines` (a blank line after a hunk may be a separator): they still follow its changes.
    pub blank_tail: usize,
}

impl Hunk {
    /// The old side: context and removed lines.
    pub fn old(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                Line::Context(t) | Line::Remove(t) => Some(t.as_str()),
                Line::Add(_) => None,
            })
            .collect()
    }
}

/// What a patch does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Add,
    Delete,
    Update,
}

/// One file's part of a patch.
#[derive(Debug, Clone)]
pub struct FilePatch {
    pub kind: Kind,
    /// The file as it is (for an add: the file to create).
    pub path: PathBuf,
    /// Renamed or moved to.
    pub move_to: Option<PathBuf>,
    pub hunks: Vec<Hunk>,
    /// Codex patches end every file they write with a newline.
    pub codex: bool,
    /// Permission bits git's `new file mode`/`new mode` gives the file (e.g. `0o755`).
    pub mode: Option<u32>,
    /// git's `copy from`/`copy to`: `move_to` is made from the file, which stays.
    pub copy: bool,
    /// The diff takes the file's BOM away (its first line loses the `U+FEFF` it had).
    pub drop_bom: bool,
}

/// The input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Unified,
    Codex,
    Jsonl,
}

impl Format {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Unified => "unified",
            Format::Codex => "codex",
            Format::Jsonl => "jsonl",
        }
    }
}

fn bad(line: usize, message: impl Into<String>, fix: impl Into<String>) -> Error {
    Error::new(
        Code::ApplyBadPatch,
        format!("patch line {line}: {}", message.into()),
        fix.into(),
    )
}

/// Which format `text` is in: a Codex `*** Begin Patch`, JSON lines (`{` first), or a diff.
pub fn detect(text: &str) -> Option<Format> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if first == "*** Begin Patch" {
        Some(Format::Codex)
    } else if first.starts_with('{') {
        Some(Format::Jsonl)
    } else if text
        .lines()
        .any(|l| l.starts_with("@@ -") || l.starts_with("diff --git "))
        || text.lines().any(|l| l.starts_with("--- "))
    {
        Some(Format::Unified)
    } else {
        None
    }
}

/// A patch line without its `\n` and a `\r` before it.
fn lines_of(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// The path of a `---`/`+++` line: a tab and what follows (a timestamp) cut, git's quoting
/// undone; `None` for `/dev/null`. Also whether its timestamp is the epoch, which `diff -N`
/// gives a side that does not exist.
fn diff_path(s: &str) -> (Option<String>, bool) {
    let (path, stamp) = s.split_once('\t').unwrap_or((s, ""));
    let path = unquote(path.trim_end());
    ((path != "/dev/null").then_some(path), is_epoch(stamp))
}

/// A path as git writes it: in double quotes with C escapes (`"caf\303\251.txt"`) when it
/// holds bytes other than printable ASCII, else as is.
fn unquote(s: &str) -> String {
    let Some(inner) = s.strip_prefix('"').and_then(|q| q.strip_suffix('"')) else {
        return s.to_string();
    };
    let mut out = Vec::with_capacity(inner.len());
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        let octal = |k: usize| b.get(k).is_some_and(|d| (b'0'..=b'7').contains(d));
        if octal(i + 1) && octal(i + 2) && octal(i + 3) {
            let v = b[i + 1..i + 4]
                .iter()
                .fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
            out.push(v as u8);
            i += 4;
            continue;
        }
        out.push(match c {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            other => other,
        });
        i += 2;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a `diff` timestamp (`1970-01-01 00:00:00.000000000 +0000`, in any time zone) is
/// the Unix epoch.
fn is_epoch(stamp: &str) -> bool {
    let mut parts = stamp.split_whitespace();
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    let zone = parts.next().unwrap_or("+0000");
    let day = match date {
        "1970-01-01" => 0,
        "1969-12-31" => -1,
        _ => return false,
    };
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let hms: Vec<i64> = clock.split(':').filter_map(|x| x.parse().ok()).collect();
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let digits = zone.trim_start_matches(['+', '-']);
    let (Ok(zh), Ok(zm)) = (
        digits.get(..2).unwrap_or("x").parse::<i64>(),
        digits.get(2..4).unwrap_or("x").parse::<i64>(),
    ) else {
        return false;
    };
    hms.len() == 3
        && fraction.bytes().all(|d| d == b'0')
        && day * 86_400 + hms[0] * 3600 + hms[1] * 60 + hms[2] - sign * (zh * 3600 + zm * 60) == 0
}

/// `@@ -a,b +c,d @@`, or a bare `@@` (models write it without line numbers).
fn is_hunk_header(l: &str) -> bool {
    l.starts_with("@@ -") || l.trim_end() == "@@" || l.starts_with("@@ @@")
}

/// A patch wrapped in a Markdown code fence (```diff … ```), unwrapped.
pub fn unfence(text: &str) -> &str {
    let t = text.trim();
    let Some(first_end) = t.find('\n') else {
        return text;
    };
    if !t.starts_with("```") || !t.ends_with("```") || t.len() < first_end + 4 {
        return text;
    }
    &t[first_end + 1..t.len() - 3]
}

/// `@@ -a,b +c,d @@` → a.
/// A git mode line's mode: git records only 100644 and 100755 for a file (a symlink, 120000,
/// or a submodule, 160000, is no file llm writes; any other bits, setuid included, no mode git
/// writes).
fn git_mode(m: &str, line: usize) -> Result<u32, Error> {
    match m.trim() {
        "100644" => Ok(0o644),
        "100755" => Ok(0o755),
        other => Err(bad(
            line,
            format!("mode {other} is not a regular file's mode in git (100644 or 100755)"),
            "symlinks (120000) and submodules (160000) are not applied: leave them out of the diff; fix any other mode to 100644 or 100755",
        )),
    }
}

/// The line counts of `@@ -a,b +c,d @@` (a count left out is 1); `None` for a bare `@@`.
fn hunk_counts(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let new = rest.split(' ').next()?;
    let count = |r: &str| match r.split_once(',') {
        Some((_, c)) => c.parse().ok(),
        None => r.parse::<usize>().ok().map(|_| 1),
    };
    Some((count(old)?, count(new)?))
}

fn hunk_start(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("@@ -")?;
    let num: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    num.parse().ok()
}

/// One file's headers while they are read.
#[derive(Default)]
struct Headers {
    old: Option<Option<String>>,
    new: Option<Option<String>>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    /// `copy from`/`copy to` (held in `rename_from`/`rename_to`).
    copy: bool,
    new_file: bool,
    deleted: bool,
    /// The `---`/`+++` timestamps are the epoch (`diff -N`'s missing side).
    old_epoch: bool,
    new_epoch: bool,
    mode: Option<u32>,
    git: Option<(String, String)>,
}

/// Parses a unified diff of one or several files (`diff -u`, `diff -ruN`, `git diff`).
/// Hunk line counts are not trusted (models miscount them): a hunk runs until the next
/// header. Paths lose git's `a/`/`b/` prefixes.
pub fn parse_unified(text: &str) -> Result<Vec<FilePatch>, Error> {
    let lines = lines_of(text);
    // An added line keeps a `\r` before its newline (a new file's CRLF endings, which no file
    // on disk decides), unless the whole patch came with CRLF endings (its headers too).
    let raw: Vec<&str> = text.split('\n').collect();
    let headers_crlf = raw
        .iter()
        .filter(|l| l.starts_with("@@") || l.starts_with("--- ") || l.starts_with("+++ "))
        .all(|l| l.ends_with('\r'));
    let mut files = Vec::new();
    let mut h = Headers::default();
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut in_file = false;
    let mut i = 0;
    let flush =
        |h: &mut Headers, hunks: &mut Vec<Hunk>, files: &mut Vec<FilePatch>, line: usize| {
            let taken = std::mem::take(h);
            let hs = std::mem::take(hunks);
            if let Some(f) = finish(taken, hs, line)? {
                files.push(f);
            }
            Ok::<(), Error>(())
        };
    while i < lines.len() {
        let l = lines[i];
        if let Some(rest) = l.strip_prefix("diff --git ") {
            if in_file {
                flush(&mut h, &mut hunks, &mut files, i)?;
            }
            in_file = true;
            h.git = split_git(rest);
            i += 1;
            continue;
        }
        let is_header =
            l.starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ "));
        if is_header {
            if in_file && (h.old.is_some() || !hunks.is_empty()) {
                flush(&mut h, &mut hunks, &mut files, i)?;
            }
            in_file = true;
            let (old, old_epoch) = diff_path(&l[4..]);
            let (new, new_epoch) = diff_path(&lines[i + 1][4..]);
            (h.old, h.new, h.old_epoch, h.new_epoch) = (Some(old), Some(new), old_epoch, new_epoch);
            i += 2;
            continue;
        }
        if is_hunk_header(l) {
            if !in_file {
                return Err(bad(
                    i + 1,
                    "a hunk before any `--- PATH` / `+++ PATH` header",
                    "start each file's part with `--- a/PATH` and `+++ b/PATH` lines",
                ));
            }
            let mut hunk = Hunk {
                old_start: hunk_start(l),
                patch_line: i + 1,
                ..Default::default()
            };
            let counts = hunk_counts(l);
            let header_line = i + 1;
            i += 1;
            let mut last_side = ' ';
            // Lines of each side read so far: a line that is no hunk line ends the hunk only
            // once the header's counts are met (counts are not trusted beyond that: diffs
            // written by hand or by a model often miscount).
            let (mut old_seen, mut new_seen) = (0usize, 0usize);
            while i < lines.len() {
                let l = lines[i];
                // `git format-patch`'s signature (`-- ` and git's version) after a hunk whose
                // counts are met, not the removal of a line `- `.
                let full = counts.is_some_and(|(o, n)| old_seen >= o && new_seen >= n);
                if (full && l == "-- ")
                    || is_hunk_header(l)
                    || l.starts_with("diff --git ")
                    || (l.starts_with("--- ")
                        && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ ")))
                {
                    break;
                }
                match l.chars().next() {
                    Some(' ') => {
                        hunk.lines.push(Line::Context(l[1..].to_string()));
                        (old_seen, new_seen) = (old_seen + 1, new_seen + 1);
                    }
                    Some('-') => {
                        hunk.lines.push(Line::Remove(l[1..].to_string()));
                        old_seen += 1;
                    }
                    Some('+') => {
                        let t = if headers_crlf { l } else { raw[i] };
                        hunk.lines.push(Line::Add(t[1..].to_string()));
                        new_seen += 1;
                    }
                    Some('\\') => {
                        match last_side {
                            '-' => hunk.old_no_newline = true,
                            '+' => hunk.new_no_newline = true,
                            _ => {
                                hunk.old_no_newline = true;
                                hunk.new_no_newline = true;
                            }
                        }
                        i += 1;
                        continue;
                    }
                    None => {
                        hunk.lines.push(Line::Context(String::new()));
                        (old_seen, new_seen) = (old_seen + 1, new_seen + 1);
                    }
                    Some(_) => match counts {
                        Some((o, n)) if old_seen < o || new_seen < n => {
                            return Err(bad(
                                i + 1,
                                format!(
                                    "a line inside the hunk of line {header_line} starts with none of ' ', '-', '+' (the hunk has {old_seen} of its {o} old and {new_seen} of its {n} new lines)"
                                ),
                                "prefix each line of a hunk with ' ' (context), '-' (removed) or '+' (added); an empty context line may be ' ' alone",
                            ))
                        }
                        _ => break,
                    },
                }
                last_side = l.chars().next().unwrap_or(' ');
                i += 1;
            }
            // The input ends inside a hunk: both sides short of the header's counts, or its
            // last line cut before its newline. Applying what came would half apply it.
            if i == lines.len() {
                let short = counts.is_some_and(|(o, n)| old_seen < o && new_seen < n);
                let cut = !text.ends_with('\n') && !lines[lines.len() - 1].starts_with('\\');
                if short || (cut && !hunk.lines.is_empty()) {
                    return Err(bad(
                        lines.len(),
                        format!(
                            "the diff ends inside the hunk of line {header_line}{}: was it cut off?",
                            counts.map_or(String::new(), |(o, n)| format!(
                                " ({old_seen} of its {o} old and {new_seen} of its {n} new lines)"
                            ))
                        ),
                        "send the whole diff (a final newline after its last line), or fix the hunk's @@ counts",
                    ));
                }
            }
            let mut blank = 0;
            while hunk.lines.last() == Some(&Line::Context(String::new())) {
                hunk.lines.pop();
                blank += 1;
            }
            // Those beyond the counts (a `diff -u` has none) were no context.
            hunk.blank_tail =
                counts.map_or(0, |(o, _)| blank - old_seen.saturating_sub(o).min(blank));
            if hunk.lines.is_empty() && counts.is_some_and(|(o, n)| o + n > 0) {
                return Err(bad(
                    header_line,
                    "the hunk has no lines: its header is followed by no ' ', '-' or '+' line",
                    "give the hunk's context (' '), removed ('-') and added ('+') lines, or leave the hunk out",
                ));
            }
            hunks.push(hunk);
            continue;
        }
        if in_file {
            if let Some(p) = l.strip_prefix("rename from ") {
                h.rename_from = Some(unquote(p));
            } else if let Some(p) = l.strip_prefix("rename to ") {
                h.rename_to = Some(unquote(p));
            } else if let Some(p) = l.strip_prefix("copy from ") {
                h.rename_from = Some(unquote(p));
                h.copy = true;
            } else if let Some(p) = l.strip_prefix("copy to ") {
                h.rename_to = Some(unquote(p));
                h.copy = true;
            } else if let Some(m) = l.strip_prefix("new file mode ") {
                h.new_file = true;
                h.mode = Some(git_mode(m, i + 1)?);
            } else if let Some(m) = l.strip_prefix("new mode ") {
                h.mode = Some(git_mode(m, i + 1)?);
            } else if l.starts_with("deleted file mode") {
                h.deleted = true;
            } else if l.starts_with("Binary files ") || l.starts_with("GIT binary patch") {
                return Err(bad(
                    i + 1,
                    "binary patches are not supported",
                    "write binary files with `llm write`, or leave them out of the diff (`git diff --no-binary`… or `-- ':!*.png'`)",
                ));
            }
        }
        i += 1;
    }
    if in_file {
        flush(&mut h, &mut hunks, &mut files, lines.len())?;
    }
    if files.is_empty() {
        return Err(Error::new(
            Code::ApplyEmpty,
            "the diff holds no file changes",
            "pass a unified diff (`diff -u`, `git diff`) with `--- a/PATH`, `+++ b/PATH` and `@@` hunks",
        ));
    }
    Ok(files)
}

/// `a/x b/y` of a `diff --git` line: each path quoted (`"a/caf\303\251" "b/caf\303\251"`) or
/// not; without git's prefixes (`--no-prefix`), the same path twice.
fn split_git(rest: &str) -> Option<(String, String)> {
    let (a, b) = if rest.starts_with('"') {
        let close = (1..rest.len()).find(|&k| {
            rest.as_bytes()[k] == b'"'
                && rest.as_bytes()[..k]
                    .iter()
                    .rev()
                    .take_while(|&&c| c == b'\\')
                    .count()
                    % 2
                    == 0
        })?;
        (
            unquote(&rest[..=close]),
            unquote(rest[close + 1..].trim_start()),
        )
    } else if let Some((a, b)) = rest.split_once(" b/") {
        (a.to_string(), format!("b/{b}"))
    } else if let Some(at) = rest.find(" \"") {
        (rest[..at].to_string(), unquote(&rest[at + 1..]))
    } else {
        let mid = rest.len() / 2;
        let same =
            rest.len() % 2 == 1 && rest.as_bytes()[mid] == b' ' && rest[..mid] == rest[mid + 1..];
        if !same {
            return None;
        }
        return Some((rest[..mid].to_string(), rest[..mid].to_string()));
    };
    let a = a.strip_prefix("a/").map_or(a.clone(), str::to_string);
    let b = b.strip_prefix("b/").map_or(b.clone(), str::to_string);
    Some((a, b))
}

/// `a/x` → `x` when git's prefixes are in use.
fn strip_git(p: &str, prefix: &str, git: bool) -> String {
    if git {
        p.strip_prefix(prefix).unwrap_or(p).to_string()
    } else {
        p.to_string()
    }
}

fn finish(h: Headers, mut hunks: Vec<Hunk>, line: usize) -> Result<Option<FilePatch>, Error> {
    let old = h.old.clone().flatten();
    let new = h.new.clone().flatten();
    // `diff -ruN old new`: two trees whose names differ, the paths below them alike; the
    // tree patched is the current directory (patch -p1), unless the path exists as written.
    let (old, new) = match (&old, &new, &h.git) {
        (Some(o), Some(n), None) if !o.starts_with("a/") || !n.starts_with("b/") => {
            match (o.split_once('/'), n.split_once('/')) {
                (Some((od, orest)), Some((nd, nrest)))
                    if od != nd && orest == nrest && !std::path::Path::new(o).exists() =>
                {
                    (Some(orest.to_string()), Some(nrest.to_string()))
                }
                _ => (old, new),
            }
        }
        _ => (old, new),
    };
    // git's a/ b/ prefixes: both sides carry them (or one side is /dev/null).
    let git = h.git.is_some()
        || (old.as_deref().is_none_or(|o| o.starts_with("a/"))
            && new.as_deref().is_none_or(|n| n.starts_with("b/"))
            && (old.is_some() || new.is_some()));
    // Without a `diff --git` line the prefixes may be real directories (`diff -u a/x b/x`):
    // the stripped path is taken only when the unstripped one does not exist.
    let keep_raw = h.git.is_none()
        && old
            .as_deref()
            .is_some_and(|o| std::path::Path::new(o).exists())
        && !old
            .as_deref()
            .is_some_and(|o| std::path::Path::new(&strip_git(o, "a/", true)).exists());
    let git = git && !keep_raw;
    let old = old.map(|p| strip_git(&p, "a/", git));
    let new = new.map(|p| strip_git(&p, "b/", git));
    let new = if keep_raw { old.clone().or(new) } else { new };
    let sides = |keep: fn(&Line) -> bool| hunks.iter().flat_map(|k| &k.lines).any(keep);
    let has_old = sides(|l| !matches!(l, Line::Add(_)));
    let has_new = sides(|l| !matches!(l, Line::Remove(_)));
    // `diff -N` marks the side that does not exist with the epoch, not `/dev/null`.
    let created = h.new_file || (h.old == Some(None)) || (h.old_epoch && !has_old);
    let deleted = h.deleted || (h.new == Some(None)) || (h.new_epoch && !has_new && !created);
    let (from, to) = match (&h.rename_from, &h.rename_to) {
        (Some(a), Some(b)) => (Some(a.clone()), Some(b.clone())),
        _ => (
            old.clone().or_else(|| h.git.as_ref().map(|g| g.0.clone())),
            new.clone().or_else(|| h.git.as_ref().map(|g| g.1.clone())),
        ),
    };
    let kind = if created {
        Kind::Add
    } else if deleted {
        Kind::Delete
    } else {
        Kind::Update
    };
    let path = match kind {
        Kind::Add => to.clone(),
        _ => from.clone(),
    };
    let Some(path) = path else {
        return Err(bad(
            line,
            "a file's part names no path",
            "give `--- a/PATH` and `+++ b/PATH` lines",
        ));
    };
    // Only git says a file moved (`rename from`/`rename to`, or `diff --git a/x b/y`): a plain
    // `diff -u foo.c.orig foo.c` names two spellings of one file, and the one that exists is
    // patched, as patch(1) does (the new name first).
    let plain = h.git.is_none() && h.rename_from.is_none();
    let (path, to) = match (&to, kind == Kind::Update && plain) {
        (Some(t), true) if *t != path => {
            let new_exists = std::path::Path::new(t).exists();
            (if new_exists { t.clone() } else { path }, None)
        }
        _ => (path, to),
    };
    let move_to = match kind {
        Kind::Update => to.filter(|t| *t != path).map(PathBuf::from),
        _ => None,
    };
    if kind == Kind::Update && hunks.is_empty() && move_to.is_none() && h.mode.is_none() {
        return Ok(None);
    }
    // Added lines keep their `\r` only in a new file; elsewhere the file's endings win.
    if kind != Kind::Add {
        for l in hunks.iter_mut().flat_map(|k| &mut k.lines) {
            if let Line::Add(t) = l {
                if t.ends_with('\r') {
                    t.pop();
                }
            }
        }
    }
    let drop_bom = kind != Kind::Add && strip_bom(&mut hunks);
    Ok(Some(FilePatch {
        kind,
        path: PathBuf::from(path),
        copy: h.copy && move_to.is_some(),
        move_to,
        hunks,
        codex: false,
        mode: h.mode,
        drop_bom,
    }))
}

/// A file's BOM is kept apart from its first line when a patch is applied: a hunk whose old
/// side begins with it (`git diff` shows it in line 1) loses it there, and on its new side
/// where that keeps it. Returns whether the new side drops it.
fn strip_bom(hunks: &mut [Hunk]) -> bool {
    let mut dropped = false;
    for hunk in hunks {
        let old = hunk.lines.iter_mut().find_map(|l| match l {
            Line::Context(t) => Some((t, true)),
            Line::Remove(t) => Some((t, false)),
            Line::Add(_) => None,
        });
        let Some((first, context)) = old.filter(|(t, _)| t.starts_with('\u{feff}')) else {
            continue;
        };
        first.drain(..'\u{feff}'.len_utf8());
        if context {
            // The same line begins the new side, BOM and all.
            continue;
        }
        // The new side's first line: with the BOM, or the file loses it (as in git, where it
        // is part of line 1's bytes).
        let new = hunk.lines.iter_mut().find_map(|l| match l {
            Line::Add(t) | Line::Context(t) => Some(t),
            Line::Remove(_) => None,
        });
        match new {
            Some(t) if t.starts_with('\u{feff}') => {
                t.drain(..'\u{feff}'.len_utf8());
            }
            _ => dropped = true,
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(detect("*** Begin Patch\n"), Some(Format::Codex));
        assert_eq!(detect("  *** Begin Patch \n"), Some(Format::Codex));
        assert_eq!(detect("{\"op\":\"write\"}\n"), Some(Format::Jsonl));
        assert_eq!(
            detect("--- a/x\n+++ b/x\n@@ -1 +1 @@\n"),
            Some(Format::Unified)
        );
        assert_eq!(detect("hello\n"), None);
        assert_eq!(detect(""), None);
    }

    #[test]
    fn git_diff_with_rename_add_delete_and_no_newline() {
        let d = "diff --git a/old.rs b/new.rs\nsimilarity index 90%\nrename from old.rs\nrename to new.rs\n--- a/old.rs\n+++ b/new.rs\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\ndiff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+y\ndiff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n";
        let f = parse_unified(d).unwrap();
        assert_eq!(f.len(), 4);
        assert_eq!((f[3].path.to_str(), f[3].mode), (Some("m.sh"), Some(0o755)));
        assert_eq!(f[2].mode, Some(0o644));
        assert_eq!(
            (f[0].kind.clone(), f[0].path.to_str()),
            (Kind::Update, Some("old.rs"))
        );
        assert_eq!(
            f[0].move_to.as_deref(),
            Some(std::path::Path::new("new.rs"))
        );
        assert!(f[0].hunks[0].new_no_newline && !f[0].hunks[0].old_no_newline);
        assert_eq!(f[1].kind, Kind::Delete);
        assert_eq!(f[2].kind, Kind::Add);
        assert_eq!(f[2].path.to_str(), Some("n.txt"));
    }

    #[test]
    fn plain_diff_u_keeps_paths() {
        let d = "--- src/a.c\t2024-01-01 10:00:00\n+++ src/a.c\t2024-01-02 10:00:00\n@@ -3,1 +3,1 @@\n-x\n+y\n";
        let f = parse_unified(d).unwrap();
        assert_eq!(f[0].path.to_str(), Some("src/a.c"));
        assert_eq!(f[0].hunks[0].old_start, Some(3));
    }

    #[test]
    fn codex_sections_and_markers() {
        let p = " *** Begin Patch\n*** Add File: a/b.txt\n+hi\n*** Update File: x.py\n*** Move to: y/x.py\n@@ def f():\n-    a\n+    b\n*** End of File\n*** Delete File: z\n*** End Patch \n";
        let f = parse_codex(p).unwrap();
        assert_eq!(f.len(), 3);
        assert_eq!(f[1].hunks[0].anchor.as_deref(), Some("def f():"));
        assert!(f[1].hunks[0].at_eof);
        assert_eq!(
            f[1].move_to.as_deref(),
            Some(std::path::Path::new("y/x.py"))
        );
        assert_eq!(
            parse_codex("*** Begin Patch\n*** End Patch\n")
                .unwrap_err()
                .code,
            Code::ApplyEmpty
        );
        assert_eq!(
            parse_codex("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n")
                .unwrap_err()
                .code,
            Code::ApplyBadPatch
        );
        assert_eq!(
            parse_codex("*** Begin Patch\n*** Update File: foo\n*** End Patch\n")
                .unwrap_err()
                .code,
            Code::ApplyBadPatch
        );
    }
}
