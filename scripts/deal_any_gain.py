"""Does ``deal="any"`` win deals that ``deal="free"`` cannot? (docs/RESULTS.md)

Every move legal under ``deal="free"`` is legal under ``deal="any"``, so a deal
winnable under ``free`` is winnable under ``any``. This solves games 0 to n-1 of
the seed under the standard rules, and each deal that they cannot win again
under ``deal="any"`` with a node limit, and prints the counts:

    python scripts/deal_any_gain.py --games 300 --node-limit 300000
"""

from __future__ import annotations

import argparse
import time

import acesup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="deals (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--node-limit", type=int, default=300_000, help="per deal under deal=any (default 300000)")
    args = parser.parse_args()
    free, any_ = acesup.Rules(), acesup.Rules(deal="any")
    start = time.perf_counter()
    counts = {"free": 0, True: 0, False: 0, None: 0}
    for i in range(args.games):
        seed = acesup.game_seed(args.seed, i)
        if acesup.solve(acesup.Game.from_seed(seed, free)).winnable:
            counts["free"] += 1
            continue
        counts[acesup.solve(acesup.Game.from_seed(seed, any_), node_limit=args.node_limit).winnable] += 1
    print(f"{args.games} deals: {counts['free']} winnable under deal=free; of the others under deal=any: "
          f"{counts[True]} winnable, {counts[False]} unwinnable, {counts[None]} unresolved "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
