//! Every deck: `deck_from_seed` (RNG.md), and `deck_from_kpat` and
//! `deck_from_pysol`, the numbered deals of kpat and PySolFC (RULES.md R8), with
//! the deal-number arguments of `Game.from_kpat` and `Game.from_pysol`.

use crate::arguments::{int_arg, seed_arg, value_error};
use crate::cards::card_list;
use crate::errors::OrPyErr;
use crate::rules::rules_arg;
use acesup::{KPAT_MAX, PYSOL_MAX};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// A kpat deal number as an `i128`: `TypeError` for a non-int, `ValueError` naming
/// the range 1 to 2**31 - 1 for an int outside it, however large.
pub fn kpat_arg(n: &Bound<'_, PyAny>) -> PyResult<i128> {
    int_arg(n, "a kpat deal number", 1, Some(KPAT_MAX + 1), value_error)
}

/// A PySolFC game number as an `i128`, checked as [`kpat_arg`] checks for 1 to 10**20.
pub fn pysol_arg(n: &Bound<'_, PyAny>) -> PyResult<i128> {
    int_arg(
        n,
        "a PySolFC game number",
        1,
        Some(PYSOL_MAX + 1),
        value_error,
    )
}

/// The deck that `Game.from_seed(seed, rules)` deals, in deal order: the layout's
/// cards (`rules.deck()`) shuffled (RNG.md).
#[pyfunction]
#[pyo3(signature = (seed, rules = None))]
pub fn deck_from_seed<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let seed = seed_arg(seed, "seed")?;
    card_list(py, &acesup::deck_from_seed(seed, &rules_arg(rules)?))
}

/// The deck of kpat's Aces Up deal number `n` (1 to 2**31 - 1), in deal order.
#[pyfunction]
pub fn deck_from_kpat<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    card_list(py, &acesup::deck_from_kpat(kpat_arg(n)?).or_py()?)
}

/// The deck of PySolFC's game number `n` (1 to 10**20) for Aces Up, Aces Up 5 and
/// Russian Aces, in deal order.
#[pyfunction]
pub fn deck_from_pysol<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    card_list(py, &acesup::deck_from_pysol(pysol_arg(n)?).or_py()?)
}
