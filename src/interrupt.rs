//! Long native work that Ctrl-C stops within a few milliseconds, whatever one game
//! or one decision costs (docs/API.md, "Ctrl-C"), and whose progress the calling
//! thread reports meanwhile (docs/API.md, "Progress").

use acesup::run::cancel::{self, Cancel, Flag};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// How often the calling thread looks for a signal while the work runs.
const POLL: Duration = Duration::from_millis(10);

/// How long [`quickly_or_interruptible`] lets work run on the calling thread
/// before it starts it again where Ctrl-C can stop it: a small share of the half
/// second in which Ctrl-C must take effect, and more than most calls need.
const QUICK: Duration = Duration::from_millis(20);

/// What the calling thread does for a run at each look for signals, holding the
/// GIL: report its progress (docs/API.md, "Progress"); an error stops the run as a
/// signal does.
pub type Report<'a> = &'a (dyn Fn(Python<'_>) -> PyResult<()> + Sync);

/// Nothing to do at each look for signals: a run that reports no progress.
pub fn silent(_: Python<'_>) -> PyResult<()> {
    Ok(())
}

/// A new cancel flag, for one run.
pub fn new_flag() -> Flag {
    Arc::new(AtomicBool::new(false))
}

/// Runs `work` with the GIL released on a thread of its own, on which `flag` is the
/// current cancel flag ([`cancel::Scope`]), while this thread looks for signals
/// ([`until_done`], which calls `report` meanwhile). On a signal (or an error of
/// `report`) the flag is raised, so that the work cuts itself short, and once it
/// has returned the signal's exception (KeyboardInterrupt) is raised in place of
/// its result. Other Python threads run meanwhile.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    flag: &Flag,
    report: Report<'_>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (result, signal) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel::<()>();
            let worker = scope.spawn(move || {
                let _scope = cancel::Scope::enter(Cancel::on(flag.clone()));
                let result = work();
                let _ = done.send(());
                result
            });
            let ((), signal) = until_done(flag, report, |time| match finished.recv_timeout(time) {
                Err(RecvTimeoutError::Timeout) => None,
                _ => Some(()),
            });
            (worker.join(), signal)
        })
    });
    signal?;
    result
        .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the engine's worker thread failed"))
}

/// Waits, on a thread that does not hold the GIL, for `done(POLL)` (which waits
/// up to the time it is given) to give work's outcome, and looks for signals
/// (`check_signals`, which only the main thread sees) and calls `report` every
/// [`POLL`] meanwhile. The first signal (or error of `report`) raises `flag`, so
/// that the work cuts itself short and `done` gives an outcome soon; its
/// exception (KeyboardInterrupt, or the error) comes back beside the outcome,
/// which the caller throws away.
pub fn until_done<T>(
    flag: &Flag,
    report: Report<'_>,
    mut done: impl FnMut(Duration) -> Option<T>,
) -> (T, PyResult<()>) {
    let mut signal = Ok(());
    loop {
        if let Some(outcome) = done(POLL) {
            return (outcome, signal);
        }
        if signal.is_ok() {
            signal = Python::attach(|py| {
                py.check_signals()?;
                report(py)
            });
            if signal.is_err() {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Runs `work` with the GIL released on this thread for at most [`QUICK`], which is
/// all that most calls take, and when that cuts it short (`work` sees
/// [`cancel::requested`], leaves everything as it was, or where it can go on from,
/// and returns None) runs it again with [`interruptible`], which calls `report`
/// meanwhile: Ctrl-C stops long work without a thread for the short.
pub fn quickly_or_interruptible<T: Send>(
    py: Python<'_>,
    report: Report<'_>,
    mut work: impl FnMut() -> Option<T> + Send,
) -> PyResult<T> {
    let quick = py.detach(|| {
        let _scope = cancel::Scope::enter(Cancel::after(QUICK));
        work()
    });
    match quick {
        Some(done) => Ok(done),
        None => Ok(interruptible(py, &new_flag(), report, work)?
            .expect("only Ctrl-C cuts the work there, and then interruptible raised")),
    }
}

/// Runs `work` where Ctrl-C stops it ([`interruptible`]), with the
/// run's cancel flag in `limits`, which the search looks at.
pub fn search<T: Send>(
    py: Python<'_>,
    limits: &mut acesup::solver::Limits,
    work: impl FnOnce(&acesup::solver::Limits) -> T + Send,
) -> PyResult<T> {
    let flag = new_flag();
    limits.cancel = Some(flag.clone());
    let limits = &*limits;
    interruptible(py, &flag, &silent, || work(limits))
}
