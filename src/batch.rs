//! `BatchEngine`: the engine's [`Batch`] for `acesup.Batch` (python/acesup/batch.py),
//! which checks the arguments as the reference Batch does and turns the bytearrays
//! handed out here into NumPy arrays (`numpy.frombuffer`), writable and the
//! caller's own: a fresh bytearray each time, so one copy of the buffer. A step
//! runs with the GIL released.

use crate::errors::OrPyErr;
use crate::game::PyGame;
use crate::protocols::lock;
use crate::rules::rules_arg;
use crate::stats::PyStats;
use acesup::{Batch, BatchState, Spaces};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::sync::{Mutex, MutexGuard};

/// The native batch engine: n seeded games stepped at once (docs/BATCH.md), its
/// arrays as bytearrays, row after row.
#[pyclass(frozen, module = "acesup._core", name = "BatchEngine")]
pub struct PyBatchEngine(Mutex<Batch>);

impl PyBatchEngine {
    fn batch(&self) -> MutexGuard<'_, Batch> {
        lock(&self.0)
    }
}

/// The bytes of 0/1 flags.
fn flag_bytes(flags: &[bool]) -> Vec<u8> {
    flags.iter().map(|&f| u8::from(f)).collect()
}

/// The bytes of `i8` cells.
fn cell_bytes(cells: &[i8]) -> Vec<u8> {
    cells.iter().map(|&c| c as u8).collect()
}

/// A bytearray of `i8` cells, written in place (one copy of a large array).
fn cells_object<'py>(py: Python<'py>, cells: &[i8]) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, cells.len(), |bytes| {
        for (byte, &cell) in bytes.iter_mut().zip(cells) {
            *byte = cell as u8;
        }
        Ok(())
    })
}

/// The state as Python values: (slots as (index, active, actions), dealt, finished,
/// histogram, scores, terminated, won, final_observation).
type StateTuple = (
    Vec<(u64, bool, Vec<u8>)>,
    u128,
    u128,
    Vec<u64>,
    Option<Vec<u8>>,
    Vec<bool>,
    Vec<bool>,
    Vec<u8>,
);

#[pymethods]
impl PyBatchEngine {
    /// Arguments checked by the caller (acesup.Batch): 1 <= n <= games,
    /// start + games <= 2**64; `ValueError` otherwise.
    #[new]
    #[pyo3(signature = (n, rules, seed, start, games, auto_discard, scores))]
    fn new(
        n: usize,
        rules: Option<&Bound<'_, PyAny>>,
        seed: u64,
        start: u64,
        games: u128,
        auto_discard: bool,
        scores: bool,
    ) -> PyResult<Self> {
        let rules = rules_arg(rules)?;
        let batch = Batch::new(n, rules, seed, start, games, auto_discard, scores).or_py()?;
        Ok(PyBatchEngine(Mutex::new(batch)))
    }

    /// The bytes that a batch under `rules` allocates for each slot
    /// (`Batch::slot_bytes`): what `acesup.resources.check_batch_fits` checks.
    #[staticmethod]
    fn slot_bytes(rules: Option<&Bound<'_, PyAny>>, scores: bool) -> PyResult<usize> {
        let rules = rules_arg(rules)?;
        Ok(Batch::slot_bytes(&Spaces::new(&rules), scores))
    }

    /// Plays one step (`Batch::step`) with `actions`, one byte per slot, and
    /// returns the reward, one byte per slot. Every game unchanged on an error.
    fn step<'py>(&self, py: Python<'py>, actions: &[u8]) -> PyResult<Bound<'py, PyByteArray>> {
        let reward = py.detach(|| {
            let mut batch = self.batch();
            batch.step(actions).map(|()| batch.reward().to_vec())
        });
        Ok(PyByteArray::new(py, &reward.or_py()?))
    }

    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        cells_object(py, self.batch().observation())
    }

    fn final_observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        cells_object(py, &self.batch().final_observation())
    }

    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        PyByteArray::new(py, self.batch().action_mask())
    }

    fn score<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        PyByteArray::new(py, self.batch().score())
    }

    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        PyByteArray::new(py, &flag_bytes(self.batch().terminated()))
    }

    fn won<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        PyByteArray::new(py, &flag_bytes(self.batch().won()))
    }

    /// Each slot's game index, as native-endian u64s.
    fn game_index<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let bytes: Vec<u8> = self
            .batch()
            .game_index()
            .iter()
            .flat_map(|i| i.to_ne_bytes())
            .collect();
        PyByteArray::new(py, &bytes)
    }

    #[getter]
    fn next_index(&self) -> u128 {
        self.batch().next_index()
    }

    #[getter]
    fn finished(&self) -> u128 {
        self.batch().finished()
    }

    /// The Stats of the games that are over (with their scores when kept).
    fn stats(&self, py: Python<'_>) -> PyStats {
        let run = self.batch().stats();
        PyStats::of_run(py, run)
    }

    /// Slot `slot`'s game as a new Game; `IndexError` unless slot < n.
    fn game(&self, py: Python<'_>, slot: usize) -> PyResult<Py<PyGame>> {
        let batch = self.batch();
        if slot >= batch.n() {
            return Err(PyIndexError::new_err(format!(
                "slot must be an int from 0 to {}, got {slot}",
                batch.n() - 1
            )));
        }
        let game = batch.game(slot);
        drop(batch);
        PyGame::new_object(py, game)
    }

    /// What the batch is beyond its construction arguments, for `restore`.
    fn state(&self) -> StateTuple {
        let s = self.batch().state();
        (
            s.slots,
            s.dealt,
            s.finished,
            s.histogram,
            s.scores,
            s.terminated,
            s.won,
            cell_bytes(&s.final_observation),
        )
    }

    /// The batch of these construction arguments in `state` (from `state()`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn restore(
        rules: Option<&Bound<'_, PyAny>>,
        seed: u64,
        start: u64,
        games: u128,
        auto_discard: bool,
        state: StateTuple,
    ) -> PyResult<Self> {
        let rules = rules_arg(rules)?;
        let (slots, dealt, finished, histogram, scores, terminated, won, final_observation) = state;
        let state = BatchState {
            slots,
            dealt,
            finished,
            histogram,
            scores,
            terminated,
            won,
            final_observation: final_observation.iter().map(|&b| b as i8).collect(),
        };
        let batch = Batch::restore(rules, seed, start, games, auto_discard, state).or_py()?;
        Ok(PyBatchEngine(Mutex::new(batch)))
    }
}
