//! `llm ast --tree FILE [--at LINE:COL]`: the named nodes of a file's syntax tree with their
//! field names and spans, so that a query can be written from what is really there.

use crate::error::{Code, Error, Result};
use crate::lang::{self, Language};
use crate::span::{checksum, LineIndex, Span};
use crate::walk;
use serde::Serialize;
use std::path::PathBuf;
use tree_sitter::{Node, TreeCursor};

/// What `--tree` needs.
#[derive(Debug, Clone)]
pub struct TreeOptions {
    pub file: PathBuf,
    /// `--lang`, for a file whose extension says nothing.
    pub lang: Option<&'static Language>,
    /// 1-indexed line, 0-indexed byte column.
    pub at: Option<(usize, usize)>,
}

/// One named node.
#[derive(Debug, Clone, Serialize)]
pub struct TreeNode {
    pub kind: String,
    /// The field of its parent this node fills (`name`, `body`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub span: Span,
    /// Text of a node without named children (identifiers, literals), lossy UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// ERROR or MISSING node.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub error: bool,
    pub children: Vec<TreeNode>,
    /// Its children are [`MAX_DEPTH`] levels below the node shown and are left out (`--at`
    /// inside it shows them).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deeper: bool,
}

/// Levels of the tree shown below the root (or the `--at` node). Each level is a frame of the
/// recursion that builds, prints and frees the tree; a file of 20,000 nested brackets
/// overflowed the stack.
pub const MAX_DEPTH: usize = 256;

/// A node on the path from the root to `--at`.
#[derive(Debug, Clone, Serialize)]
pub struct PathNode {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub span: Span,
}

/// The JSON `data` of `--tree`.
#[derive(Debug, Serialize)]
pub struct TreeData {
    pub file_path: String,
    pub checksum: String,
    pub language: &'static str,
    /// With `--at`: root → smallest named node at the position (last element).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<PathNode>>,
    /// The whole tree, or with `--at` the subtree of the smallest named node there.
    pub root: TreeNode,
}

/// Parses the file and builds the tree (or the `--at` path and subtree).
pub fn run(opts: &TreeOptions) -> Result<TreeData> {
    let display = walk::display_path(&opts.file);
    let lang = match lang::for_path(&opts.file).or(opts.lang) {
        Some(l) => l,
        None => {
            return Err(Error::new(
                Code::NoLanguage,
                format!("{display}: no registered language for this file"),
                format!(
                    "pass --lang ({})",
                    lang::ALL
                        .iter()
                        .map(|l| l.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .with_file(display))
        }
    };
    let lang = opts.lang.unwrap_or(lang);
    let source = crate::fsio::read(&opts.file, &display)?;
    let tree = lang.parse(&source);
    let index = LineIndex::new(&source);
    let ctx = Ctx {
        source: &source,
        index: &index,
        display: &display,
    };
    let (path, root) = match opts.at {
        None => (None, ctx.build(&mut tree.walk(), 0)),
        Some((line, col)) => {
            let off = index
                .line_range(line)
                .filter(|r| col <= r.len())
                .map(|r| r.start + col)
                .ok_or_else(|| {
                    Error::new(
                        Code::BadPosition,
                        format!(
                            "--at {line}:{col} is outside {display} ({} lines)",
                            index.line_count()
                        ),
                        "give LINE:COL with a 1-indexed line and a 0-indexed byte column inside the file",
                    )
                    .with_file(display.clone())
                })?;
            let mut cursor = tree.walk();
            let mut path = vec![ctx.path_node(&cursor)];
            // Descend to the smallest named node containing the offset.
            'down: loop {
                if !cursor.goto_first_child() {
                    break;
                }
                loop {
                    let n = cursor.node();
                    if n.start_byte() <= off
                        && off < n.end_byte().max(n.start_byte() + 1)
                        && n.is_named()
                    {
                        path.push(ctx.path_node(&cursor));
                        continue 'down;
                    }
                    if !cursor.goto_next_sibling() {
                        cursor.goto_parent();
                        break 'down;
                    }
                }
            }
            // `cursor` sits on the last named node pushed (or its parent chain's end).
            let mut c2 = tree.walk();
            let target = path.last().unwrap().span.range();
            let node = smallest_named(tree.root_node(), target.clone());
            c2.reset(node);
            let mut root = ctx.build(&mut c2, 0);
            root.field = path.last().unwrap().field.clone();
            (Some(path), root)
        }
    };
    Ok(TreeData {
        file_path: display.clone(),
        checksum: checksum(&source),
        language: lang.name,
        path,
        root,
    })
}

fn smallest_named(root: Node, range: std::ops::Range<usize>) -> Node {
    root.named_descendant_for_byte_range(range.start, range.end)
        .filter(|n| n.byte_range() == range)
        .unwrap_or(root)
}

struct Ctx<'a> {
    source: &'a [u8],
    index: &'a LineIndex,
    display: &'a str,
}

impl Ctx<'_> {
    fn path_node(&self, c: &TreeCursor) -> PathNode {
        PathNode {
            kind: c.node().kind().to_string(),
            field: c.field_name().map(str::to_string),
            span: self.index.span(self.display, c.node().byte_range()),
        }
    }

    fn build(&self, c: &mut TreeCursor, depth: usize) -> TreeNode {
        let node = c.node();
        let mut children = Vec::new();
        let deeper = depth == MAX_DEPTH && node.named_child_count() > 0;
        if !deeper && c.goto_first_child() {
            loop {
                if c.node().is_named() || c.node().is_missing() {
                    children.push(self.build(c, depth + 1));
                }
                if !c.goto_next_sibling() {
                    break;
                }
            }
            c.goto_parent();
        }
        TreeNode {
            kind: node.kind().to_string(),
            field: c.field_name().map(str::to_string),
            span: self.index.span(self.display, node.byte_range()),
            text: (node.named_child_count() == 0)
                .then(|| String::from_utf8_lossy(&self.source[node.byte_range()]).into_owned()),
            error: node.is_error() || node.is_missing(),
            children,
            deeper,
        }
    }
}
