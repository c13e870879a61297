//! The Python bindings: `acesup._core`. A thin translation layer over the engine
//! crate `acesup`, which decides everything: each module converts the arguments of
//! one area (checked as the reference engine checks them), raises the classes of
//! `acesup.errors`, and releases the GIL around the engine's long runs. No rule
//! logic lives here.
//!
//! Value types (`Card`, `Move`, `Rules`, `Stats`, `Solution`, `Solvability`) are
//! frozen. `Game` and `Rng` are mutable and keep their state behind a `Mutex`,
//! held only while Rust code runs (never across a call into Python), so that
//! objects shared between Python threads serialize their calls and cannot deadlock.

mod arguments;
mod batch;
mod bound;
mod cards;
mod chance;
mod deals;
mod errors;
mod game;
mod interrupt;
mod moves;
mod optimal;
mod progress;
mod protocols;
mod rng;
mod rules;
mod solver;
mod stats;
mod strategies;
mod surrogates;
mod verdicts;

use pyo3::prelude::*;

/// The native engine of acesup.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<cards::PyCard>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<rng::PyRng>()?;
    m.add_class::<stats::PyStats>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<strategies::PyBuiltinStrategy>()?;
    m.add_function(wrap_pyfunction!(strategies::strategy, m)?)?;
    m.add_function(wrap_pyfunction!(strategies::builtin_names, m)?)?;
    m.add_function(wrap_pyfunction!(strategies::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(deals::deck_from_seed, m)?)?;
    m.add_function(wrap_pyfunction!(rng::game_seed, m)?)?;
    m.add_class::<batch::PyBatchEngine>()?;
    m.add_function(wrap_pyfunction!(deals::deck_from_kpat, m)?)?;
    m.add_function(wrap_pyfunction!(deals::deck_from_pysol, m)?)?;
    m.add_class::<solver::PySolution>()?;
    m.add_class::<solver::PySolvability>()?;
    m.add_function(wrap_pyfunction!(solver::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solver::solvability, m)?)?;
    m.add_class::<verdicts::PyDealVerdicts>()?;
    m.add_function(wrap_pyfunction!(solver::solve_deals, m)?)?;
    // The bytes of a native position, which montecarlo and greedy copy per
    // candidate: a figure of `acesup bench`.
    m.add("POSITION_BYTES", std::mem::size_of::<acesup::Position>())?;
    m.add_function(wrap_pyfunction!(solver::plain_solvability, m)?)?;
    m.add_function(wrap_pyfunction!(optimal::optimal, m)?)?;
    m.add_class::<chance::PyChanceGame>()?;
    m.add_function(wrap_pyfunction!(bound::upper_bound, m)?)?;
    name_classes_bare(m)
}

/// Python's own messages (`'<' not supported between instances of 'Card' and
/// 'int'`) name a type by its C name, which PyO3 makes `acesup._core.Card`; the
/// reference engine's classes are named `Card` there. Setting `__name__` (to the
/// same name) makes the C name the bare one and keeps `__module__`, so `repr`,
/// pickle and `acesup.arguments.is_native` see the same class.
fn name_classes_bare(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for (_, value) in m.dict() {
        if let Ok(class) = value.cast::<pyo3::types::PyType>() {
            class.setattr("__name__", class.name()?)?;
        }
    }
    Ok(())
}
