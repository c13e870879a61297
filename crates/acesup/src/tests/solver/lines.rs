//! Winning lines, node counts and limits.

use super::*;

#[test]
fn winning_lines_replay_on_seeded_deals() {
    let mut rng = Rng::new(17);
    let family = (0..120).map(|_| random_rules(&mut rng));
    for rules in all_rules().into_iter().chain(family) {
        let mut solver = Solver::new();
        for i in 0..40 {
            let pos = seeded_position(1, i, rules);
            let s = solver.solve(
                &pos,
                &Limits {
                    nodes: Some(200_000),
                    ..Limits::default()
                },
            );
            check_line(&pos, &s);
        }
    }
}

/// The positions a solve reports are the positions it searched: under a node
/// limit of that many the same solve ends the same, under one fewer it stops.
/// Under `deal="any"` too, where a search under `"free"` comes first: kpat deals
/// won by that search (2, 4), lost (16, 39, 43) and won only by the search
/// under `"any"` (771, 829). (A win of the first search counted its positions
/// twice once.)
#[test]
fn nodes_are_the_positions_searched() {
    for n in [2, 4, 16, 39, 43, 771, 829] {
        let deck = crate::deals::deck_from_kpat(n).unwrap();
        let pos = Position::from_deck(&deck, Rules::kpat());
        let full = solve(&pos, &Limits::default());
        assert!(full.winnable.is_some(), "kpat deal {n}");
        let under = |nodes| {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            solve(&pos, &limits).winnable
        };
        assert_eq!(under(full.nodes), full.winnable, "kpat deal {n}");
        assert_eq!(under(full.nodes - 1), None, "kpat deal {n}");
    }
}

/// A limit turns a verdict into None, never into a wrong one.
#[test]
fn limits_never_give_a_wrong_verdict() {
    for pos in late_positions(200, 21) {
        let full = solve(&pos, &Limits::default());
        for n in [1, 3, 10, 40] {
            let s = solve(
                &pos,
                &Limits {
                    nodes: Some(n),
                    ..Limits::default()
                },
            );
            assert!(s.nodes <= n);
            assert!(s.winnable.is_none() || s.winnable == full.winnable);
            check_line(&pos, &s);
        }
        let cancel = Arc::new(AtomicBool::new(true));
        let s = solve(
            &pos,
            &Limits {
                cancel: Some(cancel),
                ..Limits::default()
            },
        );
        assert!(s.winnable.is_none() || s.winnable == full.winnable);
    }
}
