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
        "strategy": "greedy", "rules": str(engine.Rules()), "seed": "3",
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


def histogram_bars(html):
    """The bars of the SVG histogram in a Stats table, as (score, count, height, colour)."""
    root = ET.fromstring(html)
    svg, = root.iter(f"{SVG}svg")
    return [(int(bar.get("data-score")), int(bar.get("data-count")), float(bar.get("height")), bar.get("fill"))
            for bar in svg.iter(f"{SVG}rect") if bar.get("class") == "bar"]


def test_the_stats_html_draws_the_histogram(engine):
    stats = engine.simulate(400, "greedy", seed=5)
    bars = histogram_bars(stats._repr_html_())
    assert [(score, count) for score, count, _, _ in bars] == list(enumerate(stats.histogram))
    most = max(stats.histogram)
    for _, count, height, _ in bars:
        assert math.isclose(height, 60 * count / most, abs_tol=0.05)  # in proportion, the tallest 60 high
    assert {colour for score, _, _, colour in bars if score < 48} == {"#90a4ae"}
    assert bars[-1][3] == "#2e7d32"  # the won games in their own colour
    assert all(height == 0 for _, _, height, _ in histogram_bars(engine.Stats.empty()._repr_html_()))


class FakeStats:
    """What the pictures read of a Stats, with a histogram of another length than
    the standard game's 49 (a smaller deck: RULES.md R1.4)."""

    def __init__(self, histogram):
        self.histogram = tuple(histogram)
        self.games = sum(histogram)
        self.wins = histogram[-1]
        self.win_rate = self.wins / self.games
        self.ci95 = (0.1, 0.9)
        self.mean_score = sum(score * count for score, count in enumerate(histogram)) / self.games
        self.scores = None
        self.strategy = self.rules = self.seed = None  # Stats not made by simulate


def test_the_pictures_take_the_win_score_from_the_histogram_length():
    stats = FakeStats([1, 0, 2, 5, 3, 4])  # win score 5
    bars = histogram_bars(stats_html(stats))
    assert len(bars) == 6 and bars[-1][:2] == (5, 4) and bars[-1][3] == "#2e7d32"
    assert bars[3][3] == "#90a4ae"
    root = ET.fromstring(stats_html(stats))
    assert "5 won" in [text.text for text in root.iter(f"{SVG}text")]


def test_the_svg_draws_every_pile_of_five(engine):
    """The width follows the number of piles, not four (RULES.md R1.4, piles=5)."""
    game = engine.Game.from_seed(3)

    class FivePiles:  # the game's public face with a fifth pile
        piles = (*game.piles, (engine.Card("Ah"),))
        stock, discards, is_over, is_won, rules = game.stock, game.discards, False, False, game.rules

    four, five = ET.fromstring(game._repr_svg_()), ET.fromstring(game_svg(FivePiles()))
    assert float(five.get("width")) == float(four.get("width")) + 56 + 14  # a card and a gap more
    assert [text for text, _, _ in cards(game_svg(FivePiles()), top_only=True)][-1] == "Ah"
