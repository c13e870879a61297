//! The forced moves that settling plays (SOLVER.md S1-S5, S11, S14): the discards
//! that cannot lose a win, and the fills that are as good as a discard.

use super::search::Search;
use super::state::CompactState;
use crate::moves::Move;
use crate::rules::{self, DealTo, FillRule, Tableau};

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// The forced moves: every discard that cannot lose a win (S1, S2, S5), the
    /// fills of cards that lie right on a stronger card of their suit (S14), and the
    /// buried cards that `fill="any"` can throw away in the endgame (S4).
    /// Returns the piles that may still be discarded (S3 decides about them, or with
    /// the deal open they are branches).
    pub(super) fn close(&mut self, s: &mut CompactState<N, P>) -> u8 {
        if self.deal_is_open(s) {
            return self.close_open(s);
        }
        let rules = self.ctx.rules;
        let stock_left = self.ctx.stock_left(s);
        let guarded = self.ctx.guarded && stock_left > 0;
        // The discard mask is found again right after each change of the piles, so
        // that it reads the new top cards where they were just computed.
        let mut all = self.ctx.discards(s);
        loop {
            let discards = if guarded {
                self.safe_discards(s, all)
            } else {
                all
            };
            if discards != 0 {
                self.discard_tops(s, discards);
                all = self.ctx.discards(s);
                continue;
            }
            if rules.fill == FillRule::Top {
                if let Some(fill) = self.covered_stronger_card(s) {
                    // The card moved is a discard now (S1), in the next round.
                    self.play(s, fill);
                    all = self.ctx.discards(s);
                    continue;
                }
            }
            if rules.fill == FillRule::Any && stock_left == 0 {
                if let Some(fill @ Move::Fill { dst, .. }) = self.witnessed_buried_card(s) {
                    self.play(s, fill);
                    self.play(s, Move::Discard(dst));
                    all = self.ctx.discards(s);
                    continue;
                }
            }
            return all;
        }
    }

    /// S2 and S5: of the legal `discards`, those that cannot lose a win while the
    /// stock lasts under `fill="any"` with lone cards kept in place (S2: where S1
    /// fails): a lone card's, and with no pile empty (S5) one whose pile no other
    /// discards could empty before the next deal if it waited.
    #[inline(always)]
    fn safe_discards(&self, s: &CompactState<N, P>, discards: u8) -> u8 {
        let lone = (0..P).fold(0, |m, p| m | u8::from(s.heights[p] == 1) << p);
        let mut safe = lone;
        if s.empty() == 0 {
            let mut rest = discards & !lone;
            while rest != 0 {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                safe |= u8::from(!self.pile_may_empty_without(s, p)) << p;
            }
        }
        discards & safe
    }

    /// S11: with the deal open, play the discards of cards that are the lowest of
    /// their suit still in play (in the piles or the stock), where the proof allows
    /// them: under `deal_to="all"` with lone cards free to move (`relocate_single`).
    /// Returns the piles that may still be discarded, every one a branch (S10).
    fn close_open(&mut self, s: &mut CompactState<N, P>) -> u8 {
        let rules = self.ctx.rules;
        loop {
            let all = self.ctx.discards(s);
            if all == 0 || rules.deal_to != DealTo::All || !rules.relocate_single {
                return all;
            }
            let in_play = self.in_play(s);
            let lowest = (0..P).fold(0u8, |m, p| {
                let bit = self.ctx.bits[usize::from(s.tops[p])];
                m | u8::from(in_play & rules::weaker_bits(bit) == 0) << p
            });
            let forced = all & lowest;
            if forced == 0 {
                return all;
            }
            self.discard_tops(s, forced);
        }
    }

    /// Discard the top card of every pile in `mask` (each discard in it stays
    /// legal while the others are played), writing them down while the line is
    /// played again.
    #[inline(always)]
    fn discard_tops(&mut self, s: &mut CompactState<N, P>, mask: u8) {
        if self.record {
            self.buffers.line.extend(
                (0..P as u8)
                    .filter(|p| mask >> p & 1 == 1)
                    .map(Move::Discard),
            );
        }
        if OPEN {
            // Without a branch per pile, as `CompactState::discard_tops`: a pile outside the
            // mask is masked out.
            s.gone |= (0..P).fold(0, |m, p| {
                let bit = self.ctx.bits[usize::from(s.tops[p])];
                m | bit & 0u64.wrapping_sub(u64::from(mask >> p & 1))
            });
        }
        s.discard_tops(mask);
    }

    /// S14: under `fill="top"`, with a pile empty, a fill of a top card that lies
    /// right on a stronger card of its suit (it is discarded from the empty pile
    /// next, by the card it uncovers).
    fn covered_stronger_card(&self, s: &CompactState<N, P>) -> Option<Move> {
        let dst = s.empty().trailing_zeros() as u8;
        if dst >= P as u8 {
            return None;
        }
        let bits = self.ctx.bits;
        (0..P).find_map(|src| {
            let top = bits[usize::from(s.tops[src])];
            let under = bits[usize::from(s.below(src, s.heights[src].wrapping_sub(1)))];
            (s.heights[src] >= 2 && rules::stronger_bits(top) & under != 0).then_some(Move::Fill {
                src: src as u8,
                dst,
                index: 0,
            })
        })
    }

    /// S5: whether discards alone, none of them from pile `kept`, can empty a pile
    /// (asked by [`Self::safe_discards`]).
    /// (They are all that is legal until some pile is empty, and a legal discard
    /// stays legal, so their closure empties a pile if any order of them does.)
    fn pile_may_empty_without(&self, s: &CompactState<N, P>, kept: usize) -> bool {
        let mut t = *s;
        loop {
            let discards = self.ctx.discards(&t) & !(1 << kept);
            if discards == 0 {
                return false;
            }
            let p = discards.trailing_zeros() as usize;
            t.take(p, 0);
            if t.heights[p] == 0 {
                return true;
            }
        }
    }

    /// S4: with the stock empty and a pile empty, a fill that moves a buried card
    /// that a top card of its suit outranks (it is discarded from there next).
    fn witnessed_buried_card(&self, s: &CompactState<N, P>) -> Option<Move> {
        let dst = s.empty().trailing_zeros() as u8;
        if dst >= P as u8 {
            return None;
        }
        let tops = self.ctx.seen(s).tops();
        for src in 0..P {
            for index in 1..s.height(src) {
                let card = s.card_from_top(src, index);
                if rules::stronger_bits(self.ctx.bits[usize::from(card)]) & tops != 0 {
                    return Some(Move::Fill {
                        src: src as u8,
                        dst,
                        index: index as u64,
                    });
                }
            }
        }
        None
    }
}
