//! The tests of `stats.rs`: the module `stats::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

#[test]
fn counts() {
    let mut h = [0u64; MAX_SCORES];
    h[48] = 3;
    h[10] = 7;
    let s = Stats::from_histogram(&h).unwrap();
    assert_eq!((s.games(), s.wins(), s.losses()), (10, 3, 7));
    assert_eq!(s.win_rate(), 0.3);
    assert_eq!(s.mean_score(), (3.0 * 48.0 + 70.0) / 10.0);
    assert_eq!(s.merge(&s).unwrap().games(), 20);
    for bad in [0, 1, 2, 48, 50] {
        assert!(Stats::from_histogram(&vec![0; bad]).is_err(), "{bad}");
    }
    // Win scores of layouts: 3 (suits=1, ranks=4), 8 (4 x 3), 36 (3 x 13).
    for good in [4, 9, 37, 49] {
        assert!(Stats::from_histogram(&vec![0; good]).is_ok(), "{good}");
    }
    let e = Stats::empty(48);
    assert!(e.win_rate().is_nan() && e.mean_score().is_nan());
    assert_eq!(e.ci95(), (0.0, 1.0));
}

#[test]
fn scores() {
    let stats = Stats::from_scores(&[3, 48, 3, 0], 48).unwrap();
    assert_eq!(
        (stats.games(), stats.wins(), stats.histogram()[3]),
        (4, 1, 2)
    );
    assert!(stats.check_scores(&[48, 3, 3, 0]).is_ok());
    assert_eq!(
        stats.check_scores(&[48, 3, 3]).unwrap_err().kind,
        ErrorKind::Value
    );
    assert!(Stats::from_scores(&[49], 48).is_err());
    assert!(Stats::from_scores(&[9], 8).is_err());
}

/// A smaller layout's histogram: its win score is its length less one, and
/// adding it to another win score's is an error unless one of them is empty.
#[test]
fn win_scores() {
    let small = Stats::from_scores(&[8, 3, 8], 8).unwrap();
    assert_eq!(
        (small.histogram().len(), small.wins(), small.win_score()),
        (9, 2, 8)
    );
    assert_eq!(small.win_rate(), 2.0 / 3.0);
    let standard = Stats::from_scores(&[48], 48).unwrap();
    assert_eq!(
        small.merge(&standard).unwrap_err().message,
        "cannot add the statistics of games won with 8 and with 48 cards discarded"
    );
    assert_eq!(small.merge(&Stats::empty(48)).unwrap(), small);
    assert_eq!(Stats::empty(48).merge(&small).unwrap(), small);
    assert_eq!(small.merge(&small).unwrap().games(), 6);
    assert_eq!(Stats::from_histogram(small.histogram()).unwrap(), small);
}

#[test]
fn wilson_interval() {
    // 10 wins in 100 games: the Wilson interval is about (0.0552, 0.1744).
    let mut h = [0u64; MAX_SCORES];
    h[48] = 10;
    h[0] = 90;
    let (lo, hi) = Stats::from_histogram(&h).unwrap().ci95();
    assert!(
        (lo - 0.05522914).abs() < 1e-6 && (hi - 0.17436566).abs() < 1e-6,
        "{lo} {hi}"
    );
    // All wins: the upper end is clamped to 1.
    let mut h = [0u64; MAX_SCORES];
    h[48] = 5;
    assert_eq!(Stats::from_histogram(&h).unwrap().ci95().1, 1.0);
}

#[test]
fn ratios_round_once() {
    // Exact for small operands.
    assert_eq!(ratio(1, 3), 1.0 / 3.0);
    // 2^60 + 1 over 3: the exact quotient, rounded once.
    let a: u128 = (1 << 60) + 1;
    let q = ratio(a, 3);
    let exact = a / 3; // 384307168202282325, remainder 2
    assert_eq!(q, exact as f64 + 0.0); // rounds to the same double as its integer part here
                                       // Ties to even at 2^54 + 2: 2^54 + 2 / 1 is exact in 55 bits, so it is 2^54 + 2 rounded: even.
    assert_eq!(ratio((1 << 54) + 2, 1), ((1u128 << 54) + 2) as f64);
    assert_eq!(ratio((1 << 54) + 3, 1), ((1u128 << 54) + 3) as f64 + 0.0);
    assert_eq!(ratio(u128::from(u64::MAX) * 48, u128::from(u64::MAX)), 48.0);
    // The 256-bit square rounds like the exact product.
    assert_eq!(four_n_squared(3), 36.0);
    assert_eq!(four_n_squared(1 << 63), 2f64.powi(128));
    let n: u128 = (1 << 64) + 12345;
    let expected = 4.0 * 2f64.powi(128) * (1.0 + 2.0 * 12345.0 * 2f64.powi(-64)); // below the last bit: 2^130
    assert_eq!(four_n_squared(n), expected);
}
