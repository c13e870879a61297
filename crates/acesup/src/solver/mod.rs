//! The clairvoyant solver (docs/SOLVER.md): can a position still be won, knowing
//! the order of the stock, and how? Plus `solvability`, the verdicts on a range
//! of seeded deals.
//!
//! The search is a depth-first search over a reduced graph of positions, with an
//! exact transposition table. Each reduction is proved in docs/SOLVER.md, by the
//! section number given in the comments here (S1, S2, ...; SOLVER.md's table *The
//! rules in the code* names the function of each), and checked against the plain
//! search (every legal move, no pruning) by the tests in `tests/`.
//!
//! The modules, by concern:
//! - this one: the public API, [`solve`], [`Solution`], [`Limits`], and the
//!   reusable [`Solver`] that picks the search compiled for a position;
//! - `state`: the compact state the search copies, `context`: the rules and the
//!   stock held fixed during a solve (and the state as the rules read it);
//! - `search`: the depth-first search, settling and the line;
//! - the prunings, grouped as SOLVER.md proves them: `forced` (S1-S5, S11,
//!   S14: the forced moves), `branches` (S3, S6, S10: the branches of a
//!   position), `arrangements` (S7), `doomed` (S8, S12: stocks that doom the
//!   game), `fixpoint` (S13: the piles walked stretch after stretch), `suits`
//!   (S15-S17: as many suits as piles);
//! - `keys`: the canonical keys of states (S6, S7), `table`: the transposition
//!   table that stores them;
//! - `oracle`: the plain search the tests check the solver against;
//! - `solvability`: verdicts over ranges of seeded deals and lists of positions;
//! - `quick`: [`solve_quickly`], the short first try of the bindings;
//! - `stack`: the search under `fill="stack"`, several cards moving together.

mod arrangements;
mod branches;
mod context;
mod doomed;
mod fixpoint;
mod forced;
mod keys;
mod oracle;
mod quick;
mod search;
mod solvability;
mod stack;
mod state;
mod suits;
mod table;
#[cfg(test)]
#[path = "../tests/solver/mod.rs"]
mod tests;

pub use oracle::{plain_search, plain_solvability};
pub use quick::solve_quickly;
pub use solvability::{seeded_verdicts, solvability, verdicts, Solvability};

use crate::moves::Move;
use crate::position::Position;
use crate::rules::{DealRule, FillRule, LegalMoves};
use crate::{Error, ErrorKind, Result};
use context::StockContext;
use search::{Frame, Search, SearchBuffers};
use state::{LARGE, SMALL};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::TranspositionTable;

/// How far a search may go before it gives up; `None` is no bound.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The most positions the search may expand (see [`Solution::nodes`]).
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Stop when this flag is raised (the Python bindings raise it on Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// When the time limit runs out, counted from now; `None` without one, and
    /// then no search reads the clock (a clock read costs as much as a small
    /// deal's search).
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.time.and_then(|t| Instant::now().checked_add(t))
    }

    /// These limits with the time left before `deadline` (from [`Limits::deadline`])
    /// as their time limit, and `nodes` as their node limit: what a search that
    /// follows another on the same budget may spend.
    pub(crate) fn left(&self, deadline: Option<Instant>, nodes: Option<u64>) -> Limits {
        Limits {
            nodes,
            time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            cancel: self.cancel.clone(),
        }
    }

    /// Whether a limit stops a search that has expanded `nodes` positions: the
    /// node limit at every position; `deadline` (from [`Limits::deadline`]) and the
    /// cancel flag at every 1024th, for they cost more to ask.
    #[inline]
    pub(crate) fn stop(&self, deadline: Option<Instant>, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || (nodes % 1024 == 1023
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .cancel
                        .as_ref()
                        .is_some_and(|c| c.load(Ordering::Relaxed))))
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// `Some(true)`: `moves` wins from the position solved. `Some(false)`: the search
    /// proved that no win can be reached. `None`: a limit stopped it first.
    pub winnable: Option<bool>,
    /// A winning line when `winnable == Some(true)`, else empty.
    pub moves: Vec<Move>,
    /// The positions the search expanded: each position reached after a move and
    /// the forced moves that follow it (docs/SOLVER.md, *Settling*) counts once.
    pub nodes: u64,
}

/// The most moves a line that repeats no position holds, in any layout (R4.3):
/// at most 479 moves that are not a lone card's (48 discards, 47 deals, and 4
/// fills after each of them and at the start, on five piles), and between two of
/// them fewer than 5! = 120 positions that differ only in where the lone cards
/// stand. A solution's line is never longer.
pub const MAX_LINE: usize = 479 + 480 * 119;

impl Solution {
    /// A solution as the Python constructor takes it (whose reader stops after
    /// [`MAX_LINE`] + 1 moves): `ValueError` for more than [`MAX_LINE`] moves, or
    /// for moves with a verdict other than winnable.
    pub fn new(winnable: Option<bool>, moves: Vec<Move>, nodes: u64) -> Result<Solution> {
        if moves.len() > MAX_LINE {
            return Err(Error::new(
                ErrorKind::Value,
                format!("a solution holds at most {MAX_LINE} moves (a line that repeats no position, R4.3), got more"),
            ));
        }
        if !moves.is_empty() && winnable != Some(true) {
            return Err(Error::new(
                ErrorKind::Value,
                format!(
                    "a solution with winnable={} has no moves, got {}",
                    py_verdict(winnable),
                    moves.len()
                ),
            ));
        }
        Ok(Solution {
            winnable,
            moves,
            nodes,
        })
    }
}

impl fmt::Display for Solution {
    /// The Python `str`: the verdict, the nodes and the line, as in
    /// `winnable (12 nodes): f2>0 deal d1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.winnable {
            Some(true) => "winnable",
            Some(false) => "unwinnable",
            None => "unresolved",
        };
        write!(f, "{verdict} ({} nodes)", self.nodes)?;
        if !self.moves.is_empty() {
            let line: Vec<String> = self.moves.iter().map(Move::to_string).collect();
            write!(f, ": {}", line.join(" "))?;
        }
        Ok(())
    }
}

/// `True`, `False` or `None`, as Python shows a verdict.
fn py_verdict(winnable: Option<bool>) -> &'static str {
    match winnable {
        Some(true) => "True",
        Some(false) => "False",
        None => "None",
    }
}

/// Solve `pos` (see the module documentation); `pos` itself is not changed.
pub fn solve(pos: &Position, limits: &Limits) -> Solution {
    Solver::new().solve(pos, limits)
}

/// A reusable solver: its tables and buffers survive from one solve to the next.
/// Its paths of frames, one for each room of a pile and number of piles.
pub struct Solver {
    buffers: SearchBuffers,
    small4: Vec<Frame<SMALL, 4>>,
    small5: Vec<Frame<SMALL, 5>>,
    large4: Vec<Frame<LARGE, 4>>,
    large5: Vec<Frame<LARGE, 5>>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with empty tables.
    pub fn new() -> Solver {
        let buffers = SearchBuffers {
            table: TranspositionTable::new(),
            wide: TranspositionTable::new(),
            steps: Vec::new(),
            line: Vec::new(),
            layouts: Vec::new(),
            nodes: 0,
            #[cfg(test)]
            keys: keys::KeyCheck::default(),
        };
        Solver {
            buffers,
            small4: Vec::new(),
            small5: Vec::new(),
            large4: Vec::new(),
            large5: Vec::new(),
        }
    }

    /// Solve `pos` (see [`solve`]).
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Solution {
        if pos.rules().reserve > 0 {
            // The prunings are proved for piles alone: a reserve gets the plain
            // search (SOLVER.md, *A reserve*).
            return oracle::plain_solve(pos, limits);
        }
        if pos.rules.fill == FillRule::Stack {
            // The search of its own for several cards moving together.
            return stack::solve_stack(pos, limits);
        }
        let mut ctx = StockContext::of(pos);
        let deadline = limits.deadline();
        let mut spent = 0;
        let mut winnable = None;
        if ctx.rules.deal == DealRule::Any {
            // Every move that `deal="free"` allows, `"any"` allows too, so a win under
            // "free" is a win; its search, whose discards are forced, finds one far
            // sooner (SOLVER.md, *Free deals first*). The budget is shared.
            ctx.rules.deal = DealRule::Free;
            winnable = self.search(&ctx, pos, limits).filter(|&won| won);
            if winnable.is_none() {
                // The search under "any" counts its positions from 0 again.
                spent = self.buffers.nodes;
            }
            ctx.rules.deal = DealRule::Any;
        }
        if winnable.is_none() {
            let rest = limits.left(deadline, limits.nodes.map(|n| n.saturating_sub(spent)));
            winnable = if rest.nodes == Some(0) || rest.time == Some(Duration::ZERO) {
                None
            } else {
                self.search(&ctx, pos, &rest)
            };
        }
        let moves = match winnable {
            Some(true) => finish(pos, &self.buffers.line),
            _ => Vec::new(),
        };
        Solution {
            winnable,
            moves,
            nodes: spent + self.buffers.nodes,
        }
    }

    /// The verdict on `pos` under the rules of `deal`, by the search compiled for
    /// its number of piles and the room its piles need; the line in `buffers.line`.
    fn search(&mut self, ctx: &StockContext, pos: &Position, limits: &Limits) -> Option<bool> {
        // A pile gets a card from a deal only when it is empty (then it holds one
        // card, as after a fill) or when the deal is one of the at most ⌈stock / P⌉
        // that reach piles that are not empty (R2.3, under both `deal_to`).
        let piles = usize::from(ctx.rules.piles);
        let deals_left = pos.stock().len().div_ceil(piles);
        let small = (0..piles).all(|p| pos.height(p).max(1) + deals_left < SMALL);
        let (b, l) = (&mut self.buffers, limits);
        match (small, piles) {
            (true, 4) => search(ctx, b, &mut self.small4, l, pos),
            (true, _) => search(ctx, b, &mut self.small5, l, pos),
            (false, 4) => search(ctx, b, &mut self.large4, l, pos),
            (false, _) => search(ctx, b, &mut self.large5, l, pos),
        }
    }
}

/// The verdict on `pos` by a search compiled for whether a deal may come before a
/// discard (`deal="any"`), so that the other rules pay nothing for S10.
fn search<const N: usize, const P: usize>(
    ctx: &StockContext,
    buffers: &mut SearchBuffers,
    frames: &mut Vec<Frame<N, P>>,
    limits: &Limits,
    pos: &Position,
) -> Option<bool> {
    if ctx.rules.deal == DealRule::Any {
        Search::<N, P, true>::start(ctx, buffers, frames, limits, pos)
    } else {
        Search::<N, P, false>::start(ctx, buffers, frames, limits, pos)
    }
}

/// `line` played on `pos`, then the moves that finish a won game: with the win
/// score discarded only the top-rank cards are left, and the first legal move that
/// is no move of a lone card, a fill from a pile of two cards or more or the deal,
/// is always one step closer to one such card on each pile (SOLVER.md, *Won at the
/// win score*).
fn finish(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut end = pos.clone();
    let mut moves = line.to_vec();
    for &mv in line {
        end.apply(mv);
    }
    let closer = |end: &Position| {
        LegalMoves::of(end).iter().find(|mv| match *mv {
            Move::Fill { src, .. } => end.height(usize::from(src)) >= 2,
            _ => true,
        })
    };
    while let Some(mv) = closer(&end) {
        end.apply(mv);
        moves.push(mv);
    }
    debug_assert!(end.is_won(), "{}", end.to_text());
    moves
}
