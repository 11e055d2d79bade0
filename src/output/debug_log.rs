//! `--debug` and `--trace`: the `log` records of llm and of the crates it searches with
//! (ignore, globset, grep-regex, grep-searcher), written to stderr in ripgrep's format,
//! `LEVEL|target|file:line: message`. Stdout is never touched.

use std::io::Write;

/// Writes every record up to the level set at [`install`] to stderr.
struct Stderr;

impl log::Log for Stderr {
    fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
        meta.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = match (record.file(), record.line()) {
            (Some(file), Some(line)) => writeln!(
                err,
                "{}|{}|{file}:{line}: {}",
                record.level(),
                record.target(),
                record.args()
            ),
            _ => writeln!(
                err,
                "{}|{}|{}",
                record.level(),
                record.target(),
                record.args()
            ),
        };
    }

    fn flush(&self) {
        let _ = std::io::stderr().flush();
    }
}

/// Sends `log` records up to `level` to stderr (`--debug`: `Debug`, `--trace`: `Trace`).
/// Once per process; a second call changes nothing.
pub fn install(level: log::LevelFilter) {
    if log::set_logger(&Stderr).is_ok() {
        log::set_max_level(level);
    }
}
