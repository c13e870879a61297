//! Seeded batch play-outs (docs/API.md `simulate`, RNG.md "Batch runs").
//!
//! Game i of master seed s is `Game.from_seed(game_seed(s, i))`, so a game depends
//! on (s, i) alone and a run gives the same [`Stats`] on any number of threads.
//! Indices are taken modulo 2⁶⁴, as `game_seed` does.

use crate::cancel;
use crate::cards::{Card, DECK_SIZE};
use crate::game::Game;
use crate::moves::Move;
pub use crate::pool::{Pool, MAX_THREADS};
use crate::position::Position;
use crate::random_play::RandomTable;
use crate::rng::{game_seed, shuffle_slice, Rng};
use crate::rules::Rules;
use crate::stats::Stats;
use crate::strategies::Strategy;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most games a thread plays between two checks for Ctrl-C by the bindings:
/// tens of milliseconds of random play-outs.
pub const CHUNK_PER_THREAD: u64 = 1 << 15;

/// How long a chunk of games between two checks for Ctrl-C should take.
pub const CHUNK_TIME: Duration = Duration::from_millis(40);

/// What a thread keeps from game to game: the position it plays in and the
/// layout's deck in index order, so that nothing is allocated per game, and the
/// random strategy's table, which plays its games by a loop of its own.
#[derive(Clone)]
pub struct Table {
    pos: Position,
    deck: [Card; DECK_SIZE],
    random: RandomTable,
}

impl Table {
    pub fn new(rules: Rules) -> Table {
        Table {
            pos: Position::from_deck(&rules.deck(), rules),
            deck: padded_deck(&rules),
            random: RandomTable::new(rules),
        }
    }

    /// The score of game `index` of master seed `seed`: `Game.from_seed(game_seed(seed,
    /// index))` played to its end by `strategy`.
    #[inline]
    pub fn play_game<S: Strategy + ?Sized>(
        &mut self,
        strategy: &S,
        seed: u64,
        index: u64,
    ) -> usize {
        if strategy.is_random() {
            return self.random.play(seed, index);
        }
        let mut rng = deal_seeded(&mut self.pos, &self.deck, seed, index);
        strategy.play_out(&mut self.pos, &mut rng);
        self.pos.score()
    }
}

/// Deal game `index` of master seed `seed` into `pos` (`Game.from_seed(game_seed(seed,
/// index))`, keeping the rules), from `deck`, the layout's deck in index order padded
/// to [`DECK_SIZE`]; returns the game's strategy stream. Allocates nothing.
#[inline]
pub fn deal_seeded(pos: &mut Position, deck: &[Card; DECK_SIZE], seed: u64, index: u64) -> Rng {
    let mut rng = Rng::new(game_seed(seed, index));
    let mut deck = *deck;
    let size = pos.rules().deck_size();
    if size == DECK_SIZE {
        shuffle_slice(&mut deck, &mut rng);
        pos.deal_from(&deck);
    } else {
        let deck = &mut deck[..size];
        shuffle_slice(deck, &mut rng);
        pos.deal_from(deck);
    }
    rng
}

/// The layout's deck of `rules` in index order, padded to [`DECK_SIZE`] cards (what
/// [`deal_seeded`] shuffles).
pub fn padded_deck(rules: &Rules) -> [Card; DECK_SIZE] {
    let mut deck = [Card::default(); DECK_SIZE];
    let layout = rules.deck();
    deck[..layout.len()].copy_from_slice(&layout);
    deck
}

/// Games `start .. start + count` (modulo 2⁶⁴) of master seed `seed`, on this thread.
pub fn run_games<S: Strategy + ?Sized>(
    strategy: &S,
    rules: Rules,
    seed: u64,
    start: u64,
    count: u64,
) -> Stats {
    Pool::Current.run(strategy, rules, seed, start, count)
}

impl Pool {
    /// Games `start .. start + count` of master seed `seed`, on this pool.
    pub fn run<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        rules: Rules,
        seed: u64,
        start: u64,
        count: u64,
    ) -> Stats {
        self.fold(
            count,
            || Stats::empty(rules.win_score()),
            || Table::new(rules),
            |table, stats: &mut Stats, i| {
                stats.record(table.play_game(strategy, seed, start.wrapping_add(i)))
            },
            |a, b| a.merge(&b).expect("a chunk's counts fit in u64"),
        )
    }
}

/// The chunks of a run, each played by one thread between two of its checks for
/// Ctrl-C, sized to take about [`CHUNK_TIME`] whatever a game costs: from one
/// game, a chunk doubles while chunks end in less than half that time and halves
/// when one takes more than twice as long, within one and [`CHUNK_PER_THREAD`]
/// games. A random play-out takes a microsecond and a montecarlo game a
/// millisecond, so no fixed size suits both. The sizes never change a result: a
/// game depends on its index alone.
pub struct AdaptiveChunks {
    next: u64,
    left: u128,
    size: u64,
    most: u64,
    /// Chunks given back ([`AdaptiveChunks::put_back`]), handed out again first.
    given_back: Vec<(u64, u64)>,
}

impl AdaptiveChunks {
    /// The chunks of `games` games from index `start` (modulo 2⁶⁴).
    pub fn new(start: u64, games: u128) -> AdaptiveChunks {
        AdaptiveChunks {
            next: start,
            left: games,
            size: 1,
            most: CHUNK_PER_THREAD,
            given_back: Vec::new(),
        }
    }

    /// The next chunk, (first index, count), or None when the run is covered.
    pub fn next_chunk(&mut self) -> Option<(u64, u64)> {
        self.take(u128::from(self.size))
    }

    /// The next chunk for one of `threads` threads that each take the next chunk as
    /// soon as they are done with one: at most a 2·`threads`-th part of the games
    /// left, so that the chunks shrink towards the end of the run and the threads'
    /// last chunks end close together (no thread waits long for another).
    pub fn next_chunk_among(&mut self, threads: usize) -> Option<(u64, u64)> {
        let share = self.left / (2 * threads.max(1) as u128);
        self.take(share.clamp(1, u128::from(self.size)))
    }

    /// The next chunk of at most `most` games, whatever the timings said.
    pub fn next_chunk_of(&mut self, most: u64) -> Option<(u64, u64)> {
        self.size = most;
        self.next_chunk()
    }

    /// A chunk given back if there is one, else the next `most` games or fewer.
    fn take(&mut self, most: u128) -> Option<(u64, u64)> {
        if let Some(chunk) = self.given_back.pop() {
            self.left -= u128::from(chunk.1);
            return Some(chunk);
        }
        if self.left == 0 {
            return None;
        }
        let count = self.left.min(most) as u64;
        let chunk = (self.next, count);
        self.next = self.next.wrapping_add(count);
        self.left -= u128::from(count);
        Some(chunk)
    }

    /// Take back a chunk handed out, (first index, count), to be handed out again.
    pub fn put_back(&mut self, chunk: (u64, u64)) {
        self.given_back.push(chunk);
        self.left += u128::from(chunk.1);
    }

    /// Whether every chunk has been handed out and none given back.
    pub fn is_done(&self) -> bool {
        self.left == 0
    }

    /// Adapt the size of the next chunks to the time the last one took.
    pub fn took(&mut self, elapsed: Duration) {
        if elapsed < CHUNK_TIME / 2 {
            self.size = (self.size * 2).min(self.most);
        } else if elapsed > CHUNK_TIME * 2 {
            self.size = (self.size / 2).max(1);
        }
    }
}

/// The value behind `mutex`, even if a thread panicked while it held it (a panic
/// on a pool's thread comes back to the caller, which sees it there).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// A run of seeded games played chunk by chunk, so that its caller can look for
/// cancellation (the bindings: Ctrl-C) between two chunks and let other work run
/// while one plays (the bindings release the GIL). It adds up the statistics and,
/// when asked to, every game's score in game-index order.
pub struct ChunkedRun {
    chunks: AdaptiveChunks,
    rules: Rules,
    seed: u64,
    start: u64,
    stats: Stats,
    /// The scores of the games from `start` on, as far as every game is played.
    scores: Option<Vec<u8>>,
    /// The scores of chunks played past a game that is not yet, by their first
    /// game's place in the run: at most one chunk a thread but one.
    ahead: BTreeMap<u64, Vec<u8>>,
}

/// The most games of a strategy that is asked through a callback per chunk.
pub const CALLBACK_CHUNK: u64 = 64;

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
    /// of one thread's games (see [`AdaptiveChunks`]).
    pub fn new(rules: Rules, seed: u64, start: u64, games: u128, keep_scores: bool) -> ChunkedRun {
        ChunkedRun {
            chunks: AdaptiveChunks::new(start, games),
            rules,
            seed,
            start,
            ahead: BTreeMap::new(),
            stats: Stats::empty(rules.win_score()),
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
    /// [`cancel::seen`]) does not count and is played again by the next call; a
    /// chunk whose games all ran to their ends counts, even if a deadline passed
    /// meanwhile (the bindings' quick try: random play-outs never ask, and their
    /// chunks under way are not played twice). `ValueError` when a count would
    /// pass 2⁶⁴ - 1.
    pub fn play_chunks<S: Strategy + ?Sized>(&mut self, pool: &Pool, strategy: &S) -> Result<bool> {
        let (rules, seed, keep_scores) = (self.rules, self.seed, self.scores.is_some());
        let threads = pool.threads();
        let run = Mutex::new((&mut *self, Ok(())));
        pool.each_thread(|| {
            let mut table = Table::new(rules);
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
                    let score = table.play_game(strategy, seed, first.wrapping_add(i));
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

    /// Counts the chunk of games from `first` on, whose statistics are `part` and,
    /// when the run keeps them, whose scores are `scores`.
    fn record(&mut self, first: u64, part: &Stats, scores: Vec<u8>) -> Result<()> {
        self.stats = self.stats.merge(part)?;
        if let Some(all) = &mut self.scores {
            self.ahead.insert(first.wrapping_sub(self.start), scores);
            while let Some(next) = self.ahead.remove(&(all.len() as u64)) {
                all.extend_from_slice(&next);
            }
        }
        Ok(())
    }

    /// Plays the next chunk (at most [`CALLBACK_CHUNK`] games) on this thread with a
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
    Ok(Pool::new(threads)?.run(strategy, rules, seed, start, games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::{Builtin, Random};
    use crate::ErrorKind;

    /// Games `0..games` of seed 7 under `rules`: the play-out loop (random's own,
    /// [`RandomTable`]) gives what playing the documented random strategy on a
    /// `Game`, move by move through the checked `play`, gives (the plain version of
    /// the loop), game by game.
    fn assert_play_outs_are_plain(rules: Rules, games: u64) {
        let mut table = Table::new(rules);
        for i in 0..games {
            let score = table.play_game(&Random, 7, i);
            let pos = &table.random.position();
            let mut game = Game::from_seed(game_seed(7, i), rules);
            while let Some(mv) = {
                let mut rng = *game.rng();
                let mv = Random.choose(game.position(), &mut rng);
                *game.rng_mut() = rng;
                mv
            } {
                game.play(mv).unwrap();
            }
            assert_eq!(score, game.score(), "game {i} under {rules}");
            // The same end, but for the order of the discards.
            let sorted = |p: &Position| {
                let mut d = p.discards().to_vec();
                d.sort();
                (
                    (0..p.piles())
                        .map(|i| p.pile(i).to_vec())
                        .collect::<Vec<_>>(),
                    p.stock().to_vec(),
                    d,
                )
            };
            assert_eq!(
                sorted(pos),
                sorted(game.position()),
                "game {i} under {rules}"
            );
            pos.check_invariants();
        }
    }

    /// The presets and a few layouts, on many games.
    #[test]
    fn play_game_matches_game_play() {
        for rules in [
            Rules::standard(),
            Rules::easy(),
            Rules::strict(),
            Rules::reverse(),
            Rules::aces_up_5(),
            Rules::russian_aces(),
            Rules {
                deal: crate::rules::DealRule::Any,
                ..Rules::easy()
            },
            Rules {
                suits: 2,
                ranks: 5,
                piles: 5,
                ..Rules::russian_aces()
            },
        ] {
            assert_play_outs_are_plain(rules, 300);
        }
    }

    /// Every rule set of the family (each option's every value, on big and small
    /// layouts of 4 and 5 piles), on a few games each.
    #[test]
    fn play_game_matches_game_play_under_every_rule_set() {
        for rules in crate::rules::all_rules() {
            assert_play_outs_are_plain(rules, 12);
        }
    }

    #[test]
    fn same_stats_at_any_thread_count() {
        let strategy = Builtin::parse("random").unwrap();
        let rules = Rules {
            relocate_single: true,
            ..Rules::easy()
        };
        let one = simulate(&strategy, 5000, rules, 3, Some(1), 0).unwrap();
        assert_eq!(one.games(), 5000);
        for threads in [None, Some(2), Some(3)] {
            assert_eq!(
                simulate(&strategy, 5000, rules, 3, threads, 0).unwrap(),
                one
            );
        }
        // Scores, in game order at any thread count, make the same histogram.
        let scores = plain_scores(&strategy, rules, 3, 0, 5000);
        assert_eq!(Stats::from_scores(&scores, 48).unwrap(), one);
        for threads in [None, Some(1), Some(2), Some(3)] {
            let mut run = ChunkedRun::new(rules, 3, 0, 5000, true);
            assert!(!run
                .play_chunks(&Pool::new(threads).unwrap(), &strategy)
                .unwrap());
            assert_eq!(run.finish(), (one, Some(scores.clone())));
        }
        // Shards add up to the whole run.
        let a = simulate(&strategy, 1234, rules, 3, Some(2), 0).unwrap();
        let b = simulate(&strategy, 5000 - 1234, rules, 3, Some(1), 1234).unwrap();
        assert_eq!(a.merge(&b).unwrap(), one);
    }

    /// Adaptive chunks cover a run once, in order, growing while chunks are quick
    /// and shrinking when they are slow, within their bounds.
    #[test]
    fn adaptive_chunks_cover_the_run_and_adapt() {
        let mut chunks = AdaptiveChunks::new(u64::MAX - 2, 1000);
        let mut covered = Vec::new();
        let mut sizes = Vec::new();
        while let Some((first, count)) = chunks.next_chunk() {
            covered.extend((0..count).map(|i| first.wrapping_add(i)));
            sizes.push(count);
            let slow = sizes.len() == 5;
            chunks.took(if slow { CHUNK_TIME * 3 } else { Duration::ZERO });
        }
        let expected: Vec<u64> = (0..1000u64)
            .map(|i| (u64::MAX - 2).wrapping_add(i))
            .collect();
        assert_eq!(covered, expected);
        assert_eq!(sizes[..7], [1, 2, 4, 8, 16, 8, 16]);
        let mut big = AdaptiveChunks::new(0, u128::from(u64::MAX) + 1);
        for _ in 0..40 {
            big.next_chunk();
            big.took(Duration::ZERO);
        }
        assert_eq!(big.next_chunk().unwrap().1, CHUNK_PER_THREAD);
    }

    /// The scores of games `start .. start + count` of master seed `seed`, played one
    /// after another on this thread: the plain version of a run's scores.
    fn plain_scores<S: Strategy>(
        strategy: &S,
        rules: Rules,
        seed: u64,
        start: u64,
        count: u64,
    ) -> Vec<u8> {
        let mut table = Table::new(rules);
        (0..count)
            .map(|i| table.play_game(strategy, seed, start.wrapping_add(i)) as u8)
            .collect()
    }

    /// Random's moves, and at the games of `raise_at` (once each) it waits `pause`,
    /// while the run's other threads go on, raises `flag`, the run's cancel flag,
    /// and then asks whether to stop when `asks` (as montecarlo's decisions do:
    /// that game is cut short) or not (as random play-outs: it runs to its end).
    struct Raises {
        flag: cancel::Flag,
        raise_at: Mutex<Vec<Vec<Card>>>,
        asks: bool,
        pause: Duration,
    }

    impl Strategy for Raises {
        fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
            Random.choose(pos, rng)
        }

        fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
            // A game is known here by its deal: the stock's order.
            let hit = {
                let mut raise_at = lock(&self.raise_at);
                let at = raise_at.iter().position(|stock| stock == pos.stock());
                at.map(|at| raise_at.swap_remove(at)).is_some()
            };
            if hit {
                std::thread::sleep(self.pause);
                self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
                if self.asks {
                    assert!(cancel::requested());
                }
            }
            while let Some(mv) = self.choose(pos, rng) {
                pos.apply(mv);
            }
        }
    }

    /// The stock that [`Raises`] knows game `index` of seed 3 by.
    fn deal_of(index: u64) -> Vec<Card> {
        let mut table = Table::new(Rules::standard());
        deal_seeded(&mut table.pos, &table.deck, 3, index);
        table.pos.stock().to_vec()
    }

    /// Plays `run` with `strategy` on `pool`, one call after another, each under
    /// `flag` lowered again, until the run is complete; the number of calls.
    fn play_to_the_end(run: &mut ChunkedRun, pool: &Pool, strategy: &Raises) -> usize {
        let mut calls = 0;
        loop {
            strategy
                .flag
                .store(false, std::sync::atomic::Ordering::Relaxed);
            let _scope = cancel::Scope::enter(cancel::Cancel::on(strategy.flag.clone()));
            calls += 1;
            if !run.play_chunks(pool, strategy).unwrap() {
                return calls;
            }
        }
    }

    /// On one thread, with chunks of 1, 2, 4, ... games, the run's flag is raised
    /// in game 5 (of the chunk of games 3-6): a chunk of games that never ask
    /// whether to stop counts, and the run stops after it (7 games); a chunk of
    /// games that ask and are cut short is given back (3 games). Played on to
    /// its end, the run is the run in one piece either way.
    #[test]
    fn only_a_chunk_told_to_stop_is_given_back() {
        let whole = Pool::Current.run(&Random, Rules::standard(), 3, 0, 40);
        for (asks, counted) in [(false, 7), (true, 3)] {
            let strategy = Raises {
                flag: cancel::Flag::default(),
                raise_at: Mutex::new(vec![deal_of(5)]),
                asks,
                pause: Duration::ZERO,
            };
            let mut run = ChunkedRun::new(Rules::standard(), 3, 0, 40, true);
            let _scope = cancel::Scope::enter(cancel::Cancel::on(strategy.flag.clone()));
            assert!(run.play_chunks(&Pool::Current, &strategy).unwrap());
            assert_eq!(run.stats.games(), counted, "asks: {asks}");
            assert_eq!(play_to_the_end(&mut run, &Pool::Current, &strategy), 1);
            let (stats, scores) = run.finish();
            assert_eq!(stats, whole);
            assert_eq!(
                scores.unwrap(),
                plain_scores(&Random, Rules::standard(), 3, 0, 40)
            );
        }
    }

    /// On two threads, a run cut short again and again (a chunk given back each
    /// time, and played again by the next call, while the other thread has gone
    /// on past it, so that chunks end out of order) adds up to the run in one
    /// piece, scores in their order included.
    #[test]
    fn a_run_cut_again_and_again_adds_up() {
        let pool = Pool::new(Some(2)).unwrap();
        let games = 3000;
        let strategy = Raises {
            flag: cancel::Flag::default(),
            raise_at: Mutex::new([5, 100, 101, 777, 1500, 2999].map(deal_of).to_vec()),
            asks: true,
            pause: Duration::from_millis(20),
        };
        let mut run = ChunkedRun::new(Rules::standard(), 3, 0, games, true);
        assert!(play_to_the_end(&mut run, &pool, &strategy) > 1);
        assert!(lock(&strategy.raise_at).is_empty());
        let (stats, scores) = run.finish();
        assert_eq!(
            stats,
            pool.run(&Random, Rules::standard(), 3, 0, games as u64)
        );
        assert_eq!(
            scores.unwrap(),
            plain_scores(&Random, Rules::standard(), 3, 0, games as u64)
        );
    }

    /// A chunked run adds up to the run in one piece, scores included, whether the
    /// strategy plays in the engine or is asked through a callback (which sees
    /// each game from its start and may draw from its stream).
    #[test]
    fn chunked_runs_add_up() {
        let rules = Rules {
            piles: 5,
            ..Rules::easy()
        };
        let pool = Pool::new(Some(2)).unwrap();
        let whole = pool.run(&Random, rules, 9, u64::MAX - 50, 700);
        let mut run = ChunkedRun::new(rules, 9, u64::MAX - 50, 700, true);
        assert!(!run.play_chunks(&pool, &Random).unwrap());
        assert!(run.chunks.is_done() && run.ahead.is_empty());
        let (stats, scores) = run.finish();
        assert_eq!(stats, whole);
        assert_eq!(
            scores.unwrap(),
            plain_scores(&Random, rules, 9, u64::MAX - 50, 700)
        );
        let mut run = ChunkedRun::new(rules, 9, u64::MAX - 50, 700, false);
        let mut firsts = 0;
        while run
            .play_chunk_with(|game| {
                firsts += usize::from(game.history().is_empty());
                game.ask(&Random).ok_or("asked about a game that is over")
            })
            .unwrap()
        {}
        assert_eq!((run.finish(), firsts), ((whole, None), 700));
    }

    /// A callback that plays a move itself, returns an illegal move or fails stops
    /// the run with what happened.
    #[test]
    fn callback_strategies_are_checked() {
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, false);
        let played = run.play_chunk_with(|game| {
            let mv = game.legal_moves()[0];
            game.play(mv).map(|()| mv).map_err(|e| e.message)
        });
        assert!(matches!(
            played,
            Err(AskError::Changed {
                before: 0,
                after: 1,
                ..
            })
        ));
        // An undo then a play keeps the history's length, and is seen all the same.
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, false);
        let replayed = run.play_chunk_with(|game| {
            if let Ok(last) = game.undo() {
                game.play(last).map_err(|e| e.message)?;
            }
            Ok::<_, String>(game.ask(&Random).expect("not over"))
        });
        assert!(matches!(
            replayed,
            Err(AskError::Changed {
                before: 1,
                after: 1,
                ..
            })
        ));
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, false);
        let illegal = run.play_chunk_with(|_| Ok::<_, ()>(Move::Discard(4)));
        let Err(AskError::Illegal {
            mv,
            position,
            error,
        }) = illegal
        else {
            panic!("an illegal move was played");
        };
        let start = Game::from_seed(game_seed(1, 0), Rules::standard());
        assert_eq!((mv, position), (Move::Discard(4), start.to_text()));
        assert_eq!(error.kind, ErrorKind::IllegalMove);
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, false);
        assert!(matches!(
            run.play_chunk_with(|_| Err("no")),
            Err(AskError::Callback("no"))
        ));
    }

    #[test]
    fn random_play_wins_sometimes() {
        let stats = simulate(&Random, 20_000, Rules::standard(), 0, None, 0).unwrap();
        assert!(stats.wins() > 0 && stats.wins() < 2000, "{stats}");
    }
}
