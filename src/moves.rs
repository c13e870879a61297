//! `Move`: moves as values, and pile arguments.

use crate::arguments::{int_arg, int_object, is_reference, str_arg, Arg};
use crate::errors::{py_err, MoveError, OrPyErr};
use crate::protocols::py_methods;
use acesup::{index_too_large, Move, MAX_PILES};
use pyo3::prelude::*;
use pyo3::types::PyType;

/// A move (R2), an immutable value, well-formed but not necessarily legal. Moves
/// compare and sort in R3 order. `Move(text)` is `Move.parse(text)`.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    module = "acesup._core",
    name = "Move",
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyMove(pub Move);

/// A pile argument: an int from 0 to 4, else `MoveError` (`TypeError` for a non-int).
fn pile_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    int_arg(value, name, 0, Some(MAX_PILES as i128), MoveError::new_err)
}

/// The Python `repr` of a move: `Move.discard(2)`, `Move.fill(2, 0, index=3)`, `Move.deal()`.
pub fn move_repr(mv: Move) -> String {
    match mv {
        Move::Discard(p) => format!("Move.discard({p})"),
        Move::Fill { src, dst, index: 0 } => format!("Move.fill({src}, {dst})"),
        Move::Fill { src, dst, index } => format!("Move.fill({src}, {dst}, index={index})"),
        Move::ToReserve(src) => format!("Move.to_reserve({src})"),
        Move::FromReserve(dst) => format!("Move.from_reserve({dst})"),
        Move::Deal => "Move.deal()".to_string(),
    }
}

fn parse_move(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    let text = str_arg(text, |t| format!("a move text must be a str, got {t}"))?;
    Ok(PyMove(Move::parse(&text).or_py()?))
}

/// A move given as a `Move` (of either engine) or its text (`play`, `is_legal`).
pub fn move_arg(value: &Bound<'_, PyAny>, place: &str) -> PyResult<Move> {
    if let Ok(m) = value.cast::<PyMove>() {
        return Ok(m.get().0);
    }
    if is_reference(value, "Move")? {
        return Move::parse(&value.str()?.to_cow()?).or_py();
    }
    let text = str_arg(value, |t| {
        format!("{place} takes a Move or a move text, got {t}")
    })?;
    Move::parse(&text).or_py()
}

py_methods!(PyMove [value] {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_move(text)
    }

    /// Discard the top card of `pile` (R2.1).
    #[classmethod]
    fn discard(_cls: &Bound<'_, PyType>, pile: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMove(Move::discard(pile_arg(pile, "pile")? as u8).or_py()?))
    }

    /// Move the card at `index` of pile src (from the top) onto the empty pile dst (R2.2).
    #[classmethod]
    #[pyo3(signature = (src, dst, index = Arg::Omitted), text_signature = "($cls, src, dst, index=0)")]
    fn fill(
        _cls: &Bound<'_, PyType>,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        index: Arg<'_>,
    ) -> PyResult<Self> {
        let (src, dst) = (pile_arg(src, "src")?, pile_arg(dst, "dst")?);
        let index = match index {
            Arg::Omitted => 0,
            Arg::Given(i) => {
                let i = int_object(&i, "index", 0, None, MoveError::new_err)?;
                // Moves hold 64-bit indices: a larger one is refused (no position has
                // a card there anyway).
                i.extract::<u64>()
                    .map_err(|_| py_err(index_too_large(&i)))?
            }
        };
        Ok(PyMove(Move::fill(src as u8, dst as u8, index).or_py()?))
    }

    /// Move the top card of pile `src` to the empty reserve (R2.4).
    #[classmethod]
    fn to_reserve(_cls: &Bound<'_, PyType>, src: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMove(Move::to_reserve(pile_arg(src, "src")? as u8).or_py()?))
    }

    /// Move the reserve's card to the empty pile `dst` (R2.4).
    #[classmethod]
    fn from_reserve(_cls: &Bound<'_, PyType>, dst: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMove(Move::from_reserve(pile_arg(dst, "dst")? as u8).or_py()?))
    }

    /// Deal from the stock: a card on each pile, or on each empty one (R2.3).
    #[classmethod]
    fn deal(_cls: &Bound<'_, PyType>) -> Self {
        PyMove(Move::Deal)
    }

    /// A move from R6.3 text.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_move(text)
    }

    /// "discard", "fill", "to_reserve", "from_reserve" or "deal".
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind()
    }

    #[getter]
    fn pile(&self) -> Option<u8> {
        match self.0 {
            Move::Discard(p) => Some(p),
            _ => None,
        }
    }

    #[getter]
    fn src(&self) -> Option<u8> {
        match self.0 {
            Move::Fill { src, .. } | Move::ToReserve(src) => Some(src),
            _ => None,
        }
    }

    #[getter]
    fn dst(&self) -> Option<u8> {
        match self.0 {
            Move::Fill { dst, .. } | Move::FromReserve(dst) => Some(dst),
            _ => None,
        }
    }

    #[getter]
    fn index(&self) -> Option<u64> {
        match self.0 {
            Move::Fill { index, .. } => Some(index),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        move_repr(self.0)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyMove>(), (self.0.to_string(),)))
    }
});
