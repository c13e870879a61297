//! `solve_deals`' verdicts: the numbered deals of kpat or PySolFC solved a chunk
//! at a time on the run's threads, handed out as a Python iterator.

use crate::arguments::{repr, type_name};
use crate::deals::{kpat_arg, pysol_arg};
use crate::errors::OrPyErr;
use crate::interrupt;
use acesup::position::Position;
use acesup::simulate::Pool;
use acesup::solver;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

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
    let name = deals.cast::<PyString>().ok().map(|s| s.to_string());
    match name.as_deref() {
        Some("kpat") => Ok(Program {
            deck: acesup::deals::deck_from_kpat,
            number: kpat_arg,
            rules: acesup::Rules::kpat(),
        }),
        Some("pysol") => Ok(Program {
            deck: acesup::deals::deck_from_pysol,
            number: pysol_arg,
            rules: acesup::Rules::pysol(),
        }),
        Some(_) => Err(PyValueError::new_err(format!(
            "deals must be 'kpat' or 'pysol', got {}",
            repr(deals)?
        ))),
        None => Err(PyTypeError::new_err(format!(
            "deals must be 'kpat' or 'pysol', got {}",
            type_name(deals)
        ))),
    }
}

/// How many deals each thread solves between two chunks of `DealVerdicts`: what
/// the caller sees arrive at once.
const DEALS_PER_THREAD: u64 = 32;

/// Where a `solve_deals` run stands.
pub struct DealRun {
    program: Program,
    rules: acesup::Rules,
    /// The next deal number to solve, the step between two, and how many are left.
    next: i128,
    step: i128,
    left: u64,
    limits: solver::Limits,
    pool: Pool,
    /// Solved and not yet handed out: (number, verdict), in order.
    ready: std::collections::VecDeque<(i128, Option<bool>)>,
}

/// The verdicts of `solve_deals`, an iterator of (number, winnable) in the order of
/// the numbers, solved a chunk at a time on the run's threads.
#[pyclass(frozen, module = "acesup._core", name = "DealVerdicts")]
pub struct PyDealVerdicts(std::sync::Mutex<DealRun>);

#[pymethods]
impl PyDealVerdicts {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next (number, winnable); a new chunk is solved, with the GIL released
    /// and Ctrl-C seen, when the last is used up. A Ctrl-C loses only the chunk
    /// under way: the verdicts handed out before it stand.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(i128, Option<bool>)>> {
        let mut run = crate::protocols::lock(&self.0);
        if run.ready.is_empty() && run.left > 0 {
            let run = &mut *run;
            let count = run.left.min(DEALS_PER_THREAD * run.pool.threads() as u64);
            let (program, rules, first, step, pool) =
                (run.program, run.rules, run.next, run.step, &run.pool);
            let number = |i: u64| first + step * i128::from(i);
            let found = interrupt::search(py, &mut run.limits, |limits| {
                let position = |i| {
                    let deck = (program.deck)(number(i)).expect("the numbers were checked");
                    Position::from_deck(&deck, rules)
                };
                solver::verdicts(pool, count, position, limits)
            })?
            .ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(()))?;
            run.ready.extend((0..count).map(number).zip(found));
            run.next = number(count);
            run.left -= count;
        }
        Ok(run.ready.pop_front())
    }

    fn __repr__(&self) -> String {
        let run = crate::protocols::lock(&self.0);
        format!(
            "<DealVerdicts: {} deals left>",
            run.left + run.ready.len() as u64
        )
    }
}

impl DealRun {
    /// The run over `numbers` (a Python range, already checked to be one): its
    /// first deal is dealt at once, so that rules that cannot deal the program's
    /// deck fail at the call; `ValueError` for a number out of the program's range.
    pub fn start(
        program: Program,
        rules: acesup::Rules,
        numbers: &Bound<'_, PyAny>,
        limits: solver::Limits,
        pool: Pool,
    ) -> PyResult<PyDealVerdicts> {
        let (mut next, mut step, mut left) = (0, 1, 0);
        if numbers.is_truthy()? {
            next = (program.number)(&numbers.get_item(0)?)?;
            let deck = (program.deck)(next).or_py()?;
            acesup::Game::from_deck(&deck, rules, 0).or_py()?;
            let last = (program.number)(&numbers.get_item(-1)?)?;
            if last != next {
                step = numbers.getattr("step")?.extract::<i128>()?;
            }
            left = u64::try_from((last - next) / step + 1).map_err(|_| {
                PyValueError::new_err("numbers must hold fewer than 2**64 deals".to_string())
            })?;
        }
        Ok(PyDealVerdicts(std::sync::Mutex::new(DealRun {
            program,
            rules,
            next,
            step,
            left,
            limits,
            pool,
            ready: std::collections::VecDeque::new(),
        })))
    }
}
