//! Seeded batch play-outs (docs/API.md `simulate`, RNG.md "Batch runs"): a
//! thread's `Player` of a run's games, the run on a pool's threads
//! ([`run_games`]) and the run chunk by chunk for the bindings ([`ChunkedRun`]).
//! The threads, the chunk sizes and cancelling are [`crate::run`]'s, which knows
//! nothing of games.
//!
//! Game i of master seed s is `Game.from_seed(game_seed(s, i))`, so a game depends
//! on (s, i) alone and a run gives the same [`Stats`] on any number of threads.
//! Indices are taken modulo 2⁶⁴, as `game_seed` does.

use crate::cards::{Card, DECK_SIZE};
use crate::deals::{deal_seeded, padded_deck};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::random_play::RandomTable;
use crate::rng::game_seed;
use crate::rules::Rules;
use crate::run::{cancel, AdaptiveChunks, Pool};
use crate::stats::Stats;
use crate::strategies::Strategy;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// What a thread plays a run's games with, kept from game to game: the position it plays in and the
/// layout's deck in index order, so that nothing is allocated per game, and the
/// random strategy's table, which plays its games by a loop of its own.
#[derive(Clone)]
pub(crate) struct Player {
    pos: Position,
    deck: [Card; DECK_SIZE],
    random: RandomTable,
}

impl Player {
    pub(crate) fn new(rules: Rules) -> Player {
        Player {
            pos: Position::from_deck(&rules.deck(), rules),
            deck: padded_deck(&rules),
            random: RandomTable::new(rules),
        }
    }

    /// The score of game `index` of master seed `seed`: `Game.from_seed(game_seed(seed,
    /// index))` played to its end by `strategy`.
    #[inline]
    pub(crate) fn play_game<S: Strategy + ?Sized>(
        &mut self,
        strategy: &S,
        seed: u64,
        index: u64,
    ) -> usize {
        // The random table's own loop knows no reserve (R2.4).
        if strategy.is_random() & (self.pos.rules.reserve == 0) {
            return self.random.play(seed, index);
        }
        let mut rng = deal_seeded(&mut self.pos, &self.deck, seed, index);
        strategy.play_out(&mut self.pos, &mut rng);
        self.pos.score()
    }
}

/// Games `start .. start + count` (modulo 2⁶⁴) of master seed `seed`, on `pool`.
pub fn run_games<S: Strategy + ?Sized>(
    pool: &Pool,
    strategy: &S,
    rules: Rules,
    seed: u64,
    start: u64,
    count: u64,
) -> Stats {
    pool.fold(
        count,
        || Stats::empty(rules.win_score()),
        || Player::new(rules),
        |player, stats: &mut Stats, i| {
            stats.record(player.play_game(strategy, seed, start.wrapping_add(i)))
        },
        |a, b| a.merge(&b).expect("a chunk's counts fit in u64"),
    )
}

/// The value behind `mutex`, even if a thread panicked while it held it (a panic
/// on a pool's thread comes back to the caller, which sees it there).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// A run of seeded games played chunk by chunk, so that its caller can look for
/// cancellation (the bindings: Ctrl-C) between two chunks, report its progress
/// ([`ChunkedRun::played`]) and let other work run while one plays (the
/// bindings release the GIL). It adds up the statistics and, when asked to,
/// every game's score in game-index order.
pub struct ChunkedRun {
    chunks: AdaptiveChunks,
    rules: Rules,
    seed: u64,
    start: u64,
    stats: Stats,
    /// The games counted in `stats` (at most 2⁶⁴ - 1), for another thread to
    /// read while the run plays: stored once a chunk.
    played: Arc<AtomicU64>,
    /// The scores of the games from `start` on, as far as every game is played.
    scores: Option<Vec<u8>>,
    /// The scores of chunks played past a game that is not yet, by their first
    /// game's place in the run: at most one chunk a thread but one.
    ahead: BTreeMap<u64, Vec<u8>>,
}

/// The most games of a strategy that is asked through a callback per chunk.
const CALLBACK_CHUNK: u64 = 64;

/// Why a strategy asked through a callback ([`ChunkedRun::play_chunk_with`]) stopped a run.
#[derive(Debug)]
pub enum AskError<E> {
    /// The callback itself failed.
    Callback(E),
    /// The callback changed the game's history (played or undid moves, even an undo
    /// then a play) instead of returning a move: the history had `before` moves and
    /// has `after`; `position` is the R6.5 text of the game as it left it.
    Changed {
        before: usize,
        after: usize,
        position: String,
    },
    /// The callback returned a move that is illegal in the position `position`.
    Illegal {
        mv: Move,
        position: String,
        error: Error,
    },
}

impl ChunkedRun {
    /// Games `start .. start + games` (modulo 2⁶⁴) of master seed `seed`, in chunks
    /// of one thread's games (see `AdaptiveChunks`).
    pub fn new(rules: Rules, seed: u64, start: u64, games: u128, keep_scores: bool) -> ChunkedRun {
        ChunkedRun {
            chunks: AdaptiveChunks::new(start, games),
            rules,
            seed,
            start,
            ahead: BTreeMap::new(),
            stats: Stats::empty(rules.win_score()),
            played: Arc::default(),
            scores: keep_scores.then(|| {
                // Room for every score at once, so that the scores do not grow by
                // doubling (a peak of twice their size); when the room cannot be
                // had now, they grow as they come.
                let mut scores = Vec::new();
                let _ = scores.try_reserve_exact(usize::try_from(games).unwrap_or(usize::MAX));
                scores
            }),
        }
    }

    /// Plays the run's chunks with `strategy` on every thread of `pool` at once,
    /// each thread taking the next chunk as soon as it is done with one, so that no
    /// thread waits for another until the run ends; false when the run is complete,
    /// true when cancellation stopped it first ([`cancel::requested`], which each
    /// thread asks between its chunks). A chunk in which some game may have been
    /// cut short (it asked [`cancel::requested`] and was told to stop: its thread's
    /// `cancel::seen`) does not count and is played again by the next call; a
    /// chunk whose games all ran to their ends counts, even if a deadline passed
    /// meanwhile (the bindings' quick try: random play-outs never ask, and their
    /// chunks under way are not played twice). `ValueError` when a count would
    /// pass 2⁶⁴ - 1.
    pub fn play_chunks<S: Strategy + ?Sized>(&mut self, pool: &Pool, strategy: &S) -> Result<bool> {
        let (rules, seed, keep_scores) = (self.rules, self.seed, self.scores.is_some());
        let threads = pool.threads();
        let run = Mutex::new((&mut *self, Ok(())));
        pool.each_thread(|| {
            let mut player = Player::new(rules);
            while !cancel::requested() {
                let Some((first, count)) = ({
                    let (run, failed) = &mut *lock(&run);
                    failed
                        .is_ok()
                        .then(|| run.chunks.next_chunk_among(threads))
                        .flatten()
                }) else {
                    return;
                };
                let began = Instant::now();
                let mut part = Stats::empty(rules.win_score());
                let mut scores = Vec::new();
                for i in 0..count {
                    let score = player.play_game(strategy, seed, first.wrapping_add(i));
                    part.record(score);
                    if keep_scores {
                        scores.push(score as u8);
                    }
                }
                let (run, failed) = &mut *lock(&run);
                if cancel::seen() {
                    // Maybe cut short: its games may not be the strategy's.
                    run.chunks.put_back((first, count));
                } else if failed.is_ok() {
                    *failed = run.record(first, &part, scores);
                    run.chunks.took(began.elapsed());
                }
            }
        });
        let (_, failed) = run.into_inner().unwrap_or_else(|p| p.into_inner());
        failed.map(|()| !self.chunks.is_done())
    }

    /// How many games of the run have been played and counted so far (at most
    /// 2⁶⁴ - 1), kept up to date chunk by chunk while the run plays, so that
    /// another thread may report the run's progress.
    pub fn played(&self) -> Arc<AtomicU64> {
        self.played.clone()
    }

    /// Stores the games counted so far in `played`.
    fn count_played(&self) {
        let games = u64::try_from(self.stats.games()).unwrap_or(u64::MAX);
        self.played.store(games, Ordering::Relaxed);
    }

    /// Counts the chunk of games from `first` on, whose statistics are `part` and,
    /// when the run keeps them, whose scores are `scores`.
    fn record(&mut self, first: u64, part: &Stats, scores: Vec<u8>) -> Result<()> {
        self.stats = self.stats.merge(part)?;
        self.count_played();
        if let Some(all) = &mut self.scores {
            self.ahead.insert(first.wrapping_sub(self.start), scores);
            while let Some(next) = self.ahead.remove(&(all.len() as u64)) {
                all.extend_from_slice(&next);
            }
        }
        Ok(())
    }

    /// Plays the next chunk (at most `CALLBACK_CHUNK` games) on this thread with a
    /// strategy asked through `choose`, which is called on each game that is not
    /// over, with the game's history as the engine left it (empty at a game's
    /// first question), and returns the move to play; false when the run was already
    /// complete. The callback may draw from the game's stream, nothing else.
    pub fn play_chunk_with<E>(
        &mut self,
        mut choose: impl FnMut(&mut Game) -> std::result::Result<Move, E>,
    ) -> std::result::Result<bool, AskError<E>> {
        let Some((first, count)) = self.chunks.next_chunk_of(CALLBACK_CHUNK) else {
            return Ok(false);
        };
        for i in 0..count {
            let index = first.wrapping_add(i);
            let mut game = Game::from_seed(game_seed(self.seed, index), self.rules);
            while !game.is_over() {
                let (before, changes) = (game.history().len(), game.changes());
                let mv = choose(&mut game).map_err(AskError::Callback)?;
                if game.changes() != changes {
                    return Err(AskError::Changed {
                        before,
                        after: game.history().len(),
                        position: game.to_text(),
                    });
                }
                game.play(mv).map_err(|error| AskError::Illegal {
                    mv,
                    position: game.to_text(),
                    error,
                })?;
            }
            self.stats.record(game.score());
            if let Some(scores) = &mut self.scores {
                scores.push(game.score() as u8);
            }
        }
        self.count_played();
        Ok(true)
    }

    /// The statistics of the run and, when kept, every game's score.
    pub fn finish(self) -> (Stats, Option<Vec<u8>>) {
        (self.stats, self.scores)
    }
}

/// `simulate(games, strategy, rules, seed, threads=threads, start=start)` for Rust
/// callers, without the bindings' checks for Ctrl-C between chunks.
pub fn simulate<S: Strategy + ?Sized>(
    strategy: &S,
    games: u64,
    rules: Rules,
    seed: u64,
    threads: Option<usize>,
    start: u64,
) -> Result<Stats> {
    Ok(run_games(
        &Pool::new(threads)?,
        strategy,
        rules,
        seed,
        start,
        games,
    ))
}

#[cfg(test)]
#[path = "tests/simulate.rs"]
mod tests;
