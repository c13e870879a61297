//! A game whose cards a chance player outside the engine deals one at a time
//! (BATCH.md "Gymnasium and OpenSpiel"): the engine of the OpenSpiel state of
//! `acesup.openspiel`, whose every method is one call of this type.
//!
//! Chance draws the first P cards, then the cards of each deal, each among the
//! cards not dealt yet (their codes, as in an observation row); the player plays
//! the actions of [`Spaces`] in between, and with `auto_discard` the forced
//! discards are played for the player. The position's stock holds the unseen
//! cards, a stand-in for the cards chance has not drawn, which no rule reads
//! before they are dealt: when chance has drawn a deal's cards, they are put at
//! the front of the stock and the deal is played.

use super::spaces::{set_bits, Spaces};
use crate::cards::Card;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{self, LegalMoves, Rules, Tableau};
use crate::{Error, ErrorKind, Result};
use std::sync::Arc;

/// Who acts next in a [`ChanceGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Chance draws a card.
    Chance,
    /// The player plays an action.
    Player,
    /// The game is over.
    Over,
}

/// What every game of one set of rules shares: the actions and the deck by code.
#[derive(Debug)]
struct Layout {
    spaces: Spaces,
    /// The layout's deck in index order: card `c` has code `c`.
    deck: Vec<Card>,
}

/// A game dealt card by card by an outside chance player (see the module).
#[derive(Clone, Debug)]
pub struct ChanceGame {
    layout: Arc<Layout>,
    rules: Rules,
    auto_discard: bool,
    /// Bit c: the card of code c is not dealt yet.
    unseen: u64,
    /// The codes of the cards dealt, in deal order.
    dealt: Vec<u8>,
    /// The cards chance is still to draw: of the first P, or of the deal under way.
    pending: usize,
    /// The cards of the deal under way, drawn or not.
    drawing: usize,
    /// None until the first P cards are drawn; during a deal, the position before it.
    pos: Option<Position>,
    /// The position is over (R4.1): noted after each change, since OpenSpiel asks
    /// whose turn it is several times an action.
    over: bool,
    /// Every action applied, chance's and the player's, in order.
    history: Vec<u8>,
}

impl ChanceGame {
    /// A game before chance has drawn any card.
    pub fn new(rules: Rules, auto_discard: bool) -> ChanceGame {
        let layout = Layout {
            spaces: Spaces::new(&rules),
            deck: rules.deck(),
        };
        ChanceGame {
            unseen: (1u64 << layout.deck.len()) - 1,
            pending: usize::from(rules.piles),
            layout: Arc::new(layout),
            rules,
            auto_discard,
            dealt: Vec::new(),
            drawing: 0,
            pos: None,
            over: false,
            history: Vec::new(),
        }
    }

    /// The game after `actions` (as [`ChanceGame::history`] gives them), applied to
    /// a new game: the error of the first that [`ChanceGame::apply`] refuses.
    pub fn replay(rules: Rules, auto_discard: bool, actions: &[u8]) -> Result<ChanceGame> {
        let mut game = ChanceGame::new(rules, auto_discard);
        for &action in actions {
            game.apply(i64::from(action))?;
        }
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn auto_discard(&self) -> bool {
        self.auto_discard
    }

    pub fn spaces(&self) -> &Spaces {
        &self.layout.spaces
    }

    /// Who acts next.
    #[inline]
    pub fn turn(&self) -> Turn {
        if self.pending > 0 {
            Turn::Chance
        } else if self.over {
            Turn::Over
        } else {
            Turn::Player
        }
    }

    /// The cards chance is still to draw before the player acts again.
    pub fn pending(&self) -> usize {
        self.pending
    }

    /// The codes of the cards dealt so far, in deal order.
    pub fn dealt(&self) -> &[u8] {
        &self.dealt
    }

    /// Every action applied so far, chance's card codes and the player's actions.
    pub fn history(&self) -> &[u8] {
        &self.history
    }

    /// The position: None before the first P cards are dealt, and during a deal
    /// the position before it. Its stock's order beyond the cards dealt is a
    /// stand-in (see the module).
    pub fn position(&self) -> Option<&Position> {
        self.pos.as_ref()
    }

    /// The cards discarded.
    pub fn score(&self) -> usize {
        self.pos.as_ref().map_or(0, Position::score)
    }

    /// The codes of the cards chance may draw, ascending (none unless it is
    /// chance's turn).
    #[inline]
    pub fn chance_outcomes(&self) -> impl Iterator<Item = u8> {
        codes(if self.pending > 0 { self.unseen } else { 0 })
    }

    /// The actions legal now, ascending: chance's outcomes at a chance node, the
    /// player's legal actions, or none when the game is over.
    #[inline]
    pub fn legal_actions(&self) -> Vec<u8> {
        match (self.turn(), &self.pos) {
            (Turn::Player, Some(pos)) => {
                self.spaces().legal_actions(&LegalMoves::of(pos)).collect()
            }
            _ => self.chance_outcomes().collect(),
        }
    }

    /// The observation row of BATCH.md of the position; before the first P cards
    /// are dealt, empty piles, no discards and a stock of D cards.
    pub fn observation(&self) -> Vec<i8> {
        let spaces = self.spaces();
        match &self.pos {
            Some(pos) => spaces.observation_of(pos),
            None => {
                let mut row = vec![0; spaces.observation_size()];
                row[..spaces.piles * spaces.max_height].fill(-1);
                row[spaces.observation_size() - 1] = self.layout.deck.len() as i8;
                row
            }
        }
    }

    /// Applies `action`: at a chance node chance draws the card of that code,
    /// else the player plays it (a deal only asks chance for its cards). Errors,
    /// the game unchanged: `ValueError` for a code that is not a card or a card
    /// already dealt, or an action outside `[0, A)`; `IllegalMoveError` (R7) for
    /// an illegal action.
    pub fn apply(&mut self, action: i64) -> Result<()> {
        if self.pending > 0 {
            self.draw(action)?;
        } else {
            self.play(action)?;
        }
        self.history.push(action as u8); // a card code or an action: below 256
        Ok(())
    }

    fn draw(&mut self, action: i64) -> Result<()> {
        let deck = &self.layout.deck;
        let code = match usize::try_from(action) {
            Ok(code) if code < deck.len() => code,
            _ => {
                return Err(Error::new(
                    ErrorKind::Value,
                    format!(
                        "chance action {action} is not a card: the card codes are 0 to {}",
                        deck.len() - 1
                    ),
                ))
            }
        };
        if self.unseen >> code & 1 == 0 {
            return Err(Error::new(
                ErrorKind::Value,
                format!(
                    "chance action {action} is {}, which is already dealt",
                    deck[code]
                ),
            ));
        }
        self.unseen &= !(1 << code);
        self.dealt.push(code as u8);
        self.pending -= 1;
        if self.pending == 0 {
            self.deal();
        }
        Ok(())
    }

    /// Plays the deal whose cards chance has drawn (at the start, deals the first P
    /// cards), then the forced discards.
    fn deal(&mut self) {
        let deck = &self.layout.deck;
        let fresh = self.dealt.len()
            - if self.pos.is_some() {
                self.drawing
            } else {
                self.dealt.len()
            };
        let cards: Vec<Card> = self.dealt[fresh..]
            .iter()
            .copied()
            .chain(codes(self.unseen))
            .map(|code| deck[usize::from(code)])
            .collect();
        let pos = match &mut self.pos {
            Some(pos) => {
                pos.set_stock_order(&cards);
                pos.apply(Move::Deal);
                pos
            }
            None => self.pos.insert(Position::from_deck(&cards, self.rules)),
        };
        self.over = discard_forced(pos, self.auto_discard);
    }

    fn play(&mut self, action: i64) -> Result<()> {
        let moves = &self.layout.spaces.moves;
        let Some(&mv) = usize::try_from(action).ok().and_then(|a| moves.get(a)) else {
            return Err(Error::new(
                ErrorKind::Value,
                format!(
                    "action must be an int from 0 to {}, got {action}",
                    moves.len() - 1
                ),
            ));
        };
        let pos = self
            .pos
            .as_mut()
            .expect("the first cards are dealt before the player acts");
        if mv == Move::Deal {
            if let Some(reason) = rules::illegal_reason(pos, mv) {
                return Err(Error::new(ErrorKind::IllegalMove, reason));
            }
            let mut trial = pos.clone();
            trial.apply(mv);
            self.pending = pos.stock_left() - trial.stock_left();
            self.drawing = self.pending;
            return Ok(());
        }
        pos.play(mv)?;
        self.over = discard_forced(pos, self.auto_discard);
        Ok(())
    }

    /// The position as R6.6 draws it, or the cards dealt so far before there is
    /// one; during a deal, the cards still to draw.
    pub fn text(&self) -> String {
        let Some(pos) = &self.pos else {
            let cards: Vec<String> = self
                .dealt
                .iter()
                .map(|&c| self.layout.deck[usize::from(c)].to_string())
                .collect();
            return format!("dealing: {}", cards.join(" "));
        };
        match self.pending {
            0 => pos.tableau(),
            pending => format!("{}\ndealing {pending} more", pos.tableau()),
        }
    }
}

/// With `auto_discard`, the first legal discard (R3 order) until none is legal, as
/// the forced discards of a Batch's games are played (STRATEGIES.md "Forced
/// discards"); then whether the game is over.
fn discard_forced(pos: &mut Position, auto_discard: bool) -> bool {
    while let Some(p) = auto_discard.then(|| rules::first_discard(pos)).flatten() {
        pos.apply(Move::Discard(p as u8));
    }
    pos.is_over()
}

/// The codes of the cards of `cards` (bit c: the card of code c), ascending.
#[inline]
fn codes(cards: u64) -> impl Iterator<Item = u8> {
    set_bits(cards).map(|code| code as u8)
}
