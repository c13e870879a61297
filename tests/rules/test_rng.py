"""docs/RNG.md: SplitMix64, below(n), the shuffle, game_seed and the strategy stream.

The vectors in tests/data/rng_vectors.json were computed by an independent
implementation of RNG.md, not by either engine.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import ALL_CARDS, U64, load_json, seeds

VECTORS = load_json("rng_vectors.json")
GOLDEN = 0x9E3779B97F4A7C15


def _id(entry):
    return "-".join(f"{k}={entry[k]}" for k in ("seed", "n", "index") if k in entry)


def test_vectors_file_documents_its_layout():
    assert set(VECTORS["about"]) >= {"next_u64", "below", "game_seed", "deck_from_seed"}


def test_rng_md_first_outputs_of_seed_0(engine):
    rng = engine.Rng(0)
    assert [rng.next_u64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


@pytest.mark.parametrize("entry", VECTORS["next_u64"], ids=_id)
def test_next_u64_vectors(engine, entry):
    rng = engine.Rng(entry["seed"])
    assert rng.state == entry["seed"]
    outputs = [rng.next_u64() for _ in entry["outputs"]]
    assert outputs == entry["outputs"]
    assert rng.state == (entry["seed"] + len(outputs) * GOLDEN) % U64


@pytest.mark.parametrize("entry", VECTORS["below"], ids=_id)
def test_below_vectors(engine, entry):
    rng = engine.Rng(entry["seed"])
    assert [rng.below(entry["n"]) for _ in entry["outputs"]] == entry["outputs"]
    # The state shows how many next_u64() were drawn, rejections included.
    assert rng.state == entry["state_after"]
    assert rng.state == (entry["seed"] + entry["draws"] * GOLDEN) % U64


def test_below_vectors_include_rejections():
    rejecting = {e["n"] for e in VECTORS["below"] if e["draws"] > len(e["outputs"])}
    assert {2**63 + 1, 2**64 - 1} <= rejecting


@pytest.mark.parametrize("entry", VECTORS["game_seed"], ids=_id)
def test_game_seed_vectors(engine, entry):
    assert engine.game_seed(entry["seed"], entry["index"]) == entry["value"]


@pytest.mark.parametrize("entry", VECTORS["deck_from_seed"], ids=_id)
def test_deck_from_seed_vectors(engine, entry):
    deck = engine.deck_from_seed(entry["seed"])
    assert isinstance(deck, list)
    assert all(isinstance(c, engine.Card) for c in deck)
    assert " ".join(str(c) for c in deck) == entry["deck"]


@pytest.mark.parametrize("entry", VECTORS["deck_from_seed"], ids=_id)
def test_from_seed_deals_deck_from_seed(engine, entry):
    deck = entry["deck"].split()
    game = engine.Game.from_seed(entry["seed"])
    assert [str(p[0]) for p in game.piles] == deck[:4]
    assert all(len(p) == 1 for p in game.piles)
    assert [str(c) for c in game.stock] == deck[4:]
    assert game.discards == ()


@pytest.mark.parametrize("entry", VECTORS["strategy_stream"], ids=_id)
def test_strategy_stream_vectors(engine, entry):
    game = engine.Game.from_seed(entry["seed"])
    assert [game.randbelow(n) for n in entry["n"]] == entry["outputs"]
    rng = engine.Rng(entry["seed"])
    for i in range(51, 0, -1):
        rng.below(i + 1)
    assert [rng.below(n) for n in entry["n"]] == entry["outputs"]
    assert rng.state == entry["state_after"]


# --- properties against the engine's own Rng ------------------------------------------


@given(seed=seeds, index=st.integers(min_value=0, max_value=40))
def test_game_seed_is_the_next_output(engine, seed, index):
    rng = engine.Rng(seed)
    for _ in range(index + 1):
        value = rng.next_u64()
    assert engine.game_seed(seed, index) == value


@given(seed=seeds)
def test_deck_from_seed_is_fisher_yates_on_rng(engine, seed):
    rng = engine.Rng(seed)
    deck = list(ALL_CARDS)
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert [str(c) for c in engine.deck_from_seed(seed)] == deck
    assert [str(c) for c in engine.deck_from_seed(seed)] == deck  # and again: no hidden state


@given(seed=seeds, bounds=st.lists(st.integers(min_value=1, max_value=U64 - 1), min_size=1, max_size=8))
def test_randbelow_continues_the_shuffle_stream(engine, seed, bounds):
    """Game.from_seed(s): the strategy stream is Rng(s) just after the 51 shuffle draws."""
    rng = engine.Rng(seed)
    for i in range(51, 0, -1):
        rng.below(i + 1)
    game = engine.Game.from_seed(seed)
    draws = [game.randbelow(n) for n in bounds]
    assert draws == [rng.below(n) for n in bounds]
    assert all(0 <= d < n for d, n in zip(draws, bounds))


@given(seed=seeds, bounds=st.lists(st.integers(min_value=1, max_value=1000), min_size=1, max_size=5))
def test_from_deck_and_from_str_streams_start_at_rng_seed(engine, seed, bounds):
    deck = engine.deck_from_seed(7)
    rng = engine.Rng(seed)
    expected = [rng.below(n) for n in bounds]
    by_deck = engine.Game.from_deck(deck, seed=seed)
    assert [by_deck.randbelow(n) for n in bounds] == expected
    by_text = engine.Game.from_str(engine.Game.from_deck(deck).to_str(), seed=seed)
    assert [by_text.randbelow(n) for n in bounds] == expected


def test_default_stream_seed_is_zero(engine):
    deck = engine.deck_from_seed(3)
    rng = engine.Rng(0)
    expected = [rng.below(52) for _ in range(5)]
    game = engine.Game.from_deck(deck)
    assert [game.randbelow(52) for _ in range(5)] == expected
    game = engine.Game.from_str(game.to_str())
    assert [game.randbelow(52) for _ in range(5)] == expected


@pytest.mark.parametrize("how", ["copy", "copy.copy", "copy.deepcopy", "pickle"])
def test_stream_travels_with_copies(engine, how):
    game = engine.Game.from_seed(99)
    game.randbelow(10)
    dup = {
        "copy": lambda g: g.copy(),
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }[how](game)
    mine = [dup.randbelow(1000) for _ in range(6)]
    theirs = [game.randbelow(1000) for _ in range(6)]
    assert mine == theirs
    # Each copy has its own stream: drawing from one does not advance the other.
    a, b = game.copy(), game.copy()
    a.randbelow(5)
    assert [a.randbelow(2**40) for _ in range(3)] != [b.randbelow(2**40) for _ in range(3)]


def test_stream_is_not_part_of_position_and_undo_does_not_rewind(engine):
    game = engine.Game.from_seed(5)
    other = engine.Game.from_seed(5)
    other.randbelow(100)
    assert game == other  # == ignores the stream
    move = game.legal_moves()[0]
    expected_rng = engine.Rng(5)
    for i in range(51, 0, -1):
        expected_rng.below(i + 1)
    first = game.randbelow(2**32)
    assert first == expected_rng.below(2**32)
    game.play(move)
    game.undo()
    assert game.randbelow(2**32) == expected_rng.below(2**32)


# --- Rng value semantics -------------------------------------------------------------


def test_rng_state_and_equality(engine):
    a, b = engine.Rng(42), engine.Rng(42)
    assert a.state == 42
    assert a == b
    assert a != engine.Rng(43)
    a.next_u64()
    assert a != b
    assert a.state == (42 + GOLDEN) % U64
    b.next_u64()
    assert a == b


def test_rng_state_is_read_only(engine):
    rng = engine.Rng(1)
    with pytest.raises((AttributeError, TypeError)):
        rng.state = 5
    assert rng.state == 1


@pytest.mark.parametrize("how", ["copy.copy", "copy.deepcopy", "pickle"])
def test_rng_copies_are_equal_and_independent(engine, how):
    rng = engine.Rng(2**64 - 1)
    rng.next_u64()
    dup = {
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda r: pickle.loads(pickle.dumps(r)),
    }[how](rng)
    assert type(dup) is type(rng)
    assert dup == rng and dup.state == rng.state
    assert [dup.next_u64() for _ in range(3)] == [rng.next_u64() for _ in range(3)]
    dup.next_u64()
    assert dup != rng
    assert dup.state == (rng.state + GOLDEN) % U64


def test_below_one_draws_and_returns_zero(engine):
    rng = engine.Rng(9)
    assert [rng.below(1) for _ in range(5)] == [0] * 5
    assert rng.state == (9 + 5 * GOLDEN) % U64  # one draw per call, even for n = 1


@pytest.mark.parametrize("bad", [0, -1, 2**64])
def test_below_out_of_range(engine, bad):
    rng = engine.Rng(3)
    with pytest.raises(ValueError):
        rng.below(bad)
    assert rng.state == 3


@pytest.mark.parametrize("bad", [0, -1, 2**64])
def test_randbelow_out_of_range(engine, bad):
    game = engine.Game.from_seed(3)
    with pytest.raises(ValueError):
        game.randbelow(bad)
    # The stream was not advanced by the failed call.
    fresh = engine.Game.from_seed(3)
    assert game.randbelow(1000) == fresh.randbelow(1000)
