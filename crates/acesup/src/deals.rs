//! The numbered deals of KDE's kpat and of PySolFC (docs/RULES.md R8), the same as
//! `acesup.reference.deals`.
//!
//! Both programs put their shuffled list into the talon in list order and deal
//! from its end, so acesup's deck (R1.3, pile 0 first) is the shuffled list
//! reversed. kpat, and PySolFC's game numbers 1-31999, shuffle with the Microsoft
//! FreeCell generator; PySolFC's numbers from 32000 up seed CPython's
//! `random.Random`, which [`Mt19937`] reproduces exactly.

use crate::cards::{Card, DECK_SIZE};
use crate::{Error, ErrorKind, Result};
use std::fmt;

/// The highest kpat deal number: kpat clamps a number into 1..=INT_MAX (src/dealer.cpp, `startNew`).
pub const KPAT_MAX: i128 = i32::MAX as i128;
/// PySolFC's numbers below this use the Microsoft generator (pysollib/pysolrandom.py).
pub const PYSOL_MS_END: i128 = 32000;
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
/// as the user wrote it (the bindings use it for ints too large for an i128).
pub fn kpat_range_error(shown: impl fmt::Display) -> Error {
    range_error("a kpat deal number", KPAT_MAX, shown)
}

/// The `ValueError` of a PySolFC game number outside 1..=10**20; see [`kpat_range_error`].
pub fn pysol_range_error(shown: impl fmt::Display) -> Error {
    range_error("a PySolFC game number", PYSOL_MAX, shown)
}

fn range_error(what: &str, max: i128, shown: impl fmt::Display) -> Error {
    Error::new(
        ErrorKind::Value,
        format!("{what} must be an int from 1 to {max}, got {shown}"),
    )
}

/// The deck of kpat's Aces Up deal number `n` (1 to 2**31 − 1), in deal order;
/// [`kpat_range_error`] outside that range (kpat itself clamps such numbers).
pub fn deck_from_kpat(n: i128) -> Result<Vec<Card>> {
    if !(1..=KPAT_MAX).contains(&n) {
        return Err(kpat_range_error(n));
    }
    Ok(dealt(ms_shuffled(n as u32)))
}

/// The deck of PySolFC's game number `n` (1 to 10**20) for Aces Up, Aces Up 5 and
/// Russian Aces, in deal order: 1-31999 as kpat deals them, from 32000 up through
/// CPython's Mersenne Twister; [`pysol_range_error`] outside that range.
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
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// `random.Random(n)` for a non-negative int `n`: the key is `n`'s 32-bit words,
    /// least significant first, one word `0` for `n = 0`.
    pub fn from_int(n: u128) -> Mt19937 {
        let mut key: Vec<u32> = (0..4).map(|w| (n >> (32 * w)) as u32).collect();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop();
        }
        Mt19937::from_key(&key)
    }

    /// CPython's `init_by_array(key)`; `key` must not be empty.
    pub fn from_key(key: &[u32]) -> Mt19937 {
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
    pub fn next_u32(&mut self) -> u32 {
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
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (a as f64 * 67108864.0 + b as f64) / 9007199254740992.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tests/data/deal_vectors.json (written by tests/data/make_deal_vectors.py with
    /// kpat's, pysol_cards' and CPython's own generators). Each vector is one line,
    /// so a field scanner reads it.
    const VECTORS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/deal_vectors.json"
    ));

    /// The one-line vectors of a section (`"name": [` up to its closing `]`).
    fn section(name: &str) -> Vec<&'static str> {
        let start = format!(" \"{name}\": [");
        let items: Vec<&str> = VECTORS
            .lines()
            .skip_while(|line| *line != start)
            .skip(1)
            .take_while(|line| line.trim() != "]" && line.trim() != "],")
            .collect();
        assert!(!items.is_empty(), "no section {name} in deal_vectors.json");
        items
    }

    /// The text of field `name` of a one-line vector: a string without its quotes,
    /// a list without its brackets, or a bare number.
    fn field<'a>(line: &'a str, name: &str) -> &'a str {
        let key = format!("\"{name}\": ");
        let rest = &line[line
            .find(&key)
            .unwrap_or_else(|| panic!("no {name} in {line}"))
            + key.len()..];
        let (open, close) = match rest.as_bytes()[0] {
            b'"' => ('"', '"'),
            b'[' => ('[', ']'),
            _ => return &rest[..rest.find([',', '}']).unwrap()],
        };
        let body = &rest[open.len_utf8()..];
        &body[..body.find(close).unwrap()]
    }

    fn numbers<T: std::str::FromStr>(text: &str) -> Vec<T>
    where
        T::Err: fmt::Debug,
    {
        text.split(", ").map(|x| x.parse().unwrap()).collect()
    }

    fn deck_text(deck: &[Card]) -> String {
        deck.iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn kpat_seed_1_matches_kpats_own_test() {
        // autotests/shuffle_test.cpp, shuffle_seed1: the list before the deal.
        let want = "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS \
                    5C 4C 3C AH AS JS QD 9D KS 2S 3H KH QC AD 5S 9S KC KD 5H 7C 7H 5D JC 9H 2D JD";
        let shuffled: Vec<String> = want.split(' ').map(|c| c.to_ascii_lowercase()).collect();
        let mut deck = deck_from_kpat(1).unwrap();
        deck.reverse();
        let have: Vec<String> = deck
            .iter()
            .map(|c| c.to_string().to_ascii_lowercase())
            .collect();
        assert_eq!(have, shuffled);
        assert_eq!(deck_from_kpat(1).unwrap()[0].to_string(), "Jd"); // pile 0 gets L[51]
    }

    #[test]
    fn kpat_vectors() {
        for line in section("kpat") {
            let n: i128 = field(line, "n").parse().unwrap();
            assert_eq!(
                deck_text(&deck_from_kpat(n).unwrap()),
                field(line, "deck"),
                "kpat {n}"
            );
        }
    }

    #[test]
    fn pysol_vectors() {
        for name in ["pysol", "freecell"] {
            for line in section(name) {
                let n: i128 = field(line, "n").parse().unwrap();
                assert_eq!(
                    deck_text(&deck_from_pysol(n).unwrap()),
                    field(line, "deck"),
                    "{name} {n}"
                );
            }
        }
    }

    #[test]
    fn mt19937_matches_cpython() {
        for line in section("mt19937") {
            let key: Vec<u32> = numbers(field(line, "words"));
            let mut rng = Mt19937::from_key(&key);
            let first: Vec<u32> = (0..1001).map(|_| rng.next_u32()).collect();
            assert_eq!(first[..3], numbers::<u32>(field(line, "u32"))[..], "{line}");
            assert_eq!(
                first[1000],
                field(line, "u32_1000").parse::<u32>().unwrap(),
                "{line}"
            );
            let mut rng = Mt19937::from_key(&key);
            let random: Vec<f64> = (0..3).map(|_| rng.random()).collect();
            assert_eq!(random, numbers::<f64>(field(line, "random")), "{line}");
            if let Ok(seed) = field(line, "seed").parse::<u128>() {
                assert_eq!(
                    Mt19937::from_int(seed).next_u32(),
                    first[0],
                    "from_int({seed})"
                );
            }
        }
    }

    #[test]
    fn cpython_random_12345() {
        // python3 -c "import random; r=random.Random(12345); print([r.random() for _ in range(3)])"
        let mut rng = Mt19937::from_int(12345);
        let have: Vec<f64> = (0..3).map(|_| rng.random()).collect();
        assert_eq!(
            have,
            [
                0.41661987254534116,
                0.010169169457068361,
                0.8252065092537432
            ]
        );
    }

    #[test]
    fn the_generators_switch_at_32000() {
        for n in [1, 31999] {
            assert_eq!(deck_from_pysol(n).unwrap(), deck_from_kpat(n).unwrap());
        }
        assert_ne!(
            deck_from_pysol(32000).unwrap(),
            deck_from_kpat(32000).unwrap()
        );
    }

    #[test]
    fn every_deck_holds_the_52_cards() {
        for n in [1, 2, 31999, 32000, 1 << 40, PYSOL_MAX] {
            let mut deck = deck_from_pysol(n).unwrap();
            deck.sort();
            assert!(deck.into_iter().eq(Card::all()), "{n}");
        }
    }

    #[test]
    fn out_of_range_numbers_name_the_range() {
        for n in [0, -1, KPAT_MAX + 1] {
            let err = deck_from_kpat(n).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Value);
            assert_eq!(
                err.message,
                format!("a kpat deal number must be an int from 1 to 2147483647, got {n}")
            );
        }
        for n in [0, -5, PYSOL_MAX + 1] {
            let err = deck_from_pysol(n).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Value);
            assert_eq!(
                err.message,
                format!(
                    "a PySolFC game number must be an int from 1 to 100000000000000000000, got {n}"
                )
            );
        }
        assert!(deck_from_kpat(KPAT_MAX).is_ok() && deck_from_pysol(PYSOL_MAX).is_ok());
    }
}
