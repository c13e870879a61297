//! The plain search, the reference solver's twin and the oracle of the tests: no
//! pruning at all.

use super::solvability::{seeded_position, Solvability};
use super::{Limits, Solution};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Rules, Tableau};
use std::collections::HashSet;

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

/// [`plain_search`] with its line and its count of positions, bounded by `limits`
/// as the reference's `solve()` is: move for move the reference solver (the root
/// counts as a node; a new position past `limits.nodes` nodes, or found after the
/// time or the cancel flag ran out, stops it with `None`). The solver of rules with
/// a reserve (SOLVER.md, *A reserve*).
pub(super) fn plain_solve(root: &Position, limits: &Limits) -> Solution {
    let key = |p: &Position| -> Vec<u8> {
        let mut k = vec![p.stock().len() as u8, p.reserve().index() as u8];
        for q in 0..p.piles() {
            k.push(p.height(q) as u8);
            k.extend(p.pile(q).iter().map(|c| c.index() as u8));
        }
        k
    };
    let deadline = limits.deadline();
    let mut pos = root.clone();
    let mut seen = HashSet::from([key(&pos)]);
    let mut nodes = 1;
    let mut stack: Vec<(Vec<Move>, usize)> = vec![(pos.legal_moves(), 0)];
    let mut line: Vec<Move> = Vec::new();
    let ended = |winnable, line, nodes| Solution {
        winnable,
        moves: line,
        nodes,
    };
    while !pos.is_won() {
        let Some((moves, next)) = stack.last_mut() else {
            return ended(Some(false), Vec::new(), nodes);
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
        if seen.contains(&key(&pos)) {
            pos.unapply(mv);
            continue;
        }
        if limits.stop(deadline, nodes) {
            return ended(None, Vec::new(), nodes);
        }
        seen.insert(key(&pos));
        nodes += 1;
        line.push(mv);
        stack.push((pos.legal_moves(), 0));
    }
    ended(Some(true), line, nodes)
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
