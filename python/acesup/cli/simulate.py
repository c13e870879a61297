"""``acesup simulate``: play many seeded games with a strategy and report the win rate."""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from tqdm import tqdm

import acesup

from .. import plot
from ..arguments import games_count
from ..display import figure
from ..jsontext import finite, stats_document
from .common import INTERRUPTED, MAX_THREADS, PROGRESS_DELAY, bad_arguments, deferred_interrupts, rules, \
    rules_options, seed, strategies_failing, terminal, threads, user_strategy

ENGINES = {"native": "acesup", "reference": "acesup.reference"}
SHARD_SECONDS = 0.25  # simulate plays in shards of about this long, so that Ctrl-C and the progress bar respond
FIRST_SHARD = 16  # games: small enough for the slowest strategy on the reference engine


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``simulate`` command and its options, in the subparsers ``commands``."""
    simulate = commands.add_parser(
        "simulate", parents=[rules_options("standard")], formatter_class=formatter,
        help="play many seeded games with a strategy and report the win rate",
        description="Plays games 0 to N-1 of a master seed with a strategy and prints the number of games, "
                    "the wins, the win rate with its 95% Wilson interval, the mean score, the speed and a "
                    "histogram of the scores. Ctrl-C stops the run and prints the partial result (exit "
                    "status 130); the figures of a finished run do not depend on the thread count.",
        epilog="""examples:
  acesup simulate --games 1e6                              random play, standard rules
  acesup simulate --games 1e5 --strategy greedy --rules strict --deal stuck
  acesup simulate --games 2000 --strategy "montecarlo:playouts=64,policy=lookahead"
  acesup simulate --games 1e6 --json > result.json        machine-readable
  acesup simulate --games 1e6 --plot scores.png           with a histogram picture (acesup[plot])
  acesup simulate --games 1000 --engine reference         the pure-Python engine
  acesup simulate --games 1000 --strategy mine.py:play     your own strategy, play(game) in mine.py""")
    simulate.add_argument("--games", type=games_count(), default=100_000, metavar="N",
                          help="number of games (default 100000; 1e6 and 1_000_000 work; at most 2**64)")
    simulate.add_argument("--strategy", default="random", metavar="S",
                          help=f"a built-in strategy ({', '.join(acesup.builtin_names())}) with its "
                               "parameters if any, e.g. montecarlo:playouts=P,policy=S (docs/STRATEGIES.md; "
                               "default random), or your own strategy(game) -> Move as module:function or "
                               "path/to/file.py:function (it plays on one thread)")
    simulate.add_argument("--seed", type=seed, default=0, metavar="K", help="master seed (default 0)")
    simulate.add_argument("--threads", type=threads, metavar="T",
                          help=f"threads of the native engine, at most {MAX_THREADS} (default: all cores); "
                               "the reference engine runs on one")
    simulate.add_argument("--engine", choices=tuple(ENGINES), default="native",
                          help="native (Rust, default) or reference (pure Python, slow)")
    simulate.add_argument("--json", action="store_true", help="print the result as JSON")
    simulate.add_argument("--plot", metavar="FILE", help="also draw the histogram into FILE (.png, .svg, .pdf)")
    simulate.set_defaults(run=run, parser=simulate)


def run(args: argparse.Namespace) -> int:
    """Plays the games, prints the figures and draws the plot; 130 when Ctrl-C
    stopped the run."""
    engine = importlib.import_module(ENGINES[args.engine])
    with bad_arguments(args.parser):
        chosen = rules(engine, args)
        strategy = user_strategy(args.strategy)
        engine.simulate(0, strategy, chosen, args.seed, threads=args.threads)  # checks them all
        if args.plot is not None:
            with deferred_interrupts():  # it imports matplotlib
                plot.check_path(args.plot)
    progress = not args.json and terminal(sys.stdout)
    with strategies_failing(args.parser, {args.strategy: strategy}):
        stats, seconds, interrupted = _simulate_in_shards(
            lambda count, start: engine.simulate(count, strategy, chosen, args.seed, threads=args.threads,
                                                 start=start),
            args.games, engine.Stats.empty(), progress)
    rate = stats.games / seconds if seconds > 0 else math.nan
    if args.json:
        # The Stats' own document (Stats.to_json, which Stats.from_json reads back),
        # with what was asked and the run's figures.
        document = stats_document(stats)
        document.update({
            "strategy": args.strategy, "rules": str(chosen), "seed": args.seed,
            "games_per_second": finite(rate), "seconds": seconds, "engine": args.engine,
            "threads": 1 if args.engine == "reference" else args.threads, "partial": interrupted,
            "games_asked": args.games,
        })
        print(json.dumps(document, indent=2))
    else:
        print(f"strategy {args.strategy}, seed {args.seed}, {_runs_on(args)}")
        print(f"rules {chosen}")
        if interrupted:
            print(f"interrupted: partial result, {stats.games:,} of {args.games:,} games played")
        print(f"games       {stats.games:,}")
        print(f"wins        {stats.wins:,}")
        low, high = stats.ci95
        print(f"win rate    {figure(stats.win_rate, 5)} (95% CI {low:.5f} to {high:.5f})")
        print(f"mean score  {figure(stats.mean_score, 3)}")
        print(f"games/s     {rate:,.0f}")
        print()
        print(text_histogram(stats.histogram))
    if args.plot is not None:
        try:
            with deferred_interrupts():  # a Ctrl-C now (a second one, maybe) ends the command once it is drawn
                plot.histogram(stats, path=args.plot, strategy=args.strategy, rules=chosen, seed=args.seed)
        except OSError as err:  # the folder and the format were checked, but the disk may still refuse
            print(f"{args.parser.prog}: error: cannot write the plot: {err}", file=sys.stderr)
            return 1
    return INTERRUPTED if interrupted else 0


def _simulate_in_shards(play: Callable[[int, int], Any], games: int, empty: Any,
                        progress: bool) -> tuple[Any, float, bool]:
    """Plays ``games`` games as ``play(count, start)`` calls on consecutive shards
    and adds their Stats up; equal to one call, since each game's deal depends
    only on the seed and its index (RNG.md). Shards start small and grow to about
    SHARD_SECONDS each, so that the progress bar moves and Ctrl-C stops the run
    soon, keeping the shards already played. Returns (Stats, seconds, whether
    Ctrl-C stopped the run)."""
    stats, done, shard = empty, 0, FIRST_SHARD
    began = time.perf_counter()
    with tqdm(total=games, disable=not progress, delay=PROGRESS_DELAY, unit=" games", unit_scale=True,
              leave=False, dynamic_ncols=True) as bar:
        try:
            while done < games:
                count = min(shard, games - done)
                shard_began = time.perf_counter()
                stats = stats + play(count, done)
                elapsed = time.perf_counter() - shard_began
                done += count
                bar.update(count)
                shard = max(1, min(4 * count, int(count * SHARD_SECONDS / max(elapsed, 1e-6))))
        except KeyboardInterrupt:
            return stats, time.perf_counter() - began, True
    return stats, time.perf_counter() - began, False


def _runs_on(args: argparse.Namespace) -> str:
    """What plays the games: the engine, and on how many threads."""
    if args.engine == "reference":
        ignored = "; --threads is ignored" if args.threads is not None else ""
        return f"reference engine on one thread (pure Python{ignored})"
    on = "all cores" if args.threads is None else f"{args.threads} thread{'s' * (args.threads > 1)}"
    return f"native engine on {on}"


def text_histogram(histogram: tuple[int, ...], width: int = 40) -> str:
    """The scores as bars, four scores a bar (0-3, 4-7, ..., 44-47 in the standard
    game) and the won games on a bar of their own, with counts and shares. A
    histogram has a count for every score from 0 to the win score."""
    win = len(histogram) - 1
    bins = [(f"{low:2d}-{min(low + 3, win - 1):2d}", sum(histogram[low:min(low + 4, win)]))
            for low in range(0, win, 4)]
    bins.append(("  won", histogram[win]))
    games, most = sum(histogram), max(count for _, count in bins)
    lines = ["score   games"]
    for label, count in bins:
        length = round(width * count / most) if most else 0
        bar = "\u2588" * length or ("\u258f" if count else "")
        share = count / games if games else 0.0
        lines.append(f"{label}  {bar:<{width}} {count:>12,} {share:7.2%}")
    return "\n".join(lines)
