//! The canonical key of a state in the transposition table (SOLVER.md,
//! *Transposition table*): the piles sorted with the stock empty (S6), the lone
//! cards sorted over the light piles (S7), and the keys' layouts.

use super::arrangements::lone_cards;
use super::search::{Search, SearchStopped};
use super::state::{CompactState, CARDS};
use super::table::{OutOfMemory, GENERATION_BITS};
use crate::moves::MAX_PILES;
use crate::rules::DealTo;
#[cfg(test)]
use {super::table::TableKey, std::collections::HashMap};

/// The fields of a state's key ([`Search::key`]) above the bits of its cards
/// (card index i at bit i): `dealt` (6 bits), `pins` (a bit a pile), a base a pile
/// (6 bits: a card, or [`NO_BASE`]) and a home a pile (3 bits: a pile, or
/// [`NO_HOME`]).
const DEALT_AT: u32 = CARDS as u32;
const PINS_AT: u32 = DEALT_AT + 6;
const BASES_AT: u32 = PINS_AT + MAX_PILES as u32;
const HOMES_AT: u32 = BASES_AT + 6 * MAX_PILES as u32;
const KEY_BITS: u32 = HOMES_AT + 3 * MAX_PILES as u32;
const NO_BASE: u8 = (1 << 6) - 1;
pub(super) const NO_HOME: u8 = (1 << 3) - 1;
const _: () = assert!(
    KEY_BITS + GENERATION_BITS <= 128
        && CARDS < NO_BASE as usize
        && 6 + MAX_PILES as u32 + GENERATION_BITS <= 64
        && MAX_PILES < 7
        && CARDS <= 3 * 21
);

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// Record `s` in the table under its canonical key: true if it is new.
    ///
    /// The key stands for the positions that are won or lost together with `s`:
    /// its heights, `dealt` and `pins`, then its piles' cards, pile after pile. With
    /// the stock empty the order of the piles does not matter (S6), so they are
    /// listed in sorted order; while lone cards may move, their arrangement does not
    /// (S7), so the light piles take them in sorted order.
    pub(super) fn insert(
        &mut self,
        s: &CompactState<N, P>,
    ) -> std::result::Result<bool, SearchStopped> {
        let mut c = *s;
        if self.ctx.stock_left(s) == 0 {
            let mut order: [usize; P] = std::array::from_fn(|p| p);
            order.sort_unstable_by_key(|&p| s.pile(p));
            // The pins are not reordered with the piles, as there are none: with the stock
            // empty S1 takes every discard, so no pin is made, and none outlives a
            // deal: a pinned card can be discarded until it is, which keeps the deal
            // illegal under `"free"` and `"stuck"`, and a deal drops S10's holds.
            debug_assert_eq!(s.pins, 0, "a pin with the stock empty");
            c.heights = order.map(|p| s.heights[p]);
            c.piles = order.map(|p| s.piles[p]);
        } else if let light @ 1.. = self.light_piles(s) {
            let (mut lone, n) = lone_cards(s, light);
            // A hold (S10) goes with its card, wherever the card is placed.
            let held = (0..P)
                .filter(|&p| (light & s.pins) >> p & 1 == 1)
                .fold(0u64, |m, p| m | 1 << s.piles[p][0]);
            lone[..n].sort_unstable();
            c.pins &= !light;
            for (i, p) in (0..P).filter(|&p| light >> p & 1 == 1).enumerate() {
                c.heights[p] = u8::from(i < n);
                c.piles[p][0] = lone[i.min(P - 1)];
                c.pins |= u8::from(i < n && held >> lone[i] & 1 == 1) << p;
            }
        }
        let named = self.ctx.stock_left(s) > 0;
        let new = if self.ctx.rules.deal_to == DealTo::All {
            let key = self.key(&c, named);
            #[cfg(test)]
            self.buffers
                .keys
                .check(self.buffers.table.generation, key, &c);
            self.buffers.table.insert(key)
        } else {
            let key = self.wide_key(&c);
            #[cfg(test)]
            self.buffers
                .keys
                .check(self.buffers.wide.generation, key, &c);
            self.buffers.wide.insert(key)
        };
        new.map_err(|OutOfMemory| SearchStopped)
    }

    /// The key of `c` under any `deal_to`: `dealt`, `pins`, and the pile of each
    /// card (3 bits: 0 for none, else 1 + its pile; 21 cards a word), 167 bits.
    ///
    /// Why that is enough: the cards of a pile lie in the order they came to the
    /// root's piles and the stock (the root's cards first, each pile's from the
    /// bottom up, then the stock's, in deal order), so the set of them tells it. A
    /// card comes onto a pile that is not empty only by a deal (a fill goes to an
    /// empty pile, R2.2), so after every card below it; and a card moved onto an
    /// empty pile had been dealt, or was at the root, before the cards that come
    /// onto it.
    fn wide_key(&self, c: &CompactState<N, P>) -> [u64; 4] {
        let mut key = [0, 0, 0, u64::from(c.dealt) | u64::from(c.pins) << 6];
        for p in 0..P {
            for &card in c.pile(p) {
                let card = usize::from(card);
                key[card / 21] |= (p as u64 + 1) << (3 * (card % 21));
            }
        }
        key
    }

    /// The key of `c` under `deal_to="all"`, 108 bits that tell it from every
    /// other state of the search: `dealt`, `pins`, the set of the cards in the
    /// piles, and of each pile its *base* (its bottom card, when that card is away
    /// from home) and, when the piles are not `named`, its home.
    ///
    /// Why that is enough: a pile gets a card by a deal, which puts it on its home
    /// ([`StockContext::home`]), or when it is empty (a fill, R2.2), so every card of a
    /// pile but the bottom one is at home, in the order the cards came: the order
    /// of the root's piles and of the stock. Named pile p is therefore its base, if
    /// it has one, then the cards at home in p that are in the piles and no pile's
    /// base, in that order. With the stock empty the piles are sorted (S6) and
    /// their names are gone: a pile of two cards or more has the home of its second
    /// card, and a lone card counts as a base.
    #[inline]
    fn key(&self, c: &CompactState<N, P>, named: bool) -> u128 {
        let home = &self.ctx.home;
        let mut cards = 0u64;
        let mut key = u128::from(c.dealt) << DEALT_AT | u128::from(c.pins) << PINS_AT;
        for p in 0..P {
            let pile = c.pile(p);
            for &card in pile {
                cards |= 1 << card;
            }
            let (base, at) = if named {
                // The place of the bottom card holds some card, or NO_CARD, when
                // the pile is empty: a home is looked up for it anyway.
                let bottom = c.piles[p][0];
                let away = !pile.is_empty() && home[usize::from(bottom)] != p as u8;
                (if away { bottom } else { NO_BASE }, 0)
            } else {
                match *pile {
                    [] => (NO_BASE, NO_HOME),
                    [bottom] => (bottom, NO_HOME),
                    [bottom, second, ..] => {
                        let at = home[usize::from(second)];
                        let away = home[usize::from(bottom)] != at;
                        (if away { bottom } else { NO_BASE }, at)
                    }
                }
            };
            debug_assert!(
                pile.iter()
                    .skip(1)
                    .all(|&card| { home[usize::from(card)] == if named { p as u8 } else { at } }),
                "a card above the bottom one away from home"
            );
            key |= u128::from(base) << (BASES_AT + 6 * p as u32)
                | u128::from(at) << (HOMES_AT + 3 * p as u32);
        }
        key | u128::from(cards)
    }
}

/// The check of [`Search::key`] and [`Search::wide_key`] against the plain key
/// of a state, its bytes: heights, `dealt`, `pins`, then every pile's cards.
/// When on, every key a search stores must stand for one such key, and each
/// for one key.
#[cfg(test)]
#[derive(Default)]
pub(in crate::solver) struct KeyCheck {
    pub(in crate::solver) on: bool,
    generation: u64,
    states: HashMap<[u64; 4], Vec<u8>>,
    keys: HashMap<Vec<u8>, [u64; 4]>,
    pub(in crate::solver) checked: usize,
}

#[cfg(test)]
impl KeyCheck {
    pub(in crate::solver) fn check<const N: usize, const P: usize>(
        &mut self,
        generation: u64,
        key: impl TableKey,
        c: &CompactState<N, P>,
    ) {
        if !self.on {
            return;
        }
        if generation != self.generation {
            self.generation = generation;
            self.states.clear();
            self.keys.clear();
        }
        let mut bytes = c.heights.to_vec();
        bytes.extend([c.dealt, c.pins]);
        for p in 0..P {
            bytes.extend_from_slice(c.pile(p));
        }
        let key = key.words();
        assert_eq!(
            self.states.entry(key).or_insert_with(|| bytes.clone()),
            &bytes
        );
        assert_eq!(*self.keys.entry(bytes).or_insert(key), key);
        self.checked += 1;
    }
}
