//! `ChanceGame`: the engine's [`ChanceGame`] for the OpenSpiel state of
//! `acesup.openspiel` (python/acesup/openspiel.py), whose methods are each one call
//! here, answered in OpenSpiel's terms: the player to move as OpenSpiel numbers
//! it, the chance outcomes as a list of (card code, probability) pairs.

use crate::errors::OrPyErr;
use crate::game::PyGame;
use crate::protocols::{lock, py_methods};
use crate::rules::{rules_arg, PyRules};
use acesup::{ChanceGame, Game, Rng, Turn, DECK_SIZE};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyTuple};
use std::sync::{Mutex, MutexGuard};

/// OpenSpiel's number for the chance player (`pyspiel.PlayerId.CHANCE`).
const CHANCE: i64 = -1;
/// OpenSpiel's number for the player of a terminal state (`pyspiel.PlayerId.TERMINAL`).
const TERMINAL: i64 = -4;

/// A game whose cards an outside chance player deals one at a time (BATCH.md
/// "Gymnasium and OpenSpiel"): `ChanceGame(rules=None, auto_discard=True)`.
#[pyclass(frozen, module = "acesup._core", name = "ChanceGame")]
pub struct PyChanceGame(Mutex<ChanceGame>);

impl PyChanceGame {
    fn chance(&self) -> MutexGuard<'_, ChanceGame> {
        lock(&self.0)
    }
}

/// The chance outcomes' pairs `(code, 1 / n)`, made once: row n - 1 holds the
/// pair of each code when n cards are unseen. A list of outcomes is then a
/// reference to each of its pairs, not a new tuple and float each (which took
/// most of a random game's time).
fn outcome_pairs(py: Python<'_>) -> PyResult<&[Vec<Py<PyTuple>>]> {
    static PAIRS: PyOnceLock<Vec<Vec<Py<PyTuple>>>> = PyOnceLock::new();
    let pairs = PAIRS.get_or_try_init(py, || {
        (1..=DECK_SIZE)
            .map(|n| {
                let p = 1.0 / n as f64;
                (0..DECK_SIZE)
                    .map(|code| {
                        Ok(PyTuple::new(
                            py,
                            [
                                code.into_pyobject(py)?.into_any(),
                                p.into_pyobject(py)?.into_any(),
                            ],
                        )?
                        .unbind())
                    })
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(pairs)
}

py_methods!(PyChanceGame [mutable] {
    /// `actions` (a pickle's) are applied in turn: the error of the first refused.
    #[new]
    #[pyo3(signature = (rules=None, auto_discard=true, actions=Vec::new()))]
    fn new(rules: Option<&Bound<'_, PyAny>>, auto_discard: bool, actions: Vec<u8>) -> PyResult<Self> {
        let chance = ChanceGame::replay(rules_arg(rules)?, auto_discard, &actions).or_py()?;
        Ok(PyChanceGame(Mutex::new(chance)))
    }

    /// An independent game in the same state.
    fn copy(&self) -> Self {
        PyChanceGame(Mutex::new(self.chance().clone()))
    }

    /// The player to move: 0, or OpenSpiel's chance (-1) or terminal (-4) player.
    fn current_player(&self) -> i64 {
        match self.chance().turn() {
            Turn::Chance => CHANCE,
            Turn::Player => 0,
            Turn::Over => TERMINAL,
        }
    }

    fn is_chance_node(&self) -> bool {
        self.chance().turn() == Turn::Chance
    }

    fn is_terminal(&self) -> bool {
        self.chance().turn() == Turn::Over
    }

    /// The legal actions, ascending: the unseen cards' codes at a chance node, the
    /// player's actions, none when the game is over or for a `player` other than
    /// the one to move.
    #[pyo3(signature = (player=None))]
    fn legal_actions<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyList>> {
        let legal = if player.is_some_and(|p| p != self.current_player()) {
            Vec::new()
        } else {
            self.chance().legal_actions()
        };
        PyList::new(py, legal)
    }

    /// The unseen cards' codes, ascending, each with its probability (uniform):
    /// `ValueError` unless chance is to move.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let codes: Vec<u8> = self.chance().chance_outcomes().collect();
        if codes.is_empty() {
            return Err(PyValueError::new_err(
                "chance_outcomes called on a state that is not a chance node",
            ));
        }
        let pairs = &outcome_pairs(py)?[codes.len() - 1];
        PyList::new(py, codes.into_iter().map(|code| &pairs[usize::from(code)]))
    }

    /// Chance draws the card of code `action`, or the player plays `action`:
    /// `ValueError` for a card already dealt or not a card, or an action outside
    /// [0, A), `IllegalMoveError` for an illegal one; the game unchanged.
    fn apply(&self, action: i64) -> PyResult<()> {
        self.chance().apply(action).or_py()
    }

    /// `[score]` once the game is over, else `[0.0]`.
    fn returns(&self) -> Vec<f64> {
        let chance = self.chance();
        let over = chance.turn() == Turn::Over;
        vec![if over { chance.score() as f64 } else { 0.0 }]
    }

    /// The cards chance is still to draw before the player acts again.
    #[getter]
    fn pending(&self) -> usize {
        self.chance().pending()
    }

    /// The codes of the cards dealt so far, in deal order.
    #[getter]
    fn dealt<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let dealt = self.chance().dealt().to_vec();
        PyList::new(py, dealt)
    }

    /// The position as a new Game with no history (None before the first P cards
    /// are dealt; during a deal, the position before it).
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Option<Py<PyGame>>> {
        let pos = self.chance().position().cloned();
        pos.map(|pos| PyGame::new_object(py, Game::from_position(pos, Rng::new(0))))
            .transpose()
    }

    /// The observation row of BATCH.md (before the first cards are dealt: empty
    /// piles, no discards, a stock of D cards).
    fn observation(&self) -> Vec<i8> {
        self.chance().observation()
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(*self.chance().rules())
    }

    #[getter]
    fn auto_discard(&self) -> bool {
        self.chance().auto_discard()
    }

    /// The position drawn (R6.6), or the cards dealt before there is one, and the
    /// cards still to draw during a deal.
    fn __str__(&self) -> String {
        self.chance().text()
    }

    /// A pickle holds the rules and every action applied; loading replays them.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (PyRules, bool, Bound<'py, PyBytes>)) {
        let chance = slf.get().chance();
        let py = slf.py();
        let state = (PyRules(*chance.rules()), chance.auto_discard(), PyBytes::new(py, chance.history()));
        (py.get_type::<PyChanceGame>(), state)
    }
});
