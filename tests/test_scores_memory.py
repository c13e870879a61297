"""``simulate(..., scores=True)`` keeps a byte a game: a run whose scores cannot fit
in the memory available is refused up front, with the figures, and the repr of
Stats with many scores stays short (issue 9, item 6)."""

from __future__ import annotations

import re

import pytest

from acesup.resources import available_memory


@pytest.mark.skipif(available_memory() is None, reason="the system does not say how much memory is available")
def test_scores_that_cannot_fit_are_refused_up_front(engine):
    games = 10**15
    with pytest.raises(MemoryError) as info:
        engine.simulate(games, scores=True)
    message = str(info.value)
    assert f"{2 * games} bytes" in message
    assert "available" in message and str(available_memory())[:3] in message


def test_many_games_without_scores_are_not_refused(engine):
    assert engine.simulate(3, scores=False).games == 3


def test_the_repr_of_many_scores_is_short(engine):
    stats = engine.simulate(1000, scores=True)
    assert len(repr(stats)) < 400
    assert "<1000 bytes>" in repr(stats)


def test_the_repr_of_a_few_scores_shows_them(engine):
    stats = engine.simulate(3, scores=True)
    # The scores in full, followed by the next field (simulate's origin) or the end.
    assert re.search(re.escape(f"scores={bytes(stats.scores)!r}") + r"[,)]", repr(stats))
