//! The tests of `run/stream.rs`: the module `run::stream::tests`, in `src/tests/` with
//! the tests of the other modules.

use super::*;
use std::sync::atomic::{AtomicBool, AtomicU64};

fn flag() -> Flag {
    Arc::new(AtomicBool::new(false))
}

/// Work whose cost is spread over two orders of magnitude, by index.
fn uneven(_: &mut (), i: u64) -> u64 {
    let spins = [1, 3, 100, 7, 1, 40][(i % 6) as usize] * 500;
    (0..spins).fold(i, |h, k| h.wrapping_mul(31).wrapping_add(k)) ^ i
}

fn all<T: Send + 'static>(stream: &Stream<T>) -> Vec<T> {
    std::iter::from_fn(|| stream.next()).collect()
}

/// Work that holds the items `waits` picks until `release` is raised, and counts
/// every item done in `finished`.
fn held(
    release: &Flag,
    finished: &Arc<AtomicU64>,
    waits: fn(u64) -> bool,
) -> impl Fn(&mut (), u64) -> u64 + Send + Sync + 'static {
    let (release, finished) = (release.clone(), finished.clone());
    move |_, i| {
        if waits(i) {
            while !release.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        finished.fetch_add(1, Ordering::Relaxed);
        i
    }
}

#[test]
fn results_come_in_index_order_at_any_thread_count_and_window() {
    let expected: Vec<u64> = (0..500).map(|i| uneven(&mut (), i)).collect();
    for (threads, window) in [(1, 1), (1, 64), (2, 1), (2, 7), (3, 1000), (8, 16)] {
        let stream = Stream::start(threads, 500, window, flag(), || (), uneven).unwrap();
        assert_eq!(all(&stream), expected, "{threads} threads, window {window}");
        assert_eq!(stream.next_within(Duration::ZERO), Next::Ended);
    }
    let empty = Stream::start(4, 0, 10, flag(), || (), uneven).unwrap();
    assert!(empty.workers.is_empty() && empty.next().is_none());
}

/// `next_done_within` hands out the same results in the same order, several at
/// a time once several are done, and `Pending` while the next is not.
#[test]
fn results_taken_together_are_the_results_in_order() {
    let expected: Vec<u64> = (0..500).map(|i| uneven(&mut (), i)).collect();
    for (threads, window) in [(1, 1), (2, 7), (3, 1000)] {
        let stream = Stream::start(threads, 500, window, flag(), || (), uneven).unwrap();
        let (mut taken, mut most) = (Vec::new(), 0);
        while let Next::Item(results) = stream.next_done_within(Duration::MAX) {
            assert!(!results.is_empty());
            most = most.max(results.len());
            taken.extend(results);
        }
        assert_eq!(taken, expected, "{threads} threads, window {window}");
        assert!(most <= window as usize);
    }
    let (release, finished) = (flag(), Arc::new(AtomicU64::new(0)));
    let work = held(&release, &finished, |_| true);
    let stream = Stream::start(1, 10, 10, flag(), || (), work).unwrap();
    assert_eq!(
        stream.next_done_within(Duration::from_millis(5)),
        Next::Pending
    );
    release.store(true, Ordering::Relaxed);
    while finished.load(Ordering::Relaxed) < 10 {
        std::thread::sleep(Duration::from_millis(1));
    }
    // The last block's results are stored just after its work.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        stream.next_done_within(Duration::ZERO),
        Next::Item((0..10).collect())
    );
    assert_eq!(stream.next_done_within(Duration::ZERO), Next::Ended);
}

#[test]
fn each_thread_keeps_its_scratch_for_the_whole_run() {
    let made = Arc::new(AtomicU64::new(0));
    let counted = made.clone();
    let scratch = move || {
        counted.fetch_add(1, Ordering::Relaxed);
        0u64
    };
    let stream = Stream::start(3, 300, 50, flag(), scratch, |seen: &mut u64, i| {
        *seen += 1;
        (i, *seen)
    })
    .unwrap();
    let found = all(&stream);
    drop(stream); // The last threads may start after the others took every item.
    assert_eq!(made.load(Ordering::Relaxed), 3);
    assert!(found.iter().map(|&(i, _)| i).eq(0..300));
    // Each thread's count of items went up by one at each item it took.
    let most = found.iter().map(|&(_, seen)| seen).max().unwrap();
    assert!((100..=300).contains(&most), "{most}");
}

/// A slow item: the other threads go on with the items after it, up to the
/// window, while it runs, and it is handed out in its place all the same.
#[test]
fn a_slow_item_does_not_hold_up_the_other_threads() {
    let (release, finished) = (flag(), Arc::new(AtomicU64::new(0)));
    let work = held(&release, &finished, |i| i == 3);
    let stream = Stream::start(2, 1000, 200, flag(), || (), work).unwrap();
    let began = Instant::now();
    // Items 0 .. 200 are within the window of the first not handed out, 0; a
    // few after item 3 may share its block.
    while finished.load(Ordering::Relaxed) < 190 {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the other thread waited"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        finished.load(Ordering::Relaxed) < 200,
        "the window was overrun"
    );
    release.store(true, Ordering::Relaxed);
    assert!(all(&stream).into_iter().eq(0..1000));
}

#[test]
fn blocks_take_about_their_time() {
    let block = |micros| Duration::from_micros(micros);
    assert_eq!(next_size(1, block(1)), 2, "at most twice as many");
    assert_eq!(next_size(100, BLOCK_TIME / 4), 200);
    assert_eq!(next_size(200, block(1)), MOST_PER_BLOCK);
    assert_eq!(next_size(100, BLOCK_TIME * 2), 50);
    assert_eq!(next_size(256, block(60_000_000)), 1);
    assert_eq!(next_size(1, Duration::ZERO), 2);
}

/// Dropping a stream part-way stops work that looks at the flag at once, and
/// joins every thread (their captures are gone once it returns).
#[test]
fn dropping_a_stream_stops_and_joins_its_threads() {
    let alive = Arc::new(());
    let held = alive.clone();
    let stream = Stream::start(
        3,
        1 << 40,
        1 << 20,
        flag(),
        move || held.clone(),
        |_, i| {
            if i % 100 == 99 {
                // Work that lasts until it is cancelled.
                while !cancel::requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            i
        },
    )
    .unwrap();
    assert_eq!(stream.next(), Some(0));
    std::thread::sleep(Duration::from_millis(20));
    let began = Instant::now();
    drop(stream);
    assert!(began.elapsed() < Duration::from_millis(500));
    assert_eq!(
        Arc::strong_count(&alive),
        1,
        "a worker still holds its scratch"
    );
}

/// Raising the flag ends the stream, though a result is waiting.
#[test]
fn a_raised_flag_ends_the_stream() {
    let stop = flag();
    let stream = Stream::start(2, 100, 100, stop.clone(), || (), |_, i| i).unwrap();
    assert_eq!(stream.next(), Some(0));
    std::thread::sleep(Duration::from_millis(20));
    stop.store(true, Ordering::Relaxed);
    assert_eq!(stream.next(), None);
    // A finished stream leaves the flag as it was.
    let untouched = flag();
    let stream = Stream::start(2, 10, 100, untouched.clone(), || (), |_, i| i).unwrap();
    assert_eq!(all(&stream).len(), 10);
    drop(stream);
    assert!(!untouched.load(Ordering::Relaxed));
}

#[test]
#[should_panic(expected = "a worker of the stream panicked")]
fn a_worker_that_panics_is_reported() {
    let stream = Stream::start(
        1,
        10,
        10,
        flag(),
        || (),
        |_, i| {
            assert!(i != 4, "item 4");
            i
        },
    )
    .unwrap();
    all(&stream);
}
