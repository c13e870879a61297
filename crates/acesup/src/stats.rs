//! Score histograms and their statistics (docs/API.md, Stats).
//!
//! The floats are computed in the exact order of API.md, and every division of two
//! integers is rounded once, as Python's `int / int` is, so that both engines give
//! the same bits.

use crate::{Error, ErrorKind, Result};
use std::fmt;

/// The most counts of a histogram: the scores 0 to 48 of the largest win score
/// (R4.2, the standard deck).
pub const MAX_SCORES: usize = 49;
/// The z of a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959963984540054;

/// How many games ended with each score 0 to the win score of their rules (R4.2):
/// `len` counts, so a `Stats` knows its win score, `len − 1`. The places past
/// `len` stay 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Stats {
    histogram: [u64; MAX_SCORES],
    len: u8,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats::empty(MAX_SCORES - 1)
    }
}

impl Stats {
    /// No games, of rules whose win score is `win_score` (at most 48).
    pub(crate) const fn empty(win_score: usize) -> Stats {
        Stats {
            histogram: [0; MAX_SCORES],
            len: win_score as u8 + 1,
        }
    }

    /// `Stats(histogram)`: a count per score from 0 to the win score of some layout
    /// (R4.2: 49 counts for the standard game), else `ValueError`.
    pub fn from_histogram(histogram: &[u64]) -> Result<Stats> {
        if !is_win_score(histogram.len().wrapping_sub(1)) {
            return Err(Error::new(
                ErrorKind::Value,
                format!(
                    "histogram must hold a count per score from 0 to the win score of some rules \
                     (49 counts for the standard game), got {}",
                    histogram.len()
                ),
            ));
        }
        let mut stats = Stats::empty(histogram.len() - 1);
        stats.histogram[..histogram.len()].copy_from_slice(histogram);
        Ok(stats)
    }

    /// The histogram of per-game scores (each 0 to `win_score`, else `ValueError`).
    pub(crate) fn from_scores(scores: &[u8], win_score: usize) -> Result<Stats> {
        let mut stats = Stats::empty(win_score);
        for &score in scores {
            match stats.histogram().len() > usize::from(score) {
                true => stats.histogram[usize::from(score)] += 1,
                false => return Err(scores_mismatch()),
            }
        }
        Ok(stats)
    }

    /// Ok when `scores`, every game's score in game-index order, are those of the
    /// games this histogram counts; `ValueError` otherwise.
    pub fn check_scores(&self, scores: &[u8]) -> Result<()> {
        match Stats::from_scores(scores, self.win_score()) {
            Ok(counted) if counted == *self => Ok(()),
            _ => Err(scores_mismatch()),
        }
    }

    /// Count one game that ended with `score` (0 to the win score).
    #[inline]
    pub(crate) fn record(&mut self, score: usize) {
        debug_assert!(score < usize::from(self.len));
        self.histogram[score] += 1;
    }

    /// The counts, one per score from 0 to the win score.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram[..usize::from(self.len)]
    }

    /// The score of a won game: the last of the histogram.
    pub(crate) fn win_score(&self) -> usize {
        usize::from(self.len) - 1
    }

    pub fn games(&self) -> u128 {
        self.histogram.iter().map(|&n| u128::from(n)).sum()
    }

    pub fn wins(&self) -> u64 {
        self.histogram[self.win_score()]
    }

    pub fn losses(&self) -> u128 {
        self.games() - u128::from(self.wins())
    }

    /// `wins / games`; NaN when there are no games.
    pub fn win_rate(&self) -> f64 {
        ratio(u128::from(self.wins()), self.games())
    }

    /// `sum(s * histogram[s]) / games`; NaN when there are no games.
    pub fn mean_score(&self) -> f64 {
        let total: u128 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(s, &n)| s as u128 * u128::from(n))
            .sum();
        ratio(total, self.games())
    }

    /// The Wilson 95% interval on the win rate, in the order of API.md;
    /// `(0.0, 1.0)` when there are no games.
    pub fn ci95(&self) -> (f64, f64) {
        let n = self.games();
        if n == 0 {
            return (0.0, 1.0);
        }
        let z = Z95;
        let nf = n as f64; // Python converts an int operand of a float operation like this
        let p = ratio(u128::from(self.wins()), n);
        let z2 = z * z;
        let denom = 1.0 + z2 / nf;
        let center = (p + z2 / (2 * n) as f64) / denom;
        let half = z * (p * (1.0 - p) / nf + z2 / four_n_squared(n)).sqrt() / denom;
        // The exact endpoints when no game or every game is won: the formula's
        // rounding would otherwise leave the bound a hair (~1e-17) inside.
        let wins = u128::from(self.wins());
        let low = if wins == 0 {
            0.0
        } else {
            py_max(0.0, center - half)
        };
        let high = if wins == n {
            1.0
        } else {
            py_min(1.0, center + half)
        };
        (low, high)
    }

    /// The sum of two runs' statistics: `ValueError` if a count overflows, or if
    /// they count games of different win scores and neither is empty.
    pub(crate) fn merge(&self, other: &Stats) -> Result<Stats> {
        if self.len != other.len {
            return match (self.games(), other.games()) {
                (0, _) => Ok(*other),
                (_, 0) => Ok(*self),
                _ => Err(Error::new(
                    ErrorKind::Value,
                    format!(
                        "cannot add the statistics of games won with {} and with {} cards discarded",
                        self.win_score(),
                        other.win_score()
                    ),
                )),
            };
        }
        let mut histogram = self.histogram;
        for (a, b) in histogram.iter_mut().zip(other.histogram) {
            *a = a.checked_add(b).ok_or_else(|| {
                Error::new(ErrorKind::Value, "a count of the sum exceeds 2**64 - 1")
            })?;
        }
        Ok(Stats {
            histogram,
            len: self.len,
        })
    }
}

impl fmt::Display for Stats {
    /// A short summary: `1000 games, 3 won, win rate 0.00300 (95% CI 0.00102 to
    /// 0.00879), mean score 35.042`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.games() == 0 {
            return f.write_str("0 games");
        }
        let (low, high) = self.ci95();
        write!(
            f,
            "{} games, {} won, win rate {:.5} (95% CI {low:.5} to {high:.5}), mean score {:.3}",
            self.games(),
            self.wins(),
            self.win_rate(),
            self.mean_score()
        )
    }
}

/// The games of two runs, one after the other, each given as its statistics and
/// its per-game scores if it recorded them (`Stats.__add__`): the sum of the
/// statistics, with the scores of both when both recorded them; a run of no games
/// counts as an empty record, so that it keeps the other's scores, and of two win
/// scores the sum is the one that has games (see [`Stats::merge`]). `ValueError`
/// if a count overflows or both win scores have games.
pub fn concat(runs: [(&Stats, Option<&[u8]>); 2]) -> Result<(Stats, Option<Vec<u8>>)> {
    let stats = runs[0].0.merge(runs[1].0)?;
    if runs[0].0.win_score() != runs[1].0.win_score() {
        // One has no games: the sum is the other, as it is.
        let (_, scores) = runs[usize::from(runs[0].0.games() == 0)];
        return Ok((stats, scores.map(<[u8]>::to_vec)));
    }
    let parts: Vec<Option<&[u8]>> = runs
        .iter()
        .filter(|(stats, _)| stats.games() > 0)
        .map(|&(_, scores)| scores)
        .collect();
    let scores = match parts.into_iter().collect::<Option<Vec<&[u8]>>>() {
        Some(parts) if !parts.is_empty() => Some(parts.concat()),
        _ => None,
    };
    Ok((stats, scores))
}

/// Whether `score` is the win score D − S of some layout (R1.4, R4.2): S(R − 1)
/// for S suits and R ranks with D = S·R at least the 4 piles.
fn is_win_score(score: usize) -> bool {
    (1..=4).any(|suits: usize| {
        (2..=13).any(|ranks: usize| suits * ranks >= 4 && suits * (ranks - 1) == score)
    })
}

fn scores_mismatch() -> Error {
    Error::new(
        ErrorKind::Value,
        "scores must be the scores (0 to the win score) of the games the histogram counts, in game-index order; \
         they do not match the histogram",
    )
}

/// Python's `max(a, b)`: `b` only when it is greater.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Python's `min(a, b)`: `b` only when it is smaller.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// `float(4 * n * n)` for an integer n < 2¹²⁶, rounded once like Python's.
fn four_n_squared(n: u128) -> f64 {
    let (hi, lo) = mul_wide(n, n);
    u256_to_f64((hi << 2) | (lo >> 126), lo << 2)
}

/// The 256-bit product `x·y` as (hi, lo) halves.
fn mul_wide(x: u128, y: u128) -> (u128, u128) {
    const LOW: u128 = u64::MAX as u128;
    let (x1, x0, y1, y0) = (x >> 64, x & LOW, y >> 64, y & LOW);
    let (mid1, mid2) = (x1 * y0, x0 * y1);
    let (lo, c1) = (x0 * y0).overflowing_add(mid1 << 64);
    let (lo, c2) = lo.overflowing_add(mid2 << 64);
    let hi = x1 * y1 + (mid1 >> 64) + (mid2 >> 64) + u128::from(c1) + u128::from(c2);
    (hi, lo)
}

/// A 256-bit integer `hi·2¹²⁸ + lo` as the nearest f64 (ties to even).
fn u256_to_f64(hi: u128, lo: u128) -> f64 {
    if hi == 0 {
        return lo as f64;
    }
    let shift = 128 - hi.leading_zeros(); // bits of hi, 1..=128
                                          // The top 128 bits, with every bit shifted out folded into the lowest (sticky) bit,
                                          // far below the 53 bits kept: the one rounding then decides as the exact value would.
    let top = (hi << (128 - shift)) | lo.checked_shr(shift).unwrap_or(0);
    let sticky = u128::from(lo.checked_shl(128 - shift).unwrap_or(0) != 0);
    (top | sticky) as f64 * 2f64.powi(shift as i32)
}

/// `a / b` for integers, rounded once to the nearest f64 (ties to even), as Python's
/// `int / int`; NaN when b is 0. For a, b < 2⁷⁷.
fn ratio(a: u128, b: u128) -> f64 {
    const EXACT: u128 = 1 << 53;
    if b == 0 {
        return f64::NAN;
    }
    if a <= EXACT && b <= EXACT {
        return a as f64 / b as f64; // both exact, one rounding
    }
    if a == 0 {
        return 0.0;
    }
    // A quotient of 56 bits or more, and a sticky bit for the remainder.
    let shift = 56 + (128 - b.leading_zeros()) as i32 - (128 - a.leading_zeros()) as i32;
    let (q, r) = if shift >= 0 {
        let a = a << shift;
        (a / b, a % b)
    } else {
        let b = b << -shift;
        (a / b, a % b)
    };
    (q | u128::from(r != 0)) as f64 * 2f64.powi(-shift)
}

#[cfg(test)]
#[path = "tests/stats.rs"]
mod tests;
