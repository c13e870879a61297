"""Fits the value functions W of ``acesup.upper_bound`` (docs/BOUND.md, *Value
functions*) and writes them to python/acesup/bound_values.json.

W is a table of three features of the position right after a deal (and at the
start): the cards in the stock, the cards on the piles and the piles that may
discard. Each cell is the share of the games that a player won after passing
through a position of that cell (0 for a cell no game reached), fitted by
playing ``--games`` games of master seed ``--seed`` with ``--player``. The seed
is not the bound's (0) so that W does not depend on the stock orders it is
charged on; any W gives a valid bound, a better one a tighter bound.

    python scripts/fit_bound_values.py --value features --player lookahead --games 200000 \
        --rules standard --rules deal=stuck
    python scripts/fit_bound_values.py --value features --player lookahead --games 100000 \
        --rules suits=4,ranks=3 ...
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import acesup

OUT = Path(__file__).resolve().parent.parent / "python" / "acesup" / "bound_values.json"


def cells_of_game(game: acesup.Game, player: acesup.BuiltinStrategy) -> tuple[set[str], bool]:
    """Plays ``game`` to its end with ``player``; the cells of the positions right
    after each deal and at the start, and whether it was won."""
    cells = set()

    def record() -> None:
        discardable = sum(move.kind == "discard" for move in game.legal_moves())
        cells.add(f"{len(game.stock)},{sum(map(len, game.piles))},{discardable}")

    record()
    while (move := player(game)) is not None:
        game.play(move)
        if move.kind == "deal":
            record()
    return cells, game.is_won


def fit(rules: acesup.Rules, player: str, games: int, seed: int) -> dict[str, object]:
    """The fitted cells of ``rules``: for each, the share of games won among those
    that reached it."""
    strategy = acesup.strategy(player)
    reached: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for index in range(games):
        cells, win = cells_of_game(acesup.Game.from_seed(acesup.game_seed(seed, index), rules), strategy)
        for cell in cells:
            reached[cell] += 1
            won[cell] += win
    return {"player": player, "games": games, "seed": seed,
            "cells": {cell: round(won[cell] / reached[cell], 6) for cell in sorted(reached)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--value", default="features", help="the name of the W fitted (default features)")
    parser.add_argument("--player", default="lookahead", help="the strategy whose games are fitted")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1: not the bound's 0)")
    parser.add_argument("--rules", action="append", required=True, help="rules text, repeatable")
    args = parser.parse_args()
    fitted = json.loads(OUT.read_text()) if OUT.exists() else {}
    for text in args.rules:
        rules = acesup.Rules.parse(text)
        began = time.perf_counter()
        fitted.setdefault(args.value, {})[str(rules)] = fit(rules, args.player, args.games, args.seed)
        print(f"{rules}: {args.games} games of {args.player} in {time.perf_counter() - began:.1f} s")
    OUT.write_text(json.dumps(fitted, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
