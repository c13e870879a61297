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
"""

from __future__ import annotations

import argparse
import time

import acesup

PRESETS = ("standard", "strict", "easy", "reverse")
DEALS = ("free", "stuck")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="deals per row (default 200000)")
    parser.add_argument("--easy-games", type=int, default=20_000,
                        help="deals per row of the easy rules (default 20000)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--node-limit", type=int, default=None, help="per deal (default: none)")
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    args = parser.parse_args()
    print("| rules | deals | winnable | unwinnable | unresolved | winnable share | 95% CI | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for preset in PRESETS:
        for deal in DEALS:
            rules = acesup.Rules.preset(preset).replace(deal=deal)
            games = args.easy_games if preset == "easy" else args.games
            start = time.perf_counter()
            result = acesup.solvability(games, rules, seed=args.seed, threads=args.threads,
                                        node_limit=args.node_limit)
            seconds = time.perf_counter() - start
            low, high = result.ci95
            print(f"| {preset}, deal={deal} | {result.games:,} | {result.winnable:,} | {result.unwinnable:,} "
                  f"| {result.unresolved:,} | {100 * result.rate:.2f}% | {100 * low:.2f}% to {100 * high:.2f}% "
                  f"| {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
