//! `Stats`: score histograms with their figures, and per-game scores kept as
//! `bytes` for NumPy to view.

use crate::arguments::{int_object, repr, type_name, value_error};
use crate::errors::OrPyErr;
use crate::protocols::{display, py_methods};
use acesup::stats::{self, Stats, MAX_SCORES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple, PyType};

/// How many games ended with each score 0..=win_score, with the figures derived from it,
/// and optionally every game's score, kept as a `bytes` object so that `scores`
/// can view it without a copy.
#[pyclass(frozen, module = "acesup._core", name = "Stats")]
pub struct PyStats {
    stats: Stats,
    scores: Option<Py<PyBytes>>,
}

impl PyStats {
    pub fn new_value(stats: Stats) -> Self {
        PyStats {
            stats,
            scores: None,
        }
    }

    /// With per-game scores, known to agree with `stats`.
    pub fn with_scores(py: Python<'_>, stats: Stats, scores: &[u8]) -> Self {
        PyStats {
            stats,
            scores: Some(PyBytes::new(py, scores).unbind()),
        }
    }

    /// The statistics of a run, with its scores when it kept them.
    pub fn of_run(py: Python<'_>, (stats, scores): (Stats, Option<Vec<u8>>)) -> Self {
        match scores {
            None => PyStats::new_value(stats),
            Some(scores) => PyStats::with_scores(py, stats, &scores),
        }
    }

    fn score_bytes<'a>(&'a self, py: Python<'a>) -> Option<&'a [u8]> {
        self.scores.as_ref().map(|b| b.as_bytes(py))
    }

    /// The same games with the same recorded scores.
    fn equals(&self, other: &PyStats, py: Python<'_>) -> bool {
        self.stats == other.stats && self.score_bytes(py) == other.score_bytes(py)
    }
}

/// The Python `repr` of statistics: `Stats(histogram=(...))`.
/// The most scores a `repr` of Stats writes out; more are shown as their count
/// (the reference engine's `REPR_SCORES`).
const REPR_SCORES: usize = 64;

fn stats_repr(stats: &Stats) -> String {
    let counts: Vec<String> = stats.histogram().iter().map(u64::to_string).collect();
    format!("Stats(histogram=({}))", counts.join(", "))
}

/// The bytes of a `scores` argument: any flat buffer of unsigned bytes.
fn scores_arg(scores: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = scores.py();
    static MEMORYVIEW: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let memoryview = MEMORYVIEW.import(py, "builtins", "memoryview")?;
    let view = memoryview.call1((scores,)).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(py) {
            PyTypeError::new_err(format!(
                "scores must be bytes (or a flat buffer of unsigned bytes) or None, got {}",
                type_name(scores)
            ))
        } else {
            e
        }
    })?;
    let format: String = view.getattr("format")?.extract()?;
    let ndim: usize = view.getattr("ndim")?.extract()?;
    if format != "B" || ndim != 1 {
        return Err(PyTypeError::new_err(format!(
            "scores must be a flat buffer of unsigned bytes, got format {} with {ndim} dimensions",
            repr(&PyString::new(py, &format))?
        )));
    }
    view.call_method0("tobytes")?.extract()
}

py_methods!(PyStats [value, summable, equatable] {
    #[new]
    #[pyo3(signature = (histogram, scores = None))]
    fn new(histogram: &Bound<'_, PyAny>, scores: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let py = histogram.py();
        static ITERABLE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let iterable = ITERABLE.import(py, "collections.abc", "Iterable")?;
        if histogram.is_instance_of::<PyString>()
            || histogram.is_instance_of::<PyBytes>()
            || !histogram.is_instance(iterable)?
        {
            return Err(PyTypeError::new_err(format!(
                "histogram must be a sequence of {MAX_SCORES} ints, got {}",
                type_name(histogram)
            )));
        }
        let mut counts = Vec::new();
        for (score, count) in histogram.try_iter()?.enumerate() {
            let name = format!("histogram[{score}]");
            let count = int_object(&count?, &name, 0, None, value_error)?;
            // This engine counts in 64 bits (the reference has no bound).
            let count = count.extract::<u64>().map_err(|_| {
                PyValueError::new_err(format!(
                    "{name} must be below 2**64 in the native engine, got {count}"
                ))
            })?;
            counts.push(count);
        }
        let stats = Stats::from_histogram(&counts).or_py()?;
        match scores {
            Some(s) if !s.is_none() => {
                let scores = scores_arg(s)?;
                stats.check_scores(&scores).or_py()?;
                Ok(PyStats::with_scores(py, stats, &scores))
            }
            _ => Ok(PyStats::new_value(stats)),
        }
    }

    /// No games: the neutral element of `+`.
    #[classmethod]
    fn empty(_cls: &Bound<'_, PyType>) -> Self {
        PyStats::new_value(Stats::default())
    }

    #[getter]
    fn histogram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.stats.histogram())
    }

    /// Every game's score in game-index order, as a read-only NumPy uint8 array
    /// viewing the stored bytes, or None when they were not recorded.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(bytes) = &self.scores else {
            return Ok(None);
        };
        static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "uint8")?;
        Ok(Some(frombuffer.call((bytes,), Some(&kwargs))?))
    }

    #[getter]
    fn games(&self) -> u128 {
        self.stats.games()
    }

    /// Games won: those that ended with the win score (the histogram's last count).
    #[getter]
    fn wins(&self) -> u64 {
        self.stats.wins()
    }

    #[getter]
    fn losses(&self) -> u128 {
        self.stats.losses()
    }

    /// nan when there are no games.
    #[getter]
    fn win_rate(&self) -> f64 {
        self.stats.win_rate()
    }

    /// The Wilson 95% interval on the win rate; (0.0, 1.0) when there are no games.
    #[getter]
    fn ci95(&self) -> (f64, f64) {
        self.stats.ci95()
    }

    /// nan when there are no games.
    #[getter]
    fn mean_score(&self) -> f64 {
        self.stats.mean_score()
    }

    /// The games of both, one after the other: scores are kept when both have
    /// them, a Stats of no games counting as an empty record.
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PyStats>() else {
            return Ok(py.NotImplemented());
        };
        let other = other.get();
        let sum = stats::concat([
            (&self.stats, self.score_bytes(py)),
            (&other.stats, other.score_bytes(py)),
        ])
        .or_py()?;
        let sum = PyStats::of_run(py, sum);
        Ok(Py::new(py, sum)?.into_any())
    }

    fn __hash__(&self, py: Python<'_>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.stats, self.score_bytes(py)).hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let histogram = stats_repr(&self.stats);
        Ok(match &self.scores {
            None => histogram,
            Some(bytes) => {
                let bytes = bytes.bind(py);
                // A run's scores may be billions of bytes: a repr names how many.
                let shown = match bytes.len()? {
                    n if n > REPR_SCORES => format!("<{n} bytes>"),
                    _ => repr(bytes)?,
                };
                format!("{}, scores={shown})", &histogram[..histogram.len() - 1])
            }
        })
    }

    fn __str__(&self) -> String {
        self.stats.to_string()
    }

    /// A small table of the figures, for notebooks (`acesup.display.stats_html`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "stats_html")
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyType>,
        (Bound<'py, PyTuple>, Option<Bound<'py, PyBytes>>),
    )> {
        let scores = self.scores.as_ref().map(|b| b.bind(py).clone());
        Ok((py.get_type::<PyStats>(), (self.histogram(py)?, scores)))
    }
});
