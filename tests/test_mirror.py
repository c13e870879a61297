"""The two engines mirror each other file for file and name for name (issue 8):
every module of the reference engine has a namesake in the engine crate, and each
public function and class of the reference's rules module is a ``pub fn``,
``pub struct``, ``pub enum`` or ``pub trait`` of ``crates/acesup/src/rules.rs``.

The Rust source is read from the repository (the parent of this tests directory);
the test is skipped only when that source tree is absent, as in an installed copy
of the tests.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import acesup.reference as reference
import acesup.reference.rules as reference_rules

REPO = Path(__file__).resolve().parent.parent
RUST = REPO / "crates" / "acesup" / "src"
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
    """The names of the ``pub`` functions (``const fn`` included), structs, enums
    and traits of a Rust source file."""
    return set(re.findall(r"\bpub\s+(?:(?:const\s+)?fn|struct|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]*)", source))


def test_the_reference_modules_are_the_contract():
    assert reference_modules() == sorted(["cards", "rules", "moves", "position", "game", "rng", "strategies",
                                          "stats", "simulate", "solver", "deals", "batch", "optimal"])


@needs_source
@pytest.mark.parametrize("module", reference_modules())
def test_each_reference_module_has_a_rust_namesake(module):
    assert (RUST / f"{module}.rs").is_file(), f"crates/acesup/src/{module}.rs mirrors reference/{module}.py"


@needs_source
def test_the_rule_functions_have_the_same_names():
    names = public_names(reference_rules)
    assert {"Rules", "can_discard", "discard_mask", "fill_choices", "can_fill", "blocking_fill", "can_deal",
            "deal_targets", "legal_moves", "illegal_reason", "is_over", "is_won", "is_top_rank",
            "strength"} <= set(names)
    items = rust_items((RUST / "rules.rs").read_text(encoding="utf-8"))
    missing = [name for name in names if name not in items]
    assert not missing, f"public in reference/rules.py but not pub in crates/acesup/src/rules.rs: {missing}"
