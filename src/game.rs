//! `Game`: a game in progress behind a lock, and deck arguments.

use crate::arguments::{
    int_arg, is_reference, repr, seed_arg, str_arg, type_name, value_error, Arg, U64_END,
};
use crate::cards::{card_tuple, PyCard};
use crate::deals::{kpat_arg, pysol_arg};
use crate::errors::{OrPyErr, PositionError};
use crate::moves::{move_arg, PyMove};
use crate::protocols::{display, lock, py_methods};
use crate::rules::{rules_arg, rules_or, PyRules};
use crate::surrogates::text_of;
use acesup::{
    deck_from_kpat, deck_from_pysol, parse_cards, Card, Game, Move, Position, Rng, Rules, Spaces,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString, PyTuple, PyType};
use std::sync::{Mutex, MutexGuard};

/// A game of Aces Up in progress: the position, the moves played and the strategy
/// stream. Made by `Game.from_seed`, `Game.from_deck` or `Game.from_str`; `==`
/// compares positions; mutable and unhashable.
#[pyclass(frozen, module = "acesup._core", name = "Game")]
pub struct PyGame(Mutex<Game>);

impl PyGame {
    pub fn new_object(py: Python<'_>, game: Game) -> PyResult<Py<PyGame>> {
        Py::new(py, PyGame(Mutex::new(game)))
    }

    pub fn game(&self) -> MutexGuard<'_, Game> {
        lock(&self.0)
    }

    /// A copy of the game, taken under the lock (so that converting it to Python
    /// objects happens without it).
    fn snapshot(&self) -> Game {
        self.game().clone()
    }

    /// The same position (one lock at a time: `game == game` must not deadlock).
    fn equals(&self, other: &PyGame, _py: Python<'_>) -> bool {
        let mine = self.snapshot();
        mine == other.snapshot()
    }
}

/// The cards of a deck argument: R6.2 text, or a sequence of `Card` or card texts.
fn deck_arg(deck: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(text) = deck.cast::<PyString>() {
        return parse_cards(&text_of(text)?).or_py();
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
    // A deck with a length is read whole, to name its length; one without (an
    // iterator, which may never end) up to the card past the largest deck.
    static SIZED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let endless = !deck.is_instance(SIZED.import(py, "collections.abc", "Sized")?)?;
    let mut cards = Vec::new();
    for (position, item) in deck.try_iter()?.enumerate() {
        let item = item?;
        if endless && position == acesup::DECK_SIZE {
            return Err(acesup::deck_too_long()).or_py();
        }
        if let Ok(card) = item.cast::<PyCard>() {
            cards.push(card.get().0);
        } else if let Ok(text) = item.cast::<PyString>() {
            cards.push(Card::parse(&text_of(text)?).or_py()?);
        } else if is_reference(&item, "Card")? {
            cards.push(Card::parse(&item.str()?.to_cow()?).or_py()?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "deck[{position}] must be a Card or a card text, got {}",
                type_name(&item)
            )));
        }
    }
    Ok(cards)
}

/// A new, writable one-dimensional NumPy array of `dtype` over a copy of `bytes`
/// (`numpy.frombuffer` of a bytearray): a Game's observation or mask row.
fn numpy_row<'py>(py: Python<'py>, bytes: &[u8], dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let buffer = PyByteArray::new(py, bytes);
    FROMBUFFER
        .import(py, "numpy", "frombuffer")?
        .call1((buffer, dtype))
}

fn move_list<'py>(py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, moves.iter().map(|&m| PyMove(m)))
}

py_methods!(PyGame [mutable, equatable] {
    #[new]
    #[pyo3(signature = (*_args, **_kwargs), text_signature = "(*args, **kwargs)")]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(PyTypeError::new_err(
            "make a Game with Game.from_seed(), Game.from_deck() or Game.from_str()",
        ))
    }

    /// The game dealt from `deck_from_seed(seed, rules)` (the layout's deck shuffled),
    /// whose strategy stream continues the shuffle's generator (RNG.md).
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

    /// The game of kpat's deal number `n` (R8), under `Rules.kpat()` unless `rules`
    /// says otherwise; the strategy stream is `Rng(0)`.
    #[classmethod]
    #[pyo3(signature = (n, rules = None))]
    fn from_kpat(
        cls: &Bound<'_, PyType>,
        n: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Self>> {
        let deck = deck_from_kpat(kpat_arg(n)?).or_py()?;
        let rules = rules_or(rules, Rules::kpat())?;
        PyGame::new_object(cls.py(), Game::from_deck(&deck, rules, 0).or_py()?)
    }

    /// The game of PySolFC's game number `n` (R8), under `Rules.pysol()` unless
    /// `rules` says otherwise; the strategy stream is `Rng(0)`.
    #[classmethod]
    #[pyo3(signature = (n, rules = None))]
    fn from_pysol(
        cls: &Bound<'_, PyType>,
        n: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Self>> {
        let deck = deck_from_pysol(pysol_arg(n)?).or_py()?;
        let rules = rules_or(rules, Rules::pysol())?;
        PyGame::new_object(cls.py(), Game::from_deck(&deck, rules, 0).or_py()?)
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

    /// The piles (`rules.piles` of them), bottom card first.
    #[getter]
    fn piles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.snapshot();
        let piles = (0..game.position().piles())
            .map(|p| card_tuple(py, &game.position().pile(p)))
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

    /// The reserve's cards (R2.4): empty, or its one card.
    #[getter]
    fn reserve<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.snapshot();
        card_tuple(py, game.position().reserve_card().as_slice())
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

    /// Over with the win score reached: all but the top rank of each suit discarded (R4.2).
    #[getter]
    fn is_won(&self) -> bool {
        self.game().is_won()
    }

    /// The position as an observation row of docs/BATCH.md (the pile grid, the
    /// discard flags, the stock count; never the stock's order): a new (P·H + D + 1,)
    /// int8 array, the row a `Batch` shows for a slot in this position.
    #[getter]
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let row = {
            let game = self.game();
            Spaces::new(game.rules()).observation_of(game.position())
        };
        let bytes: Vec<u8> = row.iter().map(|&cell| cell as u8).collect();
        numpy_row(py, &bytes, "int8")
    }

    /// The legal moves as an action mask of docs/BATCH.md: a new (A,) bool array,
    /// True at the action of each legal move (all False when the game is over),
    /// the row a `Batch` shows for a slot in this position.
    #[getter]
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let row = {
            let game = self.game();
            Spaces::new(game.rules()).action_mask_of(game.position())
        };
        numpy_row(py, &row, "bool")
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
            Ok(PositionError::new_err(format!(
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
        // Each move played as it is read, so that a pickle fails on its first bad
        // move, whichever way it is bad, and a history longer than the game can hold
        // fails on its first move past the end; Ctrl-C stops an endless one that
        // only moves a lone card back and forth.
        let start = self.game().start_position();
        let mut game = Game::replay(start, self.game().history(), Rng::new(0)).or_py()?;
        for mv in history.try_iter()? {
            state.py().check_signals()?;
            game.play(move_arg(&mv?, "play()")?).or_py()?;
        }
        let stream = dict
            .get_item("stream")?
            .ok_or_else(|| PyValueError::new_err("stream"))?;
        *game.rng_mut() = Rng::new(seed_arg(&stream, "seed")?);
        *self.game() = game;
        Ok(())
    }
});
