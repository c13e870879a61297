//! The random strategy's play-out of a seeded deal: the hot loop of
//! `simulate(..., "random")`, in a representation of its own.
//!
//! A game of the random strategy needs nothing but its score from the loop, so this
//! loop keeps no [`Position`](crate::Position) and no discards. A card is its *code*, its bit's place
//! in a mask of top cards in the [`falling`] order of the lanes: suit s has the lane
//! of bits 16s .. 16s + 15, in which a stronger card is a *lower* bit (bit 16s + 12
//! − strength), so that the tops that may be discarded are found for all piles at
//! once by one subtraction ([`discardable`]). Every table has 256 places, so that a code indexes it with no
//! bounds check. The tops stay in registers; the cards under them are a linked
//! list in memory (`below`), and each card's place in its pile (`depth`) gives the
//! heights. The decisions are the rules' own ([`rules::fill_choices`],
//! `rules::deal_allowed`, and [`LegalMoves`] under `fill="any"` and `"stack"`) on a [`Tableau`]
//! view of the registers, with `Random::pick`'s draw.
//!
//! `RandomTable::position` turns the end of a game into a `Position`, so that the
//! tests can check this loop against the plain play of `Game`.

use crate::cards::Card;
use crate::lanes::falling::{self, discardable};
use crate::moves::{Move, MAX_PILES};
use crate::rng::{game_seed, shuffle_places, Rng};
use crate::rules::{self, by_piles, DealTo, FillRule, LegalMoves, Rules, Tableau};
use crate::strategies::Random;
use std::hint::select_unpredictable;

/// No card: what is under the bottom card of a pile, and the top of an empty pile.
/// Its bit is the high bit of the first lane, so that `tops` shows an empty pile;
/// it discards nothing (see [`discardable`]), and an empty pile that "discards"
/// stays empty, for `below[NONE]` is [`NONE`], so only the test for an end of the
/// rounds must leave it out.
const NONE: u8 = 15;

/// The places of the deck's arrays: 52 cards fit, and an index taken modulo 64 is
/// a mask, not a division.
const CAP: usize = 64;

/// [`NONE`]'s bit: set in the mask of top cards when a pile is empty.
const NONE_BIT: u64 = 1 << NONE;

/// The card's bit in a mask of top cards.
#[inline(always)]
fn bit(code: usize) -> u64 {
    1 << (code & 63)
}

/// A code held in a register (a `usize`, so that no read widens it) as an index of
/// a table of 256 places: the mask shows the compiler that it is in bounds.
#[inline(always)]
fn at(code: usize) -> usize {
    code & 255
}

/// What a thread keeps from one random game to the next: the layout, its deck in
/// index order as codes, and the cards of the game in play.
///
/// Invariants while a game is played and after it: `cards[..D]` is the shuffled deck
/// in deal order (the first P cards went onto the piles, `cards[next..D]` is the
/// stock); pile p is `top[p]`, `below[top[p]]`, ... down to [`NONE`], and
/// `depth[top[p]]` cards (`depth[NONE]` is 0); the other cards of the deck are the
/// discards.
#[derive(Clone)]
pub(crate) struct RandomTable {
    rules: Rules,
    deck: [u8; CAP],
    /// The card of each code.
    card_of: [Card; 256],
    /// The [`rules::top_bit`] of each code's card, 0 for [`NONE`].
    rules_bit: [u64; 256],
    cards: [u8; CAP],
    /// The card under each card: the piles' linked lists.
    below: [u8; 256],
    /// Each card's place in its pile, from 1 at the bottom.
    depth: [u8; 256],
    top: [u8; MAX_PILES],
    next: usize,
}

impl RandomTable {
    pub(crate) fn new(rules: Rules) -> RandomTable {
        let mut deck = [NONE; CAP];
        let mut card_of = [Card::NONE; 256];
        let mut rules_bit = [0; 256];
        for (code, card) in deck.iter_mut().zip(rules.deck()) {
            *code = card_code(card, &rules);
            card_of[usize::from(*code)] = card;
            rules_bit[usize::from(*code)] = rules::top_bit(card, rules.ace_high);
        }
        RandomTable {
            rules,
            deck,
            card_of,
            rules_bit,
            cards: deck,
            below: [NONE; 256],
            depth: [0; 256],
            top: [NONE; MAX_PILES],
            next: 0,
        }
    }

    /// The score of game `index` of master seed `seed` played by the random
    /// strategy: `Game.from_seed(game_seed(seed, index))` played to its end.
    #[inline]
    pub(crate) fn play(&mut self, seed: u64, index: u64) -> usize {
        let mut rng = self.shuffle(seed, index);
        if self.rules == Rules::standard() {
            self.play_piles::<4, true>(&mut rng)
        } else {
            by_piles!(self.rules, P => self.play_piles::<P, false>(&mut rng))
        }
    }

    /// Shuffle game `index` of master seed `seed` into `cards`; its strategy stream.
    #[inline(always)]
    fn shuffle(&mut self, seed: u64, index: u64) -> Rng {
        let mut rng = Rng::new(game_seed(seed, index));
        let size = self.rules.deck_size();
        self.cards = self.deck;
        shuffle_places(&mut self.cards, size, &mut rng);
        rng
    }

    /// [`RandomTable::play`] after the shuffle, for a layout of `P` piles: the
    /// random strategy's loop (STRATEGIES.md "random": the forced discards, then one
    /// draw per decision, the deal's when it is the only move too). Compiled once
    /// more for the standard rules (`STANDARD`), whose options are then constants.
    #[inline]
    fn play_piles<const P: usize, const STANDARD: bool>(&mut self, rng: &mut Rng) -> usize {
        let rules = if STANDARD {
            Rules::standard()
        } else {
            self.rules
        };
        let end = rules.deck_size();
        let deal_to_all = rules.deal_to == DealTo::All;
        let mut regs =
            CodesInRegisters::<P>::first_deal(&mut self.below, &mut self.depth, &self.cards);
        let mut next = P;
        loop {
            regs.discard_rounds(&self.below);
            let mv = if !regs.any_empty() {
                // No fill is legal without an empty pile: the deal is the only move,
                // if any, and random draws for it all the same.
                if next == end {
                    break;
                }
                rng.skip(1);
                Move::Deal
            } else {
                let view = CodeTableau {
                    piles: &regs,
                    table: self,
                    rules,
                    stock: end - next,
                };
                match pick(&view, rng) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            match mv {
                Move::Fill { src, dst, index } => regs.fill(
                    &mut self.below,
                    &mut self.depth,
                    usize::from(src),
                    usize::from(dst),
                    index,
                    rules.fill == FillRule::Stack,
                ),
                Move::Deal if (deal_to_all | !regs.any_empty()) & (end - next >= P) => {
                    regs.deal_all(&mut self.below, &mut self.depth, &self.cards, next);
                    next += P;
                }
                Move::Deal => {
                    let view = CodeTableau {
                        piles: &regs,
                        table: self,
                        rules,
                        stock: end - next,
                    };
                    let targets = rules::deal_targets(&view);
                    for p in (0..P).filter(|&p| targets >> p & 1 == 1) {
                        regs.push(&mut self.below, &mut self.depth, p, self.cards[next]);
                        next += 1;
                    }
                }
                Move::Discard(_) => unreachable!("no discard is legal after the rounds"),
                Move::ToReserve(_) | Move::FromReserve(_) => {
                    unreachable!("rules with a reserve take the general play-out")
                }
            }
        }
        self.top = regs.top.map(|code| code as u8);
        self.next = next;
        // The cards that are neither on the piles nor in the stock (`cards[next..]`)
        // are the discards.
        next - (0..P).map(|p| self.height(p)).sum::<usize>()
    }

    /// Pile p's height at the end of the last game.
    fn height(&self, p: usize) -> usize {
        usize::from(self.depth[usize::from(self.top[p])])
    }

    /// The end of the last game played, as a position (its discards in index order):
    /// what the tests (here and in `simulate`) check this loop against.
    #[cfg(test)]
    pub(crate) fn position(&self) -> crate::Position {
        let card = |code: u8| self.card_of[usize::from(code)];
        let piles: Vec<Vec<Card>> = (0..usize::from(self.rules.piles))
            .map(|p| {
                let mut pile = Vec::new();
                let mut code = self.top[p];
                for _ in 0..self.height(p) {
                    pile.push(card(code));
                    code = self.below[usize::from(code)];
                }
                pile.reverse();
                pile
            })
            .collect();
        let stock: Vec<Card> = self.cards[self.next..self.rules.deck_size()]
            .iter()
            .map(|&code| card(code))
            .collect();
        let discards: Vec<Card> = self
            .rules
            .deck()
            .into_iter()
            .filter(|c| !stock.contains(c) && !piles.iter().flatten().any(|d| d == c))
            .collect();
        crate::Position::from_parts(self.rules, &piles, &stock, &discards, &[])
            .expect("a random play-out keeps every card once")
    }
}

/// A card's code: the place of its bit in its suit's lane, counted from the
/// strongest (see the module's doc).
fn card_code(card: Card, rules: &Rules) -> u8 {
    falling::place(card.suit(), rules::strength(card, rules))
}

/// Put `card` on the pile whose top is `top`: the pile's new top.
#[inline(always)]
fn place(below: &mut [u8; 256], depth: &mut [u8; 256], top: usize, card: u8) -> usize {
    below[usize::from(card)] = top as u8;
    depth[usize::from(card)] = depth[at(top)] + 1;
    usize::from(card)
}

/// Random's choice ([`Random::pick`] of the [`LegalMoves`]) in `view`, a game with
/// an empty pile in which no discard is legal, or None when no move is legal.
/// When the fill rule moves top cards only (`fill="top"` or `"ace"`), the moves are
/// counted by masks: the fills, one from each source onto each empty pile in R3
/// order (source by source, each onto the empty piles in order), then the deal.
#[inline(always)]
fn pick<const P: usize>(view: &CodeTableau<P>, rng: &mut Rng) -> Option<Move> {
    let rules = view.rules();
    if matches!(rules.fill, FillRule::Any | FillRule::Stack) {
        let moves = LegalMoves::with_discards::<_, P>(view, 0);
        return (!moves.is_empty()).then(|| Random::pick(&moves, rng));
    }
    let (mut sources, mut real_fill) = (0u8, false);
    for p in 0..P {
        // One fill or none from each pile under these fill rules.
        let source = rules::fill_choices(view, p) > 0;
        sources |= u8::from(source) << p;
        real_fill |= source & (view.height(p) >= 2);
    }
    let empty = view.empty_mask();
    let deal = rules::deal_allowed(rules.deal, view.stock, 0, real_fill);
    let per_source = empty.count_ones();
    let fills = sources.count_ones() * per_source;
    let count = fills + u32::from(deal);
    if count == 0 {
        return None;
    }
    let i = rng.below(u64::from(count)) as u32;
    if i == fills {
        return Some(Move::Deal);
    }
    let (source, target) = SPLIT_FILL[at(per_source as usize) & 7][at(i as usize) & 7];
    Some(Move::Fill {
        src: rules::nth_bit(sources, usize::from(source)) as u8,
        dst: rules::nth_bit(empty, usize::from(target)) as u8,
        index: 0,
    })
}

/// `SPLIT_FILL[e][i]` is `(i / e, i % e)`: fill `i` of [`pick`]'s count is that
/// source's fill onto that empty pile, when `e` piles are empty. A table, not a
/// division, for it is on the path of every random fill. Every count fits: fills
/// number sources × empty piles, at most 2 × 3 among 5 piles.
static SPLIT_FILL: [[(u8, u8); 8]; 8] = {
    let mut table = [[(0, 0); 8]; 8];
    let mut e = 1;
    while e < 8 {
        let mut i = 0;
        while i < 8 {
            table[e][i] = ((i / e) as u8, (i % e) as u8);
            i += 1;
        }
        e += 1;
    }
    table
};

/// The piles of a game in registers. Invariants: `top[p]` is the code of pile p's
/// top card ([`NONE`] when empty), `tops` the OR of the top cards' bits, [`NONE`]'s
/// included when a pile is empty.
struct CodesInRegisters<const P: usize> {
    top: [usize; MAX_PILES],
    tops: u64,
}

impl<const P: usize> CodesInRegisters<P> {
    /// A game's piles after its first deal, `cards[..P]`, onto the empty piles.
    #[inline(always)]
    fn first_deal(
        below: &mut [u8; 256],
        depth: &mut [u8; 256],
        cards: &[u8; CAP],
    ) -> CodesInRegisters<P> {
        let mut piles = CodesInRegisters {
            top: [usize::from(NONE); MAX_PILES],
            tops: 0,
        };
        piles.deal_all(below, depth, cards, 0);
        piles
    }

    /// Whether some pile is empty.
    #[inline(always)]
    fn any_empty(&self) -> bool {
        self.tops & NONE_BIT != 0
    }

    /// Set `tops` from the top cards.
    #[inline(always)]
    fn set_tops(&mut self) {
        self.tops = (0..P).fold(0, |tops, p| tops | bit(self.top[p]));
    }

    /// Rounds that each discard from every pile that may be discarded (R2.1),
    /// without a branch per pile, until none may. A legal discard stays legal until
    /// it is played (the stronger card of its suit stays on top, or an even stronger
    /// one does), so the rounds reach the position that discarding first in R3
    /// order, again and again, reaches (see [`crate::Position::discard_forced`]).
    ///
    /// A round's time is the chain from one round's tops to the next's, so the card
    /// under each top is read before the pile's test is known, and the test only
    /// selects it (not a branch, for whether a pile goes is a coin toss; not an
    /// address, which would put the read after the test on that chain).
    #[inline(always)]
    fn discard_rounds(&mut self, below: &[u8; 256]) {
        loop {
            let gone = discardable(self.tops);
            if gone & !NONE_BIT == 0 {
                return;
            }
            for p in 0..P {
                let under = usize::from(below[at(self.top[p])]);
                self.top[p] =
                    select_unpredictable(gone & bit(self.top[p]) != 0, under, self.top[p]);
            }
            self.set_tops();
        }
    }

    /// Deal `cards[next..next + P]` onto the piles, one card each.
    #[inline(always)]
    fn deal_all(
        &mut self,
        below: &mut [u8; 256],
        depth: &mut [u8; 256],
        cards: &[u8; CAP],
        next: usize,
    ) {
        for p in 0..P {
            self.top[p] = place(below, depth, self.top[p], cards[(next + p) % CAP]);
        }
        self.set_tops();
    }

    /// Put `card` on pile `p` (a short deal, or a deal onto the empty piles).
    #[inline]
    fn push(&mut self, below: &mut [u8; 256], depth: &mut [u8; 256], p: usize, card: u8) {
        self.top[p] = place(below, depth, self.top[p], card);
        self.set_tops();
    }

    /// Fill the empty pile `dst` with the card at `index` from the top of pile
    /// `src` (R2.2), known to be legal; under `fill="stack"` (`stack`) the cards
    /// above it go with it. Every pile is looked at, none picked by
    /// index: an index into the arrays would keep them in memory rather than in
    /// registers for the whole loop.
    #[inline(always)]
    fn fill(
        &mut self,
        below: &mut [u8; 256],
        depth: &mut [u8; 256],
        src: usize,
        dst: usize,
        index: u64,
        stack: bool,
    ) {
        let top = (0..P).fold(NONE, |card, p| {
            select_unpredictable(p == src, self.top[p] as u8, card)
        });
        // The cards above the one that moves each go one place down, or, when they
        // move with it, as many places as it does.
        let drop = if stack {
            depth[usize::from(top)] - 1 - index as u8
        } else {
            1
        };
        let (mut above, mut card) = (NONE, top);
        for _ in 0..index {
            depth[usize::from(card)] -= drop;
            (above, card) = (card, below[usize::from(card)]);
        }
        let under = below[usize::from(card)];
        // `dst` is empty. A buried card alone leaves the top of `src` as it was; the
        // top card, or a stack, uncovers the card under it.
        below[usize::from(card)] = NONE;
        depth[usize::from(card)] = 1;
        let src_top = if index == 0 || stack {
            under
        } else {
            below[usize::from(above)] = under;
            top
        };
        let dst_top = if stack { top } else { card };
        for p in 0..P {
            let top = select_unpredictable(p == dst, usize::from(dst_top), self.top[p]);
            self.top[p] = select_unpredictable(p == src, usize::from(src_top), top);
        }
        self.set_tops();
    }
}

/// The game in registers as the rule functions read it: the piles of `piles`, the
/// cards under their tops in `table`, the rules `rules` (a copy, so that the
/// standard rules are constants), `stock` cards in the stock.
struct CodeTableau<'a, const P: usize> {
    piles: &'a CodesInRegisters<P>,
    table: &'a RandomTable,
    rules: Rules,
    stock: usize,
}

impl<const P: usize> Tableau for CodeTableau<'_, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline(always)]
    fn height(&self, p: usize) -> usize {
        usize::from(self.table.depth[at(self.piles.top[p])])
    }

    #[inline]
    fn card_from_top(&self, p: usize, index: usize) -> Card {
        let code = (0..index).fold(self.piles.top[p] as u8, |code, _| {
            self.table.below[usize::from(code)]
        });
        self.table.card_of[usize::from(code)]
    }

    #[inline(always)]
    fn top_bit(&self, p: usize) -> u64 {
        self.table.rules_bit[at(self.piles.top[p])]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        (0..P).fold(0, |tops, p| tops | self.top_bit(p))
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.stock
    }

    #[inline(always)]
    fn empty_piles(&self) -> usize {
        self.empty_mask().count_ones() as usize
    }

    #[inline(always)]
    fn empty_mask(&self) -> u8 {
        (0..P).fold(0, |m, p| {
            m | u8::from(self.piles.top[p] == usize::from(NONE)) << p
        })
    }
}

#[cfg(test)]
#[path = "tests/random_play.rs"]
mod tests;
