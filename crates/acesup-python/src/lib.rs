//! The Python bindings: `acesup._core`. A thin translation layer over the engine,
//! which decides everything: argument conversion and checking (as the reference
//! engine checks them), errors as the classes of `acesup.errors`, and the GIL
//! released around batch play-outs. No rule logic lives here.
//!
//! Value types (`Card`, `Move`, `Rules`, `Stats`) are frozen. `Game` and `Rng` are
//! mutable and keep their state behind a `Mutex`, held only while Rust code runs
//! (never across a call into Python), so that objects shared between Python threads
//! serialize their calls and cannot deadlock.

use acesup::cards::{self, Card, DECK_SIZE};
use acesup::game::Game;
use acesup::moves::{self, Move, MAX_PILES};
use acesup::position::Position;
use acesup::rng::{self, Rng};
use acesup::rules::{self, Rules};
use acesup::simulate::{chunks, AdaptiveChunks, Pool};
use acesup::solver::{self, Solvability};
use acesup::stats::{Stats, MAX_SCORES};
use acesup::strategies::Builtin;
use acesup::{Error, ErrorKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

mod errors {
    pyo3::import_exception!(acesup.errors, CardError);
    pyo3::import_exception!(acesup.errors, DeckError);
    pyo3::import_exception!(acesup.errors, PositionError);
    pyo3::import_exception!(acesup.errors, RulesError);
    pyo3::import_exception!(acesup.errors, MoveError);
    pyo3::import_exception!(acesup.errors, IllegalMoveError);
    pyo3::import_exception!(acesup.errors, UndoError);
    pyo3::import_exception!(acesup.errors, StrategyError);
}

/// The Python exception of an engine error.
fn py_err(e: Error) -> PyErr {
    let message = e.message;
    match e.kind {
        ErrorKind::Card => errors::CardError::new_err(message),
        ErrorKind::Deck => errors::DeckError::new_err(message),
        ErrorKind::Position => errors::PositionError::new_err(message),
        ErrorKind::Rules => errors::RulesError::new_err(message),
        ErrorKind::Move => errors::MoveError::new_err(message),
        ErrorKind::IllegalMove => errors::IllegalMoveError::new_err(message),
        ErrorKind::Undo => errors::UndoError::new_err(message),
        ErrorKind::Strategy => errors::StrategyError::new_err(message),
        ErrorKind::Value => PyValueError::new_err(message),
    }
}

trait OrPyErr<T> {
    fn or_py(self) -> PyResult<T>;
}

impl<T> OrPyErr<T> for acesup::Result<T> {
    fn or_py(self) -> PyResult<T> {
        self.map_err(py_err)
    }
}

/// Lock a mutex, whatever a panicking holder left in it (nothing panics while
/// holding one, and the engine's values stay valid anyway).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---------------------------------------------------------------------------
// Arguments

/// `type(value).__name__`.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// `repr(value)`.
fn repr(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.repr()?.to_string())
}

/// The Python `repr` of a move: `Move.discard(2)`, `Move.fill(2, 0, index=3)`, `Move.deal()`.
fn move_repr(mv: Move) -> String {
    match mv {
        Move::Discard(p) => format!("Move.discard({p})"),
        Move::Fill { src, dst, index: 0 } => format!("Move.fill({src}, {dst})"),
        Move::Fill { src, dst, index } => format!("Move.fill({src}, {dst}, index={index})"),
        Move::Deal => "Move.deal()".to_string(),
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
        args.push(format!("relocate_single={}", py_bool(rules.relocate_single)));
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
    format!("Rules({})", args.join(", "))
}

/// The Python `repr` of statistics: `Stats(histogram=(...))`.
fn stats_repr(stats: &Stats) -> String {
    let counts: Vec<String> = stats.histogram().iter().map(u64::to_string).collect();
    format!("Stats(histogram=({}))", counts.join(", "))
}

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

/// `acesup.display.<function>(value)`: the notebook pictures are drawn once, in
/// Python, for both engines.
fn display(value: &Bound<'_, PyAny>, function: &str) -> PyResult<String> {
    value
        .py()
        .import("acesup.display")?
        .call_method1(function, (value,))?
        .extract()
}

const U64_END: i128 = 1 << 64;

/// What an int argument must be, as the reference words it.
fn requirement(low: i128, high: Option<i128>) -> String {
    match (low, high) {
        (0, None) => "a non-negative int".to_string(),
        (1, None) => "a positive int".to_string(),
        (low, None) => format!("an int >= {low}"),
        (low, Some(U64_END)) => format!("an int in [{low}, 2**64)"),
        (low, Some(high)) => format!("an int from {low} to {}", high - 1),
    }
}

/// The Python exception for an out-of-range int argument.
type RangeError = fn(String) -> PyErr;

fn value_error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// `value` as a Python int with `low <= value < high` (no upper bound for `None`),
/// as the reference's `int_arg`: anything with `__index__` counts, a bool never
/// does. `TypeError` for a non-int, `error` when out of range, both worded
/// `<name> must be <requirement>, got <type or value>`.
fn int_object<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    low: i128,
    high: Option<i128>,
    error: RangeError,
) -> PyResult<Bound<'py, PyAny>> {
    let type_error = || {
        PyTypeError::new_err(format!(
            "{name} must be {}, got {}",
            requirement(low, high),
            type_name(value)
        ))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    let int = if value.is_exact_instance_of::<PyInt>() {
        value.clone()
    } else if value.get_type().hasattr("__index__")? {
        static INDEX: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        INDEX
            .import(value.py(), "operator", "index")?
            .call1((value,))?
    } else {
        return Err(type_error());
    };
    if int.lt(low)? || high.map_or(Ok(false), |h| int.ge(h))? {
        return Err(error(format!(
            "{name} must be {}, got {}",
            requirement(low, high),
            int.str()?
        )));
    }
    Ok(int)
}

/// [`int_object`] as an `i128`; with no upper bound, a larger int is `i128::MAX`.
fn int_arg(
    value: &Bound<'_, PyAny>,
    name: &str,
    low: i128,
    high: Option<i128>,
    error: RangeError,
) -> PyResult<i128> {
    Ok(int_object(value, name, low, high, error)?
        .extract::<i128>()
        .unwrap_or(i128::MAX))
}

/// An argument that may be left out: unlike with `Option`, an explicit None is a
/// value given (and refused where the reference refuses it).
enum Arg<'py> {
    Omitted,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

impl<'py> Arg<'py> {
    /// The value given, or `default()` when left out.
    fn or<T>(
        &self,
        default: T,
        convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> PyResult<T> {
        match self {
            Arg::Omitted => Ok(default),
            Arg::Given(value) => convert(value),
        }
    }
}

/// A seed: an int in [0, 2**64).
fn seed_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    Ok(int_arg(value, name, 0, Some(U64_END), value_error)? as u64)
}

/// `rules`, or the standard rules for None; `TypeError` for anything else.
fn rules_arg(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    match rules {
        None => Ok(Rules::standard()),
        Some(r) if r.is_none() => Ok(Rules::standard()),
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

/// A `str` argument, or `TypeError` worded by `message(type name)`.
fn str_arg(value: &Bound<'_, PyAny>, message: impl FnOnce(String) -> String) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(PyTypeError::new_err(message(type_name(value)))),
    }
}

/// A move given as a `Move` or its text (`play`, `is_legal`).
fn move_arg(value: &Bound<'_, PyAny>, place: &str) -> PyResult<Move> {
    if let Ok(m) = value.cast::<PyMove>() {
        return Ok(m.get().0);
    }
    let text = str_arg(value, |t| {
        format!("{place} takes a Move or a move text, got {t}")
    })?;
    Move::parse(&text).or_py()
}

// ---------------------------------------------------------------------------
// Card

/// A playing card (RULES.md R1.1), an immutable value. `Card(text)` parses R6.1
/// text; `CardError` for anything else, `TypeError` for a non-string.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    module = "acesup._core",
    name = "Card",
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(Card);

/// The 52 Card objects, made once and shared: the engine's cards become these.
fn card_objects(py: Python<'_>) -> PyResult<&[Py<PyCard>]> {
    static CARDS: PyOnceLock<Vec<Py<PyCard>>> = PyOnceLock::new();
    let cards = CARDS.get_or_try_init(py, || {
        Card::all()
            .map(|c| Py::new(py, PyCard(c)))
            .collect::<PyResult<_>>()
    })?;
    Ok(cards)
}

/// Cards as a tuple of the shared Card objects.
fn card_tuple<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyTuple>> {
    let objects = card_objects(py)?;
    PyTuple::new(py, cards.iter().map(|c| &objects[c.index()]))
}

fn parse_card(text: &Bound<'_, PyAny>) -> PyResult<Card> {
    let is_int = text.is_instance_of::<PyInt>();
    let text = str_arg(text, |t| {
        let hint = if is_int {
            " (use Card.from_index for an index)"
        } else {
            ""
        };
        format!("Card() takes a card text such as 'Td', got {t}{hint}")
    })?;
    Card::parse(&text).or_py()
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard(parse_card(text)?))
    }

    /// The same as `Card(text)`.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard(parse_card(text)?))
    }

    /// The card with this index (R1.1); `CardError` unless 0 <= index <= 51.
    #[classmethod]
    fn from_index(_cls: &Bound<'_, PyType>, index: &Bound<'_, PyAny>) -> PyResult<Self> {
        let i = int_arg(index, "a card index", 0, Some(DECK_SIZE as i128), |m| {
            errors::CardError::new_err(m)
        })?;
        Ok(PyCard(Card::from_index(i as usize).or_py()?))
    }

    /// The rank number, 2..14 (A = 14).
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }

    /// One of "cdhs".
    #[getter]
    fn suit(&self) -> char {
        self.0.suit_char()
    }

    /// 0..51: 13 * suit number + (rank - 2).
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    /// `format(card, "u")` is `T♦`; any other spec formats the canonical text as a str.
    fn __format__<'py>(&self, py: Python<'py>, spec: &str) -> PyResult<Bound<'py, PyAny>> {
        if spec == "u" {
            return Ok(PyString::new(py, &self.0.unicode()).into_any());
        }
        PyString::new(py, &self.0.to_string()).call_method1("__format__", (spec,))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyCard>(), (self.0.to_string(),)))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

// ---------------------------------------------------------------------------
// Move

/// A move (R2), an immutable value, well-formed but not necessarily legal. Moves
/// compare and sort in R3 order. `Move(text)` is `Move.parse(text)`.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    module = "acesup._core",
    name = "Move",
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyMove(Move);

/// A pile argument: an int from 0 to 3, else `MoveError` (`TypeError` for a non-int).
fn pile_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    int_arg(value, name, 0, Some(MAX_PILES as i128), |m| {
        errors::MoveError::new_err(m)
    })
}

fn parse_move(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    let text = str_arg(text, |t| format!("a move text must be a str, got {t}"))?;
    Ok(PyMove(Move::parse(&text).or_py()?))
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_move(text)
    }

    /// Discard the top card of `pile` (R2.1).
    #[classmethod]
    fn discard(_cls: &Bound<'_, PyType>, pile: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMove(Move::discard(pile_arg(pile, "pile")? as u8).or_py()?))
    }

    /// Move the card at `index` of pile src (from the top) onto the empty pile dst (R2.2).
    #[classmethod]
    #[pyo3(signature = (src, dst, index = Arg::Omitted), text_signature = "($cls, src, dst, index=0)")]
    fn fill(
        _cls: &Bound<'_, PyType>,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        index: Arg<'_>,
    ) -> PyResult<Self> {
        let (src, dst) = (pile_arg(src, "src")?, pile_arg(dst, "dst")?);
        let index = match index {
            Arg::Omitted => 0,
            Arg::Given(i) => {
                let i = int_object(&i, "index", 0, None, errors::MoveError::new_err)?;
                // Moves hold 64-bit indices: a larger one is refused (no position has
                // a card there anyway).
                i.extract::<u64>()
                    .map_err(|_| py_err(moves::index_too_large(&i)))?
            }
        };
        Ok(PyMove(Move::fill(src as u8, dst as u8, index).or_py()?))
    }

    /// Deal four cards from the stock (R2.3).
    #[classmethod]
    fn deal(_cls: &Bound<'_, PyType>) -> Self {
        PyMove(Move::Deal)
    }

    /// A move from R6.3 text.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_move(text)
    }

    /// "discard", "fill" or "deal".
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind()
    }

    #[getter]
    fn pile(&self) -> Option<u8> {
        match self.0 {
            Move::Discard(p) => Some(p),
            _ => None,
        }
    }

    #[getter]
    fn src(&self) -> Option<u8> {
        match self.0 {
            Move::Fill { src, .. } => Some(src),
            _ => None,
        }
    }

    #[getter]
    fn dst(&self) -> Option<u8> {
        match self.0 {
            Move::Fill { dst, .. } => Some(dst),
            _ => None,
        }
    }

    #[getter]
    fn index(&self) -> Option<u64> {
        match self.0 {
            Move::Fill { index, .. } => Some(index),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        move_repr(self.0)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyMove>(), (self.0.to_string(),)))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

// ---------------------------------------------------------------------------
// Rules

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
pub struct PyRules(Rules);

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

#[pymethods]
impl PyRules {
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
        rules_repr(&self.0)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyRules>().getattr("parse")?,
            (self.0.to_string(),),
        ))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

// ---------------------------------------------------------------------------
// Rng

/// SplitMix64 (RNG.md): `Rng(seed)` with an int seed in [0, 2**64). Mutable, so
/// unhashable; `==` compares states.
#[pyclass(frozen, module = "acesup._core", name = "Rng")]
pub struct PyRng(Mutex<Rng>);

#[pymethods]
impl PyRng {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRng(Mutex::new(Rng::new(seed_arg(seed, "seed")?))))
    }

    /// The current state: `Rng(rng.state)` continues exactly where rng is.
    #[getter]
    fn state(&self) -> u64 {
        lock(&self.0).state()
    }

    /// The next 64-bit output.
    fn next_u64(&self) -> u64 {
        lock(&self.0).next_u64()
    }

    /// A uniform int in [0, n); `ValueError` unless 1 <= n < 2**64.
    fn below(&self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        let n = int_arg(n, "n", 1, Some(U64_END), value_error)? as u64;
        Ok(lock(&self.0).below(n))
    }

    /// An independent generator in the same state.
    fn copy(&self) -> Self {
        PyRng(Mutex::new(*lock(&self.0)))
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyRng>() {
            Ok(o) => {
                let theirs = *lock(&o.get().0);
                let equal = *lock(&self.0) == theirs;
                PyBool::new(py, equal).to_owned().into_any().unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __repr__(&self) -> String {
        format!("Rng({})", lock(&self.0).state())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, (u64,)) {
        (py.get_type::<PyRng>(), (lock(&self.0).state(),))
    }
}

// ---------------------------------------------------------------------------
// Stats

/// How many games ended with each score 0..48, with the figures derived from it,
/// and optionally every game's score, kept as a `bytes` object so that `scores`
/// can view it without a copy.
#[pyclass(frozen, module = "acesup._core", name = "Stats")]
pub struct PyStats {
    stats: Stats,
    scores: Option<Py<PyBytes>>,
}

impl PyStats {
    fn new_value(stats: Stats) -> Self {
        PyStats {
            stats,
            scores: None,
        }
    }

    /// With per-game scores, known to agree with `stats`.
    fn with_scores(py: Python<'_>, stats: Stats, scores: &[u8]) -> Self {
        PyStats {
            stats,
            scores: Some(PyBytes::new(py, scores).unbind()),
        }
    }

    fn score_bytes<'a>(&'a self, py: Python<'a>) -> Option<&'a [u8]> {
        self.scores.as_ref().map(|b| b.as_bytes(py))
    }
}

/// The bytes of a `scores` argument: any flat buffer of unsigned bytes.
fn scores_arg(scores: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = scores.py();
    static MEMORYVIEW: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let memoryview = MEMORYVIEW.import(py, "builtins", "memoryview")?;
    let view = memoryview.call1((scores,)).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(py) {
            PyTypeError::new_err(format!(
                "scores must be bytes (or a flat buffer of unsigned bytes) or None, got {}",
                type_name(scores)
            ))
        } else {
            e
        }
    })?;
    let format: String = view.getattr("format")?.extract()?;
    let ndim: usize = view.getattr("ndim")?.extract()?;
    if format != "B" || ndim != 1 {
        return Err(PyTypeError::new_err(format!(
            "scores must be a flat buffer of unsigned bytes, got format {} with {ndim} dimensions",
            repr(&PyString::new(py, &format))?
        )));
    }
    view.call_method0("tobytes")?.extract()
}

#[pymethods]
impl PyStats {
    #[new]
    #[pyo3(signature = (histogram, scores = None))]
    fn new(histogram: &Bound<'_, PyAny>, scores: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let py = histogram.py();
        static ITERABLE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let iterable = ITERABLE.import(py, "collections.abc", "Iterable")?;
        if histogram.is_instance_of::<PyString>()
            || histogram.is_instance_of::<PyBytes>()
            || !histogram.is_instance(iterable)?
        {
            return Err(PyTypeError::new_err(format!(
                "histogram must be a sequence of {MAX_SCORES} ints, got {}",
                type_name(histogram)
            )));
        }
        let mut counts = Vec::new();
        for (score, count) in histogram.try_iter()?.enumerate() {
            let name = format!("histogram[{score}]");
            let count = int_object(&count?, &name, 0, None, value_error)?;
            // This engine counts in 64 bits (the reference has no bound).
            let count = count.extract::<u64>().map_err(|_| {
                PyValueError::new_err(format!(
                    "{name} must be below 2**64 in the native engine, got {count}"
                ))
            })?;
            counts.push(count);
        }
        let stats = Stats::from_histogram(&counts).or_py()?;
        match scores {
            Some(s) if !s.is_none() => {
                let scores = scores_arg(s)?;
                stats.check_scores(&scores).or_py()?;
                Ok(PyStats::with_scores(py, stats, &scores))
            }
            _ => Ok(PyStats::new_value(stats)),
        }
    }

    /// No games: the neutral element of `+`.
    #[classmethod]
    fn empty(_cls: &Bound<'_, PyType>) -> Self {
        PyStats::new_value(Stats::default())
    }

    #[getter]
    fn histogram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.stats.histogram())
    }

    /// Every game's score in game-index order, as a read-only NumPy uint8 array
    /// viewing the stored bytes, or None when they were not recorded.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(bytes) = &self.scores else {
            return Ok(None);
        };
        static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "uint8")?;
        Ok(Some(frombuffer.call((bytes,), Some(&kwargs))?))
    }

    #[getter]
    fn games(&self) -> u128 {
        self.stats.games()
    }

    /// Games won: those that ended with 48 cards discarded.
    #[getter]
    fn wins(&self) -> u64 {
        self.stats.wins()
    }

    #[getter]
    fn losses(&self) -> u128 {
        self.stats.losses()
    }

    /// nan when there are no games.
    #[getter]
    fn win_rate(&self) -> f64 {
        self.stats.win_rate()
    }

    /// The Wilson 95% interval on the win rate; (0.0, 1.0) when there are no games.
    #[getter]
    fn ci95(&self) -> (f64, f64) {
        self.stats.ci95()
    }

    /// nan when there are no games.
    #[getter]
    fn mean_score(&self) -> f64 {
        self.stats.mean_score()
    }

    /// The games of both, one after the other: scores are kept when both have
    /// them, a Stats of no games counting as an empty record.
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PyStats>() else {
            return Ok(py.NotImplemented());
        };
        let other = other.get();
        let stats = self.stats.merge(&other.stats).or_py()?;
        let parts: Vec<Option<&[u8]>> = [self, other]
            .into_iter()
            .filter(|s| s.stats.games() > 0)
            .map(|s| s.score_bytes(py))
            .collect();
        let sum = match parts.iter().copied().collect::<Option<Vec<&[u8]>>>() {
            Some(parts) if !parts.is_empty() => PyStats::with_scores(py, stats, &parts.concat()),
            _ => PyStats::new_value(stats),
        };
        Ok(Py::new(py, sum)?.into_any())
    }

    /// `sum()` starts from the int 0.
    fn __radd__(slf: Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let zero =
            other.is_instance_of::<PyInt>() && !other.is_instance_of::<PyBool>() && other.eq(0)?;
        Ok(if zero {
            slf.into_any().unbind()
        } else {
            py.NotImplemented()
        })
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<PyStats>() else {
            return py.NotImplemented();
        };
        let other = other.get();
        let equal = self.stats == other.stats && self.score_bytes(py) == other.score_bytes(py);
        match op {
            CompareOp::Eq => PyBool::new(py, equal).to_owned().into_any().unbind(),
            CompareOp::Ne => PyBool::new(py, !equal).to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.stats, self.score_bytes(py)).hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let histogram = stats_repr(&self.stats);
        Ok(match &self.scores {
            None => histogram,
            Some(bytes) => format!(
                "{}, scores={})",
                &histogram[..histogram.len() - 1],
                repr(bytes.bind(py))?
            ),
        })
    }

    fn __str__(&self) -> String {
        self.stats.to_string()
    }

    /// A small table of the figures, for notebooks (`acesup.display.stats_html`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "stats_html")
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyType>,
        (Bound<'py, PyTuple>, Option<Bound<'py, PyBytes>>),
    )> {
        let scores = self.scores.as_ref().map(|b| b.bind(py).clone());
        Ok((py.get_type::<PyStats>(), (self.histogram(py)?, scores)))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

// ---------------------------------------------------------------------------
// Game

/// A game of Aces Up in progress: the position, the moves played and the strategy
/// stream. Made by `Game.from_seed`, `Game.from_deck` or `Game.from_str`; `==`
/// compares positions; mutable and unhashable.
#[pyclass(frozen, module = "acesup._core", name = "Game")]
pub struct PyGame(Mutex<Game>);

impl PyGame {
    fn new_object(py: Python<'_>, game: Game) -> PyResult<Py<PyGame>> {
        Py::new(py, PyGame(Mutex::new(game)))
    }

    fn game(&self) -> MutexGuard<'_, Game> {
        lock(&self.0)
    }

    /// A copy of the game, taken under the lock (so that converting it to Python
    /// objects happens without it).
    fn snapshot(&self) -> Game {
        self.game().clone()
    }
}

/// The cards of a deck argument: R6.2 text, or a sequence of `Card` or card texts.
fn deck_arg(deck: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(text) = deck.cast::<PyString>() {
        return cards::parse_cards(&text.to_cow()?).or_py();
    }
    let py = deck.py();
    static SET: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static MAPPING: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static ITERABLE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    if deck.is_instance(SET.import(py, "collections.abc", "Set")?)?
        || deck.is_instance(MAPPING.import(py, "collections.abc", "Mapping")?)?
        || !deck.is_instance(ITERABLE.import(py, "collections.abc", "Iterable")?)?
    {
        return Err(PyTypeError::new_err(format!(
            "a deck must be a str or a sequence of cards, got {}",
            type_name(deck)
        )));
    }
    let mut cards = Vec::new();
    for (position, item) in deck.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(card) = item.cast::<PyCard>() {
            cards.push(card.get().0);
        } else if let Ok(text) = item.cast::<PyString>() {
            cards.push(Card::parse(&text.to_cow()?).or_py()?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "deck[{position}] must be a Card or a card text, got {}",
                type_name(&item)
            )));
        }
    }
    Ok(cards)
}

fn move_list<'py>(py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, moves.iter().map(|&m| PyMove(m)))
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(PyTypeError::new_err(
            "make a Game with Game.from_seed(), Game.from_deck() or Game.from_str()",
        ))
    }

    /// The game dealt from `deck_from_seed(seed)`, whose strategy stream continues
    /// the shuffle's generator (RNG.md).
    #[classmethod]
    #[pyo3(signature = (seed, rules = None))]
    fn from_seed(
        cls: &Bound<'_, PyType>,
        seed: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Self>> {
        let seed = seed_arg(seed, "seed")?;
        let rules = rules_arg(rules)?;
        PyGame::new_object(cls.py(), Game::from_seed(seed, rules))
    }

    /// The game dealt from `deck` (R1.3), with the strategy stream `Rng(seed)`.
    #[classmethod]
    #[pyo3(signature = (deck, rules = None, seed = Arg::Omitted), text_signature = "($cls, deck, rules=None, seed=0)")]
    fn from_deck(
        cls: &Bound<'_, PyType>,
        deck: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Arg<'_>,
    ) -> PyResult<Py<Self>> {
        let cards = deck_arg(deck)?;
        let rules = rules_arg(rules)?;
        let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
        PyGame::new_object(cls.py(), Game::from_deck(&cards, rules, seed).or_py()?)
    }

    /// The position of R6.5 text, with no history and the strategy stream `Rng(seed)`.
    #[classmethod]
    #[pyo3(signature = (text, seed = Arg::Omitted), text_signature = "($cls, text, seed=0)")]
    fn from_str(
        cls: &Bound<'_, PyType>,
        text: &Bound<'_, PyAny>,
        seed: Arg<'_>,
    ) -> PyResult<Py<Self>> {
        let text = str_arg(text, |t| format!("a position text must be a str, got {t}"))?;
        let pos = Position::parse(&text).or_py()?;
        let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
        PyGame::new_object(cls.py(), Game::from_position(pos, Rng::new(seed)))
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(*self.game().rules())
    }

    /// The four piles, bottom card first.
    #[getter]
    fn piles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.snapshot();
        let piles = (0..game.position().piles())
            .map(|p| card_tuple(py, game.position().pile(p)))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, piles)
    }

    /// The cards not yet dealt, in deal order.
    #[getter]
    fn stock<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.snapshot();
        card_tuple(py, game.position().stock())
    }

    /// The discarded cards, in discard order.
    #[getter]
    fn discards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.snapshot();
        card_tuple(py, game.position().discards())
    }

    /// The number of cards discarded (R4.2).
    #[getter]
    fn score(&self) -> usize {
        self.game().score()
    }

    /// The moves played, oldest first.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let history = self.game().history().to_vec();
        PyTuple::new(py, history.into_iter().map(PyMove))
    }

    /// No move is legal (R4.1).
    #[getter]
    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    /// Over with 48 cards discarded (R4.2).
    #[getter]
    fn is_won(&self) -> bool {
        self.game().is_won()
    }

    /// The legal moves in R3 order.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.game().legal_moves();
        move_list(py, &moves)
    }

    /// Whether `move` (a Move or its text) is legal here.
    #[pyo3(name = "is_legal")]
    fn is_legal_py(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mv = move_arg(r#move, "is_legal()")?;
        Ok(self.game().is_legal(mv))
    }

    /// Plays `move` (a Move or its text): `IllegalMoveError` with the R7 reason.
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_arg(r#move, "play()")?;
        self.game().play(mv).or_py()
    }

    /// Takes back the last move played and returns it: `UndoError` when none.
    fn undo(&self) -> PyResult<PyMove> {
        Ok(PyMove(self.game().undo().or_py()?))
    }

    /// A uniform int in [0, n) from the strategy stream (RNG.md).
    fn randbelow(&self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        let n = int_arg(n, "n", 1, Some(U64_END), value_error)? as u64;
        Ok(self.game().randbelow(n))
    }

    /// The position as one line of R6.5 text.
    fn to_str(&self) -> String {
        self.game().to_text()
    }

    /// The tableau of R6.6.
    fn __str__(&self) -> String {
        self.game().tableau()
    }

    fn __repr__(&self) -> String {
        format!("Game.from_str('{}')", self.game().to_text())
    }

    /// The position drawn as cards, for notebooks (`acesup.display.game_svg`).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "game_svg")
    }

    /// An independent game with the same position, history and strategy stream.
    fn copy(&self) -> Self {
        PyGame(Mutex::new(self.snapshot()))
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<PyGame>() else {
            return py.NotImplemented();
        };
        let mine = self.snapshot(); // one lock at a time: `game == game` must not deadlock
        let equal = mine == other.get().snapshot();
        match op {
            CompareOp::Eq => PyBool::new(py, equal).to_owned().into_any().unbind(),
            CompareOp::Ne => PyBool::new(py, !equal).to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        }
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// A pickle holds the starting position, the moves as text and the stream's
    /// state; loading replays the moves, so a corrupt pickle raises instead of
    /// making an impossible game.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String,), Bound<'py, PyDict>)> {
        let game = self.snapshot();
        let state = PyDict::new(py);
        let history: Vec<String> = game.history().iter().map(Move::to_string).collect();
        state.set_item("history", PyList::new(py, history)?)?;
        state.set_item("stream", game.rng().state())?;
        Ok((
            py.get_type::<PyGame>().getattr("from_str")?,
            (game.start_position().to_text(),),
            state,
        ))
    }

    /// Replays the pickled history on the starting position (see `__reduce__`).
    fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let bad = || -> PyResult<PyErr> {
            Ok(errors::PositionError::new_err(format!(
                "not the pickled state of a Game: {}",
                repr(state)?
            )))
        };
        let Ok(dict) = state.cast::<PyDict>() else {
            return Err(bad()?);
        };
        let keys: Vec<String> = dict
            .keys()
            .iter()
            .filter_map(|k| k.extract().ok())
            .collect();
        if dict.len() != 2
            || !keys.iter().any(|k| k == "history")
            || !keys.iter().any(|k| k == "stream")
        {
            return Err(bad()?);
        }
        let history = dict
            .get_item("history")?
            .ok_or_else(|| PyValueError::new_err("history"))?;
        for mv in history.try_iter()? {
            self.play(&mv?)?;
        }
        let stream = dict
            .get_item("stream")?
            .ok_or_else(|| PyValueError::new_err("stream"))?;
        let stream = seed_arg(&stream, "seed")?;
        *self.game().rng_mut() = Rng::new(stream);
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Solver

/// What `solve` found, an immutable value (docs/API.md, Solution).
#[pyclass(frozen, eq, hash, module = "acesup._core", name = "Solution")]
#[derive(PartialEq, Eq, Hash)]
pub struct PySolution(solver::Solution);

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

/// A count that the native engine keeps in 64 bits: a non-negative int, below 2**64.
fn count_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let count = int_object(value, name, 0, None, value_error)?;
    count.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be below 2**64 in the native engine, got {count}"
        ))
    })
}

/// The search limits of `solve` and `solvability`: `node_limit` None or an int >= 1
/// (a larger one than 2**64 - 1 is no limit), `time_limit` None or a positive
/// number of seconds (infinity is no limit).
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
            std::time::Duration::try_from_secs_f64(t.extract::<f64>()?).ok()
        }
        _ => None,
    };
    Ok(solver::Limits {
        nodes,
        time,
        cancel: None,
    })
}

/// Run `work` with the GIL released, on a thread of its own, while this thread
/// checks for Ctrl-C: on a signal, `work` is told to stop (through the limits'
/// cancel flag) and the exception is raised once it has.
fn interruptible<T: Send>(
    py: Python<'_>,
    limits: &mut solver::Limits,
    work: impl FnOnce(&solver::Limits) -> T + Send,
) -> PyResult<T> {
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    limits.cancel = Some(cancel.clone());
    let limits = &*limits;
    let (result, signal) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel::<()>();
            let worker = scope.spawn(move || {
                let result = work(limits);
                let _ = done.send(());
                result
            });
            let mut signal = Ok(());
            while let Err(RecvTimeoutError::Timeout) =
                finished.recv_timeout(std::time::Duration::from_millis(5))
            {
                if signal.is_ok() {
                    signal = Python::attach(|py| py.check_signals());
                    if signal.is_err() {
                        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            }
            (worker.join(), signal)
        })
    });
    signal?;
    result.map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the solver failed"))
}

#[pymethods]
impl PySolution {
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

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// How many deals of a batch can be won, an immutable value (docs/API.md,
/// Solvability).
#[pyclass(frozen, eq, hash, module = "acesup._core", name = "Solvability")]
#[derive(PartialEq, Eq, Hash)]
pub struct PySolvability(Solvability);

#[pymethods]
impl PySolvability {
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

    /// `sum()` starts from the int 0.
    fn __radd__(slf: Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let zero =
            other.is_instance_of::<PyInt>() && !other.is_instance_of::<PyBool>() && other.eq(0)?;
        Ok(if zero {
            slf.into_any().unbind()
        } else {
            py.NotImplemented()
        })
    }

    fn __repr__(&self) -> String {
        self.0.repr()
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

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// Whether `game` can still be won from its current position, knowing the stock,
/// with a winning line if it can (docs/SOLVER.md). The game is not changed; the
/// search runs with the GIL released, and Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (game, node_limit = None, time_limit = None))]
fn solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolution> {
    let Ok(game) = game.cast::<PyGame>() else {
        return Err(PyTypeError::new_err(format!(
            "solve() takes an acesup.Game, got {}",
            type_name(game)
        )));
    };
    let mut limits = limits_arg(node_limit, time_limit)?;
    let position = game.get().game().position().clone();
    // Most positions are solved in well under a millisecond: try on this thread
    // first, and only a search that needs more runs where Ctrl-C can stop it (from
    // the start again: the first try cost at most QUICK_NODES).
    const QUICK_NODES: u64 = 20_000;
    let started = std::time::Instant::now();
    let quick = solver::Limits {
        nodes: Some(limits.nodes.unwrap_or(u64::MAX).min(QUICK_NODES)),
        ..limits.clone()
    };
    let first = py.detach(|| solver::solve(&position, &quick));
    if first.winnable.is_some()
        || first.nodes < QUICK_NODES
        || limits.nodes.is_some_and(|n| n <= QUICK_NODES)
    {
        return Ok(PySolution(first));
    }
    limits.time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
    let solution = interruptible(py, &mut limits, |limits| solver::solve(&position, limits))?;
    Ok(PySolution(solution))
}

/// Solves games `start .. start+games-1` of master seed `seed` (RNG.md), each with
/// its own limits, on all cores (`threads=None`) or `threads` threads, with the GIL
/// released and Ctrl-C checked while it runs; the result never depends on the
/// thread count, unless a time limit stops some searches.
#[pyfunction]
#[pyo3(
    signature = (games, rules = None, seed = Arg::Omitted, *, threads = None, start = Arg::Omitted, node_limit = None, time_limit = None),
    text_signature = "(games, rules=None, seed=0, *, threads=None, start=0, node_limit=None, time_limit=None)"
)]
#[allow(clippy::too_many_arguments)]
fn solvability(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Arg<'_>,
    threads: Option<&Bound<'_, PyAny>>,
    start: Arg<'_>,
    node_limit: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolvability> {
    let games = int_object(games, "games", 0, None, value_error)?;
    let rules = rules_arg(rules)?;
    let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
    let threads = match threads {
        Some(t) if !t.is_none() => Some(int_arg(t, "threads", 1, None, value_error)?),
        _ => None,
    };
    let start = start.or(PyInt::new(py, 0).into_any(), |s| {
        int_object(s, "start", 0, None, value_error)
    })?;
    let end = start.add(&games)?;
    if end.gt(U64_END)? {
        return Err(PyValueError::new_err(format!(
            "start + games must be at most 2**64 (game indices are 64-bit), got {end}"
        )));
    }
    let mut limits = limits_arg(node_limit, time_limit)?;
    let (start, games): (u64, u64) = (
        start.extract()?,
        games.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "games must be below 2**64 in the native engine, got {games}"
            ))
        })?,
    );
    let pool =
        Pool::new(threads.map(|t| t.min(acesup::simulate::MAX_THREADS as i128) as usize)).or_py()?;
    let tally = interruptible(py, &mut limits, |limits| {
        solver::solvability(&pool, rules, seed, start, games, limits)
    })?;
    // Only a cancelled run has no tally, and then `interruptible` raised.
    tally
        .map(PySolvability)
        .ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(()))
}

// ---------------------------------------------------------------------------
// Functions

/// The seed of game `index` of a run with master seed `seed` (RNG.md).
#[pyfunction]
fn game_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    let seed = seed_arg(seed, "seed")?;
    let index = seed_arg(index, "index")?;
    Ok(rng::game_seed(seed, index))
}

/// The deck that `Game.from_seed(seed)` deals, in deal order.
#[pyfunction]
fn deck_from_seed<'py>(py: Python<'py>, seed: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let deck = rng::deck_from_seed(seed_arg(seed, "seed")?, &Rules::standard());
    let objects = card_objects(py)?;
    PyList::new(py, deck.iter().map(|c| &objects[c.index()]))
}

/// A built-in strategy as a callable (`strategy(text)`): called on a Game, it
/// returns the move the built-in would play there, or None when the game is
/// over, drawing from the game's stream as it would in play; it does not play
/// the move.
#[pyclass(frozen, module = "acesup._core", name = "BuiltinStrategy")]
pub struct PyBuiltinStrategy {
    text: String,
    builtin: Builtin,
}

#[pymethods]
impl PyBuiltinStrategy {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = str_arg(text, |t| {
            format!("strategy() takes the text of a built-in strategy, got {t}")
        })?;
        let builtin = Builtin::parse(&text).or_py()?;
        Ok(PyBuiltinStrategy { text, builtin })
    }

    /// The text it was made from, as given.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    fn __call__(&self, game: &Bound<'_, PyAny>) -> PyResult<Option<PyMove>> {
        let game = game.cast::<PyGame>().map_err(|_| {
            PyTypeError::new_err(format!(
                "a strategy is called on a Game, got {}",
                type_name(game)
            ))
        })?;
        let chosen = game.get().game().ask(&self.builtin);
        Ok(chosen.map(PyMove))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "strategy({})",
            repr(&PyString::new(py, &self.text))?
        ))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, (String,)) {
        (py.get_type::<PyBuiltinStrategy>(), (self.text.clone(),))
    }
}

/// The built-in strategy named by `text` (STRATEGIES.md), as a callable that picks
/// a game's next move.
#[pyfunction]
fn strategy(text: &Bound<'_, PyAny>) -> PyResult<PyBuiltinStrategy> {
    PyBuiltinStrategy::new(text)
}

/// A strategy argument: a built-in, or a callable with the name its errors give it.
enum StrategyArg<'py> {
    Builtin(Builtin),
    Callable {
        function: Bound<'py, PyAny>,
        shown_name: String,
    },
}

fn strategy_arg<'py>(strategy: &Bound<'py, PyAny>) -> PyResult<StrategyArg<'py>> {
    if let Ok(builtin) = strategy.cast::<PyBuiltinStrategy>() {
        // Played in Rust: the same moves as calling it, faster.
        return Ok(StrategyArg::Builtin(builtin.get().builtin.clone()));
    }
    if strategy.is_callable() {
        let qualname = strategy.getattr_opt("__qualname__")?;
        let shown_name = match qualname {
            Some(q) if q.is_truthy()? => repr(&q)?,
            _ => repr(&PyString::new(strategy.py(), &repr(strategy)?))?,
        };
        return Ok(StrategyArg::Callable {
            function: strategy.clone(),
            shown_name,
        });
    }
    let spec = str_arg(strategy, |t| {
        format!(
            "strategy must be the name of a built-in or a callable strategy(game) -> Move, got {t}"
        )
    })?;
    Ok(StrategyArg::Builtin(Builtin::parse(&spec).or_py()?))
}

/// Plays games `start .. start + games - 1` of master seed `seed` with `strategy`
/// and returns their statistics, with every game's score when `scores` is True.
/// Built-in strategies play in Rust with the GIL released, on all cores
/// (`threads=None`) or `threads` threads; the result never depends on the thread
/// count. A callable strategy plays with the GIL held, one game at a time.
#[pyfunction]
#[pyo3(
    signature = (games, strategy = Arg::Omitted, rules = None, seed = Arg::Omitted, *, threads = None, start = Arg::Omitted, scores = Arg::Omitted),
    text_signature = "(games, strategy='random', rules=None, seed=0, *, threads=None, start=0, scores=False)"
)]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    strategy: Arg<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Arg<'_>,
    threads: Option<&Bound<'_, PyAny>>,
    start: Arg<'_>,
    scores: Arg<'_>,
) -> PyResult<PyStats> {
    let games = int_object(games, "games", 0, None, value_error)?;
    let strategy = match &strategy {
        Arg::Given(s) => strategy_arg(s)?,
        Arg::Omitted => StrategyArg::Builtin(Builtin::Random(acesup::strategies::Random)),
    };
    let rules = rules_arg(rules)?;
    let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
    let threads = match threads {
        Some(t) if !t.is_none() => Some(int_arg(t, "threads", 1, None, value_error)?),
        _ => None,
    };
    let start = start.or(PyInt::new(py, 0).into_any(), |s| {
        int_object(s, "start", 0, None, value_error)
    })?;
    let keep_scores = scores.or(false, |s| match s.cast::<PyBool>() {
        Ok(b) => Ok(b.is_true()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "scores must be True or False, got {}",
            type_name(s)
        ))),
    })?;
    let end = start.add(&games)?;
    if end.gt(U64_END)? {
        return Err(PyValueError::new_err(format!(
            "start + games must be at most 2**64 (game indices are 64-bit), got {end}"
        )));
    }
    let (start, games): (u64, u128) = (start.extract()?, games.extract()?);
    let mut stats = Stats::empty(rules.win_score());
    let mut played: Option<Vec<u8>> = keep_scores.then(Vec::new);
    match strategy {
        StrategyArg::Builtin(builtin) => {
            let threads = threads.map(|t| t.min(acesup::simulate::MAX_THREADS as i128) as usize);
            let pool = Pool::new(threads).or_py()?;
            // Chunks of tens of milliseconds, with Ctrl-C checked between them.
            let mut chunks = AdaptiveChunks::new(start, games, pool.threads());
            while let Some((first, count)) = chunks.next_chunk() {
                let began = Instant::now();
                let part = match &mut played {
                    None => py.detach(|| pool.run(&builtin, rules, seed, first, count)),
                    Some(played) => {
                        let scores =
                            py.detach(|| pool.run_scores(&builtin, rules, seed, first, count));
                        played.extend_from_slice(&scores);
                        Stats::from_scores(&scores, rules.win_score()).or_py()?
                    }
                };
                stats = stats.merge(&part).or_py()?;
                chunks.took(began.elapsed());
                py.check_signals()?;
            }
        }
        StrategyArg::Callable {
            function,
            shown_name,
        } => {
            for (first, count) in chunks(start, games, 64) {
                for i in 0..count {
                    let index = first.wrapping_add(i);
                    let game = PyGame::new_object(
                        py,
                        Game::from_seed(rng::game_seed(seed, index), rules),
                    )?;
                    play_with_callable(py, &function, &shown_name, game.bind(py))?;
                    let score = game.get().game().score();
                    stats.record(score);
                    if let Some(played) = &mut played {
                        played.push(score as u8);
                    }
                }
                py.check_signals()?;
            }
        }
    }
    Ok(match played {
        None => PyStats::new_value(stats),
        Some(played) => PyStats::with_scores(py, stats, &played),
    })
}

/// Plays `game` to its end with a Python callable strategy, checking every answer:
/// `StrategyError` naming the strategy, what it returned and the position, when it
/// plays moves itself or returns anything but a legal Move. An exception raised by
/// the strategy propagates unchanged.
fn play_with_callable(
    py: Python<'_>,
    function: &Bound<'_, PyAny>,
    name: &str,
    game: &Bound<'_, PyGame>,
) -> PyResult<()> {
    let strategy_error = |message: String| errors::StrategyError::new_err(message);
    let shown = |text: String| repr(&PyString::new(py, &text));
    loop {
        let played = {
            let g = game.get().game();
            if g.is_over() {
                return Ok(());
            }
            g.history().len()
        };
        let answer = function.call1((game,))?;
        let (changed, position) = {
            let g = game.get().game();
            (g.history().len() != played, g.to_text())
        };
        if changed {
            return Err(strategy_error(format!(
                "strategy {name} changed the game it was asked about (it must return a move, not play it), now at {}",
                shown(position)?
            )));
        }
        let Ok(mv) = answer.cast::<PyMove>() else {
            return Err(strategy_error(format!(
                "strategy {name} returned {}, not a Move, in position {}",
                repr(&answer)?,
                shown(position)?
            )));
        };
        let mv = mv.get().0;
        let result = game.get().game().play(mv);
        if let Err(err) = result {
            return Err(strategy_error(format!(
                "strategy {name} returned the move {mv}, which is illegal in position {}: {err}",
                shown(position)?
            )));
        }
    }
}

/// The native engine of acesup.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyRng>()?;
    m.add_class::<PyStats>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyBuiltinStrategy>()?;
    m.add_function(wrap_pyfunction!(strategy, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(deck_from_seed, m)?)?;
    m.add_function(wrap_pyfunction!(game_seed, m)?)?;
    m.add_class::<PySolution>()?;
    m.add_class::<PySolvability>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solvability, m)?)?;
    Ok(())
}
