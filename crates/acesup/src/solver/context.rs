//! What stays fixed while one position is solved, its rules and its stock
//! ([`StockContext`]), and a compact state as the rules read it ([`StateTableau`]):
//! the search has no rules of its own.

use super::keys::NO_HOME;
use super::state::{CompactState, CARDS};
use crate::cards::Card;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{self, DealTo, FillRule, LegalMoves, Rules, Tableau};

/// What stays fixed while one position is solved: the rules and the stock.
pub(super) struct StockContext {
    pub(super) rules: Rules,
    /// The stock at the root, in deal order, as card indices: `stock[..stock_len]`
    /// (an array, so that a solve allocates nothing for it).
    pub(super) stock: [u8; CARDS],
    pub(super) stock_len: usize,
    /// `rules::top_bits` of the rank order in force.
    pub(super) bits: &'static rules::BitTable,
    /// The bits of the cards in play at the root, in its piles and its stock: with
    /// `CompactState::gone`, the cards in play under `deal="any"`.
    pub(super) cards: u64,
    /// The home of each card (by index): the pile it was dealt to, the root's
    /// piles included, or [`NO_HOME`] for a stock card under `deal_to="empty"`,
    /// whose pile depends on the line ([`Search::key`]).
    pub(super) home: [u8; CARDS + 1],
    /// The layout's deck size D and win score D − S (R4.2), looked up once.
    deck_size: usize,
    pub(super) win_score: usize,
    /// S2: whether a discard from a pile of two cards or more may lose a win while
    /// the stock lasts (`fill="any"` and lone cards may not move), looked up once.
    pub(super) guarded: bool,
}

/// A state as the rules read it: with the rules and the stock of its [`StockContext`].
/// The bits of its top cards are looked up as the rules ask for them: every rule
/// function is inlined, so the compiler looks each up once and drops those unused.
pub(super) struct StateTableau<'a, const N: usize, const P: usize> {
    ctx: &'a StockContext,
    state: &'a CompactState<N, P>,
}

impl<const N: usize, const P: usize> Tableau for StateTableau<'_, N, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.ctx.rules
    }

    #[inline(always)]
    fn height(&self, p: usize) -> usize {
        self.state.height(p)
    }

    #[inline(always)]
    fn card_from_top(&self, p: usize, index: usize) -> Card {
        Card::new(self.state.card_from_top(p, index))
    }

    #[inline(always)]
    fn top_bit(&self, p: usize) -> u64 {
        self.ctx.bits[usize::from(self.state.tops[p])]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        (0..P).fold(0, |m, p| m | self.top_bit(p))
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.ctx.stock_left(self.state)
    }

    #[inline(always)]
    fn empty_piles(&self) -> usize {
        self.state.empty().count_ones() as usize
    }

    #[inline(always)]
    fn empty_mask(&self) -> u8 {
        self.state.empty()
    }
}

impl StockContext {
    /// The rules and the stock of `pos`.
    pub(super) fn of(pos: &Position) -> StockContext {
        let bits = rules::top_bits(pos.rules.ace_high);
        let mut stock = [0; CARDS];
        for (place, card) in stock.iter_mut().zip(pos.stock()) {
            *place = card.index() as u8;
        }
        // Card i of the stock goes to pile i mod P under `deal_to="all"` (R2.3).
        let mut home = [NO_HOME; CARDS + 1];
        for p in 0..pos.piles() {
            for card in pos.cards_from_top(p) {
                home[card.index()] = p as u8;
            }
        }
        if pos.rules.deal_to == DealTo::All {
            for (i, card) in pos.stock().iter().enumerate() {
                home[card.index()] = (i % pos.piles()) as u8;
            }
        }
        StockContext {
            rules: pos.rules,
            stock,
            stock_len: pos.stock().len(),
            bits,
            cards: (0..pos.piles())
                .flat_map(|p| pos.cards_from_top(p))
                .chain(pos.stock().iter().copied())
                .fold(0, |m, c| m | bits[c.index()]),
            home,
            deck_size: pos.rules.deck_size(),
            win_score: pos.rules.win_score(),
            guarded: pos.rules.fill == FillRule::Any && !pos.rules.relocate_single,
        }
    }

    /// The stock at the root, in deal order.
    #[inline]
    pub(super) fn stock(&self) -> &[u8] {
        &self.stock[..self.stock_len]
    }

    /// `s` as the rules read it.
    #[inline(always)]
    pub(super) fn seen<'a, const N: usize, const P: usize>(
        &'a self,
        s: &'a CompactState<N, P>,
    ) -> StateTableau<'a, N, P> {
        StateTableau {
            ctx: self,
            state: s,
        }
    }

    #[inline]
    pub(super) fn stock_left<const N: usize, const P: usize>(
        &self,
        s: &CompactState<N, P>,
    ) -> usize {
        self.stock_len - usize::from(s.dealt)
    }

    /// The cards discarded so far: those of the layout's deck that are neither in
    /// the piles nor in the stock.
    #[inline]
    pub(super) fn score<const N: usize, const P: usize>(&self, s: &CompactState<N, P>) -> usize {
        self.deck_size - s.total() - self.stock_left(s)
    }

    /// The piles that may be discarded (R2.1, `rules::discard_mask`).
    #[inline]
    pub(super) fn discards<const N: usize, const P: usize>(&self, s: &CompactState<N, P>) -> u8 {
        rules::discard_mask_of::<_, P>(&self.seen(s))
    }

    /// `rules::fill_choices` of pile p (R2.2).
    #[inline]
    pub(super) fn fill_choices<const N: usize, const P: usize>(
        &self,
        s: &CompactState<N, P>,
        p: usize,
    ) -> usize {
        rules::fill_choices(&self.seen(s), p)
    }

    /// The legal moves (R2, R3), as `rules::LegalMoves` lists them, given
    /// `discards`, the piles that may be discarded ([`StockContext::discards`]).
    #[inline]
    pub(super) fn legal<const N: usize, const P: usize>(
        &self,
        s: &CompactState<N, P>,
        discards: u8,
    ) -> LegalMoves {
        LegalMoves::with_discards::<_, P>(&self.seen(s), discards)
    }

    /// Play `mv`, known to be legal, on `s`: the cards go where R2 says, and a deal
    /// to the piles of `rules::deal_targets`, in pile order.
    #[inline(always)]
    pub(super) fn apply<const N: usize, const P: usize>(
        &self,
        s: &mut CompactState<N, P>,
        mv: Move,
    ) {
        match mv {
            Move::Discard(p) => {
                s.take(usize::from(p), 0);
            }
            Move::Fill { src, dst, index } => {
                let card = s.take(usize::from(src), index as usize);
                s.push(usize::from(dst), card);
            }
            Move::Deal => {
                let targets = rules::deal_targets(&self.seen(s));
                let mut next = usize::from(s.dealt);
                if u32::from(targets) == (1 << P) - 1 {
                    // A whole deal, the common case: no test per pile, and every
                    // height goes up by one at once.
                    let cards = &self.stock[next..next + P];
                    #[allow(clippy::needless_range_loop)] // three arrays, one index
                    for p in 0..P {
                        s.piles[p][s.height(p)] = cards[p];
                        s.tops[p] = cards[p];
                    }
                    s.heights = s.heights.map(|h| h + 1);
                    next += P;
                } else {
                    for p in (0..P).filter(|p| targets >> p & 1 == 1) {
                        s.push(p, self.stock[next]);
                        next += 1;
                    }
                }
                s.dealt = next as u8;
            }
            Move::ToReserve(_) | Move::FromReserve(_) => {
                unreachable!("the solver refuses rules with a reserve")
            }
        }
    }
}
