//! The rule options (RULES.md R1.4, R5, R6.4) and every rule, one function per
//! rule: rank order (R1.2), discard (R2.1), fill (R2.2), deal (R2.3), the order of
//! the legal moves (R3), the end of the game (R4) and the reasons a move is illegal
//! (R7).
//!
//! The rule functions are written once, generic over [`Tableau`]: what a rule needs
//! to know of a position (heights, the cards from the top, the top-card masks, the
//! stock left). The game's `Position` and the solver's compact state both
//! implement it. The plain versions the fast ones must agree
//! with are in the tests at the bottom.

use crate::cards::{py_repr, strip, Card, DECK_SIZE, SUIT_NAMES};
use crate::lanes;
// The solver calls the rising lanes' helpers as `rules::...`; they live in `lanes`.
pub(crate) use crate::lanes::rising::{lanes_of, stronger_bits, weaker_bits, TOP_RANK_BITS};
use crate::moves::{Move, MAX_PILES};
use crate::{Error, ErrorKind, Result};
use std::fmt;

/// Which card may fill an empty pile (R2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FillRule {
    /// The top card of a pile (standard).
    #[default]
    Top,
    /// The top card, and only when it is of the top rank (strict).
    Ace,
    /// Any single card of a pile (easy).
    Any,
}

/// When a deal is allowed (R2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DealRule {
    /// Whenever no discard is legal.
    #[default]
    Free,
    /// Only when, in addition, no fill from a pile of two or more cards is legal.
    Stuck,
    /// Whenever the stock is not empty.
    Any,
}

/// Which piles a deal reaches (R2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DealTo {
    /// Every pile.
    #[default]
    All,
    /// Only the empty piles when there are any (Russian Aces), else every pile.
    Empty,
}

/// The named values of an option held in an enum: its names by discriminant.
macro_rules! named_values {
    ($type:ident, [$($variant:ident = $name:literal),+]) => {
        impl $type {
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }

            pub fn from_name(name: &str) -> Option<$type> {
                [$($type::$variant),+].into_iter().find(|v| v.name() == name)
            }
        }
    };
}

named_values!(FillRule, [Top = "top", Ace = "ace", Any = "any"]);
named_values!(DealRule, [Free = "free", Stuck = "stuck", Any = "any"]);
named_values!(DealTo, [All = "all", Empty = "empty"]);

/// A set of rule options (R5); a frozen value. `Rules::default()` is the standard
/// game. Built by [`Rules::set_option`] or [`Rules::parse`], it is a layout that
/// R1.4 defines ([`Rules::validate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub fill: FillRule,
    pub deal: DealRule,
    pub relocate_single: bool,
    pub ace_high: bool,
    /// P, 4 or 5.
    pub piles: u8,
    /// S, 1 to 4: the first S suits of `c d h s`.
    pub suits: u8,
    /// R, 2 to 13: the R highest ranks of each suit under the rank order.
    pub ranks: u8,
    pub deal_to: DealTo,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// The option names, in the order of their text form (R6.4).
pub const OPTIONS: [&str; 8] = [
    "fill",
    "deal",
    "relocate_single",
    "ace_high",
    "piles",
    "suits",
    "ranks",
    "deal_to",
];
/// The preset names (R5).
pub(crate) const PRESETS: [&str; 10] = [
    "standard",
    "strict",
    "easy",
    "reverse",
    "aces_up_5",
    "russian_aces",
    "kpat",
    "pysol",
    "pysol_aces_up_5",
    "pysol_russian_aces",
];

/// A value given to [`Rules::set_option`], as the caller received it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue<'a> {
    Bool(bool),
    Int(i64),
    Text(&'a str),
    /// A value of another type, carried as its Python `repr` for the message.
    Other(&'a str),
}

impl OptionValue<'_> {
    /// The value as Python shows it, for messages.
    fn shown(self) -> String {
        match self {
            OptionValue::Bool(true) => "True".to_string(),
            OptionValue::Bool(false) => "False".to_string(),
            OptionValue::Int(n) => n.to_string(),
            OptionValue::Text(text) => py_repr(text),
            OptionValue::Other(repr) => repr.to_string(),
        }
    }
}

impl Rules {
    pub const fn standard() -> Rules {
        Rules {
            fill: FillRule::Top,
            deal: DealRule::Free,
            relocate_single: false,
            ace_high: true,
            piles: 4,
            suits: 4,
            ranks: 13,
            deal_to: DealTo::All,
        }
    }

    pub const fn strict() -> Rules {
        Rules {
            fill: FillRule::Ace,
            ..Rules::standard()
        }
    }

    pub const fn easy() -> Rules {
        Rules {
            fill: FillRule::Any,
            ..Rules::standard()
        }
    }

    pub const fn reverse() -> Rules {
        Rules {
            ace_high: false,
            ..Rules::standard()
        }
    }

    /// PySolFC's "Aces Up 5": five piles.
    pub const fn aces_up_5() -> Rules {
        Rules {
            piles: 5,
            ..Rules::standard()
        }
    }

    /// PySolFC's "Russian Aces": a deal reaches only the empty piles when there are any.
    pub const fn russian_aces() -> Rules {
        Rules {
            deal_to: DealTo::Empty,
            ..Rules::standard()
        }
    }

    /// KDE kpat's "Aces Up" as a person plays it (R8.3): any top card, a lone one
    /// too, fills an empty pile, and a deal is legal whenever the stock is not empty.
    pub const fn kpat() -> Rules {
        Rules {
            deal: DealRule::Any,
            relocate_single: true,
            ..Rules::standard()
        }
    }

    /// PySolFC's "Aces Up" (#903), the same game as kpat's (R8.3).
    pub const fn pysol() -> Rules {
        Rules::kpat()
    }

    /// PySolFC's "Aces Up 5" (#353): its "Aces Up" with five piles (R8.3).
    pub const fn pysol_aces_up_5() -> Rules {
        Rules {
            piles: 5,
            ..Rules::pysol()
        }
    }

    /// PySolFC's "Russian Aces" (#213): its "Aces Up" with a deal to the empty piles
    /// only when there are any (R8.3).
    pub const fn pysol_russian_aces() -> Rules {
        Rules {
            deal_to: DealTo::Empty,
            ..Rules::pysol()
        }
    }

    /// A preset by name (R5), ignoring surrounding white space and case;
    /// `RulesError` for an unknown one.
    pub fn preset(name: &str) -> Result<Rules> {
        match strip(name).to_lowercase().as_str() {
            "standard" => Ok(Rules::standard()),
            "strict" => Ok(Rules::strict()),
            "easy" => Ok(Rules::easy()),
            "reverse" => Ok(Rules::reverse()),
            "aces_up_5" => Ok(Rules::aces_up_5()),
            "russian_aces" => Ok(Rules::russian_aces()),
            "kpat" => Ok(Rules::kpat()),
            "pysol" => Ok(Rules::pysol()),
            "pysol_aces_up_5" => Ok(Rules::pysol_aces_up_5()),
            "pysol_russian_aces" => Ok(Rules::pysol_russian_aces()),
            _ => Err(rules_error(format!(
                "unknown rules preset {}: expected one of {}",
                py_repr(name),
                quoted_list(&PRESETS)
            ))),
        }
    }

    /// Set one option (R5) to `value`: the one check of option values, for keywords
    /// (`Rules(piles=5)`) and text alike. `RulesError` for an unknown option or a
    /// value that the option does not take (the integer options take `Int` only, the
    /// boolean ones `Bool` only, the others one of their names as `Text`). The
    /// layout as a whole is checked by [`Rules::validate`].
    pub fn set_option(&mut self, option: &str, value: OptionValue<'_>) -> Result<()> {
        let bad = || option_error(option, &value.shown());
        let text = || match value {
            OptionValue::Text(text) => Some(text),
            _ => None,
        };
        let int = |low: i64, high: i64| match value {
            OptionValue::Int(n) if (low..=high).contains(&n) => Ok(n as u8),
            _ => Err(bad()),
        };
        match option {
            "fill" => self.fill = text().and_then(FillRule::from_name).ok_or_else(bad)?,
            "deal" => self.deal = text().and_then(DealRule::from_name).ok_or_else(bad)?,
            "deal_to" => self.deal_to = text().and_then(DealTo::from_name).ok_or_else(bad)?,
            "relocate_single" | "ace_high" => {
                let OptionValue::Bool(flag) = value else {
                    return Err(bad());
                };
                if option == "ace_high" {
                    self.ace_high = flag;
                } else {
                    self.relocate_single = flag;
                }
            }
            "piles" => self.piles = int(4, MAX_PILES as i64)?,
            "suits" => self.suits = int(1, 4)?,
            "ranks" => self.ranks = int(2, 13)?,
            _ => return Err(unknown_option(option)),
        }
        Ok(())
    }

    /// Ok when the layout is one R1.4 defines: `RulesError` when the deck holds
    /// fewer cards than there are piles, since every pile is dealt a first card.
    pub fn validate(&self) -> Result<()> {
        if self.deck_size() < usize::from(self.piles) {
            return Err(rules_error(format!(
                "suits={} and ranks={} make a deck of {} cards, fewer than the {} piles",
                self.suits,
                self.ranks,
                self.deck_size(),
                self.piles
            )));
        }
        Ok(())
    }

    /// Parse the text form (R6.4): an optional leading preset name, then
    /// `option=value` items, separated by commas. White space around items, names
    /// and values and the case of letters are ignored; options not given keep the
    /// preset's (or the default) value, and the empty text is the standard game.
    /// `RulesError` for an unknown preset or option, an option given twice, an
    /// empty item, a preset that is not first, a bad value or an undefined layout.
    pub fn parse(text: &str) -> Result<Rules> {
        let mut items: Vec<&str> = text.split(',').map(strip).collect();
        if items == [""] {
            return Ok(Rules::standard());
        }
        let mut rules = Rules::standard();
        let first = items[0];
        if !first.is_empty()
            && !first.contains('=')
            && !OPTIONS.contains(&first.to_lowercase().as_str())
        {
            rules = Rules::preset(first)?;
            items.remove(0);
        }
        let mut given: Vec<String> = Vec::new();
        // As the reference reads it: every other option is checked item by item,
        // the fill and deal values once all items are read.
        let (mut fill, mut deal) = (rules.fill.name().to_string(), rules.deal.name().to_string());
        for item in items {
            let Some((name, value)) = item.split_once('=') else {
                if PRESETS.contains(&item.to_lowercase().as_str()) {
                    return Err(rules_error(format!(
                        "the preset {} must come first in {}",
                        py_repr(item),
                        py_repr(text)
                    )));
                }
                return Err(rules_error(format!(
                    "expected option=value in {}, got {}",
                    py_repr(text),
                    py_repr(item)
                )));
            };
            let (name, value) = (strip(name).to_lowercase(), strip(value).to_lowercase());
            if !OPTIONS.contains(&name.as_str()) {
                return Err(unknown_option(&name));
            }
            if given.contains(&name) {
                return Err(rules_error(format!(
                    "option {} is given twice in {}",
                    py_repr(&name),
                    py_repr(text)
                )));
            }
            match name.as_str() {
                "fill" => fill = value,
                "deal" => deal = value,
                "relocate_single" | "ace_high" => {
                    let flag = parse_bool(&value).ok_or_else(|| {
                        rules_error(format!(
                            "{name} must be one of {}, got {}",
                            quoted_list(&BOOL_TEXT),
                            py_repr(&value)
                        ))
                    })?;
                    rules.set_option(&name, OptionValue::Bool(flag))?;
                }
                _ => rules.set_option(&name, text_value(&value))?,
            }
            given.push(name);
        }
        rules.set_option("fill", OptionValue::Text(&fill))?;
        rules.set_option("deal", OptionValue::Text(&deal))?;
        rules.validate()?;
        Ok(rules)
    }

    /// The name of the top rank (R1.2), as in the R7 messages.
    pub(crate) fn top_rank_name(&self) -> &'static str {
        if self.ace_high {
            "ace"
        } else {
            "king"
        }
    }

    /// D, the number of cards of the layout's deck (R1.4).
    pub const fn deck_size(&self) -> usize {
        self.suits as usize * self.ranks as usize
    }

    /// The score of a won game, D − S (R4.2).
    pub const fn win_score(&self) -> usize {
        self.deck_size() - self.suits as usize
    }

    /// Whether `card` is in the layout's deck (R1.4): one of the first S suits and
    /// the R highest ranks of the order in force.
    #[inline]
    pub(crate) fn has_card(&self, card: Card) -> bool {
        card.suit() < usize::from(self.suits) && strength(card, self) + self.ranks > TOP_STRENGTH
    }

    /// The layout's deck in index order (R1.4): what the shuffle of RNG.md starts from.
    /// One allocation of the exact size, and no test of each card for the full deck
    /// (the solver's batches make one a deal).
    pub fn deck(&self) -> Vec<Card> {
        let size = self.deck_size();
        if size == DECK_SIZE {
            return Card::all().collect();
        }
        let mut deck = Vec::with_capacity(size);
        deck.extend(Card::all().filter(|&c| self.has_card(c)));
        deck
    }
}

impl fmt::Display for Rules {
    /// The R6.4 text: the four classic options always, in order, then the layout
    /// options and `deal_to`, each only when it differs from its default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fill={},deal={},relocate_single={},ace_high={}",
            self.fill.name(),
            self.deal.name(),
            self.relocate_single,
            self.ace_high
        )?;
        let default = Rules::standard();
        for (name, value, default) in [
            ("piles", self.piles, default.piles),
            ("suits", self.suits, default.suits),
            ("ranks", self.ranks, default.ranks),
        ] {
            if value != default {
                write!(f, ",{name}={value}")?;
            }
        }
        if self.deal_to != default.deal_to {
            write!(f, ",deal_to={}", self.deal_to.name())?;
        }
        Ok(())
    }
}

/// The words of a boolean in rules text, in the order messages list them.
const BOOL_TEXT: [&str; 6] = ["true", "1", "yes", "false", "0", "no"];

/// A boolean in rules text: `true`/`false`, `1`/`0`, `yes`/`no`.
fn parse_bool(value: &str) -> Option<bool> {
    BOOL_TEXT
        .iter()
        .position(|&word| word == value)
        .map(|i| i < 3)
}

/// A value of rules text: an `Int` when it is a short run of ASCII digits, as an
/// integer option takes, else `Text`.
fn text_value(value: &str) -> OptionValue<'_> {
    match value.parse::<i64>() {
        Ok(n) if value.bytes().all(|b| b.is_ascii_digit()) => OptionValue::Int(n),
        _ => OptionValue::Text(value),
    }
}

fn rules_error(message: String) -> Error {
    Error::new(ErrorKind::Rules, message)
}

fn quoted_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| py_repr(n))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `RulesError` of an option given a bad value; `shown` is the value as Python
/// shows it (`repr`).
pub(crate) fn option_error(option: &str, shown: &str) -> Error {
    let expected = match option {
        "fill" => format!("one of {}", quoted_list(FillRule::NAMES)),
        "deal" => format!("one of {}", quoted_list(DealRule::NAMES)),
        "deal_to" => format!("one of {}", quoted_list(DealTo::NAMES)),
        "piles" => "4 or 5".to_string(),
        "suits" => "an int from 1 to 4".to_string(),
        "ranks" => "an int from 2 to 13".to_string(),
        _ => "True or False".to_string(),
    };
    rules_error(format!("{option} must be {expected}, got {shown}"))
}

/// The `RulesError` of an unknown option in a rules text.
pub(crate) fn unknown_option(option: &str) -> Error {
    rules_error(format!(
        "unknown rules option {}: expected one of {}",
        py_repr(option),
        quoted_list(&OPTIONS)
    ))
}

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

/// The number of cards discarded: the deck less the piles and the stock (R4.2).
#[inline]
pub(crate) fn score<T: Tableau + ?Sized>(t: &T) -> usize {
    let piles = usize::from(t.rules().piles);
    t.rules().deck_size() - t.stock_left() - (0..piles).map(|p| t.height(p)).sum::<usize>()
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
    let may_move = (height >= 2) | ((height == 1) & rules.relocate_single & (t.stock_left() > 0));
    let allowed = match rules.fill {
        FillRule::Top => 1,
        FillRule::Ace => usize::from(t.top_bit(src) & TOP_RANK_BITS != 0), // a top-rank card on top
        FillRule::Any => height,
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
// R3 Legal-move order

/// The legal moves of a position, counted without listing them: discards by pile,
/// fills by source, destination and index, then the deal (R3). `nth(i)` finds the
/// i-th of them, so a random choice allocates nothing.
///
/// Invariant: for each source, its fills are the `choices[src]` top cards onto each
/// of the `empty.count_ones()` empty piles (a source is never empty when it has a
/// choice, so it is never its own destination); piles the layout lacks have no
/// bit and no choice; with no pile empty every choice is 0 (no fill is legal).
/// Computed with one branch on the position only, whether a pile is empty, since
/// random play makes every such branch a coin toss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    /// Bit p: pile p may be discarded.
    pub discards: u8,
    /// Bit p: pile p is empty.
    pub empty: u8,
    /// `fill_choices` of each source pile.
    pub choices: [u8; MAX_PILES],
    pub deal: bool,
}

impl LegalMoves {
    /// The legal moves of `t`.
    #[inline]
    pub(crate) fn of<T: Tableau + ?Sized>(t: &T) -> LegalMoves {
        by_piles!(t.rules(), P => LegalMoves::of_piles::<T, P>(t))
    }

    /// [`LegalMoves::of`] for a layout of `P` piles.
    #[inline]
    pub(crate) fn of_piles<T: Tableau + ?Sized, const P: usize>(t: &T) -> LegalMoves {
        LegalMoves::with_discards::<T, P>(t, discard_mask_of::<T, P>(t))
    }

    /// [`LegalMoves::of_piles`] given `discards`, the [`discard_mask`] of `t`, for a
    /// caller that has it already (the solver computes it to play the forced
    /// discards first). Always inlined: at the solver's every node, a call costs
    /// more than the body, most of which the caller's constants fold away.
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
            deal,
        }
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
            + usize::from(self.deal)
    }

    /// Whether no move is legal: the game is over (R4.1).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        (self.discards == 0) & !self.deal & ((self.empty == 0) | (self.choices == [0; MAX_PILES]))
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
            debug_assert!(self.deal && i == before, "nth beyond len");
            return Move::Deal;
        }
        let (k, i) = (usize::from(self.choices[src]), i - before);
        let (rank, index) = if k == 1 { (i, 0) } else { (i / k, i % k) };
        Move::Fill {
            src: src as u8,
            dst: nth_bit(self.empty, rank) as u8,
            index: index as u64,
        }
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

/// R4.1: no move is legal.
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
            } else if index > 0 && rules.fill != FillRule::Any {
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

/// Every combination of the options, the layouts included (2 × 3 × 3 × 2 × 2
/// rule options × 2 pile counts × a few decks), for the tests of every module.
#[cfg(test)]
pub(crate) fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for fill in [FillRule::Top, FillRule::Ace, FillRule::Any] {
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
mod tests;
