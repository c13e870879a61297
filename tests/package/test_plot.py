"""acesup.plot.histogram: the score histogram drawn with matplotlib (Agg backend,
so that no display is needed)."""

from __future__ import annotations

import sys

import matplotlib
import pytest

matplotlib.use("Agg")

import acesup  # noqa: E402
from acesup import plot  # noqa: E402


def test_the_histogram_file_is_written(engine, tmp_path):
    stats = engine.simulate(300, "greedy", seed=2)
    path = tmp_path / "scores.png"
    ax = plot.histogram(stats, path=path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [bar.get_height() for bar in ax.patches] == list(stats.histogram)
    assert "300 games" in ax.get_title()


def test_the_histogram_draws_on_a_given_axes_and_in_any_format(tmp_path):
    import matplotlib.pyplot as plt

    stats = acesup.simulate(200, seed=0) + acesup.simulate(200, seed=0, start=200)
    figure, ax = plt.subplots()
    try:
        assert plot.histogram(stats, ax=ax, path=tmp_path / "scores.svg") is ax
    finally:
        plt.close(figure)
    assert (tmp_path / "scores.svg").read_text().lstrip().startswith("<?xml")


def test_no_games_still_draws(tmp_path):
    ax = plot.histogram(acesup.Stats.empty(), path=tmp_path / "empty.png")
    assert ax.get_title() == "no games"


def test_a_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(ImportError, match=r"acesup\[plot\]"):
        plot.histogram(acesup.simulate(10))


def test_without_a_path_the_figure_is_made_with_pyplot_to_be_shown():
    import matplotlib.pyplot as plt

    ax = plot.histogram(acesup.simulate(100, seed=5))
    try:
        assert plt.fignum_exists(ax.figure.number)
    finally:
        plt.close(ax.figure)


def test_the_title_names_what_made_the_stats_when_given(engine, tmp_path):
    rules = engine.Rules.strict()
    stats = engine.simulate(200, "greedy", rules, seed=9)
    title = plot.histogram(stats, path=tmp_path / "s.png", strategy="greedy", rules=rules, seed=9).get_title()
    first, figures = title.split("\n")
    assert first == f"strategy greedy, seed 9, rules {rules}"
    assert figures.startswith("200 games: win rate")
    assert "\n" not in plot.histogram(stats, path=tmp_path / "t.png").get_title()  # nothing given, nothing named


def test_the_histogram_takes_the_win_score_from_its_length(tmp_path):
    from test_display import FakeStats

    ax = plot.histogram(FakeStats([1, 0, 2, 5, 3, 4]), path=tmp_path / "small.png")
    assert [bar.get_height() for bar in ax.patches] == [1, 0, 2, 5, 3, 4]
    assert ax.get_xlabel() == "score (cards discarded; 5 = won)"
    assert ax.patches[-1].get_facecolor() != ax.patches[0].get_facecolor()
