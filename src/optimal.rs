//! `optimal`, the exact optimum without clairvoyance, and the table of the
//! `"optimal"` strategy: long computations run detached, with Ctrl-C and a
//! progress callback served from the calling thread.

use crate::arguments::{threads_arg, type_name};
use crate::errors::OrPyErr;
use crate::rules::rules_arg;
use acesup::optimal::{self as engine, Progress};
use acesup::run::Pool;
use acesup::{Builtin, Rules};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError};
use pyo3::prelude::*;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the progress callback is called while a computation runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// A progress argument: None or a callable `progress(done, total, states)`.
fn progress_arg<'py>(progress: Option<&Bound<'py, PyAny>>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match progress {
        Some(p) if !p.is_none() => {
            if !p.is_callable() {
                return Err(PyTypeError::new_err(format!(
                    "progress must be None or a callable progress(done, total, states), got {}",
                    type_name(p)
                )));
            }
            Ok(Some(p.clone()))
        }
        _ => Ok(None),
    }
}

/// Run `work` with the GIL released on a thread of its own, while this thread
/// checks for Ctrl-C every 5 ms (raising `progress.cancel` on a signal, then the
/// exception once `work` has stopped) and calls `callback` every
/// [`PROGRESS_EVERY`] and at the end. `work` returns `None` when cancelled.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    progress: &Progress,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let callback: Option<Py<PyAny>> = callback.map(|f| f.clone().unbind());
    let report = |py: Python<'_>| -> PyResult<()> {
        match &callback {
            Some(f) => f
                .call1(
                    py,
                    (
                        progress.done.load(Ordering::Relaxed),
                        progress.total.load(Ordering::Relaxed),
                        progress.states.load(Ordering::Relaxed),
                    ),
                )
                .map(drop),
            None => Ok(()),
        }
    };
    let (result, problem) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel::<()>();
            let worker = scope.spawn(move || {
                let result = work();
                let _ = done.send(());
                result
            });
            let mut problem: PyResult<()> = Ok(());
            let mut last = Instant::now();
            while let Err(RecvTimeoutError::Timeout) =
                finished.recv_timeout(Duration::from_millis(5))
            {
                if problem.is_ok() {
                    problem = Python::attach(|py| {
                        py.check_signals()?;
                        if last.elapsed() >= PROGRESS_EVERY {
                            last = Instant::now();
                            report(py)?;
                        }
                        Ok(())
                    });
                    if problem.is_err() {
                        progress.cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
            (worker.join(), problem)
        })
    });
    problem?;
    let result =
        result.map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the computation failed"))?;
    report(py)?;
    Ok(result)
}

/// The exact probability, a `fractions.Fraction`, that a perfect player who never
/// sees the stock wins a uniformly random deal of `rules` (docs/OPTIMAL.md), on
/// all cores (`threads=None`) or `threads` threads, with the GIL released; Ctrl-C
/// stops it, and `progress(done, total, states)` is called as it runs.
/// `MemoryError` once it would keep more than `max_states` positions (None: as
/// many as the memory available holds, `acesup.resources.default_max_states`).
#[pyfunction]
#[pyo3(signature = (rules, *, threads = None, progress = None, max_states = None))]
pub fn optimal<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    max_states: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules_arg(Some(rules))?;
    let threads = threads_arg(threads)?;
    let callback = progress_arg(progress)?;
    let max_states = py
        .import("acesup.resources")?
        .getattr("max_states_arg")?
        .call1((max_states, engine::STATE_BYTES))?
        .extract()?;
    if rules.deck_size() > engine::MAX_DECK {
        return Err(engine::out_of_reach(&rules, engine::MAX_DECK)).or_py();
    }
    let pool = Pool::new(threads).or_py()?;
    let state = Progress {
        max_states,
        ..Progress::default()
    };
    let optimum = watched(py, callback.as_ref(), &state, || match &pool {
        Pool::Current => engine::optimal(rules, false, &state),
        Pool::Global => engine::optimal(rules, true, &state),
        Pool::Dedicated(threads) => threads.install(|| engine::optimal(rules, true, &state)),
    })?
    .or_py()?
    .ok_or_else(|| PyKeyboardInterrupt::new_err(()))?;
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((optimum.numerator, optimum.denominator))
}

/// Compute (or find) the table that `builtin` plays from under `rules`, when it is
/// `"optimal"`, where Ctrl-C can stop it; `StrategyError` for a layout out of its
/// reach, or for rules that the built-in does not play (`Builtin::check_rules`).
/// Nothing else to do for the other built-ins.
pub fn prepare(py: Python<'_>, builtin: &Builtin, rules: Rules) -> PyResult<()> {
    builtin.check_rules(&rules).or_py()?;
    if !matches!(builtin, Builtin::Optimal(_)) {
        return Ok(());
    }
    let state = Progress::default();
    watched(py, None, &state, || engine::strategy_table(rules, &state))?
        .or_py()?
        .map(drop)
        .ok_or_else(|| PyKeyboardInterrupt::new_err(()))
}
