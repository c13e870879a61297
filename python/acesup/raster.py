"""A game drawn as an RGB image, for Gymnasium's ``render_mode="rgb_array"`` (and
so for video recorders). Written once for both engines over the public Game API
(``piles``, ``stock``, ``discards``); no font or drawing library is needed.

The image has a fixed size for a layout, so that the frames of a video match:
each pile is a column of cards, bottom card first, each buried card showing its
rank and suit; a bar under the piles shows the stock left (grey) and the cards
discarded (green), one pixel column per card.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["game_rgb"]

SCALE = 2  # screen pixels per glyph pixel
CARD_W, CARD_H = 26, 36
OVERLAP = 14  # the part of a buried card that shows: its rank and suit
GAP, MARGIN, BAR_H = 6, 6, 6

TABLE = (24, 100, 48)
FACE, EDGE, EMPTY = (250, 250, 245), (90, 90, 90), (60, 130, 80)
RED, BLACK = (200, 30, 30), (20, 20, 20)
STOCK, DISCARDED = (170, 170, 170), (120, 220, 120)

# 3 x 5 glyphs, one string of three bits per row.
_GLYPHS = {
    "2": "111 001 111 100 111", "3": "111 001 111 001 111", "4": "101 101 111 001 001",
    "5": "111 100 111 001 111", "6": "111 100 111 101 111", "7": "111 001 001 010 010",
    "8": "111 101 111 101 111", "9": "111 101 111 001 111", "T": "111 010 010 010 010",
    "J": "001 001 001 101 111", "Q": "111 101 101 111 001", "K": "101 110 100 110 101",
    "A": "010 101 111 101 101",
    "c": "010 111 111 010 111", "d": "010 111 111 111 010", "h": "101 111 111 111 010",
    "s": "010 111 111 010 111",
}
_MASKS = {name: np.array([[bit == "1" for bit in row] for row in rows.split()]).repeat(SCALE, 0).repeat(SCALE, 1)
          for name, rows in _GLYPHS.items()}


def _glyph(image: np.ndarray, name: str, x: int, y: int, colour: tuple[int, int, int]) -> None:
    mask = _MASKS[name]
    image[y:y + mask.shape[0], x:x + mask.shape[1]][mask] = colour


def _box(image: np.ndarray, x: int, y: int, w: int, h: int, fill: tuple[int, int, int],
         edge: tuple[int, int, int]) -> None:
    image[y:y + h, x:x + w] = edge
    image[y + 1:y + h - 1, x + 1:x + w - 1] = fill


def game_rgb(game: Any, max_height: int) -> np.ndarray:
    """``game`` as an (height, width, 3) uint8 image, sized for piles of up to
    ``max_height`` cards (BATCH.md's H)."""
    piles = game.piles
    cards = sum(map(len, piles)) + len(game.stock) + len(game.discards)
    width = 2 * MARGIN + len(piles) * CARD_W + (len(piles) - 1) * GAP
    width = max(width, 2 * MARGIN + cards)
    height = 2 * MARGIN + (max_height - 1) * OVERLAP + CARD_H + GAP + BAR_H
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = TABLE
    for p, pile in enumerate(piles):
        x = MARGIN + p * (CARD_W + GAP)
        if not pile:
            _box(image, x, MARGIN, CARD_W, CARD_H, TABLE, EMPTY)
        for h, card in enumerate(pile):
            y = MARGIN + h * OVERLAP
            _box(image, x, y, CARD_W, CARD_H, FACE, EDGE)
            text = str(card)
            colour = RED if card.suit in "dh" else BLACK
            _glyph(image, text[0], x + 3, y + 3, colour)
            _glyph(image, card.suit, x + 3 + 4 * SCALE, y + 3, colour)
    y = height - MARGIN - BAR_H
    stock, discarded = len(game.stock), len(game.discards)
    image[y:y + BAR_H, MARGIN:MARGIN + stock] = STOCK
    image[y:y + BAR_H, MARGIN + stock:MARGIN + stock + discarded] = DISCARDED
    return image
