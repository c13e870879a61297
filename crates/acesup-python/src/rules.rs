//! `Rules`: the rule options as a value, made from keywords, presets or text.

use crate::arguments::{repr, str_arg};
use crate::errors::{py_err, OrPyErr};
use crate::protocols::py_methods;
use acesup::rules::{self, Rules};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyType};

/// The rule options of R5, an immutable value: `Rules(*, fill="top", deal="free",
/// relocate_single=False, ace_high=True)`.
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

/// Rules from keyword options over `base`: `RulesError` for a bad value (checked in
/// the order fill, deal, relocate_single, ace_high, as the reference does),
/// `TypeError` for an unknown keyword.
fn rules_with(base: Rules, options: Option<&Bound<'_, PyDict>>, place: &str) -> PyResult<Rules> {
    let mut values: [Option<Bound<'_, PyAny>>; 4] = Default::default();
    for (key, value) in options.into_iter().flatten() {
        let name: String = key.extract()?;
        match rules::OPTIONS.iter().position(|&o| o == name) {
            Some(i) => values[i] = Some(value),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "{place} got an unexpected keyword argument {}",
                    repr(&key)?
                )))
            }
        }
    }
    let mut rules = base;
    let [fill, deal, relocate_single, ace_high] = values;
    let text = |option: &str, value: &Bound<'_, PyAny>| -> PyResult<String> {
        match value.cast::<PyString>() {
            Ok(s) => Ok(s.to_cow()?.into_owned()),
            Err(_) => Err(py_err(rules::option_error(option, &repr(value)?))),
        }
    };
    if let Some(v) = fill {
        let t = text("fill", &v)?;
        rules.fill = rules::FillRule::from_name(&t)
            .ok_or_else(|| py_err(rules::option_error("fill", &repr(&v).unwrap_or(t))))?;
    }
    if let Some(v) = deal {
        let t = text("deal", &v)?;
        rules.deal = rules::DealRule::from_name(&t)
            .ok_or_else(|| py_err(rules::option_error("deal", &repr(&v).unwrap_or(t))))?;
    }
    for (option, value, slot) in [
        (
            "relocate_single",
            relocate_single,
            &mut rules.relocate_single,
        ),
        ("ace_high", ace_high, &mut rules.ace_high),
    ] {
        if let Some(v) = value {
            match v.cast::<PyBool>() {
                Ok(b) => *slot = b.is_true(),
                Err(_) => return Err(py_err(rules::option_error(option, &repr(&v)?))),
            }
        }
    }
    Ok(rules)
}

py_methods!(PyRules [value] {
    #[new]
    #[pyo3(signature = (**options), text_signature = "(*, fill='top', deal='free', relocate_single=False, ace_high=True)")]
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

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        self.0.repr()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyRules>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }
});
