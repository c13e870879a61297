//! Aces Up: the native engine.
//!
//! Plain Rust, with no Python types: the modules mirror the pure-Python reference
//! engine (`acesup.reference`) file for file, and `cargo test` runs without an
//! interpreter. The rules are in `docs/RULES.md`, the generator in `docs/RNG.md`,
//! the Python API in `docs/API.md`; the PyO3 bindings (the root crate
//! `acesup-python`, its source in the top-level `src/`) only translate.
//!
//! The modules are private and the `pub use` list below is the whole API: what the
//! bindings, the examples and the benches use; the rest is `pub(crate)`, so the
//! compiler reports what nothing uses. Four modules are public on purpose, because
//! the bindings call their functions by module: `solver` (`solver::solve`), `run`
//! (`run::cancel::requested`, the pool and the streams), `optimal`
//! (`optimal::optimal`) and `bound` (`bound::upper_bound`).
//!
//! - `error`: the engine's error, its kind and `Result`.
//! - `cards`: cards and decks (R1, R6.1, R6.2). `moves`: moves and their text (R2,
//!   R6.3).
//! - `rules`: every rule (R1.2, R2-R4, R7), written once over the `Tableau` trait,
//!   and in `rules/options.rs` the rule options (R1.4, R5, R6.4); `lanes`: the bit
//!   lanes of a suit that the rules' mask tests work in.
//! - `position`: positions (R6.5, R6.6), a `Tableau`, with the play-outs' hot loop
//!   in `position/play_out.rs`; `game`: a position with its history and strategy
//!   stream.
//! - `rng`: SplitMix64, bounded draws, the shuffle and `game_seed` (RNG.md); `deals`:
//!   every deck: seeded (RNG.md) and kpat's and PySolFC's numbered deals (R8).
//! - `strategies`: the built-in strategies (STRATEGIES.md); `random_play`: the random
//!   strategy's seeded games, in a loop of their own.
//! - `stats`: score histograms and their statistics; `simulate`: seeded play-outs
//!   on any number of threads.
//! - `run`: running work of any kind: the thread pool, chunks, streams of results in
//!   order, and the cancel flag seen inside long decisions (Ctrl-C).
//! - `batch`: many seeded games stepped at once, for a policy outside the engine
//!   (BATCH.md), and `ChanceGame`, a game whose cards an outside chance player
//!   deals one at a time (the state of `acesup.openspiel`).
//! - `solver`: the clairvoyant solver and the solvability of seeded deals
//!   (SOLVER.md, a folder by concern); `bound`: the certified upper bound on the
//!   optimum without clairvoyance (BOUND.md); `optimal`: the exact optimum without
//!   clairvoyance and its table (OPTIMAL.md). `hash`: the hash of the engine's
//!   tables.
//!
//! A module's tests are its module `tests`, kept out of its source in the file
//! `src/tests/<module>.rs` (declared with `#[path]`; the solver's and `run`'s in
//! folders of the same names), so a reader of the source sees the module alone.

mod batch;
pub mod bound;
mod cards;
mod deals;
mod error;
mod game;
mod hash;
mod lanes;
mod moves;
pub mod optimal;
mod position;
mod random_play;
mod rng;
mod rules;
pub mod run;
mod simulate;
pub mod solver;
mod stats;
mod strategies;

pub use batch::{Batch, BatchState, ChanceGame, Spaces, Turn};
pub use cards::{deck_too_long, parse_cards, Card, DECK_SIZE};
pub use deals::{deck_from_kpat, deck_from_pysol, deck_from_seed, KPAT_MAX, PYSOL_MAX};
pub use error::{Error, ErrorKind, Result};
pub use game::Game;
pub use moves::{index_too_large, Move, MAX_PILES};
pub use position::Position;
pub use rng::{game_seed, Rng};
pub use rules::{DealRule, DealTo, FillRule, OptionValue, Rules, OPTIONS, PRESETS};
pub use simulate::{run_games, simulate, AskError, ChunkedRun};
pub use solver::{solve, Solution, Solvability};
pub use stats::{concat, Stats, MAX_SCORES};
pub use strategies::{builtin_names, Builtin, Random};
