"""Values of the two engines side by side (docs/API.md): the solver's values
compare equal and hash alike across the engines, as Stats and Comparison do;
Python's own TypeError texts name the classes alike; and an empty comparison is
refused by name."""

from __future__ import annotations

import operator

import pytest

import acesup
import acesup.reference as reference

ENGINES = (acesup, reference)


@pytest.mark.parametrize("make", [
    lambda m: m.Solution(True, ["d1", "deal"], 17),
    lambda m: m.Solution(False, (), 5),
    lambda m: m.Solution(None),
    lambda m: m.Solvability(3, 4, 5),
    lambda m: m.Solvability.empty(),
    lambda m: m.Stats([1] * 49),
], ids=["won", "lost", "unresolved", "solvability", "no-games", "stats"])
def test_solver_values_are_equal_across_engines(make):
    native, ref = make(acesup), make(reference)
    assert native == ref and ref == native
    assert not (native != ref) and not (ref != native)
    assert hash(native) == hash(ref)
    assert len({native, ref}) == 1


def test_different_solver_values_differ_across_engines():
    assert acesup.Solution(True, ["d1"], 3) != reference.Solution(True, ["d2"], 3)
    assert reference.Solution(True, ["d1"], 3) != acesup.Solution(True, ["d1"], 4)
    assert acesup.Solvability(1, 2, 3) != reference.Solvability(1, 2, 4)
    assert reference.Solution(None) != acesup.Solvability()


@pytest.mark.parametrize("operation", [
    lambda m: operator.lt(m.Card("As"), 1),
    lambda m: operator.lt(m.Card("As"), m.Move.deal()),
    lambda m: operator.lt(m.Rules(), m.Rules()),
    lambda m: operator.lt(m.Stats([0] * 49), 1),
    lambda m: operator.lt(m.Solvability(), m.Solvability()),
    lambda m: operator.add(m.Card("As"), 1),
    lambda m: operator.add(m.Solvability(), 1),
    lambda m: operator.add(m.Stats([0] * 49), "x"),
], ids=["card<int", "card<move", "rules<rules", "stats<int", "solvability<", "card+int",
        "solvability+int", "stats+str"])
def test_python_type_errors_name_the_public_classes(operation):
    messages = []
    for module in ENGINES:
        with pytest.raises(TypeError) as info:
            operation(module)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "_core" not in messages[0]


def test_the_native_classes_keep_their_module():
    for name in ("Card", "Move", "Rules", "Stats", "Game", "Solution", "Solvability"):
        native = getattr(acesup._core, name)
        assert (native.__name__, native.__module__) == (name, "acesup._core")
        assert repr(native) == f"<class 'acesup._core.{name}'>"


def test_from_stats_needs_a_stats(engine):
    with pytest.raises(ValueError, match=r"Comparison.from_stats\(\) needs the Stats of at least one strategy"):
        engine.Comparison.from_stats({})
