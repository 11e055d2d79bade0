//! `llm patch --rename`: the definition and its references in every file of the language
//! under `--in` (default: the root), as one request.

use super::{locate, PatchOptions, PatchedSymbol, Planned, RenameSite};
use crate::edit::Edit;
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::{self, symbols};
use crate::mutation::{self, Change};
use crate::span::{checksum, LineIndex};
use crate::walk::{self, display_path, WalkOptions};
use std::path::{Path, PathBuf};

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// One file a rename changes: its path, its bytes as read, their tree, and the edits.
pub(super) struct RenamedFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub tree: tree_sitter::Tree,
    pub edits: Vec<Edit>,
}

/// The files and sites of renaming `s` (defined in `opts.file`, whose bytes are `src`) to
/// `new`; `read` gives a file's bytes (from disk, or as an `llm apply` batch staged them).
fn rename_core(
    opts: &PatchOptions,
    language: &'static lang::Language,
    s: &symbols::Symbol,
    new: &str,
    src: &[u8],
    read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
) -> Result<(Vec<RenamedFile>, Vec<RenameSite>), Error> {
    if !is_identifier(new) {
        return Err(Error::new(
            Code::PatchBadName,
            format!("`{new}` is not an identifier"),
            "pass a plain name (letters, digits, `_`; not starting with a digit) to --rename",
        ));
    }
    let old = s.name.clone();
    let roots = if opts.rename_paths.is_empty() {
        vec![opts.mutation.root.clone()]
    } else {
        opts.rename_paths.clone()
    };
    let walked = walk::walk(
        &WalkOptions {
            paths: roots,
            ..Default::default()
        },
        "patch",
    )?;
    let primary = std::fs::canonicalize(&opts.file).unwrap_or_else(|_| opts.file.clone());
    let finder = memchr::memmem::Finder::new(old.as_bytes());
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![(opts.file.clone(), src.to_vec())];
    for c in walked
        .files
        .iter()
        .filter(|c| lang::for_path(&c.path).is_some_and(|l| std::ptr::eq(l, language)))
    {
        if std::fs::canonicalize(&c.path).is_ok_and(|p| p == primary) {
            continue;
        }
        if let Some(bytes) = read(&c.path) {
            if finder.find(&bytes).is_some() {
                files.push((c.path.clone(), bytes));
            }
        }
    }
    let mut out = Vec::new();
    let mut sites = Vec::new();
    for (path, bytes) in files {
        let display = display_path(&path);
        let hits: Vec<_> = finder
            .find_iter(&bytes)
            .map(|at| at..at + old.len())
            .collect();
        let index = LineIndex::new(&bytes);
        let tree = language
            .parse_around(&bytes, &index, &hits, Cut::Members)
            .tree;
        let refs = symbols::references(language, &bytes, &tree, &old, &display);
        if refs.is_empty() {
            continue;
        }
        let edits: Vec<Edit> = refs
            .iter()
            .map(|r| Edit::new(r.span.range(), new))
            .collect();
        sites.extend(refs.into_iter().map(|r| RenameSite {
            span: r.span,
            context: r.context,
            is_definition: r.is_definition,
            line_text: r.line_text,
        }));
        out.push(RenamedFile {
            path,
            bytes,
            tree,
            edits,
        });
    }
    Ok((out, sites))
}

fn message(s: &symbols::Symbol, new: &str, sites: usize, files: usize) -> String {
    format!(
        "renamed {} `{}` to `{new}`: {} site{} in {} file{}",
        s.kind.as_str(),
        s.qualified_name,
        sites,
        if sites == 1 { "" } else { "s" },
        files,
        if files == 1 { "" } else { "s" }
    )
}

/// Plans a rename on the files as they are on disk.
pub(super) fn plan_rename(
    opts: &PatchOptions,
    language: &'static lang::Language,
    s: &symbols::Symbol,
    symbol: PatchedSymbol,
    new: &str,
    src: &[u8],
    checksum_now: Option<String>,
) -> Result<Planned, Error> {
    let (files, sites) = rename_core(opts, language, s, new, src, &mut |p| std::fs::read(p).ok())?;
    let changes: Vec<Change> = files
        .into_iter()
        .enumerate()
        .map(|(k, f)| {
            let expected = if k == 0 && f.path == opts.file {
                checksum_now.clone()
            } else {
                Some(checksum(&f.bytes))
            };
            Change::edits(&f.path, f.edits, expected).with_tree(f.tree)
        })
        .collect();
    let prepared = mutation::prepare(&changes, &opts.mutation)?;
    let message = message(s, new, sites.len(), changes.len());
    let paths = changes.iter().map(|c| c.path.clone()).collect();
    Ok(Planned {
        prepared,
        paths,
        symbol,
        span_before: s.name_span.clone(),
        sites,
        message,
    })
}

/// Each file's edits.
pub type FileEdits = Vec<(PathBuf, Vec<Edit>)>;

/// A rename's edits per file, on files as `read` gives them (an `llm apply` batch's staged
/// files), with the message that describes it.
pub fn rename_on(
    opts: &PatchOptions,
    read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
) -> Result<(FileEdits, String), Error> {
    let super::Action::Rename(new) = &opts.action else {
        unreachable!("rename_on is called for --rename")
    };
    let display = display_path(&opts.file);
    let language = lang::for_path(&opts.file).ok_or_else(|| {
        Error::new(
            Code::PatchUnsupportedLanguage,
            format!("{display}: no registered language for this file"),
            "rename works on files of a registered language",
        )
        .with_file(&display)
    })?;
    let src = read(&opts.file).ok_or_else(|| {
        Error::new(
            Code::PathNotFound,
            format!("{display} does not exist"),
            "check the path",
        )
        .with_file(&display)
    })?;
    let (syms, i, _) = locate(opts, language, &src, &display)?;
    let (files, sites) = rename_core(opts, language, &syms[i], new, &src, read)?;
    let message = message(&syms[i], new, sites.len(), files.len());
    Ok((
        files.into_iter().map(|f| (f.path, f.edits)).collect(),
        message,
    ))
}
