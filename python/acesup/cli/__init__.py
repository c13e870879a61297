"""The command line: ``acesup <command>`` (also ``python -m acesup``).

- ``simulate``: play many seeded games with a strategy and report the win rate;
- ``solve``: ask the clairvoyant solver whether a deal can be won, and how;
- ``play``: play a game in the terminal, by typing moves;
- ``table``: the Markdown table of win rates by rules and strategy;
- ``winnable``: the winnable deals among a range of kpat or PySolFC deal numbers;
- ``bench``: the performance figures (``acesup.bench``).

Each command is a module of this package that declares its options beside the
function that runs it (``add_parser`` and ``run``); ``common`` holds what the
commands share, ``streams`` the care of the standard streams. Every command has
``--help`` with examples. A bad argument, including one the engine rejects (a
bad card, deck, position, rules text or strategy), ends the command with a
one-line message on stderr and exit status 2, never a traceback; Ctrl-C ends it
with status 130 (also while a plot is imported or drawn), output that cannot
be written (a full disk, a closed stdout, even of ``--help``) or an input that
its encoding cannot read with a one-line message and status 1, a reader that
goes away with status 141.
An output whose encoding cannot write the suit symbols (``PYTHONIOENCODING=ascii``,
a C locale) shows the suits as the letters of the card notation instead.
"""

from __future__ import annotations

import argparse
import importlib

import acesup

from .common import INTERRUPTED, InputError, Parser, catching_interrupts
from .streams import complain, discard_output, flush_output, prepare_streams

__all__ = ["main"]

BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the signal
# The modules of the commands, in the order of the help; each adds its command (add_parser). They
# are loaded by main, where a Ctrl-C while they load is an interruption like any other.
COMMANDS = ("simulate", "solve", "play", "table", "winnable", "bench")


def _parser() -> Parser:
    """The parser of ``acesup``: the commands of COMMANDS, each with its options."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = Parser(prog="acesup", description="Aces Up solitaire: simulate, solve, play, tabulate, benchmark.",
                    formatter_class=formatter, epilog="""examples:
  acesup simulate --games 1e6 --strategy greedy
  acesup solve --seed 42
  acesup play
  acesup table --games 10000 > results.md
  acesup winnable --kpat 1-1000 > winnable.txt
  acesup bench --memory-games 0

Run acesup COMMAND --help for the options of a command.""")
    parser.add_argument("--version", action="version", version=f"acesup {acesup.__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(commands, formatter)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line ``acesup`` with ``argv`` (default: ``sys.argv[1:]``)
    and returns its exit status; argparse's SystemExit for ``--help``,
    ``--version`` and a usage error, once their text is written."""
    prepare_streams()
    prog = "acesup"
    with catching_interrupts():
        try:
            parser = _parser()
            try:
                args = parser.parse_args(argv)
            except SystemExit:
                flush_output()  # the help or the version: reported below when it cannot be written
                raise
            prog = args.parser.prog
            status: int = args.run(args)
            flush_output()  # now, so that output that cannot be written is reported, not lost at exit
            return status
        except KeyboardInterrupt:
            complain(f"{prog}: interrupted")
            return INTERRUPTED
        except MemoryError as err:  # a computation past its memory limit (acesup.optimal's max_states)
            complain(f"{prog}: error: {err}")
            return 1
        except BrokenPipeError:
            # The reader went away (`acesup solve … | head`): stop quietly, as Unix tools do.
            discard_output()
            return BROKEN_PIPE
        except OSError as err:
            if err.filename is not None:  # not the output, which has no file name
                complain(f"{prog}: error: {err}")
            else:  # `acesup simulate > /dev/full`, `acesup solve >&-`
                discard_output()
                complain(f"{prog}: error: cannot write the output: {err.strerror or err}")
            return 1
        except InputError as err:
            complain(f"{prog}: error: {err}")
            return 1
