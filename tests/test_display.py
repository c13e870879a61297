"""The notebook pictures (acesup.display): ``Game._repr_svg_`` and
``Stats._repr_html_`` in both engines, drawn by the one shared implementation."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np

import acesup
import acesup.reference
from acesup.display import game_svg, stats_html
from helpers import position

SVG = "{http://www.w3.org/2000/svg}"
RED = "#c62828"


def cards(svg, top_only=False):
    """The cards drawn, as (text, whether it is a top card, its elements), in drawing order."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    found = []
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if "card" in classes and (not top_only or "top" in classes):
            found.append((group.get("data-card"), "top" in classes, group))
    return found


def footer(svg):
    root = ET.fromstring(svg)
    return next(text.text for text in root.iter(f"{SVG}text") if text.get("class") == "counts")


def test_the_svg_parses_and_shows_the_four_top_cards(engine):
    game = engine.Game.from_seed(42)
    svg = game._repr_svg_()
    assert [text for text, _, _ in cards(svg, top_only=True)] == [str(pile[-1]) for pile in game.piles]
    assert footer(svg) == "stock 48 \u00b7 discards 0"


def test_the_svg_shows_every_pile_card_bottom_to_top(engine):
    game = engine.Game.from_seed(42)
    while len(game.history) < 40 and not game.is_over:
        game.play(game.legal_moves()[0])
    drawn = cards(game._repr_svg_())
    assert [text for text, _, _ in drawn] == [str(card) for pile in game.piles for card in pile]
    assert sum(top for _, top, _ in drawn) == sum(1 for pile in game.piles if pile)
    assert footer(game._repr_svg_()) == f"stock {len(game.stock)} \u00b7 discards {len(game.discards)}"


def test_the_svg_colours_hearts_and_diamonds_red_and_outlines_empty_piles(engine):
    game = engine.Game.from_str(position([["Kh"], [], ["Js"], ["2c", "Td"]]))
    svg = game._repr_svg_()
    colours = {text: {node.get("fill") for node in group.iter(f"{SVG}text")} for text, _, group in cards(svg)}
    assert colours["Kh"] == {RED} and colours["Td"] == {RED}
    assert RED not in colours["Js"] | colours["2c"]
    empty = [node for node in ET.fromstring(svg).iter(f"{SVG}rect") if node.get("class") == "empty"]
    assert len(empty) == 1
    assert "10\u2666" in svg  # a ten reads 10 on the card, as on a real one


def test_the_svg_says_when_the_game_is_over(engine):
    game = engine.Game.from_seed(2)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert footer(game._repr_svg_()).endswith("\u00b7 over")


def test_both_engines_draw_the_same_picture():
    native, reference = acesup.Game.from_seed(7), acesup.reference.Game.from_seed(7)
    for move in ["d0", "deal", "d1"]:
        if native.is_legal(move):
            native.play(move)
            reference.play(move)
    assert native._repr_svg_() == reference._repr_svg_() == game_svg(native)


def table_cells(html):
    root = ET.fromstring(html)
    return {row.find("th").text: row.find("td").text for row in root.iter("tr")}


def test_the_stats_table_shows_the_figures(engine):
    stats = engine.simulate(500, "greedy", seed=3, scores=True)
    cells = table_cells(stats._repr_html_())
    low, high = stats.ci95
    assert cells == {
        "games": "500", "wins": str(stats.wins), "win rate": f"{stats.win_rate:.5f}",
        "95% CI": f"{low:.5f} to {high:.5f}", "mean score": f"{stats.mean_score:.3f}",
        "per-game scores": "kept",
    }
    assert isinstance(stats.scores, np.ndarray) and stats.scores.dtype == np.uint8


def test_the_stats_table_of_no_games_and_of_numpy_scores(engine):
    assert table_cells(engine.Stats.empty()._repr_html_())["win rate"] == "n/a"
    scores = np.array([48, 30, 48, 12], dtype=np.uint8)
    histogram = np.bincount(scores, minlength=49).tolist()
    stats = engine.Stats(histogram, scores)
    cells = table_cells(stats._repr_html_())
    assert cells["wins"] == "2" and cells["per-game scores"] == "kept" and cells["mean score"] == "34.500"
    assert math.isclose(stats.win_rate, 0.5)


def test_both_engines_make_the_same_table():
    native = acesup.simulate(300, "simple", seed=1, scores=True)
    reference = acesup.reference.simulate(300, "simple", seed=1, scores=True)
    assert native._repr_html_() == reference._repr_html_() == stats_html(native)
