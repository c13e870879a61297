//! The tests of `optimal.rs`: the module `optimal::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

fn value(rules: Rules) -> (u128, u128) {
    let o = optimal(rules, false, &Progress::default())
        .unwrap()
        .unwrap();
    (o.numerator, o.denominator)
}

/// The plain expectimax: every legal move, every ordered outcome of a deal, no
/// memo and no symmetry; values as probabilities times n!.
fn plain(v: &Visible) -> u64 {
    let moves = LegalMoves::of(v);
    if moves.is_empty() {
        return u64::from(rules::is_won(v));
    }
    let mut best = 0;
    for mv in moves.iter() {
        let w = match mv {
            Move::Deal => {
                let mut sum = 0;
                each_outcome(v, &mut |o| sum += plain(&o));
                sum
            }
            _ if v.relocates(mv) => continue,
            _ => plain(&v.after(mv)),
        };
        best = best.max(w);
    }
    best
}

fn small_layouts() -> Vec<Rules> {
    let mut out = Vec::new();
    for (suits, ranks, piles) in [(4, 2, 4), (2, 3, 4), (3, 2, 5)] {
        for fill in [
            rules::FillRule::Top,
            rules::FillRule::Ace,
            rules::FillRule::Any,
            rules::FillRule::Stack,
        ] {
            for deal in [
                rules::DealRule::Free,
                rules::DealRule::Stuck,
                rules::DealRule::Any,
            ] {
                for deal_to in [DealTo::All, DealTo::Empty] {
                    for ace_high in [true, false] {
                        out.push(Rules {
                            fill,
                            deal,
                            deal_to,
                            ace_high,
                            suits,
                            ranks,
                            piles,
                            ..Rules::standard()
                        });
                    }
                }
            }
        }
    }
    out
}

#[test]
fn agrees_with_the_plain_expectimax() {
    for rules in small_layouts() {
        let (numerator, denominator) = value(rules);
        let plain = u128::from(plain(&Visible::start(rules)));
        let d = (1..=rules.deck_size() as u128).product::<u128>();
        assert_eq!(denominator, d);
        assert_eq!(numerator, plain, "{rules}");
    }
}

#[test]
fn threads_do_not_change_the_value() {
    let rules = Rules {
        suits: 3,
        ranks: 3,
        ..Rules::standard()
    };
    let progress = Progress::default();
    let one = optimal(rules, false, &progress).unwrap().unwrap();
    let two = optimal(rules, true, &progress).unwrap().unwrap();
    assert_eq!(
        (one.numerator, one.denominator),
        (two.numerator, two.denominator)
    );
}

#[test]
fn cancel_stops_it_and_big_decks_are_refused() {
    let progress = Progress::default();
    progress.cancel.store(true, Ordering::Relaxed);
    let rules = Rules {
        ranks: 3,
        ..Rules::standard()
    };
    assert_eq!(optimal(rules, false, &progress).unwrap(), None);
    let err = optimal(Rules::standard(), false, &Progress::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Value);
    assert!(
        err.message.contains("4 suits x 13 ranks (52 cards)"),
        "{}",
        err.message
    );
}

#[test]
fn permutations_are_all_there() {
    for (n, count) in [(1, 1), (2, 2), (3, 6), (4, 24)] {
        let perms = permutations(n);
        assert_eq!(perms.len(), count);
        let mut sorted = perms.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), count);
    }
}
