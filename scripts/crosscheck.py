"""Cross-check the native engine against the reference engine, game by game.

    python scripts/crosscheck.py --games 1000000
    python scripts/crosscheck.py --games 20000 --strategy greedy --rules strict,deal=stuck

Both engines play games 0 .. N-1 of the same seed with the same strategy and
rules. It compares every game's score (the native run in one call, the
reference run spread over worker processes), and, for the first
``--positions`` games, the whole game: the final position and the list of moves
played. It prints the number of disagreements and the first few, and exits 1 if
there is any: by RULES.md, one of the engines is then wrong.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from types import ModuleType

import acesup
import acesup.reference

SHARD = 5_000


def _reference_scores(strategy: str, rules: str, seed: int, start: int, games: int) -> bytes:
    """The reference engine's per-game scores of games start .. start+games-1."""
    stats = acesup.reference.simulate(games, strategy, acesup.reference.Rules.parse(rules), seed,
                                      start=start, scores=True)
    assert stats.scores is not None  # recorded: scores=True
    return stats.scores.tobytes()


def _whole_game(engine: ModuleType, strategy: str, rules: str, seed: int, index: int) -> tuple[str, list[str]]:
    """The final position and the moves of game ``index``, played move by move."""
    game = engine.Game.from_seed(engine.game_seed(seed, index), engine.Rules.parse(rules))
    player = engine.strategy(strategy)
    while not game.is_over:
        game.play(player(game))
    return game.to_str(), [str(move) for move in game.history]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--games", type=int, default=100_000, help="games to compare by score (default 1e5)")
    parser.add_argument("--positions", type=int, default=1_000,
                        help="of those, games compared move by move (default 1000)")
    parser.add_argument("--strategy", default="random", help="a built-in strategy's text (default random)")
    parser.add_argument("--rules", default="standard", help="a rules text, RULES.md R6.4 (default standard)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="reference processes")
    args = parser.parse_args(argv)
    rules = str(acesup.Rules.parse(args.rules))

    began = time.perf_counter()
    native = acesup.simulate(args.games, args.strategy, acesup.Rules.parse(rules), args.seed, scores=True)
    native_seconds = time.perf_counter() - began

    began = time.perf_counter()
    shards = [(start, min(SHARD, args.games - start)) for start in range(0, args.games, SHARD)]
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = pool.map(_reference_scores, *zip(*[(args.strategy, rules, args.seed, start, n)
                                                    for start, n in shards]))
        reference = b"".join(parts)
    reference_seconds = time.perf_counter() - began

    assert native.scores is not None
    disagreements: list[tuple[int, object, object]] = [
        (i, a, b) for i, (a, b) in enumerate(zip(native.scores.tobytes(), reference)) if a != b]
    for index in range(min(args.positions, args.games)):
        if _whole_game(acesup, args.strategy, rules, args.seed, index) != \
                _whole_game(acesup.reference, args.strategy, rules, args.seed, index):
            disagreements.append((index, "whole game", "differs"))

    print(f"rules {rules}, strategy {args.strategy}, seed {args.seed}")
    print(f"games compared by score: {args.games}, move by move: {min(args.positions, args.games)}")
    print(f"native: {native}")
    print(f"native {native_seconds:.1f} s, reference {reference_seconds:.1f} s on {args.jobs} processes")
    print(f"disagreements: {len(disagreements)}")
    for index, a, b in disagreements[:10]:
        print(f"  game {index}: native {a}, reference {b}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
