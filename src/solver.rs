//! `solve`, `solvability` and their values `Solution` and `Solvability`, with the
//! searches run where Ctrl-C can stop them.

use crate::arguments::{
    count_arg, index_range, int_arg, int_object, reference_game_error, repr, seed_arg, start_arg,
    threads_arg, type_name, value_error, Arg,
};
use crate::errors::OrPyErr;
use crate::game::PyGame;
use crate::interrupt;
use crate::moves::{move_arg, move_repr, PyMove};
use crate::progress::Progress;
use crate::protocols::py_methods;
use crate::rules::{rules_arg, rules_or};
use crate::verdicts::{program_arg, DealRun, PyDealVerdicts};
use acesup::run::{thread_count, Next};
use acesup::solver::{self, Solvability};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString, PyTuple, PyType};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What `solve` found, an immutable value (docs/API.md, Solution).
#[pyclass(frozen, eq, module = "acesup._core", name = "Solution")]
#[derive(PartialEq, Eq)]
pub struct PySolution(solver::Solution);

/// The Python `repr` of a solution: `Solution(winnable=True, moves=(Move.deal(),), nodes=3)`.
fn solution_repr(solution: &solver::Solution) -> String {
    let moves: Vec<String> = solution.moves.iter().map(|&m| move_repr(m)).collect();
    let moves = match moves.len() {
        1 => format!("({},)", moves[0]),
        _ => format!("({})", moves.join(", ")),
    };
    let verdict = match solution.winnable {
        Some(true) => "True",
        Some(false) => "False",
        None => "None",
    };
    format!(
        "Solution(winnable={verdict}, moves={moves}, nodes={})",
        solution.nodes
    )
}

/// A verdict argument: True, False or None.
fn verdict_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
    if value.is_none() {
        return Ok(None);
    }
    match value.cast::<PyBool>() {
        Ok(b) => Ok(Some(b.is_true())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "winnable must be True, False or None, got {}",
            repr(value)?
        ))),
    }
}

/// The search limits of `solve` and `solvability`: `node_limit` None or an int >= 1
/// (a larger one than 2**64 - 1 is no limit), `time_limit` None or a positive
/// number of seconds (infinity, or an int too large for a float, is no limit).
fn limits_arg(
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<solver::Limits> {
    let nodes = match node_limit {
        Some(n) if !n.is_none() => {
            Some(u64::try_from(int_arg(n, "node_limit", 1, None, value_error)?).unwrap_or(u64::MAX))
        }
        _ => None,
    };
    let time = match time_limit {
        Some(t) if !t.is_none() => {
            let number = (t.is_instance_of::<PyInt>() || t.is_instance_of::<PyFloat>())
                && !t.is_instance_of::<PyBool>();
            if !number {
                return Err(PyTypeError::new_err(format!(
                    "time_limit must be None or a positive number of seconds, got {}",
                    type_name(t)
                )));
            }
            if !t.gt(0)? {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be None or a positive number of seconds, got {}",
                    repr(t)?
                )));
            }
            // An int past the floats' range is more seconds than any run lasts: no limit.
            let seconds = t.extract::<f64>().unwrap_or(f64::INFINITY);
            std::time::Duration::try_from_secs_f64(seconds).ok()
        }
        _ => None,
    };
    Ok(solver::Limits {
        nodes,
        time,
        cancel: None,
    })
}

py_methods!(PySolution [value] {
    #[new]
    #[pyo3(signature = (winnable, moves = Arg::Omitted, nodes = Arg::Omitted), text_signature = "(winnable, moves=(), nodes=0)")]
    fn new(winnable: &Bound<'_, PyAny>, moves: Arg<'_>, nodes: Arg<'_>) -> PyResult<Self> {
        let winnable = verdict_arg(winnable)?;
        let moves = moves.or(Vec::new(), |m| {
            if m.is_instance_of::<PyString>()
                || m.is_instance_of::<PyBytes>()
                || m.try_iter().is_err()
            {
                return Err(PyTypeError::new_err(format!(
                    "moves must be a sequence of Move, got {}",
                    type_name(m)
                )));
            }
            m.try_iter()?
                .take(solver::MAX_LINE + 1)
                .map(|mv| move_arg(&mv?, "Solution()"))
                .collect()
        })?;
        let nodes = nodes.or(0, |n| count_arg(n, "nodes"))?;
        Ok(PySolution(
            solver::Solution::new(winnable, moves, nodes).or_py()?,
        ))
    }

    /// True: `moves` wins; False: no win can be reached; None: a limit stopped the search.
    #[getter]
    fn winnable(&self) -> Option<bool> {
        self.0.winnable
    }

    /// A winning line from the position solved (empty unless winnable is True).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.moves.iter().map(|&m| PyMove(m)))
    }

    /// The positions the search expanded.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }

    fn __repr__(&self) -> String {
        solution_repr(&self.0)
    }

    /// The hash of `(winnable, move texts, nodes)`, as the reference engine's
    /// Solution hashes: the two compare equal.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let texts = PyTuple::new(py, self.0.moves.iter().map(|m| m.to_string()))?;
        (self.0.winnable, texts, self.0.nodes).into_pyobject(py)?.hash()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyType>, (Option<bool>, Bound<'py, PyTuple>, u64))> {
        Ok((
            py.get_type::<PySolution>(),
            (self.0.winnable, self.moves(py)?, self.0.nodes),
        ))
    }
});

/// How many deals of a batch can be won, an immutable value (docs/API.md,
/// Solvability).
#[pyclass(frozen, eq, module = "acesup._core", name = "Solvability")]
#[derive(PartialEq, Eq)]
pub struct PySolvability(Solvability);

py_methods!(PySolvability [value, summable] {
    #[new]
    #[pyo3(
        signature = (winnable = Arg::Omitted, unwinnable = Arg::Omitted, unresolved = Arg::Omitted),
        text_signature = "(winnable=0, unwinnable=0, unresolved=0)"
    )]
    fn new(winnable: Arg<'_>, unwinnable: Arg<'_>, unresolved: Arg<'_>) -> PyResult<Self> {
        let winnable = winnable.or(0, |n| count_arg(n, "winnable"))?;
        let unwinnable = unwinnable.or(0, |n| count_arg(n, "unwinnable"))?;
        let unresolved = unresolved.or(0, |n| count_arg(n, "unresolved"))?;
        Ok(PySolvability(
            Solvability::new(winnable, unwinnable, unresolved).or_py()?,
        ))
    }

    /// No games: the neutral element of `+`.
    #[classmethod]
    fn empty(_cls: &Bound<'_, PyType>) -> Self {
        PySolvability(Solvability::default())
    }

    #[getter]
    fn games(&self) -> u64 {
        self.0.games()
    }

    #[getter]
    fn winnable(&self) -> u64 {
        self.0.winnable
    }

    #[getter]
    fn unwinnable(&self) -> u64 {
        self.0.unwinnable
    }

    #[getter]
    fn unresolved(&self) -> u64 {
        self.0.unresolved
    }

    /// winnable / games; nan when there are no games.
    #[getter]
    fn rate(&self) -> f64 {
        self.0.rate()
    }

    /// From the Wilson 95% lower bound of winnable / games to the upper bound of
    /// (winnable + unresolved) / games; (0.0, 1.0) when there are no games.
    #[getter]
    fn ci95(&self) -> (f64, f64) {
        self.0.ci95()
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PySolvability>() else {
            return Ok(py.NotImplemented());
        };
        let sum = self.0.merge(&other.get().0).or_py()?;
        Ok(Py::new(py, PySolvability(sum))?.into_any())
    }

    fn __repr__(&self) -> String {
        self.0.repr()
    }

    /// The hash of the counts, as the reference engine's Solvability hashes: the
    /// two compare equal.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let s = self.0;
        (s.winnable, s.unwinnable, s.unresolved).into_pyobject(py)?.hash()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, (u64, u64, u64)) {
        let s = self.0;
        (
            py.get_type::<PySolvability>(),
            (s.winnable, s.unwinnable, s.unresolved),
        )
    }
});

/// Whether `game` can still be won from its current position, knowing the stock,
/// with a winning line if it can (docs/SOLVER.md). The game is not changed; the
/// search runs with the GIL released, and Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (game, node_limit = None, time_limit = None))]
pub fn solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolution> {
    if let Some(error) = reference_game_error(game, "solve()")? {
        return Err(error);
    }
    let Ok(game) = game.cast::<PyGame>() else {
        return Err(PyTypeError::new_err(format!(
            "solve() takes an acesup.Game, got {}",
            type_name(game)
        )));
    };
    let limits = limits_arg(node_limit, time_limit)?;
    let position = game.get().game().position().clone();
    let solution = match py.detach(|| solver::solve_quickly(&position, &limits)) {
        Ok(solution) => solution,
        Err(mut limits) => {
            interrupt::search(py, &mut limits, |limits| solver::solve(&position, limits))?
        }
    };
    Ok(PySolution(solution))
}

/// Solves games `start .. start+games-1` of master seed `seed` (RNG.md), each with
/// its own limits, on all cores (`threads=None`) or `threads` threads, while the
/// calling thread, with the GIL released, counts the verdicts as they come,
/// reports them (`progress`, `callback`: `crate::progress`) and looks for Ctrl-C;
/// the result never depends on the thread count, unless a time limit stops some
/// searches.
#[pyfunction]
#[pyo3(
    signature = (games, rules = None, seed = Arg::Omitted, *, threads = None, start = Arg::Omitted, node_limit = None, time_limit = None, progress = Arg::Omitted, callback = None),
    text_signature = "(games, rules=None, seed=0, *, threads=None, start=0, node_limit=None, time_limit=None, progress=False, callback=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solvability(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Arg<'_>,
    threads: Option<&Bound<'_, PyAny>>,
    start: Arg<'_>,
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
    progress: Arg<'_>,
    callback: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolvability> {
    let games = int_object(games, "games", 0, None, value_error)?;
    let rules = rules_arg(rules)?;
    let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
    let threads = threads_arg(threads)?;
    let start = start_arg(py, start)?;
    let (start, games) = index_range(&games, &start)?;
    let limits = limits_arg(node_limit, time_limit)?;
    let progress = Progress::new(py, games, &progress, callback, "games")?;
    let games = u64::try_from(games).map_err(|_| {
        PyValueError::new_err(format!(
            "games must be below 2**64 in the native engine, got {games}"
        ))
    })?;
    let tally = count_verdicts(py, threads, rules, seed, start, games, limits, &progress);
    progress.end(py, tally).map(PySolvability)
}

/// The verdicts on games `start .. start + games` of master seed `seed`, counted
/// on this thread with the GIL released as the run's threads find them, while
/// `progress` is told how many are counted and Ctrl-C is looked for
/// ([`interrupt::until_done`]); a signal, or the callback's exception, stops
/// the run and is raised.
#[allow(clippy::too_many_arguments)]
fn count_verdicts(
    py: Python<'_>,
    threads: Option<usize>,
    rules: acesup::Rules,
    seed: u64,
    start: u64,
    games: u64,
    mut limits: solver::Limits,
    progress: &Progress,
) -> PyResult<Solvability> {
    let flag = interrupt::new_flag();
    limits.cancel = Some(flag.clone());
    let threads = thread_count(threads).or_py()?;
    let found = solver::seeded_verdicts(threads, rules, seed, start, games, &limits).or_py()?;
    let counted = AtomicU64::new(0);
    let report = |py: Python<'_>| progress.update_from(py, &counted);
    let mut tally = Solvability::default();
    let ((), stop) = py.detach(|| {
        interrupt::until_done(&flag, &report, |time| {
            let deadline = Instant::now() + time;
            loop {
                match found.next_done_within(deadline.saturating_duration_since(Instant::now())) {
                    Next::Item(verdicts) => verdicts.into_iter().for_each(|v| tally.record(v)),
                    Next::Pending => return None,
                    Next::Ended => return Some(()),
                }
                counted.store(tally.games(), Ordering::Relaxed);
                if Instant::now() >= deadline {
                    return None;
                }
            }
        })
    });
    stop?;
    Ok(tally)
}

/// Solves the numbered deals `numbers` (a range, or any iterable of numbers) of
/// kpat (`deals="kpat"`) or of PySolFC (`"pysol"`), each under `rules` (the
/// program's preset by default) with its own limits, on all cores or `threads`
/// threads, and returns an iterator of (number, winnable) in the order of the
/// numbers, each handed out as soon as it and those before it are solved
/// (docs/API.md). `progress` and `callback` report the deals handed out (`crate::progress`).
#[pyfunction]
#[pyo3(
    signature = (deals, numbers, rules = None, *, threads = None, node_limit = None, time_limit = None, progress = Arg::Omitted, callback = None),
    text_signature = "(deals, numbers, rules=None, *, threads=None, node_limit=None, time_limit=None, progress=False, callback=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve_deals(
    deals: &Bound<'_, PyAny>,
    numbers: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
    progress: Arg<'_>,
    callback: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDealVerdicts> {
    let program = program_arg(deals)?;
    let rules = rules_or(rules, program.rules)?;
    let threads = threads_arg(threads)?;
    let limits = limits_arg(node_limit, time_limit)?;
    DealRun::start(
        program,
        rules,
        numbers,
        limits,
        thread_count(threads).or_py()?,
        |total| Progress::new(deals.py(), total, &progress, callback, "deals"),
    )
}

/// The verdicts of the plain search (every legal move, a set of the positions
/// seen, no other pruning) on games `0 .. games-1` of master seed `seed`, on one
/// thread with the GIL released: `acesup bench` times it against `solvability`.
/// Private: a benchmark's yardstick, not part of the API, and not interruptible.
#[pyfunction]
#[pyo3(name = "_plain_solvability", signature = (games, rules, seed))]
pub fn plain_solvability(
    py: Python<'_>,
    games: u64,
    rules: &Bound<'_, PyAny>,
    seed: u64,
) -> PyResult<PySolvability> {
    let rules = rules_arg(Some(rules))?;
    Ok(PySolvability(py.detach(|| {
        solver::plain_solvability(rules, seed, 0, games)
    })))
}
