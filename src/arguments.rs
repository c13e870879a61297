//! Python arguments as engine values, checked as the reference engine checks them:
//! ints (anything with `__index__`, never a bool), seeds, counts, thread counts,
//! game ranges and texts, with `TypeError` or the named exception worded as the
//! reference words it. The arguments that are values of this module's classes
//! (`rules_arg`, `move_arg`) sit beside their classes, so that no module of the
//! crate imports another in a circle.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::surrogates::text_of;

/// `type(value).__name__`.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// `repr(value)`.
pub fn repr(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.repr()?.to_string())
}

/// 2**64: the end of the seeds' range.
pub const U64_END: i128 = 1 << 64;

/// What an int argument must be, as the reference words it.
pub fn requirement(low: i128, high: Option<i128>) -> String {
    match (low, high) {
        (0, None) => "a non-negative int".to_string(),
        (1, None) => "a positive int".to_string(),
        (low, None) => format!("an int >= {low}"),
        (low, Some(U64_END)) => format!("an int in [{low}, 2**64)"),
        (low, Some(high)) => format!("an int from {low} to {}", high - 1),
    }
}

/// The Python exception for an out-of-range int argument.
pub type RangeError = fn(String) -> PyErr;

pub fn value_error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// `value` as a Python int with `low <= value < high` (no upper bound for `None`),
/// as the reference's `int_arg`: anything with `__index__` counts, a bool never
/// does. `TypeError` for a non-int, `error` when out of range, both worded
/// `<name> must be <requirement>, got <type or value>`.
pub fn int_object<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    low: i128,
    high: Option<i128>,
    error: RangeError,
) -> PyResult<Bound<'py, PyAny>> {
    let type_error = || {
        PyTypeError::new_err(format!(
            "{name} must be {}, got {}",
            requirement(low, high),
            type_name(value)
        ))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    let int = if value.is_exact_instance_of::<PyInt>() {
        value.clone()
    } else if value.get_type().hasattr("__index__")? {
        static INDEX: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        INDEX
            .import(value.py(), "operator", "index")?
            .call1((value,))?
    } else {
        return Err(type_error());
    };
    if int.lt(low)? || high.map_or(Ok(false), |h| int.ge(h))? {
        return Err(error(format!(
            "{name} must be {}, got {}",
            requirement(low, high),
            int.str()?
        )));
    }
    Ok(int)
}

/// [`int_object`] as an `i128`; with no upper bound, a larger int is `i128::MAX`.
pub fn int_arg(
    value: &Bound<'_, PyAny>,
    name: &str,
    low: i128,
    high: Option<i128>,
    error: RangeError,
) -> PyResult<i128> {
    Ok(int_object(value, name, low, high, error)?
        .extract::<i128>()
        .unwrap_or(i128::MAX))
}

/// An argument that may be left out: unlike with `Option`, an explicit None is a
/// value given (and refused where the reference refuses it).
pub enum Arg<'py> {
    Omitted,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

impl<'py> Arg<'py> {
    /// The value given, or `default()` when left out.
    pub fn or<T>(
        &self,
        default: T,
        convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> PyResult<T> {
        match self {
            Arg::Omitted => Ok(default),
            Arg::Given(value) => convert(value),
        }
    }
}

/// A seed: an int in [0, 2**64).
pub fn seed_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    Ok(int_arg(value, name, 0, Some(U64_END), value_error)? as u64)
}

/// A `str` argument (lone surrogates as `surrogates::text_of` writes them), or `TypeError` worded by `message(type name)`.
pub fn str_arg(
    value: &Bound<'_, PyAny>,
    message: impl FnOnce(String) -> String,
) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(s) => text_of(s),
        Err(_) => Err(PyTypeError::new_err(message(type_name(value)))),
    }
}

/// A count that the native engine keeps in 64 bits: a non-negative int, below 2**64.
pub fn count_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let count = int_object(value, name, 0, None, value_error)?;
    count.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be below 2**64 in the native engine, got {count}"
        ))
    })
}

/// `threads`: None (all cores) or a positive int, capped at the engine's most.
pub fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match threads {
        Some(t) if !t.is_none() => {
            let t = int_arg(t, "threads", 1, None, value_error)?;
            Ok(Some(t.min(acesup::MAX_THREADS as i128) as usize))
        }
        _ => Ok(None),
    }
}

/// `start` of a batch run: a non-negative int, 0 when left out.
pub fn start_arg<'py>(py: Python<'py>, start: Arg<'py>) -> PyResult<Bound<'py, PyAny>> {
    start.or(PyInt::new(py, 0).into_any(), |s| {
        int_object(s, "start", 0, None, value_error)
    })
}

/// The game indices of a batch run of `games` games from `start` (both checked
/// ints), as (start, games): `ValueError` unless start + games <= 2**64 (game
/// indices are 64-bit). No games from start 2**64 is an empty run.
pub fn index_range(games: &Bound<'_, PyAny>, start: &Bound<'_, PyAny>) -> PyResult<(u64, u128)> {
    let end = start.add(games)?;
    if end.gt(U64_END)? {
        return Err(PyValueError::new_err(format!(
            "start + games must be at most 2**64 (game indices are 64-bit), got {end}"
        )));
    }
    // start is below 2**64 unless it is 2**64 with no games: any start will do then.
    Ok((start.extract().unwrap_or(u64::MAX), games.extract()?))
}

/// Whether `value` is the reference engine's `name` (`Move`, `Rules`, `Card`,
/// `Game`, `Stats`): a class of that name from `acesup.reference`. Its values are
/// taken by their text; a reference Game is refused by name.
pub fn is_reference(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    let kind = value.get_type();
    if kind.name()?.to_cow()? != name {
        return Ok(false);
    }
    let module = kind.module()?;
    Ok(module.to_cow()?.starts_with("acesup.reference"))
}

/// The `TypeError` for a reference-engine Game given where this engine's Game is
/// wanted, or `None` for any other value.
pub fn reference_game_error(value: &Bound<'_, PyAny>, place: &str) -> PyResult<Option<PyErr>> {
    Ok(is_reference(value, "Game")?.then(|| {
        PyTypeError::new_err(format!(
            "{place}: a reference-engine Game was given to the native engine \
             (make the game with acesup.Game, or use acesup.reference.{place})"
        ))
    }))
}
