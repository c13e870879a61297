"""The command line: ``acesup <command>`` (also ``python -m acesup``).

- ``simulate``: play many seeded games with a strategy and report the win rate;
- ``solve``: ask the clairvoyant solver whether a deal can be won, and how;
- ``play``: play a game in the terminal, by typing moves;
- ``table``: the Markdown table of win rates by rules and strategy;
- ``winnable``: the winnable deals among a range of kpat or PySolFC deal numbers;
- ``bench``: the performance figures (``acesup.bench``).

Every command has ``--help`` with examples. A bad argument, including one the
engine rejects (a bad card, deck, position, rules text or strategy), ends the
command with a one-line message on stderr and exit status 2, never a traceback;
Ctrl-C ends it with status 130, output that cannot be written (a full disk)
with a one-line message and status 1, a reader that goes away with status 141.
An output whose encoding cannot write the suit symbols (``PYTHONIOENCODING=ascii``,
a C locale) shows the suits as the letters of the card notation instead.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import importlib
import io
import json
import math
import os
import random
import re
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TextIO

from tqdm import tqdm

import acesup

from . import bench, plot
from .arguments import deal_range, games_count, int_at_least, int_in_range
from .display import SUIT_SYMBOLS, figure
from .errors import AcesUpError, MoveError, UndoError

__all__ = ["main"]

ENGINES = {"native": "acesup", "reference": "acesup.reference"}
PRESETS = ("standard", "strict", "easy", "reverse")
TABLE_STRATEGIES = ("random", "noop", "simple", "greedy", "lookahead", "montecarlo")
CHEAP_SECONDS = 10e-6  # a strategy cheaper than this a game plays --cheap-games in `table --players`
CHEAP_GAMES = 1_000_000  # --cheap-games by default
# `table`'s options of one kind of table, each with the option that asks for that kind.
TABLE_KIND_OPTIONS = {"layout": "small", "rules": "players", "cheap_games": "players"}
# The rows of `table --small`: the layouts in reach of the exact optimum, 4 suits (fewer are always won).
SMALL_LAYOUTS = ("suits=4,ranks=2", "suits=4,ranks=3", "strict,suits=4,ranks=3", "easy,suits=4,ranks=3",
                 "reverse,suits=4,ranks=3", "suits=4,ranks=3,deal=stuck", "suits=4,ranks=3,deal=any",
                 "suits=4,ranks=3,deal_to=empty", "suits=4,ranks=3,piles=5")
MAX_THREADS = 256  # the native engine's cap on threads (MAX_THREADS in crates/acesup/src/simulate.rs)
BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the signal
INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)

SHARD_SECONDS = 0.25  # simulate plays in shards of about this long, so that Ctrl-C and the progress bar respond
FIRST_SHARD = 16  # games: small enough for the slowest strategy on the reference engine
PROGRESS_DELAY = 1.0  # seconds before a progress bar appears: short runs show none

# `winnable`'s default bound on a deal's search: its positions, so that the tables of the
# threads solving at once fit in this share of the machine's memory. A deal's search holds
# at most about SEARCH_POSITION_BYTES a position at its peak: kpat deals 564 and 762 took
# 14.9 and 10.8 bytes (289.3 and 100.0 million positions, 4.20 and 1.05 GiB), the first
# right after a doubling of its table, the dearest moment. A limit of positions, unlike
# one of seconds, gives the same verdicts on a loaded machine as on an idle one.
MEMORY_SHARE = 0.5
SEARCH_POSITION_BYTES = 20
FALLBACK_MEMORY = 8 * 2**30  # when the machine does not say how much it has

HINT_NODES = 200_000  # how hard `hint` and `solve` in `acesup play` let the solver look for a win
HINT_SECONDS = 1.0
WIDTH = 80  # the columns that the header of `acesup play` fits in

# What the output writes beyond ASCII, and its stand-in where the output's encoding cannot
# write it (PYTHONIOENCODING=ascii, a C locale, latin-1): the suits become the letters of the
# card notation (RULES.md R6.1), which keeps the tableau's columns, since a card is two
# characters either way.
ASCII_FALLBACK = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c",
                  "\u2588": "#", "\u258f": "|", "\u2013": "-", "\u00b7": "."}
FALLBACK = "acesup-ascii"  # the name of the codecs error handler that writes them


# --- arguments ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: the problem and where to read
    more, without the usage block (exit status 2, as argparse's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_threads = int_in_range(1, MAX_THREADS, f"{MAX_THREADS} threads (the native engine's cap)")


def _seed(text: str) -> int:
    """An argparse type: a seed, an int in [0, 2**64)."""
    value = int_at_least(0)(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"a seed is an int in [0, 2**64), got {text!r}")
    return value


def _seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _rules_options(default: str) -> _Parser:
    """The options that choose the rules (RULES.md R5), shared by the commands;
    ``default`` says in the help which rules a command starts from without --rules."""
    parent = _Parser(add_help=False)
    group = parent.add_argument_group("rules (docs/RULES.md R5)")
    group.add_argument("--rules", metavar="PRESET",
                       help="a preset (standard, strict, easy, reverse) or rules text as in RULES.md R6.4, "
                            f"e.g. 'strict,deal=stuck' (default: {default}); the options below change it")
    group.add_argument("--fill", choices=("top", "ace", "any"), help="which card may fill an empty pile")
    group.add_argument("--deal", choices=("free", "stuck", "any"), help="when a deal is allowed")
    group.add_argument("--relocate-single", action="store_true", default=None,
                       help="a pile's only card may fill an empty pile while the stock lasts")
    group.add_argument("--ace-low", action="store_true", default=None,
                       help="the ace is the lowest card and the king the highest (ace_high=false)")
    return parent


def _rules_given(args: argparse.Namespace) -> bool:
    return any(getattr(args, name) is not None for name in ("rules", "fill", "deal", "relocate_single", "ace_low"))


def _rules(engine: Any, args: argparse.Namespace, default: Any = None) -> Any:
    """The engine's Rules chosen by the rules options, starting from ``default``
    (the standard rules when None) unless ``--rules`` names others. ``RulesError``
    for bad text."""
    if args.rules is not None:
        rules = engine.Rules.parse(args.rules)
    else:
        rules = engine.Rules.standard() if default is None else default
    options: dict[str, Any] = {}
    if args.fill is not None:
        options["fill"] = args.fill
    if args.deal is not None:
        options["deal"] = args.deal
    if args.relocate_single:
        options["relocate_single"] = True
    if args.ace_low:
        options["ace_high"] = False
    return rules.replace(**options)


# The programs whose numbered deals the commands take (RULES.md R8): their option,
# the Game constructor, the rules preset and how the number is written.
PROGRAMS = {"kpat": (acesup.Game.from_kpat, acesup.Rules.kpat, "kpat deal"),
            "pysol": (acesup.Game.from_pysol, acesup.Rules.pysol, "PySolFC game")}


def _numbered(args: argparse.Namespace) -> str | None:
    """The program whose deal number was given (--kpat or --pysol), if any."""
    return next((name for name in PROGRAMS if getattr(args, name, None) is not None), None)


def _numbered_game(program: str, number: int, args: argparse.Namespace) -> Any:
    """The native Game of a kpat or PySolFC deal number, under the program's rules
    preset changed by the rules options (``--rules`` replaces the preset)."""
    deal, preset, _ = PROGRAMS[program]
    return deal(number, _rules(acesup, args, preset()))


def _deal_number(text: str) -> int:
    """An argparse type: a deal number, checked against its program's range by the engine."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a deal number, got {text!r}") from None


@contextlib.contextmanager
def _bad_arguments(parser: argparse.ArgumentParser) -> Iterator[None]:
    """Turns what the engine raises about the arguments (a bad card, deck,
    position, rules text, strategy or seed) into a one-line usage error, exit
    status 2, and so a run that the memory cannot hold. Only the setting up of a
    command runs inside, so an error raised while it works is never mistaken for
    a bad argument."""
    try:
        yield
    except (AcesUpError, ValueError, TypeError, ImportError, MemoryError) as err:
        parser.error(str(err))


# --- the standard streams ----------------------------------------------------------------------


def _ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """A codecs error handler: ASCII_FALLBACK's stand-in for each character that
    the encoding cannot write, and a backslash escape for any other."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(ASCII_FALLBACK.get(char, char.encode("ascii", "backslashreplace").decode("ascii"))
                   for char in error.object[error.start:error.end]), error.end


def _prepare_streams() -> None:
    """Makes the standard streams safe for whatever goes through them: stdout and
    stderr write ASCII_FALLBACK's stand-ins for what their encoding cannot, and
    stdin reads bytes that are not text in its encoding (a stray ``\\xff``) as
    U+FFFD, which is then just a line that is not a move. A closed stream
    (``acesup play <&-``) is None in ``sys`` and is left alone."""
    codecs.register_error(FALLBACK, _ascii_fallback)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=FALLBACK)
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")


def _terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is open and a terminal (a closed stdin or stdout is None)."""
    return stream is not None and stream.isatty()


def _discard_output() -> None:
    """Points standard output at nothing, so that the interpreter's last flush of
    what is left in its buffer cannot fail a second time at exit."""
    with contextlib.suppress(OSError, ValueError):  # no file descriptor: nothing is flushed at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


# --- presentation ---------------------------------------------------------------------------------


def _colour(stream: TextIO | None) -> bool:
    """Whether to colour what goes to ``stream``: a terminal that is not "dumb",
    and no NO_COLOR in the environment (https://no-color.org)."""
    return _terminal(stream) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


_RED_CARD = re.compile("[2-9TJQKA][\u2665\u2666]")  # a heart or a diamond in the tableau


_CARD_TEXT = re.compile(r"\b([2-9TJQKA])([cdhs])\b")  # a card in the notation of RULES.md R6.1


def _as_on_the_board(message: str) -> str:
    """``message`` (an engine's) with its cards written as the tableau shows them,
    ``Q\u2660`` for ``Qs`` (RULES.md R6.6)."""
    return _CARD_TEXT.sub(lambda card: card[1] + SUIT_SYMBOLS[card[2]], message)


def _tableau(game: Any, colour: bool) -> str:
    """``str(game)`` (RULES.md R6.6) under a line of pile numbers, the hearts and
    diamonds in red when ``colour``."""
    text = "   ".join(map(str, range(len(game.piles)))) + "\n" + str(game)
    if colour:
        text = _RED_CARD.sub(lambda card: f"\033[31m{card[0]}\033[0m", text)
    return text


def _text_histogram(histogram: tuple[int, ...], width: int = 40) -> str:
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


# --- simulate ---------------------------------------------------------------------------------------


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
    threads = "all cores" if args.threads is None else f"{args.threads} thread{'s' * (args.threads > 1)}"
    return f"native engine on {threads}"


def _finite(value: float) -> float | None:
    """A float for JSON, which has no nan: None stands for "no games"."""
    return None if math.isnan(value) else value


def _simulate(args: argparse.Namespace) -> int:
    engine = importlib.import_module(ENGINES[args.engine])
    with _bad_arguments(args.parser):
        rules = _rules(engine, args)
        engine.simulate(0, args.strategy, rules, args.seed, threads=args.threads)  # checks them all
        if args.plot is not None:
            plot.check_path(args.plot)
    progress = not args.json and _terminal(sys.stdout)
    stats, seconds, interrupted = _simulate_in_shards(
        lambda count, start: engine.simulate(count, args.strategy, rules, args.seed, threads=args.threads,
                                             start=start),
        args.games, engine.Stats.empty(), progress)
    rate = stats.games / seconds if seconds > 0 else math.nan
    if args.json:
        print(json.dumps({
            "games": stats.games, "wins": stats.wins, "losses": stats.losses,
            "win_rate": _finite(stats.win_rate), "ci95": list(stats.ci95),
            "mean_score": _finite(stats.mean_score), "histogram": list(stats.histogram),
            "games_per_second": _finite(rate), "seconds": seconds,
            "strategy": args.strategy, "rules": str(rules), "seed": args.seed, "engine": args.engine,
            "threads": 1 if args.engine == "reference" else args.threads, "partial": interrupted,
            "games_asked": args.games,
        }, indent=2))
    else:
        print(f"strategy {args.strategy}, seed {args.seed}, {_runs_on(args)}")
        print(f"rules {rules}")
        if interrupted:
            print(f"interrupted: partial result, {stats.games:,} of {args.games:,} games played")
        print(f"games       {stats.games:,}")
        print(f"wins        {stats.wins:,}")
        low, high = stats.ci95
        print(f"win rate    {figure(stats.win_rate, 5)} (95% CI {low:.5f} to {high:.5f})")
        print(f"mean score  {figure(stats.mean_score, 3)}")
        print(f"games/s     {rate:,.0f}")
        print()
        print(_text_histogram(stats.histogram))
    if args.plot is not None:
        try:
            plot.histogram(stats, path=args.plot, strategy=args.strategy, rules=rules, seed=args.seed)
        except OSError as err:  # the folder and the format were checked, but the disk may still refuse
            print(f"{args.parser.prog}: error: cannot write the plot: {err}", file=sys.stderr)
            return 1
    return INTERRUPTED if interrupted else 0


# --- solve ------------------------------------------------------------------------------------------


def _game(args: argparse.Namespace) -> Any:
    """The native Game named by --seed, --deck, --position, --kpat or --pysol, under
    the rules options."""
    program = _numbered(args)
    if program is not None:
        return _numbered_game(program, getattr(args, program), args)
    if args.position is not None:
        if _rules_given(args):
            raise ValueError("a --position carries its own rules: leave out --rules, --fill, --deal, "
                             "--relocate-single and --ace-low")
        return acesup.Game.from_str(args.position)
    rules = _rules(acesup, args)
    if args.deck is not None:
        return acesup.Game.from_deck(args.deck, rules)
    return acesup.Game.from_seed(args.seed, rules)


def _solve(args: argparse.Namespace) -> int:
    with _bad_arguments(args.parser):
        game = _game(args)
    colour = _colour(sys.stdout)
    solution = acesup.solve(game, node_limit=args.node_limit, time_limit=args.time_limit)
    print(f"position  {game.to_str()}")
    searched = f"{solution.nodes:,} position{'s' * (solution.nodes != 1)} searched"
    if solution.winnable:
        print(f"winnable: a winning line of {_moves(len(solution.moves))} ({searched})")
    elif solution.winnable is False:
        print(f"lost: no sequence of moves wins this deal (proved exhaustively, {searched})")
    else:
        print(f"unresolved: the search stopped at its limit ({searched}); raise --node-limit or --time-limit")
    print()
    print(_tableau(game, colour))
    for number, move in enumerate(solution.moves, 1):
        game.play(move)
        print()
        print(f"{number}. {move}")
        print(_tableau(game, colour))
    return 0


# --- play -------------------------------------------------------------------------------------------

PLAY_HELP = """\
Type a move in the notation of RULES.md R6.3 (piles are numbered 0 to {last}, left to right):
  d2       discard the top card of pile 2 (a higher card of its suit is on top of another pile)
  f2>0     fill the empty pile 0 with the top card of pile 2
  f2:1>0   fill pile 0 with the card at index 1 of pile 2, counted from the top (fill=any)
  deal     deal from the stock
or a command:
  moves    list the legal moves        undo   take back the last move
  hint     suggest a move              solve  tell whether this position can still be won
  help     show this                   quit   stop playing (Ctrl-D too)"""


def _moves(count: int) -> str:
    return f"{count} move{'s' * (count != 1)}"


def _search(game: Any) -> Any:
    """The solver's verdict on ``game`` within the small limits of play."""
    return acesup.solve(game, node_limit=HINT_NODES, time_limit=HINT_SECONDS)


def _hint(game: Any) -> Any:
    """A suggested move: the first move of the solver's winning line when it finds
    one within its small limit, else the "greedy" strategy's move. Which of the two
    it is goes unsaid, so that a hint does not give away whether the deal can
    still be won; the player asks for that with ``solve``."""
    solution = _search(game)
    if solution.winnable and solution.moves:
        return solution.moves[0]
    return acesup.strategy("greedy")(game)


def _verdict(game: Any) -> str:
    """What the solver says of ``game``, in words (the ``solve`` command of play)."""
    solution = _search(game)
    if solution.winnable:
        return f"this position can be won: the solver found a win in {_moves(len(solution.moves))}"
    if solution.winnable is False:
        return "this position can no longer be won: the solver proved it"
    return (f"the solver found no win within its limit ({HINT_NODES:,} positions or {HINT_SECONDS:g} s): "
            "the position may still be won")


def _line_editing() -> None:
    """Turns on line editing at the prompt where the ``readline`` module exists
    (arrow keys, and Up to recall the lines typed before): ``input`` uses it once
    it is imported."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def _read_line(terminal: bool) -> str | None:
    """The next line typed, or None at the end of the input (Ctrl-D, a closed
    stdin). On a terminal Ctrl-D and Ctrl-C first end the prompt's line, so that
    what follows starts on a fresh one."""
    if sys.stdin is None:
        return None
    try:
        return input("move> ")
    except EOFError:
        if terminal:
            print()
        return None
    except KeyboardInterrupt:
        if terminal:
            print()
        raise


def _play(args: argparse.Namespace) -> int:
    program = _numbered(args)
    seed = args.seed if args.seed is not None else random.randrange(2**64)
    with _bad_arguments(args.parser):
        if program is None:
            game = acesup.Game.from_seed(seed, _rules(acesup, args))
        else:
            game = _numbered_game(program, getattr(args, program), args)
    terminal = _terminal(sys.stdin) and _terminal(sys.stdout)
    colour, echo, win = _colour(sys.stdout), not _terminal(sys.stdin), game.rules.win_score()
    if terminal:
        _line_editing()
    if program is None:
        print(f"Aces Up, seed {seed} (--seed {seed} deals it again)")
    else:
        number = getattr(args, program)
        print(f"Aces Up, {PROGRAMS[program][2]} {number} (--{program} {number} deals it again)")
    print(textwrap.fill(f"rules {game.rules}".replace(",", ", "), WIDTH, subsequent_indent="  "))
    kept = "aces" if game.rules.ace_high else "kings"
    print(f"Discard every card but the {kept}. Type a move (d2, f2>0, deal), or help.")
    print()
    print(_tableau(game, colour))
    while not game.is_over:
        line = _read_line(terminal)
        if line is None:
            line = "quit"
        if echo:
            print(line)
        word = line.strip().lower()
        if not word:
            continue
        if word in ("quit", "exit", "q"):
            print(f"stopped with {game.score} of {win} cards discarded")
            return 0
        if word in ("help", "?", "h"):
            print(PLAY_HELP.format(last=len(game.piles) - 1))
        elif word == "moves":
            print("legal moves: " + " ".join(map(str, game.legal_moves())))
        elif word == "hint":
            print(f"hint: {_hint(game)}")
        elif word == "solve":
            print(_verdict(game))
        elif word == "undo":
            try:
                print(f"took back {game.undo()}")
            except UndoError as err:
                print(_as_on_the_board(str(err)))
                continue
            print(_tableau(game, colour))
        else:
            try:
                game.play(word)
            except MoveError as err:  # malformed (MoveError) or against the rules (IllegalMoveError)
                print(_as_on_the_board(str(err)))
                continue
            print(_tableau(game, colour))
    if game.is_won:
        print(f"You won: all {win} cards discarded in {_moves(len(game.history))}.")
    else:
        print(f"Game over: no move left, {game.score} of {win} cards discarded.")
    return 0


# --- winnable ---------------------------------------------------------------------------------------


def _memory_node_limit(threads: int) -> int:
    """The positions a deal's search may store so that ``threads`` searches at once fit
    in MEMORY_SHARE of the machine's memory (`winnable`'s default)."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        memory = FALLBACK_MEMORY
    return max(1, int(MEMORY_SHARE * memory / (threads * SEARCH_POSITION_BYTES)))


# `winnable --list`: the verdict whose deal numbers it writes, by name.
VERDICTS = {"winnable": True, "unwinnable": False, "unresolved": None}


def _winnable(args: argparse.Namespace) -> int:
    program = _numbered(args)
    assert program is not None  # winnable's parser requires --kpat or --pysol
    numbers = getattr(args, program)
    # len() of a range stops at 2**63, and the PySolFC numbers go on to 10**20.
    count = numbers[-1] - numbers[0] + 1 if isinstance(numbers, range) else len(numbers)
    if args.node_limit is None and args.time_limit is None:
        args.node_limit = _memory_node_limit(min(args.threads or os.cpu_count() or 1, count))
    with _bad_arguments(args.parser):
        rules = _rules(acesup, args, PROGRAMS[program][1]())
        verdicts = acesup.solve_deals(program, numbers, rules, threads=args.threads,
                                      node_limit=args.node_limit, time_limit=args.time_limit)
    counts = {True: 0, False: 0, None: 0}
    kind = args.list or "winnable"
    listed = VERDICTS[kind]
    found: list[int] = []  # with --json and --list, the numbers of its "numbers"
    began = time.perf_counter()
    interrupted = False
    with tqdm(total=count, disable=not _terminal(sys.stderr), file=sys.stderr, unit=" deals",
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
    seconds = time.perf_counter() - began
    done = sum(counts.values())
    name = PROGRAMS[program][2]
    shown = (f"{name}s {numbers[0]}-{numbers[-1]}" if isinstance(numbers, range)
             else f"{count:,} {name}s from {numbers[0]} to {numbers[-1]}")
    if args.json:
        print(json.dumps({
            "deals": program, "first": numbers[0], "last": numbers[-1], "count": count,
            "rules": str(rules),
            "winnable": counts[True], "unwinnable": counts[False], "unresolved": counts[None],
            "solved": done, "partial": interrupted, "seconds": seconds,
            "node_limit": args.node_limit, "time_limit": args.time_limit,
            **({"listed": kind, "numbers": found} if args.list else {}),
        }, indent=2))
    else:
        if interrupted:
            print(f"interrupted: {done:,} of {count:,} deals solved, the {kind} ones listed above",
                  file=sys.stderr)
        print(f"{shown} ({done:,} solved in {seconds:.1f} s), rules {rules}: "
              f"{counts[True]:,} winnable, {counts[False]:,} unwinnable, {counts[None]:,} unresolved",
              file=sys.stderr)
    return INTERRUPTED if interrupted else 0


# --- table ------------------------------------------------------------------------------------------


def _percent(rate: float, bounds: tuple[float, float]) -> str:
    return f"{100 * rate:.2f} ({100 * bounds[0]:.2f}\u2013{100 * bounds[1]:.2f})"


def _registry_strategies(*layouts: Any) -> list[str]:
    """Every built-in strategy of the registry that plays each of the rules
    ``layouts`` (some refuse a layout: "optimal" one out of its reach), in registry
    order."""
    from .reference.strategies import builtin_names  # the registry; loaded only here, as the reference is
    names = []
    for name in builtin_names():
        try:
            for rules in layouts:
                acesup.simulate(0, name, rules)
        except acesup.StrategyError:
            continue
        names.append(name)
    return names


def _small_table(args: argparse.Namespace) -> int:
    """The small-layout table: the exact optimum beside the clairvoyant share and
    every strategy's win rate, one row per layout."""
    from .reference.optimal import MAX_DECK  # the optimum's reach, the same in both engines
    layouts = args.layout or list(SMALL_LAYOUTS)
    with _bad_arguments(args.parser):
        rules_of = {text: acesup.Rules.parse(text) for text in layouts}
        for text, rules in rules_of.items():
            if rules.deck_size() > MAX_DECK:
                raise ValueError(f"layout {text!r} has {rules.deck_size()} cards: the exact optimum is computed "
                                 f"for decks of at most {MAX_DECK} cards")
        strategies = args.strategy or _registry_strategies(*rules_of.values())
        for rules in rules_of.values():
            acesup.compare(strategies, 0, rules, args.seed, threads=args.threads)  # checks them all
    lines = [
        "Small layouts: *optimum* is the exact probability that a perfect player who never sees the stock "
        "wins a random deal (acesup.optimal); the other cells are win rates in % with 95% Wilson intervals "
        f"over games 0 to {args.games - 1:,} of seed {args.seed}, the same deals for every column. "
        "*solvable* is the clairvoyant solver's share (it knows the order of the stock), the upper bound.",
        "",
        "| layout | optimum | solvable | " + " | ".join(strategies) + " |",
        "| --- | ---: | ---: | " + " | ".join("---:" for _ in strategies) + " |",
    ]
    for text in layouts:
        rules = rules_of[text]
        started = time.monotonic()
        optimum = acesup.optimal(rules, threads=args.threads)
        seconds = time.monotonic() - started
        solvable = acesup.solvability(args.games, rules, args.seed, threads=args.threads,
                                      node_limit=args.node_limit, time_limit=args.time_limit)
        comparison = acesup.compare(strategies, args.games, rules, args.seed, threads=args.threads)
        cells = [f"{100 * float(optimum):.2f} = {optimum} ({seconds:.1f} s)",
                 _percent(solvable.rate, solvable.ci95)]
        cells += [_percent(stats.win_rate, stats.ci95) for stats in comparison.stats.values()]
        lines.append(f"| {text} | " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    print("\n".join(lines))
    return 0


def _cost_per_game(strategy: str, rules: Any, seed: int) -> float:
    """Seconds a game of ``strategy`` takes on one thread: games played in doubling
    batches until a batch lasts a quarter of a second."""
    games = 16
    while True:
        started = time.perf_counter()
        acesup.simulate(games, strategy, rules, seed, threads=1)
        seconds = time.perf_counter() - started
        if seconds >= 0.25:
            return seconds / games
        games *= 2


def _players_table(args: argparse.Namespace) -> int:
    """The full-deck table of the players: every registry strategy that plays the
    rules, its win rate, its paired difference against lookahead on the same deals,
    its cost per game, and the clairvoyant share as the upper bound."""
    with _bad_arguments(args.parser):
        rules = acesup.Rules.parse("standard" if args.rules is None else args.rules)
        strategies = args.strategy or _registry_strategies(rules)
        if "lookahead" not in strategies:
            strategies.append("lookahead")
        acesup.compare(strategies, 0, rules, args.seed, threads=args.threads)  # checks them all
    costs = {name: _cost_per_game(name, rules, args.seed) for name in strategies}
    cheap_games = max(args.games, CHEAP_GAMES if args.cheap_games is None else args.cheap_games)
    comparison = acesup.compare(strategies, args.games, rules, args.seed, threads=args.threads)
    pairs = {(pair.a, pair.b): pair for pair in comparison.pairs}
    lines = [
        f"Players under `{rules}`: win rates in % with 95% Wilson intervals; a strategy under "
        f"{CHEAP_SECONDS * 1e6:g} us a game plays games 0 to {cheap_games - 1:,} of seed {args.seed}, the "
        f"others games 0 to {args.games - 1:,}. *vs lookahead*: the paired difference in win rate, in points, "
        f"on games 0 to {args.games - 1:,} (95% interval, McNemar's p). *cost*: one thread.",
        "",
        "| player | games | win % | vs lookahead | cost per game |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name in strategies:
        stats = comparison.stats[name]
        if costs[name] < CHEAP_SECONDS and cheap_games > args.games:  # else the comparison's games
            stats = acesup.simulate(cheap_games, name, rules, args.seed, threads=args.threads)
        if name == "lookahead":
            versus = "0"
        else:
            pair = pairs.get((name, "lookahead"))
            sign = 1
            if pair is None:
                pair, sign = pairs[("lookahead", name)], -1
            low, high = sorted((sign * pair.ci95[0], sign * pair.ci95[1]))
            versus = f"{100 * sign * pair.diff:+.2f} ({100 * low:+.2f} to {100 * high:+.2f}), p {pair.p_value:.2g}"
        lines.append(f"| {name} | {stats.games:,} | {_percent(stats.win_rate, stats.ci95)} | {versus} | "
                     f"{costs[name] * 1e6:,.1f} us |")
    solvable = acesup.solvability(args.games, rules, args.seed, threads=args.threads,
                                  node_limit=args.node_limit, time_limit=args.time_limit)
    lines.append(f"| clairvoyant (solvable, upper bound) | {solvable.games:,} | "
                 f"{_percent(solvable.rate, solvable.ci95)} | | |")
    print("\n".join(lines))
    return 0


def _table(args: argparse.Namespace) -> int:
    for name, kind in TABLE_KIND_OPTIONS.items():
        if getattr(args, name) is not None and not getattr(args, kind):
            args.parser.error(f"argument --{name.replace('_', '-')}: only with --{kind}")
    if args.small:
        return _small_table(args)
    if args.players:
        return _players_table(args)
    strategies = args.strategy or list(TABLE_STRATEGIES)
    with _bad_arguments(args.parser):
        acesup.compare(strategies, 0, None, args.seed, threads=args.threads)  # checks them all
        acesup.solvability(0, None, args.seed, threads=args.threads, node_limit=args.node_limit,
                           time_limit=args.time_limit)
    rows = [(preset, deal) for preset in PRESETS for deal in ("free", "stuck")]
    lines = [
        f"Win rates in % with 95% Wilson intervals, over games 0 to {args.games - 1:,} of seed {args.seed}: "
        f"every strategy and the solver play the same {args.games:,} deals under each rules.",
        "*solvable*: the clairvoyant solver, which knows the order of the stock; its interval counts the "
        f"deals left unresolved by its limit ({_limits_text(args)}) as possibly either.",
        "",
        "| rules | deal | " + " | ".join(strategies) + " | solvable | unresolved |",
        "| --- | --- | " + " | ".join("---:" for _ in strategies) + " | ---: | ---: |",
    ]
    with tqdm(total=len(rows), disable=not _terminal(sys.stdout), delay=PROGRESS_DELAY, unit="rules",
              leave=False) as bar:
        for preset, deal in rows:
            rules = acesup.Rules.preset(preset).replace(deal=deal)
            comparison = acesup.compare(strategies, args.games, rules, args.seed, threads=args.threads)
            solvable = acesup.solvability(args.games, rules, args.seed, threads=args.threads,
                                          node_limit=args.node_limit, time_limit=args.time_limit)
            cells = [_percent(stats.win_rate, stats.ci95) for stats in comparison.stats.values()]
            cells += [_percent(solvable.rate, solvable.ci95), f"{solvable.unresolved:,}"]
            lines.append(f"| {preset} | {deal} | " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
            bar.update()
    print("\n".join(lines))
    return 0


def _bench(args: argparse.Namespace) -> int:
    with _bad_arguments(args.parser):
        acesup.simulate(0, args.strategy)  # checks the strategy before the long runs
        acesup.Batch(args.batch_slots)  # and that the batch's slots fit in memory
    return bench.run(args)


def _limits_text(args: argparse.Namespace) -> str:
    limits = []
    if args.node_limit is not None:
        limits.append(f"{args.node_limit:,} positions")
    if args.time_limit is not None:
        limits.append(f"{args.time_limit:g} s")
    return " or ".join(limits) + " a deal" if limits else "none"


# --- the parser -----------------------------------------------------------------------------------------


def _numbered_options(group: Any) -> None:
    """--kpat N and --pysol N, the numbered deals of RULES.md R8, in ``group``."""
    group.add_argument("--kpat", type=_deal_number, metavar="N",
                       help="kpat's deal number N (1 to 2**31-1), under Rules.kpat() unless --rules says otherwise")
    group.add_argument("--pysol", type=_deal_number, metavar="N",
                       help="PySolFC's game number N (1 to 10**20), under Rules.pysol() unless --rules says "
                            "otherwise")


def _parser() -> _Parser:
    rules = _rules_options("standard")
    numbered_rules = _rules_options("standard, or with --kpat or --pysol that program's rules, RULES.md R8")
    program_rules = _rules_options("the program's rules, Rules.kpat() or Rules.pysol(), RULES.md R8")
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="acesup", description="Aces Up solitaire: simulate, solve, play, tabulate, benchmark.",
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

    simulate = commands.add_parser(
        "simulate", parents=[rules], formatter_class=formatter,
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
  acesup simulate --games 1000 --engine reference         the pure-Python engine""")
    simulate.add_argument("--games", type=games_count(), default=100_000, metavar="N",
                          help="number of games (default 100000; 1e6 and 1_000_000 work; at most 2**64)")
    simulate.add_argument("--strategy", default="random", metavar="S",
                          help="random, noop, simple, greedy, lookahead, or montecarlo:playouts=P,policy=S "
                               "(docs/STRATEGIES.md; default random)")
    simulate.add_argument("--seed", type=_seed, default=0, metavar="K", help="master seed (default 0)")
    simulate.add_argument("--threads", type=_threads, metavar="T",
                          help=f"threads of the native engine, at most {MAX_THREADS} (default: all cores); "
                               "the reference engine runs on one")
    simulate.add_argument("--engine", choices=tuple(ENGINES), default="native",
                          help="native (Rust, default) or reference (pure Python, slow)")
    simulate.add_argument("--json", action="store_true", help="print the result as JSON")
    simulate.add_argument("--plot", metavar="FILE", help="also draw the histogram into FILE (.png, .svg, .pdf)")
    simulate.set_defaults(run=_simulate, parser=simulate)

    solve = commands.add_parser(
        "solve", parents=[numbered_rules], formatter_class=formatter,
        help="find a winning line for a deal, or prove there is none",
        description="Runs the clairvoyant solver (it knows the order of the stock) on one deal and prints its "
                    "verdict: a winning line, step by step with the tableau after each move; or the proof "
                    "that the deal is lost; or, when a limit stops the search, that it is unresolved.",
        epilog="""examples:
  acesup solve --seed 42
  acesup solve --seed 42 --rules easy
  acesup solve --deck "As Kd 7h 2c 3s ..."                   a deck in deal order, all 52 cards
  acesup solve --position "7s/Js/5h3d/Ac 9c2h... - fill=top,deal=free,relocate_single=false,ace_high=true"
  acesup solve --seed 7 --node-limit 1e6 --time-limit 10
  acesup solve --kpat 1234                                  kpat's deal 1234, under kpat's rules
  acesup solve --pysol 98765 --rules standard               PySolFC's game 98765, under other rules""")
    deal = solve.add_mutually_exclusive_group(required=True)
    deal.add_argument("--seed", type=_seed, metavar="K", help="the deal Game.from_seed(K)")
    deal.add_argument("--deck", metavar="CARDS", help="the 52 cards in deal order (RULES.md R6.2)")
    deal.add_argument("--position", metavar="STR", help="a position in the one-line text of RULES.md R6.5, "
                                                        "which includes its rules")
    _numbered_options(deal)
    solve.add_argument("--node-limit", type=int_at_least(1), metavar="N",
                       help="stop after searching N positions (default: no limit)")
    solve.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S",
                       help="stop after S seconds (default 60)")
    solve.set_defaults(run=_solve, parser=solve)

    play = commands.add_parser(
        "play", parents=[numbered_rules], formatter_class=formatter,
        help="play a game in the terminal",
        description="Plays one game interactively: type moves in the notation of RULES.md R6.3 (d2, f2>0, "
                    "f2:3>0, deal) or undo, hint (a suggested move), solve (whether the position can still "
                    "be won), moves, help, quit (or Ctrl-D). On a terminal the arrow keys edit the line and "
                    "Up recalls the lines typed before (where Python has readline). Reads standard input "
                    "line by line, so a game can be scripted. Colour follows the terminal and NO_COLOR.",
        epilog="""examples:
  acesup play                        a random deal (its seed is printed)
  acesup play --seed 42 --rules easy
  printf 'moves\\nhint\\nquit\\n' | acesup play --seed 42
  acesup play --kpat 1234            kpat's deal 1234, under kpat's rules""")
    deal = play.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=_seed, metavar="K", help="the deal Game.from_seed(K) (default: a random one)")
    _numbered_options(deal)
    play.set_defaults(run=_play, parser=play)

    table = commands.add_parser(
        "table", formatter_class=formatter,
        help="print the Markdown table of win rates by rules and strategy",
        description="Plays the same deals under each rules preset and deal timing with each strategy "
                    "(compare) and the clairvoyant solver (solvability), and prints the win rates with "
                    "95% intervals as a Markdown table on standard output.",
        epilog="""examples:
  acesup table > results.md
  acesup table --games 100000 --seed 1
  acesup table --games 1000 --strategy greedy --strategy lookahead --node-limit 1e5
  acesup table --small --games 100000
  acesup table --players --games 20000 --cheap-games 1e6""")
    table.add_argument("--games", type=games_count(), default=10_000, metavar="N",
                       help="deals per rules (default 10000; at most 2**64)")
    table.add_argument("--seed", type=_seed, default=0, metavar="K", help="master seed (default 0)")
    table.add_argument("--strategy", action="append", metavar="S",
                       help=f"a strategy column, repeatable (default: {', '.join(TABLE_STRATEGIES)})")
    table.add_argument("--threads", type=_threads, metavar="T",
                       help=f"threads, at most {MAX_THREADS} (default: all cores)")
    table.add_argument("--node-limit", type=int_at_least(1), default=1_000_000, metavar="N",
                       help="positions the solver may search per deal (default 1e6)")
    table.add_argument("--time-limit", type=_seconds, metavar="S",
                       help="seconds the solver may search per deal (default: no limit)")
    kind = table.add_mutually_exclusive_group()
    kind.add_argument("--small", action="store_true",
                       help="the small layouts instead: the exact optimum (acesup.optimal), the clairvoyant "
                            "share and every strategy of the registry that plays them")
    table.add_argument("--layout", action="append", metavar="RULES",
                       help=f"with --small: a layout row as rules text, repeatable (default: "
                            f"{'; '.join(SMALL_LAYOUTS)})")
    kind.add_argument("--players", action="store_true",
                       help="the players under one rules instead (--rules, default standard): every registry "
                            "strategy with its paired difference against lookahead, its cost per game and the "
                            "clairvoyant share; --games paired deals (use 20000), --cheap-games for the cheap ones")
    table.add_argument("--rules", metavar="RULES", help="with --players: the rules text (default standard)")
    table.add_argument("--cheap-games", type=games_count(), metavar="N",
                       help=f"with --players: games of a strategy under {CHEAP_SECONDS * 1e6:g} us a game, "
                            f"when more than --games (default 1e6)")
    table.set_defaults(run=_table, parser=table)

    winnable = commands.add_parser(
        "winnable", parents=[program_rules], formatter_class=formatter,
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
    winnable.add_argument("--time-limit", type=_seconds, metavar="S",
                          help="seconds the solver may search per deal (default: no limit); a deal it stops is "
                               "unresolved")
    winnable.add_argument("--threads", type=_threads, metavar="T",
                          help=f"threads, at most {MAX_THREADS} (default: all cores)")
    winnable.add_argument("--list", choices=list(VERDICTS),
                          help="which deal numbers to write: the winnable ones (the default), the unwinnable "
                               "ones, or those that a limit left unresolved (for a second round, @FILE)")
    winnable.add_argument("--json", action="store_true",
                          help="print the counts (winnable, unwinnable, unresolved), the range and the rules as "
                               "JSON instead of the numbers; with --list, the numbers of that verdict as well, "
                               "as \"numbers\"")
    winnable.set_defaults(run=_winnable, parser=winnable)

    benchmark = commands.add_parser(
        "bench", formatter_class=formatter, help="print the performance figures",
        description=bench.__doc__.split("\n\n", 1)[1], epilog=bench.EXAMPLES)
    bench.add_arguments(benchmark)
    benchmark.set_defaults(run=_bench, parser=benchmark)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line ``acesup`` with ``argv`` (default: ``sys.argv[1:]``)
    and returns its exit status."""
    _prepare_streams()
    args = _parser().parse_args(argv)
    try:
        status: int = args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # now, so that output that cannot be written is reported, not lost at exit
        return status
    except KeyboardInterrupt:
        print(f"{args.parser.prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except MemoryError as err:  # a computation past its memory limit (acesup.optimal's max_states)
        print(f"{args.parser.prog}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`acesup solve … | head`): stop quietly, as Unix tools do.
        _discard_output()
        return BROKEN_PIPE
    except OSError as err:
        if err.filename is not None:  # not the output, which has no file name
            print(f"{args.parser.prog}: error: {err}", file=sys.stderr)
        else:  # `acesup simulate > /dev/full`
            _discard_output()
            print(f"{args.parser.prog}: error: cannot write the output: {err.strerror or err}", file=sys.stderr)
        return 1
