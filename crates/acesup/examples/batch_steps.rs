//! Times `Batch::step` alone: 65,536 slots, the highest legal action, on all cores.
use acesup::{Batch, Rules};
use std::time::Instant;

fn main() {
    let n = 65_536;
    let mut batch = Batch::new(n, Rules::standard(), 6, 0, 1 << 64, true, false).unwrap();
    let a = batch.spaces().num_actions();
    let steps = 100;
    let mut actions = vec![0u8; n];
    let began = Instant::now();
    let mut in_step = 0.0;
    for _ in 0..steps {
        let mask = batch.action_mask();
        for (i, action) in actions.iter_mut().enumerate() {
            *action = mask[i * a..(i + 1) * a]
                .iter()
                .rposition(|&b| b == 1)
                .unwrap_or(0) as u8;
        }
        let t = Instant::now();
        batch.step(&actions).unwrap();
        in_step += t.elapsed().as_secs_f64();
    }
    let total = began.elapsed().as_secs_f64();
    println!(
        "{:.2} M decisions/s in step ({:.2} ms a step), {:.2} s in all, {} games finished",
        (n * steps) as f64 / in_step / 1e6,
        in_step / steps as f64 * 1e3,
        total,
        batch.finished()
    );
}
