//! Running a checker's process: stdin fed, stdout and stderr collected (bounded), and the
//! process with everything it started killed at a deadline.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How a child process run by [`run`] ended.
pub(crate) enum Ran {
    /// It exited within the timeout.
    Done {
        status: ExitStatus,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// The program could not be started because it does not exist.
    NotFound,
    /// It was still running at the deadline and was killed (with its process group).
    TimedOut { stderr: Vec<u8> },
    /// It could not be started or waited for for another reason.
    Failed(std::io::Error),
}

/// Runs `cmd` with `stdin` fed to it, collecting stdout and stderr, killing it (and every process
/// it started, on Unix) if it is still running after `timeout`.
pub(crate) fn run(cmd: &mut Command, stdin: Option<&[u8]>, timeout: Duration) -> Ran {
    use wait_timeout::ChildExt;
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    own_process_group(cmd);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ran::NotFound,
        Err(e) => return Ran::Failed(e),
    };
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let input = input.to_vec();
        // A child that does not read its stdin must not block us: write from a thread.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            kill_tree(&mut child);
            return Ran::TimedOut {
                stderr: collect(err, Duration::from_millis(500)),
            };
        }
        Err(e) => {
            kill_tree(&mut child);
            return Ran::Failed(e);
        }
    };
    // What the checker left running (a background child holding its pipes) goes with it: the
    // check is over, and its output ends here (they kept a run waiting for its whole timeout).
    end_group(&child);
    let stdout = collect(out, Duration::from_secs(2));
    let stderr = collect(err, Duration::from_secs(1));
    Ran::Done {
        status,
        stdout,
        stderr,
    }
}

/// Reads a pipe to its end on a thread; the bytes arrive on the returned channel.
/// The most of a checker's stdout or stderr kept; the rest is read and dropped (a checker
/// printing 800 MB took 2.6 GB of memory). Diagnostics come from the start of the output.
const MAX_OUTPUT: usize = 16 << 20;

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let room = MAX_OUTPUT.saturating_sub(buf.len());
                        buf.extend_from_slice(&chunk[..n.min(room)]);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(buf);
        });
    }
    rx
}

fn collect(rx: mpsc::Receiver<Vec<u8>>, wait: Duration) -> Vec<u8> {
    rx.recv_timeout(wait).unwrap_or_default()
}

/// Puts the child in a process group of its own, so that [`kill_tree`] reaches what it spawns
/// (rustc under cargo, node workers under a language server).
pub(crate) fn own_process_group(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = cmd;
}

/// Kills what is left of the process group of a child started with [`own_process_group`],
/// after the child itself ended.
fn end_group(child: &Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child led; it
        // touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// Kills a child started with [`own_process_group`] and its whole group, then reaps it.
pub(crate) fn kill_tree(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads; it
            // touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The last `max` bytes of a tool's stderr as trimmed text, for notes.
pub(crate) fn tail(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    if text.len() <= max {
        return text.to_string();
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &text[start..])
}
