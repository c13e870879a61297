"""``simulate(..., scores=True)`` keeps a byte a game: a run whose scores cannot fit
in the memory available is refused up front, with the figures, and the repr of
Stats with many scores stays short (issue 9, item 6). A ``Batch`` of more slots
than the memory holds is refused too, instead of aborting the interpreter."""

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


@pytest.mark.skipif(available_memory() is None, reason="the system does not say how much memory is available")
def test_a_batch_that_cannot_fit_is_refused_at_its_construction(engine):
    n = 10**14  # 10**16 bytes and more: the native engine's allocation failed and aborted the process
    with pytest.raises(MemoryError) as info:
        engine.Batch(n)
    slot = engine.Batch(1)._slot_bytes(False)  # what the engine takes a slot (tests/batch/test_batch_limits.py)
    assert slot >= 2 * 105 + 17  # at least the standard layout's observation, twice, and its action mask
    assert str(info.value).startswith(f"a Batch of {n} slots needs about {slot * n} bytes ({slot} a slot)")
    assert "available" in str(info.value)
    assert engine.Batch(1000).n == 1000


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
