//! `solve_deals`' verdicts: the numbered deals of kpat or PySolFC solved on the
//! run's threads as a stream ([`acesup::run::Stream`]), handed out as a Python iterator
//! in the order of the numbers.

use crate::arguments::{repr, text_arg, type_name};
use crate::deals::{kpat_arg, pysol_arg};
use crate::errors::OrPyErr;
use crate::interrupt;
use crate::progress::Progress;
use acesup::run::cancel::Flag;
use acesup::run::{Next, Stream};
use acesup::solver;
use acesup::Position;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyRange;
use std::sync::Arc;
use std::time::Duration;

/// The deals of kpat or of PySolFC that `solve_deals` solves: their deck function
/// and their rules preset.
#[derive(Clone, Copy)]
pub struct Program {
    deck: fn(i128) -> acesup::Result<Vec<acesup::Card>>,
    number: for<'py> fn(&Bound<'py, PyAny>) -> PyResult<i128>,
    pub rules: acesup::Rules,
}

/// `deals`: "kpat" or "pysol".
pub fn program_arg(deals: &Bound<'_, PyAny>) -> PyResult<Program> {
    // A str subclass (NumPy's str_) is read by the characters it holds.
    let name = text_arg(deals, |t| {
        format!("deals must be 'kpat' or 'pysol', got {t}")
    })?;
    match name.as_str() {
        "kpat" => Ok(Program {
            deck: acesup::deck_from_kpat,
            number: kpat_arg,
            rules: acesup::Rules::kpat(),
        }),
        "pysol" => Ok(Program {
            deck: acesup::deck_from_pysol,
            number: pysol_arg,
            rules: acesup::Rules::pysol(),
        }),
        _ => Err(PyValueError::new_err(format!(
            "deals must be 'kpat' or 'pysol', got {}",
            repr(name.to_py(deals.py())?.as_any())?
        ))),
    }
}

/// The deal numbers of a run, in its order: a range's, computed from its first and
/// its step (a range may hold up to 2**64 - 1 deals), or any other iterable's, read at
/// the call.
#[derive(Clone)]
enum Numbers {
    Range { first: i128, step: i128 },
    Listed(Arc<[i128]>),
}

impl Numbers {
    /// Number `i` of the run, counted from 0.
    fn at(&self, i: u64) -> i128 {
        match self {
            Numbers::Range { first, step } => first + step * i128::from(i),
            Numbers::Listed(all) => all[usize::try_from(i).expect("a listed number's index")],
        }
    }
}

/// Where a `solve_deals` run stands.
pub struct DealRun {
    program: Program,
    rules: acesup::Rules,
    /// The run's numbers, how many have been handed out, and how many are left.
    numbers: Numbers,
    done: u64,
    left: u64,
    limits: solver::Limits,
    threads: usize,
    /// The deals from `next` on, being solved, and the flag that stops them:
    /// started at the first `next()`, and again at the one after a Ctrl-C.
    solving: Option<(Stream<Option<bool>>, Flag)>,
}

/// The verdicts of `solve_deals`, an iterator of (number, winnable) in the order of
/// the numbers, solved on the run's threads, each taking the next deal as soon as
/// it is done with one, and the reporter of the deals handed out.
#[pyclass(frozen, module = "acesup._core", name = "DealVerdicts")]
pub struct PyDealVerdicts {
    run: std::sync::Mutex<DealRun>,
    progress: Progress,
}

#[pymethods]
impl PyDealVerdicts {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next (number, winnable), waited for with the GIL released and Ctrl-C
    /// seen when it is not found yet. A Ctrl-C stops the run's threads and throws
    /// away the verdicts not handed out yet; those handed out before it stand, and
    /// a later `next()` goes on from the first deal not handed out. The deals
    /// handed out are reported once the run is unlocked (the callback may look at
    /// the iterator); the callback's exception ends the run, and is raised.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(i128, Option<bool>)>> {
        let (number, verdict, done, left) = {
            let mut run = crate::protocols::lock_detached(py, &self.run);
            if run.left == 0 {
                return Ok(None);
            }
            let found = {
                let (stream, flag) = run.solving()?;
                next_verdict(py, stream, flag)
            };
            let verdict = found.inspect_err(|_| run.solving = None)?;
            let number = run.numbers.at(run.done);
            run.done += 1;
            run.left -= 1;
            (number, verdict, run.done, run.left)
        };
        let reported = match left {
            0 => self.progress.end(py, Ok(())),
            _ => self.progress.update(py, done),
        };
        if let Err(error) = reported {
            let mut run = crate::protocols::lock_detached(py, &self.run);
            run.left = 0;
            run.solving = None;
            return Err(error);
        }
        Ok(Some((number, verdict)))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let run = crate::protocols::lock_detached(py, &self.run);
        format!("<DealVerdicts: {} deals left>", run.left)
    }
}

/// The next verdict of `stream`, at once when it is found, else waited for with
/// the GIL released while Ctrl-C is looked for: a signal raises `flag`, which
/// stops the run, and its exception (KeyboardInterrupt) is raised.
fn next_verdict(
    py: Python<'_>,
    stream: &Stream<Option<bool>>,
    flag: &Flag,
) -> PyResult<Option<bool>> {
    let mut found = stream.next_within(Duration::ZERO);
    if found == Next::Pending {
        let signal;
        (found, signal) = py.detach(|| {
            interrupt::until_done(flag, &interrupt::silent, |time| {
                match stream.next_within(time) {
                    Next::Pending => None,
                    found => Some(found),
                }
            })
        });
        signal?;
    }
    match found {
        Next::Item(verdict) => Ok(verdict),
        // The stream holds the deals left, and only a signal stops it.
        Next::Pending | Next::Ended => unreachable!("the deals left are solved"),
    }
}

impl DealRun {
    /// The run over `numbers`: a range, whose first and last numbers are checked
    /// (with the first deal dealt between them), or any other iterable of deal
    /// numbers, each checked, in its order, before the first deal is dealt. The
    /// first deal is dealt at once, so that rules that cannot deal the program's
    /// deck fail at the call; `ValueError` for a number out of the program's range,
    /// `TypeError` for a non-int or for `numbers` that is not iterable. The
    /// run's deals are reported to `progress(deals)`, made once they are counted.
    pub fn start(
        program: Program,
        rules: acesup::Rules,
        numbers: &Bound<'_, PyAny>,
        limits: solver::Limits,
        threads: usize,
        progress: impl FnOnce(u64) -> PyResult<Progress>,
    ) -> PyResult<PyDealVerdicts> {
        let deal_first = |first: i128| -> PyResult<()> {
            let deck = (program.deck)(first).or_py()?;
            acesup::Game::from_deck(&deck, rules, 0).or_py()?;
            Ok(())
        };
        let (numbers, left) = if numbers.is_instance_of::<PyRange>() {
            let (mut first, mut step, mut left) = (0, 1, 0);
            if numbers.is_truthy()? {
                first = (program.number)(&numbers.get_item(0)?)?;
                deal_first(first)?;
                let last = (program.number)(&numbers.get_item(-1)?)?;
                if last != first {
                    step = numbers.getattr("step")?.extract::<i128>()?;
                }
                left = u64::try_from((last - first) / step + 1).map_err(|_| {
                    PyValueError::new_err("numbers must hold fewer than 2**64 deals".to_string())
                })?;
            }
            (Numbers::Range { first, step }, left)
        } else {
            // iter()'s TypeError says what `numbers` is; any other error is its own.
            let items = match numbers.try_iter() {
                Err(err) if err.is_instance_of::<PyTypeError>(numbers.py()) => {
                    return Err(PyTypeError::new_err(format!(
                        "numbers must be a range or an iterable of deal numbers, got {}",
                        type_name(numbers)
                    )))
                }
                items => items?,
            };
            // Signals are looked for as the numbers are read: an iterator of C code
            // (itertools.count()) runs no Python code in which Ctrl-C would be seen.
            let mut all = Vec::new();
            for (i, item) in items.enumerate() {
                if i % 4096 == 4095 {
                    numbers.py().check_signals()?;
                }
                all.push((program.number)(&item?)?);
            }
            if let Some(&first) = all.first() {
                deal_first(first)?;
            }
            let left = all.len() as u64;
            (Numbers::Listed(all.into()), left)
        };
        Ok(PyDealVerdicts {
            progress: progress(left)?,
            run: std::sync::Mutex::new(DealRun {
                program,
                rules,
                numbers,
                done: 0,
                left,
                limits,
                threads,
                solving: None,
            }),
        })
    }

    /// The deals left, being solved (see [`DealRun::solving`]'s field): started
    /// here when they are not; `ValueError` when no thread can be started.
    fn solving(&mut self) -> PyResult<&(Stream<Option<bool>>, Flag)> {
        if self.solving.is_none() {
            let (program, rules, numbers, done) =
                (self.program, self.rules, self.numbers.clone(), self.done);
            let flag = interrupt::new_flag();
            let limits = solver::Limits {
                cancel: Some(flag.clone()),
                ..self.limits.clone()
            };
            let position = move |i: u64| {
                let number = numbers.at(done + i);
                let deck = (program.deck)(number).expect("the numbers were checked");
                Position::from_deck(&deck, rules)
            };
            let stream = solver::verdicts(self.threads, self.left, position, &limits).or_py()?;
            self.solving = Some((stream, flag));
        }
        Ok(self.solving.as_ref().expect("just started"))
    }
}
