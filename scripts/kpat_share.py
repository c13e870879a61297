"""The winnable share of a range of kpat or PySolFC deals, settled in rounds of node limits (docs/RESULTS.md)

`acesup winnable` gives every deal one node limit (`--list unresolved` and `@FILE` make a
second round by hand). The deals that a small limit leaves open are nearly all lost ones,
and settling them is what costs the time, so this solves the whole range at the first
limit and then only the deals still open at each larger one, and prints after each round
a Markdown row: the limit, the deals winnable, unwinnable and unresolved, the winnable
share's bounds, and the seconds (wall and CPU):

    python scripts/kpat_share.py --kpat 1-100000 --limits 200000,2000000

The rules are the program's preset (Rules.kpat() or Rules.pysol()) unless --rules gives
a rules text (RULES.md R6.4).
"""

from __future__ import annotations

import argparse
import os
import time

import acesup
from acesup.arguments import deal_range, int_at_least

# Each program's rules preset (RULES.md R8).
PRESETS = {"kpat": acesup.Rules.kpat, "pysol": acesup.Rules.pysol}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    program = parser.add_mutually_exclusive_group(required=True)
    program.add_argument("--kpat", type=deal_range, metavar="A-B", help="kpat deal numbers A to B (or @FILE)")
    program.add_argument("--pysol", type=deal_range, metavar="A-B", help="PySolFC game numbers A to B (or @FILE)")
    parser.add_argument("--limits", default="200000,2000000", metavar="N,N,...",
                        help="the node limit of each round, growing (default 200000,2000000)")
    parser.add_argument("--rules", help="a rules text (default: the program's preset)")
    parser.add_argument("--threads", type=int_at_least(1), default=os.cpu_count(),
                        help="threads (default: all cores)")
    args = parser.parse_args(argv)
    deals = "kpat" if args.kpat is not None else "pysol"
    numbers: range | list[int] = args.kpat if args.kpat is not None else args.pysol
    rules = PRESETS[deals]() if args.rules is None else acesup.Rules.parse(args.rules)
    limits = [int(n) for n in args.limits.split(",")]
    listed = "" if isinstance(numbers, range) else f" ({len(numbers):,} listed)"
    print(f"{deals} deals {numbers[0]}-{numbers[-1]}{listed}, rules {rules}\n")
    print("| node limit | winnable | unwinnable | unresolved | winnable share | wall s | CPU s |")
    print("| ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    wall, cpu = time.perf_counter(), time.process_time()

    def row(limit: int) -> None:
        won = sum(winnable is True for winnable in verdicts.values())
        lost = sum(winnable is False for winnable in verdicts.values())
        total = len(verdicts)
        print(f"| {limit:,} | {won:,} | {lost:,} | {total - won - lost:,} | "
              f"{won / total:.2%} to {(total - lost) / total:.2%} | "
              f"{time.perf_counter() - wall:.0f} | {time.process_time() - cpu:.0f} |", flush=True)

    verdicts = dict(acesup.solve_deals(deals, numbers, rules, threads=args.threads, node_limit=limits[0]))
    row(limits[0])
    for limit in limits[1:]:
        left = [n for n, winnable in verdicts.items() if winnable is None]
        verdicts.update(acesup.solve_deals(deals, left, rules, threads=args.threads, node_limit=limit))
        row(limit)


if __name__ == "__main__":
    main()
