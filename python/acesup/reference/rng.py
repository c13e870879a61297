"""The generator of RNG.md: SplitMix64, Lemire's bounded draw, the shuffle and the
per-game seeds. Every random number of the package comes from here; the decks
they shuffle are made in ``deals``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..arguments import U64, int_arg

__all__ = ["Rng", "game_seed", "shuffle_slice"]

T = TypeVar("T")

_MASK = U64 - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    """The output function of SplitMix64 (the last three lines of next_u64)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64 (RNG.md). The whole state is one 64-bit integer, ``state``.

    ``Rng(seed)`` takes an int in [0, 2**64): ``ValueError`` otherwise, ``TypeError``
    for a non-int. An Rng is mutable (drawing advances it), so it is unhashable;
    ``==`` compares states, and copies and pickles carry the state.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = int_arg(seed, "seed", 0, U64)

    @property
    def state(self) -> int:
        """The current state: ``Rng(rng.state)`` continues exactly where rng is."""
        return self._state

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GOLDEN) & _MASK
        return _mix(self._state)

    def below(self, n: int) -> int:
        """A uniform int in [0, n), by Lemire's method with rejection (RNG.md).

        Raises ``ValueError`` unless 1 <= n < 2**64 (``TypeError`` for a non-int),
        without drawing.
        """
        n = int_arg(n, "n", 1, U64)
        m = self.next_u64() * n
        if m & _MASK < n:
            threshold = (U64 - n) % n
            while m & _MASK < threshold:
                m = self.next_u64() * n
        return m >> 64

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        return Rng(self._state)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Rng:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rng):
            return self._state == other._state
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Rng({self._state})"

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        return Rng, (self._state,)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``seed``: the
    (index+1)-th output of ``Rng(seed)``, computed directly (RNG.md).

    Both arguments must be ints in [0, 2**64): ``ValueError`` otherwise, ``TypeError``
    for a non-int.
    """
    seed = int_arg(seed, "seed", 0, U64)
    index = int_arg(index, "index", 0, U64)
    return _mix((seed + (index + 1) * _GOLDEN) & _MASK)


def shuffle_slice(items: list[T], below: Callable[[int], int]) -> list[T]:
    """Shuffles ``items`` in place and returns it: Fisher-Yates from the last index
    down, ``j = below(i + 1)`` for i from ``len(items) - 1`` to 1 (RNG.md), where
    ``below`` is a bounded draw such as ``Rng.below`` or ``Game.randbelow``."""
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
