//! `_upper_bound`, the search of `acesup.upper_bound` (python/acesup/bound.py,
//! which checks the arguments and builds the `UpperBound`): run detached, with
//! Ctrl-C and the progress callback served from the calling thread.

use crate::errors::OrPyErr;
use crate::optimal::watched;
use crate::rules::rules_arg;
use acesup::bound::{self as engine, Penalty, Value};
use acesup::optimal::Progress;
use acesup::run::Pool;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

/// The per-game values and the positions searched of the bound over games
/// `start .. start + games` of master seed `seed` (docs/BOUND.md), W being
/// exact where no stock is left and 0 elsewhere when `endgame`, else `table`
/// (`acesup.bound.feature_table`), or zero when the table is empty; `progress` is
/// called as `progress(done, total, positions)`. The arguments were checked by
/// `acesup.bound.upper_bound`.
#[pyfunction]
#[pyo3(name = "_upper_bound")]
#[allow(clippy::too_many_arguments)] // the checked arguments of acesup.upper_bound, one each
pub fn upper_bound(
    py: Python<'_>,
    games: u64,
    rules: &Bound<'_, PyAny>,
    seed: u64,
    start: u64,
    table: Vec<f64>,
    endgame: bool,
    samples: Option<u32>,
    threads: Option<usize>,
    progress: &Bound<'_, PyAny>,
) -> PyResult<(Vec<f64>, u64)> {
    let rules = rules_arg(Some(rules))?;
    let value = match (table.is_empty(), endgame) {
        (_, true) => Value::Endgame,
        (true, false) => Value::Zero,
        (false, false) => Value::Features(table),
    };
    let penalty = Penalty { value, samples };
    let pool = Pool::new(threads).or_py()?;
    let state = Progress::default();
    let bound = watched(py, Some(progress), &state, || {
        engine::upper_bound(rules, seed, start, games, &penalty, &pool, &state)
    })?
    .ok_or_else(|| PyKeyboardInterrupt::new_err(()))?;
    Ok((bound.values, bound.nodes))
}
