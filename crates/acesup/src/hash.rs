//! A fast hasher for the engine's own keys (positions seen by lookahead, the exact
//! optimum's memo): no adversary chooses them, and SipHash, the default, took a
//! third of lookahead's time.

use crate::rng::mix;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's multiply, 8 bytes at a step, finished by SplitMix64's mix so that the
/// low bits, which pick a bucket, depend on every byte.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// What a `HashMap` or `HashSet` takes to hash with [`KeyHasher`].
pub type BuildKeyHasher = BuildHasherDefault<KeyHasher>;
