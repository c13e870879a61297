//! The tests of `bound.rs`: the module `bound::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::optimal::optimal;
use crate::solver::{solve, Limits};

fn rules(text: &str) -> Rules {
    Rules::parse(text).unwrap()
}

fn zero(samples: Option<u32>) -> Penalty {
    Penalty {
        value: Value::Zero,
        samples,
    }
}

fn inner<'a>(rules: Rules, value: &'a Value, progress: &'a Progress) -> InnerSearch<'a> {
    InnerSearch {
        rules,
        value,
        orders: Vec::new(),
        samples: None,
        memo: HashMap::default(),
        progress,
    }
}

#[test]
fn tuples_come_in_the_order_of_python_s_permutations() {
    let cards: Vec<Card> = (0..4).map(|i| Card::from_index(i).unwrap()).collect();
    let mut seen = Vec::new();
    for_each_tuple(&cards, 2, 0, &mut Vec::new(), &mut |t| {
        seen.push((t[0].index(), t[1].index()))
    });
    let expected: Vec<(usize, usize)> = (0..4)
        .flat_map(|a| (0..4).filter(move |&b| b != a).map(move |b| (a, b)))
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn w_zero_is_the_solver_s_verdict_game_by_game() {
    let rules = rules("suits=4,ranks=3");
    let bound = upper_bound(
        rules,
        7,
        0,
        60,
        &zero(Some(8)),
        &Pool::Current,
        &Progress::default(),
    )
    .unwrap();
    for (i, value) in bound.values.iter().enumerate() {
        let pos = Position::from_deck(
            &deck_from_seed_and_stream(game_seed(7, i as u64), &rules).0,
            rules,
        );
        let won = solve(&pos, &Limits::default()).winnable.unwrap();
        assert_eq!(*value, f64::from(u8::from(won)), "game {i}");
    }
}

/// Over every order of the 8-card deck, with every expectation exact, the mean of
/// the inner maximum is at least the optimum for any W: here a table of
/// pseudo-random values.
#[test]
fn the_bound_over_every_order_is_at_least_the_optimum_for_any_w() {
    let rules = rules("suits=4,ranks=2");
    let optimum = optimal(rules, false, &Progress::default())
        .unwrap()
        .unwrap();
    let optimum = optimum.numerator as f64 / optimum.denominator as f64;
    let progress = Progress::default();
    let mut rng = Rng::new(11);
    let cells = (rules.deck_size() - 4 + 1) * (rules.deck_size() + 1) * 5;
    let table = Value::Features(
        (0..cells)
            .map(|_| rng.below(1001) as f64 / 1000.0)
            .collect(),
    );
    for value in [Value::Zero, table] {
        let mut deck = rules.deck();
        let (mut total, mut orders) = (0.0, 0u32);
        permute(&mut deck, 0, &mut |deck| {
            total += inner(rules, &value, &progress).root(deck).unwrap();
            orders += 1;
        });
        assert_eq!(orders, 40320);
        assert!(
            total / f64::from(orders) >= optimum - 1e-12,
            "{} < {optimum}",
            total / f64::from(orders)
        );
    }
}

fn permute(deck: &mut Vec<Card>, from: usize, f: &mut impl FnMut(&[Card])) {
    if from == deck.len() {
        return f(deck);
    }
    for i in from..deck.len() {
        deck.swap(from, i);
        permute(deck, from + 1, f);
        deck.swap(from, i);
    }
}

#[test]
fn a_discardable_top_is_one_the_rules_let_discard() {
    let rules = rules("standard");
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let mut deck = rules.deck();
        shuffle_slice(&mut deck, &mut rng);
        let pos = Position::from_deck(&deck, rules);
        let v = visible(&pos);
        for p in 0..4 {
            assert_eq!(
                outranked(&rules, &v.tops, p, v.tops[p].unwrap()),
                rules::can_discard(&pos, p)
            );
        }
    }
}

#[test]
fn a_cancelled_run_stops() {
    let progress = Progress::default();
    progress.cancel.store(true, Ordering::Relaxed);
    assert!(upper_bound(
        rules("standard"),
        0,
        0,
        3,
        &zero(Some(8)),
        &Pool::Current,
        &progress
    )
    .is_none());
}
