//! The branches of a settled position (SOLVER.md S3, S6, S10): pins and holds of
//! the discards left, then the fills and the deal.

use super::arrangements::lone_cards;
use super::search::{Frame, Search, SearchStep};
use super::state::CompactState;
use crate::moves::Move;
use crate::rules::{FillRule, LegalMoves};

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// Push the branches from the settled position `s` and its frame: S3's pin or
    /// S10's hold of the first discard left undecided, else every discard left
    /// (with the deal open), then the fills and the deal ([`Self::expand_moves`]),
    /// or under S7 their arrangements ([`Self::expand_arrangements`]).
    pub(super) fn expand(&mut self, s: &CompactState<N, P>, legal: LegalMoves) {
        let first = self.buffers.steps.len();
        let undecided = legal.discards & !s.pins;
        let open = self.deal_is_open(s);
        let holdable = if open { self.holdable(s, undecided) } else { 0 };
        if undecided != 0 && !open {
            // S3: discard now, or keep the card until the cards under it are gone.
            let p = undecided.trailing_zeros() as u8;
            self.buffers
                .steps
                .extend([SearchStep::Play(Move::Discard(p)), SearchStep::Pin(p)]);
        } else if holdable != 0 {
            // S10: discard now, or hold the card until the next deal, which is the
            // only move left to a held card's position with no pile empty and
            // nothing else to discard.
            let p = holdable.trailing_zeros() as u8;
            let hold = if s.empty() == 0 && undecided == 1 << p {
                SearchStep::Play(Move::Deal)
            } else {
                SearchStep::Pin(p)
            };
            self.buffers
                .steps
                .extend([SearchStep::Play(Move::Discard(p)), hold]);
        } else {
            if open {
                // The discards that S10 cannot decide are branches like the others.
                self.buffers.steps.extend(
                    (0..P as u8)
                        .filter(|p| undecided >> p & 1 == 1)
                        .map(|p| SearchStep::Play(Move::Discard(p))),
                );
            }
            if let light @ 1.. = self.light_piles(s) {
                let (lone, n) = lone_cards(s, light);
                self.expand_arrangements(s, legal, light, &lone[..n]);
            } else {
                self.expand_moves(s, legal);
            }
        }
        if self.buffers.steps.len() > first {
            self.frames.push(Frame {
                state: *s,
                first,
                next: first,
            });
        }
    }

    /// S10: with the deal open (`deal="any"` while the stock lasts), the piles of
    /// `undecided` whose top card S1's construction may discard first, for a line
    /// that discards it before the next deal: under `fill="top"` and `"ace"`, and
    /// under `relocate_single` (lone cards may move), all of them; else under `"any"`
    /// those that hold the card alone.
    fn holdable(&self, s: &CompactState<N, P>, undecided: u8) -> u8 {
        let rules = self.ctx.rules;
        if rules.fill != FillRule::Any || rules.relocate_single {
            return undecided;
        }
        let lone = (0..P).fold(0, |m, p| m | u8::from(s.heights[p] == 1) << p);
        undecided & lone
    }

    /// The legal fills in R3 order (the discards left are pinned, S3, held, S10, or
    /// branches of their own), with the top card of a pinned pile kept in place
    /// (a held one may move), and with the stock empty only into the first empty
    /// pile (S6); then the deal.
    fn expand_moves(&mut self, s: &CompactState<N, P>, legal: LegalMoves) {
        let targets = if self.ctx.stock_left(s) == 0 {
            legal.empty & legal.empty.wrapping_neg()
        } else {
            legal.empty
        };
        let pinned = if self.deal_is_open(s) { 0 } else { s.pins };
        for src in 0..P as u8 {
            let kept = u64::from(pinned >> src & 1);
            for dst in (0..P as u8).filter(|d| targets >> d & 1 == 1) {
                for index in kept..u64::from(legal.choices[usize::from(src)]) {
                    self.buffers
                        .steps
                        .push(SearchStep::Play(Move::Fill { src, dst, index }));
                }
            }
        }
        if legal.deal() {
            self.buffers.steps.push(SearchStep::Play(Move::Deal));
        }
    }
}
