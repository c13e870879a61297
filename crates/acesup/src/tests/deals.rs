//! The tests of `deals.rs`: the module `deals::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::rng::GOLDEN;
use crate::rules::Rules;

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

/// The seeded decks of `tests/data/rng_vectors.json`.
mod json_vectors {
    use super::*;
    use crate::rng::tests::json::vectors;

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
