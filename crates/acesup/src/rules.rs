//! The rule options (RULES.md R5, R6.4) and every rule predicate, one function per
//! rule: rank order (R1.2), discard (R2.1), fill (R2.2), deal (R2.3), the order of
//! the legal moves (R3) and the reasons a move is illegal (R7).
//!
//! The predicates read the [`Position`]'s incremental summary (per-suit masks of the
//! top cards, the count of empty piles); the plain versions they must agree with are
//! in the tests at the bottom.

use crate::cards::{py_repr, strip, Card, SUIT_NAMES};
use crate::game::{Move, Position, PILES};
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
    /// Whenever the stock is not empty (TEMPORARY stub until core lands).
    Any,
}

/// Which piles a deal reaches (TEMPORARY stub until core lands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DealTo {
    #[default]
    All,
    Empty,
}

impl FillRule {
    pub const NAMES: [&'static str; 3] = ["top", "ace", "any"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<FillRule> {
        [FillRule::Top, FillRule::Ace, FillRule::Any]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

impl DealRule {
    pub const NAMES: [&'static str; 2] = ["free", "stuck"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<DealRule> {
        [DealRule::Free, DealRule::Stuck]
            .into_iter()
            .find(|d| d.name() == name)
    }
}

/// A set of rule options (R5); a frozen value. `Rules::default()` is the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub fill: FillRule,
    pub deal: DealRule,
    pub relocate_single: bool,
    pub ace_high: bool,
    pub piles: u8,
    pub suits: u8,
    pub ranks: u8,
    pub deal_to: DealTo,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// The option names, in the order of their text form (R6.4).
pub const OPTIONS: [&str; 4] = ["fill", "deal", "relocate_single", "ace_high"];
/// The preset names (R5).
pub const PRESETS: [&str; 4] = ["standard", "strict", "easy", "reverse"];

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

    pub fn deck_size(&self) -> usize {
        usize::from(self.suits) * usize::from(self.ranks)
    }

    pub fn win_score(&self) -> usize {
        self.deck_size() - usize::from(self.suits)
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

    /// A preset by name (R5), ignoring surrounding white space and case;
    /// `RulesError` for an unknown one.
    pub fn preset(name: &str) -> Result<Rules> {
        match strip(name).to_lowercase().as_str() {
            "standard" => Ok(Rules::standard()),
            "strict" => Ok(Rules::strict()),
            "easy" => Ok(Rules::easy()),
            "reverse" => Ok(Rules::reverse()),
            _ => Err(rules_error(format!(
                "unknown rules preset {}: expected one of {}",
                py_repr(name),
                quoted_list(&PRESETS)
            ))),
        }
    }

    /// Parse the text form (R6.4): an optional leading preset name, then
    /// `option=value` items, separated by commas. White space around items, names
    /// and values and the case of letters are ignored; options not given keep the
    /// preset's (or the default) value, and the empty text is the standard game.
    /// `RulesError` for an unknown preset or option, an option given twice, an
    /// empty item, a preset that is not first, or a bad value.
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
        // As the reference reads it: booleans are checked item by item, the
        // fill and deal values once all items are read.
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
                _ => rules.set_text(&name, &value)?,
            }
            given.push(name);
        }
        rules.set_text("fill", &fill)?;
        rules.set_text("deal", &deal)?;
        Ok(rules)
    }

    /// Set one option from its (lower-case) text value (R6.4): `RulesError` for an
    /// unknown option or value.
    pub fn set_text(&mut self, option: &str, value: &str) -> Result<()> {
        let shown = py_repr(value);
        match option {
            "fill" => {
                self.fill =
                    FillRule::from_name(value).ok_or_else(|| option_error(option, &shown))?
            }
            "deal" => {
                self.deal =
                    DealRule::from_name(value).ok_or_else(|| option_error(option, &shown))?
            }
            "relocate_single" | "ace_high" => {
                let value = parse_bool(value).ok_or_else(|| {
                    rules_error(format!(
                        "{option} must be one of {}, got {shown}",
                        quoted_list(&BOOL_TEXT)
                    ))
                })?;
                if option == "ace_high" {
                    self.ace_high = value;
                } else {
                    self.relocate_single = value;
                }
            }
            _ => return Err(unknown_option(option)),
        }
        Ok(())
    }

    /// The Python `repr`: only the options that differ from the defaults.
    pub fn repr(&self) -> String {
        let default = Rules::standard();
        let mut args = Vec::new();
        if self.fill != default.fill {
            args.push(format!("fill='{}'", self.fill.name()));
        }
        if self.deal != default.deal {
            args.push(format!("deal='{}'", self.deal.name()));
        }
        if self.relocate_single != default.relocate_single {
            args.push(format!("relocate_single={}", py_bool(self.relocate_single)));
        }
        if self.ace_high != default.ace_high {
            args.push(format!("ace_high={}", py_bool(self.ace_high)));
        }
        format!("Rules({})", args.join(", "))
    }

    /// The name of the top rank (R1.2), as in the R7 messages.
    pub fn top_rank_name(&self) -> &'static str {
        if self.ace_high {
            "ace"
        } else {
            "king"
        }
    }
}

impl fmt::Display for Rules {
    /// The R6.4 text: always all four options, in order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fill={},deal={},relocate_single={},ace_high={}",
            self.fill.name(),
            self.deal.name(),
            self.relocate_single,
            self.ace_high
        )
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

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
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
pub fn option_error(option: &str, shown: &str) -> Error {
    match option {
        "fill" => rules_error(format!(
            "fill must be one of {}, got {shown}",
            quoted_list(&FillRule::NAMES)
        )),
        "deal" => rules_error(format!(
            "deal must be one of {}, got {shown}",
            quoted_list(&DealRule::NAMES)
        )),
        _ => rules_error(format!("{option} must be True or False, got {shown}")),
    }
}

/// The `RulesError` of an unknown option in a rules text.
pub fn unknown_option(option: &str) -> Error {
    rules_error(format!(
        "unknown rules option {}: expected one of {}",
        py_repr(option),
        quoted_list(&OPTIONS)
    ))
}

// ---------------------------------------------------------------------------
// R1.2 Rank order

/// The strength of the top rank: the ace, or the king when `ace_high=False`.
pub const TOP_STRENGTH: u8 = 12;

/// A card's place in the rank order in force (R1.2): 0 for the lowest rank, 12
/// ([`TOP_STRENGTH`]) for the top rank.
#[inline]
pub fn strength(card: Card, ace_high: bool) -> u8 {
    STRENGTH[usize::from(ace_high)][card.index()]
}

/// Whether a card is of the top rank (R1.2).
#[inline]
pub fn is_top_rank(card: Card, rules: &Rules) -> bool {
    strength(card, rules.ace_high) == TOP_STRENGTH
}

/// A card's bit in a mask of top cards: bit `16 × suit + strength`, so each suit has
/// a lane of 16 bits in which a higher card is a higher bit (R1.2).
#[inline]
pub fn top_bit(card: Card, ace_high: bool) -> u64 {
    top_bits(ace_high)[card.index()]
}

/// Bit 13 of each lane: just above the top rank, never a card's bit.
const LANE_ENDS: u64 = 1 << 13 | 1 << 29 | 1 << 45 | 1 << 61;

/// Given a card's [`top_bit`] (or 0 for no card), the bits of the stronger cards of
/// its suit, plus bits that no card has: a top card may be discarded exactly when
/// the mask of the top cards meets these (R2.1). The subtraction borrows only
/// within the card's own lane, from its lane end down to just above the card; for
/// 0 it leaves the lane ends alone.
#[inline]
pub fn stronger_bits(bit: u64) -> u64 {
    LANE_ENDS.wrapping_sub(bit << 1)
}

/// The bits of the four top-rank cards (strength 12 in each lane).
const TOP_RANK_BITS: u64 = 1 << 12 | 1 << 28 | 1 << 44 | 1 << 60;

/// Every card's [`top_bit`] by index, under one rank order; 256 entries so that any
/// `u8` index is in bounds (the placeholder `Card::NONE`, 52, and the unused ones
/// above it have none).
pub type BitTable = [u64; 256];

/// The [`BitTable`] of a rank order.
#[inline]
pub fn top_bits(ace_high: bool) -> &'static BitTable {
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
            table[order][i] = 1u64 << (16 * (i / 13) + STRENGTH[order][i] as usize);
            i += 1;
        }
        order += 1;
    }
    table
};

// ---------------------------------------------------------------------------
// The tableau the rules read

/// What the rule functions read of a position: `Position` and the solver's compact
/// state both implement it, so the rules are written once.
pub trait Tableau {
    fn rules(&self) -> &Rules;
    /// Cards on pile p.
    fn height(&self, p: usize) -> usize;
    /// The card `index` places from the top of pile p; `index < height(p)`.
    fn card_from_top(&self, p: usize, index: usize) -> Card;
    /// [`top_bit`] of pile p's top card; 0 for an empty pile.
    fn top_bit(&self, p: usize) -> u64;
    /// The OR of every pile's `top_bit`.
    fn tops(&self) -> u64;
    fn stock_left(&self) -> usize;
    /// The number of empty piles.
    fn empty_piles(&self) -> usize;
}

impl Tableau for Position {
    #[inline]
    fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    fn height(&self, p: usize) -> usize {
        Position::height(self, p)
    }
    #[inline]
    fn card_from_top(&self, p: usize, index: usize) -> Card {
        Position::card_from_top(self, p, index)
    }
    #[inline]
    fn top_bit(&self, p: usize) -> u64 {
        Position::top_bit(self, p)
    }
    #[inline]
    fn tops(&self) -> u64 {
        Position::tops(self)
    }
    #[inline]
    fn stock_left(&self) -> usize {
        self.stock().len()
    }
    #[inline]
    fn empty_piles(&self) -> usize {
        Position::empty_piles(self)
    }
}

// ---------------------------------------------------------------------------
// R2.1 Discard

/// R2.1: pile `p` is not empty and its top card is lower than the top card of
/// another pile of its suit. One mask test: the position keeps the bits of all top
/// cards, and a pile's top card may go when they meet its [`stronger_bits`].
#[inline]
pub fn can_discard<T: Tableau + ?Sized>(pos: &T, p: usize) -> bool {
    pos.tops() & stronger_bits(pos.top_bit(p)) != 0
}

/// Bit p set when pile p may be discarded (R2.1).
#[inline]
pub fn discard_mask<T: Tableau + ?Sized>(pos: &T) -> u8 {
    (0..PILES).fold(0, |mask, p| mask | (u8::from(can_discard(pos, p)) << p))
}

/// The first pile whose top card may be discarded (R2.1, in R3 order).
#[inline]
pub fn first_discard<T: Tableau + ?Sized>(pos: &T) -> Option<usize> {
    let mask = discard_mask(pos);
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

// ---------------------------------------------------------------------------
// R2.2 Fill

/// R2.2 conditions 2 and 3: how many cards of pile `src`, counted from the top, may
/// fill an empty pile. A fill from `src` is legal exactly for `index` below this.
#[inline]
pub fn fill_choices<T: Tableau + ?Sized>(pos: &T, src: usize) -> usize {
    let height = pos.height(src);
    let rules = pos.rules();
    // `&` and `|`, not `&&` and `||`: no branch on the heights, which vary at random
    // in the play-outs.
    let may_move = (height >= 2) | ((height == 1) & rules.relocate_single & (pos.stock_left() > 0));
    let allowed = match rules.fill {
        FillRule::Top => 1,
        FillRule::Ace => usize::from(pos.top_bit(src) & TOP_RANK_BITS != 0), // a top-rank card on top
        FillRule::Any => height,
    };
    usize::from(may_move) * allowed
}

/// R2.2: filling empty pile `dst` with the card at `index` (from the top) of `src`.
pub fn can_fill<T: Tableau + ?Sized>(pos: &T, src: usize, dst: usize, index: u64) -> bool {
    src < PILES
        && dst < PILES
        && src != dst
        && pos.height(dst) == 0
        && index < fill_choices(pos, src) as u64
}

/// The first fill from a pile of two or more cards in R3 order, if any: the fills
/// that hold a deal back under `deal="stuck"` (R2.3).
pub fn first_real_fill<T: Tableau + ?Sized>(pos: &T) -> Option<Move> {
    let dst = (0..PILES).find(|&p| pos.height(p) == 0)?;
    let src = (0..PILES).find(|&p| pos.height(p) >= 2 && fill_choices(pos, p) > 0)?;
    Some(Move::Fill {
        src: src as u8,
        dst: dst as u8,
        index: 0,
    })
}

// ---------------------------------------------------------------------------
// R2.3 Deal

/// R2.3: the stock is not empty, no discard is legal, and under `deal="stuck"` no
/// fill from a pile of two or more cards is legal.
pub fn can_deal<T: Tableau + ?Sized>(pos: &T) -> bool {
    pos.stock_left() > 0
        && first_discard(pos).is_none()
        && (pos.rules().deal == DealRule::Free || first_real_fill(pos).is_none())
}

/// R2.3: the piles the next deal puts a card on, as a mask.
#[inline]
pub fn deal_targets<T: Tableau + ?Sized>(pos: &T) -> u8 {
    ((1u32 << pos.stock_left().min(PILES)) - 1) as u8
}

// ---------------------------------------------------------------------------
// R3 Legal-move order

/// The legal moves of a position, counted without listing them: discards by pile,
/// fills by source, destination and index, then the deal (R3). `nth(i)` finds the
/// i-th of them, so a random choice allocates nothing.
///
/// Invariant: for each source, its fills are the `choices[src]` top cards onto each
/// of the `empty.count_ones()` empty piles (a source is never empty when it has a
/// choice, so it is never its own destination). Computed without a branch on the
/// position, since random play makes every such branch a coin toss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    /// Bit p: pile p may be discarded.
    pub discards: u8,
    /// Bit p: pile p is empty.
    pub empty: u8,
    /// `fill_choices` of each source pile.
    pub choices: [u8; PILES],
    pub deal: bool,
}

impl LegalMoves {
    /// The legal moves of `pos`.
    #[inline]
    pub fn of<T: Tableau + ?Sized>(pos: &T) -> LegalMoves {
        let discards = discard_mask(pos);
        let mut empty = 0u8;
        let mut choices = [0u8; PILES];
        let mut real_fill = false;
        for (p, choice) in choices.iter_mut().enumerate() {
            empty |= u8::from(pos.height(p) == 0) << p;
            *choice = fill_choices(pos, p) as u8;
            real_fill |= (*choice > 0) & (pos.height(p) >= 2);
        }
        real_fill &= empty != 0;
        let deal = (pos.stock_left() > 0)
            & (discards == 0)
            & ((pos.rules().deal == DealRule::Free) | !real_fill);
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
    pub fn len(&self) -> usize {
        self.discards.count_ones() as usize
            + (0..PILES).map(|s| self.fills_from(s)).sum::<usize>()
            + usize::from(self.deal)
    }

    /// Whether no move is legal: the game is over (R4.1).
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.discards == 0) & !self.deal & ((self.empty == 0) | (self.choices == [0; PILES]))
    }

    /// The first discard, which every built-in strategy plays first.
    #[inline]
    pub fn first_discard(&self) -> Option<usize> {
        (self.discards != 0).then(|| self.discards.trailing_zeros() as usize)
    }

    /// The `i`-th legal move in R3 order; `i < self.len()`.
    #[inline]
    pub fn nth(&self, i: usize) -> Move {
        let n_discards = self.discards.count_ones() as usize;
        if i < n_discards {
            return Move::Discard(nth_bit(self.discards, i) as u8);
        }
        let i = i - n_discards;
        // The source whose fills hold the i-th fill: the number of sources whose fills,
        // with those before them, end at or before i; counted without a branch.
        let (mut src, mut before, mut end) = (0, 0, 0);
        for s in 0..PILES {
            end += self.fills_from(s);
            let past = i >= end;
            src += usize::from(past);
            before = if past { end } else { before };
        }
        if src == PILES {
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
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.len()).map(|i| self.nth(i))
    }
}

/// The position of the `n`-th set bit (from 0) of a 4-bit mask; `n` below its count.
#[inline]
fn nth_bit(bits: u8, n: usize) -> usize {
    usize::from(NTH_BIT[usize::from(bits & 15)][n & 3])
}

/// `NTH_BIT[bits][n]`: a table, for it runs at every random decision.
static NTH_BIT: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut bits = 0;
    while bits < 16 {
        let (mut n, mut p) = (0, 0);
        while p < 4 {
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
pub fn legal_moves<T: Tableau + ?Sized>(pos: &T) -> Vec<Move> {
    LegalMoves::of(pos).iter().collect()
}

// ---------------------------------------------------------------------------
// R7 Illegal moves

/// Ok when `mv` is legal in `pos`; otherwise `IllegalMoveError` with the first
/// reason of R7 that applies (`MoveError` for a move that cannot exist, such as a
/// pile outside 0-3, which only Rust callers can build).
pub fn check_move(pos: &Position, mv: Move) -> Result<()> {
    mv.validate()?;
    let illegal = |message: String| Err(Error::new(ErrorKind::IllegalMove, message));
    match mv {
        Move::Discard(p) => {
            let p = usize::from(p);
            match pos.top(p) {
                None => illegal(format!("cannot discard from pile {p}: it is empty")),
                Some(card) if !can_discard(pos, p) => illegal(format!(
                    "cannot discard {card} from pile {p}: no higher {} is on top of another pile",
                    SUIT_NAMES[card.suit()]
                )),
                Some(_) => Ok(()),
            }
        }
        Move::Fill { src, dst, index } => {
            let (src, dst) = (usize::from(src), usize::from(dst));
            let height = pos.height(src) as u64;
            let rules = &pos.rules;
            if pos.height(dst) != 0 {
                illegal(format!("cannot fill pile {dst}: it is not empty"))
            } else if height == 0 {
                illegal(format!(
                    "cannot fill pile {dst} from pile {src}: pile {src} is empty"
                ))
            } else if index >= height {
                illegal(format!(
                    "cannot fill pile {dst} from pile {src}: it has no card at index {index}"
                ))
            } else if index > 0 && rules.fill != FillRule::Any {
                illegal(format!(
                    "cannot fill pile {dst} with a buried card: fill='{}' moves only the top card",
                    rules.fill.name()
                ))
            } else if height == 1 && !rules.relocate_single {
                illegal(format!(
                    "cannot fill pile {dst} from pile {src}: its only card may not move"
                ))
            } else if height == 1 && pos.stock().is_empty() {
                illegal(format!(
                    "cannot fill pile {dst} from pile {src}: its only card may not move once the stock is empty"
                ))
            } else {
                let card = pos.card_from_top(src, index as usize);
                if rules.fill == FillRule::Ace && !is_top_rank(card, rules) {
                    illegal(format!(
                        "cannot fill pile {dst} with {card}: fill='ace' lets only a{} {} fill an empty pile",
                        if rules.ace_high { "n" } else { "" },
                        rules.top_rank_name()
                    ))
                } else {
                    debug_assert!(can_fill(pos, src, dst, index));
                    Ok(())
                }
            }
        }
        Move::Deal => {
            if pos.stock().is_empty() {
                illegal("cannot deal: the stock is empty".to_string())
            } else if let Some(p) = first_discard(pos) {
                illegal(format!("cannot deal: pile {p} must be discarded first"))
            } else if let (DealRule::Stuck, Some(fill)) = (pos.rules.deal, first_real_fill(pos)) {
                illegal(format!(
                    "cannot deal: deal='stuck' and a fill is still possible ({fill})"
                ))
            } else {
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn rank_order() {
        let c = |t: &str| Card::parse(t).unwrap();
        assert!(strength(c("Ah"), true) > strength(c("Kh"), true));
        assert!(strength(c("Kh"), false) > strength(c("Ah"), false));
        assert_eq!(strength(c("Ah"), false), 0);
        assert_eq!(strength(c("2h"), true), 0);
        assert!(
            is_top_rank(c("As"), &Rules::standard()) && !is_top_rank(c("Ks"), &Rules::standard())
        );
        assert!(
            is_top_rank(c("Ks"), &Rules::reverse()) && !is_top_rank(c("As"), &Rules::reverse())
        );
        // A card's stronger bits are those of the higher cards of its suit.
        for ace_high in [false, true] {
            for card in Card::all() {
                let stronger: u64 = Card::all()
                    .filter(|c| {
                        c.suit() == card.suit() && strength(*c, ace_high) > strength(card, ace_high)
                    })
                    .map(|c| top_bit(c, ace_high))
                    .sum();
                let all_cards: u64 = Card::all().map(|c| top_bit(c, ace_high)).sum();
                assert_eq!(
                    stronger_bits(top_bit(card, ace_high)) & all_cards,
                    stronger,
                    "{card}"
                );
            }
            assert_eq!(
                stronger_bits(0) & Card::all().map(|c| top_bit(c, ace_high)).sum::<u64>(),
                0
            );
        }
        // Strengths are a permutation of 0..12 within a suit, for both orders.
        for ace_high in [false, true] {
            let mut s: Vec<u8> = (0..13).map(|i| strength(Card::new(i), ace_high)).collect();
            s.sort();
            assert_eq!(s, (0..13).collect::<Vec<u8>>());
        }
    }

    #[test]
    fn rules_text() {
        assert_eq!(
            Rules::standard().to_string(),
            "fill=top,deal=free,relocate_single=false,ace_high=true"
        );
        for rules in [
            Rules::standard(),
            Rules::strict(),
            Rules::easy(),
            Rules::reverse(),
        ] {
            assert_eq!(Rules::parse(&rules.to_string()).unwrap(), rules);
        }
        let stuck = Rules {
            deal: DealRule::Stuck,
            ..Rules::strict()
        };
        assert_eq!(Rules::parse("strict,deal=stuck").unwrap(), stuck);
        assert_eq!(Rules::parse("deal=stuck,fill=ace").unwrap(), stuck);
        assert_eq!(Rules::parse("reverse").unwrap(), Rules::reverse());
        assert_eq!(Rules::parse("ace_high=0").unwrap(), Rules::reverse());
        assert!(Rules::parse("relocate_single=yes").unwrap().relocate_single);
        assert_eq!(Rules::parse("").unwrap(), Rules::standard());
        assert_eq!(Rules::parse(" Strict , DEAL = Stuck ").unwrap(), stuck);
        for (bad, message) in [
            ("fill=all", "fill must be one of 'top', 'ace', 'any', got 'all'"),
            ("colour=red", "unknown rules option 'colour': expected one of 'fill', 'deal', 'relocate_single', 'ace_high'"),
            ("deal=stuck,strict", "the preset 'strict' must come first in 'deal=stuck,strict'"),
            ("bogus", "unknown rules preset 'bogus': expected one of 'standard', 'strict', 'easy', 'reverse'"),
            ("ace_high=maybe", "ace_high must be one of 'true', '1', 'yes', 'false', '0', 'no', got 'maybe'"),
            ("fill", "expected option=value in 'fill', got 'fill'"),
            ("fill=top,fill=any", "option 'fill' is given twice in 'fill=top,fill=any'"),
            (",", "expected option=value in ',', got ''"),
        ] {
            let err = Rules::parse(bad).unwrap_err();
            assert_eq!((err.kind, err.message.as_str()), (ErrorKind::Rules, message), "{bad}");
        }
        assert_eq!(stuck.repr(), "Rules(fill='ace', deal='stuck')");
        assert_eq!(Rules::standard().repr(), "Rules()");
        assert_eq!(Rules::reverse().repr(), "Rules(ace_high=False)");
    }

    fn moves(p: &Position) -> Vec<String> {
        legal_moves(p).iter().map(Move::to_string).collect()
    }

    fn with_piles(piles: &str, rules: &str) -> Position {
        crate::game::position_with_piles(piles, rules)
    }

    #[test]
    fn documented_examples() {
        // R2.1: top cards 7s Js 5h Ac.
        let p = with_piles("7s/Js/5h/Ac", "standard");
        assert_eq!(moves(&p), ["d0"]);
        assert_eq!(
            check_move(&p, Move::Discard(1)).unwrap_err().message,
            "cannot discard Js from pile 1: no higher spade is on top of another pile"
        );
        assert_eq!(
            check_move(&p, Move::Deal).unwrap_err().message,
            "cannot deal: pile 0 must be discarded first"
        );
        // R2.2 / R2.3: piles [7s] [] [3d 5h] [Ac].
        let p = with_piles("7s/-/3d5h/Ac", "standard");
        assert_eq!(moves(&p), ["f2>1", "deal"]);
        let p = with_piles("7s/-/3d5h/Ac", "easy");
        assert_eq!(moves(&p), ["f2>1", "f2:1>1", "deal"]);
        let p = with_piles("7s/-/3d5h/Ac", "strict");
        assert_eq!(moves(&p), ["deal"]);
        assert_eq!(
            check_move(
                &p,
                Move::Fill {
                    src: 2,
                    dst: 1,
                    index: 0
                }
            )
            .unwrap_err()
            .message,
            "cannot fill pile 1 with 5h: fill='ace' lets only an ace fill an empty pile"
        );
        let p = with_piles("7s/-/3dAh/Kc", "strict");
        assert_eq!(moves(&p), ["f2>1", "deal"]);
        let p = with_piles("7s/-/3d5h/Ac", "deal=stuck");
        assert_eq!(moves(&p), ["f2>1"]);
        assert_eq!(
            check_move(&p, Move::Deal).unwrap_err().message,
            "cannot deal: deal='stuck' and a fill is still possible (f2>1)"
        );
        let p = with_piles("7s/-/3d5h/Ac", "relocate_single=true");
        assert_eq!(moves(&p), ["f0>1", "f2>1", "f3>1", "deal"]);
        let p = with_piles("7s/-/3d5h/Ac", "deal=stuck,relocate_single=true");
        assert_eq!(moves(&p), ["f0>1", "f2>1", "f3>1"]);
        let p = with_piles("7s/-/3d5h/Kc", "reverse,fill=ace");
        assert_eq!(
            check_move(
                &p,
                Move::Fill {
                    src: 2,
                    dst: 1,
                    index: 0
                }
            )
            .unwrap_err()
            .message,
            "cannot fill pile 1 with 5h: fill='ace' lets only a king fill an empty pile"
        );
    }

    #[test]
    fn illegal_fill_reasons_in_order() {
        let p = with_piles("7s/-/3d5h/Ac", "standard");
        let fill = |src, dst, index| {
            check_move(&p, Move::Fill { src, dst, index })
                .unwrap_err()
                .message
        };
        assert_eq!(fill(1, 0, 0), "cannot fill pile 0: it is not empty");
        assert_eq!(fill(3, 0, 5), "cannot fill pile 0: it is not empty");
        let p = with_piles("7s/-/-/3d5hAc", "standard");
        let fill = |src, dst, index| {
            check_move(&p, Move::Fill { src, dst, index })
                .unwrap_err()
                .message
        };
        assert_eq!(
            fill(2, 1, 0),
            "cannot fill pile 1 from pile 2: pile 2 is empty"
        );
        assert_eq!(
            fill(3, 1, 3),
            "cannot fill pile 1 from pile 3: it has no card at index 3"
        );
        assert_eq!(
            fill(3, 1, 1),
            "cannot fill pile 1 with a buried card: fill='top' moves only the top card"
        );
        assert_eq!(
            fill(0, 1, 0),
            "cannot fill pile 1 from pile 0: its only card may not move"
        );
        // With the stock empty (every other card discarded), a lone card stays.
        let rules = Rules {
            relocate_single: true,
            ..Rules::standard()
        };
        let cards = |t: &str| -> Vec<Card> {
            t.as_bytes()
                .chunks(2)
                .map(|c| Card::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .collect()
        };
        let piles = [cards("7s"), vec![], cards("AsAhAd"), cards("Ac")];
        let discards: Vec<Card> = Card::all()
            .filter(|c| !piles.iter().flatten().any(|p| p == c))
            .collect();
        let p = Position::from_parts(rules, &piles, &[], &discards).unwrap();
        assert_eq!(
            check_move(
                &p,
                Move::Fill {
                    src: 0,
                    dst: 1,
                    index: 0
                }
            )
            .unwrap_err()
            .message,
            "cannot fill pile 1 from pile 0: its only card may not move once the stock is empty"
        );
        assert_eq!(moves(&p), ["f2>1"]);
        assert_eq!(
            check_move(&p, Move::Deal).unwrap_err().message,
            "cannot deal: the stock is empty"
        );
        assert_eq!(
            check_move(&p, Move::Discard(1)).unwrap_err().message,
            "cannot discard from pile 1: it is empty"
        );
    }

    // --- The plain versions, and the fast ones checked against them. ---

    /// R2.1 by looking at the other piles, without the masks.
    fn plain_can_discard(pos: &Position, p: usize) -> bool {
        let Some(card) = pos.top(p) else { return false };
        (0..PILES).any(|q| {
            q != p
                && pos.top(q).is_some_and(|other| {
                    other.suit() == card.suit()
                        && strength(other, pos.rules.ace_high) > strength(card, pos.rules.ace_high)
                })
        })
    }

    /// R2.2 read literally.
    fn plain_can_fill(pos: &Position, src: usize, dst: usize, index: usize) -> bool {
        let len = pos.height(src);
        let rules = &pos.rules;
        dst != src
            && pos.height(dst) == 0
            && (len >= 2 || (len == 1 && rules.relocate_single && !pos.stock().is_empty()))
            && index < len
            && match rules.fill {
                FillRule::Top => index == 0,
                FillRule::Ace => index == 0 && is_top_rank(pos.card_from_top(src, 0), rules),
                FillRule::Any => true,
            }
    }

    /// R2.3 read literally.
    fn plain_can_deal(pos: &Position) -> bool {
        !pos.stock().is_empty()
            && !(0..PILES).any(|p| plain_can_discard(pos, p))
            && (pos.rules.deal == DealRule::Free
                || !(0..PILES).any(|s| {
                    pos.height(s) >= 2
                        && (0..PILES)
                            .any(|d| (0..pos.height(s)).any(|i| plain_can_fill(pos, s, d, i)))
                }))
    }

    /// R3 read literally: every candidate move in order, kept when legal.
    fn plain_legal_moves(pos: &Position) -> Vec<Move> {
        let mut out: Vec<Move> = (0..PILES)
            .filter(|&p| plain_can_discard(pos, p))
            .map(|p| Move::Discard(p as u8))
            .collect();
        for src in 0..PILES {
            for dst in 0..PILES {
                for index in 0..pos.height(src) {
                    if plain_can_fill(pos, src, dst, index) {
                        out.push(Move::Fill {
                            src: src as u8,
                            dst: dst as u8,
                            index: index as u64,
                        });
                    }
                }
            }
        }
        if plain_can_deal(pos) {
            out.push(Move::Deal);
        }
        out
    }

    /// Positions met along random games under every combination of options, plus
    /// random deals of the 52 cards into tall piles.
    pub(crate) fn sample_positions(count: usize) -> Vec<Position> {
        let mut rng = Rng::new(99);
        let mut out = Vec::new();
        let all_rules: Vec<Rules> = [FillRule::Top, FillRule::Ace, FillRule::Any]
            .into_iter()
            .flat_map(|fill| {
                [DealRule::Free, DealRule::Stuck]
                    .into_iter()
                    .flat_map(move |deal| {
                        [false, true].into_iter().flat_map(move |relocate_single| {
                            [false, true].into_iter().map(move |ace_high| Rules {
                                fill,
                                deal,
                                relocate_single,
                                ace_high,
                                ..Rules::standard()
                            })
                        })
                    })
            })
            .collect();
        let mut game_no = 0u64;
        while out.len() < count {
            let rules = all_rules[game_no as usize % all_rules.len()];
            let mut game = crate::Game::from_seed(game_no, rules);
            game_no += 1;
            for _ in 0..200 {
                out.push(game.position().clone());
                let moves = plain_legal_moves(game.position());
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                game.play(mv).unwrap();
            }
            // A random scatter of the cards: tall piles, few or many in the stock.
            let deck = crate::rng::shuffle(&mut rng);
            let mut piles: [Vec<Card>; 4] = Default::default();
            let stock_len = 4 * rng.below(8) as usize;
            let n_discards = rng.below(10) as usize;
            let mut discards = Vec::new();
            let mut stock = Vec::new();
            for &card in deck.iter() {
                if stock.len() < stock_len {
                    stock.push(card);
                } else if discards.len() < n_discards && !is_top_rank(card, &rules) {
                    discards.push(card);
                } else {
                    let spread = if rng.below(3) == 0 { 2 } else { 4 };
                    piles[rng.below(spread) as usize].push(card);
                }
            }
            out.push(Position::from_parts(rules, &piles, &stock, &discards).unwrap());
        }
        out
    }

    #[test]
    fn fast_legal_moves_match_the_plain_rules() {
        for pos in sample_positions(30_000) {
            pos.check_invariants();
            let plain = plain_legal_moves(&pos);
            let fast = LegalMoves::of(&pos);
            assert_eq!(legal_moves(&pos), plain, "{}", pos.to_text());
            assert_eq!(fast.len(), plain.len());
            assert_eq!(fast.is_empty(), plain.is_empty());
            assert_eq!(can_deal(&pos), plain_can_deal(&pos));
            for p in 0..PILES {
                assert_eq!(can_discard(&pos, p), plain_can_discard(&pos, p));
            }
            // R7 agrees with R2: a move passes check_move exactly when it is legal.
            for mv in candidate_moves(&pos) {
                assert_eq!(
                    check_move(&pos, mv).is_ok(),
                    plain.contains(&mv),
                    "{mv} in {}",
                    pos.to_text()
                );
            }
        }
    }

    fn candidate_moves(pos: &Position) -> Vec<Move> {
        let mut out: Vec<Move> = (0..4).map(Move::Discard).collect();
        out.push(Move::Deal);
        for src in 0..4u8 {
            for dst in (0..4u8).filter(|&d| d != src) {
                for index in 0..=pos.height(src as usize) as u64 + 1 {
                    out.push(Move::Fill { src, dst, index });
                }
            }
        }
        out
    }
}
