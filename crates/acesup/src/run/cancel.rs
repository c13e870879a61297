//! Cancelling a run from outside it (the Python bindings: Ctrl-C), whatever one game
//! or one decision costs.
//!
//! A run's [`Cancel`] (its flag, and maybe a deadline) is made current on the
//! threads that do its work for as long as they do it ([`Scope`]); the long loops
//! of the expensive strategies (montecarlo's play-outs, lookahead's search) and
//! the chunks of a run look at it through [`requested`] and cut their work short
//! once the flag is raised or the deadline passed, so that a cancelled run ends in
//! microseconds. A cut decision still returns a legal move; the run throws away
//! what was cut. A flag is per run, not global: two runs on two threads never
//! cancel each other. `Pool::fold` carries the caller's `Cancel` to the
//! threads of its pool, and a [`super::Stream`] makes its own flag current on its
//! threads.
//!
//! The deadline is for a quick first try: the bindings run work where they are
//! for a few milliseconds, most of it done by then, before they pay for a thread
//! on which Ctrl-C can stop it.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A run's cancel flag, raised by whoever wants the run to stop.
pub type Flag = Arc<AtomicBool>;

/// When the work of a run is to stop: when its flag is raised, or its deadline
/// passed.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Option<Flag>,
    deadline: Option<Instant>,
    /// Raised by the first [`requested`] that answers yes: from then on some work of
    /// the run may have cut itself short. Shared by the clones that carry the run to
    /// its threads.
    seen: Flag,
}

impl Cancel {
    /// Stop when `flag` is raised.
    pub fn on(flag: Flag) -> Cancel {
        Cancel {
            flag: Some(flag),
            ..Cancel::default()
        }
    }

    /// Stop once `time` has passed from now.
    pub fn after(time: Duration) -> Cancel {
        Cancel {
            deadline: Some(Instant::now() + time),
            ..Cancel::default()
        }
    }

    /// The same stop (flag and deadline) with a [`seen`] of its own: for a thread
    /// that must tell whether its own work was cut, whatever the run's other
    /// threads were told meanwhile (`Pool::each_thread`).
    pub(crate) fn apart(&self) -> Cancel {
        Cancel {
            flag: self.flag.clone(),
            deadline: self.deadline,
            seen: Flag::default(),
        }
    }

    fn requested(&self) -> bool {
        let stop = self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|t| Instant::now() >= t);
        if stop {
            self.seen.store(true, Ordering::Relaxed);
        }
        stop
    }
}

thread_local! {
    /// The `Cancel` of the run that this thread works for.
    static CURRENT: RefCell<Cancel> = RefCell::new(Cancel::default());
}

/// Whether the run this thread works for is to stop: a relaxed load (and a look at
/// the clock under a deadline), cheap enough for once per play-out or per search
/// node. False outside any [`Scope`].
#[inline]
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().requested())
}

/// Whether some work of the run this thread works for has been told to stop (a
/// [`requested`] answered yes, on any of its threads), and so may have cut itself
/// short. Work that never asks, such as a random play-out, runs to its end and is
/// whole even when the flag was raised or the deadline passed meanwhile.
pub(crate) fn seen() -> bool {
    CURRENT.with(|c| c.borrow().seen.load(Ordering::Relaxed))
}

/// The `Cancel` of the run this thread works for (what [`Scope::enter`] made current).
pub(crate) fn current() -> Cancel {
    CURRENT.with(|c| c.borrow().clone())
}

/// While it lives, `cancel` is this thread's current one; the one before comes back
/// when it is dropped (scopes nest).
#[must_use = "the cancel is current only while the scope lives"]
pub struct Scope {
    previous: Cancel,
}

impl Scope {
    pub fn enter(cancel: Cancel) -> Scope {
        Scope {
            previous: CURRENT.with(|c| c.replace(cancel)),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = std::mem::take(&mut self.previous));
    }
}

#[cfg(test)]
#[path = "../tests/run/cancel.rs"]
mod tests;
