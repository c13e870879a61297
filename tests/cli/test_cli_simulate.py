"""``acesup simulate``: its figures, its JSON, its plot and its partial result on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import pytest

import acesup
from cli_helpers import python_m, run


def test_simulate_prints_the_figures_of_one_simulate_call(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "5000", "--strategy", "greedy",
                         "--rules", "strict", "--deal", "stuck", "--seed", "9", "--threads", "2")
    assert status == 0
    stats = acesup.simulate(5000, "greedy", acesup.Rules(fill="ace", deal="stuck"), seed=9)
    low, high = stats.ci95
    assert "games       5,000\n" in out
    assert f"wins        {stats.wins:,}\n" in out
    assert f"win rate    {stats.win_rate:.5f} (95% CI {low:.5f} to {high:.5f})" in out
    assert f"mean score  {stats.mean_score:.3f}" in out
    assert "games/s" in out
    assert "rules fill=ace,deal=stuck,relocate_single=false,ace_high=true" in out
    histogram = out[out.index("score   games"):].splitlines()[1:]
    assert len(histogram) == 13  # 0-3, 4-7, ..., 44-47 and the won games
    assert sum(int(line.split()[-2].replace(",", "")) for line in histogram) == 5000
    assert histogram[-1].split()[0] == "won"


def test_simulate_json_parses_and_equals_simulate(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "3000", "--seed", "4", "--ace-low",
                         "--relocate-single", "--json")
    assert status == 0
    result = json.loads(out)
    rules = acesup.Rules(relocate_single=True, ace_high=False)
    stats = acesup.simulate(3000, "random", rules, seed=4)
    assert result["histogram"] == list(stats.histogram)
    assert (result["games"], result["wins"], result["losses"]) == (3000, stats.wins, stats.losses)
    assert result["win_rate"] == stats.win_rate and result["ci95"] == list(stats.ci95)
    assert result["mean_score"] == stats.mean_score
    assert result["rules"] == str(rules) and result["partial"] is False
    assert result["games_per_second"] > 0


def test_simulate_gives_the_same_figures_on_both_engines(capsys, monkeypatch):
    figures = {}
    for engine in ("native", "reference"):
        status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "300", "--strategy", "simple",
                             "--rules", "easy", "--engine", engine, "--json")
        assert status == 0
        result = json.loads(out)
        figures[engine] = (result["histogram"], result["ci95"], result["mean_score"])
    assert figures["native"] == figures["reference"]


def test_simulate_plot_to_a_folder_is_refused_before_playing(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "scores.png"
    folder.mkdir()
    status, out, err = run(capsys, monkeypatch, "simulate", "--games", "1e9", "--plot", str(folder))
    assert status == 2 and out == ""
    assert f"cannot save a plot as {str(folder)!r}: it is a folder" in err and err.count("\n") == 1


def test_simulate_plot_writes_the_picture(capsys, monkeypatch, tmp_path):
    path = tmp_path / "scores.png"
    status, _, _ = run(capsys, monkeypatch, "simulate", "--games", "1000", "--plot", str(path))
    assert status == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_plot_without_matplotlib_names_the_extra_before_playing(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    status, out, err = run(capsys, monkeypatch, "simulate", "--plot", str(tmp_path / "scores.png"))
    assert status == 2 and out == ""
    assert "acesup[plot]" in err and err.count("\n") == 1


@pytest.mark.serial
def test_simulate_ctrl_c_prints_the_partial_result_with_status_130():
    process = python_m("simulate", "--games", "1e15", "--engine", "reference", "--json")
    time.sleep(2.0)  # past the start-up, into the shards
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    result = json.loads(out)
    assert result["partial"] is True
    assert 0 < result["games"] < 10**15 and sum(result["histogram"]) == result["games"]
    assert result["histogram"] == list(acesup.simulate(result["games"]).histogram)  # the shards played


@pytest.mark.serial
def test_simulate_text_marks_a_partial_result():
    process = python_m("simulate", "--games", "1e15", "--threads", "1", env={**os.environ, "NO_COLOR": "1"})
    time.sleep(2.0)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: partial result" in out and "of 1,000,000,000,000,000 games played" in out


def test_simulate_on_the_reference_engine_says_it_runs_on_one_thread(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference")
    assert status == 0
    assert out.splitlines()[0] == "strategy random, seed 0, reference engine on one thread (pure Python)"
    _, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference", "--threads", "4")
    assert "reference engine on one thread (pure Python; --threads is ignored)" in out
    assert "all cores" not in out
    _, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference", "--json")
    assert json.loads(out)["threads"] == 1


def test_the_text_histogram_takes_the_win_score_from_its_length():
    from acesup.cli.simulate import text_histogram

    lines = text_histogram((1, 2, 3, 4, 5, 6, 7)).splitlines()[1:]  # win score 6: bars 0-3, 4-5 and won
    assert [line.split()[0] for line in lines] == ["0-", "4-", "won"]
    assert [int(line.split()[-2]) for line in lines] == [10, 11, 7]
    standard = text_histogram(acesup.simulate(100).histogram).splitlines()
    assert standard[-2].startswith("44-47") and standard[-1].split()[0] == "won"
