//! `llm search` input: `--pre COMMAND` (with `--pre-glob`) and `-z/--search-zip`, as
//! ripgrep 13 runs them: a program is given the file's path as its one argument (a `--pre`
//! command gets the file on its standard input too), and what it writes to standard output is
//! searched instead of the file.

use crate::error::{Code, Error};
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The programs that turn files into the text searched, built once per run.
pub struct Preprocessors {
    pre: Option<PathBuf>,
    /// `--pre-glob`: the files `--pre` applies to (all of them when none is given).
    pre_globs: Option<ignore::overrides::Override>,
    zip: Option<grep_cli::DecompressionMatcher>,
}

/// A program to run on one file: what to spawn, and how it is named in output.
pub struct Program {
    pub bin: OsString,
    pub args: Vec<OsString>,
    /// The command as shown (`gzip -d -c`, or the `--pre` command as given).
    pub shown: String,
    /// `--pre` (the file is its standard input too) rather than a decompressor.
    pub pre: bool,
}

impl Preprocessors {
    /// Built from `--pre`, `--pre-glob` and `-z`; a bad glob is `LLM_E006`.
    pub fn new(pre: Option<&Path>, pre_globs: &[String], zip: bool) -> Result<Self, Error> {
        let globs = match (pre, pre_globs.is_empty()) {
            (Some(_), false) => {
                let cwd = std::env::current_dir().unwrap_or_default();
                let mut b = ignore::overrides::OverrideBuilder::new(cwd);
                for g in pre_globs {
                    b.add(g).map_err(|e| bad_glob(g, &e))?;
                }
                Some(b.build().map_err(|e| bad_glob(&pre_globs.join(" "), &e))?)
            }
            _ => None,
        };
        Ok(Preprocessors {
            pre: pre.map(Path::to_path_buf),
            pre_globs: globs,
            zip: zip.then(grep_cli::DecompressionMatcher::new),
        })
    }

    /// Whether any file may be preprocessed (else nothing here is asked about a file).
    pub fn any(&self) -> bool {
        self.pre.is_some() || self.zip.is_some()
    }

    /// The program for the file at `path`, if any: `--pre` (where a `--pre-glob` matches,
    /// when any is given), else `-z`'s decompressor (the CLI gives only one of them: the
    /// last of `--pre` and `-z` wins, as rg 13).
    pub fn program(&self, path: &Path) -> Option<Program> {
        if let Some(pre) = &self.pre {
            let wanted = match &self.pre_globs {
                None => true,
                Some(g) => !g.matched(path, false).is_ignore(),
            };
            if wanted {
                return Some(Program {
                    bin: pre.clone().into_os_string(),
                    args: Vec::new(),
                    shown: pre.display().to_string(),
                    pre: true,
                });
            }
        }
        let cmd = self.zip.as_ref()?.command(path)?;
        let args: Vec<OsString> = cmd.get_args().map(OsString::from).collect();
        let name = Path::new(cmd.get_program())
            .file_name()
            .unwrap_or(cmd.get_program())
            .to_string_lossy()
            .into_owned();
        let shown = std::iter::once(name)
            .chain(args.iter().map(|a| a.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(" ");
        Some(Program {
            bin: cmd.get_program().to_os_string(),
            args,
            shown,
            pre: false,
        })
    }
}

fn bad_glob(glob: &str, e: &ignore::Error) -> Error {
    Error::new(
        Code::InvalidGlob,
        format!("invalid --pre-glob `{glob}`: {e}"),
        "fix the glob (e.g. --pre-glob '*.pdf'); `!` at the start excludes",
    )
}

/// How running a program on a file failed.
pub enum Failure {
    /// The program is not installed (a decompressor: the file is skipped with a warning).
    Missing(std::io::Error),
    /// It could not start, failed, or said too much: a per-file error.
    Failed(String),
}

/// The most a program's output may hold (as `-f` and the other inputs read whole).
const MAX_OUTPUT: u64 = crate::fsio::MAX_INPUT_BYTES;

/// Runs `program` on the file at `path` and returns what it wrote to standard output.
pub fn run(program: &Program, path: &Path) -> Result<Vec<u8>, Failure> {
    let mut cmd = Command::new(&program.bin);
    cmd.args(&program.args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if program.pre {
        let file = std::fs::File::open(path).map_err(|e| Failure::Failed(e.to_string()))?;
        cmd.stdin(Stdio::from(file));
    } else {
        cmd.stdin(Stdio::null());
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !program.pre => {
            return Err(Failure::Missing(e))
        }
        Err(e) => return Err(Failure::Failed(format!("could not start: {e}"))),
    };
    // Standard error is read beside standard output, so that neither pipe fills and blocks
    // the program; only its first 64 KiB are kept.
    let mut stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.take(64 << 10).read_to_end(&mut kept);
            let _ = std::io::copy(e, &mut std::io::sink());
        }
        kept
    });
    let mut out = Vec::new();
    let read = child
        .stdout
        .take()
        .map(|o| o.take(MAX_OUTPUT + 1).read_to_end(&mut out));
    let too_much = out.len() as u64 > MAX_OUTPUT;
    if too_much {
        let _ = child.kill();
    }
    let status = child.wait();
    let stderr = errors.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr).trim().to_string();
    if too_much {
        return Err(Failure::Failed(format!(
            "wrote more than {} MiB, the most llm holds of one file's text",
            MAX_OUTPUT >> 20
        )));
    }
    if let Some(Err(e)) = read {
        return Err(Failure::Failed(format!("reading its output failed: {e}")));
    }
    match status {
        Ok(s) if s.success() => Ok(out),
        Ok(s) => Err(Failure::Failed(match stderr.is_empty() {
            true => format!("failed ({s})"),
            false => format!("failed ({s}): {stderr}"),
        })),
        Err(e) => Err(Failure::Failed(e.to_string())),
    }
}
