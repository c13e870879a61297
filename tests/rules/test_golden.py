"""Recorded playthroughs (tests/data/golden.json, written by tests/data/make_golden.py):
each engine replays every move list, and its random strategy reproduces it."""

from __future__ import annotations

import itertools

import pytest

from helpers import load_json, random_strategy_moves

GOLDEN = load_json("golden.json")
GAMES = GOLDEN["games"]


def _id(entry):
    return f"{entry['index']}-{entry['rules']}"


def test_golden_covers_every_rule_combination():
    combos = {g["rules"] for g in GAMES}
    expected = {
        f"fill={f},deal={d},relocate_single={r},ace_high={a}"
        for f, d, r, a in itertools.product(("top", "ace", "any"), ("free", "stuck"), ("false", "true"),
                                             ("true", "false"))
    }
    assert combos == expected
    assert any(g["won"] for g in GAMES if g["rules"].endswith("ace_high=true"))
    assert any(g["won"] for g in GAMES if g["rules"].endswith("ace_high=false"))


@pytest.mark.parametrize("entry", GAMES, ids=_id)
def test_replay(engine, entry):
    assert engine.game_seed(entry["master"], entry["index"]) == entry["seed"]
    rules = engine.Rules.parse(entry["rules"])
    assert str(rules) == entry["rules"]
    game = engine.Game.from_seed(entry["seed"], rules)
    assert game.to_str() == entry["start"]
    for n, text in enumerate(entry["moves"]):
        move = engine.Move.parse(text)
        assert str(move) == text
        assert game.is_legal(move), f"move {n} ({text}) is illegal in {game.to_str()}"
        assert move in game.legal_moves()
        game.play(move)
    assert game.is_over and game.legal_moves() == []
    assert game.to_str() == entry["final"]
    assert game.score == entry["score"]
    assert game.is_won == entry["won"]
    assert [str(m) for m in game.history] == entry["moves"]


@pytest.mark.parametrize("entry", GAMES, ids=_id)
def test_random_strategy_reproduces_the_moves(engine, entry):
    game = engine.Game.from_seed(entry["seed"], engine.Rules.parse(entry["rules"]))
    assert random_strategy_moves(game) == entry["moves"]
    stats = engine.simulate(1, seed=entry["master"], start=entry["index"], rules=engine.Rules.parse(entry["rules"]))
    assert stats.histogram[entry["score"]] == 1 and stats.games == 1


@pytest.mark.parametrize("entry", GAMES, ids=_id)
def test_start_and_final_positions_load(engine, entry):
    for key in ("start", "final"):
        game = engine.Game.from_str(entry[key])
        assert game.to_str() == entry[key]
    final = engine.Game.from_str(entry["final"])
    assert final.is_over and final.score == entry["score"] and final.is_won == entry["won"]
