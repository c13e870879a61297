"""The two engines mirror each other file for file and name for name (issue 8):
every module of the reference engine has a namesake in the engine crate, and each
public function and class of a reference module ``reference/<m>.py`` is named in
the Rust of module ``m``: a ``pub`` or ``pub(crate)`` ``fn``, ``struct``, ``enum``
or ``trait`` of the engine crate's ``crates/acesup/src/<m>.rs`` (or of its folder
``<m>/`` when the module is split by concern), or else an item of the binding
crate's ``src/<m>.rs``.

The binding file counts because some names belong to the Python API layer and not
to the engine (``BuiltinStrategy``, ``strategy``, the resolution of an argument
such as ``move_arg`` or ``strategy_arg``): there a name is a ``fn``, ``struct``,
``enum`` or ``trait`` whether ``pub`` or not (``pub`` only says which binding
modules share it), or the Python name of a ``#[pyclass(name = "...")]``. Helpers
that nothing outside their module uses are private (``_name``) in Python and not
checked.

The Rust source is read from the repository (the parent of this tests directory);
the test is skipped only when that source tree is absent, as in an installed copy
of the tests.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import importlib

import acesup.reference as reference

REPO = Path(__file__).resolve().parent.parent
RUST = REPO / "crates" / "acesup" / "src"
BINDINGS = REPO / "src"
PYTHON = Path(reference.__file__).resolve().parent

needs_source = pytest.mark.skipif(not RUST.is_dir(), reason=f"the Rust source tree {RUST} is absent")


def reference_modules():
    return sorted(path.stem for path in PYTHON.glob("*.py") if path.stem != "__init__")


def public_names(module):
    """The functions and classes that ``module`` defines and does not mark private."""
    return sorted(name for name, value in vars(module).items()
                  if not name.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
                  and value.__module__ == module.__name__)


def rust_items(source):
    """The names of the ``pub`` or ``pub(crate)`` functions (``const fn``
    included), structs, enums and traits of a Rust source file: the engine crate's
    modules are private, its API one ``pub use`` list in ``lib.rs``, so an item
    that only the crate uses is ``pub(crate)``."""
    return set(re.findall(r"\bpub(?:\(crate\))?\s+(?:(?:const\s+)?fn|struct|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]*)",
                          source))


def binding_items(source):
    """The names of the functions, structs, enums and traits of a binding source
    file, ``pub`` or not, and the Python names of its ``#[pyclass(name = ...)]``."""
    items = re.findall(r"\b(?:fn|struct|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]*)", source)
    classes = re.findall(r"#\[pyclass\([^)]*\bname\s*=\s*\"([A-Za-z_][A-Za-z0-9_]*)\"", source)
    return set(items) | set(classes)


def engine_source(module):
    """The Rust of engine module ``module``: ``<module>.rs`` and the files of its
    folder ``<module>/`` when it is split by concern (``rules/options.rs``)."""
    files = [RUST / f"{module}.rs", *sorted((RUST / module).glob("*.rs"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def rust_names(module):
    """What the Rust of ``module`` names: the engine module's pub items, and the
    binding file's items when there is one."""
    names = rust_items(engine_source(module))
    binding = BINDINGS / f"{module}.rs"
    if binding.is_file():
        names |= binding_items(binding.read_text(encoding="utf-8"))
    return names


def test_the_reference_modules_are_the_contract():
    assert reference_modules() == sorted(["cards", "rules", "moves", "position", "game", "rng", "strategies",
                                          "stats", "simulate", "solver", "deals", "batch", "optimal"])


@needs_source
@pytest.mark.parametrize("module", reference_modules())
def test_each_reference_module_has_a_rust_namesake(module):
    assert (RUST / f"{module}.rs").is_file(), f"crates/acesup/src/{module}.rs mirrors reference/{module}.py"


@needs_source
def test_the_rule_functions_have_the_same_names():
    names = public_names(importlib.import_module("acesup.reference.rules"))
    assert {"Rules", "can_discard", "discard_mask", "fill_choices", "can_fill", "blocking_fill", "can_deal",
            "deal_targets", "legal_moves", "illegal_reason", "is_over", "is_won", "is_top_rank",
            "strength"} <= set(names)
    items = rust_items(engine_source("rules"))
    missing = [name for name in names if name not in items]
    assert not missing, f"public in reference/rules.py but not pub in crates/acesup/src/rules.rs or rules/: {missing}"


@needs_source
@pytest.mark.parametrize("module", reference_modules())
def test_each_reference_module_has_the_names_of_its_rust_namesake(module):
    names = public_names(importlib.import_module(f"acesup.reference.{module}"))
    assert names, f"reference/{module}.py defines no public function or class"
    missing = [name for name in names if name not in rust_names(module)]
    assert not missing, (f"public in reference/{module}.py but named neither in crates/acesup/src/{module}.rs "
                         f"(pub) nor in src/{module}.rs: {missing} (rename one side to "
                         f"the other's name, or make a helper that only its module uses private)")


def test_binding_items_reads_private_items_and_python_class_names():
    source = '''
#[pyclass(frozen, module = "acesup._core", name = "BuiltinStrategy")]
pub struct PyBuiltinStrategy {}
enum StrategyArg<'py> {}
fn strategy_arg<'py>(strategy: &Bound<'py, PyAny>) {}
'''
    assert binding_items(source) == {"BuiltinStrategy", "PyBuiltinStrategy", "StrategyArg", "strategy_arg"}
    assert rust_items(source) == {"PyBuiltinStrategy"}
    assert rust_items("pub(crate) fn can_fill() {}\nfn helper() {}") == {"can_fill"}


def test_the_classes_of_both_engines_have_the_same_public_attributes():
    """Every class that both engines export has the same public methods and
    properties, so that code written against one runs on the other."""
    import acesup
    import acesup.reference as ref

    shared = sorted(name for name in set(acesup.__all__) & set(ref.__all__)
                    if isinstance(getattr(acesup, name), type) and isinstance(getattr(ref, name), type))
    assert {"Rules", "Game", "Move", "Card", "Stats", "Solution", "Solvability", "Batch", "Rng"} <= set(shared)

    def public(cls):
        return {name for name in dir(cls) if not name.startswith("_")}

    differ = {name: (sorted(public(getattr(acesup, name)) - public(getattr(ref, name))),
                     sorted(public(getattr(ref, name)) - public(getattr(acesup, name))))
              for name in shared if public(getattr(acesup, name)) != public(getattr(ref, name))}
    assert differ == {}, "native only, reference only: " + repr(differ)
