//! The shared exceptions of `acesup.errors`, and the one translation of an engine
//! error into them.

use acesup::{Error, ErrorKind};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::PyErr;

pyo3::import_exception!(acesup.errors, CardError);
pyo3::import_exception!(acesup.errors, DeckError);
pyo3::import_exception!(acesup.errors, PositionError);
pyo3::import_exception!(acesup.errors, RulesError);
pyo3::import_exception!(acesup.errors, MoveError);
pyo3::import_exception!(acesup.errors, IllegalMoveError);
pyo3::import_exception!(acesup.errors, UndoError);
pyo3::import_exception!(acesup.errors, StrategyError);

/// The Python exception of an engine error.
pub fn py_err(e: Error) -> PyErr {
    let message = crate::surrogates::restore(e.message);
    match e.kind {
        ErrorKind::Card => CardError::new_err(message),
        ErrorKind::Deck => DeckError::new_err(message),
        ErrorKind::Position => PositionError::new_err(message),
        ErrorKind::Rules => RulesError::new_err(message),
        ErrorKind::Move => MoveError::new_err(message),
        ErrorKind::IllegalMove => IllegalMoveError::new_err(message),
        ErrorKind::Undo => UndoError::new_err(message),
        ErrorKind::Strategy => StrategyError::new_err(message),
        ErrorKind::Value => PyValueError::new_err(message),
        ErrorKind::Memory => PyMemoryError::new_err(message),
    }
}

/// `.or_py()`: an engine result as a Python one.
pub trait OrPyErr<T> {
    fn or_py(self) -> pyo3::PyResult<T>;
}

impl<T> OrPyErr<T> for acesup::Result<T> {
    fn or_py(self) -> pyo3::PyResult<T> {
        self.map_err(py_err)
    }
}
