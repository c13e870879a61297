"""API.md behaviour of Game, Move and Rules: properties, play/undo, copies, ==, repr, text."""

from __future__ import annotations

import copy
import pickle

import pytest

from helpers import RULE_OPTIONS, STANDARD_TEXT, all_cards_of, other_engine, position, rules_text, ALL_CARDS

import acesup.errors as errors


def played(engine, seed=3, moves=12, rules=None):
    """A game from ``seed`` after ``moves`` moves (always the first legal one)."""
    game = engine.Game.from_seed(seed, rules)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[0])
    return game


# --- construction and properties ----------------------------------------------------

PUBLIC = ["Card", "Move", "Rules", "Game", "Stats", "Rng", "simulate", "deck_from_seed", "game_seed",
          "AcesUpError", "CardError", "DeckError", "PositionError", "RulesError", "MoveError",
          "IllegalMoveError", "UndoError", "StrategyError"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names(engine, name):
    assert hasattr(engine, name)
    if name.endswith("Error"):
        assert getattr(engine, name) is getattr(errors, name)  # the very same classes




def test_properties_of_a_new_game(engine):
    game = engine.Game.from_seed(42)
    deck = engine.deck_from_seed(42)
    assert game.rules == engine.Rules.standard()
    assert isinstance(game.piles, tuple) and len(game.piles) == 4
    assert all(isinstance(p, tuple) for p in game.piles)
    assert game.piles == tuple((c,) for c in deck[:4])
    assert isinstance(game.stock, tuple) and game.stock == tuple(deck[4:])
    assert game.discards == () and game.score == 0 and game.history == ()
    assert all(isinstance(c, engine.Card) for p in game.piles for c in p)
    assert game.is_over is False and game.is_won is False


@pytest.mark.parametrize("options", RULE_OPTIONS, ids=lambda o: rules_text(**o))
def test_rules_are_kept(engine, options):
    rules = engine.Rules(**options)
    assert engine.Game.from_seed(1, rules).rules == rules
    assert engine.Game.from_deck(engine.deck_from_seed(1), rules).rules == rules
    assert engine.Game.from_seed(1, rules).to_str().endswith(" " + rules_text(**options))


def test_rules_none_is_standard(engine):
    assert engine.Game.from_seed(1, None) == engine.Game.from_seed(1, engine.Rules.standard())
    assert engine.Game.from_deck(engine.deck_from_seed(1), rules=None).rules == engine.Rules()


def test_from_deck_accepts_text_cards_and_card_strings(engine):
    deck = engine.deck_from_seed(77)
    texts = [str(c) for c in deck]
    by_cards = engine.Game.from_deck(deck)
    assert engine.Game.from_deck(texts) == by_cards
    assert engine.Game.from_deck(tuple(texts)) == by_cards
    assert engine.Game.from_deck(" ".join(texts)) == by_cards
    assert engine.Game.from_deck(",".join(texts)) == by_cards
    assert engine.Game.from_seed(77) == by_cards


def test_piles_are_bottom_to_top(engine):
    game = engine.Game.from_str(position([["2c", "3c", "4c"], ["Ac"], [], ["Kd"]]))
    assert [str(c) for c in game.piles[0]] == ["2c", "3c", "4c"]
    assert game.piles[2] == ()


def test_score_is_the_number_of_discards(engine):
    game = played(engine, seed=5, moves=60)
    assert game.score == len(game.discards)
    assert sorted(all_cards_of(game)) == sorted(ALL_CARDS)


# --- play, is_legal, history, undo ----------------------------------------------------


def test_play_accepts_a_move_or_its_text(engine):
    a, b = engine.Game.from_seed(10), engine.Game.from_seed(10)
    for _ in range(15):
        moves = a.legal_moves()
        if not moves:
            break
        a.play(moves[-1])
        b.play(str(moves[-1]))
        assert a == b and a.to_str() == b.to_str()
    assert a.history == b.history


def test_is_legal_agrees_with_legal_moves(engine):
    game = played(engine, seed=8, moves=5, rules=engine.Rules.easy())
    legal = game.legal_moves()
    for m in legal:
        assert game.is_legal(m)
    assert not game.is_legal(engine.Move.fill(0, 1, index=40))


def test_history_and_undo(engine):
    game = engine.Game.from_seed(21)
    positions, moves = [game.to_str()], []
    for _ in range(25):
        legal = game.legal_moves()
        if not legal:
            break
        move = legal[len(legal) // 2]
        game.play(move)
        moves.append(move)
        positions.append(game.to_str())
        assert game.history == tuple(moves)
    while moves:
        assert game.undo() == moves.pop()
        positions.pop()
        assert game.to_str() == positions[-1]
        assert game.history == tuple(moves)
    assert game == engine.Game.from_seed(21)
    with pytest.raises(errors.UndoError):
        game.undo()


def test_undo_restores_a_discard_and_a_deal(engine):
    game = engine.Game.from_str(position([["7s"], ["Js"], ["3d", "5h"], ["Ac"]]))
    start = game.to_str()
    game.play("d0")
    game.play("deal")
    assert game.undo() == engine.Move.deal()
    assert game.undo() == engine.Move.discard(0)
    assert game.to_str() == start


def test_game_over_has_no_moves(engine):
    game = played(engine, seed=4, moves=10_000)
    assert game.is_over and game.legal_moves() == []
    assert game.is_won == (game.score == 48)


# --- copies, ==, pickle, repr -------------------------------------------------------------


@pytest.mark.parametrize("how", ["copy", "copy.copy", "copy.deepcopy", "pickle"])
def test_copies_are_equal_and_independent(engine, how):
    game = played(engine, seed=30, moves=9, rules=engine.Rules(fill="any", deal="stuck"))
    dup = {
        "copy": lambda g: g.copy(),
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }[how](game)
    assert type(dup) is type(game)
    assert dup == game and dup.to_str() == game.to_str()
    assert dup.history == game.history and dup.rules == game.rules
    before, history = game.to_str(), game.history
    dup.play(dup.legal_moves()[-1])
    assert game.to_str() == before and dup != game
    dup.undo()
    assert dup.undo() == history[-1]  # the copy kept the history
    assert game.to_str() == before and game.history == history
    assert game.undo() == history[-1]
    assert game == dup


def test_equality_ignores_history_and_stream(engine):
    game = played(engine, seed=31, moves=7)
    fresh = engine.Game.from_str(game.to_str())
    assert fresh == game and fresh.history == () and game.history != ()
    fresh.randbelow(1000)
    assert fresh == game


def test_equality_compares_rules(engine):
    a = engine.Game.from_seed(1)
    b = engine.Game.from_seed(1, engine.Rules.easy())
    assert a != b and not a == b


def test_equality_compares_positions(engine):
    a = engine.Game.from_seed(1)
    b = engine.Game.from_seed(2)
    assert a != b
    assert a != a.to_str() and a != None  # noqa: E711


def test_game_is_unhashable(engine):
    with pytest.raises(TypeError):
        hash(engine.Game.from_seed(1))


def test_game_repr_evaluates_back(engine):
    for options in RULE_OPTIONS[::5]:
        game = played(engine, seed=11, moves=6, rules=engine.Rules(**options))
        assert repr(game) == f"Game.from_str('{game.to_str()}')"
        assert eval(repr(game), {"Game": engine.Game}) == game


def test_to_str_round_trip(engine):
    for seed in range(5):
        game = played(engine, seed=seed, moves=20, rules=engine.Rules(**RULE_OPTIONS[seed * 3]))
        again = engine.Game.from_str(game.to_str())
        assert again == game and again.to_str() == game.to_str()
        assert again.legal_moves() == game.legal_moves()


def test_to_str_has_the_four_fields(engine):
    game = played(engine, seed=12, moves=8)
    piles, stock, discards, rules = game.to_str().split(" ")
    assert piles.split("/") == ["".join(str(c) for c in p) or "-" for p in game.piles]
    assert stock == ("".join(str(c) for c in game.stock) or "-")
    assert discards == ("".join(str(c) for c in game.discards) or "-")
    assert rules == STANDARD_TEXT == str(game.rules)


# --- Move ---------------------------------------------------------------------------------


def test_move_attributes(engine):
    M = engine.Move
    d = M.discard(2)
    assert (d.kind, d.pile, d.src, d.dst, d.index) == ("discard", 2, None, None, None)
    f = M.fill(2, 0, index=3)
    assert (f.kind, f.pile, f.src, f.dst, f.index) == ("fill", None, 2, 0, 3)
    f0 = M.fill(1, 3)
    assert (f0.kind, f0.src, f0.dst, f0.index) == ("fill", 1, 3, 0)
    deal = M.deal()
    assert (deal.kind, deal.pile, deal.src, deal.dst, deal.index) == ("deal", None, None, None, None)


@pytest.mark.parametrize(
    "make, text, rep",
    [
        (lambda M: M.discard(2), "d2", "Move.discard(2)"),
        (lambda M: M.fill(2, 0), "f2>0", "Move.fill(2, 0)"),
        (lambda M: M.fill(2, 0, index=0), "f2>0", "Move.fill(2, 0)"),
        (lambda M: M.fill(2, 0, index=3), "f2:3>0", "Move.fill(2, 0, index=3)"),
        (lambda M: M.deal(), "deal", "Move.deal()"),
    ],
)
def test_move_text_and_repr(engine, make, text, rep):
    move = make(engine.Move)
    assert str(move) == text
    assert repr(move) == rep
    assert eval(rep, {"Move": engine.Move}) == move
    assert engine.Move.parse(text) == move


def test_move_value_semantics(engine):
    M = engine.Move
    assert M.fill(1, 2) == M.fill(1, 2, index=0) and hash(M.fill(1, 2)) == hash(M.fill(1, 2, index=0))
    assert M.discard(1) != M.discard(2) and M.fill(1, 2) != M.fill(2, 1)
    assert len({M.discard(0), M.discard(0), M.deal(), M.deal(), M.fill(0, 1)}) == 3
    for m in (M.discard(3), M.fill(3, 1, index=4), M.deal()):
        assert pickle.loads(pickle.dumps(m)) == m
        assert copy.deepcopy(m) == m
    with pytest.raises((AttributeError, TypeError)):
        M.discard(1).pile = 2


def test_move_indices_are_below_2_64(engine):
    message = "index must be a non-negative int below 2\\*\\*64, got 18446744073709551616"
    with pytest.raises(errors.MoveError, match=message):
        engine.Move.fill(0, 1, 2**64)
    with pytest.raises(errors.MoveError, match=message):
        engine.Move.parse("f2:18446744073709551616>0")
    assert engine.Move.fill(0, 1, 2**64 - 1).index == 2**64 - 1


# --- Rules ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", RULE_OPTIONS, ids=lambda o: rules_text(**o))
def test_rules_text_repr_pickle(engine, options):
    rules = engine.Rules(**options)
    assert str(rules) == rules_text(**options)
    assert engine.Rules.parse(str(rules)) == rules
    assert eval(repr(rules), {"Rules": engine.Rules}) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert hash(engine.Rules.parse(str(rules))) == hash(rules)
    defaults = dict(fill="top", deal="free", relocate_single=False, ace_high=True)
    shown = ", ".join(f"{k}={v!r}" for k, v in options.items() if v != defaults[k])
    assert repr(rules) == f"Rules({shown})"


def test_rules_repr_examples(engine):
    assert repr(engine.Rules()) == "Rules()"
    assert repr(engine.Rules(fill="ace", deal="stuck")) == "Rules(fill='ace', deal='stuck')"


# --- values of one engine given to the other ----------------------------------------


def test_the_other_engines_move_rules_and_cards_are_taken_by_their_text(engine):
    other = other_engine(engine)
    game = engine.Game.from_seed(5)
    move = game.legal_moves()[0]
    assert game.is_legal(other.Move.parse(str(move)))
    game.play(other.Move.parse(str(move)))
    assert game.history == (move,)
    rules = other.Rules(fill="any", piles=5)
    assert engine.Game.from_seed(5, rules).rules == engine.Rules(fill="any", piles=5)
    deck = [other.Card(str(card)) for card in engine.deck_from_seed(9)]
    assert engine.Game.from_deck(deck) == engine.Game.from_seed(9)


# --- threads ---------------------------------------------------------------------------


def test_threads_sharing_one_game_never_corrupt_it(engine):
    """Eight threads playing, undoing, listing and copying one Game leave a game
    whose history replays to its position, holding every card once; each call
    sees the game whole (the native Mutex, the reference's lock)."""
    import sys
    import threading

    game = engine.Game.from_seed(11)
    failures = []

    def hammer(worker):
        try:
            for step in range(300):
                legal = game.legal_moves()
                if legal and (step + worker) % 3:
                    try:
                        game.play(legal[-1])
                    except errors.IllegalMoveError:
                        pass  # another thread moved first: legal, and the game is unchanged
                else:
                    try:
                        game.undo()
                    except errors.UndoError:
                        pass
                dup = game.copy()
                cards = sum(map(len, dup.piles)) + len(dup.stock) + len(dup.discards)
                if cards != 52:
                    failures.append(f"a copy holds {cards} cards")
        except Exception as exc:  # noqa: BLE001 - any other error is the corruption this test looks for
            failures.append(repr(exc))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, to meet every race
    try:
        threads = [threading.Thread(target=hammer, args=(worker,)) for worker in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    replay = engine.Game.from_seed(11)
    for move in game.history:
        replay.play(move)
    assert replay == game and replay.to_str() == game.to_str()
