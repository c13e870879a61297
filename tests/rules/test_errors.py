"""Bad input: each raises its specific exception with a message that says what was
wrong, and a game is left unchanged by a failed call."""

from __future__ import annotations

import pytest

import acesup.errors as errors
from helpers import ALL_CARDS, other_engine, position, rules_text


@pytest.fixture()
def game(engine):
    g = engine.Game.from_str(position([["7s"], [], ["3d", "5h"], ["Ac"]]))
    g.play("f2>1")
    return g


def assert_unchanged(game, action, exc, *fragments):
    """``action(game)`` raises ``exc`` naming each of ``fragments``; ``game`` is unchanged."""
    before, snapshot, history = game.to_str(), game.copy(), game.history
    with pytest.raises(exc) as info:
        action(game)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert game.to_str() == before and game == snapshot and game.history == history
    return message


def test_every_error_is_an_acesup_error():
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.AcesUpError)
    for name in ("CardError", "DeckError", "PositionError", "RulesError", "MoveError", "StrategyError"):
        assert issubclass(getattr(errors, name), ValueError)
    assert issubclass(errors.IllegalMoveError, errors.MoveError)
    assert issubclass(errors.UndoError, IndexError)


def test_engines_export_the_shared_exceptions(engine):
    assert engine.IllegalMoveError is errors.IllegalMoveError


# --- cards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", " ", "1s", "11s", "Ax", "Zs", "A", "s", "Ass", "AsK", "A s", "♠A", "sA", "0s", "1♠", "A\u2660\u2660"]
)
def test_unknown_card_text(engine, text):
    with pytest.raises(errors.CardError) as info:
        engine.Card(text)
    assert repr(text) in str(info.value) or text.strip() in str(info.value)
    with pytest.raises(errors.CardError):
        engine.Card.parse(text)


@pytest.mark.parametrize("value", [None, 14, b"As", ["As"]])
def test_card_of_a_non_string(engine, value):
    with pytest.raises(TypeError):
        engine.Card(value)


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_index_out_of_range(engine, index):
    with pytest.raises(errors.CardError) as info:
        engine.Card.from_index(index)
    assert str(index) in str(info.value)


# --- decks -------------------------------------------------------------------------------


def test_deck_with_a_duplicate(engine):
    deck = list(ALL_CARDS)
    deck[10] = "7h"
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck)
    # The duplicate 7h, or the card it displaced (Qc), which is then missing.
    assert "7h" in str(info.value) or "Qc" in str(info.value)


def test_deck_with_a_duplicate_written_differently(engine):
    deck = list(ALL_CARDS)
    deck[0] = "A♠"
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck)
    assert "As" in str(info.value) or "2c" in str(info.value)


def test_deck_missing_a_card(engine):
    deck = [c for c in ALL_CARDS if c != "Qd"]
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck)
    message = str(info.value)
    assert "51" in message  # the length
    deck.append("2c")  # 52 cards, but Qd missing and 2c twice
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck)
    assert "2c" in str(info.value) or "Qd" in str(info.value)


@pytest.mark.parametrize("length", [0, 1, 4, 48, 51, 53, 104])
def test_deck_of_the_wrong_length(engine, length):
    deck = (ALL_CARDS * 2)[:length]
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck)
    assert str(length) in str(info.value)
    assert "52" in str(info.value)


def test_deck_with_a_bad_card(engine):
    deck = list(ALL_CARDS)
    deck[5] = "Xx"
    with pytest.raises(errors.CardError) as info:
        engine.Game.from_deck(deck)
    assert "Xx" in str(info.value)
    with pytest.raises(errors.CardError):
        engine.Game.from_deck(" ".join(deck))


def test_deck_of_a_wrong_type(engine):
    with pytest.raises(TypeError):
        engine.Game.from_deck(52)


# --- illegal moves of every kind --------------------------------------------------------


def make(engine, piles, stock=None, **rules):
    kw = {} if stock is None else {"stock": stock}
    return engine.Game.from_str(position(piles, rules=rules_text(**rules), **kw))


ILLEGAL = [
    # (piles, stock, rules, move, fragment)
    ([["7s"], ["Js"], ["3d", "5h"], ["Ac"]], None, {}, "d1", "no higher spade"),
    ([[], ["Js"], ["3d", "5h"], ["Ac"]], None, {}, "d0", "it is empty"),
    ([["7s"], [], ["3d", "5h"], ["Ac"]], None, {}, "f2>0", "it is not empty"),
    ([["7s"], [], ["3d", "5h"], ["Ac"]], None, {}, "f2:1>1", "buried"),
    ([["7s"], [], ["3d", "5h"], ["Ac"]], None, {}, "f0>1", "only card"),
    ([["7s"], [], ["3d", "5h"], ["Ac"]], None, {"fill": "ace"}, "f2>1", "fill='ace'"),
    ([["7s"], ["Js"], ["3d", "5h"], ["Ac"]], None, {}, "deal", "must be discarded first"),
    ([["Kc", "7c"], ["Kd"], ["Kh"], ["Ac", "Ad", "Ah", "As", "Ks"]], [], {}, "deal", "stock is empty"),
    ([["7s"], [], ["3d", "5h"], ["Ac"]], None, {"deal": "stuck"}, "deal", "fill is still possible"),
]


@pytest.mark.parametrize("case", ILLEGAL, ids=[f"{c[3]}-{c[4]}" for c in ILLEGAL])
def test_illegal_move(engine, case):
    piles, stock, rules, move, fragment = case
    game = make(engine, piles, stock, **rules)
    assert_unchanged(game, lambda g: g.play(move), errors.IllegalMoveError, fragment)
    assert_unchanged(game, lambda g: g.play(engine.Move.parse(move)), errors.IllegalMoveError, fragment)


def test_fill_from_the_same_pile_is_not_a_move(engine):
    with pytest.raises(errors.MoveError) as info:
        engine.Move.fill(2, 2)
    assert "2" in str(info.value)
    with pytest.raises(errors.MoveError):
        engine.Move.parse("f1>1")
    with pytest.raises(errors.MoveError):
        engine.Move.parse("f1:2>1")


def test_failed_play_leaves_the_game_unchanged_after_moves(game, engine):
    assert game.history  # the fixture played a move
    assert_unchanged(game, lambda g: g.play("f3>2"), errors.IllegalMoveError, "not empty")
    assert_unchanged(game, lambda g: g.play("d0"), errors.IllegalMoveError, "no higher spade")


def test_undo_at_the_start(engine):
    game = engine.Game.from_seed(1)
    message = assert_unchanged(game, lambda g: g.undo(), errors.UndoError)
    assert message
    game.play(game.legal_moves()[0])
    game.undo()
    assert_unchanged(game, lambda g: g.undo(), errors.UndoError)


def test_undo_of_a_game_from_text_has_no_history(engine):
    game = engine.Game.from_str(engine.Game.from_seed(1).to_str())
    assert_unchanged(game, lambda g: g.undo(), errors.UndoError)


# --- rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, fragments",
    [
        (dict(fill="all"), ["fill", "all", "top", "ace", "any"]),
        (dict(deal="never"), ["deal", "never", "free", "stuck"]),
        (dict(relocate_single="yes"), ["relocate_single"]),
        (dict(relocate_single=1), ["relocate_single"]),
        (dict(ace_high=None), ["ace_high"]),
        (dict(fill=3), ["fill"]),
    ],
)
def test_unknown_rule_values(engine, kwargs, fragments):
    with pytest.raises(errors.RulesError) as info:
        engine.Rules(**kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)
    with pytest.raises(errors.RulesError):
        engine.Rules().replace(**kwargs)


@pytest.mark.parametrize("kwargs", [dict(colour="red"), dict(fill_mode="top"), dict(acehigh=True)])
def test_unknown_rule_keywords(engine, kwargs):
    with pytest.raises(TypeError):
        engine.Rules(**kwargs)
    with pytest.raises(TypeError):
        engine.Rules().replace(**kwargs)


def test_rules_are_keyword_only(engine):
    with pytest.raises(TypeError):
        engine.Rules("top")


def test_unknown_preset(engine):
    with pytest.raises(errors.RulesError) as info:
        engine.Rules.preset("hard")
    assert "hard" in str(info.value)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("fill=all", "all"),
        ("fill=top,colour=red", "colour"),
        ("hard", "hard"),
        ("deal=", "deal"),
        ("relocate_single=maybe", "maybe"),
        ("fill=top,deal=free,relocate_single=false,ace_high=true,extra", "extra"),
        ("fill=top,deal=free,strict", "strict"),  # the preset may only lead
        ("fill", "fill"),
    ],
)
def test_malformed_rules_text(engine, text, fragment):
    with pytest.raises(errors.RulesError) as info:
        engine.Rules.parse(text)
    assert fragment in str(info.value)


# --- move text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "x", "d", "d5", "d-1", "d 1", "f2", "f2>", "f>0", "f2>5", "f5>0", "f2:-1>0", "f2:x>0", "f2>>0",
     "deal2", "deals", "dd1", "f2:>0", "2>0", "f2-0", "d1 d2"],
)
def test_malformed_move_text(engine, text, game):
    with pytest.raises(errors.MoveError) as info:
        engine.Move.parse(text)
    assert not isinstance(info.value, errors.IllegalMoveError)
    assert text.strip() in str(info.value)
    message = assert_unchanged(game, lambda g: g.play(text), errors.MoveError)
    assert text.strip() in message
    try:
        game.play(text)
    except errors.MoveError as e:
        assert not isinstance(e, errors.IllegalMoveError)


@pytest.mark.parametrize(
    "build",
    [
        lambda M: M.discard(5),  # R6.3: piles 0-4 are well formed (pile 4 of a five-pile layout)
        lambda M: M.discard(-1),
        lambda M: M.fill(5, 0),
        lambda M: M.fill(0, 5),
        lambda M: M.fill(-1, 0),
        lambda M: M.fill(0, 1, index=-1),
        lambda M: M.fill(3, 3),
    ],
)
def test_impossible_move_arguments(engine, build):
    with pytest.raises(errors.MoveError):
        build(engine.Move)


@pytest.mark.parametrize(
    "build",
    [lambda M: M.discard("1"), lambda M: M.discard(1.0), lambda M: M.fill(0, "1"), lambda M: M.fill(0, 1, index=0.5)],
)
def test_move_arguments_of_a_wrong_type(engine, build):
    with pytest.raises(TypeError):
        build(engine.Move)


@pytest.mark.parametrize("value", [None, 3, 1.5, ("d", 1), b"d1"])
def test_play_of_a_wrong_type(engine, game, value):
    assert_unchanged(game, lambda g: g.play(value), TypeError)


def test_the_other_engines_game_is_refused_by_name(engine):
    import acesup
    other = other_engine(engine)
    words = ("a reference-engine Game was given to the native engine" if engine is acesup
             else "a native-engine Game was given to the reference engine")
    with pytest.raises(TypeError, match=words):
        engine.solve(other.Game.from_seed(1))
    # A built-in strategy object asked about the other engine's game, or played by its simulate.
    with pytest.raises(TypeError, match=f"strategy: {words}"):
        engine.strategy("greedy")(other.Game.from_seed(1))
    with pytest.raises(TypeError, match=f"strategy: {words}"):
        other.simulate(2, engine.strategy("greedy"))


# --- positions ---------------------------------------------------------------------------

GOOD = position([["7s"], [], ["3d", "5h"], ["Ac"]])


def replace_field(text, index, value):
    fields = text.split(" ")
    fields[index] = value
    return " ".join(fields)


def test_good_position_is_good(engine):
    assert engine.Game.from_str(GOOD).to_str() == GOOD


@pytest.mark.parametrize(
    "text, fragments",
    [
        ("", []),
        ("garbage", []),
        (" ".join(GOOD.split(" ")[:3]), []),  # no rules
        (GOOD + " extra", []),
        (replace_field(GOOD, 0, "7s/-/3d5h"), []),  # three piles
        (replace_field(GOOD, 0, "7s/-/3d5h/Ac/-"), []),  # five piles
        (replace_field(GOOD, 0, "7s/-/3d5x/Ac"), ["5x"]),  # not a card
        (replace_field(GOOD, 3, "fill=sideways"), ["sideways"]),
        (replace_field(GOOD, 0, "7s/-/3d5h7s/Ac"), ["7s"]),  # duplicate card
    ],
)
def test_malformed_position(engine, text, fragments):
    with pytest.raises(errors.PositionError) as info:
        engine.Game.from_str(text)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_position_missing_a_card(engine):
    with pytest.raises(errors.PositionError) as info:
        engine.Game.from_str(replace_field(GOOD, 0, "7s/-/3d/Ac"))
    assert "5h" in str(info.value) or "51" in str(info.value)


def test_position_stock_not_a_multiple_of_4(engine):
    piles = [["7s", "2c"], ["Js"], ["3d", "5h"], ["Ac"]]
    text = position(piles, stock=[c for c in ALL_CARDS if c[0] in "AK" and c != "Ac"] + ["8c", "9c"])
    with pytest.raises(errors.PositionError) as info:
        engine.Game.from_str(text)
    assert "9" in str(info.value) and "4" in str(info.value)  # the length and the rule


@pytest.mark.parametrize("ace_high, card", [(True, "Ad"), (False, "Kd")])
def test_position_with_a_top_rank_card_discarded(engine, ace_high, card):
    piles = [["7s"], ["Js"], ["3d", "5h"], ["Ac"]]
    stock = [c for c in ALL_CARDS if c[0] in "AK" and c not in ("Ac", card)][:4]
    text = position(piles, stock=stock, rules=rules_text(ace_high=ace_high))
    assert card in text.split(" ")[2]
    with pytest.raises(errors.PositionError) as info:
        engine.Game.from_str(text)
    assert card in str(info.value)


def test_position_king_discarded_is_fine_in_standard_rules(engine):
    piles = [["7s"], ["Js"], ["3d", "5h"], ["Ac"]]
    stock = [c for c in ALL_CARDS if c[0] == "A" and c != "Ac"] + ["2c"]
    text = position(piles, stock=stock)
    assert "K" in text.split(" ")[2]
    assert engine.Game.from_str(text).to_str() == text


def test_position_of_a_wrong_type(engine):
    with pytest.raises(TypeError):
        engine.Game.from_str(None)


# --- seeds -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_seed_out_of_range(engine, seed):
    with pytest.raises(ValueError):
        engine.Game.from_seed(seed)
    with pytest.raises(ValueError):
        engine.Game.from_deck(ALL_CARDS, seed=seed)
    with pytest.raises(ValueError):
        engine.Game.from_str(GOOD, seed=seed)
    with pytest.raises(ValueError):
        engine.deck_from_seed(seed)
    with pytest.raises(ValueError):
        engine.Rng(seed)
    with pytest.raises(ValueError):
        engine.game_seed(seed, 0)
    with pytest.raises(ValueError):
        engine.simulate(1, seed=seed)


@pytest.mark.parametrize("seed", [1.0, "1", None])
def test_seed_of_a_wrong_type(engine, seed):
    with pytest.raises(TypeError):
        engine.Game.from_seed(seed)
    with pytest.raises(TypeError):
        engine.Rng(seed)


def test_game_seed_index_out_of_range(engine):
    with pytest.raises(ValueError):
        engine.game_seed(0, -1)


# --- simulate ------------------------------------------------------------------------------


@pytest.mark.parametrize("games", [-1, -100])
def test_negative_game_count(engine, games):
    with pytest.raises(ValueError) as info:
        engine.simulate(games)
    assert str(games) in str(info.value)


@pytest.mark.parametrize("games", [1.0, "3", None, True, False])
def test_non_integer_game_count(engine, games):
    with pytest.raises(TypeError):
        engine.simulate(games)


def test_negative_start(engine):
    with pytest.raises(ValueError):
        engine.simulate(1, start=-1)
    with pytest.raises(TypeError):
        engine.simulate(1, start=1.0)
    with pytest.raises(TypeError):
        engine.simulate(1, start=True)


@pytest.mark.parametrize("threads, exc", [(0, ValueError), (-2, ValueError), (1.5, TypeError), ("2", TypeError)])
def test_bad_threads(engine, threads, exc):
    with pytest.raises(exc):
        engine.simulate(1, threads=threads)


def test_unknown_strategy(engine):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, strategy="clever")
    assert "clever" in str(info.value)


def _start_text(engine, rules=None):
    return engine.Game.from_seed(engine.game_seed(0, 0), rules).to_str()


def returns_none(game):
    return None


def returns_junk(game):
    return 42


def returns_illegal(game):
    # No fill is legal at the start of a game: no pile is empty.
    return type(game.legal_moves()[0]).fill(0, 1)


@pytest.mark.parametrize(
    "strategy, shown",
    [(returns_none, "None"), (returns_junk, "42"), (returns_illegal, None)],
    ids=["none", "non-move", "illegal"],
)
def test_strategy_returning_no_legal_move(engine, strategy, shown):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(2, strategy=strategy)
    message = str(info.value)
    assert strategy.__name__ in message
    if shown is not None:
        assert shown in message
    else:
        assert "f0>1" in message
    assert _start_text(engine) in message  # the position it was given


def test_strategy_error_is_not_an_illegal_move_error(engine):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, strategy=returns_illegal)
    assert not isinstance(info.value, errors.IllegalMoveError)


@pytest.mark.parametrize("histogram, exc", [
    ([0] * 48, ValueError),
    ([0] * 50, ValueError),
    ([0] * 47 + [-1, 0], ValueError),
    ([0] * 48 + [1.5], TypeError),
    ([0] * 48 + ["1"], TypeError),
])
def test_bad_stats(engine, histogram, exc):
    with pytest.raises(exc):
        engine.Stats(histogram)
