//! [`Checker`]: which checker `--check` runs for a language (by canonical name, else by
//! extension), and running it on a file's new text or its project.

use super::{cargo, cc, java, python, script, tsc, ValidatorReport, Verdict};
use crate::error::{Code, Error};
use std::path::Path;
use std::time::{Duration, Instant};

/// The checker `--check` runs for a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checker {
    /// `cargo check` on the file's package (in place).
    Cargo,
    /// Python's `compile()` on the text.
    Python,
    /// `bash -n` (bash and POSIX sh).
    Bash,
    /// `ruby -wc`.
    Ruby,
    /// `php -l`.
    Php,
    /// `node --check` (JavaScript; CommonJS or ES module as Node would load the file).
    Node,
    /// `gofmt -e` (Go syntax).
    Gofmt,
    /// `javac` into a temporary directory (one file, its source root on the source path).
    Javac,
    /// `gcc -fsyntax-only` (C), with the file's `compile_commands.json` flags.
    Gcc,
    /// `g++ -fsyntax-only` (C++), with the file's `compile_commands.json` flags.
    Gxx,
    /// `tsc --noEmit -p DIR` on the project of the nearest `tsconfig.json` (in place).
    Tsc,
    /// A known language without a one-file checker (C#): `--check` reports `not_available`.
    None(&'static str),
}

impl Checker {
    /// The checker for a file: by the language's canonical name when known (`--lang` or the
    /// registry), else by the file's extension or name. `None` for languages we know nothing of.
    pub fn for_file(language: Option<&str>, path: &Path) -> Option<Checker> {
        let by_name = |name: &str| {
            Some(match name {
                "rust" => Checker::Cargo,
                "python" => Checker::Python,
                "bash" | "sh" => Checker::Bash,
                "ruby" => Checker::Ruby,
                "php" => Checker::Php,
                "javascript" => Checker::Node,
                "go" => Checker::Gofmt,
                "java" => Checker::Javac,
                "c" => Checker::Gcc,
                "cpp" => Checker::Gxx,
                "typescript" | "tsx" => Checker::Tsc,
                "csharp" => Checker::None("csharp"),
                _ => return None,
            })
        };
        if let Some(c) = language.and_then(by_name) {
            return Some(c);
        }
        let file = path.file_name()?.to_str()?;
        if matches!(file, "Rakefile" | "Gemfile") {
            return Some(Checker::Ruby);
        }
        let ext = Path::new(file).extension()?.to_str()?.to_ascii_lowercase();
        by_name(match ext.as_str() {
            "rs" => "rust",
            "py" | "pyi" => "python",
            "sh" | "bash" => "bash",
            "rb" => "ruby",
            "php" => "php",
            "js" | "mjs" | "cjs" | "jsx" => "javascript",
            "go" => "go",
            "java" => "java",
            "c" | "h" => "c",
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "ipp" => "cpp",
            "ts" | "mts" | "cts" => "typescript",
            "tsx" => "tsx",
            "cs" => "csharp",
            _ => return None,
        })
    }

    /// The validator's name in `validators[]`.
    pub fn name(self) -> &'static str {
        match self {
            Checker::Cargo => cargo::NAME,
            Checker::Python => python::NAME,
            Checker::Bash => script::BASH,
            Checker::Ruby => script::RUBY,
            Checker::Php => script::PHP,
            Checker::Node => script::NODE,
            Checker::Gofmt => script::GOFMT,
            Checker::Javac => java::NAME,
            Checker::Gcc => cc::GCC,
            Checker::Gxx => cc::GXX,
            Checker::Tsc => tsc::NAME,
            Checker::None(_) => "check",
        }
    }

    /// Whether it checks the project with the file in place (`cargo check`, `tsc`), rather
    /// than the text alone.
    pub fn in_place(self) -> bool {
        matches!(self, Checker::Cargo | Checker::Tsc)
    }

    /// Checks `text`, the full new content of the file at `path` (absolute; the file itself
    /// need not exist: the text is checked in a temporary copy beside nothing, with the file's
    /// directory and project consulted for include paths, source roots and module type),
    /// reported as `display`. For the in-place checkers, checks the project as it stands on
    /// disk with `path` as the file of interest.
    pub fn check(
        self,
        text: &[u8],
        path: &Path,
        display: &str,
        timeout: Duration,
    ) -> ValidatorReport {
        match self {
            Checker::Cargo => cargo::check_file(
                path,
                &cargo::CargoOptions {
                    timeout,
                    ..Default::default()
                },
            ),
            Checker::Python => python::check(
                text,
                display,
                &python::PythonOptions {
                    timeout,
                    ..Default::default()
                },
            ),
            Checker::Bash | Checker::Ruby | Checker::Php | Checker::Node | Checker::Gofmt => {
                script::check(self, text, path, display, timeout)
            }
            Checker::Javac => java::check(text, path, display, timeout),
            Checker::Gcc | Checker::Gxx => {
                cc::check(self == Checker::Gxx, text, path, display, timeout)
            }
            Checker::Tsc => tsc::check(path, display, timeout),
            Checker::None(language) => {
                let err = Error::new(
                    Code::CheckerNotAvailable,
                    format!("--check has no checker for {language} (no one-file compiler check exists for it); nothing was checked"),
                    format!("drop --check, or check through a language server: --lsp '<server command>' (e.g. csharp-ls or OmniSharp for {language})"),
                )
                .with_file(display);
                ValidatorReport::unavailable(
                    "check",
                    None,
                    Instant::now(),
                    Verdict::NotAvailable,
                    err,
                    "check",
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_by_name_first_then_extension() {
        let f = |lang: Option<&str>, path: &str| Checker::for_file(lang, Path::new(path));
        assert_eq!(f(Some("cpp"), "x.h"), Some(Checker::Gxx));
        assert_eq!(f(None, "x.h"), Some(Checker::Gcc));
        assert_eq!(f(Some("bash"), "bin/run"), Some(Checker::Bash));
        assert_eq!(f(None, "bin/run"), None);
        assert_eq!(f(None, "Rakefile"), Some(Checker::Ruby));
        assert_eq!(f(Some("tsx"), "a.tsx"), Some(Checker::Tsc));
        assert_eq!(f(None, "a.MJS"), Some(Checker::Node));
        assert_eq!(f(None, "A.cs"), Some(Checker::None("csharp")));
        assert_eq!(f(Some("markdown"), "README.md"), None);
        for (path, c) in [
            ("a.rs", Checker::Cargo),
            ("a.py", Checker::Python),
            ("a.sh", Checker::Bash),
            ("a.rb", Checker::Ruby),
            ("a.php", Checker::Php),
            ("a.cjs", Checker::Node),
            ("a.go", Checker::Gofmt),
            ("A.java", Checker::Javac),
            ("a.c", Checker::Gcc),
            ("a.hpp", Checker::Gxx),
            ("a.mts", Checker::Tsc),
        ] {
            assert_eq!(f(None, path), Some(c), "{path}");
            assert!(!c.name().is_empty());
        }
        assert!(Checker::Cargo.in_place() && Checker::Tsc.in_place() && !Checker::Gcc.in_place());
    }

    #[test]
    fn csharp_is_not_available_with_a_remediation() {
        let r = Checker::None("csharp").check(
            b"class A {}\n",
            Path::new("A.cs"),
            "A.cs",
            Duration::from_secs(1),
        );
        assert_eq!(r.verdict, Verdict::NotAvailable);
        assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
        assert!(r.diagnostics[0]
            .remediation
            .as_deref()
            .unwrap()
            .contains("--lsp"));
    }
}
