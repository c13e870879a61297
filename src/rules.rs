//! `Rules`: the rule options as a value, made from keywords, presets or text.

use crate::arguments::{is_reference, repr, str_arg, type_name};
use crate::cards::card_tuple;
use crate::errors::OrPyErr;
use crate::protocols::py_methods;
use crate::surrogates::text_of;
use acesup::{OptionValue, Rules, OPTIONS};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};

/// The rule options of R5, an immutable value, with the layout they give (R1.4):
/// `Rules(*, fill="top", deal="free", relocate_single=False, ace_high=True,
/// piles=4, suits=4, ranks=13, deal_to="all", reserve=0)`.
#[pyclass(
    frozen,
    eq,
    hash,
    module = "acesup._core",
    name = "Rules",
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

/// Rules from keyword options over `base`, each set by the engine's one parser of
/// options (`Rules::set_option`) in the order of R6.4, as the reference checks
/// them, then the layout checked: `RulesError` for a bad value or layout,
/// `TypeError` for an unknown keyword.
fn rules_with(base: Rules, options: Option<&Bound<'_, PyDict>>, place: &str) -> PyResult<Rules> {
    let mut values: [Option<Bound<'_, PyAny>>; OPTIONS.len()] = Default::default();
    for (key, value) in options.into_iter().flatten() {
        let name = key.cast::<PyString>().map_or(Ok(String::new()), text_of)?;
        match OPTIONS.iter().position(|&o| o == name) {
            Some(i) => values[i] = Some(value),
            None => {
                // Worded as Python words it: the keyword as given, in quotes (not its repr).
                let message = PyString::new(key.py(), "{} got an unexpected keyword argument '{}'")
                    .call_method1("format", (place, &key))?;
                return Err(PyTypeError::new_err(message.unbind()));
            }
        }
    }
    let mut rules = base;
    for (option, value) in OPTIONS.iter().zip(values) {
        if let Some(value) = value {
            set_option(&mut rules, option, &value)?;
        }
    }
    rules.validate().or_py()?;
    Ok(rules)
}

/// `rules.<option> = value` through the engine's parser, with the Python value as
/// the parser receives it: a bool, an int (exactly), a str, or another value's repr.
fn set_option(rules: &mut Rules, option: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let shown = repr(value)?;
    let int = value
        .is_exact_instance_of::<PyInt>()
        .then(|| value.extract::<i64>().ok())
        .flatten();
    let text = match value.cast::<PyString>() {
        Ok(s) => Some(text_of(s)?),
        Err(_) => None,
    };
    let given = if let Ok(flag) = value.cast_exact::<PyBool>() {
        OptionValue::Bool(flag.is_true())
    } else if let Some(n) = int {
        OptionValue::Int(n)
    } else if let Some(text) = &text {
        OptionValue::Text(text)
    } else {
        OptionValue::Other(&shown)
    };
    rules.set_option(option, given).or_py()
}

/// `rules` (of either engine: the reference's by their text), or the standard
/// rules for None; `TypeError` for anything else.
pub fn rules_arg(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    rules_or(rules, Rules::standard())
}

/// [`rules_arg`] with `default` for None (the program's preset of a numbered deal).
pub fn rules_or(rules: Option<&Bound<'_, PyAny>>, default: Rules) -> PyResult<Rules> {
    match rules {
        None => Ok(default),
        Some(r) if r.is_none() => Ok(default),
        Some(r) if is_reference(r, "Rules")? => Rules::parse(&r.str()?.to_cow()?).or_py(),
        Some(r) => match r.cast::<PyRules>() {
            Ok(r) => Ok(r.get().0),
            Err(_) => {
                let hint = if r.is_instance_of::<PyString>() {
                    " (use Rules.parse() for a text)"
                } else {
                    ""
                };
                Err(PyTypeError::new_err(format!(
                    "rules must be a Rules or None, got {}{hint}",
                    type_name(r)
                )))
            }
        },
    }
}

/// The Python `repr` of rules: only the options that differ from the defaults, in
/// the order of R6.4.
fn rules_repr(rules: &Rules) -> String {
    let default = Rules::standard();
    let py_bool = |b: bool| if b { "True" } else { "False" };
    let mut args = Vec::new();
    if rules.fill != default.fill {
        args.push(format!("fill='{}'", rules.fill.name()));
    }
    if rules.deal != default.deal {
        args.push(format!("deal='{}'", rules.deal.name()));
    }
    if rules.relocate_single != default.relocate_single {
        args.push(format!(
            "relocate_single={}",
            py_bool(rules.relocate_single)
        ));
    }
    if rules.ace_high != default.ace_high {
        args.push(format!("ace_high={}", py_bool(rules.ace_high)));
    }
    for (name, value, default) in [
        ("piles", rules.piles, default.piles),
        ("suits", rules.suits, default.suits),
        ("ranks", rules.ranks, default.ranks),
    ] {
        if value != default {
            args.push(format!("{name}={value}"));
        }
    }
    if rules.deal_to != default.deal_to {
        args.push(format!("deal_to='{}'", rules.deal_to.name()));
    }
    if rules.reserve != default.reserve {
        args.push(format!("reserve={}", rules.reserve));
    }
    format!("Rules({})", args.join(", "))
}

py_methods!(PyRules [value] {
    #[new]
    #[pyo3(signature = (**options), text_signature = "(*, fill='top', deal='free', relocate_single=False, ace_high=True, piles=4, suits=4, ranks=13, deal_to='all', reserve=0)")]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRules(rules_with(
            Rules::standard(),
            options,
            "Rules.__init__()",
        )?))
    }

    /// All defaults.
    #[classmethod]
    fn standard(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::standard())
    }

    /// `fill="ace"`.
    #[classmethod]
    fn strict(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::strict())
    }

    /// `fill="any"`.
    #[classmethod]
    fn easy(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::easy())
    }

    /// `ace_high=False`.
    #[classmethod]
    fn reverse(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::reverse())
    }

    /// `piles=5`: PySolFC's "Aces Up 5", five piles.
    #[classmethod]
    fn aces_up_5(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::aces_up_5())
    }

    /// `deal_to="empty"`: PySolFC's "Russian Aces", a deal fills only the empty
    /// piles when there are any (R2.3).
    #[classmethod]
    fn russian_aces(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::russian_aces())
    }

    /// KDE kpat's "Aces Up" as a person plays it (R8.3): `deal="any", relocate_single=True`.
    #[classmethod]
    fn kpat(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::kpat())
    }

    /// PySolFC's "Aces Up" (#903), the same game as kpat's (R8.3).
    #[classmethod]
    fn pysol(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::pysol())
    }

    /// PySolFC's "Aces Up 5" (#353): its "Aces Up" with `piles=5` (R8.3).
    #[classmethod]
    fn pysol_aces_up_5(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::pysol_aces_up_5())
    }

    /// PySolFC's "Russian Aces" (#213): its "Aces Up" with `deal_to="empty"` (R8.3).
    #[classmethod]
    fn pysol_russian_aces(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::pysol_russian_aces())
    }

    /// PySolFC's "Fortunes" (#206): its "Aces Up" with `fill="stack"` (R8.3).
    #[classmethod]
    fn pysol_fortunes(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::pysol_fortunes())
    }

    /// PySolFC's "Firing Squad" (#583): its "Aces Up" with `reserve=1` (R2.4, R8.3).
    #[classmethod]
    fn pysol_firing_squad(_cls: &Bound<'_, PyType>) -> Self {
        PyRules(Rules::pysol_firing_squad())
    }

    /// The preset names, in the order of R5 (what `Rules.preset` takes).
    #[classattr]
    #[pyo3(name = "PRESETS")]
    fn presets(py: Python<'_>) -> PyResult<Py<PyTuple>> {
        Ok(PyTuple::new(py, acesup::PRESETS)?.unbind())
    }

    /// The values of `fill` (R5).
    #[classattr]
    #[pyo3(name = "FILLS")]
    fn fills(py: Python<'_>) -> PyResult<Py<PyTuple>> {
        Ok(PyTuple::new(py, acesup::FillRule::NAMES)?.unbind())
    }

    /// The values of `deal` (R5).
    #[classattr]
    #[pyo3(name = "DEALS")]
    fn deals(py: Python<'_>) -> PyResult<Py<PyTuple>> {
        Ok(PyTuple::new(py, acesup::DealRule::NAMES)?.unbind())
    }

    /// The values of `deal_to` (R2.3).
    #[classattr]
    #[pyo3(name = "DEAL_TOS")]
    fn deal_tos(py: Python<'_>) -> PyResult<Py<PyTuple>> {
        Ok(PyTuple::new(py, acesup::DealTo::NAMES)?.unbind())
    }

    /// The preset of this name (R5).
    #[classmethod]
    fn preset(_cls: &Bound<'_, PyType>, name: &Bound<'_, PyAny>) -> PyResult<Self> {
        let name = str_arg(name, |t| format!("a preset name must be a str, got {t}"))?;
        Ok(PyRules(Rules::preset(&name).or_py()?))
    }

    /// Rules from R6.4 text.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = str_arg(text, |t| format!("Rules.parse() takes a str, got {t}"))?;
        Ok(PyRules(Rules::parse(&text).or_py()?))
    }

    /// A copy with some options changed.
    #[pyo3(signature = (**options))]
    fn replace(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRules(rules_with(self.0, options, "Rules.replace()")?))
    }

    #[getter]
    fn fill(&self) -> &'static str {
        self.0.fill.name()
    }

    #[getter]
    fn deal(&self) -> &'static str {
        self.0.deal.name()
    }

    #[getter]
    fn relocate_single(&self) -> bool {
        self.0.relocate_single
    }

    #[getter]
    fn ace_high(&self) -> bool {
        self.0.ace_high
    }

    #[getter]
    fn piles(&self) -> u8 {
        self.0.piles
    }

    #[getter]
    fn suits(&self) -> u8 {
        self.0.suits
    }

    #[getter]
    fn ranks(&self) -> u8 {
        self.0.ranks
    }

    #[getter]
    fn deal_to(&self) -> &'static str {
        self.0.deal_to.name()
    }

    /// The number of reserve cells, 0 or 1 (R2.4).
    #[getter]
    fn reserve(&self) -> u8 {
        self.0.reserve
    }

    /// D, the number of cards of the layout: suits x ranks (R1.4).
    fn deck_size(&self) -> usize {
        self.0.deck_size()
    }

    /// The score of a won game: every card but the top rank of each suit (R4.2).
    fn win_score(&self) -> usize {
        self.0.win_score()
    }

    /// The layout's cards, in index order (R1.4).
    fn deck<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        card_tuple(py, &self.0.deck())
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        rules_repr(&self.0)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyRules>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }
});
