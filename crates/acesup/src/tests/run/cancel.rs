//! The tests of `run/cancel.rs`: the module `run::cancel::tests`, in `src/tests/` with
//! the tests of the other modules.

use super::*;

#[test]
fn a_scope_makes_its_flag_current_on_its_thread_only() {
    assert!(!requested() && current().flag.is_none());
    let flag: Flag = Arc::new(AtomicBool::new(false));
    {
        let _scope = Scope::enter(Cancel::on(flag.clone()));
        assert!(!requested());
        flag.store(true, Ordering::Relaxed);
        assert!(requested());
        // Another thread works for no run.
        assert!(!std::thread::spawn(requested).join().unwrap());
        {
            let _inner = Scope::enter(Cancel::default());
            assert!(!requested());
        }
        assert!(requested());
    }
    assert!(!requested() && current().flag.is_none());
}

#[test]
fn a_deadline_passes() {
    {
        let _scope = Scope::enter(Cancel::after(Duration::from_millis(20)));
        assert!(!requested());
        std::thread::sleep(Duration::from_millis(30));
        assert!(requested());
    }
    assert!(!requested());
}

/// A request is seen once some work asked and was told to stop, by the run's
/// clones on every thread, and not merely because the deadline passed.
#[test]
fn a_request_is_seen_when_asked() {
    let cancel = Cancel::after(Duration::ZERO);
    let _scope = Scope::enter(cancel.clone());
    assert!(!seen(), "nothing asked yet");
    let other = std::thread::spawn(move || {
        let _scope = Scope::enter(cancel);
        requested()
    });
    assert!(other.join().unwrap());
    assert!(seen(), "asked on another thread of the run");
    let _fresh = Scope::enter(Cancel::after(Duration::ZERO));
    assert!(!seen(), "another run");
}
