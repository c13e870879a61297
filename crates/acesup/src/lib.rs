//! Aces Up: the native engine.
//!
//! Plain Rust, with no Python types: the modules mirror the pure-Python reference
//! engine (`acesup.reference`) file for file, and `cargo test` runs without an
//! interpreter. The rules are in `docs/RULES.md`, the generator in `docs/RNG.md`,
//! the Python API in `docs/API.md`; the PyO3 bindings (the root crate
//! `acesup-python`, its source in the top-level `src/`) only translate.
//!
//! The modules are private and the list of `pub use` below is the whole API, what
//! the bindings and the examples use (and `simulate`, the play-outs for Rust
//! callers); the rest is `pub(crate)`, so the compiler
//! reports what nothing uses. Three modules stay public on purpose, because the
//! bindings call their functions by module: `solver` (`solver::solve`), `cancel`
//! (`cancel::requested`) and `optimal` (`optimal::optimal`).
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
//!   the KPat and PySol deals.
//! - `strategies`: the built-in strategies (STRATEGIES.md); `random_play`: the random
//!   strategy's seeded games, in a loop of their own.
//! - `stats`: score histograms and their statistics; `simulate`, `pool`, `stream`,
//!   `cancel`: seeded batch play-outs on any number of threads, streamed, with a
//!   cancel flag seen inside the long decisions (Ctrl-C).
//! - `batch`: many seeded games stepped at once, for a policy outside the engine
//!   (BATCH.md).
//! - `solver`: the clairvoyant solver and the solvability of seeded deals
//!   (SOLVER.md); `optimal`: the exact optimum without clairvoyance and its table
//!   (OPTIMAL.md). `hash`: the hash of the solver's and the optimum's tables.
//!
//! A module's tests are its module `tests`, kept out of its source in the file
//! `tests/<module>.rs` (declared with `#[path]`), so the import-cycle check and a
//! reader of the source see the module alone.

mod batch;
pub mod cancel;
mod cards;
mod deals;
mod error;
mod game;
mod hash;
mod lanes;
mod moves;
pub mod optimal;
mod pool;
mod position;
mod random_play;
mod rng;
mod rules;
mod simulate;
pub mod solver;
mod stats;
mod strategies;
mod stream;

pub use batch::{Batch, BatchState};
pub use cards::{parse_cards, Card, DECK_SIZE};
pub use deals::{deck_from_kpat, deck_from_pysol, KPAT_MAX, PYSOL_MAX};
pub use error::{Error, ErrorKind, Result};
pub use game::Game;
pub use moves::{index_too_large, Move, MAX_PILES};
pub use pool::thread_count;
pub use position::Position;
pub use rng::{deck_from_seed, game_seed, Rng};
pub use rules::{OptionValue, Rules, OPTIONS};
pub use simulate::{run_games, simulate, AskError, ChunkedRun, Pool, MAX_THREADS};
pub use solver::{solve, Solution, Solvability};
pub use stats::{concat, Stats, MAX_SCORES};
pub use strategies::{Builtin, Random};
pub use stream::{Next, Stream};
