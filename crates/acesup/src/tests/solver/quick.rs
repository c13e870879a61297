//! `solve_quickly`.

use super::*;

/// The quick try settles an easy position with the plain search's answer, and
/// hands a search that needs more on with the limits it has left.
#[test]
fn quick_first_then_the_full_search() {
    let pos = seeded_position(0, 3, Rules::standard());
    let settled = solve_quickly(&pos, &Limits::default()).unwrap();
    assert_eq!(settled, solve(&pos, &Limits::default()));
    assert!(settled.nodes < QUICK_NODES);
    let hard = (0..)
        .map(|i| seeded_position(1, i, Rules::standard()))
        .find(|pos| solve(pos, &Limits::default()).nodes > QUICK_NODES)
        .unwrap();
    let limits = Limits {
        time: Some(Duration::from_secs(3600)),
        ..Limits::default()
    };
    let rest = solve_quickly(&hard, &limits).unwrap_err();
    assert!(rest.nodes.is_none() && rest.time.unwrap() < Duration::from_secs(3600));
    // A node limit within the quick try is the whole search.
    let capped = Limits {
        nodes: Some(QUICK_NODES),
        ..Limits::default()
    };
    assert_eq!(solve_quickly(&hard, &capped).unwrap().winnable, None);
}
