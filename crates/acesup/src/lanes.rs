//! Cards as bits of a `u64`: each suit has a *lane* of 16 bits (suit s has bits
//! 16s .. 16s + 15), and a card is one bit of its suit's lane, placed by its
//! strength (R1.2, 0 for the lowest rank, 12 for the top rank). A mask of top cards
//! then answers R2.1 ("is a stronger card of its suit on top of another pile?") for
//! one pile or for all at once with a few integer operations.
//!
//! Two orders of the same lanes, each kept where its arithmetic is cheapest:
//!
//! - [`rising`]: the stronger card on the *higher* bit (bit 16s + strength). The
//!   rules, the positions and the solver use it: [`rising::stronger_bits`] (the
//!   R2.1 test of one card), [`rising::weaker_bits`], [`rising::lane_of`],
//!   [`rising::lanes_of`] (the suits a mask holds a card of) and
//!   [`rising::TOP_RANK_BITS`]. The tables from cards to bits are
//!   `rules::top_bits`, one per rank order.
//! - [`falling`]: the stronger card on the *lower* bit (bit 16s + 12 − strength).
//!   The random play-out uses it: [`falling::discardable`] finds the discardable
//!   tops of every pile at once by one subtraction.
//!
//! A card's falling place is its rising place mirrored within its lane
//! (12 − strength for strength); the tests convert every card and random masks
//! both ways. Bits 13 .. 15 of a lane are no card's.

/// The width of a suit's lane.
const LANE: u32 = 16;

/// Bit 0 of each lane.
const LANE_LOW: u64 = 1 | 1 << LANE | 1 << (2 * LANE) | 1 << (3 * LANE);

/// The stronger card on the higher bit: bit 16s + strength.
pub(crate) mod rising {
    use super::{LANE, LANE_LOW};

    /// The bit of the card of suit `suit` (0 .. 3) and strength `strength`
    /// (0 .. 12).
    #[inline]
    pub(crate) const fn bit(suit: usize, strength: u8) -> u64 {
        1 << (LANE as usize * suit + strength as usize)
    }

    /// Bit 13 of each lane: just above the top rank, never a card's bit.
    const LANE_ENDS: u64 = LANE_LOW << 13;

    /// The 13 card bits of each lane.
    const LANE_CARDS: u64 = 0x1fff * LANE_LOW;

    /// The bits of the four top-rank cards (strength 12 in each lane).
    pub(crate) const TOP_RANK_BITS: u64 = LANE_LOW << 12;

    /// Given the bits of some cards, the lanes of the suits they hold a card of.
    #[inline]
    pub(crate) const fn lanes_of(cards: u64) -> u64 {
        // A lane's card bits plus 0x1fff carry into its lane end exactly when one of
        // them is set, and never into the next lane.
        let ends = ((cards & LANE_CARDS) + LANE_CARDS) & LANE_ENDS;
        (ends >> 13) * 0xffff
    }

    /// Given a card's bit (or 0 for no card), the bits of the stronger cards of its
    /// suit, plus bits that no card has: a top card may be discarded exactly when
    /// the mask of the top cards meets these (R2.1). The subtraction borrows only
    /// within the card's own lane, from its lane end down to just above the card;
    /// for 0 it leaves the lane ends alone.
    #[inline]
    pub(crate) const fn stronger_bits(bit: u64) -> u64 {
        LANE_ENDS.wrapping_sub(bit << 1)
    }

    /// Given a card's bit, the bits of the weaker cards of its suit: those below it
    /// in its lane. 0 for no card.
    #[inline]
    pub(crate) fn weaker_bits(bit: u64) -> u64 {
        bit.wrapping_sub(1) & lane_of(bit)
    }

    /// The lane of suit `suit` (0 .. 3): the bits of every card of that suit.
    #[inline]
    pub(crate) const fn suit_lane(suit: usize) -> u64 {
        0xffff << (LANE as usize * suit)
    }

    /// Given a card's bit, its lane: the bits of every card of its suit. 0 for no
    /// card.
    #[inline]
    pub(crate) fn lane_of(bit: u64) -> u64 {
        0xffff_u64
            .checked_shl(bit.trailing_zeros() & !(LANE - 1))
            .unwrap_or(0)
    }
}

/// The stronger card on the lower bit: bit 16s + 12 − strength.
pub(crate) mod falling {
    use super::{LANE, LANE_LOW};

    /// The place (bit number) of the card of suit `suit` (0 .. 3) and strength
    /// `strength` (0 .. 12).
    #[inline]
    pub(crate) const fn place(suit: usize, strength: u8) -> u8 {
        LANE as u8 * suit as u8 + 12 - strength
    }

    /// Bit 15 of each lane, above the weakest place (12): never a card's.
    pub(crate) const LANE_HIGH: u64 = LANE_LOW << 15;

    /// The bits of the cards of `tops` that may be discarded (R2.1): those with a
    /// stronger card of their suit in `tops`, that is every card of a lane but its
    /// lowest set bit. Setting the lane's high bit and subtracting 1 from each lane
    /// clears exactly the lowest set bit of each lane and borrows into no other
    /// lane. A lane's high bit ([`LANE_HIGH`]), if set in `tops`, may come out set
    /// too, and makes no card discardable: it is above every card of its lane.
    #[inline(always)]
    pub(crate) fn discardable(tops: u64) -> u64 {
        tops & ((tops | LANE_HIGH) - LANE_LOW)
    }
}

#[cfg(test)]
#[path = "tests/lanes.rs"]
mod tests;
