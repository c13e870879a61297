//! Every deck a game is dealt from: the seeded decks of docs/RNG.md (a layout's
//! deck shuffled by [`Rng`]), one at a time or game by game into a position
//! without allocating, and the numbered deals of KDE's kpat and of PySolFC
//! (docs/RULES.md R8); the same as `acesup.reference.deals`.
//!
//! Both programs put their shuffled list into the talon in list order and deal
//! from its end, so acesup's deck (R1.3, pile 0 first) is the shuffled list
//! reversed. kpat, and PySolFC's game numbers 1-31999, shuffle with the Microsoft
//! FreeCell generator; PySolFC's numbers from 32000 up seed CPython's
//! `random.Random`, which `Mt19937` reproduces exactly.

use crate::cards::{Card, DECK_SIZE};
use crate::position::Position;
use crate::rng::{game_seed, shuffle_slice, Rng};
use crate::rules::Rules;
use crate::{Error, ErrorKind, Result};
use std::fmt;

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

/// Deal game `index` of master seed `seed` into `pos` (`Game.from_seed(game_seed(seed,
/// index))`, keeping the rules), from `deck`, the layout's deck in index order padded
/// to [`DECK_SIZE`] ([`padded_deck`]); returns the game's strategy stream. The
/// shuffle of [`deck_from_seed_and_stream`], allocating nothing.
#[inline]
pub(crate) fn deal_seeded(
    pos: &mut Position,
    deck: &[Card; DECK_SIZE],
    seed: u64,
    index: u64,
) -> Rng {
    let mut rng = Rng::new(game_seed(seed, index));
    let mut deck = *deck;
    let size = pos.rules().deck_size();
    if size == DECK_SIZE {
        shuffle_slice(&mut deck, &mut rng);
        pos.deal_from(&deck);
    } else {
        let deck = &mut deck[..size];
        shuffle_slice(deck, &mut rng);
        pos.deal_from(deck);
    }
    rng
}

/// The layout's deck of `rules` in index order, padded to [`DECK_SIZE`] cards (what
/// [`deal_seeded`] shuffles).
pub(crate) fn padded_deck(rules: &Rules) -> [Card; DECK_SIZE] {
    let mut deck = [Card::default(); DECK_SIZE];
    let layout = rules.deck();
    deck[..layout.len()].copy_from_slice(&layout);
    deck
}

/// The highest kpat deal number: kpat clamps a number into 1..=INT_MAX (src/dealer.cpp, `startNew`).
pub const KPAT_MAX: i128 = i32::MAX as i128;
/// PySolFC's numbers below this use the Microsoft generator (pysollib/pysolrandom.py).
const PYSOL_MS_END: i128 = 32000;
/// The highest PySolFC game number: its `MTRandom.MAX_SEED`, the largest number it
/// deals or counts up to.
pub const PYSOL_MAX: i128 = 100_000_000_000_000_000_000;

/// The acesup suit number (R1.1: c d h s) of a suit letter of the two programs.
const fn suit_number(letter: u8) -> u8 {
    match letter {
        b'C' => 0,
        b'D' => 1,
        b'H' => 2,
        _ => 3, // b'S'
    }
}

/// The card of a suit letter and a rank counted 1 (ace) to 13 (king), as both programs count.
const fn card(suit_letter: u8, rank: u8) -> Card {
    let offset = if rank == 1 { 12 } else { rank - 2 };
    Card::new(13 * suit_number(suit_letter) + offset)
}

/// The 52 cards in a program's order before its shuffle: rank by rank (each rank in
/// the order of `suits`) when `rank_major`, else suit by suit, each ace to king.
const fn ordered(rank_major: bool, suits: &[u8; 4]) -> [Card; DECK_SIZE] {
    let mut cards = [Card::NONE; DECK_SIZE];
    let mut i = 0;
    while i < DECK_SIZE {
        let (suit, rank) = if rank_major {
            (i % 4, i / 4)
        } else {
            (i / 13, i % 13)
        };
        cards[i] = card(suits[suit], rank as u8 + 1);
        i += 1;
    }
    cards
}

/// kpat's deck before the shuffle: rank by rank, each in the suits C D H S
/// (src/dealer.cpp `setDeckContents`, src/libkcardgame/kcarddeck.cpp).
const MS_ORDER: [Card; DECK_SIZE] = ordered(true, b"CDHS");
/// PySolFC's deck before an MT shuffle: suit by suit in its order Club, Spade,
/// Heart, Diamond (pysollib/util.py `SUITS`), each ace to king (`Game.createCards`).
const PYSOL_ORDER: [Card; DECK_SIZE] = ordered(false, b"CSHD");

/// kpat's `KpatShuffle::shuffled` (src/shuffle.h): the Microsoft FreeCell LCG, one
/// swap per position from the end of the list.
fn ms_shuffled(mut seed: u32) -> [Card; DECK_SIZE] {
    let mut cards = MS_ORDER;
    for i in (2..=DECK_SIZE).rev() {
        seed = seed.wrapping_mul(214013).wrapping_add(2531011);
        let j = ((seed >> 16) & 0x7fff) as usize % i;
        cards.swap(i - 1, j);
    }
    cards
}

/// PySolFC's MTRandom shuffle (pysol_cards `RandomBase.shuffle` and `randint`):
/// `random.Random(seed)`, then for k = 51 down to 1 swap k with `int(random() * (k + 1))`.
fn mt_shuffled(seed: u128) -> [Card; DECK_SIZE] {
    let mut rng = Mt19937::from_int(seed);
    let mut cards = PYSOL_ORDER;
    for k in (1..DECK_SIZE).rev() {
        let j = (rng.random() * (k + 1) as f64) as usize;
        cards.swap(k, j);
    }
    cards
}

fn dealt(mut shuffled: [Card; DECK_SIZE]) -> Vec<Card> {
    shuffled.reverse();
    shuffled.to_vec()
}

/// The `ValueError` of a kpat deal number outside 1..=2**31-1; `shown` is the number
/// as the user wrote it.
fn kpat_range_error(shown: impl fmt::Display) -> Error {
    range_error("a kpat deal number", KPAT_MAX, shown)
}

/// The `ValueError` of a PySolFC game number outside 1..=10**20; see [`kpat_range_error`].
fn pysol_range_error(shown: impl fmt::Display) -> Error {
    range_error("a PySolFC game number", PYSOL_MAX, shown)
}

fn range_error(what: &str, max: i128, shown: impl fmt::Display) -> Error {
    Error::new(
        ErrorKind::Value,
        format!("{what} must be an int from 1 to {max}, got {shown}"),
    )
}

/// The deck of kpat's Aces Up deal number `n` (1 to 2**31 − 1), in deal order;
/// a `ValueError` naming that range outside it (kpat itself clamps such numbers).
pub fn deck_from_kpat(n: i128) -> Result<Vec<Card>> {
    if !(1..=KPAT_MAX).contains(&n) {
        return Err(kpat_range_error(n));
    }
    Ok(dealt(ms_shuffled(n as u32)))
}

/// The deck of PySolFC's game number `n` (1 to 10**20) for Aces Up, Aces Up 5 and
/// Russian Aces, in deal order: 1-31999 as kpat deals them, from 32000 up through
/// CPython's Mersenne Twister; a `ValueError` naming that range outside it.
pub fn deck_from_pysol(n: i128) -> Result<Vec<Card>> {
    if !(1..=PYSOL_MAX).contains(&n) {
        return Err(pysol_range_error(n));
    }
    Ok(dealt(if n < PYSOL_MS_END {
        ms_shuffled(n as u32)
    } else {
        mt_shuffled(n as u128)
    }))
}

const N: usize = 624;
const M: usize = 397;

/// MT19937 exactly as CPython's `random.Random` runs it (Modules/_randommodule.c):
/// seeded from an int by `init_by_array` with the int's 32-bit words, and with the
/// 53-bit `random()`.
#[derive(Clone)]
struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// `random.Random(n)` for a non-negative int `n`: the key is `n`'s 32-bit words,
    /// least significant first, one word `0` for `n = 0`.
    fn from_int(n: u128) -> Mt19937 {
        let mut key: Vec<u32> = (0..4).map(|w| (n >> (32 * w)) as u32).collect();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop();
        }
        Mt19937::from_key(&key)
    }

    /// CPython's `init_by_array(key)`; `key` must not be empty.
    fn from_key(key: &[u32]) -> Mt19937 {
        assert!(!key.is_empty(), "init_by_array needs at least one word");
        let mut mt = Mt19937::from_seed(19650218).state;
        let (mut i, mut j) = (1, 0);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000; // most significant bit set: the state is never all zero
        Mt19937 {
            state: mt,
            index: N,
        }
    }

    /// `init_genrand(seed)`, the first step of `init_by_array`.
    fn from_seed(seed: u32) -> Mt19937 {
        let mut mt = [0u32; N];
        mt[0] = seed;
        for i in 1..N {
            mt[i] = 1812433253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 {
            state: mt,
            index: N,
        }
    }

    /// The next 32-bit output (`genrand_uint32`, also `getrandbits(32)`).
    fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Regenerates all N words; walking the ring in order gives the reference
    /// code's three loops, since each word reads its successors before they change
    /// and the wrapped ones after.
    fn twist(&mut self) {
        let mt = &mut self.state;
        for k in 0..N {
            let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % N] & 0x7fff_ffff);
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ if y & 1 == 1 { 0x9908_b0df } else { 0 };
        }
        self.index = 0;
    }

    /// CPython's `random()`: 53 random bits from two outputs, in [0, 1).
    fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (a as f64 * 67108864.0 + b as f64) / 9007199254740992.0
    }
}

#[cfg(test)]
#[path = "tests/deals.rs"]
mod tests;
