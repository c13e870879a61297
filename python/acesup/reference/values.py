"""The bases of the reference engine's immutable value types (Card, Move, Rules,
Stats, Solution, Solvability): equality, hashing and ordering by one key, no
attribute changes, and copies that are the value itself."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..arguments import is_native

__all__ = ["Frozen", "Ordered"]


class Frozen:
    """Base of the immutable value types. Each keeps in its ``_key`` slot the
    value that ``==``, ``hash`` (and, where defined, ordering) go by. Constructors
    set the slots with ``object.__setattr__``; nothing can change them afterwards,
    so a copy is the object itself."""

    __slots__ = ()
    _key: object
    # The _key of the native engine's value of the same name, for the types whose
    # values compare equal across the engines (and hash alike); None for the others.
    _native_key: Callable[[Any], object] | None = None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self._key == other._key
        # Python asks this method for native == reference as well.
        if self._native_key is not None and is_native(other, type(self).__name__):
            return self._key == self._native_key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __copy__(self) -> Frozen:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Frozen:
        return self


@functools.total_ordering
class Ordered(Frozen):
    """A Frozen value that also sorts by its ``_key``, among values of its type."""

    __slots__ = ()
    _key: Any  # an int or a tuple of ints: a key that sorts

    def __lt__(self, other: object) -> bool:
        if type(other) is type(self):
            return bool(self._key < other._key)
        return NotImplemented
