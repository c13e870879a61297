//! As many suits as piles (SOLVER.md S15-S17): the suit that opens last, the suits
//! a stretch holds, and the suits that no line can clear before the last deal.

use super::fixpoint::{Columns, DealRow, StretchWays};
use super::search::Search;
use super::state::{CompactState, NO_CARD};
use crate::cards::SUITS;
use crate::lanes::rising::suit_lane;
use crate::rules::{self, DealTo, FillRule};

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// S15: with as many suits as piles, a suit opens once one of its cards is on
    /// top, and from the stock's end (or within a stretch between two deals) an open
    /// suit stays open; once every suit is open nothing but a deal can move. So the
    /// suit that opens last after the stock is empty must have only its top-rank
    /// card left. Whether that dooms `s`: with the stock empty, every suit off the
    /// top holds two cards or more; with one whole deal left (`deal_to="all"`, and
    /// only under `deal="any"`: under the other deal rules the positions it cuts
    /// are those right after the last deal, which the test with the stock empty
    /// closes at once), every suit off that deal holds a card that only its
    /// top-rank card outranks, buried under cards that open every suit before it is
    /// seen.
    pub(super) fn last_suit_blocked(&self, s: &CompactState<N, P>) -> bool {
        let rules = self.ctx.rules;
        let left = self.ctx.stock_left(s);
        if usize::from(rules.suits) != P
            || !(left == 0 || OPEN && left == P && rules.deal_to == DealTo::All)
        {
            return false;
        }
        let bits = self.ctx.bits;
        let tops = (0..P).fold(0, |m, p| m | bits[usize::from(s.tops[p])]);
        let shown = rules::lanes_of(match left {
            0 => tops,
            _ => self.stock_bits(s),
        });
        // With every suit shown (the common case, told before the cards in play are
        // asked for) no suit is left to open last. Every suit keeps its top-rank card
        // in play, so each suit not shown has still to open, and one that is down to
        // its top-rank card may open last.
        if shown == !0 {
            return false;
        }
        let waiting = !shown & rules::lanes_of(self.in_play(s) & !rules::TOP_RANK_BITS);
        if waiting != !shown {
            return false;
        }
        if left == 0 {
            // With the stock empty: every suit off the top holds two cards or more.
            return true;
        }
        (0..4)
            .filter(|&suit| waiting & suit_lane(suit) != 0)
            .all(|suit| {
                // The cards above the suit's top-rank card, all seen before it; none under
                // `fill="any"`, which may take it from under them.
                let top_rank = suit_lane(suit) & rules::TOP_RANK_BITS;
                let above = if rules.fill == FillRule::Any {
                    Some(0)
                } else {
                    (0..P).find_map(|p| {
                        let pile = s.pile(p);
                        let at = pile
                            .iter()
                            .position(|&c| bits[usize::from(c)] == top_rank)?;
                        Some(
                            pile[at + 1..]
                                .iter()
                                .fold(0, |m, &c| m | bits[usize::from(c)]),
                        )
                    })
                };
                above.is_some_and(|above| rules::lanes_of(tops | above) == !0)
            })
    }

    /// S16: the ways stretch t of `columns` may go, from the top cards that start it:
    /// now (an empty pile shows a suit fewer), or those of the deal that starts it.
    pub(super) fn open_suits(&self, columns: &Columns<P>, t: usize) -> StretchWays {
        let suits = self.ctx.rules.suits;
        match t {
            0 if usize::from(suits) == P => movable_suits(
                self.suit_lanes(columns.piles.iter().filter_map(|pile| pile.last())),
                suits,
            ),
            0 => StretchWays::ALL,
            _ => columns.dealt[t - 1].open,
        }
    }

    /// S16: with as many suits as piles, the ways a stretch that starts with `tops`
    /// on top of the piles (every pile holds a card) may go: once every suit has been
    /// on top in the stretch, nothing but a deal can move, so some suit missing from
    /// `tops` keeps its cards, and with none missing every card stays. A single way
    /// in which every card may leave when S16 does not apply.
    pub(super) fn discardable_suits(&self, tops: &[u8; P]) -> StretchWays {
        let suits = self.ctx.rules.suits;
        if usize::from(suits) != P || tops.contains(&NO_CARD) {
            return StretchWays::ALL;
        }
        movable_suits(self.suit_lanes(tops), suits)
    }

    /// The lanes (`rules::top_bits`) of the suits of `cards`.
    fn suit_lanes<'c>(&self, cards: impl IntoIterator<Item = &'c u8>) -> u64 {
        rules::lanes_of(
            cards
                .into_iter()
                .fold(0, |m, &c| m | self.ctx.bits[usize::from(c)]),
        )
    }

    /// S17: with as many suits as piles under `deal_to="all"` and `fill="top"` or
    /// `"ace"`, whether no suit missing from the last of the `dealt` deals can be
    /// down to its top-rank card when that deal comes (S15: a winning line needs
    /// one), even if every card could leave whenever S16 does not hold it.
    pub(super) fn no_suit_clears(&self, s: &CompactState<N, P>, dealt: &[DealRow<P>]) -> bool {
        let piles: [&[u8]; P] = std::array::from_fn(|p| s.pile(p));
        let mut room = self.room.borrow_mut();
        let mut columns = Columns::new(self.ctx.bits, &piles, dealt, 0, 0, &mut room);
        self.no_suit_clears_from(s, &mut columns, 0)
    }

    /// S17 from stretch `start` of `columns` (S13's fixpoint may have begun it).
    pub(super) fn no_suit_clears_from(
        &self,
        s: &CompactState<N, P>,
        columns: &mut Columns<P>,
        start: usize,
    ) -> bool {
        let dealt = columns.dealt;
        let Some(shown) = self.last_deal_shown(dealt) else {
            return false;
        };
        // The cards that might have left their place by each stretch before the last
        // deal: from each pile's top down, every card that has left or whose suit
        // S16 lets go then. Until a pile is empty in the stretch (none is right after
        // a whole deal), no fill is legal: S13's fixpoint within the stretch. Once a
        // pile might be empty, any card might be moved: every card that S16 does not
        // hold, from each pile's top down.
        for t in start..dealt.len() {
            if t > start {
                columns.deal(t - 1);
            }
            columns.close_ways(&self.open_suits(columns, t), true);
        }
        self.suit_left_behind(s, dealt, shown, columns.gone)
    }

    /// S17's setting, as many suits as piles under `deal_to="all"` and `fill="top"`
    /// or `"ace"`, with a last deal that reaches every pile: the lanes of the suits
    /// that deal shows; `None` outside that setting.
    pub(super) fn last_deal_shown(&self, dealt: &[DealRow<P>]) -> Option<u64> {
        let rules = self.ctx.rules;
        let last = &dealt.last()?.cards;
        let applies = usize::from(rules.suits) == P
            && rules.deal_to == DealTo::All
            && rules.fill != FillRule::Any
            && !last.contains(&NO_CARD);
        applies.then(|| self.suit_lanes(last))
    }

    /// S17's verdict: every suit missing from the last deal's `shown` suits keeps a
    /// card in play before that deal that is not of the top rank and has not left
    /// (is not in `gone`).
    pub(super) fn suit_left_behind(
        &self,
        s: &CompactState<N, P>,
        dealt: &[DealRow<P>],
        shown: u64,
        gone: u64,
    ) -> bool {
        let last = dealt[dealt.len() - 1].later;
        let stuck = self.in_play(s) & !last & !gone & !rules::TOP_RANK_BITS;
        shown != !0 && !shown & !rules::lanes_of(stuck) == 0
    }
}

/// S16, as many suits as piles (the first `suits` of the lanes): the ways a stretch
/// whose top cards at its start show the suits of the lanes `shown` may go. With
/// every suit shown, a single way in which no card leaves; else one for each suit
/// missing, in which every card but that suit's may leave.
fn movable_suits(shown: u64, suits: u8) -> StretchWays {
    let mut ways = StretchWays {
        ways: [0; SUITS.len()],
        count: 0,
    };
    for suit in (0..usize::from(suits)).filter(|&suit| shown & suit_lane(suit) == 0) {
        ways.ways[usize::from(ways.count)] = !suit_lane(suit);
        ways.count += 1;
    }
    ways.count = ways.count.max(1);
    ways
}
