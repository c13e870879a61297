//! A run of items whose costs differ by orders of magnitude (the solver's deals:
//! microseconds to minutes), worked on by threads that each take the next item as
//! soon as they are done with one, and handed out in index order as soon as every
//! item before is done ([`Stream`]). No thread waits for another's slow item,
//! except to stay within the window: a bounded number of items ahead of the first
//! not yet handed out, which bounds the memory of the results waiting for it, and
//! what stopping the run throws away.

use crate::cancel::{self, Cancel, Flag};
use crate::{Error, ErrorKind, Result};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Items `0 .. count` worked on by threads of their own, handed out in index
/// order ([`Stream::next`]). The run stops when its flag is raised: its workers
/// take no new item, throw away what they were working on (the work sees the flag
/// too, through [`cancel::requested`] or its own copy, and cuts itself short), and
/// the stream hands out nothing more. Dropping the stream before its last item
/// raises the flag, and it always joins its threads: none is left running.
pub struct Stream<T> {
    shared: Arc<Shared<T>>,
    workers: Vec<JoinHandle<()>>,
}

/// What [`Stream::next_within`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<T> {
    /// The next item's result.
    Item(T),
    /// The next item is not done yet.
    Pending,
    /// Nothing more to hand out: every item was, or the run stopped.
    Ended,
}

/// What the workers and the stream share.
struct Shared<T> {
    count: u64,
    window: u64,
    flag: Flag,
    state: Mutex<State<T>>,
    /// Signalled when the first item not yet handed out is done, or a worker leaves.
    done: Condvar,
    /// Signalled when an item is handed out, so that the window moves, or the run stops.
    room: Condvar,
}

struct State<T> {
    /// Items `0 .. taken` have been taken by a worker.
    taken: u64,
    /// Items `0 .. handed` have been handed out.
    handed: u64,
    /// The results of items `handed ..`, None while an item is not done; never
    /// longer than the window.
    results: VecDeque<Option<T>>,
    /// The workers still running.
    working: usize,
    /// How many readers wait for the first item not yet handed out, and how many
    /// workers wait for room: a condition variable is signalled only when someone
    /// waits on it (a signal costs a system call, more than a quick item).
    readers: usize,
    waiting: usize,
}

impl<T: Send + 'static> Stream<T> {
    /// Starts `threads` threads (no more than there are items) on items `0 ..
    /// count`: each makes its scratch value with `scratch` once (a solver and its
    /// tables), then computes `work(&mut scratch, i)` for the next item i not yet
    /// taken, as long as i is less than `window` (at least 1) ahead of the first
    /// item not yet handed out. `flag` is the run's: whoever raises it stops the
    /// run, and the workers have it current ([`cancel::Scope`]). `ValueError` when
    /// not even one thread can be started; fewer threads than asked for give the
    /// same results.
    pub fn start<W>(
        threads: usize,
        count: u64,
        window: u64,
        flag: Flag,
        scratch: impl Fn() -> W + Send + Sync + 'static,
        work: impl Fn(&mut W, u64) -> T + Send + Sync + 'static,
    ) -> Result<Stream<T>> {
        let shared = Arc::new(Shared {
            count,
            window: window.max(1),
            flag,
            state: Mutex::new(State {
                taken: 0,
                handed: 0,
                results: VecDeque::new(),
                working: 0,
                readers: 0,
                waiting: 0,
            }),
            done: Condvar::new(),
            room: Condvar::new(),
        });
        let job = Arc::new((scratch, work));
        let mut stream = Stream {
            shared,
            workers: Vec::new(),
        };
        let wanted = u64::try_from(threads.max(1)).unwrap_or(u64::MAX).min(count);
        for k in 0..wanted {
            let (shared, job) = (stream.shared.clone(), job.clone());
            stream.shared.lock().working += 1;
            let started = std::thread::Builder::new()
                .name(format!("acesup-stream-{k}"))
                .spawn(move || shared.work(&job.0, &job.1));
            match started {
                Ok(worker) => stream.workers.push(worker),
                Err(e) => {
                    stream.shared.lock().working -= 1;
                    if stream.workers.is_empty() {
                        return Err(Error::new(
                            ErrorKind::Value,
                            format!("cannot start a thread: {e}"),
                        ));
                    }
                    break;
                }
            }
        }
        Ok(stream)
    }

    /// The next item's result, waiting for it as long as it takes; None once the
    /// stream has ended (every item handed out, or the run stopped). Panics if a
    /// worker panicked.
    pub fn next(&self) -> Option<T> {
        match self.next_by(None) {
            Next::Item(item) => Some(item),
            _ => None,
        }
    }

    /// The next item's result if it is done within `time` (`Duration::ZERO`: if it
    /// is done now). Panics if a worker panicked.
    pub fn next_within(&self, time: Duration) -> Next<T> {
        self.next_by(Instant::now().checked_add(time))
    }

    /// The next item's result if it is done by `deadline` (None: whenever it is).
    fn next_by(&self, deadline: Option<Instant>) -> Next<T> {
        let shared = &*self.shared;
        let mut state = shared.lock();
        loop {
            if shared.stopped() || state.handed == shared.count {
                return Next::Ended;
            }
            if let Some(Some(_)) = state.results.front() {
                let item = state.results.pop_front().flatten().expect("just seen");
                state.handed += 1;
                if state.waiting > 0 {
                    shared.room.notify_all();
                }
                return Next::Item(item);
            }
            // Workers leave early only when the run stops (seen above), so the
            // item they left undone is one that a panic cut short.
            assert!(state.working > 0, "a worker of the stream panicked");
            state.readers += 1;
            state = match deadline {
                None => shared.done.wait(state).unwrap_or_else(|p| p.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        state.readers -= 1;
                        return Next::Pending;
                    }
                    let waited = shared.done.wait_timeout(state, left);
                    waited.unwrap_or_else(|p| p.into_inner()).0
                }
            };
            state.readers -= 1;
        }
    }
}

impl<T> Drop for Stream<T> {
    /// Stops the run if items are left (see [`Stream`]) and joins the workers.
    fn drop(&mut self) {
        let shared = &*self.shared;
        {
            let state = shared.lock();
            if state.handed < shared.count {
                shared.flag.store(true, Ordering::Relaxed);
            }
            shared.room.notify_all();
        }
        for worker in self.workers.drain(..) {
            // A worker's panic was reported by `next_within`, or no one asks now.
            let _ = worker.join();
        }
    }
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// A worker's life: the next block of items not taken, within the window,
    /// until there is none or the run stops. A block is sized to take about
    /// [`BLOCK_TIME`] by the time the last one took: up to [`MOST_PER_BLOCK`]
    /// items when they take microseconds, so that the locks and signals cost
    /// little beside them, and one when they are slow. Its results are stored
    /// when it ends: the few quick items of a block before a slow one are handed
    /// out once it is done (the other threads go on meanwhile).
    fn work<W>(&self, scratch: impl Fn() -> W, work: impl Fn(&mut W, u64) -> T) {
        let _leaving = Leaving(self);
        let _scope = cancel::Scope::enter(Cancel::on(self.flag.clone()));
        let mut scratch = scratch();
        let (mut size, mut block) = (1, Vec::new());
        while let Some((first, count)) = self.take(size) {
            let began = Instant::now();
            block.extend((first..first + count).map(|i| work(&mut scratch, i)));
            size = next_size(count, began.elapsed());
            // Work that saw the flag may have been cut short: it is not a result.
            // (Work done before the flag was raised is thrown away too: the stream
            // hands out nothing more.)
            if self.stopped() {
                return;
            }
            let mut state = self.lock();
            let slot = usize::try_from(first - state.handed).expect("within the window");
            let end = slot + block.len();
            if state.results.len() < end {
                state.results.resize_with(end, || None);
            }
            for (place, result) in state.results.range_mut(slot..end).zip(block.drain(..)) {
                *place = Some(result);
            }
            if slot == 0 && state.readers > 0 {
                self.done.notify_all();
            }
        }
    }

    /// The next block for a worker, (first item, count) with count at most `size`:
    /// None when every item is taken or the run stops, waiting while the window is
    /// full.
    fn take(&self, size: u64) -> Option<(u64, u64)> {
        let mut state = self.lock();
        loop {
            if self.stopped() || state.taken == self.count {
                return None;
            }
            let room = (state.handed.saturating_add(self.window) - state.taken)
                .min(self.count - state.taken);
            if room > 0 {
                let first = state.taken;
                state.taken += room.min(size);
                return Some((first, state.taken - first));
            }
            state.waiting += 1;
            state = self
                .room
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            state.waiting -= 1;
        }
    }
}

/// How long a worker's block of items is meant to take (see [`Shared::work`]).
const BLOCK_TIME: Duration = Duration::from_micros(500);

/// The most items in a block.
const MOST_PER_BLOCK: u64 = 256;

/// The size of a worker's next block after one of `count` items took `elapsed`:
/// what would take [`BLOCK_TIME`] at that pace, at most twice `count`.
fn next_size(count: u64, elapsed: Duration) -> u64 {
    let paced = u128::from(count) * BLOCK_TIME.as_nanos() / elapsed.as_nanos().max(1);
    (paced.min(u128::from(2 * count)) as u64).clamp(1, MOST_PER_BLOCK)
}

/// Counts a worker out when it leaves, by its end or by a panic, so that the
/// stream never waits for a result that will not come.
struct Leaving<'a, T>(&'a Shared<T>);

impl<T> Drop for Leaving<'_, T> {
    fn drop(&mut self) {
        self.0.lock().working -= 1;
        self.0.done.notify_all();
    }
}

#[cfg(test)]
mod tests {
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
        let release = flag();
        let finished = Arc::new(AtomicU64::new(0));
        let (held, count) = (release.clone(), finished.clone());
        let stream = Stream::start(
            2,
            1000,
            200,
            flag(),
            || (),
            move |_, i| {
                if i == 3 {
                    while !held.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                count.fetch_add(1, Ordering::Relaxed);
                i
            },
        )
        .unwrap();
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
        assert_eq!(next_size(100, block(250)), 200);
        assert_eq!(next_size(200, block(1)), MOST_PER_BLOCK);
        assert_eq!(next_size(100, block(1000)), 50);
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
}
