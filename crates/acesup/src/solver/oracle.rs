//! The plain search, the reference solver's twin and the oracle of the tests: no
//! pruning at all. Also the native solver's search under `fill="stack"`.

use super::solvability::{seeded_position, Solvability};
use super::{Limits, Solution};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The plain search, the reference solver's twin: depth first over every legal
/// move of `Position`, never entering a position twice (a hash set of keys), with
/// no other pruning; None past `limit` positions. The tests check the solver
/// against it, and the benchmarks measure the solver's gain over it.
pub fn plain_search(root: &Position, limit: Option<usize>) -> Option<bool> {
    let limits = Limits {
        nodes: limit.map(|n| n as u64),
        ..Limits::default()
    };
    plain_solve(root, &limits).winnable
}

/// [`plain_search`] under `limits`, with its line: the native solver's search
/// under `fill="stack"`, for which no pruning of SOLVER.md is proved (SOLVER.md,
/// *`fill="stack"`*). `nodes` counts the positions entered, the root included;
/// the node limit bounds them, and the time limit and the cancel flag are read
/// every 1024.
pub(crate) fn plain_solve(root: &Position, limits: &Limits) -> Solution {
    let key = |p: &Position| -> Vec<u8> {
        let mut k = vec![p.stock().len() as u8];
        for q in 0..p.piles() {
            k.push(p.height(q) as u8);
            k.extend(p.pile(q).iter().map(|c| c.index() as u8));
        }
        k
    };
    let start = Instant::now();
    let stopped = |seen: usize| {
        limits.nodes.is_some_and(|n| seen as u64 >= n)
            || (seen % 1024 == 1023
                && (limits.time.is_some_and(|t| start.elapsed() >= t)
                    || limits
                        .cancel
                        .as_ref()
                        .is_some_and(|c| c.load(Ordering::Relaxed))))
    };
    let mut pos = root.clone();
    let mut seen = HashSet::from([key(&pos)]);
    let mut stack: Vec<(Vec<Move>, usize)> = vec![(pos.legal_moves(), 0)];
    let mut line: Vec<Move> = Vec::new();
    let winnable = loop {
        if pos.is_won() {
            break Some(true);
        }
        let Some((moves, next)) = stack.last_mut() else {
            break Some(false);
        };
        if *next == moves.len() {
            stack.pop();
            if let Some(mv) = line.pop() {
                pos.unapply(mv);
            }
            continue;
        }
        let mv = moves[*next];
        *next += 1;
        pos.apply(mv);
        let fresh = key(&pos);
        if seen.contains(&fresh) {
            pos.unapply(mv);
            continue;
        }
        if stopped(seen.len()) {
            break None;
        }
        seen.insert(fresh);
        line.push(mv);
        stack.push((pos.legal_moves(), 0));
    };
    if winnable != Some(true) {
        line.clear();
    }
    Solution {
        winnable,
        moves: line,
        nodes: seen.len() as u64,
    }
}

/// The verdicts of [`plain_search`], with no limit, on games `start .. start +
/// games` of master seed `seed`, on the calling thread: what the benchmarks
/// compare the solver with.
pub fn plain_solvability(rules: Rules, seed: u64, start: u64, games: u64) -> Solvability {
    let mut tally = Solvability::default();
    for i in 0..games {
        let pos = seeded_position(seed, start.wrapping_add(i), rules);
        tally.record(plain_search(&pos, None));
    }
    tally
}
