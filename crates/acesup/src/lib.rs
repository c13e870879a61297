//! Aces Up: the native engine.
//!
//! Plain Rust, with no Python types: the modules mirror the pure-Python reference
//! engine (`acesup.reference`) file for file, and `cargo test` runs without an
//! interpreter. The rules are in `docs/RULES.md`, the generator in `docs/RNG.md`,
//! the Python API in `docs/API.md`; the PyO3 bindings (the root crate
//! `acesup-python`, its source in the top-level `src/`) only translate.
//!
//! - [`cards`]: cards and decks (R1, R6.1, R6.2).
//! - [`moves`]: moves and their text (R2, R6.3).
//! - [`rules`]: the rule options (R1.4, R5, R6.4) and every rule (R1.2, R2-R4, R7),
//!   written once over the [`rules::Tableau`] trait.
//! - [`position`]: positions (R6.5, R6.6), a [`rules::Tableau`].
//! - [`rng`]: SplitMix64, bounded draws, the shuffle and `game_seed` (RNG.md).
//! - [`game`]: games, a position with its history and strategy stream.
//! - [`strategies`]: the built-in strategies (STRATEGIES.md).
//! - [`stats`]: score histograms and their statistics.
//! - [`simulate`]: seeded batch play-outs, on any number of threads.
//! - [`random_play`]: the random strategy's seeded games, in a loop of their own.
//! - [`cancel`]: a run's cancel flag, seen inside the long decisions (Ctrl-C).
//! - [`batch`]: many seeded games stepped at once, for a policy outside the engine (BATCH.md).
//! - [`solver`]: the clairvoyant solver and the solvability of seeded deals (SOLVER.md).
//! - [`optimal`]: the exact optimum without clairvoyance and its table (OPTIMAL.md).

pub mod batch;
pub mod cancel;
pub mod cards;
pub mod deals;
pub mod game;
pub mod hash;
pub mod moves;
pub mod optimal;
pub mod pool;
pub mod position;
pub mod random_play;
pub mod rng;
pub mod rules;
pub mod simulate;
pub mod solver;
pub mod stats;
pub mod strategies;
pub mod stream;

pub use cards::Card;
pub use game::Game;
pub use moves::Move;
pub use position::Position;
pub use rng::{deck_from_seed, game_seed, Rng};
pub use rules::Rules;
pub use solver::{solve, Solution, Solvability};
pub use stats::Stats;

use std::fmt;

/// Which exception of `acesup.errors` an [`Error`] stands for (`Value` is a plain
/// `ValueError`, `Memory` a `MemoryError`: an allocation or a memory limit refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Card,
    Deck,
    Position,
    Rules,
    Move,
    IllegalMove,
    Undo,
    Strategy,
    Value,
    Memory,
}

/// An error of the engine: its kind and the message shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
