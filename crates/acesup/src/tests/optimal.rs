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

/// The rank lift (`Symmetries::compress`) changes something only when a suit has
/// a discarded card below one still in play: three ranks or more. So a deck of
/// 2 × 4 under each fill rule and rank order, against the plain expectimax.
#[test]
fn the_rank_lift_keeps_the_value() {
    for (suits, ranks) in [(2, 4)] {
        for fill in [
            rules::FillRule::Top,
            rules::FillRule::Ace,
            rules::FillRule::Any,
        ] {
            for ace_high in [true, false] {
                let rules = Rules {
                    fill,
                    ace_high,
                    suits,
                    ranks,
                    ..Rules::standard()
                };
                let plain = u128::from(plain(&Visible::start(rules)));
                assert_eq!(value(rules).0, plain, "{rules}");
            }
        }
    }
}

#[test]
fn the_rank_lift_moves_the_cards_in_play_up() {
    // 3 ranks, ace high: 2♠ 3♠ A♠ are places 0, 1, 2. With 2♠ discarded nothing
    // moves; with 3♠ discarded, 2♠ takes its place.
    let rules = Rules {
        suits: 1,
        ranks: 3,
        ..Rules::standard()
    };
    let symmetries = Symmetries::new(rules);
    let card = |place: usize| symmetries.card_at[0][place];
    let mut v = Visible::start(rules);
    v.unseen = 1 << card(2);
    v.push(0, card(1));
    assert!(symmetries.compress(&v) == v);
    let mut v = Visible::start(rules);
    v.unseen = 1 << card(2);
    v.push(0, card(0));
    let lifted = symmetries.compress(&v);
    assert_eq!(lifted.unseen, 1 << card(2));
    assert_eq!(lifted.piles[0][0], card(1));
}
