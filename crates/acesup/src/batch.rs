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
//! ([`Spaces`]) and keeps the books, as [`crate::simulate`] does.

mod chance;
mod spaces;

pub use chance::{ChanceGame, Turn};
pub use spaces::Spaces;

use crate::cards::{Card, DECK_SIZE};
use crate::deals::{deal_seeded, padded_deck};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::rng::game_seed;
use crate::rules::{self, by_piles, LegalMoves, Rules};
use crate::stats::Stats;
use crate::{Error, ErrorKind, Result};
use rayon::prelude::*;

/// One slot: its game's position and index, whether the game is still played, and
/// the actions the policy played in it (from which [`Batch::game`] replays it).
#[derive(Clone)]
struct Slot {
    pos: Position,
    index: u64,
    active: bool,
    actions: History,
}

/// The actions of a slot's game that most games play at most: kept in the slot.
const INLINE_ACTIONS: usize = 32;

/// The actions played in a slot's game, in order: the first [`INLINE_ACTIONS`] in
/// the slot itself, so that a step records its action in memory it has fetched
/// already, the others (a long game's) in a vector.
#[derive(Clone, Default)]
struct History {
    first: [u8; INLINE_ACTIONS],
    len: usize,
    more: Vec<u8>,
}

impl History {
    fn of(actions: &[u8]) -> History {
        let mut history = History::default();
        for &action in actions {
            history.push(action);
        }
        history
    }

    #[inline]
    fn push(&mut self, action: u8) {
        match self.first.get_mut(self.len) {
            Some(place) => *place = action,
            None => self.more.push(action),
        }
        self.len += 1;
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
        self.more.clear();
    }

    fn to_vec(&self) -> Vec<u8> {
        let first = &self.first[..self.len.min(INLINE_ACTIONS)];
        first.iter().chain(&self.more).copied().collect()
    }
}

/// Below this many slots a step stays on the calling thread.
const PARALLEL_SLOTS: usize = 4096;
/// The slots of one parallel task.
const CHUNK_SLOTS: usize = 1024;

/// The rows of a run of consecutive slots, from slot `first` on: the part of a
/// [`Batch`]'s buffers that one task of a step writes.
struct Rows<'a> {
    first: usize,
    slots: &'a mut [Slot],
    observation: &'a mut [i8],
    final_rows: &'a mut [i8],
    mask: &'a mut [u8],
    score: &'a mut [u8],
    reward: &'a mut [u8],
    terminated: &'a mut [bool],
    won: &'a mut [bool],
    deals: &'a mut [Option<u64>],
}

impl Rows<'_> {
    /// Runs `task` over these rows, cut into runs of [`CHUNK_SLOTS`] consecutive
    /// slots on all cores when there are [`PARALLEL_SLOTS`] or more and more than
    /// one thread to run them (`RAYON_NUM_THREADS`), else at once on this thread:
    /// a pool of one thread would only add a hand-over and a wake-up per call.
    fn for_each(self, spaces: &Spaces, task: impl Fn(Rows<'_>) + Sync) {
        if self.slots.len() < PARALLEL_SLOTS || rayon::current_num_threads() == 1 {
            return task(self);
        }
        let (o, a, c) = (spaces.observation_size(), spaces.num_actions(), CHUNK_SLOTS);
        self.slots
            .par_chunks_mut(c)
            .zip(self.observation.par_chunks_mut(c * o))
            .zip(self.final_rows.par_chunks_mut(c * o))
            .zip(self.mask.par_chunks_mut(c * a))
            .zip(self.score.par_chunks_mut(c))
            .zip(self.reward.par_chunks_mut(c))
            .zip(self.terminated.par_chunks_mut(c))
            .zip(self.won.par_chunks_mut(c))
            .zip(self.deals.par_chunks_mut(c))
            .enumerate()
            .for_each(|(chunk, rows)| {
                let (
                    (
                        ((((((slots, observation), final_rows), mask), score), reward), terminated),
                        won,
                    ),
                    deals,
                ) = rows;
                task(Rows {
                    first: self.first + chunk * c,
                    slots,
                    observation,
                    final_rows,
                    mask,
                    score,
                    reward,
                    terminated,
                    won,
                    deals,
                })
            });
    }
}

/// What the tasks of a step read: the batch's configuration.
struct Play<'a> {
    rules: &'a Rules,
    spaces: &'a Spaces,
    deck: &'a [Card; DECK_SIZE],
    seed: u64,
    auto_discard: bool,
}

impl Play<'_> {
    /// Plays `actions[first + i]` in each active slot of `rows` and its forced
    /// discards, and brings the slot's rows up to date (its observation in place);
    /// `terminated` marks the games that are over.
    #[inline]
    fn moves<const P: usize>(&self, rows: Rows<'_>, actions: &[u8]) {
        let (o, a) = (self.spaces.observation_size(), self.spaces.num_actions());
        let actions = &actions[rows.first..rows.first + rows.slots.len()];
        #[expect(
            clippy::needless_range_loop,
            reason = "slot i is changed while slots i+2 and i+4 are read"
        )]
        for i in 0..rows.slots.len() {
            // Fetch the next slots' positions while this one plays.
            if let Some(ahead) = rows.slots.get(i + 4) {
                ahead.pos.prefetch(false);
            }
            if let Some(ahead) = rows.slots.get(i + 2) {
                ahead.pos.prefetch(true);
            }
            let slot = &mut rows.slots[i];
            (rows.terminated[i], rows.won[i], rows.reward[i]) = (false, false, 0);
            if !slot.active {
                continue;
            }
            let before = slot.pos.score();
            slot.pos
                .apply_piles::<P>(self.spaces.moves[usize::from(actions[i])]);
            if self.auto_discard {
                slot.pos.discard_forced_piles::<P>();
            }
            slot.actions.push(actions[i]);
            rows.reward[i] = (slot.pos.score() - before) as u8;
            rows.score[i] = slot.pos.score() as u8;
            let legal = LegalMoves::of_piles::<Position, P>(&slot.pos);
            let row = &mut rows.observation[i * o..(i + 1) * o];
            self.spaces.observe_step::<P>(&slot.pos, row, before);
            if legal.is_empty() {
                // Its slot is idle until the deals (Batch::count_ended counts it).
                rows.terminated[i] = true;
                rows.won[i] = slot.pos.score() == self.rules.win_score();
                rows.final_rows[i * o..(i + 1) * o].copy_from_slice(row);
                slot.active = false;
            }
            #[cfg(debug_assertions)]
            assert_eq!(
                *row,
                self.spaces.observation_of(&slot.pos),
                "a step's observation"
            );
            self.spaces.mask(&legal, &mut rows.mask[i * a..(i + 1) * a]);
        }
    }

    /// Deals into each slot of `rows` the game that [`Batch::hand_out`] gave it (one
    /// whose start is not over) and its forced discards, and writes the slot's rows.
    #[inline]
    fn deals<const P: usize>(&self, rows: Rows<'_>) {
        let (o, a) = (self.spaces.observation_size(), self.spaces.num_actions());
        for (i, slot) in rows.slots.iter_mut().enumerate() {
            let Some(index) = rows.deals[i].take() else {
                continue;
            };
            deal_seeded(&mut slot.pos, self.deck, self.seed, index);
            if self.auto_discard {
                slot.pos.discard_forced_piles::<P>();
            }
            (slot.index, slot.active) = (index, true);
            slot.actions.clear();
            let legal = LegalMoves::of_piles::<Position, P>(&slot.pos);
            debug_assert!(!legal.is_empty(), "a game over at its start, with a stock");
            rows.score[i] = slot.pos.score() as u8;
            self.spaces
                .observe(&slot.pos, &mut rows.observation[i * o..(i + 1) * o]);
            self.spaces.mask(&legal, &mut rows.mask[i * a..(i + 1) * a]);
        }
    }
}

/// n games of one run stepped together (docs/BATCH.md).
#[derive(Clone)]
pub struct Batch {
    rules: Rules,
    spaces: Spaces,
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
    /// The slots whose game the last step ended, ascending: the rows where the
    /// final observation differs from the observation (BATCH.md "Arrays"), which
    /// are in `final_rows` (n rows; the others are stale).
    ended: Vec<usize>,
    final_rows: Vec<i8>,
    /// The game index that a step's refills gave each slot, until it is dealt.
    deals: Vec<Option<u64>>,
    /// 1 where an action is legal, else 0.
    mask: Vec<u8>,
    score: Vec<u8>,
    terminated: Vec<bool>,
    won: Vec<bool>,
    reward: Vec<u8>,
}

/// The buffers of a batch of `n` slots, `width` items a slot, allocated fallibly:
/// a `MemoryError` naming the bytes where `vec!` would abort the process.
struct Buffers {
    n: usize,
    width: usize,
    /// The bytes a slot needs in all ([`Batch::slot_bytes`]), for the message.
    per: usize,
}

impl Buffers {
    /// An empty vector with room for `n * width` items.
    fn empty<T>(&self) -> Result<Vec<T>> {
        let mut buffer = Vec::new();
        let len = self.n.checked_mul(self.width);
        match len.map(|len| buffer.try_reserve_exact(len)) {
            Some(Ok(())) => Ok(buffer),
            _ => Err(Error::new(
                ErrorKind::Memory,
                format!(
                    "a Batch of {} slots needs {} bytes ({} a slot), but an allocation of {} bytes of them failed",
                    self.n,
                    (self.n as u128) * (self.per as u128),
                    self.per,
                    (self.n as u128) * (self.width * size_of::<T>()) as u128
                ),
            )),
        }
    }

    /// `n * width` copies of `value`.
    fn filled<T: Clone>(&self, value: T) -> Result<Vec<T>> {
        let mut buffer = self.empty()?;
        buffer.resize(self.n * self.width, value);
        Ok(buffer)
    }
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
        rules.refuse_reserve("a Batch")?;
        if n == 0 || (n as u128) > games || u128::from(start) + games > 1 << 64 {
            return Err(Error::new(
                ErrorKind::Value,
                format!("a batch of {n} slots cannot play {games} games from {start}"),
            ));
        }
        let spaces = Spaces::new(&rules);
        let (o, a) = (spaces.observation_size(), spaces.num_actions());
        let deck = padded_deck(&rules);
        let blank = Slot {
            pos: Position::from_deck(&rules.deck(), rules),
            index: start,
            active: false,
            actions: History::default(),
        };
        let per = Batch::slot_bytes(&spaces, keep_scores);
        let buffer = |width: usize| Buffers { n, width, per };
        let mut batch = Batch {
            rules,
            spaces,
            deck,
            seed,
            start,
            games,
            auto_discard,
            dealt: 0,
            finished: 0,
            stats: Stats::empty(rules.win_score()),
            scores: if keep_scores {
                Some(buffer(1).empty()?)
            } else {
                None
            },
            slots: buffer(1).filled(blank)?,
            observation: buffer(o).filled(0)?,
            ended: buffer(1).empty()?,
            final_rows: buffer(o).filled(0)?,
            deals: buffer(1).filled(None)?,
            mask: buffer(a).filled(0)?,
            score: buffer(1).filled(0)?,
            terminated: buffer(1).filled(false)?,
            won: buffer(1).filled(false)?,
            reward: buffer(1).filled(0)?,
        };
        for slot in 0..n {
            if !batch.deal_into(slot) {
                batch.show_last_dealt(slot);
            }
        }
        // Written now, not page by page as games end: the memory is all there at once.
        batch.final_rows.copy_from_slice(&batch.observation);
        Ok(batch)
    }

    /// The bytes that a batch under `spaces` takes for each slot at its peak (within
    /// a few percent of the resident memory measured): its part of every buffer (its
    /// [`Slot`], its rows of the observations and the mask, its entries in `deals`
    /// and `ended` and in the byte arrays, its first score with `keep_scores`), the
    /// actions of a long game beyond the [`INLINE_ACTIONS`] kept in place, and the
    /// copies that reading the arrays makes (the final observation's row twice, as
    /// a vector and as bytes, the mask's row once). [`Batch::new`] allocates the
    /// buffers at once; `acesup.resources` checks n times this before it does.
    pub fn slot_bytes(spaces: &Spaces, keep_scores: bool) -> usize {
        let (o, a) = (spaces.observation_size(), spaces.num_actions());
        size_of::<Slot>()
            + 4 * o
            + 2 * a
            + size_of::<Option<u64>>()
            + size_of::<usize>()
            + 4
            + usize::from(keep_scores)
            + 2 * INLINE_ACTIONS
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn spaces(&self) -> &Spaces {
        &self.spaces
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

    /// (n, observation_size) row after row: the observation, but for each slot whose
    /// game the last step ended, that game's observation after the step.
    pub fn final_observation(&self) -> Vec<i8> {
        let o = self.spaces.observation_size();
        let mut rows = self.observation.clone();
        for &slot in &self.ended {
            rows[slot * o..(slot + 1) * o]
                .copy_from_slice(&self.final_rows[slot * o..(slot + 1) * o]);
        }
        rows
    }

    /// (n, num_actions) row after row: 1 where the action is legal, else 0.
    pub fn action_mask(&self) -> &[u8] {
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
        (self.stats, scores)
    }

    /// Slot `slot`'s game (`slot < n`) as a [`Game`]: dealt from its seed, with every
    /// move played in the slot (forced discards included) as its history.
    pub fn game(&self, slot: usize) -> Game {
        let slot = &self.slots[slot];
        let mut game = Game::from_seed(game_seed(self.seed, slot.index), self.rules);
        self.play_forced(&mut game);
        for action in slot.actions.to_vec() {
            game.play(self.spaces.moves[usize::from(action)])
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
    ///
    /// The moves and the deals run on all cores for a large batch; between them, on
    /// this thread, the ended games are counted and the next game indices handed
    /// out, in slot order. Every row is brought up to date in place, not rebuilt.
    pub fn step(&mut self, actions: &[u8]) -> Result<()> {
        self.check(actions)?;
        let (play, rows) = self.split();
        by_piles!(play.rules, P => rows.for_each(play.spaces, |rows| play.moves::<P>(rows, actions)));
        self.count_ended();
        // With cards in the stock at its start a game is never over there (a deal
        // is legal unless a discard or a fill is), so each slot whose game ended
        // takes one game, dealt on all cores; else a slot may take game after game.
        if self.rules.deck_size() > usize::from(self.rules.piles) {
            self.hand_out();
            let (play, rows) = self.split();
            by_piles!(play.rules, P => rows.for_each(play.spaces, |rows| play.deals::<P>(rows)));
        } else {
            for i in 0..self.ended.len() {
                self.deal_into(self.ended[i]);
            }
        }
        Ok(())
    }

    /// The configuration that a step's tasks read and the rows that they write.
    fn split(&mut self) -> (Play<'_>, Rows<'_>) {
        let play = Play {
            rules: &self.rules,
            spaces: &self.spaces,
            deck: &self.deck,
            seed: self.seed,
            auto_discard: self.auto_discard,
        };
        let rows = Rows {
            first: 0,
            slots: &mut self.slots,
            observation: &mut self.observation,
            final_rows: &mut self.final_rows,
            mask: &mut self.mask,
            score: &mut self.score,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            won: &mut self.won,
            deals: &mut self.deals,
        };
        (play, rows)
    }

    /// After a step's moves: counts the games that they ended (their slots idle
    /// already), in slot order, from the step's arrays, and keeps their slots
    /// (`ended`). With `scores=True` it reads each one's game index in its slot.
    fn count_ended(&mut self) {
        self.ended.clear();
        for slot in 0..self.slots.len() {
            if self.terminated[slot] {
                self.ended.push(slot);
                self.count(slot, self.score[slot]);
            }
        }
    }

    /// Gives the slots whose game ended the next games of the run, in slot order,
    /// while the run has games left (the others stay idle, showing their last
    /// game), to be dealt by [`Play::deals`].
    fn hand_out(&mut self) {
        for &slot in &self.ended {
            if self.dealt == self.games {
                break;
            }
            self.deals[slot] = Some(self.start.wrapping_add(self.dealt as u64));
            self.dealt += 1;
            if let Some(scores) = &mut self.scores {
                scores.push(0);
            }
        }
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
        let (n, a) = (self.slots.len(), self.spaces.num_actions());
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
        // Read the mask first: it is small and in order, the slots large (an idle
        // slot's mask row is all 0, so its actions pass only by being idle).
        let illegal = (0..n)
            .find(|&i| self.mask[i * a + usize::from(actions[i])] == 0 && self.slots[i].active);
        if let Some(i) = illegal {
            let (slot, action) = (&self.slots[i], usize::from(actions[i]));
            let mv = self.spaces.moves[action];
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
        let (o, a) = (self.spaces.observation_size(), self.spaces.num_actions());
        let s = &self.slots[slot];
        self.spaces
            .observe(&s.pos, &mut self.observation[slot * o..(slot + 1) * o]);
        let legal = LegalMoves::of(&s.pos);
        let mask = &mut self.mask[slot * a..(slot + 1) * a];
        if s.active {
            self.spaces.mask(&legal, mask);
        } else {
            mask.fill(0);
        }
        self.score[slot] = s.pos.score() as u8;
    }

    /// Counts the slot's game, which is over, and leaves the slot idle.
    fn end(&mut self, slot: usize) {
        self.count(slot, self.slots[slot].pos.score() as u8);
        self.slots[slot].active = false;
    }

    /// Counts the slot's game, which is over with `score`.
    fn count(&mut self, slot: usize, score: u8) {
        self.stats.record(usize::from(score));
        self.finished += 1;
        if let Some(scores) = &mut self.scores {
            scores[(self.slots[slot].index - self.start) as usize] = score;
        }
    }

    /// What the batch is beyond its construction arguments.
    pub fn state(&self) -> BatchState {
        BatchState {
            slots: self
                .slots
                .iter()
                .map(|s| (s.index, s.active, s.actions.to_vec()))
                .collect(),
            dealt: self.dealt,
            finished: self.finished,
            histogram: self.stats.histogram().to_vec(),
            scores: self.scores.clone(),
            terminated: self.terminated.clone(),
            won: self.won.clone(),
            final_observation: self.final_observation(),
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
        let o = batch.spaces.observation_size();
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
        if let Some(problem) = books_problem(&state, start, rules.win_score()) {
            return Err(Error::new(ErrorKind::Value, problem));
        }
        for (i, (index, active, actions)) in state.slots.into_iter().enumerate() {
            let mut game = Game::from_seed(game_seed(seed, index), rules);
            batch.play_forced(&mut game);
            for &action in &actions {
                let mv =
                    *batch.spaces.moves.get(usize::from(action)).ok_or_else(|| {
                        Error::new(ErrorKind::Value, format!("no action {action}"))
                    })?;
                game.play(mv)?;
                batch.play_forced(&mut game);
            }
            if active && game.is_over() {
                return Err(Error::new(
                    ErrorKind::Value,
                    format!("a Batch state whose slot {i} plays game {index}, which is over"),
                ));
            }
            let slot = &mut batch.slots[i];
            slot.pos = game.position().clone();
            (slot.index, slot.active) = (index, active);
            slot.actions = History::of(&actions);
            batch.show(i);
        }
        batch.dealt = state.dealt;
        batch.finished = state.finished;
        batch.stats = Stats::from_histogram(&state.histogram)?;
        batch.scores = state.scores;
        batch.terminated = state.terminated;
        batch.won = state.won;
        batch.ended = (0..n).filter(|&slot| batch.terminated[slot]).collect();
        batch.final_rows = state.final_observation;
        Ok(batch)
    }
}

/// Why the books of `state`, a batch state of a run from game `start` whose games
/// are won at `win_score`, disagree with each other (so that a step would count a
/// game twice, write a score where none is kept, or never end the run); `None`
/// when they agree. The reference Batch's `_books_problem` says the same.
fn books_problem(state: &BatchState, start: u64, win_score: usize) -> Option<String> {
    let (dealt, finished) = (state.dealt, state.finished);
    let counted: u128 = state.histogram.iter().map(|&c| u128::from(c)).sum();
    if state.histogram.len() != win_score + 1 || counted != finished {
        return Some(format!(
            "a Batch state whose histogram counts {counted} games in {} scores, not the {finished} finished in {}",
            state.histogram.len(),
            win_score + 1
        ));
    }
    let mut playing = std::collections::HashSet::new();
    for (i, &(index, active, _)) in state.slots.iter().enumerate() {
        if index < start || u128::from(index - start) >= dealt {
            return Some(format!(
                "a Batch state whose slot {i} holds game {index}, not one of the {dealt} dealt from game {start}"
            ));
        }
        if active && !playing.insert(index) {
            return Some(format!(
                "a Batch state whose slot {i} plays game {index}, which another slot plays"
            ));
        }
    }
    if finished + playing.len() as u128 != dealt {
        return Some(format!(
            "a Batch state with {finished} games finished and {} played, not the {dealt} dealt",
            playing.len()
        ));
    }
    let scores = state.scores.as_ref()?;
    if scores.len() as u128 != dealt {
        return Some(format!(
            "a Batch state with {} scores, not one for each of the {dealt} games dealt",
            scores.len()
        ));
    }
    let mut histogram = vec![0; win_score + 1];
    for (offset, &score) in scores.iter().enumerate() {
        if !playing.contains(&(start + offset as u64)) {
            match histogram.get_mut(usize::from(score)) {
                Some(count) => *count += 1,
                None => histogram.clear(),
            }
        }
    }
    (histogram != state.histogram).then(|| {
        "a Batch state whose scores of the finished games disagree with its histogram".to_string()
    })
}

#[cfg(test)]
#[path = "tests/batch.rs"]
mod tests;
