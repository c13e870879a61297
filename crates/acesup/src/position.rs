//! Positions (RULES.md R6.5, R6.6): piles, stock and discards under a set of rules,
//! and the moves applied to them.

use crate::cards::{card_set_problem, is_space, py_repr, Card, DECK_SIZE, SUIT_SYMBOLS};
use crate::moves::{Move, MAX_PILES};
use crate::rules::{self, by_piles, DealTo, FillRule, Rules, Tableau};
use crate::{Error, ErrorKind, Result};
use std::fmt;
use std::ops::Deref;

mod play_out;
pub(crate) use play_out::PlayOut;

/// The places of each card array of a [`Position`]: 52 cards and the placeholder
/// fit, and an index masked by [`at`] needs no bounds check in the hot loop.
const CAP: usize = 64;

/// An index into an array of [`CAP`] places (always below 53: the mask only tells
/// the compiler so).
#[inline]
fn at(i: usize) -> usize {
    i & (CAP - 1)
}

/// A position: the piles, the stock, the discards and the rules (R6.5).
///
/// Compact (240 bytes, see the `position_is_compact` test), so that copying one,
/// as montecarlo and greedy do per candidate, is cheap, and fixed-size, so that
/// playing a game allocates nothing. Each pile is a linked list over the cards,
/// so a pile may hold any number of the 52 cards (a position from text may hold
/// tall piles) in a place per card rather than per card and pile.
///
/// Invariants (see [`Position::check_invariants`], run by the tests):
/// - pile p is `top[p]`, then `below[top[p]]`, `below[below[top[p]]]`, ... down to
///   the placeholder `Card::NONE`, `heights[p]` cards in all (`top[p] == NONE`
///   exactly when the pile is empty; `below[NONE] == NONE`, so that the card under
///   an empty pile's top is again none); piles the layout lacks are empty;
/// - `stock[stock_next..stock_end]` is the stock in deal order (the dealt cards
///   stay before it), `discards[..n_discards]` the discards in order; piles, stock
///   and discards hold the cards of the layout's deck, each once;
/// - `tops` is the union of the top cards' [`rules::top_bit`]s: bit 16·s + k is
///   set exactly when some pile's top card is of suit s and strength k (R1.2, under
///   `rules`). So pile p may be discarded exactly when `tops` meets the
///   [`rules::stronger_bits`] of its top card's bit (R2.1): a subtraction and an AND;
/// - `empty` is the number of empty piles of the layout;
/// - bit i of `deal_starts` is set when a deal played since the position was made
///   began at `stock[i]` (so below `stock_next`): the deal of `stock[i..next]`, the
///   cards dealt since, which [`Position::unapply`] takes back from the tops they
///   are on. Not part of the position: equality and text ignore it;
/// - `reserve` is the reserve's card (R2.4), `Card::NONE` when it is empty or the
///   rules have none; it is on no pile, so it has no bit in `tops`.
#[derive(Clone)]
pub struct Position {
    pub(crate) rules: Rules,
    tops: u64,
    deal_starts: u64,
    /// `rules::top_bits(rules.ace_high)`, looked up once.
    bit_of: &'static rules::BitTable,
    top: [Card; MAX_PILES],
    heights: [u8; MAX_PILES],
    stock_next: u8,
    stock_end: u8,
    n_discards: u8,
    empty: u8,
    reserve: Card,
    below: [Card; CAP],
    stock: [Card; CAP],
    discards: [Card; CAP],
}

/// The cards of a pile, bottom to top: a small copy, since a [`Position`] keeps its
/// piles as linked lists. Dereferences to a slice.
#[derive(Clone, Copy)]
pub struct Pile {
    cards: [Card; DECK_SIZE],
    len: u8,
}

impl Deref for Pile {
    type Target = [Card];

    #[inline]
    fn deref(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl PartialEq for Pile {
    fn eq(&self, other: &Pile) -> bool {
        **self == **other
    }
}

impl Eq for Pile {}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Tableau for Position {
    #[inline]
    fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline]
    fn height(&self, p: usize) -> usize {
        usize::from(self.heights[p])
    }

    #[inline]
    fn card_from_top(&self, p: usize, index: usize) -> Card {
        (0..index).fold(self.top[p], |card, _| self.below[at(card.index())])
    }

    #[inline]
    fn top_bit(&self, p: usize) -> u64 {
        self.bit_of[self.top[p].index()]
    }

    #[inline]
    fn tops(&self) -> u64 {
        self.tops
    }

    #[inline]
    fn stock_left(&self) -> usize {
        usize::from(self.stock_end - self.stock_next)
    }

    #[inline]
    fn empty_piles(&self) -> usize {
        usize::from(self.empty)
    }

    #[inline]
    fn reserve(&self) -> Card {
        self.reserve
    }
}

impl Position {
    /// The start of a game dealt from `deck`, a deck of the layout of `rules`
    /// (R1.3; the caller has checked it).
    pub fn from_deck(deck: &[Card], rules: Rules) -> Position {
        let mut pos = Position::blank(rules);
        pos.deal_from(deck);
        pos
    }

    /// Empty piles, an empty stock and no discards: to be filled in.
    fn blank(rules: Rules) -> Position {
        Position {
            rules,
            tops: 0,
            deal_starts: 0,
            bit_of: rules::top_bits(rules.ace_high),
            top: [Card::NONE; MAX_PILES],
            heights: [0; MAX_PILES],
            stock_next: 0,
            stock_end: 0,
            n_discards: 0,
            empty: rules.piles,
            reserve: Card::NONE,
            below: [Card::NONE; CAP],
            stock: [Card::default(); CAP],
            discards: [Card::default(); CAP],
        }
    }

    /// Reset to the start of a game dealt from `deck` (of the layout's D cards),
    /// keeping the rules; what a play-out does at each game instead of building a
    /// new position.
    #[inline]
    pub(crate) fn deal_from(&mut self, deck: &[Card]) {
        by_piles!(self.rules, P => self.deal_from_piles::<P>(deck))
    }

    /// [`Position::deal_from`] for a layout of `P` piles.
    #[inline]
    fn deal_from_piles<const P: usize>(&mut self, deck: &[Card]) {
        debug_assert_eq!(deck.len(), self.rules.deck_size());
        let stock = deck.len() - P;
        self.stock[..stock].copy_from_slice(&deck[P..]);
        self.stock_next = 0;
        self.stock_end = stock as u8;
        self.n_discards = 0;
        self.deal_starts = 0;
        let mut tops = 0;
        for (p, &card) in deck[..P].iter().enumerate() {
            self.top[p] = card;
            self.below[at(card.index())] = Card::NONE;
            self.heights[p] = 1;
            tops |= self.bit_of[card.index()];
        }
        self.tops = tops;
        self.empty = 0;
        self.reserve = Card::NONE;
    }

    /// Put the stock's cards in the order of `stock`, which holds the same cards: a
    /// guess of the order that montecarlo plays on. Nothing else depends on it.
    #[inline]
    pub(crate) fn set_stock_order(&mut self, stock: &[Card]) {
        let next = usize::from(self.stock_next);
        self.stock[next..usize::from(self.stock_end)].copy_from_slice(stock);
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// A position from its parts (`piles` holds one pile per pile of the layout,
    /// `reserve` the reserve's cards), checked as R6.5 demands: each card of the
    /// layout's deck exactly once and no other, a stock length that a deal can leave,
    /// no top-rank card among the discards, no more cards in the reserve than it has
    /// cells. `PositionError` otherwise.
    pub(crate) fn from_parts(
        rules: Rules,
        piles: &[Vec<Card>],
        stock: &[Card],
        discards: &[Card],
        reserve: &[Card],
    ) -> Result<Position> {
        let error = |message: String| Err(Error::new(ErrorKind::Position, message));
        let n = usize::from(rules.piles);
        if piles.len() != n {
            return error(format!(
                "a position under these rules has {n} piles, got {}",
                piles.len()
            ));
        }
        let all: Vec<Card> = piles
            .iter()
            .flatten()
            .chain(stock)
            .chain(discards)
            .chain(reserve)
            .copied()
            .collect();
        if let Some(problem) = card_set_problem(&all, &rules.deck(), "the position") {
            return error(problem);
        }
        if let Some(problem) = stock_length_problem(stock.len(), &rules) {
            return error(problem);
        }
        if let Some(card) = discards.iter().find(|c| rules::is_top_rank(**c, &rules)) {
            return error(format!(
                "the discards hold {card}, a top-rank card, which is never discarded"
            ));
        }
        if reserve.len() > usize::from(rules.reserve) {
            return error(format!(
                "the reserve holds {} cards, more than its {} cells",
                reserve.len(),
                rules.reserve
            ));
        }
        let mut pos = Position::blank(rules);
        for (p, pile) in piles.iter().enumerate() {
            for &card in pile {
                pos.push(p, card);
            }
        }
        pos.stock[..stock.len()].copy_from_slice(stock);
        pos.stock_end = stock.len() as u8;
        pos.discards[..discards.len()].copy_from_slice(discards);
        pos.n_discards = discards.len() as u8;
        pos.reserve = reserve.first().copied().unwrap_or(Card::NONE);
        Ok(pos)
    }

    /// Parse the one-line text form (R6.5), whose fields may be separated by any
    /// white space: `PositionError` when the text is malformed or the position
    /// impossible.
    pub fn parse(text: &str) -> Result<Position> {
        let error = |message: String| Error::new(ErrorKind::Position, message);
        let fields: Vec<&str> = text.split(is_space).filter(|f| !f.is_empty()).collect();
        let wrong_count = |reserve: bool| {
            let (n, names) = if reserve {
                (5, "piles, stock, discards, reserve, rules")
            } else {
                (4, "piles, stock, discards, rules")
            };
            error(format!(
                "a position {}has {n} fields ({names}) separated by spaces, got {} in {}",
                if reserve { "with a reserve " } else { "" },
                fields.len(),
                py_repr(text)
            ))
        };
        let (4 | 5) = fields.len() else {
            return Err(wrong_count(false));
        };
        let rules = fields[fields.len() - 1];
        let rules = Rules::parse(rules)
            .map_err(|e| error(format!("the rules field {}: {}", py_repr(rules), e.message)))?;
        if fields.len() != 4 + usize::from(rules.reserve) {
            return Err(wrong_count(rules.reserve > 0));
        }
        let (piles, stock, discards) = (fields[0], fields[1], fields[2]);
        let pile_fields: Vec<&str> = piles.split('/').collect();
        if pile_fields.len() != usize::from(rules.piles) {
            return Err(error(format!(
                "the piles field has {} piles separated by '/', got {} in {}",
                rules.piles,
                pile_fields.len(),
                py_repr(piles)
            )));
        }
        let cards = |field: &str, what: &str| -> Result<Vec<Card>> {
            if field == "-" {
                return Ok(Vec::new());
            }
            let chars: Vec<char> = field.chars().collect();
            if chars.is_empty() || !chars.len().is_multiple_of(2) {
                return Err(error(format!(
                    "{what} {} is neither '-' nor a run of two-character cards",
                    py_repr(field)
                )));
            }
            chars
                .chunks(2)
                .map(|pair| {
                    Card::parse(&pair.iter().collect::<String>())
                        .map_err(|e| error(format!("{what}: {e}")))
                })
                .collect()
        };
        let pile_cards = pile_fields
            .iter()
            .enumerate()
            .map(|(p, field)| cards(field, &format!("pile {p}")))
            .collect::<Result<Vec<_>>>()?;
        let stock = cards(stock, "the stock")?;
        let discards = cards(discards, "the discards")?;
        let reserve = match rules.reserve {
            0 => Vec::new(),
            _ => cards(fields[3], "the reserve")?,
        };
        Position::from_parts(rules, &pile_cards, &stock, &discards, &reserve)
    }

    // --- Reading ---

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of piles of the layout.
    #[inline]
    pub fn piles(&self) -> usize {
        usize::from(self.rules.piles)
    }

    /// Pile `p` (below [`Position::piles`]), bottom to top.
    pub fn pile(&self, p: usize) -> Pile {
        let len = self.heights[p];
        let mut pile = Pile {
            cards: [Card::NONE; DECK_SIZE],
            len,
        };
        for (place, card) in pile.cards[..usize::from(len)]
            .iter_mut()
            .rev()
            .zip(self.cards_from_top(p))
        {
            *place = card;
        }
        pile
    }

    /// The cards of pile `p` from the top down, read in place (no copy, unlike
    /// [`Position::pile`]).
    #[inline]
    pub(crate) fn cards_from_top(&self, p: usize) -> impl Iterator<Item = Card> + '_ {
        let mut card = self.top[p];
        (0..self.heights[p]).map(move |_| {
            let this = card;
            card = self.below[at(this.index())];
            this
        })
    }

    #[inline]
    pub(crate) fn height(&self, p: usize) -> usize {
        Tableau::height(self, p)
    }

    /// The top card of pile `p`, if any.
    #[inline]
    pub(crate) fn top(&self, p: usize) -> Option<Card> {
        Some(self.top[p]).filter(|&card| card != Card::NONE)
    }

    /// The card at `index` from the top of pile `p`; `index < height(p)`.
    #[inline]
    pub(crate) fn card_from_top(&self, p: usize, index: usize) -> Card {
        Tableau::card_from_top(self, p, index)
    }

    /// The stock, in deal order.
    #[inline]
    pub fn stock(&self) -> &[Card] {
        &self.stock[usize::from(self.stock_next)..usize::from(self.stock_end)]
    }

    /// The discards, in discard order.
    pub fn discards(&self) -> &[Card] {
        &self.discards[..usize::from(self.n_discards)]
    }

    /// The reserve's card, if it holds one (R2.4).
    #[inline]
    pub fn reserve_card(&self) -> Option<Card> {
        Some(self.reserve).filter(|&card| card != Card::NONE)
    }

    /// The number of cards discarded (R4.2).
    #[inline]
    pub(crate) fn score(&self) -> usize {
        usize::from(self.n_discards)
    }

    /// The number of empty piles.
    #[inline]
    pub(crate) fn empty_piles(&self) -> usize {
        usize::from(self.empty)
    }

    pub(crate) fn legal_moves(&self) -> Vec<Move> {
        rules::legal_moves(self)
    }

    /// Whether no move is legal (R4.1).
    pub(crate) fn is_over(&self) -> bool {
        rules::is_over(self)
    }

    /// Over with D − S cards discarded (R4.2).
    pub(crate) fn is_won(&self) -> bool {
        self.score() == self.rules.win_score() && self.is_over()
    }

    // --- Playing ---

    /// Play `mv`: `IllegalMoveError` with the R7 reason, the position unchanged.
    pub(crate) fn play(&mut self, mv: Move) -> Result<()> {
        if let Some(reason) = rules::illegal_reason(self, mv) {
            return Err(Error::new(ErrorKind::IllegalMove, reason));
        }
        self.apply(mv);
        Ok(())
    }

    /// Play a move known to be legal.
    #[inline]
    pub(crate) fn apply(&mut self, mv: Move) {
        by_piles!(self.rules, P => self.apply_piles::<P>(mv))
    }

    /// [`Position::apply`] for a layout of `P` piles.
    #[inline]
    pub(crate) fn apply_piles<const P: usize>(&mut self, mv: Move) {
        debug_assert!(
            rules::illegal_reason(self, mv).is_none(),
            "{mv} is illegal in {}",
            self.to_text()
        );
        match mv {
            Move::Discard(p) => {
                let card = self.pop(usize::from(p));
                self.discards[at(usize::from(self.n_discards))] = card;
                self.n_discards += 1;
            }
            // Under `fill="stack"` the cards above the one at `index` go with it.
            Move::Fill { src, dst, index } if index > 0 && self.rules.fill == FillRule::Stack => {
                self.lift(usize::from(src), usize::from(dst), index as usize + 1);
            }
            Move::Fill { src, dst, index } => {
                let card = self.take(usize::from(src), index as usize);
                self.push(usize::from(dst), card);
            }
            Move::ToReserve(src) => self.reserve = self.pop(usize::from(src)),
            Move::FromReserve(dst) => {
                self.push(usize::from(dst), self.reserve);
                self.reserve = Card::NONE;
            }
            Move::Deal => self.deal_piles::<P>(),
        }
    }

    /// Deal (R2.3), known to be legal: a stock card onto each pile of
    /// [`rules::deal_targets`].
    #[inline]
    pub(crate) fn deal(&mut self) {
        by_piles!(self.rules, P => self.deal_piles::<P>())
    }

    /// [`Position::deal`] for a layout of `P` piles. The commonest deal, a card on
    /// every pile, is a loop without a branch; the others (a partial last deal,
    /// `deal_to="empty"` with an empty pile) push card by card.
    #[inline]
    pub(crate) fn deal_piles<const P: usize>(&mut self) {
        let next = usize::from(self.stock_next);
        self.deal_starts |= 1 << next;
        let every_pile = (self.rules.deal_to == DealTo::All) | (self.empty == 0);
        if every_pile & (self.stock_left() >= P) {
            let mut tops = 0;
            for p in 0..P {
                let card = self.stock[at(next + p)];
                self.below[at(card.index())] = self.top[p];
                self.top[p] = card;
                self.heights[p] += 1;
                tops |= self.bit_of[card.index()];
            }
            self.tops = tops;
            self.stock_next += P as u8;
            self.empty = 0;
            return;
        }
        let targets = rules::deal_targets(self);
        for p in (0..MAX_PILES).filter(|&p| targets >> p & 1 == 1) {
            let card = self.stock[at(usize::from(self.stock_next))];
            self.push(p, card);
            self.stock_next += 1;
        }
    }

    /// Ask the processor to fetch the parts of the position that the next move reads
    /// (`piles`: all of it; else the counts and tops), so that a loop over many
    /// positions (a batch of games) waits for memory once, not per line. Changes
    /// nothing; a no-op off x86-64.
    #[inline]
    pub(crate) fn prefetch(&self, piles: bool) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = std::ptr::from_ref(self).cast::<u8>();
            let lines = if piles {
                std::mem::size_of::<Position>().div_ceil(64)
            } else {
                1
            };
            for line in 0..lines {
                // SAFETY: a prefetch never faults, and the address is inside `self`.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(64 * line).cast()) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = piles;
    }

    /// Take back `mv`, the last move played.
    pub(crate) fn unapply(&mut self, mv: Move) {
        match mv {
            Move::Discard(p) => {
                self.n_discards -= 1;
                self.push(
                    usize::from(p),
                    self.discards[at(usize::from(self.n_discards))],
                );
            }
            Move::Fill { src, dst, index } if index > 0 && self.rules.fill == FillRule::Stack => {
                self.lift(usize::from(dst), usize::from(src), index as usize + 1);
            }
            Move::Fill { src, dst, index } => {
                let card = self.pop(usize::from(dst));
                self.insert(usize::from(src), index as usize, card);
            }
            Move::ToReserve(src) => {
                self.push(usize::from(src), self.reserve);
                self.reserve = Card::NONE;
            }
            Move::FromReserve(dst) => self.reserve = self.pop(usize::from(dst)),
            Move::Deal => {
                // The last deal began at the highest recorded start; its cards are
                // still on top of the piles they went to.
                let start = 63 - self.deal_starts.leading_zeros() as u8;
                self.deal_starts &= !(1 << start);
                while self.stock_next > start {
                    self.stock_next -= 1;
                    let card = self.stock[at(usize::from(self.stock_next))];
                    let p = (0..self.piles())
                        .find(|&p| self.top[p] == card)
                        .expect("a dealt card is on top of a pile");
                    self.pop(p);
                }
            }
        }
    }

    /// Put `card` on top of pile `p`, keeping the masks and the empty count.
    #[inline]
    fn push(&mut self, p: usize, card: Card) {
        let old = self.top[p];
        self.empty -= u8::from(old == Card::NONE);
        self.tops ^= self.bit_of[old.index()] ^ self.bit_of[card.index()];
        self.below[at(card.index())] = old;
        self.top[p] = card;
        self.heights[p] += 1;
    }

    /// Take the top card of the non-empty pile `p`, keeping the masks and the empty count.
    #[inline]
    fn pop(&mut self, p: usize) -> Card {
        let card = self.top[p];
        let under = self.below[at(card.index())];
        self.top[p] = under;
        self.heights[p] -= 1;
        self.empty += u8::from(under == Card::NONE);
        self.tops ^= self.bit_of[card.index()] ^ self.bit_of[under.index()]; // the placeholder's is 0
        card
    }

    /// Move the top `count` cards of pile `from` (it holds that many), together and
    /// in their order, onto pile `to`: a `fill="stack"` fill, and its undo. Keeps
    /// the masks and the empty count; the moved top card stays a top card.
    fn lift(&mut self, from: usize, to: usize, count: usize) {
        let (moved, onto) = (self.top[from], self.top[to]);
        let bottom = self.card_from_top(from, count - 1);
        let under = self.below[at(bottom.index())];
        self.below[at(bottom.index())] = onto;
        self.top[to] = moved;
        self.top[from] = under;
        self.heights[to] += count as u8;
        self.heights[from] -= count as u8;
        self.empty = self.empty + u8::from(under == Card::NONE) - u8::from(onto == Card::NONE);
        self.tops ^= self.bit_of[under.index()] ^ self.bit_of[onto.index()]; // the placeholder's is 0
    }

    /// Take the card at `index` from the top of pile `p`; the cards above it close up.
    #[inline]
    fn take(&mut self, p: usize, index: usize) -> Card {
        if index == 0 {
            return self.pop(p);
        }
        // A buried card: the top card, and so the masks, stay.
        let above = self.card_from_top(p, index - 1);
        let card = self.below[at(above.index())];
        self.below[at(above.index())] = self.below[at(card.index())];
        self.heights[p] -= 1;
        card
    }

    /// Put `card` back at `index` from the top of pile `p` (the inverse of `take`).
    fn insert(&mut self, p: usize, index: usize, card: Card) {
        if index == 0 {
            return self.push(p, card);
        }
        let above = self.card_from_top(p, index - 1);
        self.below[at(card.index())] = self.below[at(above.index())];
        self.below[at(above.index())] = card;
        self.heights[p] += 1;
    }

    // --- Text ---

    /// The one-line text form (R6.5).
    pub fn to_text(&self) -> String {
        fn run(cards: &[Card]) -> String {
            if cards.is_empty() {
                "-".to_string()
            } else {
                cards.iter().map(Card::to_string).collect()
            }
        }
        let piles: Vec<String> = (0..self.piles()).map(|p| run(&self.pile(p))).collect();
        // The reserve's field (R6.5) only under rules that have one.
        let reserve = match self.rules.reserve {
            0 => String::new(),
            _ => format!(" {}", run(self.reserve_card().as_slice())),
        };
        format!(
            "{} {} {}{reserve} {}",
            piles.join("/"),
            run(self.stock()),
            run(self.discards()),
            self.rules
        )
    }

    /// The tableau for people (R6.6).
    pub(crate) fn tableau(&self) -> String {
        let piles = self.piles();
        let rows = (0..piles).map(|p| self.height(p)).max().unwrap_or(0).max(1);
        let mut out = String::new();
        for row in 0..rows {
            let cells: Vec<String> = (0..piles)
                .map(|p| match self.pile(p).get(row) {
                    Some(card) => format!("{}{}", card.rank_char(), SUIT_SYMBOLS[card.suit()]),
                    None if row == 0 => "--".to_string(),
                    None => "  ".to_string(),
                })
                .collect();
            out.push_str(cells.join("  ").trim_end_matches(' '));
            out.push('\n');
        }
        out.push_str(&format!(
            "stock {}  discards {}",
            self.stock().len(),
            self.score()
        ));
        if self.rules.reserve > 0 {
            out.push_str("  reserve ");
            out.push_str(&match self.reserve_card() {
                Some(card) => format!("{}{}", card.rank_char(), SUIT_SYMBOLS[card.suit()]),
                None => "--".to_string(),
            });
        }
        out
    }

    /// Panic unless the invariants of the representation hold (for the tests, and
    /// for the debug builds' check in [`Position::set_stock_order`]).
    #[cfg(any(test, debug_assertions))]
    pub(crate) fn check_invariants(&self) {
        let text = self.to_text();
        assert_eq!(self.below[Card::NONE.index()], Card::NONE, "{text}");
        let mut tops = 0;
        for p in 0..MAX_PILES {
            if p >= self.piles() {
                assert_eq!(self.height(p), 0, "pile {p} beyond the layout");
            }
            // The chain from the top reaches the placeholder after `height` cards.
            let mut card = self.top[p];
            for i in 0..self.height(p) {
                assert!(
                    card.index() < DECK_SIZE,
                    "pile {p} ends after {i} cards in {text}"
                );
                card = self.below[card.index()];
            }
            assert_eq!(
                card,
                Card::NONE,
                "pile {p} is taller than its height in {text}"
            );
            tops |=
                rules::top_bit(self.top[p], self.rules.ace_high) * u64::from(self.height(p) > 0);
        }
        assert_eq!(self.tops, tops, "top masks of {text}");
        assert_eq!(
            self.empty_piles(),
            (0..self.piles()).filter(|&p| self.height(p) == 0).count()
        );
        assert!(
            self.deal_starts >> self.stock_next == 0,
            "a deal recorded past the stock's start in {text}"
        );
        let mut all: Vec<Card> = (0..self.piles())
            .flat_map(|p| self.pile(p).to_vec())
            .collect();
        all.extend_from_slice(self.stock());
        all.extend_from_slice(self.discards());
        all.extend(self.reserve_card());
        all.sort();
        assert_eq!(all, self.rules.deck(), "cards of {text}");
        assert!(all.len() <= DECK_SIZE);
    }
}

/// Why a stock of `len` cards is one that no deal leaves under `rules` (R6.5), or
/// `None` when a deal can leave it: under `deal_to="all"` 0 or D − P − kP (k ≥ 0),
/// under `deal_to="empty"` any length up to D − P.
fn stock_length_problem(len: usize, rules: &Rules) -> Option<String> {
    let (piles, first) = (
        usize::from(rules.piles),
        rules.deck_size() - usize::from(rules.piles),
    );
    if len > first {
        return Some(format!(
            "the stock holds {len} cards, more than the {first} left after the first cards of the piles"
        ));
    }
    let leaves = len == 0 || rules.deal_to == DealTo::Empty || (first - len).is_multiple_of(piles);
    (!leaves).then(|| {
        format!(
            "the stock holds {len} cards, which no deal leaves: under deal_to='all' it holds 0 or \
             {first} less a multiple of {piles}"
        )
    })
}

impl PartialEq for Position {
    /// Same piles, stock, discards and rules (the representation's spare places and
    /// the record of deals do not count).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && (0..self.piles()).all(|p| self.pile(p) == other.pile(p))
            && self.stock() == other.stock()
            && self.discards() == other.discards()
            && self.reserve == other.reserve
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

/// A position with these piles (R6.5 text, e.g. `7s/-/3d5h/Ac`) under these rules
/// (R6.4 text), the other cards of the layout in the stock but for the few that no
/// deal leaves there, which are discards (the top-rank cards go to the stock first).
#[cfg(test)]
pub(crate) fn position_with_piles(piles: &str, rules: &str) -> Position {
    let rules = Rules::parse(rules).unwrap();
    let text = piles.replace('-', "");
    let piles: Vec<Vec<Card>> = text
        .split('/')
        .map(|pile| {
            pile.as_bytes()
                .chunks(2)
                .map(|c| Card::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .collect()
        })
        .collect();
    let mut rest: Vec<Card> = rules
        .deck()
        .into_iter()
        .filter(|c| !piles.iter().flatten().any(|p| p == c))
        .collect();
    rest.sort_by_key(|&c| !rules::is_top_rank(c, &rules));
    let stock_len = (0..=rest.len())
        .rev()
        .find(|&n| stock_length_problem(n, &rules).is_none())
        .unwrap();
    let discards = rest.split_off(stock_len);
    Position::from_parts(rules, &piles, &rest, &discards, &[]).unwrap()
}

#[cfg(test)]
#[path = "tests/position.rs"]
mod tests;
