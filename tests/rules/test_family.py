"""The game's family (RULES.md R1.4, R2.3, R4, R5-R7): five piles, smaller decks,
``deal="any"`` and ``deal_to="empty"``, in both engines.

The properties draw their rules from ``family_rules``, every combination of the
eight options. Tests that need a second engine compare the engine of the fixture
with the reference, so ``-k native`` is the real cross-check (lockstep play, the
same errors for fuzzed input, the same solver verdicts) and ``-k reference``
checks the reference against a fresh run of itself.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import acesup.errors as errors
from acesup.reference import rules as rulebook
from acesup.reference.position import Position
from helpers import (
    family_rules,
    family_wellformed_moves,
    full_paths,
    layout_cards,
    load_engine,
    paths,
    play_in_lockstep,
    seeds,
    small_family_rules,
    stock_lengths,
    walk,
    win_score,
)

STANDARD_TEXT = "fill=top,deal=free,relocate_single=false,ace_high=true"


@pytest.fixture(scope="module")
def ref():
    return load_engine("reference")


def top_rank_char(options):
    return "A" if options["ace_high"] else "K"


def cards_of(game):
    return [str(c) for p in game.piles for c in p] + [str(c) for c in game.stock] + [str(c) for c in game.discards]


def game_of(engine, seed, options):
    return engine.Game.from_seed(seed, engine.Rules(**options))


# --- Rules: the options, the text, the layout ------------------------------------------


@given(options=family_rules)
def test_rules_of_the_family_are_values(engine, options):
    rules = engine.Rules(**options)
    for name, value in options.items():
        assert getattr(rules, name) == value
    assert engine.Rules.parse(str(rules)) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules and hash(copy.copy(rules)) == hash(rules)
    assert eval(repr(rules), {"Rules": engine.Rules}) == rules
    assert rules.deck_size() == options["suits"] * options["ranks"]
    assert rules.win_score() == win_score(options)
    assert [str(c) for c in rules.deck()] == layout_cards(options)
    # R6.4: the four classic options always, then the others only when not default.
    text = str(rules)
    items = text.split(",")
    assert [item.split("=")[0] for item in items[:4]] == ["fill", "deal", "relocate_single", "ace_high"]
    defaults = {"piles": 4, "suits": 4, "ranks": 13, "deal_to": "all"}
    expected = [f"{name}={options[name]}" for name in defaults if options[name] != defaults[name]]
    assert items[4:] == expected


def test_rules_text_of_the_r6_4_example(engine):
    rules = engine.Rules(piles=5, ranks=6)
    assert str(rules) == STANDARD_TEXT + ",piles=5,ranks=6"
    assert str(engine.Rules()) == STANDARD_TEXT
    assert engine.Rules.parse("ranks=6, PILES = 5") == rules
    assert engine.Rules.parse("easy,deal=any,deal_to=empty,suits=2") == engine.Rules(
        fill="any", deal="any", deal_to="empty", suits=2)
    assert repr(engine.Rules(piles=5, deal_to="empty")) == "Rules(piles=5, deal_to='empty')"
    assert engine.Rules().replace(suits=3).suits == 3


def test_presets_of_the_family(engine):
    assert engine.Rules.aces_up_5() == engine.Rules(piles=5) == engine.Rules.preset("aces_up_5")
    assert engine.Rules.russian_aces() == engine.Rules(deal_to="empty") == engine.Rules.preset("russian_aces")
    assert engine.Rules.parse("aces_up_5,deal=any") == engine.Rules(piles=5, deal="any")
    assert engine.Rules.parse("russian_aces") == engine.Rules.russian_aces()
    assert engine.Rules.aces_up_5().win_score() == 48
    assert engine.Rules().deck_size() == 52 and engine.Rules().win_score() == 48


@pytest.mark.parametrize("options, fragments", [
    ({"suits": 0}, ["suits", "0"]),
    ({"suits": 5}, ["suits", "5"]),
    ({"ranks": 1}, ["ranks", "1"]),
    ({"ranks": 14}, ["ranks", "14"]),
    ({"piles": 3}, ["piles", "3"]),
    ({"piles": 6}, ["piles", "6"]),
    ({"piles": True}, ["piles", "True"]),
    ({"suits": 2.0}, ["suits", "2.0"]),
    ({"ranks": "5"}, ["ranks", "'5'"]),
    ({"ranks": None}, ["ranks", "None"]),
    ({"deal": "sometimes"}, ["deal", "sometimes"]),
    ({"deal_to": "some"}, ["deal_to", "some"]),
    ({"deal_to": 1}, ["deal_to"]),
    ({"suits": 1, "ranks": 3}, ["3", "4"]),  # R1.4: 3 cards, fewer than the 4 piles
    ({"suits": 1, "ranks": 4, "piles": 5}, ["4", "5"]),
    ({"suits": 2, "ranks": 2, "piles": 5}, ["4", "5"]),
])
def test_bad_layouts_raise_rules_error(engine, options, fragments):
    with pytest.raises(errors.RulesError) as info:
        engine.Rules(**options)
    for fragment in fragments:
        assert fragment in str(info.value)


@pytest.mark.parametrize("text, fragment", [
    ("piles=3", "piles"), ("suits=x", "suits"), ("ranks=1.5", "ranks"), ("ranks=-2", "ranks"),
    ("suits=1,ranks=3", "3"), ("deal_to=none", "deal_to"), ("deal=any,deal=free", "twice"),
    ("piles=", "piles"), ("ranks=99999999999999999999", "ranks"),
])
def test_bad_layout_texts_raise_rules_error(engine, text, fragment):
    with pytest.raises(errors.RulesError) as info:
        engine.Rules.parse(text)
    assert fragment in str(info.value)


def test_smallest_layouts_are_defined(engine):
    for options in ({"suits": 1, "ranks": 4}, {"suits": 2, "ranks": 2}, {"suits": 1, "ranks": 5, "piles": 5}):
        rules = engine.Rules(**options)
        assert rules.deck_size() >= rules.piles


# --- RULES.md worked examples --------------------------------------------------------------


def test_r1_4_layout_examples(engine):
    rules = engine.Rules(suits=4, ranks=3)
    assert " ".join(map(str, rules.deck())) == "Qc Kc Ac Qd Kd Ad Qh Kh Ah Qs Ks As"
    game = engine.Game.from_seed(1, rules)
    assert [len(p) for p in game.piles] == [1, 1, 1, 1] and len(game.stock) == 8
    assert {str(c)[1] for c in engine.Rules(suits=2).deck()} == {"c", "d"}
    assert {str(c)[0] for c in engine.Rules(ranks=5).deck()} == set("TJQKA")
    assert {str(c)[0] for c in engine.Rules(ranks=5, ace_high=False).deck()} == set("9TJQK")
    five = engine.Game.from_seed(1, engine.Rules(piles=5))
    assert len(five.piles) == 5 and len(five.stock) == 47


def test_r2_3_deal_to_examples(engine):
    # Piles [7s] [] [3d 5h] [], the stock 9c Jd 2h 4c and then 12 more cards.
    rest = [c for c in layout_cards({}) if c not in ("7s", "3d", "5h", "9c", "Jd", "2h", "4c")]
    high = [c for c in rest if c[0] in "AK"]
    low = [c for c in rest if c[0] not in "AK"]
    stock = ["9c", "Jd", "2h", "4c"] + high + low[:4]  # 16 cards: a length that a deal leaves
    for deal_to, expected, dealt in (("all", "7s9c/Jd/3d5h2h/4c", 4), ("empty", "7s/9c/3d5h/Jd", 2)):
        text = f"7s/-/3d5h/- {''.join(stock)} {''.join(low[4:])} {engine.Rules(deal_to=deal_to)}"
        game = engine.Game.from_str(text)
        game.play("deal")
        assert "/".join("".join(map(str, p)) or "-" for p in game.piles) == expected
        assert [str(c) for c in game.stock] == stock[dealt:]
        game.undo()
        assert game.to_str() == text


def test_r2_3_partial_deal_of_five_piles(engine):
    rules = engine.Rules(piles=5)
    game = engine.Game.from_seed(3, rules)
    stocks = [len(game.stock)]
    while game.stock:
        for move in game.legal_moves():
            if move.kind == "deal":
                break
        else:
            move = game.legal_moves()[0]
        before = [len(p) for p in game.piles]
        left = len(game.stock)
        game.play(move)
        if move.kind == "deal":
            grown = [p for p in range(5) if len(game.piles[p]) == before[p] + 1]
            assert grown == list(range(min(5, left)))
            stocks.append(len(game.stock))
    assert stocks == [47, 42, 37, 32, 27, 22, 17, 12, 7, 2, 0]


def test_r2_3_a_stock_of_two_goes_to_piles_0_and_1(engine):
    rules = engine.Rules(piles=5)
    discards = "".join(c for c in layout_cards({}) if c[0] != "A" and c not in ("2c", "3c"))
    game = engine.Game.from_str(f"Ac/Ad/Ah/As/- 2c3c {discards} {rules}")
    game.play("deal")
    assert game.to_str() == f"Ac2c/Ad3c/Ah/As/- - {discards} {rules}"


def test_r2_3_deal_any_example(engine):
    # Top cards 7s Js 5h Ac: 7s must be discarded first, except under deal="any".
    rest = [c for c in layout_cards({}) if c not in ("7s", "Js", "5h", "Ac")]
    text = f"7s/Js/5h/Ac {''.join(rest)} - "
    for deal, legal in (("free", False), ("stuck", False), ("any", True)):
        rules = engine.Rules(deal=deal)
        game = engine.Game.from_str(text + str(rules))
        assert game.is_legal("deal") == legal
        assert ("deal" in map(str, game.legal_moves())) == legal
        if not legal:
            with pytest.raises(errors.IllegalMoveError) as info:
                game.play("deal")
            assert str(info.value) == "cannot deal: pile 0 must be discarded first"


def test_r4_2_win_examples(engine):
    rules = engine.Rules(suits=4, ranks=3)
    won = engine.Game.from_str(f"Ac/Ad/Ah/As - QcKcQdKdQhKhQsKs {rules}")
    assert won.is_over and won.is_won and won.score == 8 == rules.win_score()
    rules = engine.Rules(suits=2, ranks=5, piles=5)
    won = engine.Game.from_str(f"Ac/-/Ad/-/- - TcJcQcKcTdJdQdKd {rules}")
    assert won.is_won and won.score == 8 and sum(1 for p in won.piles if not p) == 3
    # Two top-rank cards in one pile: another pile is empty, so a fill is legal.
    stacked = engine.Game.from_str(f"AcAd/-/-/-/- - TcJcQcKcTdJdQdKd {rules}")
    assert not stacked.is_over and not stacked.is_won
    stacked.play("f0>1")
    assert stacked.is_won


@pytest.mark.parametrize("options", [{"piles": 5}, {"piles": 5, "suits": 3, "ranks": 7}, {"suits": 2, "ranks": 6},
                                     {"deal_to": "empty"}, {"deal_to": "empty", "suits": 1, "ranks": 9}])
def test_r6_5_stock_lengths(engine, options):
    """Every stock length from 0 to D - 1 with one top-rank card on pile 0: the
    lengths a deal can leave load, the others raise PositionError naming the length."""
    rules = engine.Rules(**options)
    deck = layout_cards(options)
    high = [c for c in deck if c[0] == "A"]
    rest = high[1:] + [c for c in deck if c[0] != "A"]
    piles = "/".join([high[0]] + ["-"] * (rules.piles - 1))
    for length in range(len(high) - 1, len(rest) + 1):  # the other aces stay in the stock
        stock, discards = "".join(rest[:length]) or "-", "".join(rest[length:]) or "-"
        text = f"{piles} {stock} {discards} {rules}"
        if length in stock_lengths(options):
            assert engine.Game.from_str(text).to_str() == text
        else:
            with pytest.raises(errors.PositionError) as info:
                engine.Game.from_str(text)
            assert str(length) in str(info.value)


def test_r6_5_five_pile_lengths(engine):
    assert stock_lengths({"piles": 5}) == {47, 42, 37, 32, 27, 22, 17, 12, 7, 2, 0}
    text = engine.Game.from_seed(0, engine.Rules(piles=5)).to_str()
    piles, rest = text.split(" ", 1)
    assert len(piles.split("/")) == 5
    four = piles.rsplit("/", 1)[0] + piles.rsplit("/", 1)[1]  # piles 3 and 4 joined
    with pytest.raises(errors.PositionError) as info:
        engine.Game.from_str(f"{four} {rest}")
    assert "5" in str(info.value) and "4" in str(info.value)


@pytest.mark.parametrize("move, message", [
    ("d4", "there is no pile 4: these rules have 4 piles"),
    ("f4>0", "there is no pile 4: these rules have 4 piles"),
    ("f0>4", "there is no pile 4: these rules have 4 piles"),
    ("f4:3>1", "there is no pile 4: these rules have 4 piles"),
])
def test_r7_check_0(engine, move, message):
    game = engine.Game.from_seed(5)
    before = game.to_str()
    assert not game.is_legal(move)
    with pytest.raises(errors.IllegalMoveError) as info:
        game.play(move)
    assert str(info.value) == message
    assert game.to_str() == before and game.history == ()


def test_pile_4_is_a_pile_of_five(engine):
    discards = "".join(c for c in layout_cards({}) if c[0] != "A" and c not in ("Ks", "2s", "Qh"))
    five = engine.Rules(piles=5)
    game = engine.Game.from_str(f"Ac/Ad/AhQh/As/Ks2s - {discards} {five}")
    assert [str(m) for m in game.legal_moves()] == ["d4"]
    game.play("d4")
    assert [str(m) for m in game.legal_moves()] == ["d4"]  # Ks is below As of pile 3
    game.play("d4")
    assert [str(m) for m in game.legal_moves()] == ["f2>4"]
    game.play("f2>4")
    assert [str(m) for m in game.legal_moves()] == ["d4"]  # Qh, now alone on pile 4, below Ah
    game.play("d4")
    assert game.is_won and game.score == 48 and game.piles[4] == ()


def test_deck_from_seed_of_a_layout(engine):
    rules = engine.Rules(suits=4, ranks=3)
    rng = engine.Rng(9)
    expected = list(layout_cards({"suits": 4, "ranks": 3}))
    for i in range(len(expected) - 1, 0, -1):
        j = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert [str(c) for c in engine.deck_from_seed(9, rules)] == expected
    game = engine.Game.from_seed(9, rules)
    assert cards_of(game) == expected
    # The strategy stream continues after 11 draws.
    after = engine.Rng(9)
    for i in range(11, 0, -1):
        after.below(i + 1)
    assert game.randbelow(2**63) == after.below(2**63)


@given(seed=seeds)
def test_the_standard_deck_is_unchanged(engine, seed):
    assert engine.deck_from_seed(seed) == engine.deck_from_seed(seed, engine.Rules())
    assert engine.deck_from_seed(seed) == engine.deck_from_seed(seed, engine.Rules(piles=5, deal_to="empty"))


def test_from_deck_of_a_layout(engine):
    rules = engine.Rules(suits=2, ranks=4)
    deck = layout_cards({"suits": 2, "ranks": 4})
    game = engine.Game.from_deck(" ".join(reversed(deck)), rules)
    assert cards_of(game) == list(reversed(deck))
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(layout_cards({}), rules)  # the 52 cards
    assert "52" in str(info.value) or "2c" in str(info.value)
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck[:-1] + ["2c"], rules)  # a stray card
    assert "2c" in str(info.value)
    with pytest.raises(errors.DeckError) as info:
        engine.Game.from_deck(deck[:-1], rules)  # one short
    assert str(len(deck) - 1) in str(info.value)


# --- properties over the whole family -----------------------------------------------------


@given(seed=seeds, options=family_rules, path=paths)
def test_family_cards_are_conserved(engine, seed, options, path):
    game = game_of(engine, seed, options)
    deck = sorted(layout_cards(options))
    lengths = stock_lengths(options)
    top = top_rank_char(options)
    assert len(game.piles) == options["piles"]
    for _ in walk(game, path):
        assert sorted(cards_of(game)) == deck
        assert len(game.stock) in lengths
        assert top not in {str(c)[0] for c in game.discards}
    assert sorted(cards_of(game)) == deck
    assert 0 <= game.score <= win_score(options)


@given(seed=seeds, options=family_rules, path=paths)
def test_family_legal_moves_play_and_every_other_move_is_refused(engine, seed, options, path):
    game = game_of(engine, seed, options)
    for _ in walk(game, path):
        check_every_move(engine, game)
    check_every_move(engine, game)


def check_every_move(engine, game):
    legal = game.legal_moves()
    assert legal == sorted(legal) and len(set(legal)) == len(legal)
    assert game.is_over == (legal == [])
    before = game.to_str()
    for move in legal:
        trial = game.copy()
        trial.play(move)
        assert trial.undo() == move and trial.to_str() == before
    wellformed = family_wellformed_moves(engine, game)
    assert set(legal) <= set(wellformed)
    piles = len(game.piles)
    for move in wellformed:
        if move in legal:
            continue
        assert not game.is_legal(move)
        with pytest.raises(errors.IllegalMoveError) as info:
            game.play(move)
        named = [move.pile] if move.kind == "discard" else [move.src, move.dst] if move.kind == "fill" else []
        missing = [p for p in named if p >= piles]
        if missing:
            assert str(info.value) == f"there is no pile {missing[0]}: these rules have {piles} piles"
        assert game.to_str() == before


@given(seed=seeds, options=family_rules, path=paths)
def test_family_deals_go_where_r2_3_says(engine, seed, options, path):
    game = game_of(engine, seed, options)
    for move in walk(game, path):
        if move.kind != "deal":
            continue
        before = [len(p) for p in game.piles]
        stock = [str(c) for c in game.stock]
        after = game.copy()
        after.play(move)
        empty = [p for p, h in enumerate(before) if h == 0]
        targets = empty if options["deal_to"] == "empty" and empty else list(range(options["piles"]))
        targets = targets[: len(stock)]
        assert [str(after.piles[p][-1]) for p in targets] == stock[: len(targets)]
        assert [len(p) for p in after.piles] == [h + (p in targets) for p, h in enumerate(before)]
        assert [str(c) for c in after.stock] == stock[len(targets):]


@given(seed=seeds, options=family_rules, path=paths)
def test_family_deal_is_legal_as_r2_3_says(engine, seed, options, path):
    game = game_of(engine, seed, options)
    for _ in walk(game, path):
        moves = game.legal_moves()
        kinds = {m.kind for m in moves}
        dealable = game.is_legal("deal")
        if not game.stock:
            assert not dealable
        elif options["deal"] == "any":
            assert dealable
        elif "discard" in kinds:
            assert not dealable


@given(seed=seeds, options=family_rules, path=paths)
def test_family_undo_restores_every_position(engine, seed, options, path):
    game = game_of(engine, seed, options)
    positions = []
    for _ in walk(game, path):
        positions.append(game.to_str())
    for k in reversed(range(len(positions))):
        game.undo()
        assert game.to_str() == positions[k]
    with pytest.raises(errors.UndoError):
        game.undo()


@given(seed=seeds, options=family_rules.filter(lambda o: not o["relocate_single"]), path=full_paths)
def test_family_games_terminate_within_the_r4_3_bound(engine, seed, options, path):
    game = game_of(engine, seed, options)
    fills_since = 0
    for move in walk(game, path):
        fills_since = fills_since + 1 if move.kind == "fill" else 0
        assert fills_since <= options["piles"] - 1
    assert game.is_over
    kinds = [m.kind for m in game.history]
    deck = options["suits"] * options["ranks"]
    assert kinds.count("discard") <= win_score(options)
    assert kinds.count("deal") <= deck - options["piles"]
    if options["deal_to"] == "all":
        assert kinds.count("deal") <= -(-(deck - options["piles"]) // options["piles"])


@given(seed=seeds, options=family_rules, path=full_paths)
def test_family_over_and_won(engine, seed, options, path):
    game = game_of(engine, seed, options)
    for _ in walk(game, path):
        assert not game.is_won
    assert game.is_won == (game.is_over and game.score == win_score(options))
    if game.is_won:
        left = [p for p in game.piles if p]
        assert len(left) == options["suits"] and all(len(p) == 1 for p in left)
        assert {str(p[0])[0] for p in left} == {top_rank_char(options)}


@given(seed=seeds, options=family_rules, path=paths)
def test_family_text_and_pickle_round_trips(engine, seed, options, path):
    game = game_of(engine, seed, options)
    rules = game.rules
    dealt = engine.Game.from_deck(engine.deck_from_seed(seed, rules), rules)
    assert dealt.to_str() == game.to_str()
    assert engine.Game.from_deck(" ".join(map(str, engine.deck_from_seed(seed, rules))), rules) == dealt
    for _ in walk(game, path):
        pass
    text = game.to_str()
    assert engine.Game.from_str(text).to_str() == text
    assert eval(repr(game), {"Game": engine.Game}).to_str() == text
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded == game and loaded.history == game.history
    assert loaded.randbelow(1000) == game.copy().randbelow(1000)
    if game.history:
        loaded.undo()
        game.undo()
        assert loaded.to_str() == game.to_str()
    tableau = str(game).split("\n")
    assert tableau[-1] == f"stock {len(game.stock)}  discards {len(game.discards)}"


# --- strategies, simulate, solvability, compare on every layout ----------------------------

BUILTINS = ("random", "noop", "simple", "greedy", "lookahead", "montecarlo:playouts=2")


@settings(max_examples=25)
@given(options=family_rules, seed=seeds, name=st.sampled_from(BUILTINS))
def test_builtin_strategies_play_every_layout(engine, options, seed, name):
    rules = engine.Rules(**options)
    stats = engine.simulate(2, name, rules, seed=seed % 2**32, scores=True)
    assert stats.games == 2 and len(stats.histogram) == rules.win_score() + 1
    assert all(0 <= s <= rules.win_score() for s in stats.scores.tolist())
    chooser = engine.strategy(name)
    game = engine.Game.from_seed(seed, rules)
    while not game.is_over:
        move = chooser(game)
        assert game.is_legal(move)
        game.play(move)
    assert chooser(game) is None


def test_stats_of_a_layout(engine):
    rules = engine.Rules(suits=2, ranks=5)
    stats = engine.simulate(30, "greedy", rules, seed=4, scores=True)
    assert len(stats.histogram) == 9 and stats.wins == stats.histogram[8]
    assert stats.wins == sum(1 for s in stats.scores.tolist() if s == 8)
    assert stats + engine.Stats.empty() == stats and engine.Stats.empty() + stats == stats
    assert sum([stats, stats], engine.Stats.empty()).games == 60
    standard = engine.simulate(3, "greedy", seed=4)
    with pytest.raises(ValueError):
        stats + standard
    with pytest.raises(ValueError):
        engine.Stats([0] * 48)  # no layout has win score 47
    assert engine.Stats([0] * 8 + [3]).wins == 3


def test_solvability_and_compare_on_layouts(engine):
    for rules in (engine.Rules(suits=4, ranks=3), engine.Rules(suits=2, ranks=4, piles=5, deal_to="empty"),
                  engine.Rules(suits=3, ranks=3, deal="any")):
        result = engine.solvability(10, rules, seed=2)
        assert result.games == 10 and result.unresolved == 0
        verdicts = [engine.solve(engine.Game.from_seed(engine.game_seed(2, i), rules)).winnable for i in range(10)]
        assert result.winnable == verdicts.count(True)
        comparison = engine.compare(["greedy", "random"], 20, rules, seed=3)
        stats = comparison.stats["greedy"]
        won_only = sum(1 for a, b in zip(stats.scores.tolist(), comparison.stats["random"].scores.tolist())
                       if a == rules.win_score() and b != rules.win_score())
        assert comparison.pairs[0].wins_a_only == won_only
    one = engine.compare(["greedy"], 1, engine.Rules(suits=2, ranks=5))
    assert one.stats["greedy"].games == 1
    small = engine.simulate(5, "greedy", engine.Rules(suits=2, ranks=5), scores=True)
    standard = engine.simulate(5, "greedy", scores=True)
    with pytest.raises(ValueError):
        engine.Comparison.from_stats({"small": small, "standard": standard})
    pair = engine.Comparison.from_stats({"a": small, "b": small}).pairs[0]
    assert pair.wins_a_only == pair.wins_b_only == 0
    # Knowing nothing of one game, the mean score difference is anywhere within the win score.
    one_game = {name: engine.simulate(1, name, engine.Rules(suits=2, ranks=5), scores=True) for name in ("noop", "greedy")}
    assert engine.Comparison.from_stats(one_game).pairs[0].mean_score_ci95 == (-8.0, 8.0)


# --- the solvers and the winning lines ------------------------------------------------------


def replays_to_a_win(ref, text, moves):
    game = ref.Game.from_str(text)
    for move in moves:
        game.play(str(move))
    return game.is_won


@settings(max_examples=40)
@given(options=small_family_rules, seed=seeds)
def test_family_solver_agrees_with_the_plain_solver(engine, ref, options, seed):
    """On whole deals of the small layouts, under every option, the engine's solver
    gives the reference solver's verdict, and every winning line replays to a win."""
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    text = game.to_str()
    expected = ref.solve(ref.Game.from_str(text), node_limit=200_000)
    found = engine.solve(game)
    assert found.winnable is not None
    if expected.winnable is not None:
        assert found.winnable == expected.winnable, text
    for solution in (found, expected):
        if solution.winnable:
            assert replays_to_a_win(ref, text, solution.moves), (text, solution)
        else:
            assert solution.moves == ()


@settings(max_examples=25)
@given(options=family_rules, seed=seeds, walk_seed=st.integers(0, 2**32))
def test_family_winning_lines_replay_late_in_any_layout(engine, ref, options, seed, walk_seed):
    """Late positions (one or two deals left) of any layout: the engine's verdict
    is the reference's, and its winning line wins in the reference."""
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    rnd = random.Random(walk_seed)
    while len(game.stock) > 2 * options["piles"] and not game.is_over:
        moves = game.legal_moves()
        game.play(moves[rnd.randrange(len(moves))])
    text = game.to_str()
    found = engine.solve(game, node_limit=300_000)
    expected = ref.solve(ref.Game.from_str(text), node_limit=300_000)
    if found.winnable is not None and expected.winnable is not None:
        assert found.winnable == expected.winnable, text
    if found.winnable:
        assert replays_to_a_win(ref, text, found.moves), (text, found)


# --- the engine against the reference, in lockstep -------------------------------------------


@given(seed=seeds, options=family_rules, path=paths)
def test_family_lockstep_with_pure_python(engine, ref, seed, options, path):
    a = engine.Game.from_seed(seed, engine.Rules(**options))
    b = ref.Game.from_seed(seed, ref.Rules(**options))
    play_in_lockstep(engine, a, ref, b, path, family_wellformed_moves)


@pytest.mark.parametrize("name", ["random", "greedy", "lookahead"])
@pytest.mark.parametrize("rules", ["aces_up_5", "russian_aces", "suits=2,ranks=7,deal=any", "piles=5,suits=3,ranks=5,fill=any",
                                   "reverse,ranks=4,deal_to=empty,relocate_single=true"])
def test_family_simulate_agrees_with_pure_python(engine, ref, name, rules):
    a = engine.simulate(40, name, engine.Rules.parse(rules), seed=6, scores=True)
    b = ref.simulate(40, name, ref.Rules.parse(rules), seed=6, scores=True)
    assert a.histogram == b.histogram and bytes(a.scores) == bytes(b.scores)


# --- fuzzed input: the engine fails as the reference does -----------------------------------

FAMILY_TEXT = st.lists(st.sampled_from(["piles=", "suits=", "ranks=", "deal_to=", "deal=", "fill=", "aces_up_5",
                                        "russian_aces", "any", "empty", "all", "0", "1", "2", "3", "4", "5",
                                        "13", "14", "04", "+4", " ", ","]), max_size=12).map("".join)


def fails_alike(engine, ref, call):
    def result(module):
        try:
            return ("ok", str(call(module)))
        except Exception as error:  # noqa: BLE001 - the type is what is compared
            return ("error", type(error))
    assert result(engine) == result(ref)


@given(text=st.one_of(FAMILY_TEXT, st.text(max_size=30)))
def test_family_rules_text_fuzz(engine, ref, text):
    fails_alike(engine, ref, lambda m: m.Rules.parse(text))


@given(options=st.fixed_dictionaries({}, optional={
    "piles": st.one_of(st.integers(-2, 7), st.booleans(), st.floats(3, 6), st.text(max_size=2)),
    "suits": st.one_of(st.integers(-1, 6), st.booleans(), st.none()),
    "ranks": st.one_of(st.integers(0, 15), st.floats(0, 15)),
    "deal_to": st.one_of(st.sampled_from(["all", "empty", "none", "ALL"]), st.integers(0, 2)),
    "deal": st.sampled_from(["free", "stuck", "any", "never"]),
}))
def test_family_rules_arguments_fuzz(engine, ref, options):
    fails_alike(engine, ref, lambda m: m.Rules(**options))


@given(seed=seeds, options=family_rules, data=st.data())
def test_family_position_text_fuzz(engine, ref, seed, options, data):
    """A position of a layout with one character changed loads alike or fails alike."""
    text = ref.Game.from_seed(seed, ref.Rules(**options)).to_str()
    i = data.draw(st.integers(0, len(text) - 1))
    corrupt = text[:i] + data.draw(st.sampled_from("-/ 2AKcs5,=")) + text[i + 1:]
    fails_alike(engine, ref, lambda m: m.Game.from_str(corrupt).to_str())


@given(seed=seeds, options=family_rules, cut=st.integers(0, 60))
def test_family_deck_fuzz(engine, ref, seed, options, cut):
    deck = [str(c) for c in ref.deck_from_seed(seed, ref.Rules(**options))]
    fails_alike(engine, ref, lambda m: m.Game.from_deck(deck[:cut] + deck[cut + 1:], m.Rules(**options)).to_str())
    fails_alike(engine, ref, lambda m: m.Game.from_deck(deck + ["As"], m.Rules(**options)).to_str())


@given(counts=st.lists(st.integers(0, 3), max_size=52))
def test_family_stats_length_fuzz(engine, ref, counts):
    fails_alike(engine, ref, lambda m: m.Stats(counts))


# --- the reference's rule functions, each against the moves they decide ------------------


@given(seed=seeds, options=family_rules, path=paths)
def test_reference_rule_functions_agree_with_legal_moves(ref, seed, options, path):
    """``discard_mask``, ``fill_choices``, ``can_fill``, ``blocking_fill``,
    ``can_deal``, ``deal_targets``, ``is_over`` and ``is_won`` of
    ``acesup.reference.rules``, each taking the position first, say what
    ``legal_moves`` and playing the deal do."""
    game = ref.Game.from_seed(seed, ref.Rules(**options))
    for _ in walk(game, path):
        pos = Position.from_str(game.to_str())
        legal = rulebook.legal_moves(pos)
        assert legal == game.legal_moves()
        assert rulebook.discard_mask(pos) == sum(1 << m.pile for m in legal if m.kind == "discard")
        for src in range(options["piles"]):
            for dst in range(options["piles"]):
                if src != dst and not pos.piles[dst]:
                    fills = [m.index for m in legal if m.kind == "fill" and (m.src, m.dst) == (src, dst)]
                    assert fills == list(range(rulebook.fill_choices(pos, src)))
                    assert not rulebook.can_fill(pos, src, dst, len(fills))
        blocking = [m for m in legal if m.kind == "fill" and len(pos.piles[m.src]) >= 2]
        assert rulebook.blocking_fill(pos) == (blocking[0] if blocking else None)
        assert rulebook.can_deal(pos) == (ref.Move.deal() in legal)
        assert rulebook.is_over(pos) == game.is_over and rulebook.is_won(pos) == game.is_won
        if pos.stock:
            before = [len(p) for p in pos.piles]
            targets = rulebook.deal_targets(pos)
            assert targets and targets < 1 << options["piles"]
            assert pos.apply(ref.Move.deal()) == targets
            assert [len(p) - h for p, h in zip(pos.piles, before)] == [
                targets >> p & 1 for p in range(options["piles"])]
        else:
            assert rulebook.deal_targets(pos) == 0
