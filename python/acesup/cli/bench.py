"""``acesup bench``: the performance figures of ``acesup.bench``, whose options they are."""

from __future__ import annotations

import argparse
from typing import Any

import acesup

from .. import bench
from .common import bad_arguments


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``bench`` command, with the options of ``acesup.bench``, in the subparsers ``commands``."""
    benchmark = commands.add_parser(
        "bench", formatter_class=formatter, help="print the performance figures",
        description=bench.__doc__.split("\n\n", 1)[1], epilog=bench.EXAMPLES)
    bench.add_arguments(benchmark)
    benchmark.set_defaults(run=run, parser=benchmark)


def run(args: argparse.Namespace) -> int:
    """Checks the arguments that only the engine can check, then runs the benchmark."""
    with bad_arguments(args.parser):
        acesup.simulate(0, args.strategy)  # checks the strategy before the long runs
        acesup.Batch(args.batch_slots)  # and that the batch's slots fit in memory
    return bench.run(args)
