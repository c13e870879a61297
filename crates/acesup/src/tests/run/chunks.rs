//! The tests of `run/chunks.rs`: the module `run::chunks::tests`, in `src/tests/` with
//! the tests of the other modules.

use super::*;

/// Adaptive chunks cover a run once, in order, growing while chunks are quick
/// and shrinking when they are slow, within their bounds.
#[test]
fn adaptive_chunks_cover_the_run_and_adapt() {
    let mut chunks = AdaptiveChunks::new(u64::MAX - 2, 1000);
    let mut covered = Vec::new();
    let mut sizes = Vec::new();
    while let Some((first, count)) = chunks.next_chunk() {
        covered.extend((0..count).map(|i| first.wrapping_add(i)));
        sizes.push(count);
        let slow = sizes.len() == 5;
        chunks.took(if slow { CHUNK_TIME * 3 } else { Duration::ZERO });
    }
    let expected: Vec<u64> = (0..1000u64)
        .map(|i| (u64::MAX - 2).wrapping_add(i))
        .collect();
    assert_eq!(covered, expected);
    assert_eq!(sizes[..7], [1, 2, 4, 8, 16, 8, 16]);
    let mut big = AdaptiveChunks::new(0, u128::from(u64::MAX) + 1);
    for _ in 0..40 {
        big.next_chunk();
        big.took(Duration::ZERO);
    }
    assert_eq!(big.next_chunk().unwrap().1, CHUNK_PER_THREAD);
}
