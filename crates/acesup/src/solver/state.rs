//! The compact state: a position as the search sees it, a plain `Copy` value of
//! fixed size that the search copies instead of undoing moves.

use crate::position::Position;

/// The most cards a pile can hold.
pub(super) const CARDS: usize = 52;

/// The places of a pile with room enough for every pile of most positions (every
/// seeded deal of four or five piles): a pile holds at most one card that was moved
/// or dealt onto it while it was empty, or its first card, plus one card from each
/// deal since that reached every pile (see [`Solver::solve`]). The last place is
/// no room (see [`CompactState`]), so the room is `SMALL - 1`.
pub(super) const SMALL: usize = 16;

/// The places of a pile with room for every card: the power of two above
/// [`CARDS`], for the same reason.
pub(super) const LARGE: usize = 64;

/// A position as the search sees it: the piles and how much of the stock is left.
/// The discards are the cards in neither, and their order never matters (R2).
///
/// Invariants: pile p is `piles[p][..heights[p]]`, bottom to top, as card indices
/// (R1.1); the places above are unused, except the last, `piles[p][N - 1]`, which
/// always holds [`NO_CARD`]: the card below the bottom one, read (its index wraps
/// modulo N, a power of two) when a pile's last card leaves, so that the new top
/// needs no test of the height. `P` is the number of piles of the rules. `N` is the
/// number of places of a pile: [`SMALL`] when no pile can outgrow its room, N − 1,
/// before the stock runs out, else [`LARGE`]. `dealt` counts the stock cards dealt
/// since the root.
/// `pins` (S3, `fill="any"` only) marks the piles whose top card the search has
/// decided to keep until the cards under it are gone. A state is a plain `Copy`
/// value: the search copies a position instead of undoing moves. The rules read it
/// through [`StateTableau`], the state together with its [`StockContext`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct CompactState<const N: usize, const P: usize> {
    pub(super) heights: [u8; P],
    /// The top card of each pile, [`NO_CARD`] for an empty pile: kept with the
    /// piles because every rule looks at the top cards.
    pub(super) tops: [u8; P],
    pub(super) dealt: u8,
    pub(super) pins: u8,
    pub(super) piles: [[u8; N]; P],
    /// Under `deal="any"`, the bits (`rules::top_bits`) of the cards discarded
    /// since the root, so that the cards in play are one mask away
    /// ([`Search::in_play`]); 0 under the other deal rules, which ask for them
    /// seldom. Not in the key: the piles and `dealt` decide it.
    pub(super) gone: u64,
}

/// The top card of an empty pile: an index past the 52 cards, whose bits in a
/// `rules::BitTable` are 0.
pub(super) const NO_CARD: u8 = CARDS as u8;

impl<const N: usize, const P: usize> CompactState<N, P> {
    pub(super) const EMPTY: Self = {
        assert!(N.is_power_of_two(), "a pile's places wrap modulo N");
        let mut pile = [0; N];
        pile[N - 1] = NO_CARD;
        CompactState {
            heights: [0; P],
            tops: [NO_CARD; P],
            dealt: 0,
            pins: 0,
            piles: [pile; P],
            gone: 0,
        }
    };

    /// The card below the `h` bottom cards of pile p (`h` ≤ its height): the
    /// card at place `h - 1`, or [`NO_CARD`] for `h = 0` (the last place, as the
    /// index wraps).
    #[inline(always)]
    pub(super) fn below(&self, p: usize, h: u8) -> u8 {
        self.piles[p][usize::from(h).wrapping_sub(1) % N]
    }

    /// The piles of `pos`, with nothing dealt yet; no pile may hold more than N − 1.
    pub(super) fn of(pos: &Position) -> Self {
        let mut s = CompactState::EMPTY;
        for p in 0..P {
            let h = pos.height(p);
            // The cards are read in place from the top down, so they are written
            // from the top place down.
            for (place, card) in s.piles[p][..h].iter_mut().rev().zip(pos.cards_from_top(p)) {
                *place = card.index() as u8;
            }
            s.heights[p] = h as u8;
            s.tops[p] = pos.top(p).map_or(NO_CARD, |c| c.index() as u8);
        }
        s
    }

    #[inline]
    pub(super) fn height(&self, p: usize) -> usize {
        usize::from(self.heights[p])
    }

    /// The number of cards in the piles.
    #[inline]
    pub(super) fn total(&self) -> usize {
        // Each sum of the first heights is at most 52 and fits in a byte, so one
        // multiplication adds them up, without carries, into the top byte.
        let mut bytes = [0u8; 8];
        bytes[..P].copy_from_slice(&self.heights);
        (u64::from_le_bytes(bytes).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    #[inline]
    pub(super) fn pile(&self, p: usize) -> &[u8] {
        &self.piles[p][..self.height(p)]
    }

    /// The card `index` places from the top of pile p; `index < height(p)`.
    #[inline]
    pub(super) fn card_from_top(&self, p: usize, index: usize) -> u8 {
        self.piles[p][self.height(p) - 1 - index]
    }

    /// Remove and return the card `index` places from the top of pile p; the cards
    /// above it close up.
    #[inline(always)]
    pub(super) fn take(&mut self, p: usize, index: usize) -> u8 {
        let h = self.height(p);
        let at = h - 1 - index;
        let card = self.piles[p][at];
        if index > 0 {
            self.piles[p].copy_within(at + 1..h, at);
        } else {
            self.tops[p] = self.below(p, at as u8);
        }
        self.heights[p] -= 1;
        card
    }

    /// Take the top card of every pile in `mask`, at once, without a branch per
    /// pile (and forget any pin on them, S3): which piles a round of discards takes
    /// is a coin toss to the branch predictor, which costs more than the
    /// instructions spent on the piles left alone.
    #[inline(always)]
    pub(super) fn discard_tops(&mut self, mask: u8) {
        // Every height at once, as the bytes of a word: the multiplication moves bit
        // p of the mask to bit 0 of byte p (for P ≤ 7 its terms never meet, so
        // nothing carries), and a pile in the mask has a card, so nothing borrows.
        let mut bytes = [0u8; 8];
        bytes[..P].copy_from_slice(&self.heights);
        let taken = u64::from(mask).wrapping_mul(0x0002_0408_1020_4081) & 0x0101_0101_0101_0101;
        let heights = (u64::from_le_bytes(bytes) - taken).to_le_bytes();
        self.heights.copy_from_slice(&heights[..P]);
        // A pile left alone reads its own top again.
        for p in 0..P {
            self.tops[p] = self.below(p, self.heights[p]);
        }
        self.pins &= !mask;
    }

    /// Put `card` on top of pile p.
    #[inline(always)]
    pub(super) fn push(&mut self, p: usize, card: u8) {
        self.piles[p][self.height(p)] = card;
        self.tops[p] = card;
        self.heights[p] += 1;
    }

    /// The empty piles, as a mask.
    #[inline]
    pub(super) fn empty(&self) -> u8 {
        // The heights as the bytes of a word, the places past P empty. Heights are
        // below 128, so adding 0x7f to each byte carries into its bit 7 exactly
        // when it is not 0, and never into the next byte; the multiplication then
        // gathers bit 7 of byte k into bit 56 + k, without carries.
        let mut bytes = [0u8; 8];
        bytes[..P].copy_from_slice(&self.heights);
        let h = u64::from_le_bytes(bytes);
        let zero = !(h + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
        let gathered = (zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        gathered as u8 & ((1 << P) - 1) as u8
    }
}
