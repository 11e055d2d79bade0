//! `llm search`'s colours: ripgrep 13's defaults, changed by `--colors {type}:{attribute}:{value}`
//! (parsed here, from the strings the CLI collects), and written as rg's printer writes them
//! (termcolor's escape sequences), byte for byte.

use super::SearchHuman;
use crate::output::write_uint;
use std::fmt;

/// A colour, as termcolor names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// One of the eight basic colours, by its ANSI number (black 0 … white 7).
    Basic(u8),
    /// An 8-bit colour (`0`–`255`).
    Ansi256(u8),
    /// A 24-bit colour.
    Rgb(u8, u8, u8),
}

/// How one kind of output is coloured (termcolor's `ColorSpec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spec {
    pub fg: Option<Color>,
    pub bg: Option<Color>,
    pub bold: bool,
    pub intense: bool,
    pub underline: bool,
}

impl Spec {
    /// Nothing set (termcolor's `is_none`): rg then leaves matches unpainted.
    pub fn is_none(&self) -> bool {
        self.fg.is_none() && self.bg.is_none() && !self.bold && !self.intense && !self.underline
    }

    /// `text` as rg writes it in this colour: a reset, the styles, the colours, the text,
    /// a reset (all of it even when nothing is set, as rg's paths, line numbers and columns).
    pub fn write(&self, out: &mut Vec<u8>, text: &[u8]) {
        out.extend_from_slice(b"\x1b[0m");
        if self.bold {
            out.extend_from_slice(b"\x1b[1m");
        }
        if self.underline {
            out.extend_from_slice(b"\x1b[4m");
        }
        if let Some(c) = self.fg {
            self.write_color(out, b'3', c);
        }
        if let Some(c) = self.bg {
            self.write_color(out, b'4', c);
        }
        out.extend_from_slice(text);
        out.extend_from_slice(b"\x1b[0m");
    }

    /// One colour's sequence; `layer` is `3` (foreground) or `4` (background). An intense
    /// basic colour is termcolor's 8-bit bright one (`38;5;9` for red).
    fn write_color(&self, out: &mut Vec<u8>, layer: u8, c: Color) {
        out.extend_from_slice(b"\x1b[");
        out.push(layer);
        let code = match c {
            Color::Basic(n) if self.intense => format!("8;5;{}", n + 8),
            Color::Basic(n) => n.to_string(),
            Color::Ansi256(n) => format!("8;5;{n}"),
            Color::Rgb(r, g, b) => format!("8;2;{r};{g};{b}"),
        };
        out.extend_from_slice(code.as_bytes());
        out.push(b'm');
    }
}

/// The colours of the four kinds of output rg colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colors {
    pub path: Spec,
    pub line: Spec,
    pub column: Spec,
    pub matched: Spec,
}

impl Default for Colors {
    /// rg 13's: magenta paths, green line numbers, bold red matches, columns plain.
    fn default() -> Self {
        Colors {
            path: Spec {
                fg: Some(Color::Basic(5)),
                ..Spec::default()
            },
            line: Spec {
                fg: Some(Color::Basic(2)),
                ..Spec::default()
            },
            column: Spec::default(),
            matched: Spec {
                fg: Some(Color::Basic(1)),
                bold: true,
                ..Spec::default()
            },
        }
    }
}

/// Why a `--colors` spec was refused (the message names the part that is wrong).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Colors {
    /// rg's defaults with `specs` applied in order (a later spec overrides an earlier one).
    pub fn from_specs<S: AsRef<str>>(specs: &[S]) -> Result<Self, SpecError> {
        let mut colors = Colors::default();
        for s in specs {
            colors.apply(s.as_ref())?;
        }
        Ok(colors)
    }

    /// Applies one spec, `{type}:{attribute}:{value}` or `{type}:none`, as rg 13 reads it
    /// (case-insensitive; `none` may be followed by a value, which is ignored).
    pub fn apply(&mut self, s: &str) -> Result<(), SpecError> {
        let format = || {
            SpecError(format!(
                "invalid --colors spec `{s}`: the format is {{type}}:{{attribute}}:{{value}} \
                 (type path, line, column or match; attribute fg, bg or style; or {{type}}:none)"
            ))
        };
        let pieces: Vec<&str> = s.split(':').collect();
        if pieces.len() < 2 || pieces.len() > 3 {
            return Err(format());
        }
        let lower = |p: &str| p.to_ascii_lowercase();
        let spec = match lower(pieces[0]).as_str() {
            "path" => &mut self.path,
            "line" => &mut self.line,
            "column" => &mut self.column,
            "match" => &mut self.matched,
            other => {
                return Err(SpecError(format!(
                    "invalid --colors spec `{s}`: unknown type `{other}` \
                     (choose from path, line, column, match)"
                )))
            }
        };
        let attribute = lower(pieces[1]);
        if attribute == "none" {
            *spec = Spec::default();
            return Ok(());
        }
        if !matches!(attribute.as_str(), "fg" | "bg" | "style") {
            return Err(SpecError(format!(
                "invalid --colors spec `{s}`: unknown attribute `{attribute}` \
                 (choose from fg, bg, style, none)"
            )));
        }
        let Some(value) = pieces.get(2) else {
            return Err(format());
        };
        let value = lower(value);
        match attribute.as_str() {
            "fg" => spec.fg = Some(color(s, &value)?),
            "bg" => spec.bg = Some(color(s, &value)?),
            _ => match value.as_str() {
                "bold" => spec.bold = true,
                "nobold" => spec.bold = false,
                "intense" => spec.intense = true,
                "nointense" => spec.intense = false,
                "underline" => spec.underline = true,
                "nounderline" => spec.underline = false,
                _ => {
                    return Err(SpecError(format!(
                        "invalid --colors spec `{s}`: unknown style `{value}` (choose from \
                         bold, nobold, intense, nointense, underline, nounderline)"
                    )))
                }
            },
        }
        Ok(())
    }
}

/// A colour value: a name, an 8-bit number, or `r,g,b` (numbers decimal or `0x` hex, as
/// termcolor reads them).
fn color(spec: &str, value: &str) -> Result<Color, SpecError> {
    const NAMES: [&str; 8] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    ];
    if let Some(n) = NAMES.iter().position(|&name| name == value) {
        return Ok(Color::Basic(n as u8));
    }
    let number = |p: &str| match p.strip_prefix("0x") {
        Some(hex) => u8::from_str_radix(hex, 16).ok(),
        None => p.parse::<u8>().ok(),
    };
    let bad = |what: &str| {
        SpecError(format!(
            "invalid --colors spec `{spec}`: `{value}` is not {what} (a colour is black, blue, \
             green, red, cyan, magenta, yellow, white, a number 0-255, or r,g,b)"
        ))
    };
    if value.contains(',') {
        let parts: Vec<Option<u8>> = value.split(',').map(number).collect();
        return match parts[..] {
            [Some(r), Some(g), Some(b)] => Ok(Color::Rgb(r, g, b)),
            _ => Err(bad("an r,g,b colour, each 0-255")),
        };
    }
    if value.starts_with(|c: char| c.is_ascii_digit()) {
        return number(value)
            .map(Color::Ansi256)
            .ok_or_else(|| bad("an 8-bit colour number, 0-255"));
    }
    Err(bad("a colour name"))
}

impl SearchHuman {
    /// `text` in `spec`'s colour when colour is on (see [`Spec::write`]).
    pub(super) fn painted(&self, spec: &Spec, text: &[u8]) -> Vec<u8> {
        if !self.style.on {
            return text.to_vec();
        }
        let mut out = Vec::with_capacity(text.len() + 16);
        spec.write(&mut out, text);
        out
    }

    /// A line number, column or byte offset in its colour (`spec`: line or column; rg
    /// colours byte offsets as columns).
    pub(super) fn number(&self, out: &mut Vec<u8>, spec: &Spec, n: usize) {
        if !self.style.on {
            return write_uint(out, n);
        }
        let mut digits = Vec::with_capacity(20);
        write_uint(&mut digits, n);
        spec.write(out, &digits);
    }

    /// `bytes` in the colour of matches.
    pub(super) fn paint(&self, out: &mut Vec<u8>, bytes: &[u8]) {
        if self.style.on && !self.colors.matched.is_none() {
            self.colors.matched.write(out, bytes);
        } else {
            out.extend_from_slice(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn painted(specs: &[&str], text: &str) -> String {
        let c = Colors::from_specs(specs).unwrap();
        let mut out = Vec::new();
        c.matched.write(&mut out, text.as_bytes());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn defaults_and_overrides() {
        assert_eq!(painted(&[], "x"), "\x1b[0m\x1b[1m\x1b[31mx\x1b[0m");
        assert_eq!(
            painted(&["match:style:nobold", "match:fg:BLUE"], "x"),
            "\x1b[0m\x1b[34mx\x1b[0m"
        );
        assert_eq!(
            painted(&["match:style:intense"], "x"),
            "\x1b[0m\x1b[1m\x1b[38;5;9mx\x1b[0m"
        );
        assert_eq!(
            painted(
                &["match:fg:0x10,255,0", "match:bg:7", "match:style:underline"],
                "x"
            ),
            "\x1b[0m\x1b[1m\x1b[4m\x1b[38;2;16;255;0m\x1b[48;5;7mx\x1b[0m"
        );
        assert!(Colors::from_specs(&["match:none"])
            .unwrap()
            .matched
            .is_none());
        assert!(!Colors::from_specs(&["match:none", "match:style:intense"])
            .unwrap()
            .matched
            .is_none());
        assert!(Colors::from_specs(&["path:none:anything"])
            .unwrap()
            .path
            .is_none());
    }

    #[test]
    fn bad_specs() {
        for bad in [
            "match",
            "match:fg",
            "foo:fg:red",
            "match:xx:red",
            "match:fg:pink",
            "match:fg:256",
            "match:fg:1,2",
            "match:fg:1,2,3,4",
            "match:style:red",
            "match:fg:red:x",
            "match:fg: 1",
            "match:fg:-1",
            "",
        ] {
            assert!(Colors::from_specs(&[bad]).is_err(), "{bad}");
        }
    }
}
