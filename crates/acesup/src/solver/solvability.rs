//! Verdicts in batches: [`Solvability`], the counts of a batch, [`solvability`]
//! over a range of seeded deals and [`verdicts`] over any list of positions, on
//! several threads.

use super::{Limits, Solver};
use crate::deals::deck_from_seed;
use crate::position::Position;
use crate::rng::game_seed;
use crate::rules::Rules;
use crate::run::{Next, Stream};
use crate::stats::Stats;
use crate::{Error, ErrorKind, Result};
use std::fmt;
use std::time::Duration;

/// The verdicts on a batch of deals (API.md, Solvability): how many were proved
/// winnable, proved unwinnable, or left unresolved by a limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Solvability {
    pub winnable: u64,
    pub unwinnable: u64,
    pub unresolved: u64,
}

impl Solvability {
    /// Counts checked as the Python constructor checks them: their sum, the number
    /// of games, must fit in 64 bits (`ValueError`).
    pub fn new(winnable: u64, unwinnable: u64, unresolved: u64) -> Result<Solvability> {
        let s = Solvability {
            winnable,
            unwinnable,
            unresolved,
        };
        winnable
            .checked_add(unwinnable)
            .and_then(|n| n.checked_add(unresolved))
            .map(|_| s)
            .ok_or_else(too_many_games)
    }

    /// Count one verdict.
    pub fn record(&mut self, winnable: Option<bool>) {
        match winnable {
            Some(true) => self.winnable += 1,
            Some(false) => self.unwinnable += 1,
            None => self.unresolved += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.winnable + self.unwinnable + self.unresolved
    }

    /// The sum of two shards: `ValueError` if the games no longer fit in 64 bits.
    pub fn merge(&self, other: &Solvability) -> Result<Solvability> {
        // Each count is at most its total, so when the totals add up in 64 bits,
        // so do the counts.
        self.games()
            .checked_add(other.games())
            .ok_or_else(too_many_games)?;
        Ok(Solvability {
            winnable: self.winnable + other.winnable,
            unwinnable: self.unwinnable + other.unwinnable,
            unresolved: self.unresolved + other.unresolved,
        })
    }

    /// `k` games won out of these games, as `Stats`, which owns the arithmetic of
    /// rates and Wilson intervals that both engines share (API.md).
    fn as_stats(&self, k: u64) -> Stats {
        let mut histogram = [0u64; crate::stats::MAX_SCORES];
        histogram[0] = self.games() - k;
        histogram[crate::stats::MAX_SCORES - 1] = k;
        Stats::from_histogram(&histogram).expect("49 counts")
    }

    /// `winnable / games`; NaN for no games.
    pub fn rate(&self) -> f64 {
        self.as_stats(self.winnable).win_rate()
    }

    /// From the lower end of the Wilson interval of `winnable` to the upper end of
    /// that of `winnable + unresolved`; `(0.0, 1.0)` for no games.
    pub fn ci95(&self) -> (f64, f64) {
        let low = self.as_stats(self.winnable).ci95().0;
        let high = self.as_stats(self.winnable + self.unresolved).ci95().1;
        (low, high)
    }

    /// The Python `repr`.
    pub fn repr(&self) -> String {
        format!(
            "Solvability(winnable={}, unwinnable={}, unresolved={})",
            self.winnable, self.unwinnable, self.unresolved
        )
    }
}

impl fmt::Display for Solvability {
    /// The Python `str`, the same in both engines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.games() == 0 {
            return f.write_str("0 games");
        }
        let (low, high) = self.ci95();
        write!(
            f,
            "{} games: {} winnable, {} unwinnable, {} unresolved; rate {:.5} (95% CI {:.5} to {:.5})",
            self.games(),
            self.winnable,
            self.unwinnable,
            self.unresolved,
            self.rate(),
            low,
            high
        )
    }
}

/// The `ValueError` of a batch of 2⁶⁴ games or more.
fn too_many_games() -> Error {
    Error::new(ErrorKind::Value, "the number of games must be below 2**64")
}

/// The start of game `index` of master seed `seed` (RNG.md, `game_seed`).
pub(super) fn seeded_position(seed: u64, index: u64, rules: Rules) -> Position {
    Position::from_deck(&deck_from_seed(game_seed(seed, index), &rules), rules)
}

/// How many verdicts each thread may find ahead of the first one not yet handed
/// out: enough for the other threads to go on while one deal takes minutes, and a
/// bound on what waits in memory, and on what a cancelled run throws away.
const WINDOW_PER_THREAD: u64 = 1024;

/// Solve games `start .. start + games` (modulo 2⁶⁴) of master seed `seed` on
/// `threads` threads, each with its own `limits`, and count the verdicts; None
/// when the limits' cancel flag stops the run. The result does not depend on the
/// threads, unless a time limit stops some searches. `ValueError` when no thread
/// can be started.
pub fn solvability(
    threads: usize,
    rules: Rules,
    seed: u64,
    start: u64,
    games: u64,
    limits: &Limits,
) -> Result<Option<Solvability>> {
    let found = seeded_verdicts(threads, rules, seed, start, games, limits)?;
    let mut tally = Solvability::default();
    while let Next::Item(verdicts) = found.next_done_within(Duration::MAX) {
        verdicts
            .into_iter()
            .for_each(|verdict| tally.record(verdict));
    }
    Ok((tally.games() == games).then_some(tally))
}

/// The verdicts on games `start .. start + games` (modulo 2⁶⁴) of master seed
/// `seed`, as [`verdicts`] hands them out: what [`solvability`] counts, for a
/// caller that counts them as they come (the bindings report the run's progress).
pub fn seeded_verdicts(
    threads: usize,
    rules: Rules,
    seed: u64,
    start: u64,
    games: u64,
    limits: &Limits,
) -> Result<Stream<Option<bool>>> {
    verdicts(
        threads,
        games,
        move |i| seeded_position(seed, start.wrapping_add(i), rules),
        limits,
    )
}

/// The verdicts ([`Solution::winnable`]) on positions `0 .. count`, position i
/// being `position(i)`, each solved with its own `limits` on `threads` threads
/// that each keep one [`Solver`] for the run and take the next position as soon
/// as they are done with one; handed out in index order as soon as every verdict
/// before is found. The stream ends early when the limits' cancel flag is raised,
/// and raises it when dropped before its end (a flag of its own when the limits
/// have none). What every batch of solves is made of: [`solvability`], and the
/// numbered deals of kpat and PySolFC (`acesup.solve_deals`). `ValueError` when
/// no thread can be started.
pub fn verdicts(
    threads: usize,
    count: u64,
    position: impl Fn(u64) -> Position + Send + Sync + 'static,
    limits: &Limits,
) -> Result<Stream<Option<bool>>> {
    let flag = limits.cancel.clone().unwrap_or_default();
    let limits = Limits {
        cancel: Some(flag.clone()),
        ..limits.clone()
    };
    Stream::start(
        threads,
        count,
        WINDOW_PER_THREAD.saturating_mul(threads as u64),
        flag,
        Solver::new,
        move |solver, i| solver.solve(&position(i), &limits).winnable,
    )
}
