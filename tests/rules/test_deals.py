"""The numbered deals of kpat and PySolFC (RULES.md R8): ``deck_from_kpat(n)`` and
``deck_from_pysol(n)`` in both engines.

The decks are checked three ways: against the vectors printed in kpat's and
pysol_cards' own tests (quoted in tests/data/deal_vectors.json), against
pysol_cards itself for many numbers in both of PySolFC's ranges, and against the
rest of the data file, which the cargo tests of the native MT19937 read too.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from helpers import load_json

VECTORS = load_json("deal_vectors.json")
KPAT_MAX = 2**31 - 1
PYSOL_MAX = 10**20


def texts(deck):
    return [str(card) for card in deck]


def kpat_text(card):
    """kpat's and pysol_cards' card text ("TC") as acesup text ("Tc")."""
    return card[0] + card[1].lower()


# --- the vectors of the programs' own tests ---------------------------------------


def test_kpat_seed_1_as_kpats_own_test_lists_it(engine):
    # kpat autotests/shuffle_test.cpp, shuffle_seed1: the list before the deal; the
    # talon is dealt from its end, so pile 0 gets the last card.
    shuffled = ("6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS 5C 4C 3C "
                "AH AS JS QD 9D KS 2S 3H KH QC AD 5S 9S KC KD 5H 7C 7H 5D JC 9H 2D JD").split()
    deck = engine.deck_from_kpat(1)
    assert texts(deck) == [kpat_text(c) for c in reversed(shuffled)]
    assert texts(deck[:4]) == ["Jd", "2d", "9h", "Jc"]  # piles 0-3 at the start


@pytest.mark.parametrize("vector", VECTORS["kpat"], ids=lambda v: str(v["n"]))
def test_kpat_vectors(engine, vector):
    if "shuffled" in vector:  # quoted from kpat's own test: the file's deck must agree with it
        assert vector["deck"].split() == [kpat_text(c) for c in reversed(vector["shuffled"].split())]
    assert texts(engine.deck_from_kpat(vector["n"])) == vector["deck"].split()


@pytest.mark.parametrize("vector", VECTORS["freecell"], ids=lambda v: str(v["n"]))
def test_pysol_cards_freecell_vectors(engine, vector):
    # pysol_cards' tests print FreeCell layouts: one line per column, the reversed
    # shuffled list dealt round-robin over 8 columns. Read back, column c holds the
    # deck's cards c, c + 8, c + 16, ...
    deck = [None] * 52
    for c, column in enumerate(vector["columns"]):
        for k, card in enumerate(column.split()):
            deck[c + 8 * k] = kpat_text(card)
    assert deck == vector["deck"].split()
    assert texts(engine.deck_from_pysol(vector["n"])) == deck


@pytest.mark.parametrize("vector", VECTORS["pysol"], ids=lambda v: v["n"])
def test_pysol_vectors(engine, vector):
    assert texts(engine.deck_from_pysol(int(vector["n"]))) == vector["deck"].split()


@pytest.mark.parametrize("vector", VECTORS["mt19937"], ids=lambda v: v["seed"][:24])
def test_mt19937_vectors_are_cpythons(vector):
    """The MT19937 outputs that the cargo tests hold the native generator to are
    CPython's, and the key is the seed's 32-bit words, least significant first."""
    seed = int(vector["seed"])
    assert sum(w << (32 * i) for i, w in enumerate(vector["words"])) == seed
    assert len(vector["words"]) == max(1, -(-seed.bit_length() // 32))
    r = random.Random(seed)
    outputs = [r.getrandbits(32) for _ in range(1001)]
    assert outputs[:3] == vector["u32"] and outputs[1000] == vector["u32_1000"]
    r = random.Random(seed)
    assert [r.random() for _ in range(3)] == vector["random"]


# --- against pysol_cards itself ---------------------------------------------------


def pysol_deck(n):
    """PySolFC's Aces Up deck for game number n, from pysol_cards' generators driven
    as PySolFC drives them, in acesup's deal order.

    - The generator (pysollib/pysolrandom.py, construct_random): numbers 0 <= n < 32000
      get LCRandom31(n), the rest MTRandom(n). (pysol_cards' own ``shuffle`` helper
      switches at ``game_num <= 32000`` instead; PySolFC's game does not use it.)
    - The cards (pysollib/game/__init__.py, Game.createCards and Game.shuffle): suit
      by suit in PySolFC's suit order C S H D, each A..K, which is pysol_cards'
      createCards(1); rearranged by ms_rearrange for LCRandom31 only; then
      ``random.shuffle(cards)`` and every card added to the talon in list order,
      so the talon's top card is the list's last.
    - The deal (pysollib/games/acesup.py: AcesUp.startGame calls _startAndDealRow,
      the talon is a DealRowTalonStack; pysollib/stack.py dealRowAvail and
      dealToStacks): one card to each row in row order, each ``moveMove(1, talon,
      row)`` taking the talon's top card; later deals the same, and Russian Aces'
      talon (RussianAces_Talon) only narrows the rows. So rows 0, 1, 2, 3 get the
      list's last, second-to-last, ... cards: acesup's deck is the list reversed.
    """
    cards = createCards(1)
    if n < 32000:
        rng, cards = LCRandom31(n), ms_rearrange(cards)
    else:
        rng = MTRandom(n)
    rng.shuffle(cards)
    return ["A23456789TJQK"[c.rank - 1] + "cshd"[c.suit] for c in reversed(cards)]


@pytest.mark.parametrize("n", [1, 2, 31998, 31999, 32000, 32001, 2**31 - 1, 2**31, 2**32, 2**64, PYSOL_MAX - 1,
                               PYSOL_MAX])
def test_pysol_boundaries_match_pysol_cards(engine, n):
    assert texts(engine.deck_from_pysol(n)) == pysol_deck(n)


@given(st.integers(min_value=1, max_value=31999))
def test_pysol_ms_range_matches_pysol_cards_and_kpat(engine, n):
    deck = texts(engine.deck_from_pysol(n))
    assert deck == pysol_deck(n)
    assert texts(engine.deck_from_kpat(n)) == deck


@given(st.integers(min_value=32000, max_value=PYSOL_MAX))
def test_pysol_mt_range_matches_pysol_cards(engine, n):
    assert texts(engine.deck_from_pysol(n)) == pysol_deck(n)


@given(st.integers(min_value=1, max_value=KPAT_MAX))
def test_kpat_is_a_deck_of_the_engines_cards(engine, n):
    deck = engine.deck_from_kpat(n)
    assert type(deck) is list and all(type(card) is engine.Card for card in deck)
    assert sorted(deck) == [engine.Card.from_index(i) for i in range(52)]


def test_numpy_integers_are_numbers(engine):
    assert engine.deck_from_kpat(np.int64(24)) == engine.deck_from_kpat(24)
    assert engine.deck_from_pysol(np.uint64(2**63)) == engine.deck_from_pysol(2**63)


# --- bad numbers --------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, -1, KPAT_MAX + 1, 2**64, -(2**200), 2**200])
def test_kpat_out_of_range(engine, n):
    with pytest.raises(ValueError) as info:
        engine.deck_from_kpat(n)
    assert str(info.value) == f"a kpat deal number must be an int from 1 to 2147483647, got {n}"


@pytest.mark.parametrize("n", [0, -1, -32000, PYSOL_MAX + 1, 2**128, 2**200])
def test_pysol_out_of_range(engine, n):
    with pytest.raises(ValueError) as info:
        engine.deck_from_pysol(n)
    assert str(info.value) == f"a PySolFC game number must be an int from 1 to 100000000000000000000, got {n}"


@pytest.mark.parametrize("n", [True, 1.0, "1", None, 24.5])
@pytest.mark.parametrize("name, what", [("deck_from_kpat", "a kpat deal number must be an int from 1 to 2147483647"),
                                        ("deck_from_pysol", "a PySolFC game number must be an int from 1 to "
                                                            "100000000000000000000")])
def test_non_integers_are_type_errors(engine, name, what, n):
    with pytest.raises(TypeError) as info:
        getattr(engine, name)(n)
    assert str(info.value) == f"{what}, got {type(n).__name__}"


# --- the programs' games ------------------------------------------------------------

PROGRAM_PRESETS = {
    "kpat": {"deal": "any", "relocate_single": True},
    "pysol": {"deal": "any", "relocate_single": True},
    "pysol_aces_up_5": {"deal": "any", "relocate_single": True, "piles": 5},
    "pysol_russian_aces": {"deal": "any", "relocate_single": True, "deal_to": "empty"},
}


@pytest.mark.parametrize("name, options", PROGRAM_PRESETS.items())
def test_program_presets_are_r8_3s_table(engine, name, options):
    rules = getattr(engine.Rules, name)()
    assert rules == engine.Rules(**options) == engine.Rules.preset(name) == engine.Rules.parse(name.upper())
    assert engine.Rules.parse(str(rules)) == rules


@pytest.mark.parametrize("maker, deck, preset", [("from_kpat", "deck_from_kpat", "kpat"),
                                                 ("from_pysol", "deck_from_pysol", "pysol")])
@pytest.mark.parametrize("n", [1, 2, 24, 31999])
def test_game_from_a_number_deals_its_deck_under_its_program(engine, maker, deck, preset, n):
    game = getattr(engine.Game, maker)(n)
    rules = getattr(engine.Rules, preset)()
    assert game == engine.Game.from_deck(getattr(engine, deck)(n), rules)
    assert game.rules == rules
    five = getattr(engine.Game, maker)(n, engine.Rules.pysol_aces_up_5())
    assert five == engine.Game.from_deck(getattr(engine, deck)(n), engine.Rules.pysol_aces_up_5())


def test_game_from_pysol_in_the_mersenne_twister_range(engine):
    n = 300000000000
    assert engine.Game.from_pysol(n) == engine.Game.from_deck(engine.deck_from_pysol(n), engine.Rules.pysol())


@pytest.mark.parametrize("maker, what, top", [("from_kpat", "a kpat deal number", KPAT_MAX),
                                              ("from_pysol", "a PySolFC game number", PYSOL_MAX)])
def test_game_from_a_bad_number(engine, maker, what, top):
    for n in (0, top + 1, 2**200):
        with pytest.raises(ValueError, match=f"^{what} must be an int from 1 to {top}, got {n}$"):
            getattr(engine.Game, maker)(n)
    with pytest.raises(TypeError, match=f"^{what} must be an int from 1 to {top}, got str$"):
        getattr(engine.Game, maker)("5")
    with pytest.raises(TypeError, match="^rules must be a Rules or None, got str"):
        getattr(engine.Game, maker)(5, "kpat")


# --- the programs' deals solved -----------------------------------------------------

SOLVER_RULES = {"kpat": {"deal": "any", "relocate_single": True},
                "kpat's solver": {"deal": "free", "relocate_single": True}}  # R8.4


@pytest.mark.parametrize("options", SOLVER_RULES.values(), ids=SOLVER_RULES)
@pytest.mark.parametrize("n", range(1, 41))
def test_every_winning_line_for_a_kpat_deal_replays_in_the_reference(n, options):
    import acesup
    import acesup.reference as ref
    solution = acesup.solve(acesup.Game.from_kpat(n, acesup.Rules(**options)), node_limit=200_000)
    if solution.winnable:
        game = ref.Game.from_kpat(n, ref.Rules(**options))
        for move in solution.moves:
            game.play(str(move))
        assert game.is_won


# The solver of main handles four piles dealt to all; pysol_aces_up_5 and
# pysol_russian_aces join this list with the solver of the family (branch solver).
@pytest.mark.parametrize("preset", ["pysol"])
@pytest.mark.parametrize("n", [1, 2, 31999, 32000, 32001, 300000000000, PYSOL_MAX])
def test_every_winning_line_for_a_pysol_deal_replays_in_the_reference(n, preset):
    import acesup
    import acesup.reference as ref
    solution = acesup.solve(acesup.Game.from_pysol(n, acesup.Rules.preset(preset)), node_limit=200_000)
    if solution.winnable:
        game = ref.Game.from_pysol(n, ref.Rules.preset(preset))
        for move in solution.moves:
            game.play(str(move))
        assert game.is_won


def test_kpat_deal_22_is_winnable_in_kpats_game():
    # A win under deal="free" (kpat's solver's rules, R8.4) is a win in kpat's game,
    # which allows every move those rules do.
    import acesup
    free = acesup.solve(acesup.Game.from_kpat(22, acesup.Rules(deal="free", relocate_single=True)))
    assert free.winnable is True
    assert acesup.solve(acesup.Game.from_kpat(22)).winnable is True
