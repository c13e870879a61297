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
use std::time::{Duration, Instant};

/// The most games per thread between two checks for Ctrl-C by the bindings:
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

    /// Every game's score, in game-index order, for games `start .. start + count`
    /// of master seed `seed` on this pool (the same at any thread count).
    pub fn run_scores<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        rules: Rules,
        seed: u64,
        start: u64,
        count: u64,
    ) -> Vec<u8> {
        self.fold(
            count,
            Vec::new,
            || Table::new(rules),
            |table, scores: &mut Vec<u8>, i| {
                scores.push(table.play_game(strategy, seed, start.wrapping_add(i)) as u8)
            },
            |mut a, b| {
                a.extend_from_slice(&b);
                a
            },
        )
    }
}

/// The chunks of a run between two checks for Ctrl-C, sized to take about
/// [`CHUNK_TIME`] whatever a game costs: from a game per thread, a chunk doubles
/// while chunks end in less than half that time and halves when one takes more
/// than twice as long, within one and [`CHUNK_PER_THREAD`] games per thread. A
/// random play-out takes a microsecond and a montecarlo game a millisecond, so no
/// fixed size suits both. The sizes never change a result: a game depends on its
/// index alone.
pub struct AdaptiveChunks {
    next: u64,
    left: u128,
    size: u64,
    least: u64,
    most: u64,
}

impl AdaptiveChunks {
    /// The chunks of `games` games from index `start` (modulo 2⁶⁴) on `threads` threads.
    pub fn new(start: u64, games: u128, threads: usize) -> AdaptiveChunks {
        let least = threads.max(1) as u64;
        AdaptiveChunks {
            next: start,
            left: games,
            size: least,
            least,
            most: CHUNK_PER_THREAD * least,
        }
    }

    /// The next chunk, (first index, count), or None when the run is covered.
    pub fn next_chunk(&mut self) -> Option<(u64, u64)> {
        if self.left == 0 {
            return None;
        }
        let count = self.left.min(u128::from(self.size)) as u64;
        let chunk = (self.next, count);
        self.next = self.next.wrapping_add(count);
        self.left -= u128::from(count);
        Some(chunk)
    }

    /// The next chunk of at most `most` games, whatever the timings said.
    pub fn next_chunk_of(&mut self, most: u64) -> Option<(u64, u64)> {
        self.size = most;
        self.next_chunk()
    }

    /// Take back the last chunk, of `count` games, to be played again.
    pub fn put_back(&mut self, count: u64) {
        self.next = self.next.wrapping_sub(count);
        self.left += u128::from(count);
    }

    /// Adapt the size of the next chunks to the time the last one took.
    pub fn took(&mut self, elapsed: Duration) {
        if elapsed < CHUNK_TIME / 2 {
            self.size = (self.size * 2).min(self.most);
        } else if elapsed > CHUNK_TIME * 2 {
            self.size = (self.size / 2).max(self.least);
        }
    }
}

/// A run of seeded games played chunk by chunk, so that its caller can look for
/// cancellation (the bindings: Ctrl-C) between two chunks and let other work run
/// while one plays (the bindings release the GIL). It adds up the statistics and,
/// when asked to, every game's score in game-index order.
pub struct ChunkedRun {
    chunks: AdaptiveChunks,
    rules: Rules,
    seed: u64,
    stats: Stats,
    scores: Option<Vec<u8>>,
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
    /// sized for `threads` threads (see [`AdaptiveChunks`]).
    pub fn new(
        rules: Rules,
        seed: u64,
        start: u64,
        games: u128,
        threads: usize,
        keep_scores: bool,
    ) -> ChunkedRun {
        ChunkedRun {
            chunks: AdaptiveChunks::new(start, games, threads),
            rules,
            seed,
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

    /// Plays the next chunk with `strategy` on `pool`; false when the run was
    /// already complete. A chunk in which some game may have been cut short (it
    /// asked [`cancel::requested`] and was told to stop: [`cancel::seen`]) does not
    /// count: the run stays where it was (true). A chunk whose games all ran to
    /// their ends counts, even if a deadline passed meanwhile (the bindings' quick
    /// try: random play-outs never ask, and their chunk under way is not played
    /// twice). `ValueError` when a count would pass 2⁶⁴ - 1.
    pub fn play_chunk<S: Strategy + ?Sized>(&mut self, pool: &Pool, strategy: &S) -> Result<bool> {
        let Some((first, count)) = self.chunks.next_chunk() else {
            return Ok(false);
        };
        let began = Instant::now();
        let (rules, seed) = (self.rules, self.seed);
        let (part, scores) = match &self.scores {
            None => (pool.run(strategy, rules, seed, first, count), None),
            Some(_) => {
                let scores = pool.run_scores(strategy, rules, seed, first, count);
                (
                    Stats::from_scores(&scores, rules.win_score())?,
                    Some(scores),
                )
            }
        };
        if cancel::seen() {
            // Maybe cut short: its games may not be the strategy's; the run stays as it was.
            self.chunks.put_back(count);
            return Ok(true);
        }
        if let (Some(all), Some(part)) = (&mut self.scores, scores) {
            all.extend_from_slice(&part);
        }
        self.stats = self.stats.merge(&part)?;
        self.chunks.took(began.elapsed());
        Ok(true)
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
        let scores = Pool::new(Some(1))
            .unwrap()
            .run_scores(&strategy, rules, 3, 0, 5000);
        assert_eq!(Stats::from_scores(&scores, 48).unwrap(), one);
        for threads in [None, Some(2), Some(3)] {
            assert_eq!(
                Pool::new(threads)
                    .unwrap()
                    .run_scores(&strategy, rules, 3, 0, 5000),
                scores
            );
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
        let mut chunks = AdaptiveChunks::new(u64::MAX - 2, 1000, 2);
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
        assert_eq!(sizes[..7], [2, 4, 8, 16, 32, 16, 32]);
        let mut big = AdaptiveChunks::new(0, u128::from(u64::MAX) + 1, 1);
        for _ in 0..40 {
            big.next_chunk();
            big.took(Duration::ZERO);
        }
        assert_eq!(big.next_chunk().unwrap().1, CHUNK_PER_THREAD);
    }

    /// Under a deadline that has passed, a chunk of random play-outs (which never ask
    /// whether to stop) counts, and a chunk of montecarlo games, whose decisions ask
    /// and are cut short, is given back.
    #[test]
    fn only_a_chunk_told_to_stop_is_given_back() {
        let _scope = cancel::Scope::enter(cancel::Cancel::after(Duration::ZERO));
        let played = |strategy: &Builtin| {
            let mut run = ChunkedRun::new(Rules::standard(), 3, 0, 8, 1, false);
            assert!(run.play_chunk(&Pool::Current, strategy).unwrap());
            run.finish().0.games()
        };
        assert_eq!(played(&Builtin::parse("random").unwrap()), 1);
        assert_eq!(played(&Builtin::parse("montecarlo").unwrap()), 0);
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
        let mut run = ChunkedRun::new(rules, 9, u64::MAX - 50, 700, pool.threads(), true);
        let mut chunks = 0;
        while run.play_chunk(&pool, &Random).unwrap() {
            chunks += 1;
        }
        assert!(chunks > 1);
        let (stats, scores) = run.finish();
        assert_eq!(stats, whole);
        assert_eq!(
            scores.unwrap(),
            pool.run_scores(&Random, rules, 9, u64::MAX - 50, 700)
        );
        let mut run = ChunkedRun::new(rules, 9, u64::MAX - 50, 700, 1, false);
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
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, 1, false);
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
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, 1, false);
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
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, 1, false);
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
        let mut run = ChunkedRun::new(Rules::standard(), 1, 0, 3, 1, false);
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
