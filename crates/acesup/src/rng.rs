//! The seeded generator of docs/RNG.md: SplitMix64, Lemire's bounded draws, the
//! Fisher-Yates shuffle and the per-game seeds of a batch run. All arithmetic wraps
//! modulo 2⁶⁴, exactly as the reference engine's.

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64: the state is one 64-bit integer, the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The current state (the seed before any draw).
    pub const fn state(&self) -> u64 {
        self.state
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix(self.state)
    }

    /// Skip `k` draws: what `k` calls of `next_u64()`, or of `below(1)`, do to the
    /// state.
    #[inline]
    pub fn skip(&mut self, k: u64) {
        self.state = self.state.wrapping_add(k.wrapping_mul(GOLDEN));
    }

    /// A uniform integer in [0, n) by Lemire's method with rejection (RNG.md).
    /// `n` must be at least 1: callers check it (`below(0)` is an error in the API).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n >= 1, "below(0)");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
}

/// The multipliers of [`mix`].
const MIX_1: u64 = 0xBF58_476D_1CE4_E5B9;
const MIX_2: u64 = 0x94D0_49BB_1331_11EB;

/// The output function of SplitMix64: the last three lines of `next_u64()`.
#[inline]
pub(crate) const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(MIX_1);
    z = (z ^ (z >> 27)).wrapping_mul(MIX_2);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run with master seed `seed`: the (index+1)-th
/// output of `Rng(seed)`, in constant time.
#[inline]
pub const fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GOLDEN)))
}

/// Shuffle `items` in place: Fisher-Yates from the last index down, `j =
/// below(i + 1)` for i from `len - 1` to 1 (RNG.md), as the deck is shuffled and as
/// montecarlo guesses the order of a stock.
#[inline]
pub fn shuffle_slice<T>(items: &mut [T], rng: &mut Rng) {
    shuffle_by::<true>(items.len(), rng, |i, j| items.swap(i, j));
}

/// [`shuffle_slice`] of the first `len` (at most 64) places of `deck`: the same
/// draws and swaps, the indices masked rather than checked (the random play-outs
/// shuffle a deck per game).
#[inline]
pub(crate) fn shuffle_places(deck: &mut [u8; 64], len: usize, rng: &mut Rng) {
    shuffle_by::<true>(len, rng, |i, j| deck.swap(i & 63, j & 63));
}

/// The swaps of the shuffle of `len` places, `swap(i, j)` for i from `len - 1`
/// down to 1 with `j = below(i + 1)`. With `WIDE`, where the CPU has AVX-512 and
/// `len` is at most 64, the draws are made first, eight at a time
/// ([`wide::draws`]), and only the swaps one by one; the plain loop (`WIDE` false)
/// makes the same draws one at a time, and a test checks the two against each other.
#[inline(always)]
fn shuffle_by<const WIDE: bool>(len: usize, rng: &mut Rng, mut swap: impl FnMut(usize, usize)) {
    #[cfg(target_arch = "x86_64")]
    if WIDE && len <= 64 && wide::available() {
        let mut draws = [0; 64];
        // SAFETY: `available` has checked that the CPU has what `draws` is compiled for.
        if unsafe { wide::draws(*rng, len, &mut draws) } {
            let count = len.saturating_sub(1);
            for (k, &j) in draws[..count].iter().enumerate() {
                swap(len - 1 - k, usize::from(j));
            }
            rng.skip(count as u64);
            return;
        }
    }
    for i in (1..len).rev() {
        swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// A shuffle's draws made eight at a time with AVX-512. SplitMix64's k-th output
/// is `mix(state + k·GOLDEN)`, so the draws do not wait for each other.
#[cfg(target_arch = "x86_64")]
mod wide {
    use super::{Rng, GOLDEN, MIX_1, MIX_2};
    use std::arch::x86_64::*;

    /// Whether this CPU has AVX-512 F and DQ (the 64-bit products of [`draws`]).
    /// The standard library checks once and keeps the answer.
    #[inline]
    pub fn available() -> bool {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq")
    }

    /// The places `j` that the shuffle of `len` places (at most 64) draws from
    /// `rng`, in draw order: draw k is `below(len - k)`, into `out[k]`. False, with
    /// `out` of no use, when a draw would need Lemire's second test (a product's low
    /// half under its bound: about once in 10¹⁶ shuffles); the plain shuffle then
    /// makes the draws, rejections and all.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and DQ ([`available`]).
    #[target_feature(enable = "avx512f,avx512dq")]
    pub unsafe fn draws(rng: Rng, len: usize, out: &mut [u8; 64]) -> bool {
        let count = len.saturating_sub(1);
        let lanes = |f: fn(u64) -> u64| {
            let values: [u64; 8] = std::array::from_fn(|l| f(l as u64));
            _mm512_loadu_si512(values.as_ptr().cast())
        };
        // Lane l of round r is draw k = 8r + l: the state after k + 1 steps, and the
        // bound len - k.
        let mut state = _mm512_add_epi64(
            _mm512_set1_epi64(rng.state() as i64),
            lanes(|l| (l + 1).wrapping_mul(GOLDEN)),
        );
        let mut bound = _mm512_sub_epi64(_mm512_set1_epi64(len as i64), lanes(|l| l));
        for round in 0..count.div_ceil(8) {
            let z = mix(state);
            // The product z·n, for n < 2³²: its low half, and its high half (the
            // draw) from the products of z's two 32-bit halves.
            let low = _mm512_mullo_epi64(z, bound);
            let carry = _mm512_srli_epi64(_mm512_mul_epu32(z, bound), 32);
            let high = _mm512_mul_epu32(_mm512_srli_epi64(z, 32), bound);
            let draw = _mm512_srli_epi64(_mm512_add_epi64(high, carry), 32);
            // The lanes of the round's draws (the last round's may be fewer than 8).
            let used: __mmask8 = u8::MAX >> (8 - (count - 8 * round).min(8));
            if _mm512_mask_cmplt_epu64_mask(used, low, bound) != 0 {
                return false;
            }
            _mm_storel_epi64(
                out.as_mut_ptr().add(8 * round).cast(),
                _mm512_cvtepi64_epi8(draw),
            );
            state = _mm512_add_epi64(state, _mm512_set1_epi64(GOLDEN.wrapping_mul(8) as i64));
            bound = _mm512_sub_epi64(bound, _mm512_set1_epi64(8));
        }
        true
    }

    /// [`super::mix`] of eight states.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn mix(mut z: __m512i) -> __m512i {
        z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 30));
        z = _mm512_mullo_epi64(z, _mm512_set1_epi64(MIX_1 as i64));
        z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 27));
        z = _mm512_mullo_epi64(z, _mm512_set1_epi64(MIX_2 as i64));
        _mm512_xor_si512(z, _mm512_srli_epi64(z, 31))
    }
}

#[cfg(test)]
#[path = "tests/rng.rs"]
pub(crate) mod tests;
