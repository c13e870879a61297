//! The seeded generator of docs/RNG.md: SplitMix64, Lemire's bounded draws, the
//! Fisher-Yates shuffle and the per-game seeds of a batch run. All arithmetic wraps
//! modulo 2⁶⁴, exactly as the reference engine's.

use crate::cards::Card;
use crate::rules::Rules;

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

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
pub const fn mix(mut z: u64) -> u64 {
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
pub fn shuffle_places(deck: &mut [u8; 64], len: usize, rng: &mut Rng) {
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

/// The deck of `Game.from_seed(seed, rules)`: the layout's deck (R1.4) in index
/// order, shuffled by [`shuffle_slice`] (D − 1 draws; the standard deck's shuffle
/// is the one it always was).
pub fn deck_from_seed(seed: u64, rules: &Rules) -> Vec<Card> {
    deck_from_seed_and_stream(seed, rules).0
}

/// The deck of `Game.from_seed(seed, rules)` and its strategy stream: `Rng(seed)`
/// just after the shuffle.
pub fn deck_from_seed_and_stream(seed: u64, rules: &Rules) -> (Vec<Card>, Rng) {
    let mut rng = Rng::new(seed);
    let mut deck = rules.deck();
    shuffle_slice(&mut deck, &mut rng);
    (deck, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// `Rules(suits=4, ranks=3)`, the example of RNG.md.
    fn small_layout() -> Rules {
        Rules {
            ranks: 3,
            ..Rules::standard()
        }
    }

    /// RNG.md: a layout's deck is shuffled from its cards in index order, D − 1 draws.
    #[test]
    fn a_layout_deck_is_shuffled_like_the_standard_one() {
        let rules = small_layout();
        let deck: Vec<String> = rules.deck().iter().map(Card::to_string).collect();
        assert_eq!(deck.join(" "), "Qc Kc Ac Qd Kd Ad Qh Kh Ah Qs Ks As");
        let (shuffled, rng) = deck_from_seed_and_stream(9, &rules);
        let mut expected = rules.deck();
        let mut draws = Rng::new(9);
        for i in (1..expected.len()).rev() {
            let j = draws.below(i as u64 + 1) as usize;
            expected.swap(i, j);
        }
        assert_eq!((shuffled, rng), (expected, draws));
        assert_eq!(rng.state(), 9u64.wrapping_add(11u64.wrapping_mul(GOLDEN)));
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

    #[test]
    fn shuffle_is_a_permutation() {
        for seed in 0..100 {
            for rules in [Rules::standard(), Rules::reverse(), small_layout()] {
                let mut sorted = deck_from_seed(seed, &rules);
                sorted.sort();
                assert_eq!(sorted, rules.deck());
            }
        }
    }

    /// The vectors of `tests/data/rng_vectors.json`, written from an independent
    /// implementation, read with a minimal JSON scanner (the file holds only
    /// objects, arrays, strings and unsigned integers).
    mod json_vectors {
        use super::*;
        use std::collections::BTreeMap;

        /// The repository's shared vectors: two levels above this crate.
        const PATH: &str = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/rng_vectors.json"
        );
        /// Compiled in, so that a moved or missing file is a build error, not a silent pass.
        const TEXT: &str = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/rng_vectors.json"
        ));

        #[derive(Debug, Clone)]
        enum Json {
            Num(u64),
            Str(String),
            List(Vec<Json>),
            Obj(BTreeMap<String, Json>),
        }

        impl Json {
            fn num(&self) -> u64 {
                match self {
                    Json::Num(n) => *n,
                    other => panic!("not a number: {other:?}"),
                }
            }
            fn nums(&self) -> Vec<u64> {
                self.list().iter().map(Json::num).collect()
            }
            fn str(&self) -> &str {
                match self {
                    Json::Str(s) => s,
                    other => panic!("not a string: {other:?}"),
                }
            }
            fn list(&self) -> &[Json] {
                match self {
                    Json::List(items) => items,
                    other => panic!("not a list: {other:?}"),
                }
            }
            fn get(&self, key: &str) -> &Json {
                match self {
                    Json::Obj(map) => &map[key],
                    other => panic!("not an object: {other:?}"),
                }
            }
        }

        fn parse(text: &str) -> Json {
            let bytes = text.as_bytes();
            let mut pos = 0;
            let value = parse_value(bytes, &mut pos);
            skip_space(bytes, &mut pos);
            assert_eq!(pos, bytes.len(), "trailing text in {PATH}");
            value
        }

        fn skip_space(b: &[u8], pos: &mut usize) {
            while *pos < b.len() && b[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
        }

        fn parse_value(b: &[u8], pos: &mut usize) -> Json {
            skip_space(b, pos);
            match b[*pos] {
                b'{' => {
                    *pos += 1;
                    let mut map = BTreeMap::new();
                    loop {
                        skip_space(b, pos);
                        if b[*pos] == b'}' {
                            *pos += 1;
                            return Json::Obj(map);
                        }
                        let Json::Str(key) = parse_value(b, pos) else {
                            panic!("object key")
                        };
                        skip_space(b, pos);
                        assert_eq!(b[*pos], b':');
                        *pos += 1;
                        map.insert(key, parse_value(b, pos));
                        skip_space(b, pos);
                        if b[*pos] == b',' {
                            *pos += 1;
                        }
                    }
                }
                b'[' => {
                    *pos += 1;
                    let mut items = Vec::new();
                    loop {
                        skip_space(b, pos);
                        if b[*pos] == b']' {
                            *pos += 1;
                            return Json::List(items);
                        }
                        items.push(parse_value(b, pos));
                        skip_space(b, pos);
                        if b[*pos] == b',' {
                            *pos += 1;
                        }
                    }
                }
                b'"' => {
                    let start = *pos + 1;
                    let mut end = start;
                    while b[end] != b'"' {
                        end += if b[end] == b'\\' { 2 } else { 1 };
                    }
                    *pos = end + 1;
                    Json::Str(String::from_utf8(b[start..end].to_vec()).unwrap())
                }
                c if c.is_ascii_digit() => {
                    let start = *pos;
                    while *pos < b.len() && b[*pos].is_ascii_digit() {
                        *pos += 1;
                    }
                    Json::Num(
                        std::str::from_utf8(&b[start..*pos])
                            .unwrap()
                            .parse()
                            .unwrap(),
                    )
                }
                c => panic!("unexpected {:?} at {pos} in {PATH}", c as char),
            }
        }

        /// The parsed file.
        fn vectors() -> Json {
            parse(TEXT)
        }

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

        #[test]
        fn decks() {
            let v = vectors();
            for case in v.get("deck_from_seed").list() {
                let deck: Vec<String> = deck_from_seed(case.get("seed").num(), &Rules::standard())
                    .iter()
                    .map(Card::to_string)
                    .collect();
                assert_eq!(deck.join(" "), case.get("deck").str());
            }
        }

        #[test]
        fn strategy_stream() {
            let v = vectors();
            for case in v.get("strategy_stream").list() {
                let (_, mut rng) =
                    deck_from_seed_and_stream(case.get("seed").num(), &Rules::standard());
                let outputs: Vec<u64> = case
                    .get("n")
                    .nums()
                    .into_iter()
                    .map(|n| rng.below(n))
                    .collect();
                assert_eq!(outputs, case.get("outputs").nums());
                assert_eq!(rng.state(), case.get("state_after").num());
            }
        }
    }
}
