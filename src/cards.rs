//! `Card`: cards as the shared Card objects, and card arguments.

use crate::arguments::{int_arg, str_arg};
use crate::errors::{CardError, OrPyErr};
use crate::protocols::py_methods;
use acesup::{Card, DECK_SIZE};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList, PyString, PyTuple, PyType};

/// A playing card (RULES.md R1.1), an immutable value. `Card(text)` parses R6.1
/// text; `CardError` for anything else, `TypeError` for a non-string.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    module = "acesup._core",
    name = "Card",
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

/// The 52 Card objects, made once and shared: the engine's cards become these.
pub fn card_objects(py: Python<'_>) -> PyResult<&[Py<PyCard>]> {
    static CARDS: PyOnceLock<Vec<Py<PyCard>>> = PyOnceLock::new();
    let cards = CARDS.get_or_try_init(py, || {
        Card::all()
            .map(|c| Py::new(py, PyCard(c)))
            .collect::<PyResult<_>>()
    })?;
    Ok(cards)
}

/// Cards as a tuple of the shared Card objects.
pub fn card_tuple<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyTuple>> {
    let objects = card_objects(py)?;
    PyTuple::new(py, cards.iter().map(|c| &objects[c.index()]))
}

/// Cards as a list of the shared Card objects (the decks that functions return).
pub fn card_list<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyList>> {
    let objects = card_objects(py)?;
    PyList::new(py, cards.iter().map(|c| &objects[c.index()]))
}

fn parse_card(text: &Bound<'_, PyAny>) -> PyResult<Card> {
    let is_int = text.is_instance_of::<PyInt>();
    let text = str_arg(text, |t| {
        let hint = if is_int {
            " (use Card.from_index for an index)"
        } else {
            ""
        };
        format!("Card() takes a card text such as 'Td', got {t}{hint}")
    })?;
    Card::parse(&text).or_py()
}

py_methods!(PyCard [value] {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard(parse_card(text)?))
    }

    /// The same as `Card(text)`.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard(parse_card(text)?))
    }

    /// The card with this index (R1.1); `CardError` unless 0 <= index <= 51.
    #[classmethod]
    fn from_index(_cls: &Bound<'_, PyType>, index: &Bound<'_, PyAny>) -> PyResult<Self> {
        let i = int_arg(index, "a card index", 0, Some(DECK_SIZE as i128), CardError::new_err)?;
        Ok(PyCard(Card::from_index(i as usize).or_py()?))
    }

    /// The rank number, 2..14 (A = 14).
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }

    /// One of "cdhs".
    #[getter]
    fn suit(&self) -> char {
        self.0.suit_char()
    }

    /// 0..51: 13 * suit number + (rank - 2).
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    /// `format(card, "u")` is `T♦`; any other spec, lone surrogates included,
    /// formats the canonical text as a str does.
    fn __format__<'py>(
        &self,
        py: Python<'py>,
        spec: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if spec.to_cow().is_ok_and(|spec| spec == "u") {
            return Ok(PyString::new(py, &self.0.unicode()).into_any());
        }
        PyString::new(py, &self.0.to_string()).call_method1("__format__", (spec,))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyCard>(), (self.0.to_string(),)))
    }
});
