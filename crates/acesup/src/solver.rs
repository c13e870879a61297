//! The clairvoyant solver (docs/SOLVER.md): can a position still be won, knowing
//! the order of the stock, and how? Plus [`solvability`], the verdicts on a range
//! of seeded deals.
//!
//! The search is a depth-first search over a reduced graph of positions, with an
//! exact transposition table. Each reduction is proved in docs/SOLVER.md, by the
//! section number given in the comments here (S1, S2, ...), and checked against
//! the plain search (every legal move, no pruning) by the tests at the bottom.

use crate::cards::{Card, SUITS};
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rng::{deck_from_seed, game_seed};
use crate::rules::{self, DealRule, DealTo, FillRule, LegalMoves, Rules, Tableau};
use crate::stats::Stats;
use crate::stream::Stream;
use crate::{Error, ErrorKind, Result};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How far a search may go before it gives up; `None` is no bound.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The most positions the search may expand (see [`Solution::nodes`]).
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Stop when this flag is raised (the Python bindings raise it on Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// `Some(true)`: `moves` wins from the position solved. `Some(false)`: the search
    /// proved that no win can be reached. `None`: a limit stopped it first.
    pub winnable: Option<bool>,
    /// A winning line when `winnable == Some(true)`, else empty.
    pub moves: Vec<Move>,
    /// The positions the search expanded: each position reached after a move and
    /// the forced moves that follow it (docs/SOLVER.md, *Settling*) counts once.
    pub nodes: u64,
}

/// The most moves a line that repeats no position holds, in any layout (R4.3):
/// at most 479 moves that are not a lone card's (48 discards, 47 deals, and 4
/// fills after each of them and at the start, on five piles), and between two of
/// them fewer than 5! = 120 positions that differ only in where the lone cards
/// stand. A solution's line is never longer.
pub const MAX_LINE: usize = 479 + 480 * 119;

impl Solution {
    /// A solution as the Python constructor takes it (whose reader stops after
    /// [`MAX_LINE`] + 1 moves): `ValueError` for more than [`MAX_LINE`] moves, or
    /// for moves with a verdict other than winnable.
    pub fn new(winnable: Option<bool>, moves: Vec<Move>, nodes: u64) -> Result<Solution> {
        if moves.len() > MAX_LINE {
            return Err(Error::new(
                ErrorKind::Value,
                format!("a solution holds at most {MAX_LINE} moves (a line that repeats no position, R4.3), got more"),
            ));
        }
        if !moves.is_empty() && winnable != Some(true) {
            return Err(Error::new(
                ErrorKind::Value,
                format!(
                    "a solution with winnable={} has no moves, got {}",
                    py_verdict(winnable),
                    moves.len()
                ),
            ));
        }
        Ok(Solution {
            winnable,
            moves,
            nodes,
        })
    }
}

impl fmt::Display for Solution {
    /// The Python `str`: the verdict, the nodes and the line, as in
    /// `winnable (12 nodes): f2>0 deal d1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.winnable {
            Some(true) => "winnable",
            Some(false) => "unwinnable",
            None => "unresolved",
        };
        write!(f, "{verdict} ({} nodes)", self.nodes)?;
        if !self.moves.is_empty() {
            let line: Vec<String> = self.moves.iter().map(Move::to_string).collect();
            write!(f, ": {}", line.join(" "))?;
        }
        Ok(())
    }
}

/// `True`, `False` or `None`, as Python shows a verdict.
fn py_verdict(winnable: Option<bool>) -> &'static str {
    match winnable {
        Some(true) => "True",
        Some(false) => "False",
        None => "None",
    }
}

/// Solve `pos` (see the module documentation); `pos` itself is not changed.
pub fn solve(pos: &Position, limits: &Limits) -> Solution {
    Solver::new().solve(pos, limits)
}

// ---------------------------------------------------------------------------
// The search state

/// The most cards a pile can hold.
const CARDS: usize = 52;

/// The places of a pile with room enough for every pile of most positions (every
/// seeded deal of four or five piles): a pile holds at most one card that was moved
/// or dealt onto it while it was empty, or its first card, plus one card from each
/// deal since that reached every pile (see [`Solver::solve`]). The last place is
/// no room (see [`State`]), so the room is `SMALL - 1`.
const SMALL: usize = 16;

/// The places of a pile with room for every card: the power of two above
/// [`CARDS`], for the same reason.
const LARGE: usize = 64;

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
/// through [`Seen`], the state together with its [`Deal`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct State<const N: usize, const P: usize> {
    heights: [u8; P],
    /// The top card of each pile, [`NO_CARD`] for an empty pile: kept with the
    /// piles because every rule looks at the top cards.
    tops: [u8; P],
    dealt: u8,
    pins: u8,
    piles: [[u8; N]; P],
    /// Under `deal="any"`, the bits (`rules::top_bits`) of the cards discarded
    /// since the root, so that the cards in play are one mask away
    /// ([`Search::in_play`]); 0 under the other deal rules, which ask for them
    /// seldom. Not in the key: the piles and `dealt` decide it.
    gone: u64,
}

/// The most points in time S13 looks at: now, and after each deal of a stock
/// (⌈52 / 4⌉ deals at most).
const MAX_TIMES: usize = 14;

/// The top card of an empty pile: an index past the 52 cards, whose bits in a
/// `rules::BitTable` are 0.
const NO_CARD: u8 = CARDS as u8;

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
const NO_HOME: u8 = (1 << 3) - 1;
const _: () = assert!(
    KEY_BITS + GENERATION_BITS <= 128
        && CARDS < NO_BASE as usize
        && 6 + MAX_PILES as u32 + GENERATION_BITS <= 64
        && MAX_PILES < 7
        && CARDS <= 3 * 21
);

impl<const N: usize, const P: usize> State<N, P> {
    const EMPTY: Self = {
        assert!(N.is_power_of_two(), "a pile's places wrap modulo N");
        let mut pile = [0; N];
        pile[N - 1] = NO_CARD;
        State {
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
    fn below(&self, p: usize, h: u8) -> u8 {
        self.piles[p][usize::from(h).wrapping_sub(1) % N]
    }

    /// The piles of `pos`, with nothing dealt yet; no pile may hold more than N − 1.
    fn of(pos: &Position) -> Self {
        let mut s = State::EMPTY;
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
    fn height(&self, p: usize) -> usize {
        usize::from(self.heights[p])
    }

    /// The number of cards in the piles.
    #[inline]
    fn total(&self) -> usize {
        // Each sum of the first heights is at most 52 and fits in a byte, so one
        // multiplication adds them up, without carries, into the top byte.
        let mut bytes = [0u8; 8];
        bytes[..P].copy_from_slice(&self.heights);
        (u64::from_le_bytes(bytes).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    #[inline]
    fn pile(&self, p: usize) -> &[u8] {
        &self.piles[p][..self.height(p)]
    }

    /// The card `index` places from the top of pile p; `index < height(p)`.
    #[inline]
    fn card_from_top(&self, p: usize, index: usize) -> u8 {
        self.piles[p][self.height(p) - 1 - index]
    }

    /// Remove and return the card `index` places from the top of pile p; the cards
    /// above it close up.
    #[inline(always)]
    fn take(&mut self, p: usize, index: usize) -> u8 {
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
    fn discard_tops(&mut self, mask: u8) {
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
    fn push(&mut self, p: usize, card: u8) {
        self.piles[p][self.height(p)] = card;
        self.tops[p] = card;
        self.heights[p] += 1;
    }

    /// The empty piles, as a mask.
    #[inline]
    fn empty(&self) -> u8 {
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

/// What stays fixed while one position is solved: the rules and the stock.
struct Deal {
    rules: Rules,
    /// The stock at the root, in deal order, as card indices: `stock[..stock_len]`
    /// (an array, so that a solve allocates nothing for it).
    stock: [u8; CARDS],
    stock_len: usize,
    /// `rules::top_bits` of the rank order in force.
    bits: &'static rules::BitTable,
    /// The bits of the cards in play at the root, in its piles and its stock: with
    /// `State::gone`, the cards in play under `deal="any"`.
    cards: u64,
    /// The home of each card (by index): the pile it was dealt to, the root's
    /// piles included, or [`NO_HOME`] for a stock card under `deal_to="empty"`,
    /// whose pile depends on the line ([`Search::key`]).
    home: [u8; CARDS + 1],
    /// The layout's deck size D and win score D − S (R4.2), looked up once.
    deck_size: usize,
    win_score: usize,
    /// S2: whether a discard from a pile of two cards or more may lose a win while
    /// the stock lasts (`fill="any"` and lone cards may not move), looked up once.
    guarded: bool,
}

/// A state as the rules read it: with the rules and the stock of its [`Deal`].
/// The bits of its top cards are looked up as the rules ask for them: every rule
/// function is inlined, so the compiler looks each up once and drops those unused.
struct Seen<'a, const N: usize, const P: usize> {
    deal: &'a Deal,
    state: &'a State<N, P>,
}

impl<const N: usize, const P: usize> Tableau for Seen<'_, N, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.deal.rules
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
        self.deal.bits[usize::from(self.state.tops[p])]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        (0..P).fold(0, |m, p| m | self.top_bit(p))
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.deal.stock_left(self.state)
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

/// S8's first look at one whole deal of the stock, `stock[first..first + P]`, as the
/// rules read it when it has been dealt onto empty piles: a card on each pile.
struct DealtAlone<'a, const P: usize> {
    deal: &'a Deal,
    first: usize,
}

impl<const P: usize> Tableau for DealtAlone<'_, P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        &self.deal.rules
    }

    #[inline(always)]
    fn height(&self, _p: usize) -> usize {
        1
    }

    #[inline(always)]
    fn card_from_top(&self, p: usize, _index: usize) -> Card {
        Card::new(self.deal.stock[self.first + p])
    }

    #[inline(always)]
    fn top_bit(&self, p: usize) -> u64 {
        self.deal.bits[usize::from(self.deal.stock[self.first + p])]
    }

    #[inline(always)]
    fn tops(&self) -> u64 {
        (0..P).fold(0, |m, p| m | self.top_bit(p))
    }

    #[inline(always)]
    fn stock_left(&self) -> usize {
        self.deal.stock_len - self.first - P
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

impl Deal {
    /// The rules and the stock of `pos`.
    fn of(pos: &Position) -> Deal {
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
        Deal {
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
    fn stock(&self) -> &[u8] {
        &self.stock[..self.stock_len]
    }

    /// `s` as the rules read it.
    #[inline(always)]
    fn seen<'a, const N: usize, const P: usize>(&'a self, s: &'a State<N, P>) -> Seen<'a, N, P> {
        Seen {
            deal: self,
            state: s,
        }
    }

    #[inline]
    fn stock_left<const N: usize, const P: usize>(&self, s: &State<N, P>) -> usize {
        self.stock_len - usize::from(s.dealt)
    }

    /// The cards discarded so far: those of the layout's deck that are neither in
    /// the piles nor in the stock.
    #[inline]
    fn score<const N: usize, const P: usize>(&self, s: &State<N, P>) -> usize {
        self.deck_size - s.total() - self.stock_left(s)
    }

    /// The piles that may be discarded (R2.1, `rules::discard_mask`).
    #[inline]
    fn discards<const N: usize, const P: usize>(&self, s: &State<N, P>) -> u8 {
        rules::discard_mask_of::<_, P>(&self.seen(s))
    }

    /// `rules::fill_choices` of pile p (R2.2).
    #[inline]
    fn fill_choices<const N: usize, const P: usize>(&self, s: &State<N, P>, p: usize) -> usize {
        rules::fill_choices(&self.seen(s), p)
    }

    /// The legal moves (R2, R3), as `rules::LegalMoves` lists them, given
    /// `discards`, the piles that may be discarded ([`Deal::discards`]).
    #[inline]
    fn legal<const N: usize, const P: usize>(&self, s: &State<N, P>, discards: u8) -> LegalMoves {
        LegalMoves::with_discards::<_, P>(&self.seen(s), discards)
    }

    /// Play `mv`, known to be legal, on `s`: the cards go where R2 says, and a deal
    /// to the piles of `rules::deal_targets`, in pile order.
    #[inline(always)]
    fn apply<const N: usize, const P: usize>(&self, s: &mut State<N, P>, mv: Move) {
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
        }
    }
}

// ---------------------------------------------------------------------------
// The transposition table

/// A state's key in the table ([`Search::insert`]), with room above its bits for
/// the table's generation ([`GENERATION_BITS`]).
trait Key: Copy + Default + Eq {
    /// The key's words, for the tests' check of the keys.
    #[cfg(test)]
    fn words(self) -> [u64; 4];
    /// The key with `generation` in its top bits, in place of the one there.
    fn stamped(self, generation: u64) -> Self;
    fn generation(self) -> u64;
    /// A 64-bit hash of the key without its generation.
    fn hash(self) -> u64;
}

/// A 64-bit hash of `words` (multiply and xor-shift over them), the generation's
/// bits of the last one cleared.
#[inline(always)]
fn hash_words<const W: usize>(mut words: [u64; W]) -> u64 {
    let mix = |h: u64, word: u64| {
        let h = (h ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ h >> 29
    };
    words[W - 1] &= !0 >> GENERATION_BITS;
    let h = words.into_iter().fold(0x243f_6a88_85a3_08d3, mix);
    h ^ h >> 32
}

/// The bits at the top of a key that hold the table's generation.
const GENERATION_BITS: u32 = 16;

/// [`Search::key`]'s key under `deal_to="all"`: 108 bits.
impl Key for u128 {
    #[cfg(test)]
    fn words(self) -> [u64; 4] {
        [0, 0, self as u64, (self >> 64) as u64]
    }
    fn stamped(self, generation: u64) -> u128 {
        self & !0 >> GENERATION_BITS | u128::from(generation) << (128 - GENERATION_BITS)
    }
    fn generation(self) -> u64 {
        (self >> (128 - GENERATION_BITS)) as u64
    }
    fn hash(self) -> u64 {
        hash_words([self as u64, (self >> 64) as u64])
    }
}

/// [`Search::wide_key`]'s key, under any `deal_to`: 167 bits.
impl Key for [u64; 4] {
    #[cfg(test)]
    fn words(self) -> [u64; 4] {
        self
    }
    fn stamped(mut self, generation: u64) -> [u64; 4] {
        self[3] = self[3] & !0 >> GENERATION_BITS | generation << (64 - GENERATION_BITS);
        self
    }
    fn generation(self) -> u64 {
        self[3] >> (64 - GENERATION_BITS)
    }
    fn hash(self) -> u64 {
        hash_words(self)
    }
}

/// An exact set of states, stored as their keys: open addressing over `slots`,
/// each a key stamped with the generation of the set it was put in, so that a slot
/// of an older generation is free and clearing the set costs nothing. Keys are
/// compared in full, so two states are never confused, whatever their hash.
struct Table<K: Key> {
    slots: Vec<K>,
    len: usize,
    generation: u64,
}

/// The memory ran out: the search stops with no verdict.
struct OutOfMemory;

impl<K: Key> Table<K> {
    const MIN_SLOTS: usize = 1 << 10;

    fn new() -> Table<K> {
        Table {
            slots: vec![K::default(); Self::MIN_SLOTS],
            len: 0,
            generation: 1,
        }
    }

    /// Forget every key.
    fn clear(&mut self) {
        self.len = 0;
        self.generation = self.next_generation();
    }

    /// The generation after this one. When the count wraps, the slots of older
    /// generations than this one are freed first, so that none passes for the new one.
    fn next_generation(&mut self) -> u64 {
        if self.generation + 1 < 1 << GENERATION_BITS {
            return self.generation + 1;
        }
        for slot in &mut self.slots {
            if slot.generation() != self.generation {
                *slot = K::default();
            }
        }
        1
    }

    /// Add `key` (its generation bits clear): true if it is new, false if it was
    /// there.
    fn insert(&mut self, key: K) -> std::result::Result<bool, OutOfMemory> {
        debug_assert_eq!(key.generation(), 0, "a key's top bits are the table's");
        // At most three slots in four in use: a new key probes about 8 slots, two
        // or three cache lines, and the table takes 21 to 43 bytes a state.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow()?;
        }
        let slot = key.stamped(self.generation);
        let mask = self.slots.len() - 1;
        let mut i = key.hash() as usize & mask;
        loop {
            let there = self.slots[i];
            if there == slot {
                return Ok(false);
            }
            if there.generation() != self.generation {
                break;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
        self.len += 1;
        Ok(true)
    }

    /// Double the slots and put every key back, in place: the memory of a large
    /// table grows without a copy (a `realloc` that maps the old pages anew), so
    /// the search never holds the old slots and the new ones at once.
    fn grow(&mut self) -> std::result::Result<(), OutOfMemory> {
        let old = self.slots.len();
        self.slots.try_reserve_exact(old).map_err(|_| OutOfMemory)?;
        self.slots.resize(2 * old, K::default());
        // The keys of this generation, all in the first half, are free slots to the
        // next one: each is taken out and put back under it, and one that it lands
        // on is put back in turn.
        let (from, to) = (self.generation, self.next_generation());
        let mask = 2 * old - 1;
        for i in 0..old {
            let mut key = self.slots[i];
            if key.generation() != from {
                continue;
            }
            self.slots[i] = K::default();
            loop {
                let mut j = key.hash() as usize & mask;
                while self.slots[j].generation() == to {
                    j = (j + 1) & mask;
                }
                let there = std::mem::replace(&mut self.slots[j], key.stamped(to));
                if there.generation() != from {
                    break;
                }
                key = there;
            }
        }
        self.generation = to;
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The search

/// A branch of the search: a legal move, or a decision that is no move (S3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
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

const BLANK: u8 = 0xff;
const HEAVY: u8 = 0xfe;

/// A position on the path of the search, with the branches still to try from it.
struct Frame<const N: usize, const P: usize> {
    state: State<N, P>,
    /// This position's branches are `steps[first..]` up to the next frame's; those
    /// before `next` have been tried.
    first: usize,
    next: usize,
}

/// Where settling a position ended.
enum Settled {
    Won,
    Lost,
    Branch(LegalMoves),
}

/// The buffers of a solver that do not depend on the room of a pile.
struct Buffers {
    /// The keys of the states searched under `deal_to="all"`, and under
    /// `"empty"`.
    table: Table<u128>,
    wide: Table<[u64; 4]>,
    steps: Vec<Step>,
    line: Vec<Move>,
    /// S7's arrangements of one position (see [`arrangements`]).
    layouts: Vec<[u8; MAX_PILES]>,
    nodes: u64,
    /// The tests' check of the keys against the states' bytes, when on.
    #[cfg(test)]
    keys: tests::KeyCheck,
}

/// A reusable solver: its tables and buffers survive from one solve to the next.
/// Its paths of frames, one for each room of a pile and number of piles.
pub struct Solver {
    buffers: Buffers,
    small4: Vec<Frame<SMALL, 4>>,
    small5: Vec<Frame<SMALL, 5>>,
    large4: Vec<Frame<LARGE, 4>>,
    large5: Vec<Frame<LARGE, 5>>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// Why a search stopped without a verdict.
struct Stop;

impl Solver {
    /// A solver with empty tables.
    pub fn new() -> Solver {
        let buffers = Buffers {
            table: Table::new(),
            wide: Table::new(),
            steps: Vec::new(),
            line: Vec::new(),
            layouts: Vec::new(),
            nodes: 0,
            #[cfg(test)]
            keys: tests::KeyCheck::default(),
        };
        Solver {
            buffers,
            small4: Vec::new(),
            small5: Vec::new(),
            large4: Vec::new(),
            large5: Vec::new(),
        }
    }

    /// Solve `pos` (see [`solve`]).
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Solution {
        let mut deal = Deal::of(pos);
        let begun = Instant::now();
        let mut spent = 0;
        let mut winnable = None;
        if deal.rules.deal == DealRule::Any {
            // Every move that `deal="free"` allows, `"any"` allows too, so a win under
            // "free" is a win; its search, whose discards are forced, finds one far
            // sooner (SOLVER.md, *Free deals first*). The budget is shared.
            deal.rules.deal = DealRule::Free;
            winnable = self.search(&deal, pos, limits).filter(|&won| won);
            if winnable.is_none() {
                // The search under "any" counts its positions from 0 again.
                spent = self.buffers.nodes;
            }
            deal.rules.deal = DealRule::Any;
        }
        if winnable.is_none() {
            let rest = Limits {
                nodes: limits.nodes.map(|n| n.saturating_sub(spent)),
                time: limits.time.map(|t| t.saturating_sub(begun.elapsed())),
                cancel: limits.cancel.clone(),
            };
            winnable = if rest.nodes == Some(0) || rest.time == Some(Duration::ZERO) {
                None
            } else {
                self.search(&deal, pos, &rest)
            };
        }
        let moves = match winnable {
            Some(true) => finish(pos, &self.buffers.line),
            _ => Vec::new(),
        };
        Solution {
            winnable,
            moves,
            nodes: spent + self.buffers.nodes,
        }
    }

    /// The verdict on `pos` under the rules of `deal`, by the search compiled for
    /// its number of piles and the room its piles need; the line in `buffers.line`.
    fn search(&mut self, deal: &Deal, pos: &Position, limits: &Limits) -> Option<bool> {
        // A pile gets a card from a deal only when it is empty (then it holds one
        // card, as after a fill) or when the deal is one of the at most ⌈stock / P⌉
        // that reach piles that are not empty (R2.3, under both `deal_to`).
        let piles = usize::from(deal.rules.piles);
        let deals_left = pos.stock().len().div_ceil(piles);
        let small = (0..piles).all(|p| pos.height(p).max(1) + deals_left < SMALL);
        let (b, l) = (&mut self.buffers, limits);
        match (small, piles) {
            (true, 4) => search(deal, b, &mut self.small4, l, pos),
            (true, _) => search(deal, b, &mut self.small5, l, pos),
            (false, 4) => search(deal, b, &mut self.large4, l, pos),
            (false, _) => search(deal, b, &mut self.large5, l, pos),
        }
    }
}

/// The verdict on `pos` by a search compiled for whether a deal may come before a
/// discard (`deal="any"`), so that the other rules pay nothing for S10.
fn search<const N: usize, const P: usize>(
    deal: &Deal,
    buffers: &mut Buffers,
    frames: &mut Vec<Frame<N, P>>,
    limits: &Limits,
    pos: &Position,
) -> Option<bool> {
    if deal.rules.deal == DealRule::Any {
        Search::<N, P, true>::start(deal, buffers, frames, limits, pos)
    } else {
        Search::<N, P, false>::start(deal, buffers, frames, limits, pos)
    }
}

/// `line` played on `pos`, then the moves that finish a won game: with the win
/// score discarded only the top-rank cards are left, and the first legal move that
/// is no move of a lone card, a fill from a pile of two cards or more or the deal,
/// is always one step closer to one such card on each pile (SOLVER.md, *Won at the
/// win score*).
fn finish(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut end = pos.clone();
    let mut moves = line.to_vec();
    for &mv in line {
        end.apply(mv);
    }
    let closer = |end: &Position| {
        LegalMoves::of(end).iter().find(|mv| match *mv {
            Move::Fill { src, .. } => end.height(usize::from(src)) >= 2,
            _ => true,
        })
    };
    while let Some(mv) = closer(&end) {
        end.apply(mv);
        moves.push(mv);
    }
    debug_assert!(end.is_won(), "{}", end.to_text());
    moves
}

/// One deal of the stock under `deal_to="all"`, which deals every card to a known
/// pile.
#[derive(Clone, Copy)]
struct DealRow<const P: usize> {
    /// The card it brings each pile, [`NO_CARD`] where a partial last deal brings
    /// none.
    cards: [u8; P],
    /// S16: the ways the stretch that it starts may go.
    open: Opens,
    /// The cards of this deal and of the deals after it, as bits.
    later: u64,
}

/// S16: the ways a stretch may go, as the cards that may leave in it each way (as
/// bits): one way for each suit missing from the tops at its start, whose cards
/// stay in that way; a single way when no suit is missing (no card leaves) or S16
/// does not apply (every card may).
#[derive(Clone, Copy)]
struct Opens {
    ways: [u64; SUITS.len()],
    n: u8,
}

impl Opens {
    /// A single way in which every card may leave.
    const ALL: Opens = Opens {
        ways: [!0; SUITS.len()],
        n: 1,
    };

    fn ways(&self) -> &[u64] {
        &self.ways[..usize::from(self.n)]
    }
}

/// The piles as the fixpoints of S13 and S17 walk them, stretch after stretch: each
/// pile's cards, its own and those dealt onto it, from the top down to its *next*
/// card, the first that has not left (is not in `gone`), which might be on top.
/// A card leaves only as the next card of its pile, and a dealt card arrives on
/// top, so the cards that have not left that a walk has passed are kept as a
/// stack, each with the cards that come into view when it leaves: no card is
/// walked over twice.
struct Columns<'a, const P: usize> {
    bits: &'a rules::BitTable,
    piles: &'a [&'a [u8]; P],
    dealt: &'a [DealRow<P>],
    /// The cards that might have left their place, as bits.
    gone: u64,
    /// The cards that might be on top of each pile: from its top down to its next
    /// card, as bits.
    seen: [u64; P],
    /// The stacks of the piles, `len[p]` cards each.
    room: &'a mut Stacks<P>,
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
struct Stacks<const P: usize> {
    stack: [[u64; MAX_TIMES + 1]; P],
    after: [[u64; MAX_TIMES + 1]; P],
}

impl<const P: usize> Stacks<P> {
    const EMPTY: Self = Stacks {
        stack: [[0; MAX_TIMES + 1]; P],
        after: [[0; MAX_TIMES + 1]; P],
    };
}

/// What a closure within a stretch may change in [`Columns`], kept to go back to
/// ([`Columns::close_ways`]). Taking a card only shortens its pile's stack, and the
/// walk below it writes the bottom place of the stack alone (once it is empty):
/// with the bottom places kept, the rest of the room is as it was.
#[derive(Clone, Copy)]
struct Mark<const P: usize> {
    gone: u64,
    seen: [u64; P],
    len: [usize; P],
    low: [usize; P],
    bottom: [(u64, u64); P],
}

impl<'a, const P: usize> Columns<'a, P> {
    /// The piles at stretch `first`, `piles` with the first `first` deals on them,
    /// and `gone` the cards that have left by then, their stacks in `room`.
    fn new(
        bits: &'a rules::BitTable,
        piles: &'a [&'a [u8]; P],
        dealt: &'a [DealRow<P>],
        first: usize,
        gone: u64,
        room: &'a mut Stacks<P>,
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
    fn close_ways(&mut self, opens: &Opens, fills: bool) -> bool {
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
    fn mark(&self) -> Mark<P> {
        Mark {
            gone: self.gone,
            seen: self.seen,
            len: self.len,
            low: self.low,
            bottom: std::array::from_fn(|p| (self.room.stack[p][0], self.room.after[p][0])),
        }
    }

    /// Make the piles again what they were at `mark`.
    fn rewind(&mut self, mark: &Mark<P>) {
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
    fn deal(&mut self, deal: usize) {
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

/// One solve in progress. `OPEN` is whether the rules are `deal="any"`, under
/// which a deal may come before a legal discard (S10).
struct Search<'a, const N: usize, const P: usize, const OPEN: bool> {
    deal: &'a Deal,
    buffers: &'a mut Buffers,
    frames: &'a mut Vec<Frame<N, P>>,
    limits: &'a Limits,
    start: Instant,
    /// Whether the moves played go to `buffers.line`: only while the winning line
    /// is played again from the root (see `replay`).
    record: bool,
    /// The stock's deals, `deals[..deal_count]`, under `deal="any"` and
    /// `deal_to="all"` (S12, S13, S16, S17); none otherwise.
    deals: [DealRow<P>; MAX_TIMES],
    deal_count: usize,
    /// The room that each fixpoint of S12, S13 and S17 borrows for its `Columns`.
    room: RefCell<Stacks<P>>,
}

impl<'a, const N: usize, const P: usize, const OPEN: bool> Search<'a, N, P, OPEN> {
    /// The verdict on `pos`, with the winning line in `buffers.line`.
    fn start(
        deal: &'a Deal,
        buffers: &'a mut Buffers,
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
        let root = State::of(pos);
        let mut search = Search::<N, P, OPEN>::new(deal, buffers, frames, limits);
        let winnable = search.run(root);
        if winnable == Some(true) {
            search.replay(root);
        }
        winnable
    }

    /// A search of `deal`'s stock, the stock's deals cut where the rules ask for
    /// them.
    fn new(
        deal: &'a Deal,
        buffers: &'a mut Buffers,
        frames: &'a mut Vec<Frame<N, P>>,
        limits: &'a Limits,
    ) -> Self {
        let mut search = Search {
            deal,
            buffers,
            frames,
            limits,
            start: Instant::now(),
            record: false,
            deals: [DealRow {
                cards: [NO_CARD; P],
                open: Opens::ALL,
                later: 0,
            }; MAX_TIMES],
            deal_count: 0,
            room: RefCell::new(Stacks::EMPTY),
        };
        if OPEN && deal.rules.deal_to == DealTo::All {
            // The cards of each deal, as the rules deal them: only the heights and
            // `dealt` tell them where a deal goes, so no card is put on a pile.
            let mut t = State::<N, P>::EMPTY;
            while deal.stock_left(&t) > 0 {
                let targets = rules::deal_targets(&deal.seen(&t));
                let mut cards = [NO_CARD; P];
                for p in (0..P).filter(|&p| targets >> p & 1 == 1) {
                    cards[p] = deal.stock()[usize::from(t.dealt)];
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
                    .fold(0, |m, &c| m | deal.bits[usize::from(c)]);
                row.later = later;
            }
        }
        search
    }

    /// The verdict on `root`.
    fn run(&mut self, root: State<N, P>) -> Option<bool> {
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
                Err(Stop) => return None,
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
    fn replay(&mut self, root: State<N, P>) {
        self.record = true;
        let path: Vec<Step> = self
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

    #[inline(always)]
    fn play(&mut self, s: &mut State<N, P>, mv: Move) {
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
            s.gone |= self.deal.bits[usize::from(s.tops[usize::from(p)])];
        }
        self.deal.apply(s, mv);
        if self.record {
            self.buffers.line.push(mv);
        }
    }

    /// Play a branch. Always inlined: the search takes one at every position it
    /// enters, and a call cost it about 3% of its instructions.
    #[inline(always)]
    fn take_step(&mut self, s: &mut State<N, P>, step: Step) {
        match step {
            Step::Play(mv) => self.play(s, mv),
            Step::Pin(p) => s.pins |= 1 << p,
            Step::Arranged { layout, mv } => {
                self.arrange(s, &layout);
                self.play(s, mv);
            }
        }
    }

    /// Whether the tests that lose a position (S13, S15, S17) look at `s`, where
    /// `step` just led, before its next deal. Under `deal="any"`, while the stock
    /// lasts, only after a deal (SOLVER.md, *Where the tests look*).
    #[inline(always)]
    fn tested_after(&self, s: &State<N, P>, step: Step) -> bool {
        let dealt = matches!(
            step,
            Step::Play(Move::Deal) | Step::Arranged { mv: Move::Deal, .. }
        );
        !OPEN || dealt || !self.deal_is_open(s)
    }

    /// Settle `s` and, unless it was met before, push its branches: true when won.
    fn enter(&mut self, s: &mut State<N, P>, tested: bool) -> std::result::Result<bool, Stop> {
        match self.settle(s, tested)? {
            Settled::Won => Ok(true),
            Settled::Lost => Ok(false),
            Settled::Branch(legal) => {
                if self.insert(s)? {
                    self.expand(s, legal);
                }
                Ok(false)
            }
        }
    }

    /// Count a node, or stop at a limit.
    fn count_node(&mut self) -> std::result::Result<(), Stop> {
        if self.record {
            return Ok(());
        }
        let nodes = self.buffers.nodes;
        let limits = self.limits;
        if limits.nodes.is_some_and(|n| nodes >= n)
            || (nodes % 1024 == 1023
                && (limits.time.is_some_and(|t| self.start.elapsed() >= t)
                    || limits
                        .cancel
                        .as_ref()
                        .is_some_and(|c| c.load(Ordering::Relaxed))))
        {
            return Err(Stop);
        }
        self.buffers.nodes += 1;
        Ok(())
    }

    /// Play the forced moves (S1-S5, S14), then the deals while nothing else is
    /// legal. `tested`: whether the tests that lose a position look at `s` before
    /// the first of those deals (they do after it).
    fn settle(
        &mut self,
        s: &mut State<N, P>,
        mut tested: bool,
    ) -> std::result::Result<Settled, Stop> {
        loop {
            let discards = self.close(s);
            if self.deal.score(s) == self.deal.win_score {
                return Ok(Settled::Won);
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
                if self.deal.stock_left(s) == 0 {
                    // The deal is legal exactly while the stock lasts (R2.3, whatever
                    // the deal rule).
                    debug_assert!(!rules::can_deal(&self.deal.seen(s)));
                    return Ok(Settled::Lost);
                }
                // A point on the line to the position after the deal, which the tests
                // see at least as well: no card can leave before the deal, so S13 and
                // S17 find there what they would find here a stretch earlier, and
                // S15 (a) there closes whatever S15 (b) would close here.
            } else {
                if tested_here && self.lost(s) {
                    return Ok(Settled::Lost);
                }
                let legal = self.deal.legal(s, discards);
                if legal.is_empty() {
                    return Ok(Settled::Lost);
                }
                if !(legal.deal && legal.len() == 1) {
                    return Ok(Settled::Branch(legal));
                }
            }
            debug_assert!(rules::can_deal(&self.deal.seen(s)));
            self.play(s, Move::Deal);
        }
    }

    /// Whether a settled position is lost by S13, S15 or S17.
    #[inline(always)]
    fn lost(&self, s: &State<N, P>) -> bool {
        let all = self.deal.rules.deal_to == DealTo::All;
        // S13, where a deal may come at any time: otherwise S1-S5 and S8 leave
        // little for it to find.
        OPEN && all && s.empty() == 0 && self.locked(s)
            || self.last_suit_blocked(s)
            || OPEN && all && s.empty() != 0 && self.no_suit_clears(s, self.deals_from(s.dealt))
    }

    /// Whether a deal may come before a legal discard (`deal="any"` while the stock
    /// lasts): no discard is then forced, nor pinned (S1, S3, S5 assume otherwise).
    #[inline]
    fn deal_is_open(&self, s: &State<N, P>) -> bool {
        OPEN && self.deal.stock_left(s) > 0
    }

    /// The forced moves: every discard that cannot lose a win (S1, S2, S5), the
    /// fills of cards that lie right on a stronger card of their suit (S14), and the
    /// buried cards that `fill="any"` can throw away in the endgame (S4).
    /// Returns the piles that may still be discarded (S3 decides about them, or with
    /// the deal open they are branches).
    fn close(&mut self, s: &mut State<N, P>) -> u8 {
        if self.deal_is_open(s) {
            return self.close_open(s);
        }
        let rules = self.deal.rules;
        let stock_left = self.deal.stock_left(s);
        let guarded = self.deal.guarded && stock_left > 0;
        // The discard mask is found again right after each change of the piles, so
        // that it reads the new top cards where they were just computed.
        let mut all = self.deal.discards(s);
        loop {
            let mut discards = all;
            if guarded {
                let lone = (0..P).fold(0, |m, p| m | u8::from(s.heights[p] == 1) << p);
                let mut safe = lone;
                // S5: with no pile empty, a discard is safe when no pile could be
                // emptied before the next deal if it waited.
                if s.empty() == 0 {
                    let mut rest = discards & !lone;
                    while rest != 0 {
                        let p = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        safe |= u8::from(!self.pile_may_empty_without(s, p)) << p;
                    }
                }
                discards &= safe;
            }
            if discards != 0 {
                self.discard_tops(s, discards);
                all = self.deal.discards(s);
                continue;
            }
            if rules.fill == FillRule::Top {
                if let Some(fill) = self.covered_stronger_card(s) {
                    // The card moved is a discard now (S1), in the next round.
                    self.play(s, fill);
                    all = self.deal.discards(s);
                    continue;
                }
            }
            if rules.fill == FillRule::Any && stock_left == 0 {
                if let Some(fill @ Move::Fill { dst, .. }) = self.witnessed_buried_card(s) {
                    self.play(s, fill);
                    self.play(s, Move::Discard(dst));
                    all = self.deal.discards(s);
                    continue;
                }
            }
            return all;
        }
    }

    /// S11: with the deal open, play the discards of cards that are the lowest of
    /// their suit still in play (in the piles or the stock), where the proof allows
    /// them: under `deal_to="all"` with lone cards free to move (`relocate_single`).
    /// Returns the piles that may still be discarded, every one a branch (S10).
    fn close_open(&mut self, s: &mut State<N, P>) -> u8 {
        let rules = self.deal.rules;
        loop {
            let all = self.deal.discards(s);
            if all == 0 || rules.deal_to != DealTo::All || !rules.relocate_single {
                return all;
            }
            let in_play = self.in_play(s);
            let lowest = (0..P).fold(0u8, |m, p| {
                let bit = self.deal.bits[usize::from(s.tops[p])];
                m | u8::from(in_play & rules::weaker_bits(bit) == 0) << p
            });
            let forced = all & lowest;
            if forced == 0 {
                return all;
            }
            self.discard_tops(s, forced);
        }
    }

    /// Discard the top card of every pile in `mask` (each discard in it stays
    /// legal while the others are played), writing them down while the line is
    /// played again.
    #[inline(always)]
    fn discard_tops(&mut self, s: &mut State<N, P>, mask: u8) {
        if self.record {
            self.buffers.line.extend(
                (0..P as u8)
                    .filter(|p| mask >> p & 1 == 1)
                    .map(Move::Discard),
            );
        }
        if OPEN {
            // Without a branch per pile, as `State::discard_tops`: a pile outside the
            // mask is masked out.
            s.gone |= (0..P).fold(0, |m, p| {
                let bit = self.deal.bits[usize::from(s.tops[p])];
                m | bit & 0u64.wrapping_sub(u64::from(mask >> p & 1))
            });
        }
        s.discard_tops(mask);
    }

    /// The bits (`rules::top_bits`) of the cards still in the stock.
    fn stock_bits(&self, s: &State<N, P>) -> u64 {
        if OPEN && self.deal.rules.deal_to == DealTo::All {
            return self.deals_from(s.dealt).first().map_or(0, |row| row.later);
        }
        let bits = self.deal.bits;
        self.deal.stock()[usize::from(s.dealt)..]
            .iter()
            .fold(0, |m, &c| m | bits[usize::from(c)])
    }

    /// The bits (`rules::top_bits`) of the cards still in play: in the piles or in
    /// the stock.
    #[inline]
    fn in_play(&self, s: &State<N, P>) -> u64 {
        if !OPEN {
            return self.stock_bits(s) | self.pile_bits(s);
        }
        debug_assert_eq!(
            self.deal.cards & !s.gone,
            self.stock_bits(s) | self.pile_bits(s)
        );
        self.deal.cards & !s.gone
    }

    /// The bits (`rules::top_bits`) of the cards in the piles.
    fn pile_bits(&self, s: &State<N, P>) -> u64 {
        let bits = self.deal.bits;
        (0..P).fold(0, |m, p| {
            s.pile(p).iter().fold(m, |m, &c| m | bits[usize::from(c)])
        })
    }

    /// S14: under `fill="top"`, with a pile empty, a fill of a top card that lies
    /// right on a stronger card of its suit (it is discarded from the empty pile
    /// next, by the card it uncovers).
    fn covered_stronger_card(&self, s: &State<N, P>) -> Option<Move> {
        let dst = s.empty().trailing_zeros() as u8;
        if dst >= P as u8 {
            return None;
        }
        let bits = self.deal.bits;
        (0..P).find_map(|src| {
            let top = bits[usize::from(s.tops[src])];
            let under = bits[usize::from(s.below(src, s.heights[src].wrapping_sub(1)))];
            (s.heights[src] >= 2 && rules::stronger_bits(top) & under != 0).then_some(Move::Fill {
                src: src as u8,
                dst,
                index: 0,
            })
        })
    }

    /// S5: whether discards alone, none of them from pile `kept`, can empty a pile.
    /// (They are all that is legal until some pile is empty, and a legal discard
    /// stays legal, so their closure empties a pile if any order of them does.)
    fn pile_may_empty_without(&self, s: &State<N, P>, kept: usize) -> bool {
        let mut t = *s;
        loop {
            let discards = self.deal.discards(&t) & !(1 << kept);
            if discards == 0 {
                return false;
            }
            let p = discards.trailing_zeros() as usize;
            t.take(p, 0);
            if t.heights[p] == 0 {
                return true;
            }
        }
    }

    /// S4: with the stock empty and a pile empty, a fill that moves a buried card
    /// that a top card of its suit outranks (it is discarded from there next).
    fn witnessed_buried_card(&self, s: &State<N, P>) -> Option<Move> {
        let dst = s.empty().trailing_zeros() as u8;
        if dst >= P as u8 {
            return None;
        }
        let tops = self.deal.seen(s).tops();
        for src in 0..P {
            for index in 1..s.height(src) {
                let card = s.card_from_top(src, index);
                if rules::stronger_bits(self.deal.bits[usize::from(card)]) & tops != 0 {
                    return Some(Move::Fill {
                        src: src as u8,
                        dst,
                        index: index as u64,
                    });
                }
            }
        }
        None
    }

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
    fn stock_is_doomed(&self) -> bool {
        let rules = self.deal.rules;
        if rules.deal_to == DealTo::Empty {
            return false;
        }
        if rules.deal == DealRule::Any {
            return self.stock_is_doomed_for_any();
        }
        let stock = self.deal.stock_len;
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
            let alone = DealtAlone::<P> {
                deal: self.deal,
                first,
            };
            if rules::discard_mask_of::<_, P>(&alone) != 0 {
                return false;
            }
            let mut t = State::<N, P> {
                dealt: first as u8,
                ..State::EMPTY
            };
            for _ in 0..k {
                self.deal.apply(&mut t, Move::Deal);
                while let d @ 1.. = self.deal.discards(&t) {
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

    /// S13: with no pile empty, under `deal_to="all"`, whether the game is lost
    /// because no pile can ever be emptied and a card that is not of the top rank
    /// can never leave (SOLVER.md).
    fn locked(&self, s: &State<N, P>) -> bool {
        let dealt = self.deals_from(s.dealt);
        let deals = dealt.len();
        let piles: [&[u8]; P] = std::array::from_fn(|p| s.pile(p));
        let mut room = self.room.borrow_mut();
        let mut columns = Columns::new(self.deal.bits, &piles, dealt, 0, 0, &mut room);
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
    fn last_suit_blocked(&self, s: &State<N, P>) -> bool {
        let rules = self.deal.rules;
        let left = self.deal.stock_left(s);
        if usize::from(rules.suits) != P
            || !(left == 0 || OPEN && left == P && rules.deal_to == DealTo::All)
        {
            return false;
        }
        let bits = self.deal.bits;
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
            .filter(|&suit| waiting & lane(suit) != 0)
            .all(|suit| {
                // The cards above the suit's top-rank card, all seen before it; none under
                // `fill="any"`, which may take it from under them.
                let top_rank = lane(suit) & rules::TOP_RANK_BITS;
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
    fn removable(&self, columns: &mut Columns<P>, first: usize) -> ([u64; MAX_TIMES], usize) {
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

    /// S16: the ways stretch t of `columns` may go, from the top cards that start it:
    /// now (an empty pile shows a suit fewer), or those of the deal that starts it.
    fn open_suits(&self, columns: &Columns<P>, t: usize) -> Opens {
        let suits = self.deal.rules.suits;
        match t {
            0 if usize::from(suits) == P => movable_suits(
                self.suit_lanes(columns.piles.iter().filter_map(|pile| pile.last())),
                suits,
            ),
            0 => Opens::ALL,
            _ => columns.dealt[t - 1].open,
        }
    }

    /// S16: with as many suits as piles, the ways a stretch that starts with `tops`
    /// on top of the piles (every pile holds a card) may go: once every suit has been
    /// on top in the stretch, nothing but a deal can move, so some suit missing from
    /// `tops` keeps its cards, and with none missing every card stays. A single way
    /// in which every card may leave when S16 does not apply.
    fn discardable_suits(&self, tops: &[u8; P]) -> Opens {
        let suits = self.deal.rules.suits;
        if usize::from(suits) != P || tops.contains(&NO_CARD) {
            return Opens::ALL;
        }
        movable_suits(self.suit_lanes(tops), suits)
    }

    /// The lanes (`rules::top_bits`) of the suits of `cards`.
    fn suit_lanes<'c>(&self, cards: impl IntoIterator<Item = &'c u8>) -> u64 {
        rules::lanes_of(
            cards
                .into_iter()
                .fold(0, |m, &c| m | self.deal.bits[usize::from(c)]),
        )
    }

    /// S17: with as many suits as piles under `deal_to="all"` and `fill="top"` or
    /// `"ace"`, whether no suit missing from the last of the `dealt` deals can be
    /// down to its top-rank card when that deal comes (S15: a winning line needs
    /// one), even if every card could leave whenever S16 does not hold it.
    fn no_suit_clears(&self, s: &State<N, P>, dealt: &[DealRow<P>]) -> bool {
        let piles: [&[u8]; P] = std::array::from_fn(|p| s.pile(p));
        let mut room = self.room.borrow_mut();
        let mut columns = Columns::new(self.deal.bits, &piles, dealt, 0, 0, &mut room);
        self.no_suit_clears_from(s, &mut columns, 0)
    }

    /// S17 from stretch `start` of `columns` (S13's fixpoint may have begun it).
    fn no_suit_clears_from(&self, s: &State<N, P>, columns: &mut Columns<P>, start: usize) -> bool {
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
    fn last_deal_shown(&self, dealt: &[DealRow<P>]) -> Option<u64> {
        let rules = self.deal.rules;
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
    fn suit_left_behind(
        &self,
        s: &State<N, P>,
        dealt: &[DealRow<P>],
        shown: u64,
        gone: u64,
    ) -> bool {
        let last = dealt[dealt.len() - 1].later;
        let stuck = self.in_play(s) & !last & !gone & !rules::TOP_RANK_BITS;
        shown != !0 && !shown & !rules::lanes_of(stuck) == 0
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
            let mut columns = Columns::new(self.deal.bits, &[&[]; P], last, 1, 0, &mut room);
            let (removable, emptied) = self.removable(&mut columns, 1);
            // The cards in play: those of the k deals, over piles left out.
            emptied == k + 1 && last[0].later & !removable[k] & !rules::TOP_RANK_BITS != 0
        })
    }

    /// The deals left after the first `dealt` cards of the stock, under
    /// `deal_to="all"`: a whole deal at a time from the root, so the last ones of
    /// the stock's.
    fn deals_from(&self, dealt: u8) -> &[DealRow<P>] {
        debug_assert_eq!(self.deal.rules.deal_to, DealTo::All);
        let done = usize::from(dealt).div_ceil(P);
        debug_assert!(done * P == usize::from(dealt) || usize::from(dealt) == self.deal.stock_len);
        &self.deals[done..self.deal_count]
    }

    /// Record `s` in the table under its canonical key: true if it is new.
    ///
    /// The key stands for the positions that are won or lost together with `s`:
    /// its heights, `dealt` and `pins`, then its piles' cards, pile after pile. With
    /// the stock empty the order of the piles does not matter (S6), so they are
    /// listed in sorted order; while lone cards may move, their arrangement does not
    /// (S7), so the light piles take them in sorted order.
    fn insert(&mut self, s: &State<N, P>) -> std::result::Result<bool, Stop> {
        let mut c = *s;
        if self.deal.stock_left(s) == 0 {
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
        let named = self.deal.stock_left(s) > 0;
        let new = if self.deal.rules.deal_to == DealTo::All {
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
        new.map_err(|OutOfMemory| Stop)
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
    fn wide_key(&self, c: &State<N, P>) -> [u64; 4] {
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
    /// ([`Deal::home`]), or when it is empty (a fill, R2.2), so every card of a
    /// pile but the bottom one is at home, in the order the cards came: the order
    /// of the root's piles and of the stock. Named pile p is therefore its base, if
    /// it has one, then the cards at home in p that are in the piles and no pile's
    /// base, in that order. With the stock empty the piles are sorted (S6) and
    /// their names are gone: a pile of two cards or more has the home of its second
    /// card, and a lone card counts as a base.
    #[inline]
    fn key(&self, c: &State<N, P>, named: bool) -> u128 {
        let home = &self.deal.home;
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

    /// S7: while the stock lasts under `relocate_single`, with a pile empty, the
    /// light piles (empty, or holding one card that may fill an empty pile) as a
    /// mask; 0 when S7 does not apply.
    fn light_piles(&self, s: &State<N, P>) -> u8 {
        if !self.deal.rules.relocate_single || self.deal.stock_left(s) == 0 || s.empty() == 0 {
            return 0;
        }
        (0..P).fold(0, |m, p| {
            let light =
                s.heights[p] == 0 || (s.heights[p] == 1 && self.deal.fill_choices(s, p) > 0);
            m | u8::from(light) << p
        })
    }

    /// Push the branches from the settled position `s` and its frame.
    fn expand(&mut self, s: &State<N, P>, legal: LegalMoves) {
        let first = self.buffers.steps.len();
        let undecided = legal.discards & !s.pins;
        let open = self.deal_is_open(s);
        let holdable = if open { self.holdable(s, undecided) } else { 0 };
        if undecided != 0 && !open {
            // S3: discard now, or keep the card until the cards under it are gone.
            let p = undecided.trailing_zeros() as u8;
            self.buffers
                .steps
                .extend([Step::Play(Move::Discard(p)), Step::Pin(p)]);
        } else if holdable != 0 {
            // S10: discard now, or hold the card until the next deal, which is the
            // only move left to a held card's position with no pile empty and
            // nothing else to discard.
            let p = holdable.trailing_zeros() as u8;
            let hold = if s.empty() == 0 && undecided == 1 << p {
                Step::Play(Move::Deal)
            } else {
                Step::Pin(p)
            };
            self.buffers
                .steps
                .extend([Step::Play(Move::Discard(p)), hold]);
        } else {
            if open {
                // The discards that S10 cannot decide are branches like the others.
                self.buffers.steps.extend(
                    (0..P as u8)
                        .filter(|p| undecided >> p & 1 == 1)
                        .map(|p| Step::Play(Move::Discard(p))),
                );
            }
            if let light @ 1.. = self.light_piles(s) {
                let (lone, n) = lone_cards(s, light);
                self.expand_arrangements(s, legal, light, &lone[..n]);
            } else {
                self.expand_moves(s, legal);
            }
        }
        if self.buffers.steps.len() > first {
            self.frames.push(Frame {
                state: *s,
                first,
                next: first,
            });
        }
    }

    /// S10: with the deal open (`deal="any"` while the stock lasts), the piles of
    /// `undecided` whose top card S1's construction may discard first, for a line
    /// that discards it before the next deal: under `fill="top"` and `"ace"`, and
    /// under `relocate_single` (lone cards may move), all of them; else under `"any"`
    /// those that hold the card alone.
    fn holdable(&self, s: &State<N, P>, undecided: u8) -> u8 {
        let rules = self.deal.rules;
        if rules.fill != FillRule::Any || rules.relocate_single {
            return undecided;
        }
        let lone = (0..P).fold(0, |m, p| m | u8::from(s.heights[p] == 1) << p);
        undecided & lone
    }

    /// The legal fills in R3 order (the discards left are pinned, S3, held, S10, or
    /// branches of their own), with the top card of a pinned pile kept in place
    /// (a held one may move), and with the stock empty only into the first empty
    /// pile (S6); then the deal.
    fn expand_moves(&mut self, s: &State<N, P>, legal: LegalMoves) {
        let targets = if self.deal.stock_left(s) == 0 {
            legal.empty & legal.empty.wrapping_neg()
        } else {
            legal.empty
        };
        let pinned = if self.deal_is_open(s) { 0 } else { s.pins };
        for src in 0..P as u8 {
            let kept = u64::from(pinned >> src & 1);
            for dst in (0..P as u8).filter(|d| targets >> d & 1 == 1) {
                for index in kept..u64::from(legal.choices[usize::from(src)]) {
                    self.buffers
                        .steps
                        .push(Step::Play(Move::Fill { src, dst, index }));
                }
            }
        }
        if legal.deal {
            self.buffers.steps.push(Step::Play(Move::Deal));
        }
    }

    /// S7: the deal from every arrangement of the lone cards over the light piles,
    /// and each fill from a heavy pile: into the first empty pile when another empty
    /// one remains, else from every arrangement, into its empty pile.
    fn expand_arrangements(&mut self, s: &State<N, P>, legal: LegalMoves, light: u8, lone: &[u8]) {
        // The buffer is taken for the while, so that the steps can grow meanwhile.
        let mut layouts = std::mem::take(&mut self.buffers.layouts);
        arrangements(light, lone, &mut layouts);
        if legal.deal {
            self.buffers
                .steps
                .extend(layouts.iter().map(|&layout| Step::Arranged {
                    layout,
                    mv: Move::Deal,
                }));
        }
        let spare = light.count_ones() as usize - lone.len();
        let first_empty = legal.empty.trailing_zeros() as u8;
        for src in 0..P as u8 {
            if s.heights[usize::from(src)] < 2 {
                continue;
            }
            for index in 0..u64::from(legal.choices[usize::from(src)]) {
                if spare >= 2 {
                    self.buffers.steps.push(Step::Play(Move::Fill {
                        src,
                        dst: first_empty,
                        index,
                    }));
                } else {
                    for &layout in &layouts {
                        let dst = layout.iter().position(|&c| c == BLANK).unwrap_or(0) as u8;
                        self.buffers.steps.push(Step::Arranged {
                            layout,
                            mv: Move::Fill { src, dst, index },
                        });
                    }
                }
            }
        }
        self.buffers.layouts = layouts;
    }

    /// S7: relocate lone cards (legal fills) until the light piles hold `layout`.
    fn arrange(&mut self, s: &mut State<N, P>, layout: &[u8; MAX_PILES]) {
        let lone = |s: &State<N, P>, p: usize| (s.heights[p] == 1).then(|| s.card_from_top(p, 0));
        loop {
            let misplaced = (0..P).fold(0u8, |m, p| {
                let wrong = layout[p] != HEAVY && lone(s, p).is_some_and(|c| layout[p] != c);
                m | u8::from(wrong) << p
            });
            if misplaced == 0 {
                return;
            }
            let any = misplaced.trailing_zeros() as usize;
            // A misplaced card whose place is free goes there; if none is, the
            // misplaced cards fill each other's places, and one of them steps aside.
            let (src, dst) = (0..P)
                .filter(|&q| misplaced >> q & 1 == 1)
                .find_map(|q| {
                    let card = lone(s, q)?;
                    let dst = layout.iter().position(|&c| c == card)?;
                    (s.heights[dst] == 0).then_some((q, dst))
                })
                .unwrap_or_else(|| {
                    (
                        any,
                        (0..P)
                            .find(|&p| layout[p] != HEAVY && s.heights[p] == 0)
                            .unwrap_or(0),
                    )
                });
            self.play(
                s,
                Move::Fill {
                    src: src as u8,
                    dst: dst as u8,
                    index: 0,
                },
            );
        }
    }
}

/// The lane of `suit` in `rules::top_bits`: its 16 bits.
fn lane(suit: usize) -> u64 {
    0xffff << (16 * suit)
}

/// S16, as many suits as piles (the first `suits` of the lanes): the ways a stretch
/// whose top cards at its start show the suits of the lanes `shown` may go. With
/// every suit shown, a single way in which no card leaves; else one for each suit
/// missing, in which every card but that suit's may leave.
fn movable_suits(shown: u64, suits: u8) -> Opens {
    let mut opens = Opens {
        ways: [0; SUITS.len()],
        n: 0,
    };
    for suit in (0..usize::from(suits)).filter(|&suit| shown & lane(suit) == 0) {
        opens.ways[usize::from(opens.n)] = !lane(suit);
        opens.n += 1;
    }
    opens.n = opens.n.max(1);
    opens
}

/// The cards of the light piles that hold one, in pile order, and their number.
fn lone_cards<const N: usize, const P: usize>(s: &State<N, P>, light: u8) -> ([u8; P], usize) {
    let mut lone = [0; P];
    let mut n = 0;
    for p in (0..P).filter(|&p| light >> p & 1 == 1 && s.heights[p] == 1) {
        lone[n] = s.piles[p][0];
        n += 1;
    }
    (lone, n)
}

/// Every way to place the `lone` cards on the `light` piles, one card a pile at
/// most, as layouts in `out` (see [`Step::Arranged`]; piles past the rules' are
/// heavy).
fn arrangements(light: u8, lone: &[u8], out: &mut Vec<[u8; MAX_PILES]>) {
    let mut places = [0; MAX_PILES];
    let mut n = 0;
    for p in (0..MAX_PILES).filter(|&p| light >> p & 1 == 1) {
        places[n] = p;
        n += 1;
    }
    let slots = &places[..n];
    out.clear();
    let mut layout = [HEAVY; MAX_PILES];
    fn place(
        k: usize,
        slots: &[usize],
        lone: &[u8],
        layout: &mut [u8; MAX_PILES],
        out: &mut Vec<[u8; MAX_PILES]>,
    ) {
        if k == lone.len() {
            let mut done = *layout;
            for &p in slots {
                if done[p] == HEAVY {
                    done[p] = BLANK;
                }
            }
            out.push(done);
            return;
        }
        for &p in slots {
            if layout[p] == HEAVY {
                layout[p] = lone[k];
                place(k + 1, slots, lone, layout, out);
                layout[p] = HEAVY;
            }
        }
    }
    place(0, slots, lone, &mut layout, out);
}

/// The plain search, the reference solver's twin: depth first over every legal
/// move of `Position`, never entering a position twice (a hash set of keys), with
/// no other pruning; None past `limit` positions. The tests check the solver
/// against it, and the benchmarks measure the solver's gain over it.
pub fn plain_search(root: &Position, limit: Option<usize>) -> Option<bool> {
    let key = |p: &Position| -> Vec<u8> {
        let mut k = vec![p.stock().len() as u8];
        for q in 0..p.piles() {
            k.push(p.height(q) as u8);
            k.extend(p.pile(q).iter().map(|c| c.index() as u8));
        }
        k
    };
    let mut pos = root.clone();
    let mut seen = HashSet::from([key(&pos)]);
    let mut stack: Vec<(Vec<Move>, usize)> = vec![(pos.legal_moves(), 0)];
    let mut line: Vec<Move> = Vec::new();
    while !pos.is_won() {
        let Some((moves, next)) = stack.last_mut() else {
            return Some(false);
        };
        if *next == moves.len() {
            stack.pop();
            if let Some(mv) = line.pop() {
                pos.unapply(mv);
            }
            continue;
        }
        let mv = moves[*next];
        *next += 1;
        pos.apply(mv);
        if !seen.insert(key(&pos)) {
            pos.unapply(mv);
            continue;
        }
        if limit.is_some_and(|n| seen.len() > n) {
            return None;
        }
        line.push(mv);
        stack.push((pos.legal_moves(), 0));
    }
    Some(true)
}

// ---------------------------------------------------------------------------
// Solvability

/// The verdicts on a batch of deals (API.md, Solvability): how many were proved
/// winnable, proved unwinnable, or left unresolved by a limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Solvability {
    pub winnable: u64,
    pub unwinnable: u64,
    pub unresolved: u64,
}

impl Solvability {
    /// Counts checked as the Python constructor checks them: their sum, the number
    /// of games, must fit in 64 bits (`ValueError`).
    pub fn new(winnable: u64, unwinnable: u64, unresolved: u64) -> Result<Solvability> {
        let s = Solvability {
            winnable,
            unwinnable,
            unresolved,
        };
        winnable
            .checked_add(unwinnable)
            .and_then(|n| n.checked_add(unresolved))
            .map(|_| s)
            .ok_or_else(too_many_games)
    }

    /// Count one verdict.
    pub fn record(&mut self, winnable: Option<bool>) {
        match winnable {
            Some(true) => self.winnable += 1,
            Some(false) => self.unwinnable += 1,
            None => self.unresolved += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.winnable + self.unwinnable + self.unresolved
    }

    /// The sum of two shards: `ValueError` if the games no longer fit in 64 bits.
    pub fn merge(&self, other: &Solvability) -> Result<Solvability> {
        // Each count is at most its total, so when the totals add up in 64 bits,
        // so do the counts.
        self.games()
            .checked_add(other.games())
            .ok_or_else(too_many_games)?;
        Ok(Solvability {
            winnable: self.winnable + other.winnable,
            unwinnable: self.unwinnable + other.unwinnable,
            unresolved: self.unresolved + other.unresolved,
        })
    }

    /// `k` games won out of these games, as `Stats`, which owns the arithmetic of
    /// rates and Wilson intervals that both engines share (API.md).
    fn as_stats(&self, k: u64) -> Stats {
        let mut histogram = [0u64; crate::stats::MAX_SCORES];
        histogram[0] = self.games() - k;
        histogram[crate::stats::MAX_SCORES - 1] = k;
        Stats::from_histogram(&histogram).expect("49 counts")
    }

    /// `winnable / games`; NaN for no games.
    pub fn rate(&self) -> f64 {
        self.as_stats(self.winnable).win_rate()
    }

    /// From the lower end of the Wilson interval of `winnable` to the upper end of
    /// that of `winnable + unresolved`; `(0.0, 1.0)` for no games.
    pub fn ci95(&self) -> (f64, f64) {
        let low = self.as_stats(self.winnable).ci95().0;
        let high = self.as_stats(self.winnable + self.unresolved).ci95().1;
        (low, high)
    }

    /// The Python `repr`.
    pub fn repr(&self) -> String {
        format!(
            "Solvability(winnable={}, unwinnable={}, unresolved={})",
            self.winnable, self.unwinnable, self.unresolved
        )
    }
}

impl fmt::Display for Solvability {
    /// The Python `str`, the same in both engines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.games() == 0 {
            return f.write_str("0 games");
        }
        let (low, high) = self.ci95();
        write!(
            f,
            "{} games: {} winnable, {} unwinnable, {} unresolved; rate {:.5} (95% CI {:.5} to {:.5})",
            self.games(),
            self.winnable,
            self.unwinnable,
            self.unresolved,
            self.rate(),
            low,
            high
        )
    }
}

/// The `ValueError` of a batch of 2⁶⁴ games or more.
fn too_many_games() -> Error {
    Error::new(ErrorKind::Value, "the number of games must be below 2**64")
}

/// The start of game `index` of master seed `seed` (RNG.md, `game_seed`).
fn seeded_position(seed: u64, index: u64, rules: Rules) -> Position {
    Position::from_deck(&deck_from_seed(game_seed(seed, index), &rules), rules)
}

/// The verdicts of [`plain_search`], with no limit, on games `start .. start +
/// games` of master seed `seed`, on the calling thread: what the benchmarks
/// compare the solver with.
pub fn plain_solvability(rules: Rules, seed: u64, start: u64, games: u64) -> Solvability {
    let mut tally = Solvability::default();
    for i in 0..games {
        let pos = seeded_position(seed, start.wrapping_add(i), rules);
        tally.record(plain_search(&pos, None));
    }
    tally
}

/// How many verdicts each thread may find ahead of the first one not yet handed
/// out: enough for the other threads to go on while one deal takes minutes, and a
/// bound on what waits in memory, and on what a cancelled run throws away.
const WINDOW_PER_THREAD: u64 = 1024;

/// Solve games `start .. start + games` (modulo 2⁶⁴) of master seed `seed` on
/// `threads` threads, each with its own `limits`, and count the verdicts; None
/// when the limits' cancel flag stops the run. The result does not depend on the
/// threads, unless a time limit stops some searches. `ValueError` when no thread
/// can be started.
pub fn solvability(
    threads: usize,
    rules: Rules,
    seed: u64,
    start: u64,
    games: u64,
    limits: &Limits,
) -> Result<Option<Solvability>> {
    let found = verdicts(
        threads,
        games,
        move |i| seeded_position(seed, start.wrapping_add(i), rules),
        limits,
    )?;
    let mut tally = Solvability::default();
    std::iter::from_fn(|| found.next()).for_each(|verdict| tally.record(verdict));
    Ok((tally.games() == games).then_some(tally))
}

/// The verdicts ([`Solution::winnable`]) on positions `0 .. count`, position i
/// being `position(i)`, each solved with its own `limits` on `threads` threads
/// that each keep one [`Solver`] for the run and take the next position as soon
/// as they are done with one; handed out in index order as soon as every verdict
/// before is found. The stream ends early when the limits' cancel flag is raised,
/// and raises it when dropped before its end (a flag of its own when the limits
/// have none). What every batch of solves is made of: [`solvability`], and the
/// numbered deals of kpat and PySolFC (`acesup.solve_deals`). `ValueError` when
/// no thread can be started.
pub fn verdicts(
    threads: usize,
    count: u64,
    position: impl Fn(u64) -> Position + Send + Sync + 'static,
    limits: &Limits,
) -> Result<Stream<Option<bool>>> {
    let flag = limits.cancel.clone().unwrap_or_default();
    let limits = Limits {
        cancel: Some(flag.clone()),
        ..limits.clone()
    };
    Stream::start(
        threads,
        count,
        WINDOW_PER_THREAD.saturating_mul(threads as u64),
        flag,
        Solver::new,
        move |solver, i| solver.solve(&position(i), &limits).winnable,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{shuffle_slice, Rng};
    use std::collections::HashMap;

    /// The piles of the standard layout, of every test that is not of the family.
    const PILES: usize = 4;

    /// Rules drawn at random from the whole family (R1.4, R5): 4 or 5 piles, 1-4
    /// suits, 2-13 ranks with at least a card a pile, every fill, deal, deal_to,
    /// relocate_single and ace_high.
    fn random_rules(rng: &mut Rng) -> Rules {
        loop {
            let rules = Rules {
                fill: [FillRule::Top, FillRule::Ace, FillRule::Any][rng.below(3) as usize],
                deal: [DealRule::Free, DealRule::Stuck, DealRule::Any][rng.below(3) as usize],
                relocate_single: rng.below(2) == 1,
                ace_high: rng.below(2) == 1,
                piles: 4 + rng.below(2) as u8,
                suits: 1 + rng.below(4) as u8,
                ranks: 2 + rng.below(12) as u8,
                deal_to: [DealTo::All, DealTo::Empty][rng.below(2) as usize],
            };
            if rules.validate().is_ok() {
                return rules;
            }
        }
    }

    /// Positions of the family: a random layout and options, a shuffled deck, then
    /// random legal moves until the stock holds `stock` cards or fewer (and a few
    /// more moves at random, so that the endgame is met too).
    fn family_positions(count: usize, seed: u64, stock: usize) -> Vec<Position> {
        family_positions_of(count, seed, stock, |rules| rules)
    }

    /// [`family_positions`] with the rules drawn passed through `adjust`.
    fn family_positions_of(
        count: usize,
        seed: u64,
        stock: usize,
        adjust: impl Fn(Rules) -> Rules,
    ) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        (0..count)
            .map(|_| {
                let rules = adjust(random_rules(&mut rng));
                let mut deck = rules.deck();
                shuffle_slice(&mut deck, &mut rng);
                let mut pos = Position::from_deck(&deck, rules);
                let extra = rng.below(4);
                let mut played = 0;
                while pos.stock().len() > stock || played < extra {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.apply(moves[rng.below(moves.len() as u64) as usize]);
                    played += u64::from(pos.stock().len() <= stock);
                }
                pos
            })
            .collect()
    }

    /// Random positions of the family with tall piles (a pile may hold every card
    /// left), a short stock of a length a deal can leave, and some discards.
    fn family_tall_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        (0..count)
            .map(|i| {
                let rules = random_rules(&mut rng);
                let (d, piles) = (rules.deck_size(), usize::from(rules.piles));
                let mut deck = rules.deck();
                shuffle_slice(&mut deck, &mut rng);
                // Under deal_to="all" the stock is 0 or D − P − kP cards (R6.5).
                let stock_len = match rules.deal_to {
                    DealTo::All => (d - piles) % piles + piles * rng.below(2) as usize,
                    DealTo::Empty => rng.below(6) as usize,
                }
                .min(d - piles);
                let mut tableau = vec![Vec::new(); piles];
                let (mut stock, mut discards) = (Vec::new(), Vec::new());
                for &card in &deck {
                    if stock.len() < stock_len {
                        stock.push(card);
                    } else if discards.len() < d / 2 && !rules::is_top_rank(card, &rules) {
                        discards.push(card);
                    } else {
                        let spread = if i % 3 == 0 { 1 } else { piles as u64 };
                        tableau[rng.below(spread) as usize].push(card);
                    }
                }
                Position::from_parts(rules, &tableau, &stock, &discards).expect("a whole deck")
            })
            .collect()
    }

    /// `f` of the search state of `pos` for its number of piles.
    macro_rules! with_piles {
        ($pos:expr, $p:ident => $body:expr) => {
            if $pos.rules.piles == 4 {
                const $p: usize = 4;
                $body
            } else {
                const $p: usize = MAX_PILES;
                $body
            }
        };
    }

    fn all_rules() -> Vec<Rules> {
        let mut out = Vec::new();
        for fill in [FillRule::Top, FillRule::Ace, FillRule::Any] {
            for deal in [DealRule::Free, DealRule::Stuck] {
                for relocate_single in [false, true] {
                    for ace_high in [true, false] {
                        out.push(Rules {
                            fill,
                            deal,
                            relocate_single,
                            ace_high,
                            ..Rules::standard()
                        });
                    }
                }
            }
        }
        out
    }

    /// `f` given a search of `pos` (not started).
    fn with_search<const P: usize, R>(
        pos: &Position,
        f: impl FnOnce(&mut Search<LARGE, P, false>) -> R,
    ) -> R {
        with_open_search::<P, false, R>(pos, f)
    }

    /// [`with_search`] compiled for `deal="any"` (`OPEN`) or not.
    fn with_open_search<const P: usize, const OPEN: bool, R>(
        pos: &Position,
        f: impl FnOnce(&mut Search<LARGE, P, OPEN>) -> R,
    ) -> R {
        let (deal, limits) = (Deal::of(pos), Limits::default());
        let (mut solver, mut frames) = (Solver::new(), Vec::new());
        f(&mut Search::<LARGE, P, OPEN>::new(
            &deal,
            &mut solver.buffers,
            &mut frames,
            &limits,
        ))
    }

    /// Positions met by playing seeded games under every rule set at random, taken
    /// once the stock holds `stock` cards or fewer.
    fn positions(count: usize, seed: u64, stock: usize) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let rules = all_rules();
        (0..count as u64)
            .map(|i| {
                let mut pos = seeded_position(seed, i, rules[i as usize % rules.len()]);
                while pos.stock().len() > stock {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.apply(moves[rng.below(moves.len() as u64) as usize]);
                }
                pos
            })
            .collect()
    }

    /// Positions with one to three deals left (the stock holds 12 cards or fewer).
    fn late_positions(count: usize, seed: u64) -> Vec<Position> {
        positions(count, seed, 12)
    }

    /// Random positions with tall piles (up to 52 cards in one), a short stock and
    /// some discards, under every rule set: the places of a pile are then [`LARGE`].
    fn tall_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let rules = all_rules();
        (0..count)
            .map(|i| {
                let rules = rules[i % rules.len()];
                let mut deck = rules.deck();
                crate::rng::shuffle_slice(&mut deck, &mut rng);
                let stock_len = 4 * rng.below(3) as usize;
                let mut piles: [Vec<Card>; PILES] = Default::default();
                let (mut stock, mut discards) = (Vec::new(), Vec::new());
                for &card in &deck {
                    if stock.len() < stock_len {
                        stock.push(card);
                    } else if discards.len() < 30 && !rules::is_top_rank(card, &rules) {
                        discards.push(card);
                    } else {
                        piles[rng.below(if i % 3 == 0 { 1 } else { 4 }) as usize].push(card);
                    }
                }
                Position::from_parts(rules, &piles, &stock, &discards).expect("52 cards")
            })
            .collect()
    }

    fn check_line(pos: &Position, s: &Solution) {
        if s.winnable == Some(true) {
            let mut end = pos.clone();
            for &mv in &s.moves {
                end.play(mv)
                    .unwrap_or_else(|e| panic!("{mv}: {e} in {}", end.to_text()));
            }
            assert!(end.is_won(), "{}", pos.to_text());
        } else {
            assert!(s.moves.is_empty());
        }
    }

    #[test]
    fn agrees_with_the_plain_search() {
        let mut checked = 0;
        for pos in late_positions(1200, 5) {
            let Some(expected) = plain_search(&pos, Some(300_000)) else {
                continue;
            };
            let s = solve(&pos, &Limits::default());
            assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
            check_line(&pos, &s);
            checked += 1;
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The solver's verdict and line on each of `positions` that the plain search
    /// settles within 200,000 positions, checked against it: their rules and verdicts.
    fn check_against_the_plain_search(positions: Vec<Position>) -> Vec<(Rules, bool)> {
        positions
            .into_iter()
            .filter_map(|pos| {
                let expected = plain_search(&pos, Some(200_000))?;
                let s = solve(&pos, &Limits::default());
                assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
                check_line(&pos, &s);
                // The search asks its tests only at some positions (SOLVER.md,
                // *Where the tests look*): asked here of every one.
                assert!(!(expected && condemned(&pos)), "{}", pos.to_text());
                Some((pos.rules, expected))
            })
            .collect()
    }

    /// Whether the tests that condemn a position (S13, S15, S17: `Search::lost`)
    /// condemn `pos`.
    fn condemned(pos: &Position) -> bool {
        fn under<const P: usize>(pos: &Position) -> bool {
            let s = State::<LARGE, P>::of(pos);
            match pos.rules.deal {
                DealRule::Any => with_open_search::<P, true, _>(pos, |search| search.lost(&s)),
                _ => with_open_search::<P, false, _>(pos, |search| search.lost(&s)),
            }
        }
        match pos.rules.piles {
            4 => under::<4>(pos),
            _ => under::<5>(pos),
        }
    }

    /// Every layout and option of the family, from the start of small decks to the
    /// last deals of large ones: the same verdicts as the plain search, and lines
    /// that replay through `Position::play`.
    #[test]
    fn agrees_with_the_plain_search_across_the_family() {
        let mut all = family_positions(2000, 31, 10);
        all.extend(family_positions(1000, 33, 20));
        // deal="any" (S10) with several deals to go.
        all.extend(family_positions_of(1000, 34, 24, |rules| Rules {
            deal: DealRule::Any,
            relocate_single: false,
            ..rules
        }));
        all.extend(family_tall_positions(600, 32));
        let checked = check_against_the_plain_search(all);
        let won = checked.iter().filter(|(_, won)| *won).count();
        let lost = checked.len() - won;
        let seen: HashSet<_> = checked
            .iter()
            .map(|(r, _)| (r.piles, r.deal, r.deal_to, r.fill))
            .collect();
        println!("{won} won, {lost} lost");
        assert!(won > 1000 && lost > 500, "{won} won, {lost} lost");
        // Every pile count, deal rule, deal_to and fill.
        assert_eq!(seen.len(), 2 * 3 * 2 * 3, "{seen:?}");
    }

    /// `rules` with kpat's and PySolFC's options: `fill="top"`, `deal="any"`,
    /// `relocate_single`.
    fn kpat_options(rules: Rules) -> Rules {
        Rules {
            fill: FillRule::Top,
            deal: DealRule::Any,
            relocate_single: true,
            ..rules
        }
    }

    /// kpat's and PySolFC's rules (`deal="any"`, `relocate_single`, `fill="top"`)
    /// on random layouts of the family, several deals from the end, and on the
    /// standard deck's last deals: S10's holds of lone cards, S11 and S13 against
    /// the plain search.
    #[test]
    fn agrees_with_the_plain_search_under_kpat_rules() {
        let mut all = family_positions_of(1500, 35, 16, kpat_options);
        all.extend(family_positions_of(600, 36, 8, |rules| Rules {
            piles: rules.piles,
            deal_to: rules.deal_to,
            ..Rules::kpat()
        }));
        let checked = check_against_the_plain_search(all);
        let won = checked.iter().filter(|(_, won)| *won).count();
        let lost = checked.len() - won;
        println!("{won} won, {lost} lost");
        assert!(won > 300 && lost > 300, "{won} won, {lost} lost");
    }

    /// Positions the search once called lost though the plain search wins them, each
    /// where a proof had a gap (SOLVER.md: S11, S15 and the withdrawn S9), shared with
    /// the Python suite: one a line, a name and the position's text.
    const ONCE_WRONG: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/solver_once_wrong.txt"
    ));

    /// Endgames: a card c, the lowest of its suit in play, on top of another card, a
    /// stronger card of its suit on top of another pile, often a pile empty, the
    /// top-rank cards and a few others in play, and a stock of a length a deal can
    /// leave, at most three deals; the rules drawn by `draw`. The other generators
    /// seldom make these, and [`ONCE_WRONG`]'s positions are of this kind.
    fn sparse_positions(
        count: usize,
        seed: u64,
        draw: impl Fn(&mut Rng) -> Rules,
    ) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut all = Vec::new();
        while all.len() < count {
            let rules = draw(&mut rng);
            let (piles, deck) = (usize::from(rules.piles), rules.deck());
            let strength = |x: Card| rules::strength(x, &rules);
            let top_rank = |x: &Card| rules::is_top_rank(*x, &rules);
            let low: Vec<Card> = deck.iter().copied().filter(|x| !top_rank(x)).collect();
            let c = low[rng.below(low.len() as u64) as usize];
            let stronger: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|&x| x.suit() == c.suit() && strength(x) > strength(c))
                .collect();
            let h = stronger[rng.below(stronger.len() as u64) as usize];
            // c is the lowest card of its suit in play; the top-rank cards all are.
            let mut others: Vec<Card> = low
                .iter()
                .copied()
                .filter(|&x| x != c && x != h)
                .filter(|&x| x.suit() != c.suit() || strength(x) > strength(c))
                .collect();
            shuffle_slice(&mut others, &mut rng);
            others.truncate(4 + rng.below(9) as usize);
            others.extend(deck.iter().copied().filter(|x| top_rank(x) && *x != h));
            shuffle_slice(&mut others, &mut rng);
            if others.len() < 2 * piles {
                continue;
            }
            let (empty, with_c) = (
                rng.below(piles as u64) as usize,
                rng.below(piles as u64) as usize,
            );
            let mut tableau = vec![Vec::new(); piles];
            for p in (0..piles).filter(|&p| p != empty) {
                let height = if p == with_c {
                    1
                } else {
                    1 + rng.below(2) as usize
                };
                tableau[p].extend(others.drain(others.len() - height..));
            }
            tableau[(empty + 1 + rng.below(piles as u64 - 1) as usize) % piles].push(h);
            tableau[if with_c == empty {
                (empty + 1) % piles
            } else {
                with_c
            }]
            .push(c);
            // Under deal_to="all" the stock is 0 or D − P − kP cards (R6.5).
            let stock = match rules.deal_to {
                DealTo::All => {
                    let base = (deck.len() - piles) % piles;
                    others.len().checked_sub(base).map_or(0, |room| {
                        base + piles * (room / piles).min(1 + rng.below(3) as usize)
                    })
                }
                DealTo::Empty => others.len().min(1 + rng.below(8) as usize),
            };
            tableau[(empty + 2) % piles].splice(0..0, others.drain(stock..));
            let placed: Vec<Card> = tableau.iter().flatten().chain(&others).copied().collect();
            let discards: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|x| !placed.contains(x))
                .collect();
            if let Ok(pos) = Position::from_parts(rules, &tableau, &others, &discards) {
                all.push(pos);
            }
        }
        all
    }

    #[test]
    fn agrees_with_the_plain_search_on_sparse_endgames() {
        let mut all: Vec<Position> = ONCE_WRONG
            .lines()
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|line| {
                let (_, text) = line.split_once(' ').expect("a name and a position");
                Position::parse(text).expect("a position")
            })
            .collect();
        assert_eq!(all.len(), 4);
        all.extend(sparse_positions(20_000, 38, |rng| Rules {
            fill: [FillRule::Top, FillRule::Ace, FillRule::Any][rng.below(3) as usize],
            deal: [DealRule::Free, DealRule::Stuck, DealRule::Any][rng.below(3) as usize],
            relocate_single: rng.below(2) == 1,
            deal_to: [DealTo::All, DealTo::Empty][rng.below(2) as usize],
            ..Rules::standard()
        }));
        all.extend(sparse_positions(20_000, 39, random_rules));
        let checked = check_against_the_plain_search(all);
        let won = checked.iter().filter(|(_, won)| *won).count();
        let lost = checked.len() - won;
        println!("{won} won, {lost} lost");
        assert!(won > 5000 && lost > 5000, "{won} won, {lost} lost");
    }

    #[test]
    fn agrees_with_the_plain_search_on_tall_piles() {
        let mut checked = 0;
        for pos in tall_positions(600, 9) {
            let Some(expected) = plain_search(&pos, Some(100_000)) else {
                continue;
            };
            let s = solve(&pos, &Limits::default());
            assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
            check_line(&pos, &s);
            checked += 1;
        }
        assert!(checked > 400, "{checked}");
    }

    /// The search state's rules (`Deal::legal`, `Deal::apply`) are those of the
    /// rules module, move for move.
    #[test]
    fn state_moves_match_the_rules() {
        let mut all = positions(300, 3, 48);
        all.extend(positions(300, 4, 24));
        all.extend(late_positions(300, 6));
        all.extend(tall_positions(300, 7));
        all.extend(family_positions(600, 8, 30));
        all.extend(family_positions(600, 9, 5));
        all.extend(family_tall_positions(600, 10));
        for pos in all {
            with_piles!(pos, P => state_moves_match::<P>(&pos));
        }
    }

    fn state_moves_match<const P: usize>(pos: &Position) {
        let (deal, s) = (Deal::of(pos), State::<LARGE, P>::of(pos));
        assert_eq!(deal.score(&s), pos.score());
        assert_eq!(
            s.empty(),
            (0..P).fold(0, |m, p| m | u8::from(pos.height(p) == 0) << p)
        );
        assert_eq!(s.total(), (0..P).map(|p| pos.height(p)).sum::<usize>());
        let legal = deal.legal(&s, deal.discards(&s));
        let moves: Vec<Move> = legal.iter().collect();
        assert_eq!(moves, pos.legal_moves(), "{}", pos.to_text());
        for mv in moves {
            let (mut t, mut next) = (s, pos.clone());
            deal.apply(&mut t, mv);
            next.apply(mv);
            for p in 0..P {
                let pile: Vec<u8> = next.pile(p).iter().map(|c| c.index() as u8).collect();
                assert_eq!(t.pile(p), &pile[..], "{mv} in {}", pos.to_text());
                assert_eq!(t.tops[p], pile.last().copied().unwrap_or(NO_CARD));
            }
            assert_eq!(deal.stock_left(&t), next.stock().len());
        }
    }

    /// S8 only ever condemns positions that the plain search finds lost.
    #[test]
    fn doomed_stocks_are_lost() {
        let mut doomed = 0;
        let mut all = late_positions(3000, 12);
        all.extend(family_positions(3000, 13, 15));
        for pos in all {
            if with_piles!(pos, P => with_search::<P, _>(&pos, |search| search.stock_is_doomed())) {
                doomed += 1;
                assert_eq!(
                    plain_search(&pos, Some(1_000_000)),
                    Some(false),
                    "{}",
                    pos.to_text()
                );
            }
        }
        assert!(doomed > 200, "{doomed}");
    }

    /// S7: every arrangement of the lone cards, once each, and `arrange` reaches
    /// each of them by legal relocations.
    #[test]
    fn arrangements_are_reached_by_legal_moves() {
        let cases = [
            ("7s/-/3d5h/Ac", 3 * 2),
            ("7s/-/-/Ac", 4 * 3),
            ("7s/-/-/-", 4),
            ("5d9d/-/3d5h/Ac", 2),
        ];
        for (piles, expected) in cases {
            let pos = crate::position::position_with_piles(piles, "relocate_single=true");
            let s = State::<LARGE, 4>::of(&pos);
            with_search(&pos, |search| {
                search.record = true;
                let light = search.light_piles(&s);
                let (lone, n) = lone_cards(&s, light);
                let mut layouts = Vec::new();
                arrangements(light, &lone[..n], &mut layouts);
                assert_eq!(layouts.len(), expected, "{piles}");
                let distinct: HashSet<[u8; MAX_PILES]> = layouts.iter().copied().collect();
                assert_eq!(distinct.len(), layouts.len());
                for layout in layouts {
                    let mut t = s;
                    search.buffers.line.clear();
                    search.arrange(&mut t, &layout);
                    let mut real = pos.clone();
                    for &mv in &search.buffers.line {
                        real.play(mv).unwrap();
                    }
                    for (p, &want) in layout.iter().enumerate().take(PILES) {
                        match want {
                            HEAVY => assert_eq!(t.pile(p), s.pile(p)),
                            BLANK => assert_eq!(t.height(p), 0),
                            card => assert_eq!(t.pile(p), &[card]),
                        }
                        let pile: Vec<u8> = real.pile(p).iter().map(|c| c.index() as u8).collect();
                        assert_eq!(t.pile(p), &pile[..]);
                    }
                }
            });
        }
    }

    /// S14: with the stock not empty and a pile empty, a card lying right on a
    /// stronger card of its suit is moved and discarded under `fill="top"` only,
    /// and only when that card is the next one down.
    #[test]
    fn a_card_on_a_stronger_one_of_its_suit_goes() {
        let cases = [
            ("Ks2s/9h/-/4d", "standard", "Ks/9h/-/4d"),
            (
                "Ks2s/9h/-/4d",
                "deal=stuck,relocate_single=true",
                "Ks/9h/-/4d",
            ),
            ("Ks2s/9h/-/4d", "strict", "Ks2s/9h/-/4d"),
            ("Ks5d2s/9h/-/4d", "standard", "Ks5d2s/9h/-/4d"),
            ("2sKs/9h/-/4d", "standard", "2sKs/9h/-/4d"),
            ("Ks2s/9h/8c/4d", "standard", "Ks2s/9h/8c/4d"),
        ];
        for (piles, rules, expected) in cases {
            let pos = crate::position::position_with_piles(piles, rules);
            assert!(!pos.stock().is_empty());
            let want =
                State::<LARGE, 4>::of(&crate::position::position_with_piles(expected, rules));
            with_search(&pos, |search| {
                search.record = true;
                let mut s = State::of(&pos);
                search.close(&mut s);
                let cards = |s: &State<LARGE, 4>| {
                    (0..PILES).map(|p| s.pile(p).to_vec()).collect::<Vec<_>>()
                };
                assert_eq!(cards(&s), cards(&want), "{piles} {rules}");
                let mut real = pos.clone();
                for &mv in &search.buffers.line {
                    real.play(mv).unwrap();
                }
                assert_eq!(real.score(), pos.score() + usize::from(piles != expected));
            });
        }
    }

    /// The positions along the winning line that a quick search (20,000 positions)
    /// finds from kpat deal n, from the deal to the end; none when it finds none.
    fn kpat_line(n: i128) -> Vec<Position> {
        let deck = crate::deals::deck_from_kpat(n).unwrap();
        let mut pos = Position::from_deck(&deck, Rules::kpat());
        let quick = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let moves = solve(&pos, &quick).moves;
        let mut line = Vec::new();
        for mv in moves {
            line.push(pos.clone());
            pos.apply(mv);
        }
        if !line.is_empty() {
            line.push(pos);
        }
        line
    }

    /// Walk `steps` positions from `pos`, each after a random legal move: how many
    /// of them `condemns`, each checked to be no win for the plain search.
    fn condemned_on_a_walk(
        mut pos: Position,
        steps: usize,
        rng: &mut Rng,
        condemns: impl Fn(&Position) -> bool,
    ) -> usize {
        let mut condemned = 0;
        for _ in 0..steps {
            if condemns(&pos) {
                condemned += 1;
                assert_ne!(
                    plain_search(&pos, Some(200_000)),
                    Some(true),
                    "{}",
                    pos.to_text()
                );
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.apply(moves[rng.below(moves.len() as u64) as usize]);
        }
        condemned
    }

    /// S15 condemns only lost positions: those on the winning lines of kpat deals
    /// with one deal left or none, and a few random moves off them.
    #[test]
    fn blocked_last_suits_are_lost() {
        let mut rng = Rng::new(37);
        let blocked = |pos: &Position| {
            let s = State::<LARGE, 4>::of(pos);
            with_open_search::<4, true, _>(pos, |search| search.last_suit_blocked(&s))
        };
        let late: Vec<Position> = (1..200)
            .flat_map(kpat_line)
            .filter(|pos| pos.stock().len() <= 4)
            .collect();
        let condemned: usize = late
            .into_iter()
            .map(|pos| condemned_on_a_walk(pos, 3, &mut rng, blocked))
            .sum();
        assert!(condemned > 50, "{condemned}");
    }

    /// S16 and S17 condemn only lost positions: none of those on the winning lines
    /// of kpat deals (S13's fixpoint, with S16's held suits, and S17 at every stock
    /// size), and a few random moves off them only where the plain search finds no
    /// win (with two deals left or fewer).
    #[test]
    fn held_suits_condemn_only_lost_positions() {
        let mut rng = Rng::new(41);
        let lost = |pos: &Position| {
            let s = State::<LARGE, 4>::of(pos);
            with_open_search::<4, true, _>(pos, |search| {
                search.no_suit_clears(&s, search.deals_from(s.dealt))
                    || s.empty() == 0 && search.locked(&s)
            })
        };
        let mut off_line = 0;
        for n in 1..300 {
            for pos in kpat_line(n) {
                assert!(!lost(&pos), "kpat {n}: {}", pos.to_text());
                if pos.stock().len() <= 8 && rng.below(4) == 0 {
                    off_line += condemned_on_a_walk(pos, 4, &mut rng, lost);
                }
            }
        }
        assert!(off_line > 50, "{off_line}");
    }

    /// S10 with S7: a hold goes with its lone card, so that every arrangement of a
    /// held card has one key, and the same position without the hold another.
    #[test]
    fn holds_go_with_their_cards_in_the_key() {
        let pos =
            crate::position::position_with_piles("7s/-/3d5h/Ac", "deal=any,relocate_single=true");
        let s = State::<LARGE, 4>::of(&pos);
        with_open_search::<4, true, _>(&pos, |search| {
            search.buffers.table.clear();
            let (mut held, mut moved) = (s, s);
            held.pins = 1;
            moved.pins = 1;
            search.play(
                &mut moved,
                Move::Fill {
                    src: 0,
                    dst: 1,
                    index: 0,
                },
            );
            assert_eq!(moved.pins, 0b10, "the hold moves with 7s");
            let mut other = s;
            other.pins = 1 << 3;
            assert!(search.insert(&held).is_ok_and(|new| new));
            assert!(search.insert(&moved).is_ok_and(|new| !new));
            assert!(search.insert(&s).is_ok_and(|new| new));
            assert!(search.insert(&other).is_ok_and(|new| new));
        });
    }

    #[test]
    fn winning_lines_replay_on_seeded_deals() {
        let mut rng = Rng::new(17);
        let family = (0..120).map(|_| random_rules(&mut rng));
        for rules in all_rules().into_iter().chain(family) {
            let mut solver = Solver::new();
            for i in 0..40 {
                let pos = seeded_position(1, i, rules);
                let s = solver.solve(
                    &pos,
                    &Limits {
                        nodes: Some(200_000),
                        ..Limits::default()
                    },
                );
                check_line(&pos, &s);
            }
        }
    }

    /// The positions a solve reports are the positions it searched: under a node
    /// limit of that many the same solve ends the same, under one fewer it stops.
    /// Under `deal="any"` too, where a search under `"free"` comes first: kpat deals
    /// won by that search (2, 4), lost (16, 39, 43) and won only by the search
    /// under `"any"` (771, 829). (A win of the first search counted its positions
    /// twice once.)
    #[test]
    fn nodes_are_the_positions_searched() {
        for n in [2, 4, 16, 39, 43, 771, 829] {
            let deck = crate::deals::deck_from_kpat(n).unwrap();
            let pos = Position::from_deck(&deck, Rules::kpat());
            let full = solve(&pos, &Limits::default());
            assert!(full.winnable.is_some(), "kpat deal {n}");
            let under = |nodes| {
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                solve(&pos, &limits).winnable
            };
            assert_eq!(under(full.nodes), full.winnable, "kpat deal {n}");
            assert_eq!(under(full.nodes - 1), None, "kpat deal {n}");
        }
    }

    /// A limit turns a verdict into None, never into a wrong one.
    #[test]
    fn limits_never_give_a_wrong_verdict() {
        for pos in late_positions(200, 21) {
            let full = solve(&pos, &Limits::default());
            for n in [1, 3, 10, 40] {
                let s = solve(
                    &pos,
                    &Limits {
                        nodes: Some(n),
                        ..Limits::default()
                    },
                );
                assert!(s.nodes <= n);
                assert!(s.winnable.is_none() || s.winnable == full.winnable);
                check_line(&pos, &s);
            }
            let cancel = Arc::new(AtomicBool::new(true));
            let s = solve(
                &pos,
                &Limits {
                    cancel: Some(cancel),
                    ..Limits::default()
                },
            );
            assert!(s.winnable.is_none() || s.winnable == full.winnable);
        }
    }

    /// kpat deals 1-60 under its preset with at most 20,000 nodes each, as
    /// `solve_deals` found them when it solved them 32 a thread at a time ('-':
    /// unresolved): the stream hands out the same, in order, at any thread count.
    #[test]
    fn verdicts_come_in_order_at_any_thread_count() {
        const KPAT_1_60: &str = "-TFTFTFF-TT-TF-FTT-TTT-TTT-FTTTFT-FTFTF-FFFTF-FFTFTFTTF-FT-F";
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let position = |i: u64| {
            let deck = crate::deals::deck_from_kpat(i128::from(i) + 1).unwrap();
            Position::from_deck(&deck, Rules::kpat())
        };
        for threads in [1, 2, 3] {
            let found = verdicts(threads, 60, position, &limits).unwrap();
            let text: String = std::iter::from_fn(|| found.next())
                .map(|v| match v {
                    Some(true) => 'T',
                    Some(false) => 'F',
                    None => '-',
                })
                .collect();
            assert_eq!(text, KPAT_1_60, "{threads} threads");
        }
    }

    #[test]
    fn solvability_does_not_depend_on_the_threads() {
        let rules = Rules {
            relocate_single: true,
            ..Rules::easy()
        };
        let limits = Limits {
            nodes: Some(50_000),
            ..Limits::default()
        };
        let one = solvability(1, rules, 3, 10, 150, &limits).unwrap().unwrap();
        assert_eq!(one.games(), 150);
        for threads in [2, 3, crate::pool::thread_count(None).unwrap()] {
            let found = solvability(threads, rules, 3, 10, 150, &limits).unwrap();
            assert_eq!(found, Some(one), "{threads} threads");
        }
        let a = solvability(1, rules, 3, 10, 61, &limits).unwrap().unwrap();
        let b = solvability(2, rules, 3, 71, 89, &limits).unwrap().unwrap();
        assert_eq!(a.merge(&b).unwrap(), one);
        let cancel = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..limits
        };
        assert_eq!(solvability(2, rules, 3, 10, 150, &cancel).unwrap(), None);
    }

    #[test]
    fn solvability_figures() {
        let s = Solvability::new(3, 5, 2).unwrap();
        assert_eq!((s.games(), s.rate()), (10, 0.3));
        let low = Stats::from_histogram(&[&[7u64][..], &[0; 47], &[3]].concat())
            .unwrap()
            .ci95()
            .0;
        let high = Stats::from_histogram(&[&[5u64][..], &[0; 47], &[5]].concat())
            .unwrap()
            .ci95()
            .1;
        assert_eq!(s.ci95(), (low, high));
        assert_eq!(
            s.repr(),
            "Solvability(winnable=3, unwinnable=5, unresolved=2)"
        );
        assert_eq!(
            s.to_string(),
            "10 games: 3 winnable, 5 unwinnable, 2 unresolved; rate 0.30000 (95% CI 0.10779 to 0.76341)"
        );
        let empty = Solvability::default();
        assert!(empty.rate().is_nan());
        assert_eq!(
            (empty.ci95(), empty.to_string()),
            ((0.0, 1.0), "0 games".to_string())
        );
        assert!(Solvability::new(u64::MAX, 1, 0).is_err());
        assert!(Solvability::new(u64::MAX, 0, 0)
            .unwrap()
            .merge(&Solvability::new(1, 0, 0).unwrap())
            .is_err());
        let line = Solution::new(Some(true), vec![Move::Deal, Move::Discard(2)], 7).unwrap();
        assert_eq!(line.to_string(), "winnable (7 nodes): deal d2");
        assert!(Solution::new(Some(false), vec![Move::Deal], 0).is_err());
    }

    #[test]
    fn the_table_is_exact() {
        fn check<K: Key + std::fmt::Debug>(keys: &[K]) {
            let mut table = Table::<K>::new();
            for _ in 0..3 {
                table.clear();
                for &key in keys {
                    assert_eq!(table.insert(key).ok(), Some(true), "{key:?}");
                }
                for &key in keys {
                    assert_eq!(table.insert(key).ok(), Some(false), "{key:?}");
                }
                assert_eq!(table.len, keys.len());
            }
        }
        // Across a wrap of the generations, at a clear and at a growth.
        for (clears, keys) in [(1, 5), (0, 5000)] {
            let mut table = Table::<u128>::new();
            table.generation = (1 << GENERATION_BITS) - 2;
            for key in 0..5000 {
                assert_eq!(table.insert(key).ok(), Some(true));
            }
            for _ in 0..clears {
                table.clear();
            }
            for key in 0..keys {
                assert_eq!(table.insert(key).ok(), Some(clears > 0), "{key}");
            }
            table.clear();
            assert_eq!(table.insert(0).ok(), Some(true));
        }
        // Keys that differ in one bit, and keys whose hashes share their low bits.
        let mut keys: Vec<u128> = (0..128 - GENERATION_BITS)
            .map(|bit| 1 << bit)
            .chain((0..20_000u128).map(|i| (i << 40) | (i * 0x9e37)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        check(&keys);
        let wide: Vec<[u64; 4]> = keys
            .iter()
            .flat_map(|&k| [[k as u64, 0, 0, 0], [0, 0, k as u64, (k >> 64) as u64]])
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        check(&wide);
    }

    /// The check of [`Search::key`] and [`Search::wide_key`] against the plain key
    /// of a state, its bytes: heights, `dealt`, `pins`, then every pile's cards.
    /// When on, every key a search stores must stand for one such key, and each
    /// for one key.
    #[derive(Default)]
    pub(super) struct KeyCheck {
        on: bool,
        generation: u64,
        states: HashMap<[u64; 4], Vec<u8>>,
        keys: HashMap<Vec<u8>, [u64; 4]>,
        checked: usize,
    }

    impl KeyCheck {
        pub(super) fn check<const N: usize, const P: usize>(
            &mut self,
            generation: u64,
            key: impl Key,
            c: &State<N, P>,
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

    /// Every key that the searches of the plain-search comparisons store stands
    /// for one state, and each state has one key, under every layout and option:
    /// random positions of the family and of the standard deck, kpat's rules,
    /// sparse endgames, and the first kpat deals.
    #[test]
    fn the_keys_tell_states_apart() {
        let mut solver = Solver::new();
        solver.buffers.keys.on = true;
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut all = positions(300, 11, 12);
        all.extend(positions(300, 12, 30));
        all.extend(family_positions(400, 13, 16));
        all.extend(family_positions_of(300, 14, 16, kpat_options));
        all.extend(family_tall_positions(200, 15));
        all.extend(sparse_positions(1000, 16, random_rules));
        all.extend((1..=20).map(|n| {
            Position::from_deck(&crate::deals::deck_from_kpat(n).unwrap(), Rules::kpat())
        }));
        for pos in &all {
            solver.solve(pos, &limits);
        }
        assert!(
            solver.buffers.keys.checked > 80_000,
            "{}",
            solver.buffers.keys.checked
        );
    }
}

#[cfg(test)]
mod bench {
    use super::*;

    /// The rules texts (`ACESUP_BENCH_RULES`, separated by `;`) and the number of
    /// deals (`ACESUP_BENCH_GAMES`) of a bench, or these defaults.
    fn bench_settings(rules: &str, games: u64) -> (String, u64) {
        let texts = std::env::var("ACESUP_BENCH_RULES").unwrap_or_else(|_| rules.into());
        let games = std::env::var("ACESUP_BENCH_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(games);
        (texts, games)
    }

    /// `cargo test --release -p acesup solver::bench -- --ignored --nocapture`:
    /// deals solved per second, on one core, for rule sets given by
    /// `ACESUP_BENCH_RULES` (rules texts separated by `;`, default `easy`).
    #[test]
    #[ignore]
    fn deals_per_second() {
        let (texts, games) = bench_settings("easy", 200);
        for text in texts.split(';') {
            let rules = Rules::parse(text).unwrap();
            let start = Instant::now();
            let s = solvability(1, rules, 0, 0, games, &Limits::default())
                .unwrap()
                .unwrap();
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{text:24} {:10.0} deals/s  {}",
                games as f64 / secs,
                s.repr()
            );
        }
    }

    /// `cargo test --release -p acesup solver::bench::kpat_deals -- --ignored
    /// --nocapture`: kpat's deals `ACESUP_BENCH_KPAT` (a range `LO-HI`, default
    /// `1-300`) under `Rules.kpat()`, one core, each stopped at `ACESUP_BENCH_NODES`
    /// positions (default: none): the verdicts, the positions and the deals a second.
    /// Its figures are those SOLVER.md gives for kpat's deals.
    #[test]
    #[ignore]
    fn kpat_deals() {
        let range = std::env::var("ACESUP_BENCH_KPAT").unwrap_or_else(|_| "1-300".into());
        let (lo, hi) = range.split_once('-').expect("ACESUP_BENCH_KPAT is LO-HI");
        let (lo, hi): (i128, i128) = (lo.parse().unwrap(), hi.parse().unwrap());
        let limits = Limits {
            nodes: std::env::var("ACESUP_BENCH_NODES")
                .ok()
                .map(|n| n.parse().unwrap()),
            ..Limits::default()
        };
        let mut solver = Solver::new();
        let (mut counts, mut nodes) = ([0u64; 3], 0);
        let start = Instant::now();
        for n in lo..=hi {
            let deck = crate::deals::deck_from_kpat(n).unwrap();
            let found = solver.solve(&Position::from_deck(&deck, Rules::kpat()), &limits);
            counts[match found.winnable {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }] += 1;
            nodes += found.nodes;
        }
        let secs = start.elapsed().as_secs_f64();
        let [won, lost, open] = counts;
        println!(
            "kpat {range}: {won} won, {lost} lost, {open} open, {nodes} positions, \
             {secs:.2} s, {:.1} deals/s",
            (hi - lo + 1) as f64 / secs
        );
    }

    /// `cargo test --release -p acesup solver::bench::against_the_plain_search --
    /// --ignored --nocapture`: the solver's deals per second over the plain search's
    /// (every legal move, a hash set of the positions seen, no other pruning), on one
    /// core, on the same deals with the same verdicts, for the rule sets of
    /// `ACESUP_BENCH_RULES` (default: the three of issue 13).
    #[test]
    #[ignore]
    fn against_the_plain_search() {
        let (texts, games) = bench_settings("standard;deal=stuck;relocate_single=true", 1000);
        for text in texts.split(';') {
            let rules = Rules::parse(text).unwrap();
            let deals: Vec<Position> = (0..games).map(|i| seeded_position(0, i, rules)).collect();
            let mut solver = Solver::new();
            let start = Instant::now();
            let fast: Vec<Option<bool>> = deals
                .iter()
                .map(|pos| solver.solve(pos, &Limits::default()).winnable)
                .collect();
            let fast_secs = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let plain: Vec<Option<bool>> =
                deals.iter().map(|pos| plain_search(pos, None)).collect();
            let plain_secs = start.elapsed().as_secs_f64();
            assert_eq!(fast, plain, "{text}");
            println!(
                "{text:24} solver {:9.0} deals/s, plain {:8.0} deals/s, ratio {:5.1}",
                games as f64 / fast_secs,
                games as f64 / plain_secs,
                plain_secs / fast_secs
            );
        }
    }
}

/// The nodes that [`solve_quickly`] tries first: well under a millisecond.
pub const QUICK_NODES: u64 = 20_000;

/// Most positions are solved in well under a millisecond, so a caller that must
/// run a long search where it can be cancelled (the bindings: on a thread of its
/// own, for Ctrl-C) first tries [`QUICK_NODES`] nodes where it is: `Ok` with the
/// solution when that settles it, else `Err` with the limits left for the full
/// search (which starts again: the first try cost at most `QUICK_NODES`).
pub fn solve_quickly(pos: &Position, limits: &Limits) -> std::result::Result<Solution, Limits> {
    let started = Instant::now();
    let quick = Limits {
        nodes: Some(limits.nodes.unwrap_or(u64::MAX).min(QUICK_NODES)),
        ..limits.clone()
    };
    let first = solve(pos, &quick);
    if first.winnable.is_some()
        || first.nodes < QUICK_NODES
        || limits.nodes.is_some_and(|n| n <= QUICK_NODES)
    {
        return Ok(first);
    }
    Err(Limits {
        time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
        ..limits.clone()
    })
}

#[cfg(test)]
mod quick_tests {
    use super::*;

    /// The quick try settles an easy position with the plain search's answer, and
    /// hands a search that needs more on with the limits it has left.
    #[test]
    fn quick_first_then_the_full_search() {
        let pos = seeded_position(0, 3, Rules::standard());
        let settled = solve_quickly(&pos, &Limits::default()).unwrap();
        assert_eq!(settled, solve(&pos, &Limits::default()));
        assert!(settled.nodes < QUICK_NODES);
        let hard = (0..)
            .map(|i| seeded_position(1, i, Rules::standard()))
            .find(|pos| solve(pos, &Limits::default()).nodes > QUICK_NODES)
            .unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(3600)),
            ..Limits::default()
        };
        let rest = solve_quickly(&hard, &limits).unwrap_err();
        assert!(rest.nodes.is_none() && rest.time.unwrap() < Duration::from_secs(3600));
        // A node limit within the quick try is the whole search.
        let capped = Limits {
            nodes: Some(QUICK_NODES),
            ..Limits::default()
        };
        assert_eq!(solve_quickly(&hard, &capped).unwrap().winnable, None);
    }
}
