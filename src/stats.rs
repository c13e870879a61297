//! `Stats`: score histograms with their figures, and per-game scores kept as
//! `bytes` for NumPy to view.

use crate::arguments::{int_object, repr, seed_arg, text_arg, type_name, value_error};
use crate::errors::OrPyErr;
use crate::protocols::{display, py_methods};
use crate::surrogates::Text;
use acesup::{Stats, MAX_SCORES};
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
    origin: Origin,
}

/// What produced the games, when `simulate` did (`None` otherwise): the strategy's
/// text or callable's name, the rules' R6.4 text, the master seed. Not part of `==`.
#[derive(Clone, Default, PartialEq)]
pub struct Origin {
    pub strategy: Option<Text>,
    pub rules: Option<Text>,
    pub seed: Option<u64>,
}

impl Origin {
    /// The origin of a sum: each field kept when the Stats that have games agree
    /// on it (a Stats of no games takes no part, so `Stats.empty()` stays
    /// neutral), `None` when they differ.
    fn merged(a: &PyStats, b: &PyStats) -> Origin {
        let parts: Vec<&Origin> = match (a.stats.games() > 0, b.stats.games() > 0) {
            (true, false) => vec![&a.origin],
            (false, true) => vec![&b.origin],
            _ => vec![&a.origin, &b.origin],
        };
        fn agreed<T: Clone + PartialEq>(values: impl Iterator<Item = Option<T>>) -> Option<T> {
            let values: Vec<Option<T>> = values.collect();
            values
                .windows(2)
                .all(|w| w[0] == w[1])
                .then(|| values[0].clone())
                .flatten()
        }
        Origin {
            strategy: agreed(parts.iter().map(|o| o.strategy.clone())),
            rules: agreed(parts.iter().map(|o| o.rules.clone())),
            seed: agreed(parts.iter().map(|o| o.seed)),
        }
    }
}

/// How `simulate` names its strategy argument in the Stats (`None`: left out):
/// its text, or a callable's `__qualname__` (its repr when it has none), as
/// `compare` names strategies.
pub fn strategy_name(strategy: Option<&Bound<'_, PyAny>>) -> PyResult<Text> {
    let Some(strategy) = strategy else {
        return Ok(Text::from("random".to_string()));
    };
    if let Ok(text) = strategy.cast::<PyString>() {
        return Text::of(text);
    }
    match strategy.getattr_opt("__qualname__")? {
        Some(name) if name.is_truthy()? => Text::of(&name.str()?),
        _ => repr(strategy).map(Text::from),
    }
}

impl PyStats {
    pub fn new_value(stats: Stats) -> Self {
        PyStats {
            stats,
            scores: None,
            origin: Origin::default(),
        }
    }

    /// The same Stats, saying what produced them.
    pub fn made_by(self, origin: Origin) -> Self {
        PyStats { origin, ..self }
    }

    /// With per-game scores, known to agree with `stats`.
    pub fn with_scores(py: Python<'_>, stats: Stats, scores: &[u8]) -> Self {
        PyStats {
            stats,
            scores: Some(PyBytes::new(py, scores).unbind()),
            origin: Origin::default(),
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

/// The first field of the Python `repr` of statistics: `histogram=(...)`.
/// The most scores a `repr` of Stats writes out; more are shown as their count
/// (the reference engine's `REPR_SCORES`).
const REPR_SCORES: usize = 64;

fn stats_repr(stats: &Stats) -> String {
    let counts: Vec<String> = stats.histogram().iter().map(u64::to_string).collect();
    format!("histogram=({})", counts.join(", "))
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
    #[pyo3(signature = (histogram, scores = None, strategy = None, rules = None, seed = None))]
    fn new(
        histogram: &Bound<'_, PyAny>,
        scores: Option<&Bound<'_, PyAny>>,
        strategy: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
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
        let mut items = histogram.try_iter()?;
        // No more than the longest histogram and one past it is read, so that an
        // endless iterator is refused rather than read for ever.
        for (score, count) in items.by_ref().take(MAX_SCORES).enumerate() {
            let name = format!("histogram[{score}]");
            // Counts are 64-bit in both engines (docs/API.md).
            let count: u64 = int_object(&count?, &name, 0, Some(1 << 64), value_error)?.extract()?;
            counts.push(count);
        }
        if items.next().transpose()?.is_some() {
            return Err(PyValueError::new_err(format!(
                "histogram must hold at most {MAX_SCORES} counts (win_score + 1), got more"
            )));
        }
        let stats = Stats::from_histogram(&counts).or_py()?;
        let made = match scores {
            Some(s) if !s.is_none() => {
                let scores = scores_arg(s)?;
                stats.check_scores(&scores).or_py()?;
                PyStats::with_scores(py, stats, &scores)
            }
            _ => PyStats::new_value(stats),
        };
        let text = |value: Option<&Bound<'_, PyAny>>, name: &str| -> PyResult<Option<Text>> {
            value
                .filter(|v| !v.is_none())
                .map(|v| text_arg(v, |t| format!("{name} must be a str or None, got {t}")))
                .transpose()
        };
        Ok(made.made_by(Origin {
            strategy: text(strategy, "strategy")?,
            rules: text(rules, "rules")?,
            seed: seed
                .filter(|s| !s.is_none())
                .map(|s| seed_arg(s, "seed"))
                .transpose()?,
        }))
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
        let sum = acesup::concat([
            (&self.stats, self.score_bytes(py)),
            (&other.stats, other.score_bytes(py)),
        ])
        .or_py()?;
        let sum = PyStats::of_run(py, sum).made_by(Origin::merged(self, other));
        Ok(Py::new(py, sum)?.into_any())
    }

    /// `hash((histogram, scores bytes or None))`, the reference's: Stats equal
    /// across the engines hash alike.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        (self.histogram(py)?, self.scores.as_ref().map(|b| b.bind(py)))
            .into_pyobject(py)?
            .hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut fields = vec![stats_repr(&self.stats)];
        if let Some(bytes) = &self.scores {
            let bytes = bytes.bind(py);
            // A run's scores may be billions of bytes: a repr names how many.
            let shown = match bytes.len()? {
                n if n > REPR_SCORES => format!("<{n} bytes>"),
                _ => repr(bytes)?,
            };
            fields.push(format!("scores={shown}"));
        }
        for (name, text) in [("strategy", &self.origin.strategy), ("rules", &self.origin.rules)] {
            if let Some(text) = text {
                fields.push(format!("{name}={}", repr(text.to_py(py)?.as_any())?));
            }
        }
        if let Some(seed) = self.origin.seed {
            fields.push(format!("seed={seed}"));
        }
        Ok(format!("Stats({})", fields.join(", ")))
    }

    /// The strategy's text or callable's name, when `simulate` made these Stats.
    #[getter]
    fn strategy<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.origin.strategy.as_ref().map(|t| t.to_py(py)).transpose()
    }

    /// The rules' R6.4 text, when `simulate` made these Stats.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.origin.rules.as_ref().map(|t| t.to_py(py)).transpose()
    }

    /// The master seed, when `simulate` made these Stats.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.origin.seed
    }

    fn __str__(&self) -> String {
        self.stats.to_string()
    }

    /// A small table of the figures, for notebooks (`acesup.display.stats_html`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "stats_html")
    }

    /// The JSON text of these Stats (docs/API.md, "JSON"), written by
    /// `acesup.jsontext` for both engines, so that the text is the same in each.
    fn to_json(slf: &Bound<'_, Self>) -> PyResult<String> {
        let json = slf.py().import("acesup.jsontext")?;
        let document = json.call_method1("stats_document", (slf,))?;
        json.call_method1("dumps", (document,))?.extract()
    }

    /// The Stats that `to_json` wrote as `text` (in either engine), read by
    /// `acesup.jsontext`: `ValueError` naming the problem, `TypeError` for a
    /// `text` that is not a str.
    #[classmethod]
    fn from_json<'py>(cls: &Bound<'py, PyType>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let json = cls.py().import("acesup.jsontext")?;
        let format = json.getattr("STATS_FORMAT")?;
        let document = json.call_method1("loads", (text, format))?;
        json.call_method1("stats_from_document", (cls, document))
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyType>,
        (Bound<'py, PyTuple>, Option<Bound<'py, PyBytes>>, Option<Bound<'py, PyString>>, Option<Bound<'py, PyString>>, Option<u64>),
    )> {
        let scores = self.scores.as_ref().map(|b| b.bind(py).clone());
        let (strategy, rules) = (self.strategy(py)?, self.rules(py)?);
        Ok((py.get_type::<PyStats>(), (self.histogram(py)?, scores, strategy, rules, self.origin.seed)))
    }
});
