"""The choices that ``acesup`` offers (presets, strategies, rules options) are the
engine's own data, read from it rather than written again, so that they cannot
drift from it; and both engines give the same data."""

from __future__ import annotations

import argparse

import pytest

import acesup
import acesup.reference
from acesup.cli import _parser
from acesup.cli.table import TABLE_PRESETS, TABLE_STRATEGIES
from acesup.cli.winnable import VERDICTS

RULES_COMMANDS = ("simulate", "solve", "play", "winnable")  # the commands with the rules options


def options(command: str) -> dict[str, argparse.Action]:
    """The options of ``acesup command``, by their flags."""
    commands = next(action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction))
    return {flag: action for action in commands.choices[command]._actions for flag in action.option_strings}


def words(text: str | None) -> str:
    """Help text with its lines joined, as a reader sees it."""
    return " ".join((text or "").split())


def test_both_engines_give_the_same_presets_rules_values_and_strategies():
    native, reference = acesup, acesup.reference
    for name in ("PRESETS", "FILLS", "DEALS", "DEAL_TOS"):
        assert getattr(native.Rules, name) == getattr(reference.Rules, name), name
        assert type(getattr(native.Rules, name)) is tuple
    assert native.builtin_names() == reference.builtin_names()
    assert type(native.builtin_names()) is tuple
    assert len(native.Rules.PRESETS) == 12 and {"pysol_russian_aces", "pysol_fortunes", "pysol_firing_squad"} <= set(native.Rules.PRESETS)
    assert {"hindsight", "optimal"} <= set(native.builtin_names())
    for engine in (native, reference):
        for preset in engine.Rules.PRESETS:
            assert engine.Rules.preset(preset) == engine.Rules.parse(preset)
        for option, values in (("fill", "FILLS"), ("deal", "DEALS"), ("deal_to", "DEAL_TOS")):
            for value in getattr(engine.Rules, values):
                assert getattr(engine.Rules(**{option: value}), option) == value
        for name in engine.builtin_names():
            assert repr(engine.strategy(name)) == f"strategy({name!r})"  # each name is a built-in


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_the_rules_options_offer_the_engine_s_presets_and_values(command):
    flags = options(command)
    assert tuple(flags["--fill"].choices) == acesup.Rules.FILLS
    assert tuple(flags["--deal"].choices) == acesup.Rules.DEALS
    assert f"a preset ({', '.join(acesup.Rules.PRESETS)})" in words(flags["--rules"].help)


def test_the_strategy_help_names_every_built_in():
    help_text = words(options("simulate")["--strategy"].help)
    assert ", ".join(acesup.builtin_names()) in help_text


def test_the_table_s_defaults_are_among_the_engine_s_names():
    assert set(TABLE_PRESETS) <= set(acesup.Rules.PRESETS)
    assert set(TABLE_STRATEGIES) <= set(acesup.builtin_names())
    assert ", ".join(TABLE_STRATEGIES) in words(options("table")["--strategy"].help)


def test_winnable_lists_the_verdicts_it_knows():
    assert list(options("winnable")["--list"].choices) == list(VERDICTS)
