"""The two engines mirror each other file for file and name for name, both ways:
every module of the reference engine (``reference/<m>.py``) has a namesake in the
engine crate (``crates/acesup/src/<m>.rs``, or a folder ``<m>/`` with its
``mod.rs``), every module of the engine crate has a namesake in the reference,
and the modules that only one engine has are listed below, each with the reason.
Each public function and class of a reference module ``m`` is named in the Rust
of module ``m``: a ``pub`` or ``pub(crate)`` ``fn``, ``struct``, ``enum`` or ``trait``
of the engine crate's module (any file of its folder), or else an item of the
binding crate's ``src/<m>.rs`` (or ``src/<m>/``).

The binding file counts because some names belong to the Python API layer and not
to the engine (``BuiltinStrategy``, ``strategy``, the resolution of an argument
such as ``move_arg`` or ``strategy_arg``): there a name is a ``fn``, ``struct``,
``enum`` or ``trait`` whether ``pub`` or not (``pub`` only says which binding
modules share it), or the Python name of a ``#[pyclass(name = "...")]``. Helpers
that nothing outside their module uses are private (``_name``) in Python and not
checked.

The Rust source is read from the checkout that holds this tests directory; the
test is skipped only when that source tree is absent, as in an installed copy of
the tests.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import acesup.reference as reference
from helpers import ROOT

RUST = ROOT / "crates" / "acesup" / "src"
BINDINGS = ROOT / "src"
PYTHON = Path(reference.__file__).resolve().parent

needs_source = pytest.mark.skipif(not RUST.is_dir(), reason=f"the Rust source tree {RUST} is absent")

# The modules that one engine has and the other has not, each with the reason. Every
# other module of either engine has its namesake in the other. Only this list needs
# an edit when an engine gains, loses, moves or merges such a module.
RUST_ONLY = {
    "error": "the engine's error and its kind, which the binding turns into the classes of acesup.errors: "
             "the reference raises those classes itself",
    "lanes": "performance only: the bit lanes of a suit in which the rules' mask tests work; the reference "
             "compares cards one by one",
    "hash": "a fast hasher for the engine's own keys (lookahead's positions, the optimum's memo): "
            "Python's dicts and sets hash them",
    "random_play": "performance only: the random strategy's play-out loop in a representation of its own; "
                   "the reference plays the random strategy through Game, as any strategy",
    "run": "running work on many threads: the pool a run plays on, its chunks, Ctrl-C and deadlines "
           "seen by every thread, and solve_deals' stream of verdicts handed out in order; the reference "
           "plays every run on the calling thread, where Python raises KeyboardInterrupt itself, and its "
           "solve_deals is a generator",
}
REFERENCE_ONLY = {
    "values": "the bases of the immutable value types (==, hash and ordering by one key, no changes): "
              "Rust derives these traits on each type",
}


def reference_modules():
    return sorted(path.stem for path in PYTHON.glob("*.py") if path.stem != "__init__")


def rust_modules():
    """The modules of the engine crate: a file ``<m>.rs`` or a folder ``<m>/`` with
    its ``mod.rs`` (its submodules are its own)."""
    files = {path.stem for path in RUST.glob("*.rs")} - {"lib"}
    return sorted(files | {path.parent.name for path in RUST.glob("*/mod.rs")})


def mirrored_modules():
    """The reference modules that have a namesake in the engine crate."""
    return [module for module in reference_modules() if module not in REFERENCE_ONLY]


def module_sources(root, module):
    """The Rust files of ``module`` under ``root``: ``<m>.rs`` and every file of the
    folder ``<m>/``, whichever exist."""
    files = [root / f"{module}.rs"] if (root / f"{module}.rs").is_file() else []
    return files + sorted((root / module).rglob("*.rs"))


def module_text(root, module):
    return "\n".join(path.read_text(encoding="utf-8") for path in module_sources(root, module))


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


def rust_names(module):
    """What the Rust of ``module`` names: the engine module's pub items, and the
    binding module's items when there is one."""
    return rust_items(module_text(RUST, module)) | binding_items(module_text(BINDINGS, module))


def test_the_reference_modules_are_the_contract():
    assert mirrored_modules() == sorted(["cards", "rules", "moves", "position", "game", "rng", "strategies",
                                         "stats", "simulate", "solver", "deals", "batch", "optimal",
                                         "bound"])


@needs_source
@pytest.mark.parametrize("module", mirrored_modules())
def test_each_reference_module_has_a_rust_namesake(module):
    assert module in rust_modules(), (f"crates/acesup/src/{module}.rs (or {module}/mod.rs) mirrors "
                                      f"reference/{module}.py")


@needs_source
def test_each_rust_module_has_a_reference_namesake_or_a_reason():
    unlisted = [module for module in rust_modules() if module not in reference_modules() + list(RUST_ONLY)]
    assert not unlisted, (f"modules of crates/acesup/src with no namesake in python/acesup/reference: "
                          f"{unlisted} (write the reference's twin, or add the module to RUST_ONLY in "
                          f"{Path(__file__).name} with the reason)")


@needs_source
def test_the_modules_of_one_engine_are_in_that_engine_only():
    rust, python = set(rust_modules()), set(reference_modules())
    stale = {f"RUST_ONLY[{module!r}]": "not in crates/acesup/src" if module not in rust else "has a reference twin"
             for module in RUST_ONLY if module not in rust or module in python}
    stale |= {f"REFERENCE_ONLY[{module!r}]": "not in python/acesup/reference" if module not in python
              else "has a Rust twin" for module in REFERENCE_ONLY if module not in python or module in rust}
    assert not stale, f"entries of {Path(__file__).name} to update: {stale}"
    assert all(reason for reason in [*RUST_ONLY.values(), *REFERENCE_ONLY.values()])


@needs_source
def test_the_rule_functions_have_the_same_names():
    names = public_names(importlib.import_module("acesup.reference.rules"))
    assert {"Rules", "can_discard", "discard_mask", "fill_choices", "can_fill", "blocking_fill", "can_deal",
            "deal_targets", "legal_moves", "illegal_reason", "is_over", "is_won", "is_top_rank",
            "strength"} <= set(names)
    items = rust_items(module_text(RUST, "rules"))
    missing = [name for name in names if name not in items]
    assert not missing, f"public in reference/rules.py but not pub in crates/acesup/src/rules.rs: {missing}"


@needs_source
@pytest.mark.parametrize("module", mirrored_modules())
def test_each_reference_module_has_the_names_of_its_rust_namesake(module):
    names = public_names(importlib.import_module(f"acesup.reference.{module}"))
    assert names, f"reference/{module}.py defines no public function or class"
    missing = [name for name in names if name not in rust_names(module)]
    assert not missing, (f"public in reference/{module}.py but named neither in crates/acesup/src/{module} "
                         f"(pub) nor in src/{module}: {missing} (rename one side to "
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
