//! The search: depth first over the settled positions, a frame a branch point, and
//! the winning line played again from the root once it is found.

use super::context::StockContext;
use super::fixpoint::{DealRow, StackRoom, StretchWays, MAX_TIMES};
use super::state::{CompactState, NO_CARD};
use super::table::TranspositionTable;
use super::Limits;
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rules::{self, DealTo, LegalMoves};
use std::cell::RefCell;
use std::time::Instant;

/// A branch of the search: a legal move, or a decision that is no move (S3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SearchStep {
    Play(Move),
    /// Keep the top card of this pile until the cards under it have left (S3).
    Pin(u8),
    /// Relocate lone cards so that light pile p holds `layout[p]` (a card index, or
    /// [`BLANK`] for an empty pile; heavy piles hold [`HEAVY`]), then play the move (S7).
    Arranged {
        layout: [u8; MAX_PILES],
        mv: Move,
    },
}

pub(super) const BLANK: u8 = 0xff;
pub(super) const HEAVY: u8 = 0xfe;

/// A position on the path of the search, with the branches still to try from it.
pub(super) struct Frame<const N: usize, const P: usize> {
    pub(super) state: CompactState<N, P>,
    /// This position's branches are `steps[first..]` up to the next frame's; those
    /// before `next` have been tried.
    pub(super) first: usize,
    pub(super) next: usize,
}

/// Where settling a position ended.
pub(super) enum Settlement {
    Won,
    Lost,
    Branch(LegalMoves),
}

/// The buffers of a solver that do not depend on the room of a pile.
pub(super) struct SearchBuffers {
    /// The keys of the states searched under `deal_to="all"`, and under
    /// `"empty"`.
    pub(super) table: TranspositionTable<u128>,
    pub(super) wide: TranspositionTable<[u64; 4]>,
    pub(super) steps: Vec<SearchStep>,
    pub(super) line: Vec<Move>,
    /// S7's arrangements of one position (see [`arrangements`]).
    pub(super) layouts: Vec<[u8; MAX_PILES]>,
    pub(super) nodes: u64,
    /// The tests' check of the keys against the states' bytes, when on.
    #[cfg(test)]
    pub(super) keys: super::keys::KeyCheck,
}

/// Why a search stopped without a verdict.
pub(super) struct SearchStopped;

/// One solve in progress. `OPEN` is whether the rules are `deal="any"`, under
/// which a deal may come before a legal discard (S10).
pub(super) struct Search<'a, const N: usize, const P: usize, const OPEN: bool> {
    pub(super) ctx: &'a StockContext,
    pub(super) buffers: &'a mut SearchBuffers,
    pub(super) frames: &'a mut Vec<Frame<N, P>>,
    limits: &'a Limits,
    /// [`Limits::deadline`].
    deadline: Option<Instant>,
    /// Whether the moves played go to `buffers.line`: only while the winning line
    /// is played again from the root (see `replay`).
    pub(super) record: bool,
    /// The stock's deals, `deals[..deal_count]`, under `deal="any"` and
    /// `deal_to="all"` (S12, S13, S16, S17); none otherwise.
    deals: [DealRow<P>; MAX_TIMES],
    deal_count: usize,
    /// The room that each fixpoint of S12, S13 and S17 borrows for its `Columns`.
    pub(super) room: RefCell<StackRoom<P>>,
}

impl<'a, const N: usize, const P: usize, const OPEN: bool> Search<'a, N, P, OPEN> {
    /// The verdict on `pos`, with the winning line in `buffers.line`.
    pub(super) fn start(
        ctx: &'a StockContext,
        buffers: &'a mut SearchBuffers,
        frames: &'a mut Vec<Frame<N, P>>,
        limits: &'a Limits,
        pos: &Position,
    ) -> Option<bool> {
        buffers.table.clear();
        buffers.wide.clear();
        buffers.steps.clear();
        buffers.line.clear();
        buffers.nodes = 0;
        frames.clear();
        let root = CompactState::of(pos);
        let mut search = Search::<N, P, OPEN>::new(ctx, buffers, frames, limits);
        let winnable = search.run(root);
        if winnable == Some(true) {
            search.replay(root);
        }
        winnable
    }

    /// A search of `deal`'s stock, the stock's deals cut where the rules ask for
    /// them.
    pub(super) fn new(
        ctx: &'a StockContext,
        buffers: &'a mut SearchBuffers,
        frames: &'a mut Vec<Frame<N, P>>,
        limits: &'a Limits,
    ) -> Self {
        let mut search = Search {
            ctx,
            buffers,
            frames,
            limits,
            deadline: limits.deadline(),
            record: false,
            deals: [DealRow {
                cards: [NO_CARD; P],
                open: StretchWays::ALL,
                later: 0,
            }; MAX_TIMES],
            deal_count: 0,
            room: RefCell::new(StackRoom::EMPTY),
        };
        if OPEN && ctx.rules.deal_to == DealTo::All {
            // The cards of each deal, as the rules deal them: only the heights and
            // `dealt` tell them where a deal goes, so no card is put on a pile.
            let mut t = CompactState::<N, P>::EMPTY;
            while ctx.stock_left(&t) > 0 {
                let targets = rules::deal_targets(&ctx.seen(&t));
                let mut cards = [NO_CARD; P];
                for p in (0..P).filter(|&p| targets >> p & 1 == 1) {
                    cards[p] = ctx.stock()[usize::from(t.dealt)];
                    t.dealt += 1;
                    t.heights[p] += 1;
                }
                let open = search.discardable_suits(&cards);
                search.deals[search.deal_count] = DealRow {
                    cards,
                    open,
                    later: 0,
                };
                search.deal_count += 1;
            }
            let mut later = 0;
            for row in search.deals[..search.deal_count].iter_mut().rev() {
                later |= row
                    .cards
                    .iter()
                    .fold(0, |m, &c| m | ctx.bits[usize::from(c)]);
                row.later = later;
            }
        }
        search
    }

    /// The verdict on `root`.
    fn run(&mut self, root: CompactState<N, P>) -> Option<bool> {
        if self.stock_is_doomed() {
            self.buffers.nodes = 1;
            return Some(false);
        }
        let mut state = root;
        let mut tested = true;
        loop {
            match self.enter(&mut state, tested) {
                Ok(true) => return Some(true),
                Ok(false) => {}
                Err(SearchStopped) => return None,
            }
            // The next branch to try, from the deepest position that has one left.
            let step = loop {
                let Some(frame) = self.frames.last_mut() else {
                    return Some(false);
                };
                if frame.next < self.buffers.steps.len() {
                    frame.next += 1;
                    state = frame.state;
                    break self.buffers.steps[frame.next - 1];
                }
                self.buffers.steps.truncate(frame.first);
                self.frames.pop();
            };
            self.take_step(&mut state, step);
            tested = self.tested_after(&state, step);
        }
    }

    /// Play again, from `root`, the branches that the frames on the path took and
    /// the moves that settling forced, this time writing them to the line.
    fn replay(&mut self, root: CompactState<N, P>) {
        self.record = true;
        let path: Vec<SearchStep> = self
            .frames
            .iter()
            .map(|f| self.buffers.steps[f.next - 1])
            .collect();
        let mut state = root;
        let _ = self.settle(&mut state, true);
        for step in path {
            self.take_step(&mut state, step);
            let tested = self.tested_after(&state, step);
            let _ = self.settle(&mut state, tested);
        }
    }

    /// Play `mv`, known to be legal, on `s`: S10's hold of a lone card moves with
    /// it and ends at the deal, a discard joins `gone` under `deal="any"`, and
    /// the move is written to the line while it is played again.
    #[inline(always)]
    pub(super) fn play(&mut self, s: &mut CompactState<N, P>, mv: Move) {
        // Only S10's holds move or meet a deal: S3's pins do neither.
        if OPEN && s.pins != 0 {
            match mv {
                // A held card (S10) is held until the next deal, and its hold moves
                // with it. (S3's pinned cards never move, nor meet a deal.)
                Move::Deal => s.pins = 0,
                Move::Fill { src, dst, index: 0 } if s.pins >> src & 1 == 1 => {
                    s.pins = s.pins & !(1 << src) | 1 << dst;
                }
                _ => {}
            }
        }
        if let (true, Move::Discard(p)) = (OPEN, mv) {
            s.gone |= self.ctx.bits[usize::from(s.tops[usize::from(p)])];
        }
        self.ctx.apply(s, mv);
        if self.record {
            self.buffers.line.push(mv);
        }
    }

    /// Play a branch. Always inlined: the search takes one at every position it
    /// enters, and a call cost it about 3% of its instructions.
    #[inline(always)]
    fn take_step(&mut self, s: &mut CompactState<N, P>, step: SearchStep) {
        match step {
            SearchStep::Play(mv) => self.play(s, mv),
            SearchStep::Pin(p) => s.pins |= 1 << p,
            SearchStep::Arranged { layout, mv } => {
                self.arrange(s, &layout);
                self.play(s, mv);
            }
        }
    }

    /// Whether the tests that lose a position (S13, S15, S17) look at `s`, where
    /// `step` just led, before its next deal. Under `deal="any"`, while the stock
    /// lasts, only after a deal (SOLVER.md, *Where the tests look*).
    #[inline(always)]
    fn tested_after(&self, s: &CompactState<N, P>, step: SearchStep) -> bool {
        let dealt = matches!(
            step,
            SearchStep::Play(Move::Deal) | SearchStep::Arranged { mv: Move::Deal, .. }
        );
        !OPEN || dealt || !self.deal_is_open(s)
    }

    /// Settle `s` and, unless it was met before, push its branches: true when won.
    fn enter(
        &mut self,
        s: &mut CompactState<N, P>,
        tested: bool,
    ) -> std::result::Result<bool, SearchStopped> {
        match self.settle(s, tested)? {
            Settlement::Won => Ok(true),
            Settlement::Lost => Ok(false),
            Settlement::Branch(legal) => {
                if self.insert(s)? {
                    self.expand(s, legal);
                }
                Ok(false)
            }
        }
    }

    /// Count a node, or stop at a limit.
    fn count_node(&mut self) -> std::result::Result<(), SearchStopped> {
        if self.record {
            return Ok(());
        }
        if self.limits.stop(self.deadline, self.buffers.nodes) {
            return Err(SearchStopped);
        }
        self.buffers.nodes += 1;
        Ok(())
    }

    /// Play the forced moves (S1-S5, S14), then the deals while nothing else is
    /// legal. `tested`: whether the tests that lose a position look at `s` before
    /// the first of those deals (they do after it).
    fn settle(
        &mut self,
        s: &mut CompactState<N, P>,
        mut tested: bool,
    ) -> std::result::Result<Settlement, SearchStopped> {
        loop {
            let discards = self.close(s);
            if self.ctx.score(s) == self.ctx.win_score {
                return Ok(Settlement::Won);
            }
            self.count_node()?;
            let tested_here = std::mem::replace(&mut tested, true);
            // With no pile empty and nothing to discard, only the deal can be legal; a
            // held card (S10) waits for it too.
            let free = if self.deal_is_open(s) {
                discards & !s.pins
            } else {
                discards
            };
            if s.empty() == 0 && free == 0 {
                if self.ctx.stock_left(s) == 0 {
                    // The deal is legal exactly while the stock lasts (R2.3, whatever
                    // the deal rule).
                    debug_assert!(!rules::can_deal(&self.ctx.seen(s)));
                    return Ok(Settlement::Lost);
                }
                // A point on the line to the position after the deal, which the tests
                // see at least as well: no card can leave before the deal, so S13 and
                // S17 find there what they would find here a stretch earlier, and
                // S15 (a) there closes whatever S15 (b) would close here.
            } else {
                if tested_here && self.lost(s) {
                    return Ok(Settlement::Lost);
                }
                let legal = self.ctx.legal(s, discards);
                if legal.is_empty() {
                    return Ok(Settlement::Lost);
                }
                if !(legal.deal() && legal.len() == 1) {
                    return Ok(Settlement::Branch(legal));
                }
            }
            debug_assert!(rules::can_deal(&self.ctx.seen(s)));
            self.play(s, Move::Deal);
        }
    }

    /// Whether a settled position is lost by S13, S15 or S17.
    #[inline(always)]
    pub(super) fn lost(&self, s: &CompactState<N, P>) -> bool {
        let all = self.ctx.rules.deal_to == DealTo::All;
        // S13, where a deal may come at any time: otherwise S1-S5 and S8 leave
        // little for it to find.
        OPEN && all && s.empty() == 0 && self.locked(s)
            || self.last_suit_blocked(s)
            || OPEN && all && s.empty() != 0 && self.no_suit_clears(s, self.deals_from(s.dealt))
    }

    /// Whether a deal may come before a legal discard (`deal="any"` while the stock
    /// lasts): no discard is then forced, nor pinned (S1, S3, S5 assume otherwise).
    #[inline]
    pub(super) fn deal_is_open(&self, s: &CompactState<N, P>) -> bool {
        OPEN && self.ctx.stock_left(s) > 0
    }

    /// The bits (`rules::top_bits`) of the cards still in the stock.
    pub(super) fn stock_bits(&self, s: &CompactState<N, P>) -> u64 {
        if OPEN && self.ctx.rules.deal_to == DealTo::All {
            return self.deals_from(s.dealt).first().map_or(0, |row| row.later);
        }
        let bits = self.ctx.bits;
        self.ctx.stock()[usize::from(s.dealt)..]
            .iter()
            .fold(0, |m, &c| m | bits[usize::from(c)])
    }

    /// The bits (`rules::top_bits`) of the cards still in play: in the piles or in
    /// the stock.
    #[inline]
    pub(super) fn in_play(&self, s: &CompactState<N, P>) -> u64 {
        if !OPEN {
            return self.stock_bits(s) | self.pile_bits(s);
        }
        debug_assert_eq!(
            self.ctx.cards & !s.gone,
            self.stock_bits(s) | self.pile_bits(s)
        );
        self.ctx.cards & !s.gone
    }

    /// The bits (`rules::top_bits`) of the cards in the piles.
    fn pile_bits(&self, s: &CompactState<N, P>) -> u64 {
        let bits = self.ctx.bits;
        (0..P).fold(0, |m, p| {
            s.pile(p).iter().fold(m, |m, &c| m | bits[usize::from(c)])
        })
    }

    /// The deals left after the first `dealt` cards of the stock, under
    /// `deal_to="all"`: a whole deal at a time from the root, so the last ones of
    /// the stock's.
    pub(super) fn deals_from(&self, dealt: u8) -> &[DealRow<P>] {
        debug_assert_eq!(self.ctx.rules.deal_to, DealTo::All);
        let done = usize::from(dealt).div_ceil(P);
        debug_assert!(done * P == usize::from(dealt) || usize::from(dealt) == self.ctx.stock_len);
        &self.deals[done..self.deal_count]
    }
}
