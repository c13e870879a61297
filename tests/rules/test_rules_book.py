"""Every example of docs/RULES.md, and every rule it states about a concrete position.

Positions are written with ``helpers.position``: the named piles, and the other
cards in the stock and the discards (see its docstring).
"""

from __future__ import annotations

import pytest

from helpers import ALL_CARDS, STANDARD_TEXT, cards_text, position, rules_text

import acesup.errors as errors


def make(engine, piles, rules=None, **kw):
    text = position(piles, rules=rules_text(**(rules or {})), **kw)
    return engine.Game.from_str(text)


def legal(game):
    return [str(m) for m in game.legal_moves()]


def pile_texts(game):
    return [[str(c) for c in p] for p in game.piles]


def assert_illegal(game, move, message):
    """Playing ``move`` (a Move or its text) raises exactly ``message`` and changes nothing."""
    before, snapshot, history = game.to_str(), game.copy(), game.history
    with pytest.raises(errors.IllegalMoveError) as info:
        game.play(move)
    assert str(info.value) == message
    assert game.to_str() == before and game == snapshot and game.history == history


# --- R1 ----------------------------------------------------------------------------


def test_r1_1_card_index_example(engine):
    card = engine.Card("Td")
    assert card.rank == 10 and card.index == 13 + 8 == 21
    assert [str(c) for c in sorted(engine.deck_from_seed(0))] == ALL_CARDS


def test_r1_2_ace_beats_king_in_standard_rules(engine):
    game = make(engine, [["Ah"], ["Kh"], ["2c"], ["3d"]])
    assert legal(game) == ["d1"]
    assert_illegal(game, engine.Move.discard(0),
                   "cannot discard Ah from pile 0: no higher heart is on top of another pile")


def test_r1_2_king_beats_ace_in_reverse(engine):
    game = make(engine, [["Ah"], ["Kh"], ["2c"], ["3d"]], rules=dict(ace_high=False))
    assert legal(game) == ["d0"]
    assert_illegal(game, engine.Move.discard(1),
                   "cannot discard Kh from pile 1: no higher heart is on top of another pile")


def test_r1_2_ace_is_the_lowest_card_in_reverse(engine):
    game = make(engine, [["Ah"], ["2h"], ["2c"], ["3d"]], rules=dict(ace_high=False))
    assert legal(game) == ["d0"]
    standard = make(engine, [["Ah"], ["2h"], ["2c"], ["3d"]])
    assert legal(standard) == ["d1"]


def test_r1_3_deal_order_example(engine):
    head = ["As", "Kd", "7h", "2c", "3s"]
    deck = head + [c for c in ALL_CARDS if c not in head]
    game = engine.Game.from_deck(" ".join(deck))
    assert pile_texts(game) == [["As"], ["Kd"], ["7h"], ["2c"]]
    assert [str(c) for c in game.stock] == deck[4:]
    assert len(game.stock) == 48
    assert legal(game) == ["deal"]
    game.play("deal")
    assert pile_texts(game) == [["As", "3s"], ["Kd", deck[5]], ["7h", deck[6]], ["2c", deck[7]]]
    assert [str(c) for c in game.stock] == deck[8:]


def test_r1_3_later_deals_take_cards_9_to_12(engine):
    deck = [str(c) for c in engine.deck_from_seed(1234)]
    game = engine.Game.from_deck(deck)
    # Play only deals and forced discards until the second deal has happened.
    deals = 0
    while deals < 2:
        moves = game.legal_moves()
        discard = [m for m in moves if m.kind == "discard"]
        if discard:
            game.play(discard[0])
            continue
        before = [list(p) for p in game.piles]
        game.play(engine.Move.deal())
        deals += 1
        dealt = deck[4 * deals: 4 * deals + 4]
        assert [str(p[-1]) for p in game.piles] == dealt
        assert [list(p[:-1]) for p in game.piles] == before
    assert [str(c) for c in game.stock] == deck[12:]


# --- R2.1 --------------------------------------------------------------------------


def r2_1_example(engine, **rules):
    return make(engine, [["7s"], ["Js"], ["3d", "5h"], ["Ac"]], rules=rules)


@pytest.mark.parametrize("deal", ["free", "stuck"])
def test_r2_1_worked_example(engine, deal):
    game = r2_1_example(engine, deal=deal)
    assert legal(game) == ["d0"]
    assert_illegal(game, engine.Move.discard(1),
                   "cannot discard Js from pile 1: no higher spade is on top of another pile")
    assert_illegal(game, engine.Move.discard(2),
                   "cannot discard 5h from pile 2: no higher heart is on top of another pile")
    assert_illegal(game, engine.Move.discard(3),
                   "cannot discard Ac from pile 3: no higher club is on top of another pile")
    # No deal under either option: 7s must be discarded first.
    assert_illegal(game, engine.Move.deal(), "cannot deal: pile 0 must be discarded first")

    discards_before = len(game.discards)
    game.play(engine.Move.discard(0))
    assert pile_texts(game) == [[], ["Js"], ["3d", "5h"], ["Ac"]]
    assert str(game.discards[-1]) == "7s" and len(game.discards) == discards_before + 1
    assert game.score == discards_before + 1

    # Pile 0 is empty: 5h may fill it, exposing 3d.
    assert legal(game) == (["f2>0", "deal"] if deal == "free" else ["f2>0"])
    game.play("f2>0")
    assert pile_texts(game) == [["5h"], ["Js"], ["3d"], ["Ac"]]
    # Js is a spade: it cannot discard 5h.
    assert_illegal(game, engine.Move.discard(0),
                   "cannot discard 5h from pile 0: no higher heart is on top of another pile")
    assert_illegal(game, engine.Move.discard(1),
                   "cannot discard Js from pile 1: no higher spade is on top of another pile")
    assert legal(game) == ["deal"]


def test_r2_1_discard_shows_the_card_below(engine):
    game = make(engine, [["2d", "7s"], ["Js"], ["3d", "5h"], ["Ac"]])
    game.play("d0")
    assert pile_texts(game) == [["2d"], ["Js"], ["3d", "5h"], ["Ac"]]
    assert legal(game) == ["deal"]


def test_r2_1_lower_card_of_same_suit_on_any_other_pile(engine):
    game = make(engine, [["Qh"], ["3h"], ["9h"], ["Kh"]])
    assert legal(game) == ["d0", "d1", "d2"]
    game.play("d1")
    assert legal(game) == ["d0", "d2"]


def test_r2_1_top_rank_never_discarded(engine):
    for rules, top in ((dict(), "Ah"), (dict(ace_high=False), "Kh")):
        game = make(engine, [["Ah"], ["Kh"], ["Qh"], ["2h"]], rules=rules)
        tops = [str(p[-1]) for p in game.piles]
        assert f"d{tops.index(top)}" not in legal(game)
        assert len(legal(game)) == 3


# --- R2.2 --------------------------------------------------------------------------


def r2_2_example(engine, **rules):
    return make(engine, [["7s"], [], ["3d", "5h"], ["Ac"]], rules=rules)


def test_r2_2_standard_fill(engine):
    game = r2_2_example(engine)
    assert legal(game) == ["f2>1", "deal"]
    assert_illegal(game, engine.Move.fill(0, 1),
                   "cannot fill pile 1 from pile 0: its only card may not move")
    assert_illegal(game, engine.Move.fill(3, 1),
                   "cannot fill pile 1 from pile 3: its only card may not move")
    game.play(engine.Move.fill(2, 1))
    assert pile_texts(game) == [["7s"], ["5h"], ["3d"], ["Ac"]]


def test_r2_2_easy_fill_any_card(engine):
    game = r2_2_example(engine, fill="any")
    assert legal(game) == ["f2>1", "f2:1>1", "deal"]
    game.play(engine.Move.fill(2, 1, index=1))
    assert pile_texts(game) == [["7s"], ["3d"], ["5h"], ["Ac"]]


def test_r2_2_easy_cards_above_close_up(engine):
    game = make(engine, [[], ["2c", "3c", "4c", "5c"], ["9d"], ["Kh"]], rules=dict(fill="any"))
    game.play("f1:2>0")
    assert pile_texts(game) == [["3c"], ["2c", "4c", "5c"], ["9d"], ["Kh"]]
    game.undo()
    game.play("f1:3>0")
    assert pile_texts(game) == [["2c"], ["3c", "4c", "5c"], ["9d"], ["Kh"]]


def test_r2_2_strict_no_fill_without_an_ace(engine):
    game = r2_2_example(engine, fill="ace")
    assert legal(game) == ["deal"]
    assert_illegal(game, engine.Move.fill(2, 1),
                   "cannot fill pile 1 with 5h: fill='ace' lets only an ace fill an empty pile")
    assert_illegal(game, engine.Move.fill(2, 1, index=1),
                   "cannot fill pile 1 with a buried card: fill='ace' moves only the top card")


def test_r2_2_strict_the_ace_moves(engine):
    game = make(engine, [["7s"], [], ["3d", "Ah"], ["Kc"]], rules=dict(fill="ace"))
    assert legal(game) == ["f2>1", "deal"]
    game.play("f2>1")
    assert pile_texts(game) == [["7s"], ["Ah"], ["3d"], ["Kc"]]


def test_r2_2_strict_reverse_the_king_moves(engine):
    rules = dict(fill="ace", ace_high=False)
    game = make(engine, [["7s"], [], ["3d", "Ah"], ["2c", "Kc"]], rules=rules)
    assert legal(game) == ["f3>1", "deal"]
    assert_illegal(game, engine.Move.fill(2, 1),
                   "cannot fill pile 1 with Ah: fill='ace' lets only a king fill an empty pile")


def test_r2_2_fill_needs_src_other_than_dst_and_empty_dst(engine):
    game = r2_2_example(engine, fill="any")
    assert_illegal(game, engine.Move.fill(2, 0), "cannot fill pile 0: it is not empty")
    with pytest.raises(errors.MoveError):
        engine.Move.fill(1, 1)


def test_r2_2_relocate_single(engine):
    game = r2_2_example(engine, relocate_single=True)
    assert legal(game) == ["f0>1", "f2>1", "f3>1", "deal"]
    game.play("f0>1")
    assert pile_texts(game) == [[], ["7s"], ["3d", "5h"], ["Ac"]]
    assert legal(game) == ["f1>0", "f2>0", "f3>0", "deal"]


def test_r2_2_relocate_single_strict_only_the_ace(engine):
    game = r2_2_example(engine, relocate_single=True, fill="ace")
    assert legal(game) == ["f3>1", "deal"]
    assert_illegal(game, engine.Move.fill(0, 1),
                   "cannot fill pile 1 with 7s: fill='ace' lets only an ace fill an empty pile")


def test_r2_2_relocate_single_never_once_the_stock_is_empty(engine):
    piles = [["7s"], [], ["3d", "5h"], ["Ad", "Ah", "As", "Ac"]]
    game = make(engine, piles, rules=dict(relocate_single=True), stock=[])
    assert legal(game) == ["f2>1", "f3>1"]
    message = "cannot fill pile 1 from pile 0: its only card may not move once the stock is empty"
    assert_illegal(game, engine.Move.fill(0, 1), message)


# --- R2.3 --------------------------------------------------------------------------


def test_r2_3_deal_one_card_on_each_pile_empty_included(engine):
    game = r2_2_example(engine)
    stock = [str(c) for c in game.stock]
    game.play("deal")
    assert pile_texts(game) == [["7s", stock[0]], [stock[1]], ["3d", "5h", stock[2]], ["Ac", stock[3]]]
    assert [str(c) for c in game.stock] == stock[4:]


def test_r2_3_free_and_stuck(engine):
    assert legal(r2_2_example(engine, deal="free")) == ["f2>1", "deal"]
    stuck = r2_2_example(engine, deal="stuck")
    assert legal(stuck) == ["f2>1"]
    assert_illegal(stuck, engine.Move.deal(),
                   "cannot deal: deal='stuck' and a fill is still possible (f2>1)")


def test_r2_3_stuck_without_a_possible_fill_deals(engine):
    # Under fill="ace" no fill is possible here, so "stuck" deals.
    assert legal(r2_2_example(engine, deal="stuck", fill="ace")) == ["deal"]


def test_r2_3_stuck_names_the_first_fill(engine):
    game = make(engine, [[], ["9c", "2h", "5d"], [], ["7s", "8s"]], rules=dict(deal="stuck", fill="any"))
    assert legal(game)[:4] == ["f1>0", "f1:1>0", "f1:2>0", "f1>2"]
    assert "deal" not in legal(game)
    assert_illegal(game, "deal", "cannot deal: deal='stuck' and a fill is still possible (f1>0)")


def test_r2_3_stuck_lone_card_fill_does_not_hold_the_deal(engine):
    game = make(engine, [["7s"], [], ["5h"], ["Ac"]], rules=dict(deal="stuck", relocate_single=True))
    assert legal(game) == ["f0>1", "f2>1", "f3>1", "deal"]
    game = make(engine, [["7s"], [], ["5h"], ["Ac"]], rules=dict(deal="stuck"))
    assert legal(game) == ["deal"]


def test_r2_3_no_deal_while_a_discard_is_pending(engine):
    for deal in ("free", "stuck"):
        game = r2_1_example(engine, deal=deal)
        assert "deal" not in legal(game)


def test_r2_3_first_discardable_pile_is_named(engine):
    game = make(engine, [["Kd"], ["5s"], ["Js"], ["2d"]])
    assert legal(game) == ["d1", "d3"]
    assert_illegal(game, "deal", "cannot deal: pile 1 must be discarded first")


def test_r2_3_no_second_pass(engine):
    piles = [["Kc", "7c"], ["Kd"], ["Kh"], ["Ac", "Ad", "Ah", "As", "Ks"]]
    game = make(engine, piles, stock=[])
    assert game.stock == ()
    assert legal(game) == []
    assert_illegal(game, "deal", "cannot deal: the stock is empty")


# --- R3 ----------------------------------------------------------------------------


def test_r3_discards_then_fills(engine):
    piles = [["Kd", "4s"], [], ["2h", "9s"], ["5h", "3h", "2s"]]
    game = make(engine, piles, rules=dict(fill="any"))
    assert legal(game) == ["d0", "d3", "f0>1", "f0:1>1", "f2>1", "f2:1>1", "f3>1", "f3:1>1", "f3:2>1"]


def test_r3_fills_by_source_destination_index_then_deal(engine):
    game = make(engine, [[], ["2c", "3c", "4c"], [], ["5d", "6d"]], rules=dict(fill="any"))
    assert legal(game) == [
        "f1>0", "f1:1>0", "f1:2>0", "f1>2", "f1:1>2", "f1:2>2",
        "f3>0", "f3:1>0", "f3>2", "f3:1>2", "deal",
    ]
    moves = game.legal_moves()
    assert sorted(moves) == moves
    assert sorted(reversed(moves)) == moves


def test_r3_move_values_sort_in_the_same_order(engine):
    M = engine.Move
    ordered = [M.discard(0), M.discard(3), M.fill(0, 1), M.fill(0, 1, index=7), M.fill(0, 2),
               M.fill(0, 3), M.fill(1, 0), M.fill(1, 0, index=1), M.fill(3, 2, index=2), M.deal()]
    assert sorted(reversed(ordered)) == ordered
    for a, b in zip(ordered, ordered[1:]):
        assert a < b and not b < a


# --- R4 ----------------------------------------------------------------------------


def test_r4_win_by_the_last_discard(engine):
    game = make(engine, [["Ac"], ["Ad", "2s"], ["Ah"], ["As"]], stock=[])
    assert (game.is_over, game.is_won, game.score) == (False, False, 47)
    assert legal(game) == ["d1"]
    game.play("d1")
    assert (game.is_over, game.is_won, game.score) == (True, True, 48)
    assert game.legal_moves() == []
    assert len(game.discards) == 48


def test_r4_win_in_reverse_leaves_the_kings(engine):
    game = make(engine, [["Kc"], ["Kd", "As"], ["Kh"], ["Ks"]], stock=[], rules=dict(ace_high=False))
    assert legal(game) == ["d1"]
    game.play("d1")
    assert (game.is_over, game.is_won, game.score) == (True, True, 48)


def test_r4_loss(engine):
    piles = [["Ac", "Kc"], ["Ad", "Kd"], ["Ah", "Kh"], ["As", "Ks"]]
    game = make(engine, piles, stock=[])
    assert game.legal_moves() == []
    assert (game.is_over, game.is_won, game.score) == (True, False, 44)


def test_r4_2_two_top_rank_cards_on_one_pile_is_not_over(engine):
    game = make(engine, [["Ac", "Ad"], [], ["Ah"], ["As"]], stock=[])
    assert game.score == 48
    assert (game.is_over, game.is_won) == (False, False)
    assert legal(game) == ["f0>1"]
    game.play("f0>1")
    assert (game.is_over, game.is_won) == (True, True)


# --- R5 ----------------------------------------------------------------------------


def test_r5_defaults_and_presets(engine):
    R = engine.Rules
    r = R()
    assert (r.fill, r.deal, r.relocate_single, r.ace_high) == ("top", "free", False, True)
    assert R.standard() == R()
    assert R.strict() == R(fill="ace")
    assert R.easy() == R(fill="any")
    assert R.reverse() == R(ace_high=False)
    for name in ("standard", "strict", "easy", "reverse"):
        assert R.preset(name) == getattr(R, name)()
    assert len({R.standard(), R.strict(), R.easy(), R.reverse()}) == 4


def test_r5_keywords_and_replace(engine):
    R = engine.Rules
    r = R(fill="ace", deal="stuck")
    assert (r.fill, r.deal, r.relocate_single, r.ace_high) == ("ace", "stuck", False, True)
    s = r.replace(deal="free", relocate_single=True)
    assert (s.fill, s.deal, s.relocate_single, s.ace_high) == ("ace", "free", True, True)
    assert r == R(fill="ace", deal="stuck")  # replace returned a copy
    assert R().replace() == R()


def test_r5_rules_are_frozen(engine):
    r = engine.Rules()
    with pytest.raises((AttributeError, TypeError)):
        r.fill = "any"
    assert r.fill == "top"


# --- R6 ----------------------------------------------------------------------------


def test_r6_2_deck_text_separators(engine):
    deck = [str(c) for c in engine.deck_from_seed(8)]
    messy = " ,".join(deck[:10]) + ",\n" + "\t".join(deck[10:30]) + " , " + ",".join(deck[30:])
    assert engine.Game.from_deck(messy) == engine.Game.from_deck(deck)
    assert engine.Game.from_deck(" ".join(deck)) == engine.Game.from_deck([engine.Card(c) for c in deck])


@pytest.mark.parametrize(
    "text, canonical",
    [("d2", "d2"), ("f2>0", "f2>0"), ("f2:3>0", "f2:3>0"), ("deal", "deal"),
     ("  DEAL ", "deal"), ("D0", "d0"), ("F2:0>0", "f2>0"), ("f2:0>0", "f2>0"), ("\tf3:12>1\n", "f3:12>1")],
)
def test_r6_3_move_text(engine, text, canonical):
    move = engine.Move.parse(text)
    assert str(move) == canonical
    assert move == engine.Move.parse(canonical)


def test_r6_3_move_text_meaning(engine):
    M = engine.Move
    assert M.parse("d2") == M.discard(2)
    assert M.parse("f2>0") == M.fill(2, 0) == M.fill(2, 0, index=0)
    assert M.parse("f2:3>0") == M.fill(2, 0, index=3)
    assert M.parse("deal") == M.deal()


def test_r6_4_rules_text(engine):
    R = engine.Rules
    assert str(R()) == STANDARD_TEXT
    assert str(R.strict()) == "fill=ace,deal=free,relocate_single=false,ace_high=true"
    assert str(R(fill="any", deal="stuck", relocate_single=True, ace_high=False)) == \
        "fill=any,deal=stuck,relocate_single=true,ace_high=false"


@pytest.mark.parametrize(
    "text, options",
    [
        ("fill=top,deal=free,relocate_single=false,ace_high=true", {}),
        ("standard", {}),
        ("strict,deal=stuck", dict(fill="ace", deal="stuck")),
        ("reverse", dict(ace_high=False)),
        ("easy", dict(fill="any")),
        ("deal=stuck", dict(deal="stuck")),
        ("ace_high=false,fill=any", dict(fill="any", ace_high=False)),
        ("relocate_single=1", dict(relocate_single=True)),
        ("relocate_single=yes,ace_high=no", dict(relocate_single=True, ace_high=False)),
        ("relocate_single=true,ace_high=0", dict(relocate_single=True, ace_high=False)),
        ("relocate_single=false", {}),
        ("reverse,fill=ace", dict(ace_high=False, fill="ace")),
        ("piles=00005", dict(piles=5)),
        ("suits=" + "0" * 5000 + "2", dict(suits=2)),  # past int()'s 4,300 digits, in zeros
    ],
)
def test_r6_4_rules_parse(engine, text, options):
    assert engine.Rules.parse(text) == engine.Rules(**options)


def test_r6_5_start_of_seed_0(engine):
    game = engine.Game.from_seed(0)
    assert game.to_str() == (
        "Ac/Jh/Tc/Js "
        "4cQsAsKc4hAd7d2dQd4s5cKs5h3dQh2c6c6hAh7s9h6s9sKdJc5s2s8h3h8cKh6d8d2hTd9d7h5d3sQcTh9c4d7cTs3cJd8s "
        "- " + STANDARD_TEXT
    )


def test_r6_5_made_up_example_layout(engine):
    text = position([["7s"], ["Js"], ["5h", "3d"], ["Ac"]], stock_len=44)
    game = engine.Game.from_str(text)
    assert game.to_str() == text
    assert pile_texts(game) == [["7s"], ["Js"], ["5h", "3d"], ["Ac"]]
    assert text.startswith("7s/Js/5h3d/Ac ")
    assert len(game.stock) == 44 and len(game.discards) == 3
    fields = game.to_str().split(" ")
    assert len(fields) == 4
    assert fields[1] == cards_text(game.stock) and fields[2] == cards_text(game.discards)


def test_r6_5_empty_fields_are_dashes(engine):
    game = make(engine, [["Ac", "Kc"], ["Ad", "Kd"], ["Ah", "Kh"], ["As", "Ks"]], stock=[])
    assert game.to_str().split(" ")[1] == "-"
    game = engine.Game.from_seed(0)
    assert game.to_str().split(" ")[2] == "-"
    game = make(engine, [["7s"], [], ["3d", "5h"], ["Ac"]])
    assert game.to_str().split(" ")[0] == "7s/-/3d5h/Ac"


def test_r6_6_tableau(engine):
    game = engine.Game.from_str(position([["7s"], ["Js"], ["5h", "3d"], ["Ac"]], stock_len=44))
    # RULES.md shows "discards 4" with these piles and 44 cards in the stock, which
    # makes 53 cards; a real position with them has 3 discards.
    assert str(game) == "7♠  J♠  5♥  A♣\n        3♦\nstock 44  discards 3"


def test_r6_6_tableau_empty_and_short_piles(engine):
    game = make(engine, [["7s", "Td", "2c"], [], ["3d", "5h"], []], stock_len=8)
    assert str(game) == (
        "7♠  --  3♦  --\n"
        "T♦      5♥\n"
        "2♣\n"
        f"stock 8  discards {52 - 5 - 8}"
    )


def test_r6_6_tableau_of_a_dealt_game(engine):
    game = engine.Game.from_seed(0)
    assert str(game) == "A♣  J♥  T♣  J♠\nstock 48  discards 0"


# --- R7: every message, and the order in which they are checked ----------------------

P_FILL = [["7s"], [], ["3d", "5h"], ["Ac"]]
P_TWO_EMPTY = [["7s"], [], [], ["3d", "5h", "Ac"]]
P_R2_1 = [["7s"], ["Js"], ["3d", "5h"], ["Ac"]]
P_FILL_NO_STOCK = [["7s"], [], ["3d", "5h"], ["Ad", "Ah", "As", "Ac"]]

R7_CASES = [
    # discard
    ([[], ["Js"], ["3d", "5h"], ["Ac"]], {}, "d0", "cannot discard from pile 0: it is empty"),
    (P_R2_1, {}, "d1", "cannot discard Js from pile 1: no higher spade is on top of another pile"),
    ([["3d"], ["Js"], ["4c"], ["Ah"]], {}, "d0", "cannot discard 3d from pile 0: no higher diamond is on top of another pile"),
    ([["3d"], ["Js"], ["4c"], ["Ah"]], {}, "d2", "cannot discard 4c from pile 2: no higher club is on top of another pile"),
    # fill 1: dst not empty, checked before all else
    (P_FILL, {}, "f2>0", "cannot fill pile 0: it is not empty"),
    (P_FILL, {}, "f1>0", "cannot fill pile 0: it is not empty"),
    (P_FILL, {}, "f2:9>3", "cannot fill pile 3: it is not empty"),
    # fill 2: empty source
    (P_TWO_EMPTY, {}, "f1>2", "cannot fill pile 2 from pile 1: pile 1 is empty"),
    (P_TWO_EMPTY, {"fill": "any"}, "f1:3>2", "cannot fill pile 2 from pile 1: pile 1 is empty"),
    # fill 3: no card at the index, before the buried-card check
    (P_FILL, {}, "f2:2>1", "cannot fill pile 1 from pile 2: it has no card at index 2"),
    (P_FILL, {"fill": "any"}, "f2:5>1", "cannot fill pile 1 from pile 2: it has no card at index 5"),
    (P_FILL, {}, "f0:1>1", "cannot fill pile 1 from pile 0: it has no card at index 1"),
    # fill 4: buried card under top / ace
    (P_FILL, {}, "f2:1>1", "cannot fill pile 1 with a buried card: fill='top' moves only the top card"),
    (P_TWO_EMPTY, {"fill": "ace"}, "f3:2>1", "cannot fill pile 1 with a buried card: fill='ace' moves only the top card"),
    ([["7s"], [], ["Ah", "5h"], ["Ac"]], {"fill": "ace"}, "f2:1>1",
     "cannot fill pile 1 with a buried card: fill='ace' moves only the top card"),
    # fill 5: a lone card
    (P_FILL, {}, "f0>1", "cannot fill pile 1 from pile 0: its only card may not move"),
    (P_FILL, {"fill": "any"}, "f3>1", "cannot fill pile 1 from pile 3: its only card may not move"),
    (P_FILL, {"fill": "ace"}, "f0>1", "cannot fill pile 1 from pile 0: its only card may not move"),
    (P_FILL_NO_STOCK, {"stock": []}, "f0>1", "cannot fill pile 1 from pile 0: its only card may not move"),
    (P_FILL_NO_STOCK, {"stock": [], "relocate_single": True}, "f0>1",
     "cannot fill pile 1 from pile 0: its only card may not move once the stock is empty"),
    (P_FILL_NO_STOCK, {"stock": [], "relocate_single": True, "fill": "ace"}, "f0>1",
     "cannot fill pile 1 from pile 0: its only card may not move once the stock is empty"),
    # fill 6: strict
    (P_FILL, {"fill": "ace"}, "f2>1", "cannot fill pile 1 with 5h: fill='ace' lets only an ace fill an empty pile"),
    (P_FILL, {"fill": "ace", "relocate_single": True}, "f0>1",
     "cannot fill pile 1 with 7s: fill='ace' lets only an ace fill an empty pile"),
    ([["7s"], [], ["3d", "Ah"], ["Kc"]], {"fill": "ace", "ace_high": False}, "f2>1",
     "cannot fill pile 1 with Ah: fill='ace' lets only a king fill an empty pile"),
    # deal
    ([["Kc", "7c"], ["Kd"], ["Kh"], ["Ac", "Ad", "Ah", "As", "Ks"]], {"stock": []}, "deal",
     "cannot deal: the stock is empty"),
    ([["7s"], ["Js"], ["Ac"], ["Ad", "Ah", "As"]], {"stock": []}, "deal", "cannot deal: the stock is empty"),
    (P_R2_1, {}, "deal", "cannot deal: pile 0 must be discarded first"),
    ([["Kd"], ["5s"], ["Js"], ["2d"]], {"deal": "stuck"}, "deal", "cannot deal: pile 1 must be discarded first"),
    ([["7s"], [], ["3d", "5s"], ["Ac"]], {"deal": "stuck"}, "deal", "cannot deal: pile 2 must be discarded first"),
    (P_FILL, {"deal": "stuck"}, "deal", "cannot deal: deal='stuck' and a fill is still possible (f2>1)"),
    (P_FILL, {"deal": "stuck", "relocate_single": True}, "deal",
     "cannot deal: deal='stuck' and a fill is still possible (f2>1)"),
    ([[], ["3d", "Ah"], ["Kc"], ["7s", "As"]], {"deal": "stuck", "fill": "ace"}, "deal",
     "cannot deal: deal='stuck' and a fill is still possible (f1>0)"),
]


@pytest.mark.parametrize("case", R7_CASES, ids=[f"{i:02}-{c[2]}" for i, c in enumerate(R7_CASES)])
def test_r7_messages(engine, case):
    piles, options, move_text, message = case
    options = dict(options)
    kw = {"stock": options.pop("stock")} if "stock" in options else {}
    game = make(engine, piles, rules=options, **kw)
    move = engine.Move.parse(move_text)
    assert not game.is_legal(move)
    assert move not in game.legal_moves()
    for attempt in (move, move_text):
        before, snapshot, history = game.to_str(), game.copy(), game.history
        with pytest.raises(errors.IllegalMoveError) as info:
            game.play(attempt)
        assert str(info.value) == message
        assert game.to_str() == before and game == snapshot and game.history == history


def test_r7_illegal_move_error_is_a_value_error(engine):
    game = r2_1_example(engine)
    with pytest.raises(ValueError):
        game.play("d1")
    with pytest.raises(errors.MoveError):
        game.play("d1")


def test_r6_5_example_position(engine):
    """The R6.5 example: the start of the game dealt from deck_from_seed(42), and its first move."""
    start = ("Qs/6c/7d/4s 5s2cJc7cAs3hKdJsQd8s9hTs8cKc6sAcTd4h4d8hKh8d7s7h5hTh4c6hJdJh6d5c9cAd2s9s9dKs2h3d"
             "QhQc3s3c5d2dTcAh - fill=top,deal=free,relocate_single=false,ace_high=true")
    game = engine.Game.from_seed(42)
    assert game.to_str() == start
    assert [str(m) for m in game.legal_moves()] == ["d3"]
    game.play("d3")
    assert game.to_str() == start.replace("/4s ", "/- ").replace(" - fill", " 4s fill")
