//! Random play-outs of the standard game on one thread: games/s (best of 5 runs).
use acesup::run::Pool;
use acesup::{run_games, Random, Rules};
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map_or(2_000_000, |a| a.parse().unwrap());
    let mut best = f64::INFINITY;
    let mut mean = 0.0;
    for round in 0..5 {
        let t = Instant::now();
        let stats = run_games(&Pool::Current, &Random, Rules::standard(), round, 0, games);
        let secs = t.elapsed().as_secs_f64();
        best = best.min(secs);
        mean = stats.mean_score();
    }
    println!(
        "{:.0} games/s ({:.1} ns a game), mean score {mean:.4}",
        games as f64 / best,
        best * 1e9 / games as f64
    );
}
