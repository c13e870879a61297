//! The tests of `simulate.rs`: the module `simulate::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::rng::Rng;
use crate::strategies::{Builtin, Random};
use crate::ErrorKind;
use std::time::Duration;

/// Games `0..games` of seed 7 under `rules`: the play-out loop (random's own,
/// [`RandomTable`]) gives what playing the documented random strategy on a
/// `Game`, move by move through the checked `play`, gives (the plain version of
/// the loop), game by game.
fn assert_play_outs_are_plain(rules: Rules, games: u64) {
    let mut player = Player::new(rules);
    for i in 0..games {
        let score = player.play_game(&Random, 7, i);
        let pos = &player.random.position();
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

/// The scores of games `start .. start + count` of master seed `seed`, played one
/// after another on this thread: the plain version of a run's scores.
fn plain_scores<S: Strategy>(
    strategy: &S,
    rules: Rules,
    seed: u64,
    start: u64,
    count: u64,
) -> Vec<u8> {
    let mut player = Player::new(rules);
    (0..count)
        .map(|i| player.play_game(strategy, seed, start.wrapping_add(i)) as u8)
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
    let mut player = Player::new(Rules::standard());
    deal_seeded(&mut player.pos, &player.deck, 3, index);
    player.pos.stock().to_vec()
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
    let whole = run_games(&Pool::Current, &Random, Rules::standard(), 3, 0, 40);
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
        run_games(&pool, &Random, Rules::standard(), 3, 0, games as u64)
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
    let whole = run_games(&pool, &Random, rules, 9, u64::MAX - 50, 700);
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
