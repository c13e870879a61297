//! Python texts that are not valid UTF-8: a `str` may hold lone surrogates
//! (`"\udcff"`, what `surrogateescape` makes of a bad byte), which a Rust `String`
//! cannot. Such a text is never a card, move, rules or strategy text, and the
//! engine must refuse it with the error the reference raises, quoting it as Python
//! does; a text that the binding only keeps (a Stats' strategy name) must come back
//! as it was given. So each lone surrogate U+D800..U+DFFF stands in the engine's
//! text as the character `base + surrogate`, one code point of the private-use
//! planes (neither a space nor printable, as a surrogate is), in a window of 2,048
//! that the text does not use itself: U+10D800..U+10DFFF unless the text holds one
//! of those. [`Text`] keeps the window, to give the Python text back exactly, and
//! [`restore`] turns the engine's quotes of stand-ins (`\U0010dcff`) back into
//! Python's (`\udcff`), leaving the quotes of real characters as they are.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::cell::Cell;
use std::ops::Range;

/// The surrogates' code points.
const SURROGATES: Range<u32> = 0xD800..0xE000;
/// The first private-use code point (plane 15); the windows of stand-ins tile
/// planes 15 and 16, which end at U+10FFFF.
const PRIVATE_USE: u32 = 0xF_0000;
const WINDOWS: u32 = 0x2_0000 / 0x800;
/// The base of the first window tried: U+D800 stands as U+10D800.
const FIRST_BASE: u32 = 0x10_0000;

thread_local! {
    /// The base of the stand-ins in the last text with lone surrogates that this
    /// thread gave the engine, until an error quotes them ([`restore`]) or a text
    /// with real characters of the private-use planes comes (whose quotes must stay).
    static IN_USE: Cell<Option<u32>> = const { Cell::new(None) };
}

/// A Python text as the binding holds it: the engine's text (lone surrogates as
/// stand-ins) and the base of its stand-ins (None when it has none), from which the
/// Python text comes back exactly; distinct Python texts are distinct `Text`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    text: String,
    base: Option<u32>,
}

impl Text {
    /// The `Text` of `s`. `ValueError` for the one text that no window fits: lone
    /// surrogates with characters of all 64 windows of the private-use planes.
    pub fn of(s: &Bound<'_, PyString>) -> PyResult<Text> {
        if let Ok(text) = s.to_cow() {
            if text.chars().any(|c| c as u32 >= PRIVATE_USE) {
                IN_USE.set(None);
            }
            return Ok(Text::from(text.into_owned()));
        }
        let units = s.call_method1("encode", ("utf-32-le", "surrogatepass"))?;
        let bytes: &[u8] = units.extract()?;
        let codes: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|unit| u32::from_le_bytes([unit[0], unit[1], unit[2], unit[3]]))
            .collect();
        let free = |base: &u32| !codes.iter().any(|code| window(*base).contains(code));
        let base = std::iter::once(FIRST_BASE)
            .chain((0..WINDOWS).map(|k| PRIVATE_USE + k * 0x800 - SURROGATES.start))
            .find(free)
            .ok_or_else(|| {
                PyValueError::new_err(
                    "a text with lone surrogates and characters of every 2,048-wide window of the private-use planes cannot be read",
                )
            })?;
        IN_USE.set(Some(base));
        let text = codes
            .iter()
            .map(|&code| {
                let code = if SURROGATES.contains(&code) {
                    base + code
                } else {
                    code
                };
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            })
            .collect();
        Ok(Text {
            text,
            base: Some(base),
        })
    }

    /// The engine's text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The engine's text, owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The Python text, exactly as it was given.
    pub fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let Some(base) = self.base else {
            return Ok(PyString::new(py, &self.text));
        };
        let bytes: Vec<u8> = self
            .text
            .chars()
            .flat_map(|c| {
                let code = c as u32;
                let code = if window(base).contains(&code) {
                    code - base
                } else {
                    code
                };
                code.to_le_bytes()
            })
            .collect();
        Ok(PyBytes::new(py, &bytes)
            .call_method1("decode", ("utf-32-le", "surrogatepass"))?
            .cast_into::<PyString>()?)
    }
}

/// A text of the engine's (valid UTF-8, no stand-ins).
impl From<String> for Text {
    fn from(text: String) -> Text {
        Text { text, base: None }
    }
}

/// The stand-ins of the surrogates from `base` on.
fn window(base: u32) -> Range<u32> {
    base + SURROGATES.start..base + SURROGATES.end
}

/// The text of `s` for the engine: its own text, or with each lone surrogate
/// replaced by its stand-in.
pub fn text_of(s: &Bound<'_, PyString>) -> PyResult<String> {
    Text::of(s).map(Text::into_string)
}

/// `message` with the engine's quotes of the stand-ins of the last text given with
/// lone surrogates on this thread (`\U0010d800`..`\U0010dfff`, as `py_repr` writes
/// them) written as Python writes the surrogates (`\ud800`). Only a real escape is
/// read (a `\U` after an escaped backslash is text).
pub fn restore(message: String) -> String {
    let Some(base) = IN_USE.take() else {
        return message;
    };
    let mut out = String::with_capacity(message.len());
    let mut escaping = false; // the backslash just written starts an escape
    let mut rest = message.as_str();
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        if escaping && c == 'U' {
            let code = rest
                .get(..8)
                .filter(|hex| hex.chars().all(|h| h.is_ascii_hexdigit()))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok());
            if let Some(code) = code.filter(|code| window(base).contains(code)) {
                out.push_str(&format!("u{:04x}", code - base));
                rest = &rest[8..];
                escaping = false;
                continue;
            }
        }
        out.push(c);
        escaping = !escaping && c == '\\';
    }
    out
}
