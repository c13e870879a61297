//! `Rng` and `game_seed`: the generator of docs/RNG.md.

use crate::arguments::{int_arg, seed_arg, value_error, U64_END};
use crate::protocols::{lock, py_methods};
use acesup::Rng;
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::sync::Mutex;

/// SplitMix64 (RNG.md): `Rng(seed)` with an int seed in [0, 2**64). Mutable, so
/// unhashable; `==` compares states.
#[pyclass(frozen, module = "acesup._core", name = "Rng")]
pub struct PyRng(Mutex<Rng>);

impl PyRng {
    /// The same state (one lock at a time: `rng == rng` must not deadlock).
    fn equals(&self, other: &PyRng, _py: Python<'_>) -> bool {
        let theirs = *lock(&other.0);
        *lock(&self.0) == theirs
    }
}

py_methods!(PyRng [mutable, equatable] {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRng(Mutex::new(Rng::new(seed_arg(seed, "seed")?))))
    }

    /// The current state: `Rng(rng.state)` continues exactly where rng is.
    #[getter]
    fn state(&self) -> u64 {
        lock(&self.0).state()
    }

    /// The next 64-bit output.
    fn next_u64(&self) -> u64 {
        lock(&self.0).next_u64()
    }

    /// A uniform int in [0, n); `ValueError` unless 1 <= n < 2**64.
    fn below(&self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        let n = int_arg(n, "n", 1, Some(U64_END), value_error)? as u64;
        Ok(lock(&self.0).below(n))
    }

    /// An independent generator in the same state.
    fn copy(&self) -> Self {
        PyRng(Mutex::new(*lock(&self.0)))
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __repr__(&self) -> String {
        format!("Rng({})", lock(&self.0).state())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, (u64,)) {
        (py.get_type::<PyRng>(), (lock(&self.0).state(),))
    }
});

/// The seed of game `index` of a run with master seed `seed` (RNG.md).
#[pyfunction]
pub fn game_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    let seed = seed_arg(seed, "seed")?;
    let index = seed_arg(index, "index")?;
    Ok(acesup::game_seed(seed, index))
}
