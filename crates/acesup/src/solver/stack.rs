//! The search under `fill="stack"` (SOLVER.md, *`fill="stack"`: the search for
//! several cards moving together*): the plain search over every legal move of
//! `Position`, with the three reductions that are proved for moves of several
//! cards: free deals first, the forced discards of S1, and S6's nameless piles.
//! The compact state and the other prunings of the native search assume that a
//! fill moves one card, so they are not used.

use super::{finish, Limits, Solution};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{self, DealRule};
use std::collections::HashSet;
use std::time::Instant;

/// Solve `root` under its rules, `fill="stack"`: under `deal="any"` first with
/// the deal of `"free"` (a win there is a win: SOLVER.md, *Free deals first*),
/// then as the rules are. The limits are shared; `nodes` counts the positions
/// entered by both.
pub(crate) fn solve_stack(root: &Position, limits: &Limits) -> Solution {
    let deadline = limits.deadline();
    let mut nodes = 0;
    if root.rules.deal == DealRule::Any {
        let mut free = root.clone();
        free.rules.deal = DealRule::Free;
        let (winnable, line, spent) = search(&free, limits, deadline, 0);
        nodes = spent;
        if winnable == Some(true) {
            return Solution {
                winnable,
                moves: finish(root, &line),
                nodes,
            };
        }
    }
    let (winnable, line, spent) = search(root, limits, deadline, nodes);
    let moves = match winnable {
        Some(true) => finish(root, &line),
        _ => Vec::new(),
    };
    Solution {
        winnable,
        moves,
        nodes: spent,
    }
}

/// The search from `root`: its verdict, the line to the win score when it is
/// winnable, and the positions entered so far (`spent` before it began).
fn search(
    root: &Position,
    limits: &Limits,
    deadline: Option<Instant>,
    spent: u64,
) -> (Option<bool>, Vec<Move>, u64) {
    if limits.nodes.is_some_and(|n| spent >= n) {
        return (None, Vec::new(), spent);
    }
    let mut line = Vec::new();
    let mut pos = root.clone();
    settle(&mut pos, &mut line);
    let mut seen = HashSet::from([key(&pos)]);
    let mut nodes = spent + 1;
    if pos.score() == pos.rules.win_score() {
        return (Some(true), line, nodes);
    }
    // Each frame: a position, its moves, the next to try, and the line's length there.
    let mut frames = vec![(pos.clone(), moves(&pos), 0, line.len())];
    while let Some((pos, moves, next, depth)) = frames.last_mut() {
        let Some(&mv) = moves.get(*next) else {
            frames.pop();
            continue;
        };
        *next += 1;
        line.truncate(*depth);
        let mut child = pos.clone();
        child.apply(mv);
        let mut tail = vec![mv];
        settle(&mut child, &mut tail);
        if !seen.insert(key(&child)) {
            continue;
        }
        line.extend(tail);
        if child.score() == child.rules.win_score() {
            return (Some(true), line, nodes);
        }
        if limits.stop(deadline, nodes) {
            return (None, Vec::new(), nodes);
        }
        nodes += 1;
        let child_moves = self::moves(&child);
        let depth = line.len();
        frames.push((child, child_moves, 0, depth));
    }
    (Some(false), Vec::new(), nodes)
}

/// S1 for several cards moving together: where no deal can come before a
/// discard (not `deal="any"` while the stock lasts), every legal discard is
/// played, in R3 order, and written to `line`.
fn settle(pos: &mut Position, line: &mut Vec<Move>) {
    if pos.rules.deal == DealRule::Any && !pos.stock().is_empty() {
        return;
    }
    while let Some(p) = rules::first_discard(pos) {
        let mv = Move::Discard(p as u8);
        pos.apply(mv);
        line.push(mv);
    }
}

/// The moves searched from `pos`: its legal moves, but with the stock empty (S6)
/// the fills into the first empty pile only.
fn moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    if pos.stock().is_empty() {
        let first = (0..pos.piles()).find(|&p| pos.height(p) == 0);
        moves
            .retain(|mv| !matches!(*mv, Move::Fill { dst, .. } if Some(usize::from(dst)) != first));
    }
    moves
}

/// A position's key: the stock's length and each pile's cards; with the stock
/// empty the piles in sorted order (S6), for then they have no names.
fn key(pos: &Position) -> Vec<u8> {
    let mut piles: Vec<Vec<u8>> = (0..pos.piles())
        .map(|p| pos.pile(p).iter().map(|c| c.index() as u8).collect())
        .collect();
    if pos.stock().is_empty() {
        piles.sort_unstable();
    }
    let mut key = vec![pos.stock().len() as u8];
    for pile in piles {
        key.push(pile.len() as u8);
        key.extend(pile);
    }
    key
}
