//! The tests of `lanes.rs`: the module `lanes::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::{falling, rising};
use crate::rng::Rng;

/// Every (suit, strength) of a 52-card deck.
fn every_card() -> impl Iterator<Item = (usize, u8)> {
    (0..4).flat_map(|suit| (0..13).map(move |strength| (suit, strength)))
}

/// A rising mask in the falling order: each card's bit mirrored within its lane.
fn to_falling(rising_mask: u64) -> u64 {
    every_card()
        .filter(|&(suit, strength)| rising_mask & rising::bit(suit, strength) != 0)
        .fold(0, |m, (suit, strength)| {
            m | 1 << falling::place(suit, strength)
        })
}

/// A falling mask in the rising order.
fn to_rising(falling_mask: u64) -> u64 {
    every_card()
        .filter(|&(suit, strength)| falling_mask & 1 << falling::place(suit, strength) != 0)
        .fold(0, |m, (suit, strength)| m | rising::bit(suit, strength))
}

/// The two orders place every card in the same lane, mirrored (strength s on
/// rising bit s and falling bit 12 − s of its lane), each card on a bit of its own.
#[test]
fn the_orders_mirror_each_other_within_a_lane() {
    let mut seen_rising = 0u64;
    let mut seen_falling = 0u64;
    for (suit, strength) in every_card() {
        let up = rising::bit(suit, strength);
        let down = falling::place(suit, strength);
        assert_eq!(up.trailing_zeros() / 16, u32::from(down) / 16, "same lane");
        assert_eq!(
            up.trailing_zeros() % 16,
            12 - u32::from(down) % 16,
            "mirrored"
        );
        assert_eq!(seen_rising & up, 0);
        assert_eq!(seen_falling & 1 << down, 0);
        seen_rising |= up;
        seen_falling |= 1 << down;
    }
    assert_eq!(seen_rising, to_rising(seen_falling));
    let top_rank: u64 = (0..4).map(|suit| rising::bit(suit, 12)).sum();
    assert_eq!(rising::TOP_RANK_BITS, top_rank);
    assert_eq!(
        to_falling(top_rank),
        falling::LANE_HIGH >> 15,
        "the strongest falls to bit 0"
    );
}

/// On random masks of top cards, both orders find the same discardable cards
/// (R2.1): [`falling::discardable`] for all at once, [`rising::stronger_bits`] card
/// by card; and the conversions between the orders are inverse to each other.
#[test]
fn both_orders_find_the_same_discards() {
    let mut rng = Rng::new(11);
    for _ in 0..20_000 {
        let count = 1 + rng.below(6);
        let tops = (0..count).fold(0, |m, _| {
            m | rising::bit(rng.below(4) as usize, rng.below(13) as u8)
        });
        let falling_tops = to_falling(tops);
        assert_eq!(to_rising(falling_tops), tops);
        let by_rising = every_card()
            .map(|(suit, strength)| rising::bit(suit, strength))
            .filter(|&bit| tops & bit != 0 && tops & rising::stronger_bits(bit) != 0)
            .fold(0, |m, bit| m | bit);
        for high in [0, falling::LANE_HIGH] {
            let gone = falling::discardable(falling_tops | high);
            assert_eq!(to_rising(gone), by_rising, "{tops:#x}");
        }
    }
}

/// The rising lane helpers against their plain definitions.
#[test]
fn rising_lanes_of_cards() {
    for (suit, strength) in every_card() {
        let bit = rising::bit(suit, strength);
        let lane: u64 = (0..13).map(|s| rising::bit(suit, s)).sum();
        assert_eq!(rising::lane_of(bit) & lane, lane);
        let weaker: u64 = (0..strength).map(|s| rising::bit(suit, s)).sum();
        assert_eq!(rising::weaker_bits(bit), weaker);
        assert_eq!(rising::lanes_of(bit), rising::lane_of(bit));
        assert_eq!(rising::suit_lane(suit), rising::lane_of(bit));
    }
    assert_eq!(rising::lane_of(0), 0);
    assert_eq!(rising::weaker_bits(0), 0);
}
