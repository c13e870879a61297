//! Strategies: the built-ins as callables (`strategy`), and `simulate`, which plays
//! a built-in on the engine's threads or asks a Python callable move by move.

use crate::arguments::{
    index_range, int_object, reference_game_error, repr, seed_arg, start_arg, str_arg, threads_arg,
    type_name, value_error, Arg,
};
use crate::errors::{OrPyErr, StrategyError};
use crate::game::PyGame;
use crate::interrupt::{quickly_or_interruptible, silent};
use crate::moves::PyMove;
use crate::progress::Progress;
use crate::protocols::py_methods;
use crate::rules::rules_arg;
use crate::stats::{strategy_name, Origin, PyStats};
use crate::surrogates::{restore, text_of};
use acesup::run::{cancel, Pool};
use acesup::{AskError, Builtin, ChunkedRun, Game, Random};
use pyo3::exceptions::{PyRecursionError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple, PyType};

/// A built-in strategy as a callable (`strategy(text)`): called on a Game, it
/// returns the move the built-in would play there, or None when the game is
/// over, drawing from the game's stream as it would in play; it does not play
/// the move.
#[pyclass(frozen, module = "acesup._core", name = "BuiltinStrategy")]
pub struct PyBuiltinStrategy {
    text: String,
    builtin: Builtin,
}

py_methods!(PyBuiltinStrategy [] {
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
        let Ok(game) = game.cast::<PyGame>() else {
            return Err(reference_game_error(game, "strategy")?.unwrap_or_else(|| {
                PyTypeError::new_err(format!(
                    "a strategy is called on a Game, got {}",
                    type_name(game)
                ))
            }));
        };
        // A decision may be long (montecarlo with many play-outs, lookahead on tall
        // piles): other Python threads run meanwhile, and Ctrl-C stops it. The
        // game's lock keeps other threads off this game; a cut decision gives back
        // the draws it took, so the game is as it was.
        let (py, game, builtin) = (game.py(), game.get(), &self.builtin);
        let rules = *game.game().position().rules();
        crate::optimal::prepare(py, builtin, rules)?;
        let chosen = quickly_or_interruptible(py, &silent, || {
            let mut game = game.game();
            let stream = *game.rng();
            let chosen = game.ask(builtin);
            if cancel::requested() {
                *game.rng_mut() = stream;
                return None;
            }
            Some(chosen)
        })?;
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
});

/// The built-in strategy named by `text` (STRATEGIES.md), as a callable that picks
/// a game's next move.
#[pyfunction]
pub fn strategy(text: &Bound<'_, PyAny>) -> PyResult<PyBuiltinStrategy> {
    PyBuiltinStrategy::new(text)
}

/// The names of the built-in strategies (STRATEGIES.md), in the order messages
/// list them.
#[pyfunction]
pub fn builtin_names(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, acesup::builtin_names())
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
/// `progress` and `callback` report the games played (`crate::progress`), from
/// the calling thread.
#[pyfunction]
#[pyo3(
    signature = (games, strategy = Arg::Omitted, rules = None, seed = Arg::Omitted, *, threads = None, start = Arg::Omitted, scores = Arg::Omitted, progress = Arg::Omitted, callback = None),
    text_signature = "(games, strategy='random', rules=None, seed=0, *, threads=None, start=0, scores=False, progress=False, callback=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    strategy: Arg<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Arg<'_>,
    threads: Option<&Bound<'_, PyAny>>,
    start: Arg<'_>,
    scores: Arg<'_>,
    progress: Arg<'_>,
    callback: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyStats> {
    let games = int_object(games, "games", 0, None, value_error)?;
    let name = strategy_name(match &strategy {
        Arg::Given(s) => Some(s),
        Arg::Omitted => None,
    })?;
    let strategy = match &strategy {
        Arg::Given(s) => strategy_arg(s)?,
        Arg::Omitted => StrategyArg::Builtin(Builtin::Random(Random)),
    };
    let rules = rules_arg(rules)?;
    let seed = seed.or(0, |s| seed_arg(s, "seed"))?;
    let threads = threads_arg(threads)?;
    let start = start_arg(py, start)?;
    let keep_scores = scores.or(false, |s| match s.cast::<PyBool>() {
        Ok(b) => Ok(b.is_true()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "scores must be True or False, got {}",
            type_name(s)
        ))),
    })?;
    let (start, games) = index_range(&games, &start)?;
    let progress = Progress::new(py, games, &progress, callback, "games")?;
    if keep_scores {
        // One check of the memory, shared with the reference engine.
        py.import("acesup.resources")?
            .call_method1("check_scores_fit", (games,))?;
    }
    let mut run = ChunkedRun::new(rules, seed, start, games, keep_scores);
    let played = run.played();
    let report = |py: Python<'_>| progress.update_from(py, &played);
    let ran = match strategy {
        StrategyArg::Builtin(builtin) => (|| {
            crate::optimal::prepare(py, &builtin, rules)?;
            let pool = Pool::new(threads).or_py()?;
            // Ctrl-C (or the callback's exception) raises the run's flag, which
            // stops the chunks under way within their games and the run after
            // them; a cut chunk does not count.
            quickly_or_interruptible(py, &report, || {
                let more = run.play_chunks(&pool, &builtin);
                (!cancel::requested()).then_some(more)
            })?
            .or_py()
            .map(drop)
        })(),
        StrategyArg::Callable {
            function,
            shown_name,
        } => (|| {
            let _level = Nesting::enter()?;
            let mut asker = Asker {
                function,
                name: shown_name,
                game: None,
            };
            while run
                .play_chunk_with(|game| asker.ask(game))
                .map_err(|e| asker.error(e))?
            {
                py.check_signals()?;
                report(py)?;
            }
            Ok(())
        })(),
    };
    progress.end(py, ran)?;
    let origin = Origin {
        strategy: Some(name),
        rules: Some(rules.to_string().into()),
        seed: Some(seed),
    };
    Ok(PyStats::of_run(py, run.finish()).made_by(origin))
}

/// How deep calls of `simulate` may nest on one thread (a callable strategy that
/// calls `simulate`): each level takes native stack, which must not overflow
/// whatever Python's recursion limit is (API.md; the reference engine's
/// `MAX_SIMULATE_NESTING`).
pub const MAX_SIMULATE_NESTING: usize = 16;

thread_local! {
    /// The `simulate` calls with a callable strategy under way on this thread.
    static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of `simulate` with a callable strategy on this thread, while it lives.
struct Nesting;

impl Nesting {
    /// `RecursionError` beyond [`MAX_SIMULATE_NESTING`] levels.
    fn enter() -> PyResult<Nesting> {
        let depth = NESTING.get();
        if depth >= MAX_SIMULATE_NESTING {
            return Err(PyRecursionError::new_err(format!(
                "simulate() nested more than {MAX_SIMULATE_NESTING} deep: a strategy that calls simulate() may do so at most {MAX_SIMULATE_NESTING} calls deep"
            )));
        }
        NESTING.set(depth + 1);
        Ok(Nesting)
    }
}

impl Drop for Nesting {
    fn drop(&mut self) {
        NESTING.set(NESTING.get() - 1);
    }
}

/// A Python callable strategy, asked about the games of a run one move at a time
/// through a `Game` object of each game's own.
struct Asker<'py> {
    function: Bound<'py, PyAny>,
    /// How its errors name it.
    name: String,
    /// The object of the game being played.
    game: Option<Py<PyGame>>,
}

impl Asker<'_> {
    /// The move the callable returns on `game`, which it sees as a Game object of
    /// its own (the same object throughout a game) and may draw from. An exception
    /// raised by the strategy propagates unchanged; anything but a Move is a
    /// `StrategyError` naming the strategy, what it returned and the position.
    fn ask(&mut self, game: &mut Game) -> PyResult<acesup::Move> {
        let py = self.function.py();
        let object = match &self.game {
            Some(object) if !game.history().is_empty() => object.clone_ref(py),
            _ => {
                let object = PyGame::new_object(py, game.clone())?;
                self.game = Some(object.clone_ref(py));
                object
            }
        };
        // The object holds the game while the callable looks at it, and gives it back.
        std::mem::swap(&mut *object.get().game(), game);
        let answer = self.function.call1((&object,));
        std::mem::swap(&mut *object.get().game(), game);
        let answer = answer?;
        if let Ok(mv) = answer.cast::<PyMove>() {
            return Ok(mv.get().0);
        }
        if let Ok(text) = answer.cast::<PyString>() {
            return acesup::Move::parse(&text_of(text)?).map_err(|err| {
                let message = shown(py, game.to_text()).map(|position| {
                    format!(
                        "strategy {} returned {}, which is not a move text ({}), in position {position}",
                        self.name,
                        repr(&answer).unwrap_or_default(),
                        restore(err.message)
                    )
                });
                message.map_or_else(|err| err, StrategyError::new_err)
            });
        }
        Err(StrategyError::new_err(format!(
            "strategy {} returned {}, not a Move or a move text, in position {}",
            self.name,
            repr(&answer)?,
            shown(py, game.to_text())?
        )))
    }

    /// The Python exception of a failed question: `StrategyError` naming the
    /// strategy and the position when it played moves itself or returned an
    /// illegal one.
    fn error(&self, error: AskError<PyErr>) -> PyErr {
        let py = self.function.py();
        let message = match error {
            AskError::Callback(err) => return err,
            AskError::Changed {
                before,
                after,
                position,
            } => shown(py, position).map(|position| {
                format!(
                    "strategy {} changed the game it was asked about ({}; it must return a move, not play it), now at {position}",
                    self.name,
                    describe_change(before, after)
                )
            }),
            AskError::Illegal { mv, position, error } => shown(py, position).map(|position| {
                format!(
                    "strategy {} returned the move {mv}, which is illegal in position {position}: {error}",
                    self.name
                )
            }),
        };
        message.map_or_else(|err| err, StrategyError::new_err)
    }
}

/// What a strategy did to the history of the game it was asked about, which had
/// `before` moves and has `after`: the words of the reference engine's
/// `describe_change`.
fn describe_change(before: usize, after: usize) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Greater => format!("it played {} move(s)", after - before),
        std::cmp::Ordering::Less => format!("it took back {} move(s)", before - after),
        std::cmp::Ordering::Equal => {
            "it played and took back moves, leaving the history as long as it was".to_string()
        }
    }
}

/// A position text as Python shows it in a message (`repr`).
fn shown(py: Python<'_>, text: String) -> PyResult<String> {
    repr(&PyString::new(py, &text))
}
