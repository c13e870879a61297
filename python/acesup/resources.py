"""What a run may ask of the machine: ``simulate(..., scores=True)`` keeps a byte a
game, so a run of billions of games is refused up front, with the figures, rather
than left to exhaust the memory hours later; a ``Batch`` keeps a row of arrays a
slot, so one of more slots than the memory holds is refused at its construction,
rather than abort the interpreter; ``optimal`` stops at as many positions as the
memory holds, unless told another limit. Both engines call these checks.

The memory available is the less of Linux's ``MemAvailable`` and the address
space that ``RLIMIT_AS`` (``ulimit -v``) leaves this process."""

from __future__ import annotations

from pathlib import Path

from .arguments import U64, int_arg

try:
    import resource
except ImportError:  # not on Windows: no address-space limit to read
    resource = None  # type: ignore[assignment]

__all__ = ["SCORE_BYTES_PER_GAME", "available_memory", "check_batch_fits", "check_scores_fit", "max_states_arg"]

SCORE_BYTES_PER_GAME = 2
"""Bytes a game of a run with ``scores=True`` needs at its peak: its score, and
the score's copy in the ``bytes`` of the result."""

MEMINFO = Path("/proc/meminfo")
STATUS = Path("/proc/self/status")


def _proc_bytes(path: Path, field: str) -> int | None:
    """The bytes that ``field`` of ``path`` (a /proc file of ``name: number kB``
    lines) says, or None where the system has no such file or field."""
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, value = line.partition(":")
        if name == field:
            number, _, unit = value.strip().partition(" ")
            return int(number) * (1024 if unit == "kB" else 1)
    return None


def _available() -> tuple[int, str] | None:
    """The bytes of memory available to a new allocation and where that figure
    comes from: ``MemAvailable``, or the address space left under ``RLIMIT_AS``
    (its soft limit less this process's ``VmSize``) when that is less; None where
    the system says neither."""
    found = []
    memory = _proc_bytes(MEMINFO, "MemAvailable")
    if memory is not None:
        found.append((memory, f"MemAvailable in {MEMINFO}"))
    limit = resource.getrlimit(resource.RLIMIT_AS)[0] if resource is not None else -1
    if limit >= 0 and limit != resource.RLIM_INFINITY:
        used = _proc_bytes(STATUS, "VmSize") or 0
        found.append((max(limit - used, 0), f"RLIMIT_AS, ulimit -v, of {limit} bytes less {used} in use"))
    return min(found, default=None)


def available_memory() -> int | None:
    """The bytes of memory available to a new allocation: the less of Linux's
    ``MemAvailable`` and the address space ``RLIMIT_AS`` leaves, or None where the
    system says neither (other OSes, or a kernel without them)."""
    available = _available()
    return None if available is None else available[0]


def _check_fits(needed: int, what: str, advice: str = "") -> None:
    """``MemoryError`` saying ``what`` needs (its ``needed`` bytes among it), the
    bytes available and ``advice``, when ``needed`` bytes exceed the memory
    available; nothing where the system does not say how much that is."""
    available = _available()
    if available is not None and needed > available[0]:
        raise MemoryError(f"{what}, but only {available[0]} bytes of memory are available "
                          f"({available[1]}){advice}")


def check_scores_fit(games: int) -> None:
    """``MemoryError`` naming the bytes needed and the bytes available when the
    scores of ``games`` games cannot fit in the memory available; nothing where
    the system does not say how much that is."""
    needed = SCORE_BYTES_PER_GAME * games
    _check_fits(needed, f"simulate(..., scores=True) of {games} games needs about {needed} bytes "
                        f"({SCORE_BYTES_PER_GAME} a game)", "; play it in shards, or without scores")


def check_batch_fits(n: int, slot_bytes: int) -> None:
    """``MemoryError`` naming the bytes needed and the bytes available when ``n``
    slots of ``slot_bytes`` bytes each (what the engine's Batch allocates a slot)
    cannot fit in the memory available; nothing where the system does not say how
    much that is."""
    needed = slot_bytes * n
    _check_fits(needed, f"a Batch of {n} slots needs about {needed} bytes ({slot_bytes} a slot)")


def max_states_arg(max_states: object, state_bytes: int) -> int | None:
    """``optimal``'s ``max_states``: an int in [1, 2**64), or for None as many
    positions of ``state_bytes`` bytes as the memory available holds (at least
    one; None, no limit, where the system does not say how much that is).
    ``TypeError`` / ``ValueError`` for another value."""
    if max_states is not None:
        return int_arg(max_states, "max_states", 1, U64)
    available = available_memory()
    return None if available is None else max(available // state_bytes, 1)
