//! The progress of a long run, reported through `acesup.progress` (a tqdm bar,
//! a callback `callback(done, total)`), the module that the reference engine's
//! runs report through too: both engines check the arguments, rate-limit the
//! reports and draw the bar alike. The run's workers never touch Python: the
//! calling thread reports what they have done from the loop in which it waits
//! for them ([`crate::interrupt::until_done`]).

use crate::arguments::Arg;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use std::sync::atomic::{AtomicU64, Ordering};

/// A run's reporter: `acesup.progress.Reporter`, or nothing when neither a bar
/// nor a callback was asked for (then reporting costs nothing).
pub struct Progress(Option<Py<PyAny>>);

impl Progress {
    /// The reporter of a run of `total` items counted in `unit` (`"games"`,
    /// `"deals"`), for the `progress` (False when omitted) and `callback`
    /// arguments; `TypeError` when they are not a bool and None or a callable.
    pub fn new<'py>(
        py: Python<'py>,
        total: impl IntoPyObject<'py>,
        progress: &Arg<'py>,
        callback: Option<&Bound<'py, PyAny>>,
        unit: &str,
    ) -> PyResult<Progress> {
        let progress = match progress {
            Arg::Given(p) => p.clone(),
            Arg::Omitted => PyBool::new(py, false).to_owned().into_any(),
        };
        let made = py
            .import("acesup.progress")?
            .call_method1("reporter", (total, progress, callback, unit))?;
        Ok(Progress((!made.is_none()).then(|| made.unbind())))
    }

    /// Reports `done` items (at most every 0.2 s: the reporter's rate limit);
    /// the callback's exception, which is to stop the run.
    pub fn update(&self, py: Python<'_>, done: u64) -> PyResult<()> {
        match &self.0 {
            Some(reporter) => reporter.call_method1(py, "update", (done,)).map(drop),
            None => Ok(()),
        }
    }

    /// Reports `done` items as counted by `counter`, which the run's threads keep.
    pub fn update_from(&self, py: Python<'_>, counter: &AtomicU64) -> PyResult<()> {
        self.update(py, counter.load(Ordering::Relaxed))
    }

    /// Ends the run's reports: the last one (every item done) when `result` is
    /// Ok, and the bar closed as it stands when it is an error, which is
    /// returned. The callback's exception replaces an Ok.
    pub fn end<T>(&self, py: Python<'_>, result: PyResult<T>) -> PyResult<T> {
        let Some(reporter) = &self.0 else {
            return result;
        };
        match result {
            Ok(value) => reporter.call_method0(py, "finish").map(|_| value),
            Err(error) => {
                reporter.call_method0(py, "close")?;
                Err(error)
            }
        }
    }
}
