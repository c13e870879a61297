"""What the commands of ``acesup`` share: the parser class and the argument types,
the rules options and the numbered deals, the turning of a bad argument into a
usage error, and the drawing of a tableau."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import math
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any, NoReturn, TextIO

import acesup

from ..arguments import int_at_least, int_in_range
from ..errors import AcesUpError

MAX_THREADS = 256  # the native engine's cap on threads (MAX_THREADS in crates/acesup/src/run/pool.rs)
INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)
PROGRESS_DELAY = 1.0  # seconds before a progress bar appears: short runs show none
# The rules that solve and play start from, in their help.
NUMBERED_RULES = "standard, or with --kpat or --pysol that program's rules, RULES.md R8"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: the problem and where to read
    more, without the usage block (exit status 2, as argparse's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        """Writes ``message`` (help, version, usage error) as argparse does, but lets
        a failed write raise, where argparse ignores it, so that ``acesup --help
        >/dev/full`` is reported, not lost with exit status 0."""
        stream = file or sys.stderr
        if message and stream is not None:  # None: the stream was closed (``2>&-``)
            stream.write(message)


threads = int_in_range(1, MAX_THREADS, f"{MAX_THREADS} threads (the native engine's cap)")


def seed(text: str) -> int:
    """An argparse type: a seed, an int in [0, 2**64)."""
    value = int_at_least(0)(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"a seed is an int in [0, 2**64), got {text!r}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def rules_options(default: str) -> Parser:
    """The options that choose the rules (RULES.md R5), shared by the commands;
    ``default`` says in the help which rules a command starts from without --rules.
    The presets and the values of --fill and --deal are the engine's own."""
    parent = Parser(add_help=False)
    group = parent.add_argument_group("rules (docs/RULES.md R5)")
    group.add_argument("--rules", metavar="PRESET",
                       help=f"a preset ({', '.join(acesup.Rules.PRESETS)}) or rules text as in RULES.md R6.4, "
                            f"e.g. 'strict,deal=stuck' (default: {default}); the options below change it")
    group.add_argument("--fill", choices=acesup.Rules.FILLS, help="which card may fill an empty pile")
    group.add_argument("--deal", choices=acesup.Rules.DEALS, help="when a deal is allowed")
    group.add_argument("--relocate-single", action="store_true", default=None,
                       help="a pile's only card may fill an empty pile while the stock lasts")
    group.add_argument("--ace-low", action="store_true", default=None,
                       help="the ace is the lowest card and the king the highest (ace_high=false)")
    return parent


def rules_given(args: argparse.Namespace) -> bool:
    """Whether any of the rules options was given."""
    return any(getattr(args, name) is not None for name in ("rules", "fill", "deal", "relocate_single", "ace_low"))


def rules(engine: Any, args: argparse.Namespace, default: Any = None) -> Any:
    """The engine's Rules chosen by the rules options, starting from ``default``
    (the standard rules when None) unless ``--rules`` names others. ``RulesError``
    for bad text."""
    if args.rules is not None:
        chosen = engine.Rules.parse(args.rules)
    else:
        chosen = engine.Rules.standard() if default is None else default
    options: dict[str, Any] = {}
    if args.fill is not None:
        options["fill"] = args.fill
    if args.deal is not None:
        options["deal"] = args.deal
    if args.relocate_single:
        options["relocate_single"] = True
    if args.ace_low:
        options["ace_high"] = False
    return chosen.replace(**options)


# The programs whose numbered deals the commands take (RULES.md R8): their option,
# the Game constructor, the rules preset and how the number is written.
PROGRAMS = {"kpat": (acesup.Game.from_kpat, acesup.Rules.kpat, "kpat deal"),
            "pysol": (acesup.Game.from_pysol, acesup.Rules.pysol, "PySolFC game")}


def numbered(args: argparse.Namespace) -> str | None:
    """The program whose deal number was given (--kpat or --pysol), if any."""
    return next((name for name in PROGRAMS if getattr(args, name, None) is not None), None)


def numbered_game(program: str, number: int, args: argparse.Namespace) -> Any:
    """The native Game of a kpat or PySolFC deal number, under the program's rules
    preset changed by the rules options (``--rules`` replaces the preset)."""
    deal, preset, _ = PROGRAMS[program]
    return deal(number, rules(acesup, args, preset()))


def _deal_number(text: str) -> int:
    """An argparse type: a deal number, checked against its program's range by the engine."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a deal number, got {text!r}") from None


def numbered_options(group: Any) -> None:
    """--kpat N and --pysol N, the numbered deals of RULES.md R8, in ``group``."""
    group.add_argument("--kpat", type=_deal_number, metavar="N",
                       help="kpat's deal number N (1 to 2**31-1), under Rules.kpat() unless --rules says otherwise")
    group.add_argument("--pysol", type=_deal_number, metavar="N",
                       help="PySolFC's game number N (1 to 10**20), under Rules.pysol() unless --rules says "
                            "otherwise")


def user_strategy(text: str) -> Any:
    """The strategy that ``--strategy`` names: ``text`` itself when it is a
    built-in's (its name, maybe with parameters after a colon, STRATEGIES.md),
    else the user's callable ``strategy(game) -> Move`` that it names as
    ``module:function`` (a module importable from the current folder or
    sys.path) or ``path/to/file.py:function``; the function may be an attribute
    path (``Class.method``). ``ValueError`` naming the problem for text that is
    neither, a module or file that cannot be loaded (whatever its code raised
    while loading), no such function, or one that is not callable."""
    head, colon, function = text.rpartition(":")
    if (not colon or not head or text.partition(":")[0] in acesup.builtin_names()
            or not all(name.isidentifier() for name in function.split("."))):
        return text  # a built-in, or text that simulate refuses with the words of the engine
    try:
        if head.endswith(".py"):
            module = _module_of_file(head)
        else:
            if os.getcwd() not in sys.path:  # as `python -m` has it, for a module beside the user
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(head)
    except Exception as err:  # the loading of the user's code, whatever it raised
        raise ValueError(f"cannot load the strategy {text!r}: {type(err).__name__}: {err}") from None
    found: Any = module
    for name in function.split("."):
        if not hasattr(found, name):
            raise ValueError(f"the strategy {text!r} names no {function!r} in {head}")
        found = getattr(found, name)
    if not callable(found):
        raise ValueError(f"the strategy {text!r} is a {type(found).__name__}, not a callable strategy(game) -> Move")
    return found


@contextlib.contextmanager
def strategies_failing(parser: argparse.ArgumentParser, strategies: dict[str, Any]) -> Iterator[None]:
    """Ends the command with a one-line error, exit status 1, when the block raises
    while the user's own strategies among ``strategies`` (``--strategy`` text to
    what ``user_strategy`` made of it) play: their exception, or the
    StrategyError of a move that is not legal. With built-ins alone an exception
    is a bug, and keeps its traceback."""
    try:
        yield
    except Exception as err:
        users = [text for text, strategy in strategies.items() if not isinstance(strategy, str)]
        if not users:
            raise
        parser.exit(1, f"{parser.prog}: error: the strategy {' or '.join(users)} failed: "
                       f"{type(err).__name__}: {err}\n")


def _module_of_file(path: str) -> Any:
    """The module of the Python file ``path``, loaded under a name made from the
    file's that no other module has, and kept in sys.modules (where its
    dataclasses look for it)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no file {path}")
    name = "acesup_strategy_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class InputError(Exception):
    """Standard input cannot be read as text in its encoding (a UTF-16 input
    without a byte-order mark): the command ends with this message, status 1."""


_deferring = False  # inside deferred_interrupts: Ctrl-C waits for the end of the block
_pending = False  # a Ctrl-C that came meanwhile


def _on_sigint(signum: int, frame: Any) -> None:
    """Python's own reaction to Ctrl-C (KeyboardInterrupt), held back inside
    deferred_interrupts."""
    global _pending
    if _deferring:
        _pending = True
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def catching_interrupts() -> Iterator[None]:
    """Installs, around a command, the handler of Ctrl-C that deferred_interrupts
    can hold back. SIGINT stays ignored where it was (a background job), and
    off the main thread, where no handler can be installed, Ctrl-C is left as it is."""
    installed = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    if installed:
        signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Holds back a Ctrl-C until the block ends, then raises its KeyboardInterrupt,
    in place of whatever error the block raised. For the import and the drawing
    of a plot (a second or so): a Ctrl-C inside the import of a C extension is
    printed with its traceback and turned into an ImportError, and one inside a
    class's creation into a RuntimeError (matplotlib's __set_name__)."""
    global _deferring, _pending
    _deferring, _pending = True, False
    try:
        yield
    except Exception as err:
        if _pending:
            raise KeyboardInterrupt from err
        raise
    finally:
        _deferring = False
    if _pending:
        raise KeyboardInterrupt


@contextlib.contextmanager
def bad_arguments(parser: argparse.ArgumentParser) -> Iterator[None]:
    """Turns what the engine raises about the arguments (a bad card, deck,
    position, rules text, strategy or seed) into a one-line usage error, exit
    status 2, and so a run that the memory cannot hold. Only the setting up of a
    command runs inside, so an error raised while it works is never mistaken for
    a bad argument."""
    try:
        yield
    except (AcesUpError, ValueError, TypeError, ImportError, MemoryError) as err:
        parser.error(str(err))


def terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is open and a terminal (a closed stdin or stdout is None)."""
    return stream is not None and stream.isatty()


def colour(stream: TextIO | None) -> bool:
    """Whether to colour what goes to ``stream``: a terminal that is not "dumb",
    and no NO_COLOR in the environment (https://no-color.org)."""
    return terminal(stream) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


_RED_CARD = re.compile("[2-9TJQKA][\u2665\u2666]")  # a heart or a diamond in the tableau


def tableau(game: Any, coloured: bool) -> str:
    """``str(game)`` (RULES.md R6.6) under a line of pile numbers, the hearts and
    diamonds in red when ``coloured``."""
    text = "   ".join(map(str, range(len(game.piles)))) + "\n" + str(game)
    if coloured:
        text = _RED_CARD.sub(lambda card: f"\033[31m{card[0]}\033[0m", text)
    return text


def moves(count: int) -> str:
    """``count`` moves, in words."""
    return f"{count} move{'s' * (count != 1)}"
