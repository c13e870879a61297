//! S13's fixpoint (SOLVER.md): the piles walked stretch after stretch between the
//! deals of the stock ([`Columns`]), the cards that might leave by each stretch, and
//! the piles that can never be emptied. S12, S16 and S17 walk the same columns.

use super::search::Search;
use super::state::CompactState;
use crate::cards::SUITS;
use crate::rules;

/// The most points in time S13 looks at: now, and after each deal of a stock
/// (⌈52 / 4⌉ deals at most).
pub(super) const MAX_TIMES: usize = 14;

/// One deal of the stock under `deal_to="all"`, which deals every card to a known
/// pile.
#[derive(Clone, Copy)]
pub(super) struct DealRow<const P: usize> {
    /// The card it brings each pile, [`NO_CARD`] where a partial last deal brings
    /// none.
    pub(super) cards: [u8; P],
    /// S16: the ways the stretch that it starts may go.
    pub(super) open: StretchWays,
    /// The cards of this deal and of the deals after it, as bits.
    pub(super) later: u64,
}

/// S16: the ways a stretch may go, as the cards that may leave in it each way (as
/// bits): one way for each suit missing from the tops at its start, whose cards
/// stay in that way; a single way when no suit is missing (no card leaves) or S16
/// does not apply (every card may).
#[derive(Clone, Copy)]
pub(super) struct StretchWays {
    pub(super) ways: [u64; SUITS.len()],
    pub(super) count: u8,
}

impl StretchWays {
    /// A single way in which every card may leave.
    pub(super) const ALL: StretchWays = StretchWays {
        ways: [!0; SUITS.len()],
        count: 1,
    };

    fn ways(&self) -> &[u64] {
        &self.ways[..usize::from(self.count)]
    }
}

/// The piles as the fixpoints of S13 and S17 walk them, stretch after stretch: each
/// pile's cards, its own and those dealt onto it, from the top down to its *next*
/// card, the first that has not left (is not in `gone`), which might be on top.
/// A card leaves only as the next card of its pile, and a dealt card arrives on
/// top, so the cards that have not left that a walk has passed are kept as a
/// stack, each with the cards that come into view when it leaves: no card is
/// walked over twice.
pub(super) struct Columns<'a, const P: usize> {
    bits: &'a rules::BitTable,
    pub(super) piles: &'a [&'a [u8]; P],
    pub(super) dealt: &'a [DealRow<P>],
    /// The cards that might have left their place, as bits.
    pub(super) gone: u64,
    /// The cards that might be on top of each pile: from its top down to its next
    /// card, as bits.
    seen: [u64; P],
    /// The stacks of the piles, `len[p]` cards each.
    room: &'a mut StackRoom<P>,
    len: [usize; P],
    /// How many of each pile's cards, counted from the bottom, are still to walk.
    low: [usize; P],
}

/// The room for the stacks of [`Columns`]: each pile's cards above its `low` that
/// have not left, bottom up, as bits (the last is the pile's next card), and with
/// each the cards below it down to the next one of the stack (or down to `low`).
/// A search keeps one and lends it to each fixpoint: only the places below a
/// pile's `len` are read, so the room is never cleared (clearing it each time took
/// about 6% of the time under `Rules.kpat()`). A pile's stack holds its first card
/// that has not left and one card a deal.
pub(super) struct StackRoom<const P: usize> {
    stack: [[u64; MAX_TIMES + 1]; P],
    after: [[u64; MAX_TIMES + 1]; P],
}

impl<const P: usize> StackRoom<P> {
    pub(super) const EMPTY: Self = StackRoom {
        stack: [[0; MAX_TIMES + 1]; P],
        after: [[0; MAX_TIMES + 1]; P],
    };
}

/// What a closure within a stretch may change in [`Columns`], kept to go back to
/// ([`Columns::close_ways`]). Taking a card only shortens its pile's stack, and the
/// walk below it writes the bottom place of the stack alone (once it is empty):
/// with the bottom places kept, the rest of the room is as it was.
#[derive(Clone, Copy)]
struct ColumnsMark<const P: usize> {
    gone: u64,
    seen: [u64; P],
    len: [usize; P],
    low: [usize; P],
    bottom: [(u64, u64); P],
}

impl<'a, const P: usize> Columns<'a, P> {
    /// The piles at stretch `first`, `piles` with the first `first` deals on them,
    /// and `gone` the cards that have left by then, their stacks in `room`.
    pub(super) fn new(
        bits: &'a rules::BitTable,
        piles: &'a [&'a [u8]; P],
        dealt: &'a [DealRow<P>],
        first: usize,
        gone: u64,
        room: &'a mut StackRoom<P>,
    ) -> Self {
        let mut columns = Columns {
            bits,
            piles,
            dealt,
            gone,
            seen: [0; P],
            room,
            len: [0; P],
            low: std::array::from_fn(|p| piles[p].len() + first),
        };
        for p in 0..P {
            columns.walk(p);
        }
        columns
    }

    /// The bit of the card `i` places from the bottom of pile p (0 where a deal
    /// brought the pile none).
    #[inline]
    fn bit(&self, p: usize, i: usize) -> u64 {
        let card = match i.checked_sub(self.piles[p].len()) {
            None => self.piles[p][i],
            Some(deal) => self.dealt[deal].cards[p],
        };
        self.bits[usize::from(card)]
    }

    /// The next card of pile p, as a bit: 0 when every card of the pile has left.
    #[inline]
    fn next(&self, p: usize) -> u64 {
        match self.len[p] {
            0 => 0,
            n => self.room.stack[p][n - 1],
        }
    }

    /// Walk pile p down to a card that has not left, if its stack is empty.
    fn walk(&mut self, p: usize) {
        while self.len[p] == 0 && self.low[p] > 0 {
            self.low[p] -= 1;
            let bit = self.bit(p, self.low[p]);
            self.seen[p] |= bit;
            if bit & !self.gone != 0 {
                self.room.stack[p][0] = bit;
                self.room.after[p][0] = 0;
                self.len[p] = 1;
            }
        }
    }

    /// Pile p's next card leaves: the walk goes on below it.
    fn take(&mut self, p: usize) {
        self.len[p] -= 1;
        self.gone |= self.room.stack[p][self.len[p]];
        self.seen[p] |= self.room.after[p][self.len[p]];
        self.walk(p);
    }

    /// S13's rule within a stretch whose suits `open` may move (S16), a pass over
    /// the piles at a time: the next card of a pile leaves when a stronger card of
    /// its suit might be on top of another pile. The passes go on until no card
    /// leaves (false) or a pile might be empty (true): S17 takes the piles up from
    /// there, the same in both fixpoints, whatever the other piles have passed by
    /// then (it lets every card of the suits `open` leave).
    fn close_stretch(&mut self, open: u64) -> bool {
        if (0..P).any(|p| self.next(p) == 0) {
            return true;
        }
        // What the piles might show, kept up to date as cards leave: a pile's cards
        // see what the piles before it in the pass have shown.
        let mut all = self.seen.iter().fold(0, |m, &b| m | b);
        loop {
            let mut grown = false;
            for p in 0..P {
                // What the other piles might show is the same after each card of p
                // that leaves.
                let others = all & !self.seen[p];
                loop {
                    let bit = self.next(p) & open;
                    if bit == 0 || rules::stronger_bits(bit) & others == 0 {
                        break;
                    }
                    self.take(p);
                    grown = true;
                    if self.len[p] == 0 {
                        return true;
                    }
                }
                all |= self.seen[p];
            }
            if !grown {
                return false;
            }
        }
    }

    /// S16 within a stretch that may go the ways `opens`: [`Self::close_stretch`] each
    /// way, and then every card that might leave in one of them has left, the piles
    /// as the way that takes the most of each left it (a pile's cards leave in one
    /// order, whichever way the stretch goes). With `fills` (S17), every card that the
    /// way does not hold, from the top down, leaves from the piles of a way in which
    /// a pile might be empty. Whether a pile might be empty; then, without `fills`
    /// and with more than one way, the piles are left as they were.
    pub(super) fn close_ways(&mut self, opens: &StretchWays, fills: bool) -> bool {
        let ways = opens.ways();
        if let [open] = *ways {
            return self.close_way(open, fills);
        }
        // Every way at once first: a way whose held suit loses no card then goes the
        // same, step for step, and takes at least as many of each pile as any other.
        let start = self.mark();
        let emptied = self.close_way(ways.iter().fold(0, |m, &w| m | w), fills);
        let left = self.gone & !start.gone;
        if ways.iter().any(|&w| left & !w == 0) {
            if emptied && !fills {
                self.rewind(&start);
            }
            return emptied;
        }
        let mut takes = [0; P];
        let mut emptied = false;
        for &open in ways {
            self.rewind(&start);
            if self.close_way(open, fills) {
                if !fills {
                    self.rewind(&start);
                    return true;
                }
                emptied = true;
            }
            let left = self.gone & !start.gone;
            for (take, seen) in takes.iter_mut().zip(self.seen) {
                *take = (*take).max((left & seen).count_ones());
            }
        }
        self.rewind(&start);
        for (p, &n) in takes.iter().enumerate() {
            for _ in 0..n {
                self.take(p);
            }
        }
        emptied
    }

    /// [`Self::close_stretch`] with the cards `open`, and with `fills` (S17's (ii))
    /// once a pile might be empty, every card of `open` from each pile's top down.
    fn close_way(&mut self, open: u64, fills: bool) -> bool {
        let emptied = self.close_stretch(open);
        if emptied && fills {
            for p in 0..P {
                while self.next(p) & open != 0 {
                    self.take(p);
                }
            }
        }
        emptied
    }

    /// The piles as they are now, to [`Self::rewind`] to after closures within the
    /// stretch (no deal between).
    fn mark(&self) -> ColumnsMark<P> {
        ColumnsMark {
            gone: self.gone,
            seen: self.seen,
            len: self.len,
            low: self.low,
            bottom: std::array::from_fn(|p| (self.room.stack[p][0], self.room.after[p][0])),
        }
    }

    /// Make the piles again what they were at `mark`.
    fn rewind(&mut self, mark: &ColumnsMark<P>) {
        self.gone = mark.gone;
        self.seen = mark.seen;
        self.len = mark.len;
        self.low = mark.low;
        for (p, &(stack, after)) in mark.bottom.iter().enumerate() {
            self.room.stack[p][0] = stack;
            self.room.after[p][0] = after;
        }
    }

    /// Deal `dealt[deal]` onto the piles: each card dealt is the next card of its
    /// pile (it was not in play before, so it has not left).
    pub(super) fn deal(&mut self, deal: usize) {
        let row = self.dealt[deal];
        for (p, &card) in row.cards.iter().enumerate() {
            let bit = self.bits[usize::from(card)];
            if bit != 0 {
                let n = self.len[p];
                self.room.stack[p][n] = bit;
                self.room.after[p][n] = self.seen[p];
                self.len[p] = n + 1;
                self.seen[p] = bit;
            }
        }
    }
}

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// S13: with no pile empty, under `deal_to="all"`, whether the game is lost
    /// because no pile can ever be emptied and a card that is not of the top rank
    /// can never leave (SOLVER.md).
    pub(super) fn locked(&self, s: &CompactState<N, P>) -> bool {
        let dealt = self.deals_from(s.dealt);
        let deals = dealt.len();
        let piles: [&[u8]; P] = std::array::from_fn(|p| s.pile(p));
        let mut room = self.room.borrow_mut();
        let mut columns = Columns::new(self.ctx.bits, &piles, dealt, 0, 0, &mut room);
        let (removable, emptied) = self.removable(&mut columns, 0);
        if emptied > deals && self.in_play(s) & !removable[deals] & !rules::TOP_RANK_BITS != 0 {
            return true;
        }
        // S15 and S17: as many suits as piles, and a last deal that reaches every
        // pile and leaves some suits off the top: one of them must be down to its
        // top-rank card by then. Until the first stretch at which a pile might be
        // empty, the cards that may have left are the fixpoint's; from there S17
        // goes on where the fixpoint stopped.
        if emptied < deals {
            return self.no_suit_clears_from(s, &mut columns, emptied);
        }
        let gone = deals.checked_sub(1).map_or(0, |t| removable[t]);
        self.last_deal_shown(dealt)
            .is_some_and(|shown| self.suit_left_behind(s, dealt, shown, gone))
    }

    /// S12 and S13's fixpoint: with `columns` the piles below the deals to come
    /// (under `deal_to="all"`, which deals every card to a known pile), at stretch
    /// `first`, `removable[t]`: every card that might be discarded by stretch t
    /// (after the first t deals), before a pile is first empty; one that might be
    /// on top then (every card above it removable by then) while a stronger card of
    /// its suit might be on top of another pile. Also the first stretch at which a
    /// pile might be empty (every card on it then removable by then), past the last
    /// (the number of deals + 1) when none might be. The fixpoint stops there, with
    /// `columns` as S17 takes them up (`no_suit_clears_from`): `removable` holds the
    /// stretches before it.
    pub(super) fn removable(
        &self,
        columns: &mut Columns<P>,
        first: usize,
    ) -> ([u64; MAX_TIMES], usize) {
        let times = columns.dealt.len() + 1;
        // Each stretch's set starts from the last one's and depends on no later one,
        // so the stretches are closed one after the other.
        let mut removable = [0u64; MAX_TIMES];
        for t in first..times {
            if t > first {
                columns.deal(t - 1);
            }
            if columns.close_ways(&self.open_suits(columns, t), false) {
                return (removable, t);
            }
            removable[t] = columns.gone;
        }
        (removable, times)
    }
}
