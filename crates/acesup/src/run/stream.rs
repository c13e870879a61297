//! A run of items whose costs differ by orders of magnitude (the solver's deals:
//! microseconds to minutes), worked on by threads that each take the next item as
//! soon as they are done with one, and handed out in index order as soon as every
//! item before is done ([`Stream`]). No thread waits for another's slow item,
//! except to stay within the window: a bounded number of items ahead of the first
//! not yet handed out, which bounds the memory of the results waiting for it, and
//! what stopping the run throws away.

use super::cancel::{self, Cancel, Flag};
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
    ledger: Mutex<Ledger<T>>,
    /// Signalled when the first item not yet handed out is done, or a worker leaves.
    done: Condvar,
    /// Signalled when an item is handed out, so that the window moves, or the run stops.
    room: Condvar,
}

struct Ledger<T> {
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
            ledger: Mutex::new(Ledger {
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
        match self.next_by(None, 1) {
            Next::Item(mut items) => items.pop(),
            _ => None,
        }
    }

    /// The next item's result if it is done within `time` (`Duration::ZERO`: if it
    /// is done now). Panics if a worker panicked.
    pub fn next_within(&self, time: Duration) -> Next<T> {
        match self.next_by(Instant::now().checked_add(time), 1) {
            Next::Item(mut items) => Next::Item(items.pop().expect("one item")),
            Next::Pending => Next::Pending,
            Next::Ended => Next::Ended,
        }
    }

    /// The next item's result and those of the items after it that are done, in
    /// order, once the next is done within `time`: what [`Stream::next_within`]
    /// would hand out by as many calls, for one lock of the ledger (a caller that
    /// counts quick items spends less on taking them than they took).
    pub fn next_done_within(&self, time: Duration) -> Next<Vec<T>> {
        self.next_by(Instant::now().checked_add(time), usize::MAX)
    }

    /// Up to `most` results from the next item's on (the next's, and those done
    /// after it) if the next is done by `deadline` (None: whenever it is).
    fn next_by(&self, deadline: Option<Instant>, most: usize) -> Next<Vec<T>> {
        let shared = &*self.shared;
        let mut ledger = shared.lock();
        loop {
            if shared.stopped() || ledger.handed == shared.count {
                return Next::Ended;
            }
            let done = (ledger.results.iter().take(most))
                .take_while(|r| r.is_some())
                .count();
            if done > 0 {
                let items: Vec<T> = ledger.results.drain(..done).flatten().collect();
                ledger.handed += items.len() as u64;
                if ledger.waiting > 0 {
                    shared.room.notify_all();
                }
                return Next::Item(items);
            }
            // Workers leave early only when the run stops (seen above), so the
            // item they left undone is one that a panic cut short.
            assert!(ledger.working > 0, "a worker of the stream panicked");
            ledger.readers += 1;
            ledger = match deadline {
                None => shared.done.wait(ledger).unwrap_or_else(|p| p.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        ledger.readers -= 1;
                        return Next::Pending;
                    }
                    let waited = shared.done.wait_timeout(ledger, left);
                    waited.unwrap_or_else(|p| p.into_inner()).0
                }
            };
            ledger.readers -= 1;
        }
    }
}

impl<T> Drop for Stream<T> {
    /// Stops the run if items are left (see [`Stream`]) and joins the workers.
    fn drop(&mut self) {
        let shared = &*self.shared;
        {
            let ledger = shared.lock();
            if ledger.handed < shared.count {
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
    fn lock(&self) -> MutexGuard<'_, Ledger<T>> {
        self.ledger
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
            let mut ledger = self.lock();
            let slot = usize::try_from(first - ledger.handed).expect("within the window");
            let end = slot + block.len();
            if ledger.results.len() < end {
                ledger.results.resize_with(end, || None);
            }
            for (place, result) in ledger.results.range_mut(slot..end).zip(block.drain(..)) {
                *place = Some(result);
            }
            if slot == 0 && ledger.readers > 0 {
                self.done.notify_all();
            }
        }
    }

    /// The next block for a worker, (first item, count) with count at most `size`:
    /// None when every item is taken or the run stops, waiting while the window is
    /// full.
    fn take(&self, size: u64) -> Option<(u64, u64)> {
        let mut ledger = self.lock();
        loop {
            if self.stopped() || ledger.taken == self.count {
                return None;
            }
            let room = (ledger.handed.saturating_add(self.window) - ledger.taken)
                .min(self.count - ledger.taken);
            if room > 0 {
                let first = ledger.taken;
                ledger.taken += room.min(size);
                return Some((first, ledger.taken - first));
            }
            ledger.waiting += 1;
            ledger = self
                .room
                .wait(ledger)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            ledger.waiting -= 1;
        }
    }
}

/// How long a worker's block of items is meant to take (see [`Shared::work`]).
const BLOCK_TIME: Duration = Duration::from_millis(2);

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
#[path = "../tests/run/stream.rs"]
mod tests;
