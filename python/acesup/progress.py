"""How the long runs of both engines report their progress (docs/API.md,
"Progress"): ``simulate``, ``compare``, ``solvability``, ``solve_deals`` and
``evaluate`` take ``progress=False`` (True: a tqdm bar on stderr) and
``callback=None`` (a callable ``callback(done, total)``).

A run checks the two arguments with the rest of its own, before any work, by
making its reporter (``reporter``), and then tells it how far it is
(``Reporter.update``) as its work completes, as often as it likes: the reporter
calls the callback and moves the bar at most every ``INTERVAL`` seconds, so that
reporting costs nothing measurable. The native engine calls it from the loop in
which the calling thread waits for the run's threads (and looks for Ctrl-C); the
reference engine between two games or deals. The run ends with
``Reporter.finish`` (a last report, of every item done) or, when it fails or is
stopped, ``Reporter.close``; ``Reporter`` is also a context manager that closes it.

An exception raised by the callback propagates out of ``update`` (or
``finish``), and so stops the run: the native engine then cancels its threads
as Ctrl-C does. This module imports nothing of the package, and tqdm only when a
bar is asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

__all__ = ["INTERVAL", "Reporter", "reporter"]

INTERVAL = 0.2
"""The least time, in seconds, between two reports of a run (the last one apart)."""

Callback = Callable[[int, int], object]


class Reporter:
    """Reports the progress of one run of ``total`` items (games or deals): a tqdm
    bar on stderr counting ``unit`` when ``progress`` is True, and
    ``callback(done, total)`` calls when a callback is given. Made by
    ``reporter``, which checks its arguments."""

    def __init__(self, total: int, progress: bool, callback: Callback | None, unit: str) -> None:
        self.total = total
        self._callback = callback
        self._reported: int | None = None  # the count the bar and the callback were last given
        self._last = time.monotonic()
        self._bar: Any = None
        if progress:
            from tqdm import tqdm  # only when asked for: the import takes time

            self._bar = tqdm(total=total, unit=f" {unit}", unit_scale=True, dynamic_ncols=True)

    def update(self, done: int) -> None:
        """Reports ``done`` of the items if at least ``INTERVAL`` seconds have passed
        since the last report; the callback's exception propagates."""
        now = time.monotonic()
        if now - self._last >= INTERVAL:
            self._last = now
            self._report(done)

    def finish(self) -> None:
        """Reports every item done, the run's last report (unless the last
        ``update`` did), and closes the bar."""
        try:
            if self._reported != self.total:
                self._report(self.total)
        finally:
            self.close()

    def close(self) -> None:
        """Closes the bar, as it stands (a run that failed or was stopped)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _report(self, done: int) -> None:
        if self._bar is not None:
            self._bar.update(done - (self._reported or 0))
        self._reported = done
        if self._callback is not None:
            self._callback(done, self.total)

    def __enter__(self) -> Reporter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def reporter(total: int, progress: object, callback: object, unit: str) -> Reporter | None:
    """The reporter of a run of ``total`` items, or None when neither a bar nor a
    callback is asked for (the run then reports nothing, at no cost).
    ``TypeError`` for a ``progress`` that is not a bool or a ``callback`` that
    is neither None nor callable, raised before the run does any work."""
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {type(progress).__name__}")
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be None or a callable callback(done, total), "
                        f"got {type(callback).__name__}")
    if not progress and callback is None:
        return None
    return Reporter(total, progress, callback, unit)
