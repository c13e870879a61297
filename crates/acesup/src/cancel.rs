//! Cancelling a run from outside it (the Python bindings: Ctrl-C), whatever one game
//! or one decision costs.
//!
//! A run's flag is made current on the threads that do its work for as long as
//! they do it ([`Scope`]); the long loops of the expensive strategies (montecarlo's
//! play-outs, lookahead's search) look at it through [`requested`] and cut their
//! work short once it is raised, so that a cancelled run ends in microseconds. A
//! cut decision still returns a legal move; the run that raised the flag throws
//! its games away. The flag is per run, not global: two runs on two threads never
//! cancel each other. [`crate::simulate::Pool::fold`] carries the caller's flag to
//! the threads of its pool. A [`Budget`] cuts the work of this thread short in the
//! same way once a time has passed: a caller tries a decision where it is, quickly,
//! before it pays for a thread of its own on which Ctrl-C can stop it.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A run's cancel flag, raised by whoever wants the run to stop.
pub type Flag = Arc<AtomicBool>;

thread_local! {
    /// The flag of the run that this thread works for, if any.
    static CURRENT: RefCell<Option<Flag>> = const { RefCell::new(None) };
    /// When the [`Budget`] of this thread's work runs out, if it has one.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Whether the run this thread works for was cancelled, or its [`Budget`] spent: a
/// relaxed load (and a look at the clock under a budget), cheap enough for once
/// per play-out or per search node. False outside any [`Scope`] and budget.
#[inline]
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
        || DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() >= t))
}

/// While it lives, the work of this thread counts as cancelled once `time` has
/// passed (see [`requested`]); no budget again when it is dropped.
#[must_use = "the budget holds only while it lives"]
pub struct Budget;

impl Budget {
    pub fn start(time: Duration) -> Budget {
        DEADLINE.set(Some(Instant::now() + time));
        Budget
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        DEADLINE.set(None);
    }
}

/// The flag of the run this thread works for (what [`Scope::enter`] made current).
pub fn current() -> Option<Flag> {
    CURRENT.with(|c| c.borrow().clone())
}

/// While it lives, `flag` is this thread's current flag; the one before comes back
/// when it is dropped (scopes nest).
#[must_use = "the flag is current only while the scope lives"]
pub struct Scope {
    previous: Option<Flag>,
}

impl Scope {
    pub fn enter(flag: Option<Flag>) -> Scope {
        Scope {
            previous: CURRENT.with(|c| c.replace(flag)),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = self.previous.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_makes_its_flag_current_on_its_thread_only() {
        assert!(!requested() && current().is_none());
        let flag: Flag = Arc::new(AtomicBool::new(false));
        {
            let _scope = Scope::enter(Some(flag.clone()));
            assert!(!requested());
            flag.store(true, Ordering::Relaxed);
            assert!(requested());
            // Another thread works for no run.
            assert!(!std::thread::spawn(requested).join().unwrap());
            {
                let _inner = Scope::enter(None);
                assert!(!requested());
            }
            assert!(requested());
        }
        assert!(!requested() && current().is_none());
    }

    #[test]
    fn a_budget_runs_out() {
        {
            let _budget = Budget::start(Duration::from_millis(20));
            assert!(!requested());
            std::thread::sleep(Duration::from_millis(30));
            assert!(requested());
        }
        assert!(!requested());
    }
}
