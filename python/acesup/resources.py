"""What a run may ask of the machine: ``simulate(..., scores=True)`` keeps a byte a
game, so a run of billions of games is refused up front, with the figures, rather
than left to exhaust the memory hours later; a ``Batch`` keeps a row of arrays a
slot, so one of more slots than the memory holds is refused at its construction,
rather than abort the interpreter. Both engines call these checks."""

from __future__ import annotations

from pathlib import Path

__all__ = ["SCORE_BYTES_PER_GAME", "available_memory", "check_batch_fits", "check_scores_fit"]

SCORE_BYTES_PER_GAME = 2
"""Bytes a game of a run with ``scores=True`` needs at its peak: its score, and
the score's copy in the ``bytes`` of the result."""

MEMINFO = Path("/proc/meminfo")


def available_memory() -> int | None:
    """The bytes of memory available to a new allocation (Linux's ``MemAvailable``),
    or None where the system does not say (other OSes, or a kernel without it)."""
    try:
        lines = MEMINFO.read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, value = line.partition(":")
        if name == "MemAvailable":
            number, _, unit = value.strip().partition(" ")
            return int(number) * (1024 if unit == "kB" else 1)
    return None


def _check_fits(needed: int, what: str, advice: str = "") -> None:
    """``MemoryError`` saying ``what`` needs (its ``needed`` bytes among it), the
    bytes available and ``advice``, when ``needed`` bytes exceed the memory
    available; nothing where the system does not say how much that is."""
    available = available_memory()
    if available is not None and needed > available:
        raise MemoryError(f"{what}, but only {available} bytes of memory are available "
                          f"(MemAvailable in {MEMINFO}){advice}")


def check_scores_fit(games: int) -> None:
    """``MemoryError`` naming the bytes needed and the bytes available when the
    scores of ``games`` games cannot fit in the memory available; nothing where
    the system does not say how much that is."""
    needed = SCORE_BYTES_PER_GAME * games
    _check_fits(needed, f"simulate(..., scores=True) of {games} games needs about {needed} bytes "
                        f"({SCORE_BYTES_PER_GAME} a game)", "; play it in shards, or without scores")


def check_batch_fits(n: int, slot_bytes: int) -> None:
    """``MemoryError`` naming the bytes needed and the bytes available when ``n``
    slots of at least ``slot_bytes`` bytes each (the rows of a Batch's arrays: a
    lower bound of what either engine keeps a slot) cannot fit in the memory
    available; nothing where the system does not say how much that is."""
    needed = slot_bytes * n
    _check_fits(needed, f"a Batch of {n} slots needs at least {needed} bytes ({slot_bytes} a slot or more)")
