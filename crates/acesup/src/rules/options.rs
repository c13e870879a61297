//! The rule options (R1.4, R5, R6.4): [`Rules`], its presets and its text, and
//! the errors of a bad option.

use super::{strength, TOP_STRENGTH};
use crate::cards::{py_repr, strip, Card, DECK_SIZE};
use crate::moves::MAX_PILES;
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
    /// Any number of cards from the top of a pile, together and in their order
    /// (PySolFC's Fortunes).
    Stack,
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

named_values!(
    FillRule,
    [Top = "top", Ace = "ace", Any = "any", Stack = "stack"]
);
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
    /// The number of reserve cells, 0 or 1 (R2.4): PySolFC's Firing Squad has one.
    pub reserve: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// The option names, in the order of their text form (R6.4).
pub const OPTIONS: [&str; 9] = [
    "fill",
    "deal",
    "relocate_single",
    "ace_high",
    "piles",
    "suits",
    "ranks",
    "deal_to",
    "reserve",
];
/// The preset names (R5).
pub const PRESETS: [&str; 12] = [
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
    "pysol_fortunes",
    "pysol_firing_squad",
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
            reserve: 0,
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

    /// PySolFC's "Fortunes" (#206): its "Aces Up" in which any number of cards from
    /// the top of a pile move together onto an empty pile (R8.3).
    pub const fn pysol_fortunes() -> Rules {
        Rules {
            fill: FillRule::Stack,
            ..Rules::pysol()
        }
    }

    /// PySolFC's "Firing Squad" (#583): its "Aces Up" with one reserve cell (R2.4, R8.3).
    pub const fn pysol_firing_squad() -> Rules {
        Rules {
            reserve: 1,
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
            "pysol_fortunes" => Ok(Rules::pysol_fortunes()),
            "pysol_firing_squad" => Ok(Rules::pysol_firing_squad()),
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
            "reserve" => self.reserve = int(0, 1)?,
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

    /// Ok unless the rules have a reserve (R2.4), which `what`, a feature built for
    /// piles alone, does not cover: then `ValueError` naming it.
    pub fn refuse_reserve(&self, what: &str) -> Result<()> {
        if self.reserve == 0 {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Value,
            format!(
                "{what} does not cover rules with a reserve (reserve={})",
                self.reserve
            ),
        ))
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
    /// options, `deal_to` and `reserve`, each only when it differs from its default.
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
        if self.reserve != default.reserve {
            write!(f, ",reserve={}", self.reserve)?;
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
        "reserve" => "0 or 1".to_string(),
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
