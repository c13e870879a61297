"""Pictures for notebooks, written once for both engines.

``Game._repr_svg_`` and ``Stats._repr_html_`` of the native engine and of
``acesup.reference`` call these functions, so a game or a batch of statistics
looks the same in Jupyter whichever engine made it. They read only the public
API (``rules``, ``piles``, ``stock``, ``discards``, ``is_over``, ``is_won``, and
``reserve`` under rules with one; ``games``,
``wins``, ``win_rate``, ``ci95``, ``mean_score``, ``scores``, ``histogram``),
never the engines' insides.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

__all__ = ["game_svg", "histogram_svg", "stats_html"]

# Card geometry, in SVG user units (pixels at 100% zoom).
CARD_W, CARD_H = 56, 78
GAP = 14  # between two piles
OVERLAP = 22  # how much of a buried card shows above the card on it: its rank and suit
MARGIN = 10
LABEL_H = 18  # the pile numbers above the piles
FOOTER_H = 26  # the stock and discard counts below

# The score histogram beside the Stats table.
BAR_W, BARS_H = 5, 60  # one bar per score; the tallest bar's height
AXIS_H = 16  # the score labels under the bars

RED, BLACK = "#c62828", "#212121"
LOST_BAR, WON_BAR = "#90a4ae", "#2e7d32"  # as acesup.plot draws them
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
SUIT_COLOURS = {"c": BLACK, "d": RED, "h": RED, "s": BLACK}
FONT = "font-family='DejaVu Sans, Segoe UI Symbol, Arial, sans-serif'"


def _card(card: Any, x: float, y: float, top: bool) -> str:
    """One card face at (x, y): rank and suit in the corner, which is all that
    shows of a buried card, and a large suit in the middle of the top card."""
    text = str(card)
    rank = "10" if text[0] == "T" else text[0]
    suit = SUIT_SYMBOLS[card.suit]
    colour = SUIT_COLOURS[card.suit]
    parts = [
        f"<g class='card{' top' if top else ''}' data-card='{text}'>",
        f"<title>{text}</title>",
        f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' fill='white' stroke='#9e9e9e'/>",
        f"<text x='{x + 5}' y='{y + 16}' font-size='14' font-weight='bold' fill='{colour}'>{rank}{suit}</text>",
    ]
    if top:
        parts.append(f"<text x='{x + CARD_W / 2}' y='{y + CARD_H / 2 + 12}' font-size='32' "
                     f"text-anchor='middle' fill='{colour}'>{suit}</text>")
    parts.append("</g>")
    return "".join(parts)


def game_svg(game: Any) -> str:
    """The position of ``game`` (of either engine) as an SVG picture: the piles
    side by side, numbered from 0 as moves name them, each pile's cards
    stacked downwards from its bottom card so that every rank and suit shows and
    the top card is fully visible; hearts and diamonds in red; an empty pile as
    a dashed outline; under rules with a reserve (RULES.md R2.4), the reserve
    right of the piles, labelled ``r`` as moves name it; and below, the stock and
    discard counts and, once the game is over, its result.

    Each card is a ``<g class="card">`` (``"card top"`` for a top card) with a
    ``data-card`` attribute holding its canonical text, so the picture can be
    checked by a program as well as read by a person.
    """
    piles = game.piles
    columns = [(str(number), pile) for number, pile in enumerate(piles)]
    if game.rules.reserve:
        columns.append(("r", game.reserve))
    tallest = max(1, *map(len, piles))
    width = 2 * MARGIN + len(columns) * CARD_W + (len(columns) - 1) * GAP
    table_h = CARD_H + (tallest - 1) * OVERLAP
    height = MARGIN + LABEL_H + table_h + FOOTER_H + MARGIN
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
             f"viewBox='0 0 {width} {height}' {FONT}>",
             f"<rect width='{width}' height='{height}' rx='8' fill='#2e7d32'/>"]
    for column, (label, pile) in enumerate(columns):
        x = MARGIN + column * (CARD_W + GAP)
        parts.append(f"<text x='{x + CARD_W / 2}' y='{MARGIN + 13}' font-size='13' text-anchor='middle' "
                     f"fill='#e8f5e9'>{label}</text>")
        y = MARGIN + LABEL_H
        if not pile:
            parts.append(f"<rect class='empty' x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' "
                         f"fill='none' stroke='#a5d6a7' stroke-dasharray='5 4'/>")
        for height_in_pile, card in enumerate(pile):
            parts.append(_card(card, x, y + height_in_pile * OVERLAP, height_in_pile == len(pile) - 1))
    status = "won" if game.is_won else "over" if game.is_over else ""
    footer = f"stock {len(game.stock)} \u00b7 discards {len(game.discards)}"
    if status:
        footer += f" \u00b7 {status}"
    parts.append(f"<text class='counts' x='{MARGIN}' y='{height - MARGIN - 6}' font-size='14' "
                 f"fill='#e8f5e9'>{footer}</text>")
    parts.append("</svg>")
    return "".join(parts)


def figure(value: float, digits: int) -> str:
    """A float with ``digits`` decimals, or "n/a" for nan (a rate or a mean of no
    games); the command line shows its figures the same way."""
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def histogram_svg(histogram: Any) -> str:
    """The score histogram as a small SVG picture: one bar per score from 0 to
    the win score (the last count), its height in proportion to the most common
    score's, the won games in their own colour, as ``acesup.plot`` draws them.
    Each bar is a ``<rect class="bar">`` with ``data-score`` and ``data-count``
    and a tooltip, so the picture can be checked by a program as well as read."""
    counts = list(histogram)
    win, most = len(counts) - 1, max(counts, default=0)
    width, height = 2 * MARGIN + len(counts) * BAR_W, MARGIN + BARS_H + AXIS_H
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='acesup-histogram' width='{width}' "
             f"height='{height}' viewBox='0 0 {width} {height}' {FONT}>"]
    for score, count in enumerate(counts):
        bar = round(BARS_H * count / most, 1) if most else 0
        x, colour = MARGIN + score * BAR_W, WON_BAR if score == win else LOST_BAR
        parts.append(f"<rect class='bar' data-score='{score}' data-count='{count}' x='{x}' "
                     f"y='{MARGIN + BARS_H - bar}' width='{BAR_W - 1}' height='{bar}' fill='{colour}'>"
                     f"<title>score {score}: {count:,} game{'s' * (count != 1)}</title></rect>")
    baseline = MARGIN + BARS_H + AXIS_H - 4
    parts.append(f"<text x='{MARGIN}' y='{baseline}' font-size='11' fill='{BLACK}'>0</text>")
    parts.append(f"<text x='{width - MARGIN}' y='{baseline}' font-size='11' text-anchor='end' "
                 f"fill='{BLACK}'>{win} won</text>")
    parts.append("</svg>")
    return "".join(parts)


def stats_html(stats: Any) -> str:
    """A small HTML table of ``stats`` (of either engine), beside its score
    histogram (``histogram_svg``): games, wins, win rate with its 95% interval,
    mean score, whether per-game scores were kept, and the strategy, rules and
    seed that produced them when the Stats know them."""
    low, high = stats.ci95
    rows = [
        ("games", f"{stats.games:,}"),
        ("wins", f"{stats.wins:,}"),
        ("win rate", figure(stats.win_rate, 5)),
        ("95% CI", f"{low:.5f} to {high:.5f}"),
        ("mean score", figure(stats.mean_score, 3)),
        ("per-game scores", "kept" if stats.scores is not None else "not kept"),
    ]
    # What produced the games, as far as the Stats know it (simulate sets all three).
    rows += [(name, str(value)) for name, value in
             (("strategy", stats.strategy), ("rules", stats.rules), ("seed", stats.seed)) if value is not None]
    body = "".join(f"<tr><th style='text-align:left'>{escape(name)}</th><td>{escape(value)}</td></tr>"
                   for name, value in rows)
    return (f"<div class='acesup-stats' style='display:flex;gap:1em;align-items:flex-end'>"
            f"<table><tbody>{body}</tbody></table>{histogram_svg(stats.histogram)}</div>")
