//! Many seeded games stepped at once (docs/BATCH.md): the engine of `acesup.Batch`.
//!
//! A [`Batch`] holds n slots, each a [`Position`] of one game of a run (games
//! `start ..` of a master seed, dealt as `simulate` deals them), and writes what a
//! policy reads into flat buffers, row after row: the observation, the legal-action
//! mask, the score. [`Batch::step`] checks a whole action vector before any game
//! changes, then plays one action in every unfinished game (on all cores for a large
//! batch), the forced discards after it, and deals the next games of the run into
//! the slots whose game ended, in ascending slot order. Every rule is asked of
//! [`crate::rules`] and the [`Position`] API; this module only numbers the moves
//! ([`Layout`]) and keeps the books, as [`crate::simulate`] does.

use crate::cards::{Card, DECK_SIZE};
use crate::game::Game;
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rng::game_seed;
use crate::rules::{self, LegalMoves, Rules, Tableau};
use crate::simulate::{deal_seeded, padded_deck};
use crate::stats::Stats;
use crate::{Error, ErrorKind, Result};
use rayon::prelude::*;

/// The action space and the observation layout of one set of rules (BATCH.md
/// "Actions" and "Observations").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// P, the number of piles.
    pub piles: usize,
    /// H = 1 + ⌈(D − P) / P⌉, the most cards a pile can hold.
    pub max_height: usize,
    /// K, the fill indices that have actions: H under `fill="any"`, else 1.
    pub fill_indices: usize,
    /// The move of each action, in R3 order.
    pub moves: Vec<Move>,
    /// The code of each card index: its place in the layout's deck (-1 off the layout).
    code: [i8; DECK_SIZE],
    deck_size: usize,
}

impl Layout {
    pub fn new(rules: &Rules) -> Layout {
        let piles = usize::from(rules.piles);
        let deck = rules.deck();
        let max_height = 1 + (deck.len() - piles).div_ceil(piles);
        let fill_indices = if rules.fill == rules::FillRule::Any {
            max_height
        } else {
            1
        };
        let mut moves: Vec<Move> = (0..piles).map(|p| Move::Discard(p as u8)).collect();
        for src in 0..piles {
            for dst in (0..piles).filter(|&dst| dst != src) {
                moves.extend((0..fill_indices).map(|index| Move::Fill {
                    src: src as u8,
                    dst: dst as u8,
                    index: index as u64,
                }));
            }
        }
        moves.push(Move::Deal);
        let mut code = [-1; DECK_SIZE];
        for (k, card) in deck.iter().enumerate() {
            code[card.index()] = k as i8;
        }
        Layout {
            piles,
            max_height,
            fill_indices,
            moves,
            code,
            deck_size: deck.len(),
        }
    }

    /// A, the number of actions (at most 5 + 20 · 11 + 1 = 226: an action fits a u8).
    pub fn num_actions(&self) -> usize {
        self.moves.len()
    }

    /// The length of an observation row: P·H pile cells, D discard flags, the stock count.
    pub fn observation_size(&self) -> usize {
        self.piles * self.max_height + self.deck_size + 1
    }

    /// The action of `mv`, a move these rules can name (a pile below P, an index below K).
    #[inline]
    fn action(&self, mv: Move) -> usize {
        let p = self.piles;
        match mv {
            Move::Discard(pile) => usize::from(pile),
            Move::Fill { src, dst, index } => {
                let (src, dst) = (usize::from(src), usize::from(dst));
                let d = if dst < src { dst } else { dst - 1 };
                p + (src * (p - 1) + d) * self.fill_indices + index as usize
            }
            Move::Deal => self.moves.len() - 1,
        }
    }

    /// Writes the observation row of `pos` into `row`.
    #[inline]
    fn observe(&self, pos: &Position, row: &mut [i8]) {
        let grid = self.piles * self.max_height;
        row[..grid].fill(-1);
        row[grid..].fill(0);
        for p in 0..self.piles {
            let cells = &mut row[p * self.max_height..];
            for (cell, card) in cells.iter_mut().zip(pos.pile(p).iter()) {
                *cell = self.code[card.index()];
            }
        }
        for card in pos.discards() {
            row[grid + self.code[card.index()] as usize] = 1;
        }
        row[grid + self.deck_size] = pos.stock_left() as i8;
    }

    /// Writes the legal-action mask of `legal` into `row`.
    #[inline]
    fn mask(&self, legal: &LegalMoves, row: &mut [bool]) {
        row.fill(false);
        for mv in legal.iter() {
            row[self.action(mv)] = true;
        }
    }
}

/// One slot: its game's position and index, whether the game is still played, and
/// the actions the policy played in it (from which [`Batch::game`] replays it).
#[derive(Clone)]
struct Slot {
    pos: Position,
    index: u64,
    active: bool,
    actions: Vec<u8>,
}

/// Below this many slots a step stays on the calling thread.
const PARALLEL_SLOTS: usize = 4096;
/// The slots of one parallel task.
const CHUNK_SLOTS: usize = 1024;

/// n games of one run stepped together (docs/BATCH.md).
#[derive(Clone)]
pub struct Batch {
    rules: Rules,
    layout: Layout,
    deck: [Card; DECK_SIZE],
    seed: u64,
    start: u64,
    games: u128,
    auto_discard: bool,
    /// The games of the run dealt so far (the next game index is `start + dealt`).
    dealt: u128,
    finished: u128,
    stats: Stats,
    /// With `scores=True`: the score of every game dealt, by game index − start (0
    /// while it is played).
    scores: Option<Vec<u8>>,
    slots: Vec<Slot>,
    observation: Vec<i8>,
    final_observation: Vec<i8>,
    mask: Vec<bool>,
    score: Vec<u8>,
    terminated: Vec<bool>,
    won: Vec<bool>,
    reward: Vec<u8>,
}

/// What a [`Batch`] is beyond its construction arguments: enough to rebuild it
/// ([`Batch::restore`]), for pickling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchState {
    /// Each slot's game index, whether it is played, and the actions played in it.
    pub slots: Vec<(u64, bool, Vec<u8>)>,
    pub dealt: u128,
    pub finished: u128,
    pub histogram: Vec<u64>,
    pub scores: Option<Vec<u8>>,
    pub terminated: Vec<bool>,
    pub won: Vec<bool>,
    pub final_observation: Vec<i8>,
}

impl Batch {
    /// `n` slots over games `start .. start + games` of master seed `seed`; the
    /// caller has checked that `1 <= n <= games` and `start + games <= 2⁶⁴`.
    pub fn new(
        n: usize,
        rules: Rules,
        seed: u64,
        start: u64,
        games: u128,
        auto_discard: bool,
        keep_scores: bool,
    ) -> Result<Batch> {
        rules.validate()?;
        if n == 0 || (n as u128) > games || u128::from(start) + games > 1 << 64 {
            return Err(Error::new(
                ErrorKind::Value,
                format!("a batch of {n} slots cannot play {games} games from {start}"),
            ));
        }
        let layout = Layout::new(&rules);
        let (o, a) = (layout.observation_size(), layout.num_actions());
        let deck = padded_deck(&rules);
        let blank = Slot {
            pos: Position::from_deck(&rules.deck(), rules),
            index: start,
            active: false,
            actions: Vec::new(),
        };
        let mut batch = Batch {
            rules,
            layout,
            deck,
            seed,
            start,
            games,
            auto_discard,
            dealt: 0,
            finished: 0,
            stats: Stats::empty(rules.win_score()),
            scores: keep_scores.then(Vec::new),
            slots: vec![blank; n],
            observation: vec![0; n * o],
            final_observation: vec![0; n * o],
            mask: vec![false; n * a],
            score: vec![0; n],
            terminated: vec![false; n],
            won: vec![false; n],
            reward: vec![0; n],
        };
        for slot in 0..n {
            if !batch.deal_into(slot) {
                batch.show_last_dealt(slot);
            }
        }
        batch.final_observation.copy_from_slice(&batch.observation);
        Ok(batch)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn n(&self) -> usize {
        self.slots.len()
    }

    /// The next game index that no slot has taken (`start + games` when none is left).
    pub fn next_index(&self) -> u128 {
        u128::from(self.start) + self.dealt
    }

    /// The number of games of the run that are over.
    pub fn finished(&self) -> u128 {
        self.finished
    }

    pub fn done(&self) -> bool {
        self.finished == self.games
    }

    /// (n, observation_size) row after row.
    pub fn observation(&self) -> &[i8] {
        &self.observation
    }

    pub fn final_observation(&self) -> &[i8] {
        &self.final_observation
    }

    /// (n, num_actions) row after row.
    pub fn action_mask(&self) -> &[bool] {
        &self.mask
    }

    pub fn score(&self) -> &[u8] {
        &self.score
    }

    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    pub fn won(&self) -> &[bool] {
        &self.won
    }

    /// The reward of the last step: the cards each slot's game discarded in it.
    pub fn reward(&self) -> &[u8] {
        &self.reward
    }

    pub fn game_index(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.index).collect()
    }

    /// The statistics of the games that are over and, with `scores=True`, their
    /// scores in game-index order.
    pub fn stats(&self) -> (Stats, Option<Vec<u8>>) {
        let scores = self.scores.as_ref().map(|scores| {
            let playing: std::collections::HashSet<usize> = self
                .slots
                .iter()
                .filter(|s| s.active)
                .map(|s| (s.index - self.start) as usize)
                .collect();
            let kept = scores
                .iter()
                .enumerate()
                .filter(|(offset, _)| !playing.contains(offset));
            kept.map(|(_, &score)| score).collect()
        });
        (self.stats.clone(), scores)
    }

    /// Slot `slot`'s game (`slot < n`) as a [`Game`]: dealt from its seed, with every
    /// move played in the slot (forced discards included) as its history.
    pub fn game(&self, slot: usize) -> Game {
        let slot = &self.slots[slot];
        let mut game = Game::from_seed(game_seed(self.seed, slot.index), self.rules);
        self.play_forced(&mut game);
        for &action in &slot.actions {
            game.play(self.layout.moves[usize::from(action)])
                .expect("a slot's actions are legal");
            self.play_forced(&mut game);
        }
        game
    }

    /// With `auto_discard`, the first legal discard of `game` until none is legal.
    fn play_forced(&self, game: &mut Game) {
        while let Some(p) = self
            .auto_discard
            .then(|| rules::first_discard(game.position()))
            .flatten()
        {
            game.play(Move::Discard(p as u8))
                .expect("a legal discard plays");
        }
    }

    /// Plays `actions[i]` in every slot i whose game is not over, then (with
    /// `auto_discard`) its forced discards, and deals the next games of the run into
    /// the slots whose game ended, in ascending order. Checked first, every game
    /// unchanged on failure: `ValueError` when the run is done, for a length other
    /// than n, an action outside [0, A); `IllegalMoveError` naming the first slot
    /// whose action is illegal.
    pub fn step(&mut self, actions: &[u8]) -> Result<()> {
        self.check(actions)?;
        let (o, a) = (self.layout.observation_size(), self.layout.num_actions());
        let (layout, auto) = (&self.layout, self.auto_discard);
        let play = |slots: &mut [Slot],
                    obs: &mut [i8],
                    fin: &mut [i8],
                    mask: &mut [bool],
                    score: &mut [u8],
                    reward: &mut [u8],
                    ended: &mut [bool],
                    actions: &[u8]| {
            for i in 0..slots.len() {
                // A slot's position is kilobytes: fetch the next ones' while this one plays.
                if let Some(ahead) = slots.get(i + 4) {
                    ahead.pos.prefetch(false);
                }
                if let Some(ahead) = slots.get(i + 2) {
                    ahead.pos.prefetch(true);
                }
                let slot = &mut slots[i];
                ended[i] = false;
                reward[i] = 0;
                if !slot.active {
                    continue;
                }
                let before = slot.pos.score();
                slot.pos.apply(layout.moves[usize::from(actions[i])]);
                if auto {
                    slot.pos.discard_forced();
                }
                slot.actions.push(actions[i]);
                reward[i] = (slot.pos.score() - before) as u8;
                score[i] = slot.pos.score() as u8;
                let legal = LegalMoves::of(&slot.pos);
                ended[i] = legal.is_empty();
                let row = &mut obs[i * o..(i + 1) * o];
                layout.observe(&slot.pos, row);
                fin[i * o..(i + 1) * o].copy_from_slice(row);
                layout.mask(&legal, &mut mask[i * a..(i + 1) * a]);
            }
        };
        if self.slots.len() < PARALLEL_SLOTS {
            play(
                &mut self.slots,
                &mut self.observation,
                &mut self.final_observation,
                &mut self.mask,
                &mut self.score,
                &mut self.reward,
                &mut self.terminated,
                actions,
            );
        } else {
            let c = CHUNK_SLOTS;
            self.slots
                .par_chunks_mut(c)
                .zip(self.observation.par_chunks_mut(c * o))
                .zip(self.final_observation.par_chunks_mut(c * o))
                .zip(self.mask.par_chunks_mut(c * a))
                .zip(self.score.par_chunks_mut(c))
                .zip(self.reward.par_chunks_mut(c))
                .zip(self.terminated.par_chunks_mut(c))
                .zip(actions.par_chunks(c))
                .for_each(
                    |(((((((slots, obs), fin), mask), score), reward), ended), actions)| {
                        play(slots, obs, fin, mask, score, reward, ended, actions)
                    },
                );
        }
        for slot in 0..self.slots.len() {
            self.won[slot] = false;
            if self.terminated[slot] {
                self.won[slot] = self.slots[slot].pos.is_won();
                self.end(slot);
                self.deal_into(slot);
            }
        }
        Ok(())
    }

    /// Step's checks, in BATCH.md's order.
    fn check(&self, actions: &[u8]) -> Result<()> {
        let value = |message: String| Err(Error::new(ErrorKind::Value, message));
        if self.done() {
            return value(format!(
                "the run is done: all {} games have been played",
                self.games
            ));
        }
        let (n, a) = (self.slots.len(), self.layout.num_actions());
        if actions.len() != n {
            return value(format!(
                "actions must have shape ({n},), got ({},)",
                actions.len()
            ));
        }
        if let Some(i) = actions.iter().position(|&x| usize::from(x) >= a) {
            return value(format!(
                "actions[{i}] = {} is not an action: actions are 0 to {}",
                actions[i],
                a - 1
            ));
        }
        let illegal =
            (0..n).find(|&i| self.slots[i].active && !self.mask[i * a + usize::from(actions[i])]);
        if let Some(i) = illegal {
            let (slot, action) = (&self.slots[i], usize::from(actions[i]));
            let mv = self.layout.moves[action];
            let reason =
                rules::illegal_reason(&slot.pos, mv).expect("the mask holds every legal move");
            return Err(Error::new(
                ErrorKind::IllegalMove,
                format!(
                    "slot {i} (game {}): action {action} ({mv}): {reason}",
                    slot.index
                ),
            ));
        }
        Ok(())
    }

    /// Gives `slot` the next game of the run whose start is not over (a game over at
    /// its start is counted at once), or leaves it idle, showing its last game, when
    /// the run has none left; then writes its observation, mask and score. Whether
    /// it dealt any game into the slot.
    fn deal_into(&mut self, slot: usize) -> bool {
        let mut any = false;
        while self.dealt < self.games {
            any = true;
            let index = self.start.wrapping_add(self.dealt as u64);
            self.dealt += 1;
            let s = &mut self.slots[slot];
            deal_seeded(&mut s.pos, &self.deck, self.seed, index);
            if self.auto_discard {
                s.pos.discard_forced();
            }
            s.index = index;
            s.active = true;
            s.actions.clear();
            if let Some(scores) = &mut self.scores {
                scores.push(0);
            }
            if !rules::is_over(&self.slots[slot].pos) {
                break;
            }
            self.end(slot);
        }
        self.show(slot);
        any
    }

    /// A slot that the run left without a game at the start (games over at their
    /// start used it up) shows the last game dealt, over, idle (BATCH.md "Slots").
    fn show_last_dealt(&mut self, slot: usize) {
        let index = self.start.wrapping_add(self.dealt as u64 - 1);
        let s = &mut self.slots[slot];
        deal_seeded(&mut s.pos, &self.deck, self.seed, index);
        if self.auto_discard {
            s.pos.discard_forced();
        }
        (s.index, s.active) = (index, false);
        self.show(slot);
    }

    /// Writes the slot's observation, mask and score.
    fn show(&mut self, slot: usize) {
        let (o, a) = (self.layout.observation_size(), self.layout.num_actions());
        let s = &self.slots[slot];
        self.layout
            .observe(&s.pos, &mut self.observation[slot * o..(slot + 1) * o]);
        let legal = LegalMoves::of(&s.pos);
        let mask = &mut self.mask[slot * a..(slot + 1) * a];
        if s.active {
            self.layout.mask(&legal, mask);
        } else {
            mask.fill(false);
        }
        self.score[slot] = s.pos.score() as u8;
    }

    /// Counts the slot's game, which is over, and leaves the slot idle.
    fn end(&mut self, slot: usize) {
        let s = &mut self.slots[slot];
        let score = s.pos.score();
        self.stats.record(score);
        self.finished += 1;
        if let Some(scores) = &mut self.scores {
            scores[(s.index - self.start) as usize] = score as u8;
        }
        s.active = false;
    }

    /// What the batch is beyond its construction arguments.
    pub fn state(&self) -> BatchState {
        BatchState {
            slots: self
                .slots
                .iter()
                .map(|s| (s.index, s.active, s.actions.clone()))
                .collect(),
            dealt: self.dealt,
            finished: self.finished,
            histogram: self.stats.histogram().to_vec(),
            scores: self.scores.clone(),
            terminated: self.terminated.clone(),
            won: self.won.clone(),
            final_observation: self.final_observation.clone(),
        }
    }

    /// The batch of these construction arguments in `state` (from [`Batch::state`]):
    /// each slot's game replayed. `ValueError` when the state does not fit them, an
    /// engine error when a slot's actions do not replay.
    #[allow(clippy::too_many_arguments)]
    pub fn restore(
        rules: Rules,
        seed: u64,
        start: u64,
        games: u128,
        auto_discard: bool,
        state: BatchState,
    ) -> Result<Batch> {
        let n = state.slots.len();
        let mut batch = Batch::new(
            n,
            rules,
            seed,
            start,
            games,
            auto_discard,
            state.scores.is_some(),
        )?;
        let o = batch.layout.observation_size();
        let fits = state.terminated.len() == n
            && state.won.len() == n
            && state.final_observation.len() == n * o
            && state.dealt <= games
            && state.finished <= state.dealt;
        if !fits {
            return Err(Error::new(
                ErrorKind::Value,
                "a Batch state of another shape",
            ));
        }
        for (i, (index, active, actions)) in state.slots.into_iter().enumerate() {
            let mut game = Game::from_seed(game_seed(seed, index), rules);
            batch.play_forced(&mut game);
            for &action in &actions {
                let mv =
                    *batch.layout.moves.get(usize::from(action)).ok_or_else(|| {
                        Error::new(ErrorKind::Value, format!("no action {action}"))
                    })?;
                game.play(mv)?;
                batch.play_forced(&mut game);
            }
            let slot = &mut batch.slots[i];
            slot.pos = game.position().clone();
            (slot.index, slot.active, slot.actions) = (index, active, actions);
            batch.show(i);
        }
        batch.dealt = state.dealt;
        batch.finished = state.finished;
        batch.stats = Stats::from_histogram(&state.histogram)?;
        batch.scores = state.scores;
        batch.terminated = state.terminated;
        batch.won = state.won;
        batch.final_observation = state.final_observation;
        Ok(batch)
    }
}

const _: () = assert!(MAX_PILES + MAX_PILES * (MAX_PILES - 1) * 11 + 1 <= 256);

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard numbering of BATCH.md, and masks that agree with the legal moves.
    #[test]
    fn standard_layout_and_masks() {
        let layout = Layout::new(&Rules::standard());
        assert_eq!((layout.num_actions(), layout.observation_size()), (17, 105));
        assert_eq!(layout.moves[4], Move::fill(0, 1, 0).unwrap());
        assert_eq!(layout.moves[7], Move::fill(1, 0, 0).unwrap());
        for (action, &mv) in layout.moves.iter().enumerate() {
            assert_eq!(layout.action(mv), action);
        }
        let easy = Layout::new(&Rules::easy());
        assert_eq!(easy.num_actions(), 4 + 12 * 13 + 1);
        for (action, &mv) in easy.moves.iter().enumerate() {
            assert_eq!(easy.action(mv), action);
        }
    }

    /// Playing the first legal action to the end covers the run exactly and gives
    /// what simulate's first-legal play gives, at any slot count, in parallel too.
    #[test]
    fn a_run_covers_its_games_and_replays() {
        for n in [1, 7, PARALLEL_SLOTS + 5] {
            let games = n as u128 + 300;
            let mut batch = Batch::new(n, Rules::easy(), 5, 10, games, true, true).unwrap();
            let a = batch.layout.num_actions();
            while !batch.done() {
                let actions: Vec<u8> = (0..n)
                    .map(|i| {
                        let row = &batch.mask[i * a..(i + 1) * a];
                        row.iter().position(|&b| b).unwrap_or(0) as u8
                    })
                    .collect();
                batch.step(&actions).unwrap();
                // The replayed game shows what the slot shows (the order of the
                // discards aside: forced discards are played in rounds).
                let o = batch.layout.observation_size();
                for slot in [0, n / 2, n - 1] {
                    let mut row = vec![0; o];
                    batch.layout.observe(batch.game(slot).position(), &mut row);
                    assert_eq!(row, batch.observation[slot * o..(slot + 1) * o]);
                }
            }
            let (stats, scores) = batch.stats();
            assert_eq!(stats.games(), games);
            assert_eq!(scores.unwrap().len() as u128, games);
            let twin = Batch::restore(Rules::easy(), 5, 10, games, true, batch.state()).unwrap();
            assert_eq!(twin.state(), batch.state());
            assert_eq!(twin.observation, batch.observation);
            assert!(batch.step(&vec![0; n]).is_err());
        }
    }
}
