"""A griffe extension for the API reference (mkdocs.yml): the native engine's class attributes.

Griffe reads the compiled ``acesup._core`` by inspection, which gives the docstrings
(the Rust doc comments of the binding crate), and merges its stub ``_core.pyi`` into
it, which gives the types. Inspection also gives a class attribute that holds a
plain value, such as ``Rules.FILLS``, the docstring of the value's type (a tuple's
"Built-in immutable sequence. ..."), which says nothing about the attribute: this
extension takes those away, so that such an attribute shows its type and value alone.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe

PACKAGE, NATIVE = "acesup", "_core"


class NativeAttributes(griffe.Extension):
    """Drops the docstrings that the native module's plain class attributes borrow from their type."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path == PACKAGE:
            _drop_type_docstrings(pkg[NATIVE], importlib.import_module(f"{PACKAGE}.{NATIVE}"))


def _drop_type_docstrings(parent: griffe.Object, compiled: object) -> None:
    """Walks the classes of ``parent``, whose compiled twin is ``compiled``."""
    for name, member in parent.members.items():
        if member.is_alias or not hasattr(compiled, name):
            continue
        value = inspect.getattr_static(compiled, name)
        if member.is_class:
            _drop_type_docstrings(member, value)
        elif member.is_attribute and not (callable(value) or inspect.isdatadescriptor(value)):
            member.docstring = None
