//! The rule options (RULES.md R1.4, R5, R6.4; in `rules/options.rs`) and every
//! rule, one function per rule: rank order (R1.2), discard (R2.1), fill (R2.2), deal (R2.3), the order of
//! the legal moves (R3), the end of the game (R4) and the reasons a move is illegal
//! (R7).
//!
//! The rule functions are written once, generic over [`Tableau`]: what a rule needs
//! to know of a position (heights, the cards from the top, the top-card masks, the
//! stock left). The game's `Position` and the solver's compact state both
//! implement it. The plain versions the fast ones must agree
//! with are in the tests (`tests/rules.rs`).

use crate::cards::{Card, SUIT_NAMES};
use crate::lanes;
// The solver calls the rising lanes' helpers as `rules::...`; they live in `lanes`.
pub(crate) use crate::lanes::rising::{lanes_of, stronger_bits, weaker_bits, TOP_RANK_BITS};
use crate::moves::{Move, MAX_PILES};

mod options;
pub use options::{DealRule, DealTo, FillRule, OptionValue, Rules, OPTIONS, PRESETS};

// ---------------------------------------------------------------------------
// What the rules read of a position

/// What the rule functions read of a position, implemented by the game's
/// `Position` and by the solver's compact state (pydantic-core's `Input` trait is
/// the model): one statement of R2-R4 serves both.
pub trait Tableau {
    fn rules(&self) -> &Rules;
    /// The number of cards on pile p, `p < rules().piles`.
    fn height(&self, p: usize) -> usize;
    /// The card at `index` from the top of pile p (0 is the top card); `index < height(p)`.
    fn card_from_top(&self, p: usize, index: usize) -> Card;
    /// The [`top_bit`] of pile p's top card; 0 for an empty pile.
    fn top_bit(&self, p: usize) -> u64;
    /// The OR of every pile's [`Tableau::top_bit`].
    fn tops(&self) -> u64;
    /// The number of cards in the stock.
    fn stock_left(&self) -> usize;
    /// The number of empty piles.
    fn empty_piles(&self) -> usize;
    /// The reserve's card (R2.4), `Card::NONE` when it is empty or the rules have
    /// none; a tableau of rules without a reserve keeps this default.
    #[inline]
    fn reserve(&self) -> Card {
        Card::NONE
    }
    /// Bit p set when pile p is empty, `p < rules().piles`; an implementation may
    /// have a faster way than asking for each height.
    #[inline]
    fn empty_mask(&self) -> u8 {
        let piles = usize::from(self.rules().piles);
        (0..piles).fold(0, |m, p| m | u8::from(self.height(p) == 0) << p)
    }
}

/// `$body` with the const `$p` bound to the number of piles of `$rules`, so that a
/// loop over the piles is compiled once per layout (the four-pile game keeps its
/// unrolled loops).
#[macro_export]
#[doc(hidden)]
macro_rules! by_piles {
    ($rules:expr, $p:ident => $body:expr) => {
        if $rules.piles == 4 {
            const $p: usize = 4;
            $body
        } else {
            const $p: usize = $crate::moves::MAX_PILES;
            $body
        }
    };
}
pub(crate) use by_piles;

/// The number of cards discarded: the deck less the piles, the stock and the
/// reserve (R4.2).
#[inline]
pub(crate) fn score<T: Tableau + ?Sized>(t: &T) -> usize {
    let piles = usize::from(t.rules().piles);
    t.rules().deck_size()
        - t.stock_left()
        - usize::from(t.reserve() != Card::NONE)
        - (0..piles).map(|p| t.height(p)).sum::<usize>()
}

// ---------------------------------------------------------------------------
// R1.2 Rank order

/// The strength of the top rank: the ace, or the king when `ace_high=False`.
pub(crate) const TOP_STRENGTH: u8 = 12;

/// A card's place in the rank order in force (R1.2): 0 for the lowest rank, 12
/// ([`TOP_STRENGTH`]) for the top rank.
#[inline]
pub(crate) fn strength(card: Card, rules: &Rules) -> u8 {
    STRENGTH[usize::from(rules.ace_high)][card.index()]
}

/// Whether a card is of the top rank (R1.2).
#[inline]
pub(crate) fn is_top_rank(card: Card, rules: &Rules) -> bool {
    strength(card, rules) == TOP_STRENGTH
}

/// A card's bit in a mask of top cards: its [`lanes::rising`] bit, `16 × suit +
/// strength`, so each suit has a lane of 16 bits in which a higher card is a higher
/// bit (R1.2).
#[inline]
pub(crate) fn top_bit(card: Card, ace_high: bool) -> u64 {
    top_bits(ace_high)[card.index()]
}

/// Every card's [`top_bit`] by index, under one rank order; 256 entries so that any
/// `u8` index is in bounds (the placeholder `Card::NONE`, 52, and the unused ones
/// above it have none).
pub(crate) type BitTable = [u64; 256];

/// The [`BitTable`] of a rank order.
#[inline]
pub(crate) fn top_bits(ace_high: bool) -> &'static BitTable {
    &TOP_BITS[usize::from(ace_high)]
}

/// `STRENGTH[ace_high][index]`, tabulated because the play-outs ask for it at every move.
static STRENGTH: [[u8; 52]; 2] = {
    let mut table = [[0u8; 52]; 2];
    let mut i = 0;
    while i < 52 {
        let r = (i % 13) as u8; // rank number − 2: the ace is 12
        table[1][i] = r;
        table[0][i] = (r + 1) % 13; // the ace drops to 0 and the king becomes 12
        i += 1;
    }
    table
};

/// `TOP_BITS[ace_high]`: see [`BitTable`].
static TOP_BITS: [BitTable; 2] = {
    let mut table = [[0u64; 256]; 2];
    let mut order = 0;
    while order < 2 {
        let mut i = 0;
        while i < 52 {
            table[order][i] = lanes::rising::bit(i / 13, STRENGTH[order][i]);
            i += 1;
        }
        order += 1;
    }
    table
};

// ---------------------------------------------------------------------------
// R2.1 Discard

/// R2.1: pile `p` is not empty and its top card is lower than the top card of
/// another pile of its suit. One mask test: a pile's top card may go when the bits
/// of all top cards meet its [`stronger_bits`].
#[inline]
pub(crate) fn can_discard<T: Tableau + ?Sized>(t: &T, p: usize) -> bool {
    t.tops() & stronger_bits(t.top_bit(p)) != 0
}

/// Bit p set when pile p may be discarded (R2.1).
#[inline]
pub(crate) fn discard_mask<T: Tableau + ?Sized>(t: &T) -> u8 {
    by_piles!(t.rules(), P => discard_mask_of::<T, P>(t))
}

/// [`discard_mask`] for a layout of `P` piles.
#[inline]
pub(crate) fn discard_mask_of<T: Tableau + ?Sized, const P: usize>(t: &T) -> u8 {
    (0..P).fold(0, |mask, p| mask | (u8::from(can_discard(t, p)) << p))
}

/// The first pile whose top card may be discarded (R2.1, in R3 order).
#[inline]
pub(crate) fn first_discard<T: Tableau + ?Sized>(t: &T) -> Option<usize> {
    let mask = discard_mask(t);
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

// ---------------------------------------------------------------------------
// R2.2 Fill

/// R2.2 conditions 2 and 3: how many cards of pile `src`, counted from the top, may
/// fill an empty pile. A fill from `src` is legal exactly for `index` below this.
#[inline]
pub(crate) fn fill_choices<T: Tableau + ?Sized>(t: &T, src: usize) -> usize {
    let height = t.height(src);
    let rules = t.rules();
    // `&` and `|`, not `&&` and `||`: no branch on the heights, which vary at random
    // in the play-outs.
    let relocate = rules.relocate_single & (t.stock_left() > 0);
    let may_move = (height >= 2) | ((height == 1) & relocate);
    let allowed = match rules.fill {
        FillRule::Top => 1,
        FillRule::Ace => usize::from(t.top_bit(src) & TOP_RANK_BITS != 0), // a top-rank card on top
        FillRule::Any => height,
        // The whole pile (index height − 1) moves only as a lone card does.
        FillRule::Stack => height.saturating_sub(usize::from(!relocate)),
    };
    usize::from(may_move) * allowed
}

/// R2.2: filling empty pile `dst` with the card at `index` (from the top) of `src`.
#[inline]
pub(crate) fn can_fill<T: Tableau + ?Sized>(t: &T, src: usize, dst: usize, index: u64) -> bool {
    let piles = usize::from(t.rules().piles);
    src < piles
        && dst < piles
        && src != dst
        && t.height(dst) == 0
        && index < fill_choices(t, src) as u64
}

/// The first fill from a pile of two or more cards in R3 order, if any: the fills
/// that hold a deal back under `deal="stuck"` (R2.3).
#[inline]
pub(crate) fn blocking_fill<T: Tableau + ?Sized>(t: &T) -> Option<Move> {
    let piles = usize::from(t.rules().piles);
    let dst = (0..piles).find(|&p| t.height(p) == 0)?;
    let src = (0..piles).find(|&p| t.height(p) >= 2 && fill_choices(t, p) > 0)?;
    Some(Move::Fill {
        src: src as u8,
        dst: dst as u8,
        index: 0,
    })
}

// ---------------------------------------------------------------------------
// R2.3 Deal

/// R2.3: the stock is not empty, and unless `deal="any"` no discard is legal, and
/// under `deal="stuck"` no fill from a pile of two or more cards is legal either.
#[inline]
pub(crate) fn can_deal<T: Tableau + ?Sized>(t: &T) -> bool {
    t.stock_left() > 0
        && match t.rules().deal {
            DealRule::Any => true,
            DealRule::Free => first_discard(t).is_none(),
            DealRule::Stuck => first_discard(t).is_none() && blocking_fill(t).is_none(),
        }
}

/// R2.3 ([`can_deal`]) from what it depends on: the deal rule, the stock's
/// length, the mask of legal discards and whether a fill from a pile of two or more
/// cards is legal. Without a branch: the play-outs ask it at every decision.
#[inline(always)]
pub(crate) fn deal_allowed(
    rule: DealRule,
    stock_left: usize,
    discards: u8,
    real_fill: bool,
) -> bool {
    (stock_left > 0)
        & ((rule == DealRule::Any) | ((discards == 0) & ((rule == DealRule::Free) | !real_fill)))
}

/// R2.3 `deal_to` and the stock's length: bit p set when the next deal puts a card
/// on pile p. The receiving piles are every pile (under `"all"`, or when none is
/// empty) or the empty ones (under `"empty"`), the first of them in pile order
/// while the stock lasts. 0 when the stock is empty.
#[inline]
pub(crate) fn deal_targets<T: Tableau + ?Sized>(t: &T) -> u8 {
    let rules = t.rules();
    let piles = usize::from(rules.piles);
    if rules.deal_to == DealTo::All || t.empty_piles() == 0 {
        // Every pile receives: the first min(P, stock) of them.
        return ((1u32 << piles.min(t.stock_left())) - 1) as u8;
    }
    first_bits(t.empty_mask(), t.stock_left())
}

/// The lowest `n` set bits of `bits` (all of them when it has fewer).
#[inline]
fn first_bits(bits: u8, n: usize) -> u8 {
    if n >= bits.count_ones() as usize {
        return bits;
    }
    let mut rest = bits;
    for _ in 0..n {
        rest &= rest - 1;
    }
    bits & !rest
}

// ---------------------------------------------------------------------------
// R2.4 The reserve

/// R2.4: bit p set when the top card of pile p may move to the reserve: the rules
/// have a reserve, it is empty, pile p is not empty, and fewer than D − S cards are
/// discarded (once they are, the reserve has no use and the game ends as R4 says).
/// `empty` is the mask of the empty piles of `t`.
#[inline]
pub(crate) fn to_reserve_mask<T: Tableau + ?Sized>(t: &T, empty: u8) -> u8 {
    let rules = t.rules();
    let open = (rules.reserve > 0) & (t.reserve() == Card::NONE) & (score(t) < rules.win_score());
    let piles = ((1u32 << rules.piles) - 1) as u8;
    if open {
        piles & !empty
    } else {
        0
    }
}

/// R2.4: the reserve holds a card, which may move to any empty pile.
#[inline]
pub(crate) fn reserve_held<T: Tableau + ?Sized>(t: &T) -> bool {
    t.reserve() != Card::NONE
}

// ---------------------------------------------------------------------------
// R3 Legal-move order

/// The legal moves of a position, counted without listing them: discards by pile,
/// fills by source, destination and index, moves to the reserve by pile, moves from
/// it by destination, then the deal (R3). `nth(i)` finds the
/// i-th of them, so a random choice allocates nothing.
///
/// Invariant: for each source, its fills are the `choices[src]` top cards onto each
/// of the `empty.count_ones()` empty piles (a source is never empty when it has a
/// choice, so it is never its own destination); piles the layout lacks have no
/// bit and no choice; with no pile empty every choice is 0 (no fill is legal).
/// Computed with one branch on the position only, whether a pile is empty, since
/// random play makes every such branch a coin toss. Eight bytes, the reserve's
/// moves and the deal sharing one, so that it is copied as one word: the solver
/// returns it from every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    /// Bit p: pile p may be discarded.
    pub discards: u8,
    /// Bit p: pile p is empty.
    pub empty: u8,
    /// `fill_choices` of each source pile.
    pub choices: [u8; MAX_PILES],
    /// The other moves: [`TO_RESERVE`], the bits of the piles whose top card may
    /// move to the reserve (R2.4); [`FROM_RESERVE`], the reserve's card may move to
    /// each empty pile (R2.4); [`DEAL`], the deal.
    others: u8,
}

/// [`LegalMoves::others`]' bits of the piles whose top card may move to the reserve.
const TO_RESERVE: u8 = (1 << MAX_PILES) - 1;
/// [`LegalMoves::others`]' bit of a move from the reserve, above the piles' bits.
const FROM_RESERVE: u8 = 1 << MAX_PILES;
/// [`LegalMoves::others`]' bit of the deal.
const DEAL: u8 = FROM_RESERVE << 1;
const _: () = assert!(
    std::mem::size_of::<LegalMoves>() == 8,
    "LegalMoves is one word"
);

impl LegalMoves {
    /// The legal moves of `t`.
    #[inline]
    pub(crate) fn of<T: Tableau + ?Sized>(t: &T) -> LegalMoves {
        by_piles!(t.rules(), P => LegalMoves::of_piles::<T, P>(t))
    }

    /// [`LegalMoves::of`] for a layout of `P` piles: the moves of the piles, and
    /// those of the reserve when the rules have one (R2.4).
    #[inline]
    pub(crate) fn of_piles<T: Tableau + ?Sized, const P: usize>(t: &T) -> LegalMoves {
        let mut moves = LegalMoves::with_discards::<T, P>(t, discard_mask_of::<T, P>(t));
        if t.rules().reserve > 0 {
            let from = reserve_held(t) & (moves.empty != 0);
            moves.others |= to_reserve_mask(t, moves.empty) | if from { FROM_RESERVE } else { 0 };
        }
        moves
    }

    /// The moves of the piles of `t` (none of the reserve's, R2.4), given
    /// `discards`, the [`discard_mask`] of `t`, for a caller that has it already (the
    /// solver computes it to play the forced discards first): [`LegalMoves::of_piles`]
    /// for the hot loops, which rules with a reserve never reach (the solver, the
    /// play-outs in registers and the random table take other paths for them).
    /// Always inlined: at the solver's every node, a call costs more than the body,
    /// most of which the caller's constants fold away, the reserve's moves included.
    #[inline(always)]
    pub(crate) fn with_discards<T: Tableau + ?Sized, const P: usize>(
        t: &T,
        discards: u8,
    ) -> LegalMoves {
        debug_assert_eq!(discards, discard_mask_of::<T, P>(t));
        let empty = t.empty_mask();
        let mut choices = [0u8; MAX_PILES];
        let mut real_fill = false;
        // Without an empty pile no fill is legal, whatever the choices.
        if empty != 0 {
            for (p, choice) in choices.iter_mut().enumerate().take(P) {
                *choice = fill_choices(t, p) as u8;
                real_fill |= (*choice > 0) & (t.height(p) >= 2);
            }
        }
        let deal = deal_allowed(t.rules().deal, t.stock_left(), discards, real_fill);
        LegalMoves {
            discards,
            empty,
            choices,
            others: if deal { DEAL } else { 0 },
        }
    }

    /// Whether the deal is legal.
    #[inline]
    pub(crate) fn deal(&self) -> bool {
        self.others & DEAL != 0
    }

    /// Bit p: the top card of pile p may move to the reserve (R2.4).
    #[inline]
    fn piles_to_reserve(&self) -> u8 {
        self.others & TO_RESERVE
    }

    /// Whether the reserve's card may move to each empty pile (R2.4).
    #[inline]
    fn reserve_may_leave(&self) -> bool {
        self.others & FROM_RESERVE != 0
    }

    /// The number of moves to and from the reserve (R2.4).
    #[inline]
    fn reserve_moves(&self) -> usize {
        self.piles_to_reserve().count_ones() as usize
            + usize::from(self.reserve_may_leave()) * self.empty.count_ones() as usize
    }

    /// The number of fills from `src`.
    #[inline]
    fn fills_from(&self, src: usize) -> usize {
        usize::from(self.choices[src]) * self.empty.count_ones() as usize
    }

    /// The number of legal moves.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        // Each source's fills go to every empty pile: one count of them for all.
        let choices: usize = self.choices.iter().map(|&c| usize::from(c)).sum();
        self.discards.count_ones() as usize
            + choices * self.empty.count_ones() as usize
            + self.reserve_moves()
            + usize::from(self.deal())
    }

    /// Whether no move is legal: the game is over (R4.1). The reserve's card may
    /// leave only when a pile is empty ([`LegalMoves::of_piles`]), so `others` is 0
    /// exactly when neither the reserve nor the deal has a move.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        debug_assert!(!self.reserve_may_leave() || self.empty != 0);
        (self.discards == 0)
            & (self.others == 0)
            & ((self.empty == 0) | (self.choices == [0; MAX_PILES]))
    }

    /// The first discard, which every built-in strategy plays first.
    #[inline]
    pub(crate) fn first_discard(&self) -> Option<usize> {
        (self.discards != 0).then(|| self.discards.trailing_zeros() as usize)
    }

    /// The `i`-th legal move in R3 order; `i < self.len()`.
    #[inline]
    pub(crate) fn nth(&self, i: usize) -> Move {
        let n_discards = self.discards.count_ones() as usize;
        if i < n_discards {
            return Move::Discard(nth_bit(self.discards, i) as u8);
        }
        let i = i - n_discards;
        // The source whose fills hold the i-th fill: the number of sources whose fills,
        // with those before them, end at or before i; counted without a branch.
        let (mut src, mut before, mut end) = (0, 0, 0);
        for s in 0..MAX_PILES {
            end += self.fills_from(s);
            let past = i >= end;
            src += usize::from(past);
            before = if past { end } else { before };
        }
        if src == MAX_PILES {
            return self.nth_after_fills(i - before);
        }
        let (k, i) = (usize::from(self.choices[src]), i - before);
        let (rank, index) = if k == 1 { (i, 0) } else { (i / k, i % k) };
        Move::Fill {
            src: src as u8,
            dst: nth_bit(self.empty, rank) as u8,
            index: index as u64,
        }
    }

    /// The `i`-th legal move after the fills: the reserve's moves (R2.4), then the deal.
    #[inline]
    fn nth_after_fills(&self, i: usize) -> Move {
        let to = self.piles_to_reserve().count_ones() as usize;
        if i < to {
            return Move::ToReserve(nth_bit(self.piles_to_reserve(), i) as u8);
        }
        if i - to < self.reserve_moves() - to {
            return Move::FromReserve(nth_bit(self.empty, i - to) as u8);
        }
        debug_assert!(self.deal() && i == self.reserve_moves(), "nth beyond len");
        Move::Deal
    }

    /// All the legal moves, in R3 order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.len()).map(|i| self.nth(i))
    }
}

/// The position of the `n`-th set bit (from 0) of a mask of piles; `n` below its count.
#[inline]
pub(crate) fn nth_bit(bits: u8, n: usize) -> usize {
    usize::from(NTH_BIT[usize::from(bits) & 31][n & 7])
}

/// `NTH_BIT[bits][n]`: a table, for it runs at every random decision (rows of 8,
/// so that the index is masked rather than reduced modulo 5).
static NTH_BIT: [[u8; 8]; 32] = {
    let mut table = [[0u8; 8]; 32];
    let mut bits = 0;
    while bits < 32 {
        let (mut n, mut p) = (0, 0);
        while p < MAX_PILES {
            if bits >> p & 1 == 1 {
                table[bits][n] = p as u8;
                n += 1;
            }
            p += 1;
        }
        bits += 1;
    }
    table
};

/// The legal moves of a position in R3 order (R3).
pub(crate) fn legal_moves<T: Tableau + ?Sized>(t: &T) -> Vec<Move> {
    LegalMoves::of(t).iter().collect()
}

// ---------------------------------------------------------------------------
// R4 End of the game

/// R4.1: no move is legal (a won game with a reserve included: R2.4).
pub(crate) fn is_over<T: Tableau + ?Sized>(t: &T) -> bool {
    LegalMoves::of(t).is_empty()
}

/// R4.2: over with D − S cards discarded.
pub(crate) fn is_won<T: Tableau + ?Sized>(t: &T) -> bool {
    score(t) == t.rules().win_score() && is_over(t)
}

// ---------------------------------------------------------------------------
// R7 Illegal moves

/// The R7 message of why `mv` is illegal in `t` (the first reason that applies),
/// or `None` when it is legal.
pub(crate) fn illegal_reason<T: Tableau + ?Sized>(t: &T, mv: Move) -> Option<String> {
    let rules = t.rules();
    let piles = rules.piles;
    let named = match mv {
        Move::Discard(p) => [Some(p), None],
        Move::Fill { src, dst, .. } => [Some(src), Some(dst)],
        Move::ToReserve(p) | Move::FromReserve(p) => [Some(p), None],
        Move::Deal => [None, None],
    };
    if let Some(n) = named.into_iter().flatten().find(|&n| n >= piles) {
        return Some(format!(
            "there is no pile {n}: these rules have {piles} piles"
        ));
    }
    match mv {
        Move::Discard(p) => {
            let p = usize::from(p);
            if t.height(p) == 0 {
                Some(format!("cannot discard from pile {p}: it is empty"))
            } else if !can_discard(t, p) {
                let card = t.card_from_top(p, 0);
                Some(format!(
                    "cannot discard {card} from pile {p}: no higher {} is on top of another pile",
                    SUIT_NAMES[card.suit()]
                ))
            } else {
                None
            }
        }
        Move::Fill { src, dst, index } => {
            let (src, dst) = (usize::from(src), usize::from(dst));
            let height = t.height(src) as u64;
            if t.height(dst) != 0 {
                Some(format!("cannot fill pile {dst}: it is not empty"))
            } else if height == 0 {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: pile {src} is empty"
                ))
            } else if index >= height {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: it has no card at index {index}"
                ))
            } else if index > 0 && matches!(rules.fill, FillRule::Top | FillRule::Ace) {
                Some(format!(
                    "cannot fill pile {dst} with a buried card: fill='{}' moves only the top card",
                    rules.fill.name()
                ))
            } else if height == 1 && !rules.relocate_single {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: its only card may not move"
                ))
            } else if height == 1 && t.stock_left() == 0 {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: its only card may not move once the stock is empty"
                ))
            } else if index + 1 == height && rules.fill == FillRule::Stack && !rules.relocate_single
            {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: the whole pile may not move"
                ))
            } else if index + 1 == height && rules.fill == FillRule::Stack && t.stock_left() == 0 {
                Some(format!(
                    "cannot fill pile {dst} from pile {src}: the whole pile may not move once the stock is empty"
                ))
            } else {
                let card = t.card_from_top(src, index as usize);
                if rules.fill == FillRule::Ace && !is_top_rank(card, rules) {
                    Some(format!(
                        "cannot fill pile {dst} with {card}: fill='ace' lets only a{} {} fill an empty pile",
                        if rules.ace_high { "n" } else { "" },
                        rules.top_rank_name()
                    ))
                } else {
                    debug_assert!(can_fill(t, src, dst, index));
                    None
                }
            }
        }
        Move::ToReserve(src) => {
            let src = usize::from(src);
            if rules.reserve == 0 {
                Some("cannot move to the reserve: these rules have no reserve".to_string())
            } else if t.height(src) == 0 {
                Some(format!(
                    "cannot move pile {src} to the reserve: it is empty"
                ))
            } else if reserve_held(t) {
                Some(format!(
                    "cannot move {} from pile {src} to the reserve: it holds {}",
                    t.card_from_top(src, 0),
                    t.reserve()
                ))
            } else if score(t) == rules.win_score() {
                Some(format!(
                    "cannot move pile {src} to the reserve: the {} cards that may be discarded are",
                    rules.win_score()
                ))
            } else {
                None
            }
        }
        Move::FromReserve(dst) => {
            let dst = usize::from(dst);
            if rules.reserve == 0 {
                Some("cannot move from the reserve: these rules have no reserve".to_string())
            } else if !reserve_held(t) {
                Some(format!(
                    "cannot move from the reserve to pile {dst}: the reserve is empty"
                ))
            } else if t.height(dst) != 0 {
                Some(format!(
                    "cannot move {} from the reserve to pile {dst}: it is not empty",
                    t.reserve()
                ))
            } else {
                None
            }
        }
        Move::Deal => {
            if t.stock_left() == 0 {
                return Some("cannot deal: the stock is empty".to_string());
            }
            if rules.deal == DealRule::Any {
                return None;
            }
            if let Some(p) = first_discard(t) {
                Some(format!("cannot deal: pile {p} must be discarded first"))
            } else if let (DealRule::Stuck, Some(fill)) = (rules.deal, blocking_fill(t)) {
                Some(format!(
                    "cannot deal: deal='stuck' and a fill is still possible ({fill})"
                ))
            } else {
                None
            }
        }
    }
}

/// Every combination of the options, the layouts included (2 × 4 × 3 × 2 × 2
/// rule options × 2 pile counts × a few decks), for the tests of every module.
#[cfg(test)]
pub(crate) fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for fill in [FillRule::Top, FillRule::Ace, FillRule::Any, FillRule::Stack] {
        for deal in [DealRule::Free, DealRule::Stuck, DealRule::Any] {
            for deal_to in [DealTo::All, DealTo::Empty] {
                for relocate_single in [false, true] {
                    for ace_high in [false, true] {
                        for (piles, suits, ranks) in [
                            (4, 4, 13),
                            (5, 4, 13),
                            (4, 2, 5),
                            (5, 3, 4),
                            (4, 1, 4),
                            (5, 4, 3),
                        ] {
                            out.push(Rules {
                                fill,
                                deal,
                                relocate_single,
                                ace_high,
                                piles,
                                suits,
                                ranks,
                                deal_to,
                                reserve: 0,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Positions of every rule set for the tests of other modules.
#[cfg(test)]
pub(crate) use tests::sample_positions;

#[cfg(test)]
#[path = "tests/rules.rs"]
mod tests;
