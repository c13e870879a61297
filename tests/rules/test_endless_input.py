"""Endless iterables (issue "Hardening, round two", item 2): a deck, a solution's
line or a pickled history longer than any game can hold is an error as soon as it
is seen, the same in both engines, and Ctrl-C stops a history that never ends.
The native readers grew until the process aborted, so each case runs in a
subprocess with its address space bounded."""

from __future__ import annotations

import pytest

from helpers import run_isolated

GiB = 2**30

# A kpat position whose pile 0 holds a lone card and pile 3 is empty, with the stock
# full: a lone card may move back and forth for ever (R4.3).
LONE = ("Qs/6c/7d/- 5s2cJc7cAs3hKdJsQd8s9hTs8cKc6sAcTd4h4d8hKh8d7s7h5hTh4c6hJdJh6d5c9cAd2s9s9dKs2h3dQhQc3s3c5d2dTcAh"
        " 4s fill=top,deal=any,relocate_single=true,ace_high=true")


def outcome(engine, call, *, ctrl_c=False):
    """What ``call`` (an expression of ``engine`` and ``itertools``) ends with, run
    in a subprocess under 1 GiB more address space: the exception's class and
    message, one line."""
    done = run_isolated(f"""
        import itertools
        import {engine.__name__} as engine
        limit_address_space({GiB})
        print("ready", flush=True)
        try:
            {call}
        except BaseException as err:
            print(type(err).__name__, err)
        """, timeout=60, ctrl_c_after=0.5 if ctrl_c else None)
    assert done.returncode == 0, done.stderr[-2000:]
    ready, _, said = done.stdout.partition("\n")
    assert ready == "ready"
    return said.strip()


def test_an_endless_deck_is_too_long_at_its_53rd_card(engine):
    assert outcome(engine, "engine.Game.from_deck(itertools.repeat('As'))") == (
        "DeckError the deck holds more than 52 cards, more than any layout's deck (R1.4)")


def test_an_endless_line_is_too_long_for_a_solution(engine):
    assert outcome(engine, "engine.Solution(True, moves=itertools.repeat(engine.Move.deal()))") == (
        "ValueError a solution holds at most 57599 moves (a line that repeats no position, R4.3), got more")


def test_an_endless_history_fails_on_its_first_move_past_the_end(engine):
    # Twelve deals empty the stock of the standard game; the thirteenth is illegal.
    call = "engine.Game.from_seed(1).__setstate__({'history': itertools.repeat('deal'), 'stream': 0})"
    assert outcome(engine, call).startswith("IllegalMoveError cannot deal")


def test_ctrl_c_stops_an_endless_history_of_lone_card_moves(engine):
    call = (f"engine.Game.from_str({LONE!r}).__setstate__("
            "{'history': itertools.cycle(['f0>3', 'f3>0']), 'stream': 0})")
    assert outcome(engine, call, ctrl_c=True) == "KeyboardInterrupt"


@pytest.mark.parametrize("length", [52, 53])
def test_an_iterator_of_a_deck_stops_at_its_53rd_card(engine, length):
    """An iterator is read up to the card past the largest deck; a list is read
    whole, to name its length (tests/test_errors.py)."""
    cards = [str(card) for card in engine.Rules().deck()]
    deck = cards + cards[: length - 52]
    if length == 52:
        assert engine.Game.from_deck(iter(deck)).stock == tuple(engine.Card(c) for c in cards[4:])
    else:
        with pytest.raises(engine.DeckError, match="more than 52 cards"):
            engine.Game.from_deck(iter(deck))
        with pytest.raises(engine.DeckError, match="holds 53 cards, not 52"):
            engine.Game.from_deck(deck)
