"""PySolFC's Firing Squad: the ``reserve`` option (RULES.md R2.4, R3, R4, R5, R6, R7).

The two engines move by move on random games under rules with a reserve (every
well-formed move, the reserve's included, has the same outcome in both), the text,
undo and pickle round trips, the examples of RULES.md, and the features that refuse
a reserve with the same error in both engines.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import assert_same, load_engine, paths, play_in_lockstep, seeds, walk, wellformed_moves

# Rules with a reserve: every fill and deal rule, both rank orders and a few layouts.
reserve_options = st.fixed_dictionaries({
    "fill": st.sampled_from(("top", "ace", "any")),
    "deal": st.sampled_from(("free", "stuck", "any")),
    "relocate_single": st.booleans(),
    "ace_high": st.booleans(),
    "deal_to": st.sampled_from(("all", "empty")),
    "layout": st.sampled_from(((4, 4, 13), (5, 4, 13), (4, 4, 3), (4, 2, 5), (5, 3, 4))),
}).map(lambda o: {**{k: v for k, v in o.items() if k != "layout"},
                  **dict(zip(("piles", "suits", "ranks"), o["layout"])), "reserve": 1})


def moves_with_reserve(engine, game):
    """Every well-formed move of ``game``: those of the piles, and a move to and
    from the reserve for every pile number 0-4."""
    return (wellformed_moves(engine, game) + [engine.Move.to_reserve(p) for p in range(5)]
            + [engine.Move.from_reserve(p) for p in range(5)])


NATIVE, REF = load_engine("native"), load_engine("reference")


@settings(max_examples=120)
@given(seed=seeds, options=reserve_options, path=paths)
def test_engines_agree_move_by_move(seed, options, path):
    a = NATIVE.Game.from_seed(seed, NATIVE.Rules(**options))
    b = REF.Game.from_seed(seed, REF.Rules(**options))
    play_in_lockstep(NATIVE, a, REF, b, path, moves_with_reserve)


@settings(max_examples=60)
@given(seed=seeds, options=reserve_options, path=paths)
def test_text_undo_and_pickle_round_trip(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    seen = [game.to_str()]
    for _ in walk(game, path):
        pass
    for move in game.history:
        assert engine.Move.parse(str(move)) == move
        assert eval(repr(move), {"Move": engine.Move}) == move  # noqa: S307 - the repr evaluates back
    text = game.to_str()
    assert len(text.split()) == 5
    again = engine.Game.from_str(text)
    assert again.to_str() == text and again.reserve == game.reserve
    assert pickle.loads(pickle.dumps(game)) == game
    while game.history:
        game.undo()
    assert game.to_str() == seen[0]


@settings(max_examples=60)
@given(seed=seeds, options=reserve_options, path=paths)
def test_a_game_ends_won_only_with_the_reserve_empty(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        pass
    win = game.rules.win_score()
    moves = game.legal_moves()
    if game.score == win:  # nothing goes to the reserve once every card that may go is discarded
        assert not any(m.kind == "to_reserve" for m in moves)
    if game.is_won:
        assert game.reserve == () and all(len(pile) <= 1 for pile in game.piles)
    if game.is_over and game.reserve == ():
        assert game.is_won or game.score < win


def test_the_rules_text_and_presets(engine):
    rules = engine.Rules.pysol_firing_squad()
    assert str(rules) == "fill=top,deal=any,relocate_single=true,ace_high=true,reserve=1"
    assert repr(rules) == "Rules(deal='any', relocate_single=True, reserve=1)"
    assert rules == engine.Rules.parse("pysol,reserve=1") == engine.Rules.preset("pysol_firing_squad")
    assert rules.reserve == 1 and engine.Rules().reserve == 0
    assert "pysol_firing_squad" in engine.Rules.PRESETS
    assert pickle.loads(pickle.dumps(rules)) == rules
    for bad in (2, -1, True, "1"):
        with pytest.raises(engine.RulesError, match=r"^reserve must be 0 or 1, got "):
            engine.Rules(reserve=bad)
    with pytest.raises(engine.RulesError, match=r"^reserve must be 0 or 1, got 2$"):
        engine.Rules.parse("reserve=2")


def test_the_moves_of_the_reserve(engine):
    Move = engine.Move
    assert Move.parse(" 2>R ") == Move.to_reserve(2) and str(Move.to_reserve(2)) == "2>r"
    assert Move.parse("r>0") == Move.from_reserve(0) and str(Move.from_reserve(0)) == "r>0"
    assert (Move.to_reserve(3).kind, Move.to_reserve(3).src, Move.to_reserve(3).dst) == ("to_reserve", 3, None)
    assert (Move.from_reserve(1).kind, Move.from_reserve(1).src, Move.from_reserve(1).dst) == ("from_reserve", None, 1)
    # R3 order: discards, fills, to the reserve by pile, from it by pile, the deal.
    ordered = [Move.discard(4), Move.fill(4, 3), Move.to_reserve(0), Move.to_reserve(4), Move.from_reserve(0),
               Move.deal()]
    assert sorted(reversed(ordered)) == ordered
    for text in ("5>r", "r>5", "-1>r", "r>", ">r", "r>r"):
        with pytest.raises(engine.MoveError, match=r"^not a move: "):
            Move.parse(text)


def test_the_example_of_rules_r2_4(engine):
    """RULES.md R2.4's example, move by move to the win."""
    game = engine.Game.from_str("Jc/AcKc/JdAd/Qc - QdKd - "
                                "fill=top,deal=any,relocate_single=true,ace_high=true,suits=2,ranks=4,reserve=1")
    assert [str(m) for m in game.legal_moves()] == ["d0", "d3", "0>r", "1>r", "2>r", "3>r"]
    game.play("1>r")
    assert game.reserve == (engine.Card("Kc"),) and game.to_str().split()[3] == "Kc"
    assert [str(m) for m in game.legal_moves()] == ["d0", "d3"]
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move Ac from pile 1 to the reserve: it holds Kc$"):
        game.play("1>r")
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot discard Ad from pile 2: no higher diamond"):
        game.play("d2")
    game.play("d0")
    game.play("d3")
    assert [str(m) for m in game.legal_moves()] == ["f2>0", "f2>3", "r>0", "r>3"]
    assert str(game) == "--  A♣  J♦  --\n        A♦\nstock 0  discards 4  reserve K♣"
    for move in ("r>0", "d0", "f2>3", "d2"):
        game.play(move)
    assert game.to_str().split()[:4] == ["-/Ac/-/Ad", "-", "QdKdJcQcKcJd", "-"]
    assert game.is_over and game.is_won and game.score == 6
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move pile 1 to the reserve: the 6 cards that "
                                                      r"may be discarded are$"):
        game.play("1>r")


def test_the_reasons_of_rules_r7(engine):
    plain = engine.Game.from_seed(1)
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move to the reserve: these rules have no reserve$"):
        plain.play("0>r")
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move from the reserve: these rules have no reserve$"):
        plain.play("r>0")
    with pytest.raises(engine.IllegalMoveError, match=r"^there is no pile 4: these rules have 4 piles$"):
        plain.play("4>r")
    game = engine.Game.from_seed(1, engine.Rules.pysol_firing_squad())
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move from the reserve to pile 0: the reserve is empty$"):
        game.play("r>0")
    game.play("0>r")
    with pytest.raises(engine.IllegalMoveError, match=r"^cannot move pile 0 to the reserve: it is empty$"):
        game.play("0>r")


def test_a_position_with_a_reserve_is_checked(engine):
    rules = "fill=top,deal=free,relocate_single=false,ace_high=true,suits=1,ranks=4,reserve=1"
    assert engine.Game.from_str(f"Jc/Qc/Kc/- - - Ac {rules}").reserve == (engine.Card("Ac"),)
    with pytest.raises(engine.PositionError, match=r"^a position with a reserve has 5 fields \(piles, stock, "
                                                   r"discards, reserve, rules\) separated by spaces, got 4"):
        engine.Game.from_str(f"Jc/Qc/Kc/Ac - - {rules}")
    with pytest.raises(engine.PositionError, match=r"^a position has 4 fields"):
        engine.Game.from_str("Jc/Qc/Kc/Ac - - - fill=top,deal=free,relocate_single=false,ace_high=true,suits=1,ranks=4")
    with pytest.raises(engine.PositionError, match=r"^the reserve holds 2 cards, more than its 1 cells$"):
        engine.Game.from_str(f"Jc/Qc/-/- - - KcAc {rules}")
    with pytest.raises(engine.PositionError, match=r"appears twice|more than once|twice"):
        engine.Game.from_str(f"Jc/Qc/Kc/Ac - - Ac {rules}")


def test_pysol_deals_firing_squad_from_its_deck(engine):
    """PySolFC's Firing Squad deals its rows as Aces Up does, the reserve empty (R8.3)."""
    game = engine.Game.from_pysol(1, engine.Rules.pysol_firing_squad())
    assert game.to_str().split()[0] == engine.Game.from_pysol(1).to_str().split()[0]
    assert game.reserve == ()


def test_features_for_piles_alone_refuse_a_reserve(engine):
    rules = engine.Rules.pysol_firing_squad()
    refused = r"^the actions and observations of BATCH.md .* do not cover rules with a reserve \(reserve=1\)$"
    with pytest.raises(ValueError, match=refused):
        engine.Batch(2, rules)
    gym = pytest.importorskip("acesup.gym")
    with pytest.raises(ValueError, match=refused):
        gym.AcesUpEnv(rules=rules, engine="native" if engine.__name__ == "acesup" else "reference")
    small = rules.replace(suits=2, ranks=3)
    with pytest.raises(ValueError, match=r"^the exact optimum does not cover rules with a reserve \(reserve=1\)$"):
        engine.optimal(small)
    for name in ("greedy", "montecarlo:playouts=2", "optimal"):
        with pytest.raises(engine.StrategyError, match=rf"^strategy '{name.split(':')[0]}' does not play rules "
                                                       r"with a reserve \(reserve=1\): only 'random' does$"):
            engine.simulate(2, name, small)
        with pytest.raises(engine.StrategyError, match=r"does not play rules with a reserve"):
            engine.strategy(name)(engine.Game.from_seed(0, small))


@pytest.mark.parametrize("rules", ["pysol_firing_squad", "pysol_firing_squad,suits=2,ranks=4",
                                   "reserve=1,deal=stuck,fill=any"])
def test_random_plays_the_same_games_in_both_engines(rules):
    a = NATIVE.simulate(300, "random", NATIVE.Rules.parse(rules), seed=5, scores=True)
    b = REF.simulate(300, "random", REF.Rules.parse(rules), seed=5, scores=True)
    assert a.histogram == b.histogram and bytes(a.scores) == bytes(b.scores)
    player_a, player_b = NATIVE.strategy("random"), REF.strategy("random")
    for index in range(20):
        ga = NATIVE.Game.from_seed(NATIVE.game_seed(5, index), NATIVE.Rules.parse(rules))
        gb = REF.Game.from_seed(REF.game_seed(5, index), REF.Rules.parse(rules))
        while not gb.is_over:
            ga.play(player_a(ga))
            gb.play(player_b(gb))
        assert_same(ga, gb)
        assert ga.score == a.scores[index]


def test_the_svg_draws_the_reserve(engine):
    """Right of the piles, labelled as moves name it, with its card or an outline."""
    from acesup.display import game_svg
    game = engine.Game.from_pysol(1, engine.Rules.pysol_firing_squad())
    plain = engine.Game.from_pysol(1)
    assert game_svg(game).count("class='empty'") == 1 and ">r</text>" in game_svg(game)
    assert ">r</text>" not in game_svg(plain) and "class='empty'" not in game_svg(plain)
    game.play("0>r")
    assert "data-card='Jd'" in game_svg(game) and game_svg(game).count("class='empty'") == 1
