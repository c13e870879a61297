//! Verdicts in batches and the value types.

use super::*;

/// kpat deals 1-60 under its preset with at most 20,000 nodes each, as
/// `solve_deals` found them when it solved them 32 a thread at a time ('-':
/// unresolved): the stream hands out the same, in order, at any thread count.
#[test]
fn verdicts_come_in_order_at_any_thread_count() {
    const KPAT_1_60: &str = "-TFTFTFF-TT-TF-FTT-TTT-TTT-FTTTFT-FTFTF-FFFTF-FFTFTFTTF-FT-F";
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let position = |i: u64| {
        let deck = crate::deals::deck_from_kpat(i128::from(i) + 1).unwrap();
        Position::from_deck(&deck, Rules::kpat())
    };
    for threads in [1, 2, 3] {
        let found = verdicts(threads, 60, position, &limits).unwrap();
        let text: String = std::iter::from_fn(|| found.next())
            .map(|v| match v {
                Some(true) => 'T',
                Some(false) => 'F',
                None => '-',
            })
            .collect();
        assert_eq!(text, KPAT_1_60, "{threads} threads");
    }
}

#[test]
fn solvability_does_not_depend_on_the_threads() {
    let rules = Rules {
        relocate_single: true,
        ..Rules::easy()
    };
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let one = solvability(1, rules, 3, 10, 150, &limits).unwrap().unwrap();
    assert_eq!(one.games(), 150);
    for threads in [2, 3, crate::run::thread_count(None).unwrap()] {
        let found = solvability(threads, rules, 3, 10, 150, &limits).unwrap();
        assert_eq!(found, Some(one), "{threads} threads");
    }
    let a = solvability(1, rules, 3, 10, 61, &limits).unwrap().unwrap();
    let b = solvability(2, rules, 3, 71, 89, &limits).unwrap().unwrap();
    assert_eq!(a.merge(&b).unwrap(), one);
    let cancel = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..limits
    };
    assert_eq!(solvability(2, rules, 3, 10, 150, &cancel).unwrap(), None);
}

#[test]
fn solvability_figures() {
    let s = Solvability::new(3, 5, 2).unwrap();
    assert_eq!((s.games(), s.rate()), (10, 0.3));
    let low = Stats::from_histogram(&[&[7u64][..], &[0; 47], &[3]].concat())
        .unwrap()
        .ci95()
        .0;
    let high = Stats::from_histogram(&[&[5u64][..], &[0; 47], &[5]].concat())
        .unwrap()
        .ci95()
        .1;
    assert_eq!(s.ci95(), (low, high));
    assert_eq!(
        s.repr(),
        "Solvability(winnable=3, unwinnable=5, unresolved=2)"
    );
    assert_eq!(
        s.to_string(),
        "10 games: 3 winnable, 5 unwinnable, 2 unresolved; rate 0.30000 (95% CI 0.10779 to 0.76341)"
    );
    let empty = Solvability::default();
    assert!(empty.rate().is_nan());
    assert_eq!(
        (empty.ci95(), empty.to_string()),
        ((0.0, 1.0), "0 games".to_string())
    );
    assert!(Solvability::new(u64::MAX, 1, 0).is_err());
    assert!(Solvability::new(u64::MAX, 0, 0)
        .unwrap()
        .merge(&Solvability::new(1, 0, 0).unwrap())
        .is_err());
    let line = Solution::new(Some(true), vec![Move::Deal, Move::Discard(2)], 7).unwrap();
    assert_eq!(line.to_string(), "winnable (7 nodes): deal d2");
    assert!(Solution::new(Some(false), vec![Move::Deal], 0).is_err());
}
