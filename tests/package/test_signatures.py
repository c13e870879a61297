"""The native engine's classes, methods and functions show their real signatures:
``inspect.signature`` works on each and gives the reference engine's, parameter
for parameter (names, kinds, defaults), so that ``help()`` reads the same in both
engines."""

from __future__ import annotations

import inspect

import pytest

import acesup
import acesup._core as core
import acesup.reference as reference

CLASSES = ["Game", "Rules", "Card", "Move", "Stats", "Solution", "Solvability", "Rng", "BuiltinStrategy",
           "Batch"]  # Batch: acesup/batch.py over the native BatchEngine
FUNCTIONS = ["simulate", "solve", "solvability", "strategy", "deck_from_seed", "game_seed",
             "deck_from_kpat", "deck_from_pysol", "solve_deals", "optimal", "builtin_names"]


def shape(signature: inspect.Signature, drop_self: bool = False) -> list[tuple[str, object, object]]:
    """The parameters as (name, kind, default), without annotations (the reference
    has them, the native engine does not) and, for a method, without ``self``
    (positional-only in the native engine)."""
    parameters = list(signature.parameters.values())
    if drop_self and parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return [(p.name, p.kind, p.default) for p in parameters]


# The extension's building blocks of Python modules, not names of the package: BatchEngine
# (under acesup.Batch), DealVerdicts (under solve_deals) and ChanceGame (under
# acesup.openspiel's state; tests/batch/test_openspiel.py holds it to its reference twin).
BUILDING_BLOCKS = {"BatchEngine", "DealVerdicts", "ChanceGame"}


def test_every_native_class_and_function_is_checked():
    public = {name for name in dir(core)
              if not name.startswith("_") and callable(getattr(core, name))} - BUILDING_BLOCKS
    assert public == set(CLASSES) - {"Batch"} | set(FUNCTIONS)


@pytest.mark.parametrize("name", CLASSES + FUNCTIONS)
def test_native_signature_is_the_references(name):
    native, ref = getattr(acesup, name), getattr(reference, name)
    assert shape(inspect.signature(native)) == shape(inspect.signature(ref))


@pytest.mark.parametrize("name", CLASSES)
def test_native_methods_have_the_references_signatures(name):
    native, ref = getattr(acesup, name), getattr(reference, name)
    methods = [m for m in dir(native) if not m.startswith("_") and callable(getattr(native, m))]
    for method in methods:
        theirs = getattr(ref, method)
        drop_self = not isinstance(inspect.getattr_static(ref, method), (classmethod, staticmethod))
        assert shape(inspect.signature(getattr(native, method)), drop_self) == \
            shape(inspect.signature(theirs), drop_self), f"{name}.{method}"


def test_help_of_game_shows_its_signature():
    import pydoc
    shown = pydoc.render_doc(acesup.Game)
    assert "Game(*args, **kwargs)" in shown and "_args" not in shown
