//! Cards and decks (RULES.md R1.1, R1.3, R6.1, R6.2), and the small text helpers
//! every parser of the engine shares.

use crate::{Error, ErrorKind, Result};
use std::fmt;

/// The rank characters, by rank number − 2 (R1.1).
pub(crate) const RANKS: &[u8; 13] = b"23456789TJQKA";
/// The suit characters, by suit number (R1.1).
pub(crate) const SUITS: &[u8; 4] = b"cdhs";
/// The suit names used in messages (R7).
pub(crate) const SUIT_NAMES: [&str; 4] = ["club", "diamond", "heart", "spade"];
/// The Unicode suit symbols of the tableau and of `format(card, "u")`.
pub(crate) const SUIT_SYMBOLS: [char; 4] = ['♣', '♦', '♥', '♠'];
/// The number of cards in a deck.
pub const DECK_SIZE: usize = 52;

/// A card, stored as its index `13 × suit + (rank − 2)` (R1.1); it orders by index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

impl Card {
    /// A placeholder that is no card (index 52), kept below the bottom of each pile
    /// by the engine's positions; never shown.
    pub(crate) const NONE: Card = Card(DECK_SIZE as u8);

    /// The card with this index; the caller guarantees `index < 52`.
    pub(crate) const fn new(index: u8) -> Card {
        debug_assert!(index < 52);
        Card(index)
    }

    /// The card with index `i` (R1.1); `CardError` outside 0..51.
    pub fn from_index(i: usize) -> Result<Card> {
        if i < DECK_SIZE {
            Ok(Card(i as u8))
        } else {
            Err(index_error(i))
        }
    }

    /// Parse a card (R6.1): surrounding white space and case are ignored, `10` is
    /// `T`, and the suit may be a symbol (`♣ ♦ ♥ ♠ ♧ ♢ ♡ ♤`). Characters are looked
    /// up one by one, not case-folded, so no non-ASCII letter passes for a rank.
    pub fn parse(text: &str) -> Result<Card> {
        parse_card(strip(text)).ok_or_else(|| {
            Error::new(
                ErrorKind::Card,
                format!(
                    "not a card: {} (expected a rank 2-9, T, J, Q, K, A or 10 followed by a suit c, d, h, s \
                     or its symbol, e.g. 'Td')",
                    py_repr(text)
                ),
            )
        })
    }

    /// The index 0..51.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank number 2..14 (A = 14).
    pub const fn rank(self) -> u8 {
        self.0 % 13 + 2
    }

    /// The suit number 0..3 (c, d, h, s).
    pub(crate) const fn suit(self) -> usize {
        (self.0 / 13) as usize
    }

    /// The suit character, one of `cdhs`.
    pub fn suit_char(self) -> char {
        SUITS[self.suit()] as char
    }

    /// The rank character, one of `23456789TJQKA`.
    pub(crate) fn rank_char(self) -> char {
        RANKS[(self.0 % 13) as usize] as char
    }

    /// The card with a Unicode suit symbol, as in the tableau: `T♦`.
    pub fn unicode(self) -> String {
        format!("{}{}", self.rank_char(), SUIT_SYMBOLS[self.suit()])
    }

    /// All 52 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }
}

/// The `CardError` of a card index outside 0..51; `shown` is the index as the user wrote it.
pub(crate) fn index_error(shown: impl fmt::Display) -> Error {
    Error::new(
        ErrorKind::Card,
        format!("a card index must be an int from 0 to 51, got {shown}"),
    )
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank_char(), self.suit_char())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A stripped card text, or `None`: a rank text (`2`-`9`, `T J Q K A` in either
/// case, or `10`) followed by one suit character (`cdhs` in either case, or a
/// symbol).
fn parse_card(text: &str) -> Option<Card> {
    let suit_char = text.chars().next_back()?;
    let rank_text = &text[..text.len() - suit_char.len_utf8()];
    let rank = match rank_text {
        "10" => 8,
        _ => {
            let mut chars = rank_text.chars();
            let c = chars.next()?.to_ascii_uppercase();
            if chars.next().is_some() || !(c.is_ascii_uppercase() || c.is_ascii_digit()) {
                return None;
            }
            RANKS.iter().position(|&r| r as char == c)?
        }
    };
    let suit = suit_number(suit_char)?;
    Some(Card((13 * suit + rank) as u8))
}

/// The suit number of a suit character (either case) or symbol.
fn suit_number(c: char) -> Option<usize> {
    match c {
        'c' | 'C' | '♣' | '♧' => Some(0),
        'd' | 'D' | '♦' | '♢' => Some(1),
        'h' | 'H' | '♥' | '♡' => Some(2),
        's' | 'S' | '♠' | '♤' => Some(3),
        _ => None,
    }
}

/// Parse a deck's text (R6.2): cards separated by runs of white space and/or
/// commas. `CardError` for the first bad card; the deck itself is not checked.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    text.split(|c: char| c == ',' || is_space(c))
        .filter(|word| !word.is_empty())
        .map(Card::parse)
        .collect()
}

/// Why `cards` are not the cards of `deck` (a layout's deck, R1.4), each once, or
/// `None` when they are. The message, whose subject is `what` (e.g. "the deck"),
/// names the first card that is not in `deck`, else the number of cards when it is
/// not the deck's, the first card found twice, and the missing cards (up to four
/// by name).
pub(crate) fn card_set_problem(cards: &[Card], deck: &[Card], what: &str) -> Option<String> {
    let allowed = deck.iter().fold(0u64, |bits, c| bits | 1 << c.index());
    if let Some(stray) = cards.iter().find(|c| allowed & 1 << c.index() == 0) {
        return Some(format!(
            "{what} holds {stray}, which is not in the deck of these rules ({} cards)",
            deck.len()
        ));
    }
    let mut seen = 0u64;
    let mut duplicate = None;
    for &card in cards {
        let bit = 1u64 << card.index();
        if seen & bit != 0 && duplicate.is_none() {
            duplicate = Some(card);
        }
        seen |= bit;
    }
    let size = deck.len();
    if duplicate.is_none() && cards.len() == size {
        return None;
    }
    let missing: Vec<Card> = deck
        .iter()
        .copied()
        .filter(|c| seen & (1u64 << c.index()) == 0)
        .collect();
    let named = if missing.len() <= 4 {
        missing
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("{} cards", missing.len())
    };
    Some(match (cards.len(), duplicate) {
        (n, Some(dup)) if n == size => format!("{what} holds {dup} twice and lacks {named}"),
        (n, Some(dup)) => format!("{what} holds {n} cards, not {size} ({dup} twice)"),
        (n, None) => format!("{what} holds {n} cards, not {size} (missing {named})"),
    })
}

/// Ok when `cards` are the cards of `deck` (a layout's deck) in some order (R1.3);
/// `DeckError` naming the problem otherwise (see [`card_set_problem`]).
/// The `DeckError` of a deck read past [`DECK_SIZE`] cards: longer than any
/// layout's deck, so its reader stops there rather than read an endless one.
pub fn deck_too_long() -> Error {
    Error::new(
        ErrorKind::Deck,
        format!("the deck holds more than {DECK_SIZE} cards, more than any layout's deck (R1.4)"),
    )
}

pub(crate) fn check_deck(cards: &[Card], deck: &[Card]) -> Result<()> {
    match card_set_problem(cards, deck, "the deck") {
        Some(problem) => Err(Error::new(ErrorKind::Deck, problem)),
        None => Ok(()),
    }
}

/// Python's `str.isspace()`: Unicode white space plus the separators U+001C..U+001F.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
pub(crate) fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// Python's `repr()` of a string, for messages that quote the user's text.
pub(crate) fn py_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// An approximation of Python's `str.isprintable()` for one character: control,
/// format, separator (but the space), private-use and unassigned-looking characters
/// are not printable.
fn is_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x20 || (0x7f..=0xa0).contains(&u) || u == 0xad {
        return false;
    }
    if u == 0x20 || u < 0x7f {
        return true;
    }
    !(is_space(c)
        || matches!(u, 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f
            | 0x202a..=0x202e | 0x2060..=0x206f | 0xfeff | 0xfff9..=0xfffb
            | 0xe000..=0xf8ff | 0xfdd0..=0xfdef | 0xe0000..=0xe007f | 0xf0000..)
        || u & 0xfffe == 0xfffe)
}

#[cfg(test)]
#[path = "tests/cards.rs"]
mod tests;
