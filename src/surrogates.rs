//! Python texts that are not valid UTF-8: a `str` may hold lone surrogates
//! (`"\udcff"`, what `surrogateescape` makes of a bad byte), which a Rust `String`
//! cannot. Such a text is never a card, move, rules or strategy text, and the
//! engine must refuse it with the error the reference raises, quoting it as Python
//! does. So each lone surrogate U+D800..U+DFFF stands in the engine's text as the
//! private-use character `STAND_IN + surrogate` (U+10D800..U+10DFFF: one code
//! point, neither a space nor printable, as a surrogate is), and `restore` turns
//! the engine's quotes of those characters (`\U0010dcff`) back into Python's
//! (`\udcff`).

use pyo3::prelude::*;
use pyo3::types::PyString;

/// Where the stand-ins of the surrogates start: U+D800 stands as U+10D800.
const STAND_IN: u32 = 0x10_0000;

/// The text of `s` for the engine: its own text, or with each lone surrogate
/// replaced by its stand-in.
pub fn text_of(s: &Bound<'_, PyString>) -> PyResult<String> {
    if let Ok(text) = s.to_cow() {
        return Ok(text.into_owned());
    }
    let units = s.call_method1("encode", ("utf-32-le", "surrogatepass"))?;
    let bytes: &[u8] = units.extract()?;
    Ok(bytes
        .chunks_exact(4)
        .map(|unit| {
            let code = u32::from_le_bytes([unit[0], unit[1], unit[2], unit[3]]);
            let code = if (0xD800..0xE000).contains(&code) {
                STAND_IN + code
            } else {
                code
            };
            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
        })
        .collect())
}

/// `message` with the engine's quotes of stand-ins (`\U0010d800`..`\U0010dfff`,
/// as `py_repr` writes them) written as Python writes the surrogates (`\ud800`).
pub fn restore(message: String) -> String {
    const QUOTE: &str = "\\U0010d";
    if !message.contains(QUOTE) {
        return message;
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(at) = rest.find(QUOTE) {
        let digits = rest.get(at + QUOTE.len()..at + QUOTE.len() + 3);
        out.push_str(&rest[..at]);
        match digits {
            Some(d)
                if d.starts_with(|c: char| "89abcdef".contains(c))
                    && d.chars().all(|c| c.is_ascii_hexdigit()) =>
            {
                out.push_str("\\ud");
                out.push_str(d);
                rest = &rest[at + QUOTE.len() + 3..];
            }
            _ => {
                out.push_str(QUOTE);
                rest = &rest[at + QUOTE.len()..];
            }
        }
    }
    out.push_str(rest);
    out
}
