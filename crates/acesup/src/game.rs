//! Games: a position with its history of moves and its strategy stream (RNG.md).

use crate::cards::{check_deck, Card};
use crate::deals::deck_from_seed_and_stream;
use crate::moves::Move;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{self, Rules};
use crate::strategies::Strategy;
use crate::{Error, ErrorKind, Result};

/// A game: a position, the moves played to reach it, and the strategy stream.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    history: Vec<Move>,
    rng: Rng,
    /// Moves played or taken back since the game was made: a change that keeps
    /// the history's length (an undo, then a play) still changes this.
    changes: u64,
}

impl Game {
    /// `Game.from_seed`: deal `deck_from_seed(seed)`, and keep the generator just
    /// after the shuffle as the strategy stream (RNG.md).
    pub fn from_seed(seed: u64, rules: Rules) -> Game {
        let (deck, rng) = deck_from_seed_and_stream(seed, &rules);
        Game {
            pos: Position::from_deck(&deck, rules),
            history: Vec::new(),
            rng,
            changes: 0,
        }
    }

    /// `Game.from_deck`: `DeckError` unless `deck` is the layout's deck (R1.3).
    pub fn from_deck(deck: &[Card], rules: Rules, seed: u64) -> Result<Game> {
        check_deck(deck, &rules.deck())?;
        Ok(Game {
            pos: Position::from_deck(deck, rules),
            history: Vec::new(),
            rng: Rng::new(seed),
            changes: 0,
        })
    }

    /// A game at `pos` with no history.
    pub fn from_position(pos: Position, rng: Rng) -> Game {
        Game {
            pos,
            history: Vec::new(),
            rng,
            changes: 0,
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

    /// How many moves were played or taken back since the game was made, to tell
    /// whether a game handed to someone came back untouched.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
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
        rules::illegal_reason(&self.pos, mv).is_none()
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
        self.changes += 1;
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
        self.changes += 1;
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

#[cfg(test)]
#[path = "tests/game.rs"]
mod tests;
