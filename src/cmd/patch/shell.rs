//! `llm patch --rename` of a Bash function: a function is called only as a command's name (the
//! first word of a simple command); the same word as an argument (`git log -1`, `echo g`), an
//! assignment's value (`cmd=g`) or a variable (`$g`, `local g=5`, another name space) is not it.

use super::classes::{EXCLUDED, POSSIBLE};
use tree_sitter::Node;

/// Commands that run their arguments as a command (`sudo g`, `xargs g`, `trap g EXIT`): one of
/// them may be the function (though `sudo` and `xargs` run a program, never a shell function).
const RUNNERS: [&str; 12] = [
    "command", "env", "eval", "exec", "nice", "nohup", "sudo", "time", "timeout", "trap", "watch",
    "xargs",
];

/// The class of the word `node` (an occurrence of a function's name) when it is not a command's
/// name: `possible` as an argument of one of [`RUNNERS`], else `excluded`. `None`: a command's
/// name, which the rename's other rules class.
pub(super) fn word_class(node: Node, bytes: &[u8]) -> Option<&'static str> {
    let parent = node.parent()?;
    if parent.kind() == "command_name" {
        return None;
    }
    let runner = (node.kind() == "word" && parent.kind() == "command")
        .then(|| parent.child_by_field_name("name"))
        .flatten()
        .is_some_and(|name| {
            let name = String::from_utf8_lossy(&bytes[name.byte_range()]);
            RUNNERS.contains(&name.rsplit('/').next().unwrap_or_default())
        });
    Some(if runner { POSSIBLE } else { EXCLUDED })
}
