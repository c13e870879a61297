//! [`solve_quickly`]: a short first try, for callers that must run a long search
//! where it can be cancelled.

use super::{solve, Limits, Solution};
use crate::position::Position;

/// The nodes that [`solve_quickly`] tries first: well under a millisecond.
pub(super) const QUICK_NODES: u64 = 20_000;

/// Most positions are solved in well under a millisecond, so a caller that must
/// run a long search where it can be cancelled (the bindings: on a thread of its
/// own, for Ctrl-C) first tries [`QUICK_NODES`] nodes where it is: `Ok` with the
/// solution when that settles it, else `Err` with the limits left for the full
/// search (which starts again: the first try cost at most `QUICK_NODES`).
pub fn solve_quickly(pos: &Position, limits: &Limits) -> std::result::Result<Solution, Limits> {
    let deadline = limits.deadline();
    let quick = Limits {
        nodes: Some(limits.nodes.unwrap_or(u64::MAX).min(QUICK_NODES)),
        ..limits.clone()
    };
    let first = solve(pos, &quick);
    if first.winnable.is_some()
        || first.nodes < QUICK_NODES
        || limits.nodes.is_some_and(|n| n <= QUICK_NODES)
    {
        return Ok(first);
    }
    Err(limits.left(deadline, limits.nodes))
}
