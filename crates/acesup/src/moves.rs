//! Moves (RULES.md R2, R6.3): what a player asks for, before any position judges
//! it (the rules do, in `rules::illegal_reason`).

use crate::cards::{py_repr, strip};
use crate::{Error, ErrorKind, Result};
use std::fmt;

/// The most piles of any layout (R1.4): moves name piles 0 to 4, and a position's
/// arrays have this many places.
pub const MAX_PILES: usize = 5;

/// A move (R2). Variants and fields are declared in R3 order, so the derived
/// ordering is the order of `legal_moves()`. Built through [`Move::discard`],
/// [`Move::fill`] or [`Move::parse`], piles are 0..4 (the most of any layout, R1.4) and a fill's source differs
/// from its destination; `index` counts from the top of the source pile.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    Discard(u8),
    Fill {
        src: u8,
        dst: u8,
        index: u64,
    },
    /// The top card of a pile to the empty reserve (R2.4).
    ToReserve(u8),
    /// The reserve's card to an empty pile (R2.4).
    FromReserve(u8),
    Deal,
}

impl Move {
    /// `Move.discard(pile)`: `MoveError` for a pile outside 0..4.
    pub fn discard(pile: u8) -> Result<Move> {
        Ok(Move::Discard(pile_number("pile", pile.into())?))
    }

    /// `Move.fill(src, dst, index)`: `MoveError` for a pile outside 0..4 or a fill
    /// onto its own pile, checked in this order.
    pub fn fill(src: u8, dst: u8, index: u64) -> Result<Move> {
        let (src, dst) = (
            pile_number("src", src.into())?,
            pile_number("dst", dst.into())?,
        );
        if src == dst {
            return Err(move_error(format!(
                "a fill moves a card to another pile, got src = dst = {src}"
            )));
        }
        Ok(Move::Fill { src, dst, index })
    }

    /// `Move.to_reserve(src)`: `MoveError` for a pile outside 0..4.
    pub fn to_reserve(src: u8) -> Result<Move> {
        Ok(Move::ToReserve(pile_number("src", src.into())?))
    }

    /// `Move.from_reserve(dst)`: `MoveError` for a pile outside 0..4.
    pub fn from_reserve(dst: u8) -> Result<Move> {
        Ok(Move::FromReserve(pile_number("dst", dst.into())?))
    }

    /// Parse the text form (R6.3): `d2`, `f2>0`, `f2:3>0`, `2>r`, `r>0`, `deal`, ignoring
    /// surrounding white space and case. `MoveError` for text that is not a move
    /// (numbers have at most 20 digits), a pile outside 0-3, a negative index or a
    /// fill onto its own pile.
    pub fn parse(text: &str) -> Result<Move> {
        let shown = py_repr(text);
        let not_a_move = || {
            move_error(format!(
                "not a move: {shown} (expected d<pile>, f<src>><dst>, f<src>:<index>><dst>, \
                 <src>>r, r><dst> or deal, e.g. 'd2', 'f2>0', 'f2:3>0', '2>r', 'r>0')"
            ))
        };
        let lower = strip(text).to_ascii_lowercase();
        let made = if lower == "deal" {
            Ok(Move::Deal)
        } else if let Some(pile) = lower.strip_prefix('d') {
            let pile = number(pile).ok_or_else(not_a_move)?;
            pile_number("pile", pile).map(Move::Discard)
        } else if let Some(src) = lower.strip_suffix(">r") {
            let src = number(src).ok_or_else(not_a_move)?;
            pile_number("src", src).map(Move::ToReserve)
        } else if let Some(dst) = lower.strip_prefix("r>") {
            let dst = number(dst).ok_or_else(not_a_move)?;
            pile_number("dst", dst).map(Move::FromReserve)
        } else {
            let body = lower.strip_prefix('f').ok_or_else(not_a_move)?;
            let (from, dst) = body.split_once('>').ok_or_else(not_a_move)?;
            let (src, index) = match from.split_once(':') {
                Some((src, index)) => (src, number(index).ok_or_else(not_a_move)?),
                None => (from, 0),
            };
            let (src, dst) = (
                number(src).ok_or_else(not_a_move)?,
                number(dst).ok_or_else(not_a_move)?,
            );
            fill_from_numbers(src, dst, index)
        };
        made.map_err(|err| move_error(format!("not a move: {shown} ({err})")))
    }

    /// `"discard"`, `"fill"`, `"to_reserve"`, `"from_reserve"` or `"deal"`.
    pub fn kind(self) -> &'static str {
        match self {
            Move::Discard(_) => "discard",
            Move::Fill { .. } => "fill",
            Move::ToReserve(_) => "to_reserve",
            Move::FromReserve(_) => "from_reserve",
            Move::Deal => "deal",
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
            Move::ToReserve(src) => write!(f, "{src}>r"),
            Move::FromReserve(dst) => write!(f, "r>{dst}"),
            Move::Deal => f.write_str("deal"),
        }
    }
}

fn move_error(message: String) -> Error {
    Error::new(ErrorKind::Move, message)
}

/// The `MoveError` of a pile argument outside 0..4; `shown` is the value as the
/// user wrote it.
pub(crate) fn pile_error(name: &str, shown: impl fmt::Display) -> Error {
    move_error(format!("{name} must be an int from 0 to 4, got {shown}"))
}

/// The `MoveError` of an index of 2⁶⁴ or more (a move no position can use, which
/// the engine does not represent).
pub fn index_too_large(shown: impl fmt::Display) -> Error {
    move_error(format!(
        "index must be a non-negative int below 2**64, got {shown}"
    ))
}

/// A pile number 0..4, or `MoveError` naming the argument.
fn pile_number(name: &str, value: i128) -> Result<u8> {
    if (0..MAX_PILES as i128).contains(&value) {
        Ok(value as u8)
    } else {
        Err(pile_error(name, value))
    }
}

/// The fill of move text's numbers, checked as [`Move::fill`] checks them, and the
/// index too: `MoveError` for a pile outside 0..4, a negative index (or one of
/// 2⁶⁴ or more, which no position can use) or a fill onto its own pile.
fn fill_from_numbers(src: i128, dst: i128, index: i128) -> Result<Move> {
    let (src, dst) = (pile_number("src", src)?, pile_number("dst", dst)?);
    if index < 0 {
        return Err(move_error(format!(
            "index must be a non-negative int, got {index}"
        )));
    }
    let index = u64::try_from(index).map_err(|_| index_too_large(index))?;
    Move::fill(src, dst, index)
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

#[cfg(test)]
#[path = "tests/moves.rs"]
mod tests;
