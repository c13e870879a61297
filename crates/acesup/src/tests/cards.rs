//! The tests of `cards.rs`: the module `cards::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

#[test]
fn index_rank_suit() {
    let td = card("Td");
    assert_eq!((td.rank(), td.suit_char(), td.index()), (10, 'd', 21));
    assert_eq!(Card::from_index(0).unwrap().to_string(), "2c");
    assert_eq!(Card::from_index(51).unwrap().to_string(), "As");
    assert_eq!(Card::from_index(52).unwrap_err().kind, ErrorKind::Card);
    let sorted: Vec<String> = Card::all().map(|c| c.to_string()).collect();
    assert_eq!(&sorted[..3], ["2c", "3c", "4c"]);
    assert_eq!(sorted[12], "Ac");
    assert_eq!(sorted[13], "2d");
}

#[test]
fn every_card_round_trips() {
    for c in Card::all() {
        assert_eq!(card(&c.to_string()), c);
        assert_eq!(card(&c.to_string().to_lowercase()), c);
        assert_eq!(card(&c.to_string().to_uppercase()), c);
        assert_eq!(card(&c.unicode()), c);
    }
}

#[test]
fn accepted_spellings() {
    for text in ["As", "AS", "as", "A♠", " A♤\n", "aS"] {
        assert_eq!(card(text).to_string(), "As", "{text}");
    }
    for text in ["10s", "10♠", "ts", "T♤"] {
        assert_eq!(card(text).to_string(), "Ts", "{text}");
    }
    assert_eq!(card("7♡").to_string(), "7h");
    assert_eq!(card("Q♢").to_string(), "Qd");
    assert_eq!(card("2♧").to_string(), "2c");
}

#[test]
fn rejected_spellings() {
    for text in [
        "",
        " ",
        "A",
        "s",
        "1s",
        "11s",
        "Ax",
        "Ass",
        "A s",
        "10",
        "0s",
        "1 0s",
        "♠A",
        "As,",
        "\u{212a}s",
        "As\u{17f}",
    ] {
        let err = Card::parse(text).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Card, "{text:?}");
    }
}

#[test]
fn decks() {
    let text: Vec<String> = Card::all().map(|c| c.to_string()).collect();
    let all: Vec<Card> = Card::all().collect();
    let parse_deck = |text: &str| {
        let cards = parse_cards(text)?;
        check_deck(&cards, &all).map(|()| cards)
    };
    let deck = parse_deck(&text.join(", ")).unwrap();
    assert_eq!(deck, all);
    assert_eq!(parse_deck(&text.join(",\n")).unwrap(), deck);
    let short = parse_deck(&text[..51].join(" ")).unwrap_err();
    assert_eq!(short.kind, ErrorKind::Deck);
    assert_eq!(
        short.message,
        "the deck holds 51 cards, not 52 (missing As)"
    );
    let mut twice = text.clone();
    twice[51] = "2c".into();
    let err = parse_deck(&twice.join(" ")).unwrap_err();
    assert_eq!(err.message, "the deck holds 2c twice and lacks As");
    let err = parse_deck(&text[..40].join(" ")).unwrap_err();
    assert_eq!(
        err.message,
        "the deck holds 40 cards, not 52 (missing 12 cards)"
    );
    assert_eq!(parse_deck("2c 3c Xx").unwrap_err().kind, ErrorKind::Card);
    // A smaller layout's deck: the stray card is named first.
    let small: Vec<Card> = ["Qc", "Kc", "Ac", "Qd", "Kd", "Ad"]
        .iter()
        .map(|t| Card::parse(t).unwrap())
        .collect();
    let err = check_deck(&all[..6], &small).unwrap_err();
    assert_eq!(
        err.message,
        "the deck holds 2c, which is not in the deck of these rules (6 cards)"
    );
    assert_eq!(
        check_deck(&small[..5], &small).unwrap_err().message,
        "the deck holds 5 cards, not 6 (missing Ad)"
    );
    assert!(check_deck(&small, &small).is_ok());
}

#[test]
fn repr_like_python() {
    assert_eq!(py_repr("As"), "'As'");
    assert_eq!(py_repr("it's"), "\"it's\"");
    assert_eq!(py_repr("a\nb\\"), "'a\\nb\\\\'");
    assert_eq!(py_repr("\u{0}A♠"), "'\\x00A♠'");
    assert_eq!(py_repr("\u{200b}"), "'\\u200b'");
}
