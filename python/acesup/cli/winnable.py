"""``acesup winnable``: the winnable deals among a range of kpat or PySolFC deal numbers."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from tqdm import tqdm

import acesup

from ..arguments import deal_range, int_at_least, length
from .common import INTERRUPTED, MAX_THREADS, PROGRAMS, bad_arguments, numbered, rules, rules_options, seconds, \
    terminal, threads

# `winnable`'s default bound on a deal's search: its positions, so that the tables of the
# threads solving at once fit in this share of the machine's memory. A deal's search holds
# at most about SEARCH_POSITION_BYTES a position at its peak: kpat deals 564 and 762 took
# 14.9 and 10.8 bytes (289.3 and 100.0 million positions, 4.20 and 1.05 GiB), the first
# right after a doubling of its table, the dearest moment. A limit of positions, unlike
# one of seconds, gives the same verdicts on a loaded machine as on an idle one.
MEMORY_SHARE = 0.5
SEARCH_POSITION_BYTES = 20
FALLBACK_MEMORY = 8 * 2**30  # when the machine does not say how much it has

# `winnable --list`: the verdict whose deal numbers it writes, by name.
VERDICTS = {"winnable": True, "unwinnable": False, "unresolved": None}


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``winnable`` command and its options, in the subparsers ``commands``."""
    winnable = commands.add_parser(
        "winnable", parents=[rules_options("the program's rules, Rules.kpat() or Rules.pysol(), RULES.md R8")],
        formatter_class=formatter,
        help="list the winnable deals among a range of kpat or PySolFC deal numbers",
        description="Solves every deal of a range of kpat or PySolFC deal numbers with the clairvoyant solver, "
                    "on all cores, under the program's rules (Rules.kpat() or Rules.pysol(), RULES.md R8) "
                    "unless the rules options say otherwise, and writes the winnable deal numbers (or those "
                    "--list names) to standard output, one a line, in order; a summary goes to standard error, "
                    "with a progress bar when it is a terminal. Ctrl-C stops the run: the numbers found so far "
                    "stay listed, the summary says how far it got (exit status 130).",
        epilog="""examples:
  acesup winnable --kpat 1-1000 > winnable.txt
  acesup winnable --pysol 1-100000 --time-limit 5
  acesup winnable --kpat 1-100000 --node-limit 200000 --list unresolved > open.txt
  acesup winnable --kpat @open.txt --node-limit 2000000
  acesup winnable --kpat 1-100 --rules standard --json""")
    program = winnable.add_mutually_exclusive_group(required=True)
    program.add_argument("--kpat", type=deal_range, metavar="A-B",
                         help="kpat deal numbers A to B (or one, N, or those of a file, @FILE, one a line)")
    program.add_argument("--pysol", type=deal_range, metavar="A-B",
                         help="PySolFC game numbers A to B (or one, N, or those of a file, @FILE, one a line)")
    winnable.add_argument("--node-limit", type=int_at_least(1), metavar="N",
                          help="positions the solver may search per deal; a deal it stops is unresolved "
                               "(default, unless --time-limit is given: as many as let the deals solved at "
                               "once fit in half the machine's memory, about 20 bytes a position)")
    winnable.add_argument("--time-limit", type=seconds, metavar="S",
                          help="seconds the solver may search per deal (default: no limit); a deal it stops is "
                               "unresolved")
    winnable.add_argument("--threads", type=threads, metavar="T",
                          help=f"threads, at most {MAX_THREADS} (default: all cores)")
    winnable.add_argument("--list", choices=list(VERDICTS),
                          help="which deal numbers to write: the winnable ones (the default), the unwinnable "
                               "ones, or those that a limit left unresolved (for a second round, @FILE)")
    winnable.add_argument("--json", action="store_true",
                          help="print the counts (winnable, unwinnable, unresolved), the range and the rules as "
                               "JSON instead of the numbers; with --list, the numbers of that verdict as well, "
                               "as \"numbers\"")
    winnable.set_defaults(run=run, parser=winnable)


def memory_node_limit(threads: int) -> int:
    """The positions a deal's search may store so that ``threads`` searches at once fit
    in MEMORY_SHARE of the machine's memory (`winnable`'s default)."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        memory = FALLBACK_MEMORY
    return max(1, int(MEMORY_SHARE * memory / (threads * SEARCH_POSITION_BYTES)))


def run(args: argparse.Namespace) -> int:
    """Solves the deals, writes the numbers of the verdict listed as they come and
    the summary at the end; 130 when Ctrl-C stopped the run."""
    program = numbered(args)
    assert program is not None  # winnable's parser requires --kpat or --pysol
    numbers = getattr(args, program)
    count = length(numbers)
    if args.node_limit is None and args.time_limit is None:
        args.node_limit = memory_node_limit(min(args.threads or os.cpu_count() or 1, count))
    with bad_arguments(args.parser):
        chosen = rules(acesup, args, PROGRAMS[program][1]())
        verdicts = acesup.solve_deals(program, numbers, chosen, threads=args.threads,
                                      node_limit=args.node_limit, time_limit=args.time_limit)
    counts = {True: 0, False: 0, None: 0}
    kind = args.list or "winnable"
    listed = VERDICTS[kind]
    found: list[int] = []  # with --json and --list, the numbers of its "numbers"
    began = time.perf_counter()
    interrupted = False
    with tqdm(total=count, disable=not terminal(sys.stderr), file=sys.stderr, unit=" deals",
              leave=False, dynamic_ncols=True) as bar:
        try:
            for number, winnable in verdicts:
                counts[winnable] += 1
                if winnable is listed:
                    if not args.json:
                        print(number)
                    elif args.list:
                        found.append(number)
                bar.update(1)
        except KeyboardInterrupt:
            interrupted = True
    elapsed = time.perf_counter() - began
    done = sum(counts.values())
    name = PROGRAMS[program][2]
    shown = (f"{name}s {numbers[0]}-{numbers[-1]}" if isinstance(numbers, range)
             else f"{count:,} {name}s from {numbers[0]} to {numbers[-1]}")
    if args.json:
        print(json.dumps({
            "deals": program, "first": numbers[0], "last": numbers[-1], "count": count,
            "rules": str(chosen),
            "winnable": counts[True], "unwinnable": counts[False], "unresolved": counts[None],
            "solved": done, "partial": interrupted, "seconds": elapsed,
            "node_limit": args.node_limit, "time_limit": args.time_limit,
            **({"listed": kind, "numbers": found} if args.list else {}),
        }, indent=2))
    else:
        if interrupted:
            print(f"interrupted: {done:,} of {count:,} deals solved, the {kind} ones listed above",
                  file=sys.stderr)
        print(f"{shown} ({done:,} solved in {elapsed:.1f} s), rules {chosen}: "
              f"{counts[True]:,} winnable, {counts[False]:,} unwinnable, {counts[None]:,} unresolved",
              file=sys.stderr)
    return INTERRUPTED if interrupted else 0
