"""Cards (RULES.md R1.1, R6.1; API.md Card): index, rank, suit, text forms, value semantics."""

from __future__ import annotations

import copy
import pickle

import pytest

from helpers import ALL_CARDS, RANKS, SUIT_SYMBOLS, SUITS


@pytest.mark.parametrize("index", range(52))
def test_from_index_matches_r1_1(engine, index):
    card = engine.Card.from_index(index)
    suit, rank = divmod(index, 13)
    assert card.index == index
    assert card.suit == SUITS[suit]
    assert card.rank == rank + 2
    assert str(card) == ALL_CARDS[index]
    assert engine.Card(str(card)) == card
    assert engine.Card.parse(str(card)) == card


def test_ten_of_diamonds_example(engine):
    card = engine.Card("Td")
    assert (card.rank, card.suit, card.index) == (10, "d", 21)


def test_rank_numbers(engine):
    assert [engine.Card(r + "h").rank for r in RANKS] == list(range(2, 15))
    assert engine.Card("Ac").rank == 14


def test_sorting_the_deck_gives_index_order(engine):
    deck = engine.deck_from_seed(11)
    assert " ".join(str(c) for c in sorted(deck)) == " ".join(ALL_CARDS)
    assert ALL_CARDS[:3] == ["2c", "3c", "4c"] and ALL_CARDS[12:14] == ["Ac", "2d"]


def test_order_is_by_index(engine):
    two_d, ace_c = engine.Card("2d"), engine.Card("Ac")
    assert ace_c < two_d  # Ac is index 12, 2d index 13
    assert not two_d < ace_c
    assert engine.Card("Ks") < engine.Card("As")
    assert not engine.Card("As") < engine.Card("As")


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("As", "As"),
        ("AS", "As"),
        ("as", "As"),
        ("A♠", "As"),
        ("a♤", "As"),
        ("10s", "Ts"),
        ("10♠", "Ts"),
        ("10S", "Ts"),
        ("  Td\n", "Td"),
        ("\tt♦ ", "Td"),
        ("t♢", "Td"),
        ("Qh", "Qh"),
        ("q♥", "Qh"),
        ("Q♡", "Qh"),
        ("2c", "2c"),
        ("2♣", "2c"),
        ("2♧", "2c"),
        ("jD", "Jd"),
        ("kC", "Kc"),
        ("9s", "9s"),
    ],
)
def test_parse_forms(engine, text, canonical):
    assert str(engine.Card(text)) == canonical
    assert str(engine.Card.parse(text)) == canonical


def test_text_forms(engine):
    card = engine.Card("Td")
    assert str(card) == "Td"
    assert repr(card) == "Card('Td')"
    assert format(card, "u") == "T♦"
    for text in ALL_CARDS:
        assert format(engine.Card(text), "u") == text[0] + SUIT_SYMBOLS[text[1]]


@pytest.mark.parametrize("text", ALL_CARDS)
def test_repr_evaluates_back(engine, text):
    card = engine.Card(text)
    assert eval(repr(card), {"Card": engine.Card}) == card


def test_equality_and_hash(engine):
    a, b = engine.Card("7h"), engine.Card("7H")
    assert a == b and hash(a) == hash(b)
    assert a != engine.Card("7d")
    assert len({engine.Card(t) for t in ALL_CARDS + ["as", "A♠"]}) == 52
    assert engine.Card("As") != "As"


@pytest.mark.parametrize("how", ["copy.copy", "copy.deepcopy", "pickle"])
def test_copies(engine, how):
    card = engine.Card("Qs")
    dup = {
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda c: pickle.loads(pickle.dumps(c)),
    }[how](card)
    assert dup == card and type(dup) is type(card) and hash(dup) == hash(card)
    assert str(dup) == "Qs"


def test_frozen(engine):
    card = engine.Card("Qs")
    with pytest.raises((AttributeError, TypeError)):
        card.rank = 3
    assert card.rank == 12
