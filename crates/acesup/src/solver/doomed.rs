//! Stocks that doom the game whatever is played before their last deals (SOLVER.md
//! S8, and S12 under `deal="any"`), asked once at the root.

use super::context::StockContext;
use super::fixpoint::Columns;
use super::search::Search;
use super::state::{CompactState, NO_CARD};
use crate::cards::Card;
use crate::moves::Move;
use crate::rules::{self, DealRule, DealTo, Rules, Tableau};

/// S8's first look at one whole deal of the stock, `stock[first..first + P]`, as the
/// rules read it when it has been dealt onto empty piles: a card on each pile.
struct DealOnEmptyPiles<'a, const P: usize> {
    ctx: &'a StockContext,
    first: usize,
}

impl<const P: usize> Tableau for DealOnEmptyPiles<'_, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.ctx.rules
    }

    #[inline(always)]
    fn height(&self, _p: usize) -> usize {
        1
    }

    #[inline(always)]
    fn card_from_top(&self, p: usize, _index: usize) -> Card {
        Card::new(self.ctx.stock[self.first + p])
    }

    #[inline(always)]
    fn top_bit(&self, p: usize) -> u64 {
        self.ctx.bits[usize::from(self.ctx.stock[self.first + p])]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        (0..P).fold(0, |m, p| m | self.top_bit(p))
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.ctx.stock_len - self.first - P
    }

    #[inline(always)]
    fn empty_piles(&self) -> usize {
        0
    }

    #[inline(always)]
    fn empty_mask(&self) -> u8 {
        0
    }
}

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// S8: whether the last deals alone doom the game. Right after a deal that
    /// reaches every pile, the cards it brought are the top cards, and they cover
    /// everything below. Deal the last k deals onto piles whose cards we do not look
    /// at, and play every discard among the cards dealt: if no pile ever loses all
    /// the cards dealt onto it, no pile is ever empty, so nothing but these discards
    /// and the deals is ever legal; and if a card other than a top-rank one is left
    /// at the end, the game is lost, whatever happens before those k deals. Only
    /// under `deal_to="all"`, which cuts the stock into deals of P cards from its
    /// front whatever the piles hold, and not under `deal="any"`, which lets a line
    /// deal before its discards.
    pub(super) fn stock_is_doomed(&self) -> bool {
        let rules = self.ctx.rules;
        if rules.deal_to == DealTo::Empty {
            return false;
        }
        if rules.deal == DealRule::Any {
            return self.stock_is_doomed_for_any();
        }
        let stock = self.ctx.stock_len;
        let deals = stock.div_ceil(P);
        (1..=deals).any(|k| {
            let first = (deals - k) * P;
            // The first of the k deals must reach every pile (a partial last deal
            // alone leaves piles that we do not see on top).
            if first + P > stock {
                return false;
            }
            // On the empty piles the first deal leaves one card on each: a discard
            // among them empties a pile at once. (Nine times in ten it has one, so
            // this is asked before the piles are built.)
            let alone = DealOnEmptyPiles::<P> {
                ctx: self.ctx,
                first,
            };
            if rules::discard_mask_of::<_, P>(&alone) != 0 {
                return false;
            }
            let mut t = CompactState::<N, P> {
                dealt: first as u8,
                ..CompactState::EMPTY
            };
            for _ in 0..k {
                self.ctx.apply(&mut t, Move::Deal);
                while let d @ 1.. = self.ctx.discards(&t) {
                    let p = d.trailing_zeros() as usize;
                    t.take(p, 0);
                    if t.heights[p] == 0 {
                        return false;
                    }
                }
            }
            (0..P).any(|p| {
                t.pile(p)
                    .iter()
                    .any(|&c| !rules::is_top_rank(Card::new(c), &rules))
            })
        })
    }

    /// S12: S8 for `deal="any"` (under `deal_to="all"`), where a line may deal
    /// before its discards. Take the last k deals, the first of them a whole one:
    /// its cards cover every pile, and a line that wins deals them. From then on,
    /// S13's fixpoint on the cards of the k deals alone, over whatever lies below
    /// them: if none of that deal's cards can leave, no pile is ever empty, nothing
    /// below is ever seen again, and a card of the k deals that is not of the top
    /// rank and can never leave loses the game.
    fn stock_is_doomed_for_any(&self) -> bool {
        let dealt = self.deals_from(0);
        let deals = dealt.len();
        (1..=deals).any(|k| {
            let last = &dealt[deals - k..];
            if last[0].cards.contains(&NO_CARD) {
                return false;
            }
            let mut room = self.room.borrow_mut();
            let mut columns = Columns::new(self.ctx.bits, &[&[]; P], last, 1, 0, &mut room);
            let (removable, emptied) = self.removable(&mut columns, 1);
            // The cards in play: those of the k deals, over piles left out.
            emptied == k + 1 && last[0].later & !removable[k] & !rules::TOP_RANK_BITS != 0
        })
    }
}
