//! The solver's benchmarks, on one core, through the crate's public API:
//! `cargo bench -p acesup --bench solver [-- NAME...]`, NAME one of
//! `deals_per_second`, `kpat_deals` and `against_the_plain_search` (all three when
//! none is named). Each prints its figures; the settings come from the
//! environment:
//! - `ACESUP_BENCH_RULES`: rules texts separated by `;` (`deals_per_second`:
//!   `easy`; `against_the_plain_search`: `standard;deal=stuck;relocate_single=true`,
//!   the three of issue 13);
//! - `ACESUP_BENCH_GAMES`: the number of seeded deals of seed 0 (200 and 1000);
//! - `ACESUP_BENCH_KPAT`: kpat's deals `LO-HI` (default `1-300`) and
//!   `ACESUP_BENCH_NODES`: the node limit of each (default: none), for `kpat_deals`,
//!   whose figures are those SOLVER.md gives for kpat's deals.

use acesup::solver::{plain_search, solvability, Limits, Solver};
use acesup::{deck_from_kpat, deck_from_seed, game_seed, Position, Rules};
use std::time::Instant;

/// The benches, by name.
const BENCHES: [(&str, fn()); 3] = [
    ("deals_per_second", deals_per_second),
    ("kpat_deals", kpat_deals),
    ("against_the_plain_search", against_the_plain_search),
];

fn main() {
    // `cargo bench` passes `--bench` (and the harness's other flags) along.
    let names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for name in &names {
        assert!(
            BENCHES.iter().any(|(known, _)| known == name),
            "no bench {name}: one of deals_per_second, kpat_deals, against_the_plain_search"
        );
    }
    for (name, bench) in BENCHES {
        if names.is_empty() || names.iter().any(|n| n == name) {
            bench();
        }
    }
}

/// The rules texts (`ACESUP_BENCH_RULES`, separated by `;`) and the number of
/// deals (`ACESUP_BENCH_GAMES`) of a bench, or these defaults.
fn bench_settings(rules: &str, games: u64) -> (String, u64) {
    let texts = std::env::var("ACESUP_BENCH_RULES").unwrap_or_else(|_| rules.into());
    let games = std::env::var("ACESUP_BENCH_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(games);
    (texts, games)
}

/// Deals solved per second, on one core, for the rule sets of
/// `ACESUP_BENCH_RULES` (default `easy`).
fn deals_per_second() {
    let (texts, games) = bench_settings("easy", 200);
    for text in texts.split(';') {
        let rules = Rules::parse(text).unwrap();
        let start = Instant::now();
        let s = solvability(1, rules, 0, 0, games, &Limits::default())
            .unwrap()
            .unwrap();
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{text:24} {:10.0} deals/s  {}",
            games as f64 / secs,
            s.repr()
        );
    }
}

/// kpat's deals `ACESUP_BENCH_KPAT` under `Rules.kpat()`, one core, each stopped at
/// `ACESUP_BENCH_NODES` positions: the verdicts, the positions and the deals a
/// second.
fn kpat_deals() {
    let range = std::env::var("ACESUP_BENCH_KPAT").unwrap_or_else(|_| "1-300".into());
    let (lo, hi) = range.split_once('-').expect("ACESUP_BENCH_KPAT is LO-HI");
    let (lo, hi): (i128, i128) = (lo.parse().unwrap(), hi.parse().unwrap());
    let limits = Limits {
        nodes: std::env::var("ACESUP_BENCH_NODES")
            .ok()
            .map(|n| n.parse().unwrap()),
        ..Limits::default()
    };
    let mut solver = Solver::new();
    let (mut counts, mut nodes) = ([0u64; 3], 0);
    let start = Instant::now();
    for n in lo..=hi {
        let deck = deck_from_kpat(n).unwrap();
        let found = solver.solve(&Position::from_deck(&deck, Rules::kpat()), &limits);
        counts[match found.winnable {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        }] += 1;
        nodes += found.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    let [won, lost, open] = counts;
    println!(
        "kpat {range}: {won} won, {lost} lost, {open} open, {nodes} positions, \
         {secs:.2} s, {:.1} deals/s",
        (hi - lo + 1) as f64 / secs
    );
}

/// The solver's deals per second over the plain search's (every legal move, a hash
/// set of the positions seen, no other pruning), on one core, on the same deals
/// with the same verdicts (checked), for the rule sets of `ACESUP_BENCH_RULES`.
fn against_the_plain_search() {
    let (texts, games) = bench_settings("standard;deal=stuck;relocate_single=true", 1000);
    for text in texts.split(';') {
        let rules = Rules::parse(text).unwrap();
        let deals: Vec<Position> = (0..games)
            .map(|i| Position::from_deck(&deck_from_seed(game_seed(0, i), &rules), rules))
            .collect();
        let mut solver = Solver::new();
        let start = Instant::now();
        let fast: Vec<Option<bool>> = deals
            .iter()
            .map(|pos| solver.solve(pos, &Limits::default()).winnable)
            .collect();
        let fast_secs = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let plain: Vec<Option<bool>> = deals.iter().map(|pos| plain_search(pos, None)).collect();
        let plain_secs = start.elapsed().as_secs_f64();
        assert_eq!(fast, plain, "{text}");
        println!(
            "{text:24} solver {:9.0} deals/s, plain {:8.0} deals/s, ratio {:5.1}",
            games as f64 / fast_secs,
            games as f64 / plain_secs,
            plain_secs / fast_secs
        );
    }
}
