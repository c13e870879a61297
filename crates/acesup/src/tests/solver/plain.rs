//! The solver against the plain search, across the family of rules.

use super::*;

#[test]
fn agrees_with_the_plain_search() {
    let mut checked = 0;
    for pos in late_positions(1200, 5) {
        let Some(expected) = plain_search(&pos, Some(300_000)) else {
            continue;
        };
        let s = solve(&pos, &Limits::default());
        assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
        check_line(&pos, &s);
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

/// Every layout and option of the family, from the start of small decks to the
/// last deals of large ones: the same verdicts as the plain search, and lines
/// that replay through `Position::play`.
#[test]
fn agrees_with_the_plain_search_across_the_family() {
    let mut all = family_positions(2000, 31, 10);
    all.extend(family_positions(1000, 33, 20));
    // deal="any" (S10) with several deals to go.
    all.extend(family_positions_of(1000, 34, 24, |rules| Rules {
        deal: DealRule::Any,
        relocate_single: false,
        ..rules
    }));
    all.extend(family_tall_positions(600, 32));
    let checked = check_against_the_plain_search(all);
    let won = checked.iter().filter(|(_, won)| *won).count();
    let lost = checked.len() - won;
    let seen: HashSet<_> = checked
        .iter()
        .map(|(r, _)| (r.piles, r.deal, r.deal_to, r.fill))
        .collect();
    println!("{won} won, {lost} lost");
    assert!(won > 1000 && lost > 500, "{won} won, {lost} lost");
    // Every pile count, deal rule, deal_to and fill.
    assert_eq!(seen.len(), 2 * 3 * 2 * 3, "{seen:?}");
}

/// kpat's and PySolFC's rules (`deal="any"`, `relocate_single`, `fill="top"`)
/// on random layouts of the family, several deals from the end, and on the
/// standard deck's last deals: S10's holds of lone cards, S11 and S13 against
/// the plain search.
#[test]
fn agrees_with_the_plain_search_under_kpat_rules() {
    let mut all = family_positions_of(1500, 35, 16, kpat_options);
    all.extend(family_positions_of(600, 36, 8, |rules| Rules {
        piles: rules.piles,
        deal_to: rules.deal_to,
        ..Rules::kpat()
    }));
    let checked = check_against_the_plain_search(all);
    let won = checked.iter().filter(|(_, won)| *won).count();
    let lost = checked.len() - won;
    println!("{won} won, {lost} lost");
    assert!(won > 300 && lost > 300, "{won} won, {lost} lost");
}

/// Positions the search once called lost though the plain search wins them, each
/// where a proof had a gap (SOLVER.md: S11, S15 and the withdrawn S9), shared with
/// the Python suite: one a line, a name and the position's text.
const ONCE_WRONG: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/solver_once_wrong.txt"
));

#[test]
fn agrees_with_the_plain_search_on_sparse_endgames() {
    let mut all: Vec<Position> = ONCE_WRONG
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (_, text) = line.split_once(' ').expect("a name and a position");
            Position::parse(text).expect("a position")
        })
        .collect();
    assert_eq!(all.len(), 4);
    all.extend(sparse_positions(20_000, 38, |rng| Rules {
        fill: [FillRule::Top, FillRule::Ace, FillRule::Any][rng.below(3) as usize],
        deal: [DealRule::Free, DealRule::Stuck, DealRule::Any][rng.below(3) as usize],
        relocate_single: rng.below(2) == 1,
        deal_to: [DealTo::All, DealTo::Empty][rng.below(2) as usize],
        ..Rules::standard()
    }));
    all.extend(sparse_positions(20_000, 39, random_rules));
    let checked = check_against_the_plain_search(all);
    let won = checked.iter().filter(|(_, won)| *won).count();
    let lost = checked.len() - won;
    println!("{won} won, {lost} lost");
    assert!(won > 5000 && lost > 5000, "{won} won, {lost} lost");
}

#[test]
fn agrees_with_the_plain_search_on_tall_piles() {
    let mut checked = 0;
    for pos in tall_positions(600, 9) {
        let Some(expected) = plain_search(&pos, Some(100_000)) else {
            continue;
        };
        let s = solve(&pos, &Limits::default());
        assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
        check_line(&pos, &s);
        checked += 1;
    }
    assert!(checked > 400, "{checked}");
}
