//! Where a batch plays: the calling thread, rayon's global pool or a pool of its
//! own ([`Pool`]), and how many threads that is ([`thread_count`]), for the
//! play-outs and for the solver's runs, whose threads are a stream's
//! ([`super::stream`]).

use super::cancel;
use crate::{Error, ErrorKind, Result};
use rayon::prelude::*;

/// More threads than this give nothing on any machine; a larger request is capped
/// (the results do not depend on it).
pub const MAX_THREADS: usize = 256;

/// Where a run's games are played.
pub enum Pool {
    /// The calling thread.
    Current,
    /// Rayon's global pool: all cores.
    Global,
    /// A pool of its own, with a chosen number of threads.
    Dedicated(rayon::ThreadPool),
}

impl Pool {
    /// `None`: all cores; `Some(1)`: the calling thread; `Some(n)`: n threads (at
    /// most [`MAX_THREADS`]).
    pub fn new(threads: Option<usize>) -> Result<Pool> {
        let n = thread_count(threads)?;
        match threads {
            None => Ok(Pool::Global),
            Some(1) => Ok(Pool::Current),
            Some(_) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .thread_name(|i| format!("acesup-{i}"))
                .build()
                .map(Pool::Dedicated)
                .map_err(|e| {
                    Error::new(ErrorKind::Value, format!("cannot start {n} threads: {e}"))
                }),
        }
    }

    /// The number of threads that play.
    pub(crate) fn threads(&self) -> usize {
        match self {
            Pool::Current => 1,
            Pool::Global => rayon::current_num_threads(),
            Pool::Dedicated(pool) => pool.current_num_threads(),
        }
    }

    /// Folds items `0..count` on this pool: each thread keeps a scratch value made by
    /// `scratch` and an accumulator starting at `empty()`, `step` adds item i to
    /// them, and `join` combines the accumulators of consecutive ranges, in order (so
    /// that an accumulator that lists its items lists them in index order, at any
    /// thread count). The one place where a batch chooses its threads: the
    /// caller's [`cancel::current`] is current on every thread while it folds.
    pub(crate) fn fold<A, W>(
        &self,
        count: u64,
        empty: impl Fn() -> A + Sync + Send,
        scratch: impl Fn() -> W + Sync + Send,
        step: impl Fn(&mut W, &mut A, u64) + Sync + Send,
        join: impl Fn(A, A) -> A + Sync + Send,
    ) -> A
    where
        A: Send,
        W: Send,
    {
        let cancel = cancel::current();
        let parallel = || {
            (0..count)
                .into_par_iter()
                .fold(
                    // A fold's scratch lives on one thread for its sequential part.
                    // Boxed, so that each step moves a pointer, not the scratch and
                    // the accumulator (a position and a histogram: 5% of a random
                    // play-out when they were copied in and out at every game).
                    || Box::new((cancel::Scope::enter(cancel.clone()), scratch(), empty())),
                    |mut state, i| {
                        let (_, work, acc) = &mut *state;
                        step(work, acc, i);
                        state
                    },
                )
                .map(|state| state.2)
                .reduce(&empty, &join)
        };
        match self {
            Pool::Current => {
                let (mut work, mut acc) = (scratch(), empty());
                (0..count).for_each(|i| step(&mut work, &mut acc, i));
                acc
            }
            Pool::Global => parallel(),
            Pool::Dedicated(pool) => pool.install(parallel),
        }
    }

    /// Runs `work` once on each thread of this pool, all at the same time (on the
    /// calling thread alone for [`Pool::Current`]), and returns when every one has
    /// returned. The caller's [`cancel::current`] is current on each, with a
    /// `seen` of its own ([`cancel::Cancel::apart`]), so that [`cancel::seen`] on
    /// a thread says whether that thread's own work was told to stop.
    pub(crate) fn each_thread(&self, work: impl Fn() + Sync) {
        let cancel = cancel::current();
        let one = || {
            let _scope = cancel::Scope::enter(cancel.apart());
            work();
        };
        match self {
            Pool::Current => one(),
            Pool::Global => drop(rayon::broadcast(|_| one())),
            Pool::Dedicated(pool) => drop(pool.broadcast(|_| one())),
        }
    }
}

/// The threads that a run asked for `threads` plays on, as [`Pool::new`] counts
/// them: `None`, all cores; `Some(n)`, n (at most [`MAX_THREADS`]); `ValueError`
/// for `Some(0)`. For runs that start threads of their own ([`super::Stream`]).
pub fn thread_count(threads: Option<usize>) -> Result<usize> {
    match threads {
        None => Ok(rayon::current_num_threads()),
        Some(0) => Err(Error::new(
            ErrorKind::Value,
            "threads must be None or a positive int, got 0",
        )),
        Some(n) => Ok(n.min(MAX_THREADS)),
    }
}
