"""Plots of simulation results, with matplotlib (the ``acesup[plot]`` extra).

matplotlib is imported only when a plot is drawn, so ``import acesup`` and the
command line stay fast and work without it.
"""

from __future__ import annotations

import os
from typing import Any

from .compare import _name_of as name_of  # the name compare gives a strategy: its text or __qualname__

__all__ = ["histogram"]

def require_matplotlib() -> None:
    """Raises ``ImportError`` naming the extra to install when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise ImportError("plotting needs matplotlib: pip install 'acesup[plot]'") from err


def check_path(path: str | os.PathLike[str]) -> None:
    """Raises ``ValueError`` unless ``histogram`` can save a picture at ``path``:
    its folder exists, it is not a folder itself, and its extension names a
    format matplotlib writes (``ImportError`` without matplotlib). The command
    line asks before a long run rather than after it."""
    require_matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    folder, extension = os.path.dirname(os.fspath(path)) or ".", os.path.splitext(path)[1].lstrip(".").lower()
    formats = FigureCanvasBase.get_supported_filetypes()
    if extension not in formats:
        raise ValueError(f"cannot save a plot as {os.fspath(path)!r}: the extension must name an image format, "
                         f"one of {', '.join(sorted(formats))}")
    if not os.path.isdir(folder):
        raise ValueError(f"cannot save a plot as {os.fspath(path)!r}: there is no folder {folder!r}")
    if os.path.isdir(path):
        raise ValueError(f"cannot save a plot as {os.fspath(path)!r}: it is a folder")


def _title(stats: Any, strategy: Any, rules: Any, seed: int | None) -> str:
    """What the histogram shows: what played (those of strategy, rules and seed
    that are given) on the first line, the figures on the second."""
    made_by = []
    if strategy is not None:
        made_by.append(f"strategy {name_of(strategy)}")
    if seed is not None:
        made_by.append(f"seed {seed}")
    if rules is not None:
        made_by.append(f"rules {rules}")
    if stats.games:
        low, high = stats.ci95
        figures = (f"{stats.games:,} games: win rate {stats.win_rate:.2%} (95% CI {low:.2%} to {high:.2%}), "
                   f"mean score {stats.mean_score:.2f}")
    else:
        figures = "no games"
    return "\n".join([", ".join(made_by), figures] if made_by else [figures])


def histogram(stats: Any, ax: Any = None, path: Any = None, *, strategy: Any = None, rules: Any = None,
              seed: int | None = None) -> Any:
    """Draws the score histogram of ``stats`` (a Stats of either engine): the
    number of games that ended with each score from 0 to the win score (48 in the
    standard game), the won games in their own colour, with the win rate, its 95%
    interval and the mean score in the title. Returns the matplotlib Axes.

    ``strategy``, ``rules``, ``seed``: what made ``stats``, named on the title's
    first line when given (a Stats does not know them), so that a saved picture
    says what it shows.

    ``ax``: the Axes to draw on. Without one, a new figure is made: through
    pyplot when no ``path`` is given, so that it shows in a notebook or a
    window, and as a bare ``matplotlib.figure.Figure`` when it is only saved,
    so that nothing needs a display or stays open. ``path``: when given, the
    figure is saved there, in the format its extension names (``.png``,
    ``.svg``, ``.pdf``, ...). ``ImportError`` naming ``acesup[plot]`` when
    matplotlib is not installed.
    """
    require_matplotlib()
    if ax is None:
        if path is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=(8, 4))
        else:
            from matplotlib.figure import Figure

            ax = Figure(figsize=(8, 4)).subplots()
    counts = list(stats.histogram)
    win = len(counts) - 1  # a count for every score from 0 to the win score
    colours = ["#90a4ae"] * win + ["#2e7d32"]
    ax.bar(range(win + 1), counts, width=0.85, color=colours)
    ax.set_xlim(-1, win + 1)
    ax.set_xlabel(f"score (cards discarded; {win} = won)")
    ax.set_ylabel("games")
    ax.set_title(_title(stats, strategy, rules, seed))
    if path is not None:
        ax.figure.savefig(path, bbox_inches="tight")
    return ax
