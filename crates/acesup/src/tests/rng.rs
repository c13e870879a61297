//! The tests of `rng.rs`: the module `rng::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

#[path = "rng_json.rs"]
pub(crate) mod json;

#[test]
fn documented_vectors() {
    let mut rng = Rng::new(0);
    let outputs: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
    assert_eq!(
        outputs,
        [
            0xe220a8397b1dcdaf,
            0x6e789e6aa1b965f4,
            0x06c45d188009454f,
            0xf88bb8a8724c81ec
        ]
    );
}

#[test]
fn game_seed_is_the_nth_output() {
    for seed in [0, 1, 42, u64::MAX] {
        let mut rng = Rng::new(seed);
        for index in 0..20 {
            assert_eq!(game_seed(seed, index), rng.next_u64());
        }
    }
}

#[test]
fn below_is_in_range_and_unbiased_at_the_edges() {
    let mut rng = Rng::new(7);
    for n in [1, 2, 3, 52, u64::MAX, 1 << 63, (1 << 63) + 1] {
        for _ in 0..100 {
            assert!(rng.below(n) < n);
        }
    }
    // n = 2**63 + 1 rejects almost half the draws: more draws than calls.
    let mut rng = Rng::new(0);
    let mut draws = 0;
    for _ in 0..100 {
        let mut probe = rng;
        rng.below((1 << 63) + 1);
        while probe != rng {
            probe.next_u64();
            draws += 1;
        }
    }
    assert!(draws > 120, "{draws}");
}

/// The shuffle of places is the shuffle of a slice.
#[test]
fn places_shuffle_like_a_slice() {
    for (seed, len) in [(0, 52), (1, 52), (2, 12), (3, 64), (4, 1), (5, 0)] {
        let mut places: [u8; 64] = std::array::from_fn(|i| i as u8);
        let mut slice = places;
        let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
        shuffle_places(&mut places, len, &mut a);
        shuffle_slice(&mut slice[..len], &mut b);
        assert_eq!((places, a), (slice, b), "seed {seed}, {len} places");
    }
}

/// The state whose next output is `z`: [`mix`] undone, step by step.
fn state_before(mut z: u64) -> u64 {
    let undo_shift = |y: u64, s: u32| (0..64 / s).fold(y, |x, _| y ^ (x >> s));
    // The inverse of an odd multiplier modulo 2⁶⁴, by Newton's iteration.
    let inverse = |a: u64| {
        (0..6).fold(a, |x, _| {
            x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)))
        })
    };
    z = undo_shift(z, 31).wrapping_mul(inverse(MIX_2));
    z = undo_shift(z, 27).wrapping_mul(inverse(MIX_1));
    undo_shift(z, 30).wrapping_sub(GOLDEN)
}

/// The shuffle with its draws made eight at a time (where the CPU has AVX-512)
/// is the plain loop's: the same places and the same state after, for every
/// length up to 64, and for two kinds of states made for it:
/// - the states whose k-th draw is rejected by Lemire's second test (draw k is
///   0, whose product with any bound has a low half of 0), so that the plain
///   loop redraws and every later draw moves on by one;
/// - the states whose first draw z, times 52, carries from the product of z's
///   low 32 bits into the high half (z's high half times 52 just under a
///   multiple of 2³², its low half all ones).
#[test]
fn wide_draws_shuffle_as_the_plain_loop() {
    assert_eq!(mix(state_before(12345).wrapping_add(GOLDEN)), 12345);
    let rejected_at = |k: u64| 0u64.wrapping_sub((k + 1).wrapping_mul(GOLDEN));
    let rejected = (0..64).map(rejected_at);
    let carried = (1..52u64).map(|t| state_before(((t << 32) / 52) << 32 | 0xFFFF_FFFF));
    let seeds: Vec<u64> = (0..3_000)
        .map(|i| game_seed(17, i))
        .chain(rejected)
        .chain(carried)
        .collect();
    for &seed in &seeds {
        for len in 0..=64 {
            let mut wide: [u8; 64] = std::array::from_fn(|i| i as u8);
            let mut plain = wide;
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            shuffle_by::<true>(len, &mut a, |i, j| wide.swap(i, j));
            shuffle_by::<false>(len, &mut b, |i, j| plain.swap(i, j));
            assert_eq!((wide, a), (plain, b), "seed {seed:#x}, {len} places");
        }
    }
    #[cfg(target_arch = "x86_64")]
    if wide::available() {
        let mut draws = [0; 64];
        // SAFETY: the CPU has AVX-512 F and DQ.
        let made =
            |seed: u64, draws: &mut [u8; 64]| unsafe { wide::draws(Rng::new(seed), 52, draws) };
        assert!(
            made(seeds[0], &mut draws),
            "an ordinary state needs no redraw"
        );
        for k in 0..64 {
            // Only the 51 draws of a 52-card shuffle are made.
            assert_eq!(made(rejected_at(k), &mut draws), k >= 51, "draw {k}");
        }
    } else {
        eprintln!("no AVX-512 here: only the plain loop was tested");
    }
}

/// The generator's vectors of `tests/data/rng_vectors.json` (read by [`json`]).
mod json_vectors {
    use super::json::vectors;
    use super::*;

    #[test]
    fn next_u64() {
        let v = vectors();
        for case in v.get("next_u64").list() {
            let mut rng = Rng::new(case.get("seed").num());
            let outputs: Vec<u64> = case
                .get("outputs")
                .list()
                .iter()
                .map(|_| rng.next_u64())
                .collect();
            assert_eq!(outputs, case.get("outputs").nums());
        }
    }

    #[test]
    fn below() {
        let v = vectors();
        for case in v.get("below").list() {
            let seed = case.get("seed").num();
            let mut rng = Rng::new(seed);
            let n = case.get("n").num();
            let outputs: Vec<u64> = case
                .get("outputs")
                .list()
                .iter()
                .map(|_| rng.below(n))
                .collect();
            assert_eq!(outputs, case.get("outputs").nums(), "seed {seed} n {n}");
            assert_eq!(rng.state(), case.get("state_after").num());
            let draws = case.get("draws").num();
            assert_eq!(rng.state(), seed.wrapping_add(draws.wrapping_mul(GOLDEN)));
        }
    }

    #[test]
    fn game_seeds() {
        let v = vectors();
        for case in v.get("game_seed").list() {
            let (seed, index) = (case.get("seed").num(), case.get("index").num());
            assert_eq!(
                game_seed(seed, index),
                case.get("value").num(),
                "seed {seed} index {index}"
            );
        }
    }
}
