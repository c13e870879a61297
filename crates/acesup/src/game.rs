//! Moves (RULES.md R2, R6.3), positions (R6.5, R6.6) and games: a position with
//! its history of moves and its strategy stream (RNG.md).

use crate::cards::{
    card_set_problem, check_deck, is_space, py_repr, strip, Card, DECK_SIZE, SUIT_SYMBOLS,
};
use crate::rng::{deck_from_seed_and_stream, Rng};
use crate::rules::{self, LegalMoves, Rules};
use crate::strategies::Strategy;
use crate::{Error, ErrorKind, Result};
use std::fmt;

/// The number of piles.
pub const PILES: usize = 4;

/// The places of each card array of a [`Position`]: 52 cards and the placeholder
/// fit, and an index masked by [`at`] needs no bounds check in the hot loop.
const CAP: usize = 64;

/// An index into an array of [`CAP`] places (always below 53: the mask only tells
/// the compiler so).
#[inline]
fn at(i: usize) -> usize {
    i & (CAP - 1)
}

// ---------------------------------------------------------------------------
// Moves

/// A move (R2). Variants and fields are declared in R3 order, so the derived
/// ordering is the order of `legal_moves()`. Built through [`Move::discard`],
/// [`Move::fill`] or [`Move::parse`], piles are 0..3 and a fill's source differs
/// from its destination; `index` counts from the top of the source pile.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    Discard(u8),
    Fill { src: u8, dst: u8, index: u64 },
    Deal,
}

impl Move {
    /// `Move.discard(pile)`: `MoveError` for a pile outside 0..3.
    pub fn discard(pile: i128) -> Result<Move> {
        Ok(Move::Discard(pile_number("pile", pile)?))
    }

    /// `Move.fill(src, dst, index)`: `MoveError` for a pile outside 0..3, a negative
    /// index (or one of 2⁶⁴ or more, which no position can use) or a fill onto its
    /// own pile, checked in this order.
    pub fn fill(src: i128, dst: i128, index: i128) -> Result<Move> {
        let (src, dst) = (pile_number("src", src)?, pile_number("dst", dst)?);
        if index < 0 {
            return Err(move_error(format!(
                "index must be a non-negative int, got {index}"
            )));
        }
        let index = u64::try_from(index).map_err(|_| index_too_large(index))?;
        if src == dst {
            return Err(move_error(format!(
                "a fill moves a card to another pile, got src = dst = {src}"
            )));
        }
        Ok(Move::Fill { src, dst, index })
    }

    /// Parse the text form (R6.3): `d2`, `f2>0`, `f2:3>0`, `deal`, ignoring
    /// surrounding white space and case. `MoveError` for text that is not a move
    /// (numbers have at most 20 digits), a pile outside 0-3, a negative index or a
    /// fill onto its own pile.
    pub fn parse(text: &str) -> Result<Move> {
        let shown = py_repr(text);
        let not_a_move = || {
            move_error(format!(
                "not a move: {shown} (expected d<pile>, f<src>><dst>, f<src>:<index>><dst> or deal, \
                 e.g. 'd2', 'f2>0', 'f2:3>0')"
            ))
        };
        let lower = strip(text).to_ascii_lowercase();
        let made = if lower == "deal" {
            Ok(Move::Deal)
        } else if let Some(pile) = lower.strip_prefix('d') {
            Move::discard(number(pile).ok_or_else(not_a_move)?)
        } else {
            let body = lower.strip_prefix('f').ok_or_else(not_a_move)?;
            let (from, dst) = body.split_once('>').ok_or_else(not_a_move)?;
            let (src, index) = match from.split_once(':') {
                Some((src, index)) => (src, number(index).ok_or_else(not_a_move)?),
                None => (from, 0),
            };
            Move::fill(
                number(src).ok_or_else(not_a_move)?,
                number(dst).ok_or_else(not_a_move)?,
                index,
            )
        };
        made.map_err(|err| move_error(format!("not a move: {shown} ({err})")))
    }

    /// Err(`MoveError`) for a move that cannot exist in any position, which only
    /// Rust code can build (the constructors refuse them).
    pub fn validate(self) -> Result<()> {
        match self {
            Move::Discard(p) => Move::discard(p.into()).map(|_| ()),
            Move::Fill { src, dst, index } => {
                Move::fill(src.into(), dst.into(), index.into()).map(|_| ())
            }
            Move::Deal => Ok(()),
        }
    }

    /// `"discard"`, `"fill"` or `"deal"`.
    pub fn kind(self) -> &'static str {
        match self {
            Move::Discard(_) => "discard",
            Move::Fill { .. } => "fill",
            Move::Deal => "deal",
        }
    }

    /// The Python `repr`: `Move.discard(2)`, `Move.fill(2, 0, index=3)`, `Move.deal()`.
    pub fn repr(self) -> String {
        match self {
            Move::Discard(p) => format!("Move.discard({p})"),
            Move::Fill { src, dst, index: 0 } => format!("Move.fill({src}, {dst})"),
            Move::Fill { src, dst, index } => format!("Move.fill({src}, {dst}, index={index})"),
            Move::Deal => "Move.deal()".to_string(),
        }
    }
}

impl fmt::Display for Move {
    /// The R6.3 text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Discard(p) => write!(f, "d{p}"),
            Move::Fill { src, dst, index: 0 } => write!(f, "f{src}>{dst}"),
            Move::Fill { src, dst, index } => write!(f, "f{src}:{index}>{dst}"),
            Move::Deal => f.write_str("deal"),
        }
    }
}

fn move_error(message: String) -> Error {
    Error::new(ErrorKind::Move, message)
}

/// The `MoveError` of a pile argument outside 0..3; `shown` is the value as the
/// user wrote it.
pub fn pile_error(name: &str, shown: impl fmt::Display) -> Error {
    move_error(format!("{name} must be an int from 0 to 3, got {shown}"))
}

/// The `MoveError` of an index of 2⁶⁴ or more (a move no position can use, which
/// the engine does not represent).
pub fn index_too_large(shown: impl fmt::Display) -> Error {
    move_error(format!(
        "index must be a non-negative int below 2**64, got {shown}"
    ))
}

/// A pile number 0..3, or `MoveError` naming the argument.
fn pile_number(name: &str, value: i128) -> Result<u8> {
    if (0..PILES as i128).contains(&value) {
        Ok(value as u8)
    } else {
        Err(pile_error(name, value))
    }
}

/// A number of move text: an optional `-` and 1 to 20 ASCII digits.
fn number(text: &str) -> Option<i128> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if !(1..=20).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i128 = digits.parse().ok()?;
    Some(if digits.len() < text.len() { -n } else { n })
}

// ---------------------------------------------------------------------------
// Positions

/// A position: four piles, the stock, the discards and the rules (R6.5).
///
/// Fixed-size arrays, so that copying a position or playing a game allocates
/// nothing; 52 places everywhere, since a position from text may hold tall piles.
///
/// Invariants (see [`Position::check_invariants`], run by the tests):
/// - `piles[p][1..=heights[p]]` is pile p, bottom to top, above the placeholder
///   `piles[p][0] == Card::NONE`, so that `piles[p][heights[p]]` is always the top
///   card or the placeholder; `stock[stock_next..stock_end]`
///   the stock in deal order; `discards[..n_discards]` the discards in order;
///   together the 52 cards, each once;
/// - `bits[p][i]` is the [`rules::top_bit`] of the card `piles[p][i]`, 0 for the
///   placeholder: stored with the card, so that a new top's bit is one load away;
/// - `tops` is the union of the top cards' bits: bit 16·s + k is set exactly when
///   some pile's top card is of suit s and strength k (R1.2, under `rules`). So
///   pile p may be discarded exactly when `tops` meets the [`rules::stronger_bits`]
///   of its top card's bit (R2.1): a subtraction and an AND;
/// - `empty` is the number of empty piles.
#[derive(Clone)]
pub struct Position {
    pub(crate) rules: Rules,
    heights: [u8; PILES],
    stock_next: u8,
    stock_end: u8,
    n_discards: u8,
    empty: u8,
    tops: u64,
    /// `rules::top_bits(rules.ace_high)`, looked up once.
    bit_of: &'static rules::BitTable,
    piles: [[Card; CAP]; PILES],
    bits: [[u64; CAP]; PILES],
    stock: [Card; CAP],
    discards: [Card; CAP],
}

impl Position {
    /// The start of a game dealt from `deck` (R1.3).
    pub fn from_deck(deck: &[Card; DECK_SIZE], rules: Rules) -> Position {
        let mut pos = Position::blank(rules);
        pos.deal_from(deck);
        pos
    }

    /// Four empty piles, an empty stock and no discards: to be filled in.
    fn blank(rules: Rules) -> Position {
        Position {
            rules,
            heights: [0; PILES],
            bit_of: rules::top_bits(rules.ace_high),
            piles: [[Card::NONE; CAP]; PILES],
            bits: [[0; CAP]; PILES],
            stock: [Card::default(); CAP],
            stock_next: 0,
            stock_end: 0,
            discards: [Card::default(); CAP],
            n_discards: 0,
            empty: PILES as u8,
            tops: 0,
        }
    }

    /// Reset to the start of a game dealt from `deck`, keeping the rules; what a
    /// play-out does at each game instead of building a new position.
    #[inline]
    pub fn deal_from(&mut self, deck: &[Card; DECK_SIZE]) {
        self.stock[..DECK_SIZE - PILES].copy_from_slice(&deck[PILES..]);
        self.stock_next = 0;
        self.stock_end = (DECK_SIZE - PILES) as u8;
        self.n_discards = 0;
        self.tops = 0;
        for (p, &card) in deck[..PILES].iter().enumerate() {
            self.piles[p][1] = card;
            self.bits[p][1] = self.bit_of[card.index()];
            self.heights[p] = 1;
            self.tops |= self.bits[p][1];
        }
        self.empty = 0;
    }

    /// Put the stock's cards in the order of `stock`, which holds the same cards: a
    /// guess of the order that montecarlo plays on. Nothing else depends on it.
    #[inline]
    pub fn set_stock_order(&mut self, stock: &[Card]) {
        let next = usize::from(self.stock_next);
        self.stock[next..usize::from(self.stock_end)].copy_from_slice(stock);
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// A position from its parts, checked as R6.5 demands: each of the 52 cards
    /// exactly once, a stock length that is a multiple of 4, no top-rank card among
    /// the discards. `PositionError` otherwise.
    pub fn from_parts(
        rules: Rules,
        piles: &[Vec<Card>; PILES],
        stock: &[Card],
        discards: &[Card],
    ) -> Result<Position> {
        let error = |message: String| Err(Error::new(ErrorKind::Position, message));
        let all: Vec<Card> = piles
            .iter()
            .flatten()
            .chain(stock)
            .chain(discards)
            .copied()
            .collect();
        if let Some(problem) = card_set_problem(&all, "the position") {
            return error(problem);
        }
        if !stock.len().is_multiple_of(4) {
            return error(format!(
                "the stock holds {} cards, which is not a multiple of 4",
                stock.len()
            ));
        }
        if let Some(card) = discards.iter().find(|c| rules::is_top_rank(**c, &rules)) {
            return error(format!(
                "the discards hold {card}, a top-rank card, which is never discarded"
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
        Ok(pos)
    }

    /// Parse the one-line text form (R6.5), whose fields may be separated by any
    /// white space: `PositionError` when the text is malformed or the position
    /// impossible.
    pub fn parse(text: &str) -> Result<Position> {
        let error = |message: String| Error::new(ErrorKind::Position, message);
        let fields: Vec<&str> = text.split(is_space).filter(|f| !f.is_empty()).collect();
        let [piles, stock, discards, rules] = fields[..] else {
            return Err(error(format!(
                "a position has 4 fields (piles, stock, discards, rules) separated by spaces, got {} in {}",
                fields.len(),
                py_repr(text)
            )));
        };
        let pile_fields: Vec<&str> = piles.split('/').collect();
        if pile_fields.len() != PILES {
            return Err(error(format!(
                "the piles field has 4 piles separated by '/', got {} in {}",
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
        let mut pile_cards: [Vec<Card>; PILES] = Default::default();
        for (p, field) in pile_fields.iter().enumerate() {
            pile_cards[p] = cards(field, &format!("pile {p}"))?;
        }
        let stock = cards(stock, "the stock")?;
        let discards = cards(discards, "the discards")?;
        let rules = Rules::parse(rules)
            .map_err(|e| error(format!("the rules field {}: {}", py_repr(rules), e.message)))?;
        Position::from_parts(rules, &pile_cards, &stock, &discards)
    }

    // --- Reading ---

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Pile `p` (0..3), bottom to top.
    #[inline]
    pub fn pile(&self, p: usize) -> &[Card] {
        &self.piles[p][1..=usize::from(self.heights[p])]
    }

    #[inline]
    pub fn height(&self, p: usize) -> usize {
        usize::from(self.heights[p])
    }

    /// The top card of pile `p`, if any.
    #[inline]
    pub fn top(&self, p: usize) -> Option<Card> {
        self.pile(p).last().copied()
    }

    /// The card at `index` from the top of pile `p`; `index < height(p)`.
    #[inline]
    pub fn card_from_top(&self, p: usize, index: usize) -> Card {
        self.piles[p][at(self.height(p) - index)]
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

    /// The number of cards discarded (R4.2).
    #[inline]
    pub fn score(&self) -> usize {
        usize::from(self.n_discards)
    }

    /// The bits of the top cards (see the invariants).
    #[inline]
    pub fn tops(&self) -> u64 {
        self.tops
    }

    /// The bit of pile p's top card in [`Position::tops`], 0 when it is empty.
    #[inline]
    pub fn top_bit(&self, p: usize) -> u64 {
        self.bits[p][at(self.height(p))]
    }

    /// Whether the stock is empty.
    #[inline]
    pub fn stock_is_empty(&self) -> bool {
        self.stock_next == self.stock_end
    }

    /// The number of empty piles.
    #[inline]
    pub fn empty_piles(&self) -> usize {
        usize::from(self.empty)
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        rules::legal_moves(self)
    }

    /// Whether no move is legal (R4.1).
    pub fn is_over(&self) -> bool {
        LegalMoves::of(self).is_empty()
    }

    /// Over with 48 cards discarded (R4.2).
    pub fn is_won(&self) -> bool {
        self.score() == 48 && self.is_over()
    }

    // --- Playing ---

    /// Play `mv`: `IllegalMoveError` with the R7 reason, the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<()> {
        rules::check_move(self, mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Play a move known to be legal.
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        debug_assert!(
            rules::check_move(self, mv).is_ok(),
            "{mv} is illegal in {}",
            self.to_text()
        );
        match mv {
            Move::Discard(p) => {
                let card = self.pop(usize::from(p));
                self.discards[at(usize::from(self.n_discards))] = card;
                self.n_discards += 1;
            }
            Move::Fill { src, dst, index } => {
                let card = self.take(usize::from(src), index as usize);
                self.push(usize::from(dst), card);
            }
            Move::Deal => self.deal(),
        }
    }

    /// Deal (R2.3), known to be legal: one stock card onto each pile.
    #[inline]
    pub fn deal(&mut self) {
        let next = usize::from(self.stock_next);
        let mut tops = 0;
        for p in 0..PILES {
            let h = at(self.height(p) + 1);
            let card = self.stock[at(next + p)];
            self.piles[p][h] = card;
            self.bits[p][h] = self.bit_of[card.index()];
            self.heights[p] = h as u8;
            tops |= self.bits[p][h];
        }
        self.tops = tops;
        self.empty = 0;
        self.stock_next += PILES as u8;
    }

    /// Play every legal discard until none is legal (the built-ins all start so).
    ///
    /// This is the hot loop of the play-outs, so it works in rounds without a branch
    /// per pile: a round discards from every pile that may be discarded. A legal
    /// discard stays legal until it is played (the higher card of its suit stays
    /// on top, or an even higher one does), so the rounds reach the position that
    /// discarding first in R3 order, again and again, reaches; only the order of the
    /// cards in the discards can differ.
    #[inline]
    pub fn discard_forced(&mut self) {
        loop {
            let mask = rules::discard_mask(self);
            if mask == 0 {
                break;
            }
            let mut n = usize::from(self.n_discards);
            let mut tops = 0;
            for p in 0..PILES {
                let discarded = usize::from(mask >> p & 1);
                let h = self.height(p);
                self.discards[at(n)] = self.piles[p][at(h)]; // kept only when discarded
                n += discarded;
                let h = h - discarded;
                self.heights[p] = h as u8;
                tops |= self.bits[p][at(h)];
            }
            self.tops = tops;
            self.n_discards = n as u8;
        }
        self.empty = self.heights.iter().map(|&h| u8::from(h == 0)).sum();
    }

    /// Take back `mv`, the last move played.
    pub fn unapply(&mut self, mv: Move) {
        match mv {
            Move::Discard(p) => {
                self.n_discards -= 1;
                self.push(
                    usize::from(p),
                    self.discards[at(usize::from(self.n_discards))],
                );
            }
            Move::Fill { src, dst, index } => {
                let card = self.pop(usize::from(dst));
                self.insert(usize::from(src), index as usize, card);
            }
            Move::Deal => {
                for p in 0..PILES {
                    self.pop(p);
                }
                self.stock_next -= PILES as u8;
            }
        }
    }

    /// Put `card` on top of pile `p`, keeping the masks and the empty count.
    #[inline]
    fn push(&mut self, p: usize, card: Card) {
        let h = self.height(p);
        let bits = self.bit_of[card.index()];
        self.empty -= u8::from(h == 0);
        self.tops ^= self.bits[p][at(h)] ^ bits;
        self.piles[p][at(h + 1)] = card;
        self.bits[p][at(h + 1)] = bits;
        self.heights[p] += 1;
    }

    /// Take the top card of the non-empty pile `p`, keeping the masks and the empty count.
    #[inline]
    fn pop(&mut self, p: usize) -> Card {
        let h = self.height(p);
        self.heights[p] = h as u8 - 1;
        self.empty += u8::from(h == 1);
        self.tops ^= self.bits[p][at(h)] ^ self.bits[p][at(h - 1)]; // the placeholder's is 0
        self.piles[p][at(h)]
    }

    /// Take the card at `index` from the top of pile `p`; the cards above it close up.
    #[inline]
    fn take(&mut self, p: usize, index: usize) -> Card {
        if index == 0 {
            return self.pop(p);
        }
        // A buried card: the top card, and so the masks, stay.
        let h = self.height(p);
        let at = h - index;
        let card = self.piles[p][at];
        self.piles[p].copy_within(at + 1..=h, at);
        self.bits[p].copy_within(at + 1..=h, at);
        self.heights[p] -= 1;
        card
    }

    /// Put `card` back at `index` from the top of pile `p` (the inverse of `take`).
    fn insert(&mut self, p: usize, index: usize, card: Card) {
        if index == 0 {
            return self.push(p, card);
        }
        let h = self.height(p);
        let at = h + 1 - index;
        self.piles[p].copy_within(at..=h, at + 1);
        self.bits[p].copy_within(at..=h, at + 1);
        self.piles[p][at] = card;
        self.bits[p][at] = self.bit_of[card.index()];
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
        let piles: Vec<String> = (0..PILES).map(|p| run(self.pile(p))).collect();
        format!(
            "{} {} {} {}",
            piles.join("/"),
            run(self.stock()),
            run(self.discards()),
            self.rules
        )
    }

    /// The tableau for people (R6.6).
    pub fn tableau(&self) -> String {
        let rows = (0..PILES).map(|p| self.height(p)).max().unwrap_or(0).max(1);
        let mut out = String::new();
        for row in 0..rows {
            let cells: Vec<String> = (0..PILES)
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
        out
    }

    /// Panic unless the invariants of the representation hold (for tests).
    pub fn check_invariants(&self) {
        let mut tops = 0;
        for p in 0..PILES {
            assert_eq!(self.piles[p][0], Card::NONE);
            for i in 0..=self.height(p) {
                let bit = if i == 0 {
                    0
                } else {
                    rules::top_bit(self.piles[p][i], self.rules.ace_high)
                };
                assert_eq!(
                    self.bits[p][i],
                    bit,
                    "bit of pile {p} slot {i} in {}",
                    self.to_text()
                );
            }
            tops |= self.bits[p][self.height(p)];
        }
        assert_eq!(self.tops, tops, "top masks of {}", self.to_text());
        assert_eq!(
            self.empty_piles(),
            (0..PILES).filter(|&p| self.height(p) == 0).count()
        );
        let mut all: Vec<Card> = (0..PILES).flat_map(|p| self.pile(p).to_vec()).collect();
        all.extend_from_slice(self.stock());
        all.extend_from_slice(self.discards());
        all.sort();
        assert!(
            all.iter().copied().eq(Card::all()),
            "cards of {}",
            self.to_text()
        );
    }
}

impl PartialEq for Position {
    /// Same piles, stock, discards and rules (the representation's spare places do
    /// not count).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && (0..PILES).all(|p| self.pile(p) == other.pile(p))
            && self.stock() == other.stock()
            && self.discards() == other.discards()
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

// ---------------------------------------------------------------------------
// Games

/// A game: a position, the moves played to reach it, and the strategy stream.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    history: Vec<Move>,
    rng: Rng,
}

impl Game {
    /// `Game.from_seed`: deal `deck_from_seed(seed)`, and keep the generator just
    /// after the shuffle as the strategy stream (RNG.md).
    pub fn from_seed(seed: u64, rules: Rules) -> Game {
        let (deck, rng) = deck_from_seed_and_stream(seed);
        Game {
            pos: Position::from_deck(&deck, rules),
            history: Vec::new(),
            rng,
        }
    }

    /// `Game.from_deck`: `DeckError` unless `deck` is the 52 distinct cards.
    pub fn from_deck(deck: &[Card], rules: Rules, seed: u64) -> Result<Game> {
        let deck = check_deck(deck)?;
        Ok(Game {
            pos: Position::from_deck(&deck, rules),
            history: Vec::new(),
            rng: Rng::new(seed),
        })
    }

    /// `Game.from_str`: a position's text (R6.5), `PositionError` on bad input.
    pub fn from_text(text: &str, seed: u64) -> Result<Game> {
        Ok(Game::from_position(Position::parse(text)?, Rng::new(seed)))
    }

    /// A game at `pos` with no history.
    pub fn from_position(pos: Position, rng: Rng) -> Game {
        Game {
            pos,
            history: Vec::new(),
            rng,
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn rules(&self) -> &Rules {
        &self.pos.rules
    }

    /// The moves played, oldest first.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The strategy stream.
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    pub fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// `game.randbelow(n)`: a draw from the strategy stream; `n ≥ 1`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        self.pos.legal_moves()
    }

    /// The move `strategy` would play here, or `None` when the game is over,
    /// drawing from the strategy stream as in play; the move is not played.
    pub fn ask<S: Strategy + ?Sized>(&mut self, strategy: &S) -> Option<Move> {
        strategy.choose(&self.pos, &mut self.rng)
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        rules::check_move(&self.pos, mv).is_ok()
    }

    pub fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    pub fn is_won(&self) -> bool {
        self.pos.is_won()
    }

    pub fn score(&self) -> usize {
        self.pos.score()
    }

    /// Play `mv`: `IllegalMoveError` (R7) and the game unchanged when it is illegal.
    pub fn play(&mut self, mv: Move) -> Result<()> {
        self.pos.play(mv)?;
        self.history.push(mv);
        Ok(())
    }

    /// Take back the last move and return it: `UndoError` when there is none. The
    /// strategy stream is not rewound.
    pub fn undo(&mut self) -> Result<Move> {
        let mv = self
            .history
            .pop()
            .ok_or_else(|| Error::new(ErrorKind::Undo, "no move to undo"))?;
        self.pos.unapply(mv);
        Ok(mv)
    }

    /// The position before the first move of the history.
    pub fn start_position(&self) -> Position {
        let mut pos = self.pos.clone();
        for &mv in self.history.iter().rev() {
            pos.unapply(mv);
        }
        pos
    }

    /// Rebuild a game from its start, its history and its stream, replaying the moves
    /// so that a corrupt record raises (`IllegalMoveError`) instead of making a
    /// position that the rules cannot reach.
    pub fn replay(start: Position, history: &[Move], rng: Rng) -> Result<Game> {
        let mut game = Game::from_position(start, rng);
        for &mv in history {
            game.play(mv)?;
        }
        Ok(game)
    }

    pub fn to_text(&self) -> String {
        self.pos.to_text()
    }

    pub fn tableau(&self) -> String {
        self.pos.tableau()
    }
}

impl PartialEq for Game {
    /// Positions and rules only, not the history or the stream.
    fn eq(&self, other: &Game) -> bool {
        self.pos == other.pos
    }
}

/// A position with these piles (R6.5 text, e.g. `7s/-/3d5h/Ac`) under these rules
/// (R6.4 text), the other cards in the stock but for the fewer than 4 that a stock
/// cannot hold, which are discards (the top-rank cards go to the stock first).
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
    let mut rest: Vec<Card> = Card::all()
        .filter(|c| !piles.iter().flatten().any(|p| p == c))
        .collect();
    rest.sort_by_key(|&c| !rules::is_top_rank(c, &rules));
    let discards = rest.split_off(rest.len() - rest.len() % 4);
    let piles: [Vec<Card>; PILES] = piles.try_into().unwrap();
    Position::from_parts(rules, &piles, &rest, &discards).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::deck_from_seed;

    #[test]
    fn move_text() {
        for (text, mv) in [
            ("d2", Move::Discard(2)),
            (
                "f2>0",
                Move::Fill {
                    src: 2,
                    dst: 0,
                    index: 0,
                },
            ),
            (
                "f2:3>0",
                Move::Fill {
                    src: 2,
                    dst: 0,
                    index: 3,
                },
            ),
            ("deal", Move::Deal),
        ] {
            assert_eq!(Move::parse(text).unwrap(), mv);
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!(Move::parse(" F2:0>0\n").unwrap().to_string(), "f2>0");
        assert_eq!(Move::parse("DEAL").unwrap(), Move::Deal);
        for bad in [
            "", "d", "d4", "d-1", "f2>2", "f2:-1>0", "f4>0", "f2>", "x", "deal2", "f2:>0", "d 2",
            "f2:1:1>0", "d--1",
        ] {
            assert_eq!(
                Move::parse(bad).unwrap_err().kind,
                ErrorKind::Move,
                "{bad:?}"
            );
        }
        assert_eq!(
            Move::parse("f0:999999999999999999999>1").unwrap_err().kind,
            ErrorKind::Move
        );
        assert_eq!(Move::parse("d-0").unwrap(), Move::Discard(0));
        assert_eq!(Move::parse("F02:003>1").unwrap().to_string(), "f2:3>1");
        assert_eq!(
            Move::parse("d4").unwrap_err().message,
            "not a move: 'd4' (pile must be an int from 0 to 3, got 4)"
        );
        assert_eq!(
            Move::parse("f1:2>1").unwrap_err().message,
            "not a move: 'f1:2>1' (a fill moves a card to another pile, got src = dst = 1)"
        );
        assert_eq!(
            Move::Fill {
                src: 1,
                dst: 3,
                index: 2
            }
            .repr(),
            "Move.fill(1, 3, index=2)"
        );
    }

    #[test]
    fn move_order_is_r3_order() {
        let mut moves = [
            Move::Deal,
            Move::Fill {
                src: 1,
                dst: 0,
                index: 0,
            },
            Move::Fill {
                src: 0,
                dst: 2,
                index: 1,
            },
            Move::Fill {
                src: 0,
                dst: 2,
                index: 0,
            },
            Move::Fill {
                src: 0,
                dst: 1,
                index: 5,
            },
            Move::Discard(3),
            Move::Discard(0),
        ];
        moves.sort();
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(
            text,
            ["d0", "d3", "f0:5>1", "f0>2", "f0:1>2", "f1>0", "deal"]
        );
    }

    #[test]
    fn start_of_a_game() {
        let deck = deck_from_seed(0);
        let game = Game::from_seed(0, Rules::standard());
        for p in 0..PILES {
            assert_eq!(game.position().pile(p), &deck[p..p + 1]);
        }
        assert_eq!(game.position().stock(), &deck[4..]);
        assert_eq!(Position::parse(&game.to_text()).unwrap(), *game.position());
        game.position().check_invariants();
    }

    #[test]
    fn tableau() {
        let pos = position_with_piles("7s/Js/5h3d/Ac", "standard");
        assert_eq!(
            pos.tableau(),
            "7♠  J♠  5♥  A♣\n        3♦\nstock 44  discards 3"
        );
        let pos = position_with_piles("-/Js/5h3d/Ac", "standard");
        assert_eq!(
            pos.tableau(),
            "--  J♠  5♥  A♣\n        3♦\nstock 48  discards 0"
        );
        let pos = position_with_piles("-/-/-/-", "standard");
        assert_eq!(pos.tableau(), "--  --  --  --\nstock 52  discards 0");
        let pos = position_with_piles("Th3d/-/-/-", "standard");
        assert_eq!(pos.tableau(), "T♥  --  --  --\n3♦\nstock 48  discards 2");
    }

    #[test]
    fn position_errors() {
        let good = Game::from_seed(3, Rules::standard()).to_text();
        assert!(Position::parse(&good).is_ok());
        assert_eq!(
            Position::parse(&good.replacen(' ', " \t\n ", 2))
                .unwrap()
                .to_text(),
            good
        );
        let bad = [
            good.replacen('/', "", 1),
            format!("{good} extra"),
            good.replacen("fill=top", "fill=up", 1),
            good.replacen(' ', " X", 1),
        ];
        for text in bad {
            assert_eq!(
                Position::parse(&text).unwrap_err().kind,
                ErrorKind::Position,
                "{text}"
            );
        }
        // An ace among the discards (the helper puts the aces first in the stock).
        let text = position_with_piles("7s/Js/5h3d/Kc", "standard").to_text();
        let fields: Vec<&str> = text.split(' ').collect();
        let (ace, stock) = fields[1].split_at(2);
        let (first, discards) = fields[2].split_at(2);
        let swapped = format!("{} {first}{stock} {ace}{discards}", fields[0]);
        let err = Position::parse(&format!("{swapped} standard")).unwrap_err();
        assert!(err.message.contains(ace), "{}", err.message);
        // An ace is fine among the discards of the reverse game, where the king is the top rank.
        let reverse = position_with_piles("7s/Js/5h3d/Kc", "reverse").to_text();
        assert!(
            reverse.contains("As ") && Position::parse(&reverse).is_ok(),
            "{reverse}"
        );
    }

    #[test]
    fn play_and_undo_restore_everything() {
        use crate::rng::Rng;
        let mut rng = Rng::new(5);
        for seed in 0..300 {
            let rules = [
                Rules::standard(),
                Rules::easy(),
                Rules {
                    relocate_single: true,
                    ..Rules::reverse()
                },
            ][seed % 3];
            let mut game = Game::from_seed(seed as u64, rules);
            let mut seen = vec![game.clone()];
            while !game.is_over() && game.history().len() < 300 {
                let moves = game.legal_moves();
                game.play(moves[rng.below(moves.len() as u64) as usize])
                    .unwrap();
                game.position().check_invariants();
                seen.push(game.clone());
            }
            let text = game.to_text();
            assert_eq!(Game::from_text(&text, 0).unwrap(), game);
            let replayed =
                Game::replay(game.start_position(), game.history(), *game.rng()).unwrap();
            assert_eq!(replayed.to_text(), text);
            while let Some(before) = seen.pop() {
                assert_eq!(game.to_text(), before.to_text());
                game.position().check_invariants();
                if game.undo().is_err() {
                    assert!(seen.is_empty());
                }
            }
            assert_eq!(game.undo().unwrap_err().kind, ErrorKind::Undo);
        }
    }

    #[test]
    fn illegal_moves_leave_the_game_unchanged() {
        let mut game = Game::from_seed(1, Rules::standard());
        let before = game.to_text();
        for mv in [
            Move::Discard(0),
            Move::Discard(1),
            Move::Discard(2),
            Move::Discard(3),
            Move::Deal,
        ] {
            if game.play(mv).is_err() {
                assert_eq!(game.to_text(), before);
            } else {
                game.undo().unwrap();
            }
        }
        assert_eq!(game.history(), &[]);
    }
}
