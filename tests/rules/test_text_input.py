"""Text input that is not plain, read alike by both engines: lone surrogates
(what ``surrogateescape`` makes of a bad byte) round-trip or are quoted exactly,
never confused with the private-use characters the native engine stands them in
with; a str subclass is read by the characters it holds, whatever its methods say;
and a number in a text may carry any number of leading zeros."""

from __future__ import annotations

import pickle

import pytest

import acesup
import acesup.reference as reference
from acesup import errors
from acesup.encoding import Encoding

ENGINES = (acesup, reference)

# A lone surrogate, the private-use character that stands for it natively, and both.
TEXTS = ["\udcff", "\U0010dcff", "a\udcff\U0010dcff", "\ud800\U0010d800\U000fd800", "\\U0010dcff\udcff"]


def outcome(call):
    """What ``call()`` returns or raises, comparable across the engines."""
    try:
        return "returned", repr(call())
    except Exception as err:  # noqa: BLE001 - the engines must fail alike
        return type(err).__name__, str(err)


def same_in_both(make):
    results = [outcome(lambda m=m: make(m)) for m in ENGINES]
    assert results[0] == results[1]
    return results[0]


@pytest.mark.parametrize("text", TEXTS)
def test_a_stats_keeps_its_strategy_and_rules_texts_exactly(engine, text):
    stats = engine.Stats([0] * 49, strategy=text, rules=text + "!")
    assert (stats.strategy, stats.rules) == (text, text + "!")
    copy = pickle.loads(pickle.dumps(stats))
    assert (copy.strategy, copy.rules) == (text, text + "!")
    assert f"strategy={text!r}" in repr(stats)


def test_distinct_texts_stay_distinct():
    stats = [acesup.Stats([0] * 49, strategy=text) for text in TEXTS]
    assert len({s.strategy for s in stats}) == len(TEXTS)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("parse", [
    lambda m, t: m.Card(t),
    lambda m, t: m.Move.parse("d" + t),
    lambda m, t: m.Rules.parse("fill=" + t),
    lambda m, t: m.Rules(fill=t),
    lambda m, t: m.Rules(deal="stuck", fill=t),
    lambda m, t: m.strategy("montecarlo:playouts=" + t),
    lambda m, t: m.Game.from_seed(1).play(t),
    lambda m, t: m.solve_deals(t, []),
], ids=["Card", "Move.parse", "Rules.parse", "Rules", "Rules-two", "strategy", "play", "solve_deals"])
def test_surrogates_are_quoted_as_python_quotes_them(text, parse):
    kind, message = same_in_both(lambda m: parse(m, text))
    assert kind != "returned"
    assert repr(text)[1:-1] in message or repr(text.lower())[1:-1] in message  # R6.4 ignores case


def test_a_private_use_character_after_a_surrogate_elsewhere_is_quoted_as_itself():
    acesup.Stats([0] * 49, strategy="\udcff")  # keeps a stand-in, raises nothing
    with pytest.raises(errors.CardError, match=r"not a card: '\\U0010dcff'"):
        acesup.Card("\U0010dcff")


@pytest.mark.parametrize("text", TEXTS)
def test_a_callable_strategy_may_be_named_with_surrogates(text):
    def first(game):
        return game.legal_moves()[0]

    first.__qualname__ = text
    assert same_in_both(lambda m: m.simulate(2, first).strategy) == ("returned", repr(text))


@pytest.mark.parametrize("text", TEXTS)
def test_a_callable_strategy_that_returns_surrogates_is_refused(text):
    def says(game):
        return text

    kind, message = same_in_both(lambda m: m.simulate(1, says))
    assert kind == "StrategyError" and f"returned {text!r}, which is not a move text" in message


@pytest.mark.parametrize("spec", ["\udcff", "\U0010dcff", ">4\udcff", ">4", "u"])
def test_a_card_formats_with_any_spec(spec):
    same_in_both(lambda m: format(m.Card("Td"), spec))


class Pretending(str):
    """A str subclass whose methods say something else than its characters."""

    def __str__(self):
        return "Qz"

    def __eq__(self, other):
        return True

    __hash__ = str.__hash__

    def strip(self, *chars):
        return "Qz"

    def lower(self):
        return "Qz"

    def split(self, *args, **kwargs):
        return ["Qz"]


@pytest.mark.parametrize("read", [
    lambda m: m.Card(Pretending("As")),
    lambda m: m.Move.parse(Pretending("d1")),
    lambda m: m.Rules.parse(Pretending("easy")),
    lambda m: m.Rules.preset(Pretending("easy")),
    lambda m: m.Rules(fill=Pretending("any")),
    lambda m: m.Game.from_seed(1).play(Pretending("As")),
    lambda m: m.Game.from_seed(1).play(Pretending("f1>2")),
    lambda m: m.Game.from_seed(1).is_legal(Pretending("d1")),
    lambda m: m.Game.from_str(Pretending(m.Game.from_seed(1).to_str())),
    lambda m: Encoding.of(m).move_to_action(Pretending("f1>2")),
    lambda m: m.strategy(Pretending("greedy")).text,
    lambda m: m.Stats([0] * 49, strategy=Pretending("mine")).strategy,
    lambda m: list(m.solve_deals(Pretending("kpat"), [])),
], ids=["Card", "Move.parse", "Rules.parse", "Rules.preset", "Rules", "play-card", "play-fill", "is_legal",
        "from_str", "move_to_action", "strategy", "Stats", "solve_deals"])
def test_a_str_subclass_is_read_by_its_characters(read):
    kind, result = same_in_both(read)
    assert "Qz" not in result


@pytest.mark.parametrize("text, read", [
    ("montecarlo:playouts=" + "0" * 4300 + "7", lambda m, t: m.strategy(t)),
    ("hindsight:samples=" + "0" * 5000 + "3", lambda m, t: m.strategy(t)),
    ("montecarlo:playouts=" + "0" * 4301, lambda m, t: m.strategy(t)),
    ("piles=" + "0" * 5000 + "4", lambda m, t: m.Rules.parse(t)),
], ids=["playouts", "samples", "zero", "piles"])
def test_long_zero_padded_numbers_read_as_in_the_native_engine(text, read):
    kind, _ = same_in_both(lambda m: read(m, text))
    assert kind in ("returned", "StrategyError")
