"""The solvability of each preset under each deal timing, as a Markdown table.

For every preset (standard, strict, easy, reverse) and every deal timing
(``deal="free"``, ``deal="stuck"``), solves games 0 to n-1 of the seed with the
native solver, ``acesup.solvability(n, rules, seed, node_limit=...)``, on all
cores, and prints one row: the verdicts, the share of winnable deals and its 95%
interval (API.md: with unresolved deals counted as possibly either way). This is
the command that regenerates the table of docs/RESULTS.md:

    python scripts/solvability_table.py

The easy rules get fewer deals by default: each of their deals takes far longer
to decide than any other row's.

With ``--family`` it prints the rows of the game's relatives instead (RULES.md
R1.4, R2.3): the presets ``aces_up_5`` and ``russian_aces``, the literal deal rule
``deal="any"``, and small decks, each with ``--family-games`` deals and
``--family-node-limit`` positions a deal (deals left over it are *unresolved*).
"""

from __future__ import annotations

import argparse
import time

import acesup

PRESETS = ("standard", "strict", "easy", "reverse")
DEALS = ("free", "stuck")
# The relatives of the game, by their R6.4 text.
FAMILY = ("aces_up_5", "aces_up_5,deal=stuck", "russian_aces", "russian_aces,deal=stuck", "deal=any",
          "suits=4,ranks=3", "suits=4,ranks=4", "suits=4,ranks=5", "suits=4,ranks=6",
          "suits=4,ranks=4,deal=any", "suits=4,ranks=5,piles=5", "suits=3,ranks=6")


def row(name: str, rules: acesup.Rules, games: int, args: argparse.Namespace, node_limit: int | None) -> None:
    """Solve games 0 to games-1 of the seed under ``rules`` and print their row."""
    start = time.perf_counter()
    result = acesup.solvability(games, rules, seed=args.seed, threads=args.threads, node_limit=node_limit)
    seconds = time.perf_counter() - start
    low, high = result.ci95
    print(f"| {name} | {result.games:,} | {result.winnable:,} | {result.unwinnable:,} "
          f"| {result.unresolved:,} | {100 * result.rate:.2f}% | {100 * low:.2f}% to {100 * high:.2f}% "
          f"| {seconds:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="deals per row (default 200000)")
    parser.add_argument("--easy-games", type=int, default=20_000,
                        help="deals per row of the easy rules (default 20000)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--node-limit", type=int, default=None, help="per deal (default: none)")
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    parser.add_argument("--family", action="store_true", help="the rows of the game's relatives instead")
    parser.add_argument("--family-games", type=int, default=10_000, help="deals per family row (default 10000)")
    parser.add_argument("--family-node-limit", type=int, default=1_000_000,
                        help="positions a deal in the family rows (default 1000000)")
    args = parser.parse_args()
    print("| rules | deals | winnable | unwinnable | unresolved | winnable share | 95% CI | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    if args.family:
        for text in FAMILY:
            row(text, acesup.Rules.parse(text), args.family_games, args, args.family_node_limit)
        return
    for preset in PRESETS:
        for deal in DEALS:
            games = args.easy_games if preset == "easy" else args.games
            row(f"{preset}, deal={deal}", acesup.Rules.preset(preset).replace(deal=deal), games, args,
                args.node_limit)


if __name__ == "__main__":
    main()
