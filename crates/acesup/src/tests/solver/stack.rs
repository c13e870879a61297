//! The search under `fill="stack"` (SOLVER.md, *`fill="stack"`*) against the plain
//! search.

use super::*;

/// Rules of the family with several cards moving together.
fn stacks(rules: Rules) -> Rules {
    Rules {
        fill: FillRule::Stack,
        ..rules
    }
}

#[test]
fn stack_search_agrees_with_the_plain_search_on_family_positions() {
    let checked = check_verdicts(family_positions_of(300, 61, 12, stacks), false);
    assert!(checked.len() > 150, "{} settled", checked.len());
    assert!(checked.iter().any(|&(_, won)| won) && checked.iter().any(|&(_, won)| !won));
}

#[test]
fn stack_search_agrees_with_the_plain_search_on_small_decks() {
    let mut rng = Rng::new(67);
    let positions: Vec<Position> = (0..400)
        .map(|_| {
            let rules = loop {
                let rules = Rules {
                    suits: 1 + rng.below(4) as u8,
                    ranks: 2 + rng.below(4) as u8,
                    ..stacks(random_rules(&mut rng))
                };
                if rules.validate().is_ok() {
                    break rules;
                }
            };
            let mut deck = rules.deck();
            shuffle_slice(&mut deck, &mut rng);
            Position::from_deck(&deck, rules)
        })
        .collect();
    let checked = check_verdicts(positions, false);
    assert_eq!(checked.len(), 400);
}

#[test]
fn stack_search_limits_never_give_a_wrong_verdict() {
    for pos in family_positions_of(40, 71, 8, stacks) {
        let full = solve(&pos, &Limits::default());
        for n in [1, 3, 30] {
            let limited = solve(
                &pos,
                &Limits {
                    nodes: Some(n),
                    ..Limits::default()
                },
            );
            assert!(limited.nodes <= n);
            assert!(limited.winnable.is_none() || limited.winnable == full.winnable);
        }
    }
}
