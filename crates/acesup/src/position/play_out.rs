//! The hot loop of the play-outs: [`Position::play_out_piles`] and the forced
//! discards ([`Position::discard_forced`]), which work on a copy of the piles' tops
//! and counts held in registers ([`TopsInRegisters`]) and read the rules through
//! it ([`TableauInRegisters`]).

use super::{at, Position};
use crate::cards::Card;
use crate::moves::{Move, MAX_PILES};
use crate::rules::{self, by_piles, DealTo, LegalMoves, Rules, Tableau};
use std::hint::select_unpredictable;

/// What [`Position::play_out_piles`] asks of the strategy it plays for.
pub trait PlayOut {
    /// Make the draws of a decision in which the deal is the only legal move.
    fn forced_deal(&mut self);
    /// The move to play in `pos`, a game that is not over and in which no discard
    /// is legal; `moves` are its legal moves.
    fn decide(&mut self, pos: &Position, moves: &LegalMoves) -> Move;
    /// The move that [`PlayOut::decide`] plays, when `moves` alone settle it
    /// (random's always do, noop's when the deal is legal): then the loop need not
    /// store its registers to ask. None (the default) when the strategy must read
    /// the position.
    #[inline]
    fn decide_from_moves(&mut self, _moves: &LegalMoves) -> Option<Move> {
        None
    }
}

impl Position {
    /// Play every legal discard until none is legal (the built-ins all start so).
    ///
    /// This is the hot loop of the play-outs, so it works in rounds without a branch
    /// per pile: a round discards from every pile that may be discarded. A legal
    /// discard stays legal until it is played (the higher card of its suit stays
    /// on top, or an even higher one does), so the rounds reach the position that
    /// discarding first in R3 order, again and again, reaches; only the order of the
    /// cards in the discards can differ.
    #[inline]
    pub(crate) fn discard_forced(&mut self) {
        by_piles!(self.rules, P => self.discard_forced_piles::<P>())
    }

    /// [`Position::discard_forced`] for a layout of `P` piles.
    #[inline]
    pub(crate) fn discard_forced_piles<const P: usize>(&mut self) {
        let mut tops = TopsInRegisters::<P>::load(self);
        tops.discard_rounds(self);
        tops.store(self);
    }

    /// Play the game to its end for `strategy`, which plays every legal discard
    /// first (as [`Position::discard_forced`] does, in rounds) and decides the
    /// other moves: the hot loop of the play-outs, for a layout of `P` piles.
    ///
    /// The commonest steps work on a [`TopsInRegisters`] copy held in registers, with the
    /// stock's start `next` and the record `deal_starts` (the position's fields
    /// while the loop runs): the rounds of discards, a deal onto every pile, and the
    /// decisions that the legal moves alone settle (random's, noop's deals),
    /// when it fills with a top card or deals onto every pile. The legal moves are
    /// those of the registers' position ([`TableauInRegisters`]), by the rules' own functions. Any
    /// other step (a decision that reads the position, a short last deal, a buried
    /// card's fill) stores them back and plays through [`Position::apply_piles`].
    #[inline]
    pub(crate) fn play_out_piles<const P: usize>(&mut self, strategy: &mut impl PlayOut) {
        if self.rules.reserve > 0 {
            return self.play_out_with_reserve::<P>(strategy);
        }
        let end = usize::from(self.stock_end);
        // Whether a deal with an empty pile puts a card on every pile.
        let deal_to_all = self.rules.deal_to == DealTo::All;
        /// Where the steps in registers stop.
        enum RegisterExit {
            Over,
            Play(Move),
            Decide(LegalMoves),
        }
        loop {
            let mut regs = TopsInRegisters::<P>::load(self);
            let mut next = usize::from(self.stock_next);
            let mut deal_starts = self.deal_starts;
            let step = loop {
                regs.discard_rounds(self);
                // With no empty pile no fill is legal: the deal is the only move, if any.
                // One test of all the heights, not a branch per pile.
                let empty = regs.heights[..P]
                    .iter()
                    .fold(0, |n, &h| n | u8::from(h == 0));
                if empty == 0 {
                    if next == end {
                        break RegisterExit::Over;
                    }
                    strategy.forced_deal();
                    if end - next < P {
                        break RegisterExit::Play(Move::Deal);
                    }
                } else {
                    let view = TableauInRegisters {
                        tops: &regs,
                        pos: self,
                        stock: end - next,
                    };
                    // No discard is legal after the rounds.
                    let moves = LegalMoves::with_discards::<_, P>(&view, 0);
                    if moves.is_empty() {
                        break RegisterExit::Over;
                    }
                    match strategy.decide_from_moves(&moves) {
                        None => break RegisterExit::Decide(moves),
                        Some(Move::Fill { src, dst, index: 0 }) => {
                            regs.fill_top(self, usize::from(src), usize::from(dst));
                            continue;
                        }
                        Some(Move::Deal) if deal_to_all & (end - next >= P) => {}
                        Some(mv) => break RegisterExit::Play(mv),
                    }
                }
                // A deal onto every pile (so under either `deal_to`), recorded for undo.
                deal_starts |= 1 << next;
                regs.deal_all(self, next);
                next += P;
            };
            regs.store(self);
            self.stock_next = next as u8;
            self.deal_starts = deal_starts;
            match step {
                RegisterExit::Over => return,
                RegisterExit::Play(mv) => self.apply_piles::<P>(mv),
                RegisterExit::Decide(moves) => {
                    let mv = strategy.decide(self, &moves);
                    self.apply_piles::<P>(mv);
                }
            }
        }
    }
}

impl Position {
    /// [`Position::play_out_piles`] under rules with a reserve (R2.4), whose moves
    /// the steps in registers do not know (with no empty pile a card may still go
    /// to the reserve): the forced discards, then the strategy's decision, asked at
    /// every step, a forced deal included (its draws are the decision's).
    #[cold]
    fn play_out_with_reserve<const P: usize>(&mut self, strategy: &mut impl PlayOut) {
        loop {
            self.discard_forced_piles::<P>();
            let moves = LegalMoves::of_piles::<Position, P>(self);
            if moves.is_empty() {
                return;
            }
            let mv = strategy.decide(self, &moves);
            self.apply_piles::<P>(mv);
        }
    }
}

/// The tops and counts of a [`Position`] of `P` piles, copied into locals (so
/// registers) by the hot loops while the cards in memory (`below`, the stock, the
/// discards) stay in the position. Invariants: `top[p]` is pile p's top card
/// (NONE when empty) and `bits[p]` its bit (0 when empty), `tops` the OR of
/// `bits`; `heights` and `n` are the heights and the number of discards.
struct TopsInRegisters<const P: usize> {
    top: [Card; MAX_PILES],
    bits: [u64; MAX_PILES],
    heights: [u8; MAX_PILES],
    tops: u64,
    n: usize,
}

impl<const P: usize> TopsInRegisters<P> {
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // (an iterator here costs 8% of a play-out)
    fn load(pos: &Position) -> TopsInRegisters<P> {
        let mut bits = [0; MAX_PILES];
        for p in 0..P {
            bits[p] = pos.bit_of[pos.top[p].index()];
        }
        TopsInRegisters {
            top: pos.top,
            bits,
            heights: pos.heights,
            tops: pos.tops,
            n: usize::from(pos.n_discards),
        }
    }

    #[inline(always)]
    fn store(&self, pos: &mut Position) {
        pos.top = self.top;
        pos.heights = self.heights;
        pos.tops = self.tops;
        pos.n_discards = self.n as u8;
        pos.empty = self.heights[..P].iter().map(|&h| u8::from(h == 0)).sum();
    }

    /// Deal `pos.stock[next..next + P]` onto the piles, one card each.
    #[inline(always)]
    fn deal_all(&mut self, pos: &mut Position, next: usize) {
        self.tops = 0;
        for p in 0..P {
            let card = pos.stock[at(next + p)];
            pos.below[at(card.index())] = self.top[p];
            self.top[p] = card;
            self.bits[p] = pos.bit_of[card.index()];
            self.heights[p] += 1;
            self.tops |= self.bits[p];
        }
    }

    /// Fill the empty pile `dst` with the top card of pile `src`. Every pile is
    /// looked at, none picked by index: an index into the arrays would keep them in
    /// memory rather than in registers for the whole loop.
    #[inline(always)]
    fn fill_top(&mut self, pos: &mut Position, src: usize, dst: usize) {
        let card = (0..P).fold(Card::NONE, |card, p| {
            select_unpredictable(p == src, self.top[p], card)
        });
        let under = pos.below[at(card.index())];
        pos.below[at(card.index())] = Card::NONE; // `dst` is empty
        let (under_bit, card_bit) = (pos.bit_of[under.index()], pos.bit_of[card.index()]);
        for p in 0..P {
            let (from, to) = (p == src, p == dst);
            let top = select_unpredictable(to, card, self.top[p]);
            self.top[p] = select_unpredictable(from, under, top);
            let bit = select_unpredictable(to, card_bit, self.bits[p]);
            self.bits[p] = select_unpredictable(from, under_bit, bit);
            self.heights[p] = self.heights[p] - u8::from(from) + u8::from(to);
        }
        // The card's bit moved from one pile to another: only the bit under it is new.
        self.tops |= under_bit;
    }

    /// [`Position::discard_forced`]: rounds that each discard from every pile that
    /// may be discarded (R2.1), without a branch per pile, until none may.
    #[inline(always)]
    fn discard_rounds(&mut self, pos: &mut Position) {
        loop {
            let mut mask = 0u8;
            for p in 0..P {
                mask |= u8::from(self.tops & rules::stronger_bits(self.bits[p]) != 0) << p;
            }
            if mask == 0 {
                return;
            }
            self.tops = 0;
            for p in 0..P {
                let discarded = mask >> p & 1;
                let card = self.top[p];
                pos.discards[at(self.n)] = card; // kept only when discarded
                self.n += usize::from(discarded);
                let under = pos.below[at(card.index())];
                // Selects, not branches: whether a pile goes is a coin toss. The bit
                // of the card under is looked up before the round's mask is known,
                // so that the next mask waits for the select only.
                let under_bit = pos.bit_of[under.index()];
                self.top[p] = select_unpredictable(discarded == 1, under, card);
                self.bits[p] = select_unpredictable(discarded == 1, under_bit, self.bits[p]);
                self.heights[p] -= discarded;
                self.tops |= self.bits[p];
            }
        }
    }
}

/// The position that [`Position::play_out_piles`] holds in registers, as the rule
/// functions read it: the tops and counts of `tops`, the cards under them in
/// `pos`, `stock` cards in the stock.
struct TableauInRegisters<'a, const P: usize> {
    tops: &'a TopsInRegisters<P>,
    pos: &'a Position,
    stock: usize,
}

impl<const P: usize> Tableau for TableauInRegisters<'_, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.pos.rules
    }

    #[inline(always)]
    fn height(&self, p: usize) -> usize {
        usize::from(self.tops.heights[p])
    }

    #[inline]
    fn card_from_top(&self, p: usize, index: usize) -> Card {
        (0..index).fold(self.tops.top[p], |card, _| self.pos.below[at(card.index())])
    }

    #[inline(always)]
    fn top_bit(&self, p: usize) -> u64 {
        self.tops.bits[p]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        self.tops.tops
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.stock
    }

    #[inline(always)]
    fn empty_piles(&self) -> usize {
        self.tops.heights[..P].iter().filter(|&&h| h == 0).count()
    }

    #[inline(always)]
    fn empty_mask(&self) -> u8 {
        (0..P).fold(0, |m, p| m | u8::from(self.tops.heights[p] == 0) << p)
    }
}
