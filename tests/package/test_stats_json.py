"""The JSON text of Stats and Comparison (docs/API.md, "JSON"): ``to_json`` writes
the same text in both engines, ``from_json`` of either engine reads it back
equal, with the same scores and origin, and bad text is a ValueError naming the
problem."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import acesup
import acesup.reference as reference
from acesup.reference.stats import LENGTHS

ENGINES = (acesup, reference)


@st.composite
def stats_args(draw):
    """The arguments of a Stats: a histogram of some layout's length, maybe with
    the scores it counts, and maybe an origin."""
    length = draw(st.sampled_from(sorted(LENGTHS)))
    if draw(st.booleans()):
        scores = bytes(draw(st.lists(st.integers(0, length - 1), max_size=60)))
        histogram = np.bincount(np.frombuffer(scores, dtype=np.uint8), minlength=length).tolist()
    else:
        scores = None
        histogram = draw(st.lists(st.one_of(st.integers(0, 5), st.integers(0, 2**64 - 1)),
                                  min_size=length, max_size=length))
    origin = dict(strategy=draw(st.none() | st.text()), rules=draw(st.none() | st.text()),
                  seed=draw(st.none() | st.integers(0, 2**64 - 1)))
    return histogram, scores, origin


def same(a, b):
    """Equal Stats with the same scores and the same origin."""
    assert a == b
    assert (a.scores is None) == (b.scores is None)
    if a.scores is not None:
        assert a.scores.tobytes() == b.scores.tobytes()
    assert (a.strategy, a.rules, a.seed) == (b.strategy, b.rules, b.seed)


@given(stats_args())
def test_stats_round_trip_in_and_across_the_engines(args):
    histogram, scores, origin = args
    made = [engine.Stats(histogram, scores, **origin) for engine in ENGINES]
    texts = [stats.to_json() for stats in made]
    assert texts[0] == texts[1]
    for stats in made:
        for engine in ENGINES:
            back = engine.Stats.from_json(texts[0])
            assert type(back) is engine.Stats
            same(back, stats)
            assert back.to_json() == texts[0]


def test_a_run_s_stats_round_trip_with_their_origin(engine):
    stats = engine.simulate(300, "greedy", engine.Rules.parse("strict"), seed=7, scores=True)
    back = engine.Stats.from_json(stats.to_json())
    same(back, stats)
    assert back.strategy == "greedy" and back.seed == 7 and back.rules == str(engine.Rules.parse("strict"))
    document = json.loads(stats.to_json())
    assert document["format"] == "acesup.stats/1"
    assert (document["games"], document["wins"], document["win_rate"]) == (300, stats.wins, stats.win_rate)


def test_no_games_write_their_nan_figures_as_null(engine):
    document = json.loads(engine.Stats.empty().to_json())
    assert document["win_rate"] is None and document["mean_score"] is None and document["scores"] is None
    assert engine.Stats.from_json(engine.Stats.empty().to_json()) == engine.Stats.empty()


GOOD = json.loads(acesup.Stats([0] * 48 + [2], b"\x30\x30").to_json())


@pytest.mark.parametrize("text, problem", [
    ("{", "not JSON"),
    ("[1, 2]", "must be a JSON object, got an array"),
    (json.dumps({**GOOD, "format": "acesup.stats/9"}), 'must have "format": "acesup.stats/1"'),
    (json.dumps({k: v for k, v in GOOD.items() if k != "format"}), 'must have "format"'),
    (json.dumps({k: v for k, v in GOOD.items() if k != "histogram"}), "no histogram"),
    (json.dumps({**GOOD, "histogram": "48"}), "histogram of the JSON text must be a list"),
    (json.dumps({**GOOD, "histogram": [0] * 50}), "does not hold Stats: histogram must hold at most 49"),
    (json.dumps({**GOOD, "histogram": [True] * 49}), "does not hold Stats"),
    (json.dumps({**GOOD, "scores": "@@"}), "not base64"),
    (json.dumps({**GOOD, "scores": [48, 48]}), "scores of the JSON text must be base64 text or null"),
    (json.dumps({**GOOD, "scores": "MDEy"}), "does not hold Stats: scores must be"),
    (json.dumps({**GOOD, "seed": -1}), "does not hold Stats: seed"),
    (json.dumps({**GOOD, "strategy": 5}), "does not hold Stats: strategy must be a str"),
    (json.dumps({**GOOD, "wins": 1}), "wins of the JSON text is 1, but its histogram gives 2"),
    (json.dumps({**GOOD, "ci95": [0, 1]}), "ci95 of the JSON text"),
])
def test_bad_json_is_a_value_error_naming_the_problem(engine, text, problem):
    with pytest.raises(ValueError, match=problem.replace("(", r"\(").replace("[", r"\[")):
        engine.Stats.from_json(text)


def test_text_that_is_not_a_str_is_a_type_error(engine):
    with pytest.raises(TypeError, match="from_json"):
        engine.Stats.from_json(5)


def test_other_keys_are_ignored_so_the_command_line_s_json_reads_back(engine):
    stats = engine.simulate(50, "simple", seed=2)
    document = {**json.loads(stats.to_json()), "seconds": 0.5, "engine": "native"}
    same(engine.Stats.from_json(json.dumps(document, indent=2)), stats)


@pytest.mark.parametrize("reader", ENGINES, ids=["native", "reference"])
def test_a_comparison_round_trips_with_the_stats_of_either_engine(engine, reader):
    found = engine.compare(["random", "greedy", "simple"], 200, seed=4)
    text = found.to_json()
    assert json.loads(text)["format"] == "acesup.comparison/1"
    back = reader.Comparison.from_json(text, reader.Stats)
    assert back == found and back.pairs == found.pairs and list(back.stats) == list(found.stats)
    for name, stats in found.stats.items():
        assert type(back.stats[name]) is reader.Stats
        same(back.stats[name], stats)
    assert back.to_json() == text
    assert type(reader.Comparison.from_json(text).stats["random"]) is acesup.Stats  # the default


def test_a_comparison_s_json_is_the_same_text_in_both_engines():
    texts = {engine.compare(["random", "greedy"], 100, seed=1).to_json() for engine in ENGINES}
    assert len(texts) == 1


def test_a_comparison_whose_pairs_do_not_match_its_stats_is_refused():
    document = json.loads(acesup.compare(["random", "greedy"], 100).to_json())
    document["pairs"][0]["wins_a_only"] += 1
    with pytest.raises(ValueError, match="pairs"):
        acesup.Comparison.from_json(json.dumps(document))
    document["stats"]["random"]["format"] = "x"
    with pytest.raises(ValueError, match="the Stats of 'random' must have"):
        acesup.Comparison.from_json(json.dumps(document))
    with pytest.raises(ValueError, match="stats"):
        acesup.Comparison.from_json(json.dumps({"format": "acesup.comparison/1", "stats": [], "pairs": []}))
