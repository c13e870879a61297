"""The clairvoyant solver (docs/SOLVER.md): can a position still be won, knowing
the order of the stock? And ``solvability``, the share of seeded deals that can.

This is the oracle that the native solver is checked against, so it is written
to be obviously correct rather than fast: a depth-first search over every legal
move, in R3 order, that never enters a position twice. That is plain
reachability in the graph of positions, so it is right even under
``relocate_single``, whose moves can go round in circles (R4.3): a win is
found exactly when one can be reached. There is no pruning of any kind.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from typing import Any

from ..arguments import U64, exact_str, int_arg, length, native_game_error, rules_arg
from ..progress import Callback, reporter
from .values import Frozen
from .deals import kpat_arg, pysol_arg
from .game import Game
from .moves import Move, move_arg
from .rng import game_seed
from .rules import Rules
from .stats import _wilson

__all__ = ["MAX_LINE", "Solution", "Solvability", "solve", "solvability", "solve_deals"]

MAX_LINE = 479 + 480 * 119
"""The most moves a line that repeats no position holds, in any layout (R4.3): at
most 479 moves that are not a lone card's (48 discards, 47 deals, and 4 fills
after each of them and at the start, on five piles), and between two of them fewer
than 5! = 120 positions that differ only in where the lone cards stand. A
solution's line is never longer."""


class Solution(Frozen):
    """What ``solve`` found, an immutable value.

    ``winnable`` is True when ``moves`` is a winning line from the position solved
    (empty when it was already won), False when the search proved that no win can
    be reached, and None when a limit stopped the search first: the solver never
    guesses. ``nodes`` is the number of positions the search expanded.

    ``Solution(winnable, moves=(), nodes=0)``: ``moves`` are Moves or move texts
    and must be empty unless ``winnable`` is True. ``TypeError`` for a winnable
    that is not True, False or None, or for a move or count of the wrong type;
    ``ValueError`` for a negative count, more than ``MAX_LINE`` moves, or moves
    with a verdict other than True.
    """

    __slots__ = ("winnable", "moves", "nodes", "_key")

    winnable: bool | None
    moves: tuple[Move, ...]
    nodes: int

    def __init__(self, winnable: bool | None, moves: Iterable[Move | str] = (), nodes: int = 0) -> None:
        if not (winnable is None or isinstance(winnable, bool)):
            raise TypeError(f"winnable must be True, False or None, got {winnable!r}")
        if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
            raise TypeError(f"moves must be a sequence of Move, got {type(moves).__name__}")
        # Read no more than the longest line and one past it, so that an endless
        # iterable is refused rather than read for ever.
        line = tuple(move_arg(move, "Solution()") for move in itertools.islice(moves, MAX_LINE + 1))
        if len(line) > MAX_LINE:
            raise ValueError(f"a solution holds at most {MAX_LINE} moves (a line that repeats no position, "
                             f"R4.3), got more")
        if line and winnable is not True:
            raise ValueError(f"a solution with winnable={winnable!r} has no moves, got {len(line)}")
        nodes = int_arg(nodes, "nodes")
        for name, value in (("winnable", winnable), ("moves", line), ("nodes", nodes),
                            ("_key", (winnable, tuple(map(str, line)), nodes))):
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"Solution(winnable={self.winnable!r}, moves={self.moves!r}, nodes={self.nodes})"

    def __str__(self) -> str:
        verdict = {True: "winnable", False: "unwinnable", None: "unresolved"}[self.winnable]
        line = f": {' '.join(map(str, self.moves))}" if self.moves else ""
        return f"{verdict} ({self.nodes} nodes){line}"

    @staticmethod
    def _native_key(native: Any) -> object:
        """The _key of a native Solution (moves by their text, so that hash(_key)
        is the native engine's hash too)."""
        return native.winnable, tuple(map(str, native.moves)), native.nodes

    def __reduce__(self) -> tuple[type[Solution], tuple[bool | None, tuple[Move, ...], int]]:
        return Solution, (self.winnable, self.moves, self.nodes)


class Solvability(Frozen):
    """How many deals of a batch can be won, an immutable value (API.md).

    ``Solvability(winnable, unwinnable, unresolved)``: non-negative ints, the
    numbers of deals proved winnable, proved unwinnable, and left unresolved by a
    limit. ``games`` is their sum; ``rate`` is ``winnable / games`` (``nan`` for no
    games). ``ci95`` is honest about unresolved deals: from the lower end of the
    Wilson 95% interval of ``winnable`` out of ``games`` to the upper end of that
    of ``winnable + unresolved`` (the plain Wilson interval when nothing is
    unresolved; ``(0.0, 1.0)`` for no games). Shards add up with ``+`` and
    ``sum(shards, Solvability.empty())``. ``ValueError`` for a negative count,
    ``TypeError`` for a count that is not an int (bools included).
    """

    __slots__ = ("games", "winnable", "unwinnable", "unresolved", "rate", "ci95", "_key")

    games: int
    winnable: int
    unwinnable: int
    unresolved: int
    rate: float
    ci95: tuple[float, float]

    def __init__(self, winnable: int = 0, unwinnable: int = 0, unresolved: int = 0) -> None:
        counts = (int_arg(winnable, "winnable"), int_arg(unwinnable, "unwinnable"),
                  int_arg(unresolved, "unresolved"))
        games = sum(counts)
        if games:
            rate = counts[0] / games
            ci95 = (_wilson(counts[0], games)[0], _wilson(counts[0] + counts[2], games)[1])
        else:
            rate, ci95 = math.nan, (0.0, 1.0)
        for name, value in (("games", games), ("winnable", counts[0]), ("unwinnable", counts[1]),
                            ("unresolved", counts[2]), ("rate", rate), ("ci95", ci95), ("_key", counts)):
            object.__setattr__(self, name, value)

    @staticmethod
    def _native_key(native: Any) -> object:
        """The _key of a native Solvability: its counts, whose hash is its hash."""
        return native.winnable, native.unwinnable, native.unresolved

    @classmethod
    def empty(cls) -> Solvability:
        """No games: the neutral element of ``+``."""
        return cls()

    def __add__(self, other: Solvability) -> Solvability:
        if isinstance(other, Solvability):
            return Solvability(self.winnable + other.winnable, self.unwinnable + other.unwinnable,
                               self.unresolved + other.unresolved)
        return NotImplemented

    def __radd__(self, other: object) -> Solvability:
        # sum() starts from the int 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __repr__(self) -> str:
        return (f"Solvability(winnable={self.winnable}, unwinnable={self.unwinnable}, "
                f"unresolved={self.unresolved})")

    def __str__(self) -> str:
        if not self.games:
            return "0 games"
        low, high = self.ci95
        return (f"{self.games} games: {self.winnable} winnable, {self.unwinnable} unwinnable, "
                f"{self.unresolved} unresolved; rate {self.rate:.5f} (95% CI {low:.5f} to {high:.5f})")

    def __reduce__(self) -> tuple[type[Solvability], tuple[int, int, int]]:
        return Solvability, (self.winnable, self.unwinnable, self.unresolved)


def _limits(node_limit: int | None, time_limit: float | None) -> tuple[int | None, float | None]:
    """The limits, checked: None, or a positive int of nodes; None, or a positive
    number of seconds (``math.inf``, or an int too large for a float, is no limit)."""
    if node_limit is not None:
        node_limit = int_arg(node_limit, "node_limit", 1)
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise TypeError(f"time_limit must be None or a positive number of seconds, "
                            f"got {type(time_limit).__name__}")
        if not time_limit > 0:
            raise ValueError(f"time_limit must be None or a positive number of seconds, got {time_limit!r}")
        try:
            time_limit = float(time_limit)
        except OverflowError:  # an int past the floats' range: more seconds than any run lasts
            time_limit = math.inf
    return node_limit, time_limit


def _key(game: Game) -> tuple[object, ...]:
    """What identifies a position for the search: the piles, how much stock is
    left and the reserve (R2.4). The discards are the cards found in none (their
    order never matters to the rules), and the rules are those of the game being
    solved."""
    return (*game.piles, len(game.stock), game.reserve)


def solve(game: Game, node_limit: int | None = None, time_limit: float | None = None) -> Solution:
    """Whether ``game`` can still be won from its current position, with a winning
    line if it can (docs/SOLVER.md).

    Depth-first over every legal move in R3 order, never entering a position twice.
    ``node_limit`` (None, or an int >= 1) bounds the positions expanded and
    ``time_limit`` (None, or seconds > 0) the time; when either stops the search,
    ``winnable`` is None. The game is not changed. ``TypeError`` for a game that
    is not a reference Game or a limit of the wrong type, ``ValueError`` for a
    limit that is not positive.
    """
    error = native_game_error(game, "solve()")
    if error is not None:
        raise error
    if not isinstance(game, Game):
        raise TypeError(f"solve() takes an acesup.reference.Game, got {type(game).__name__}")
    node_limit, time_limit = _limits(node_limit, time_limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    work = game.copy()
    seen = {_key(work)}
    nodes = 1
    line: list[Move] = []
    # stack[-1] holds the moves still to try from the position at the end of line.
    stack: list[Iterator[Move]] = [iter(work.legal_moves())]
    while not work.is_won:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if not stack:
                return Solution(False, (), nodes)
            work.undo()
            line.pop()
            continue
        work.play(move)
        key = _key(work)
        if key in seen:
            work.undo()
            continue
        if (node_limit is not None and nodes >= node_limit) or (deadline is not None and time.monotonic() > deadline):
            return Solution(None, (), nodes)
        seen.add(key)
        nodes += 1
        line.append(move)
        stack.append(iter(work.legal_moves()))
    return Solution(True, line, nodes)


def solvability(games: int, rules: Rules | None = None, seed: int = 0, *, threads: int | None = None,
                start: int = 0, node_limit: int | None = None, time_limit: float | None = None,
                progress: bool = False, callback: Callback | None = None) -> Solvability:
    """Solves games ``start`` to ``start + games - 1`` of master seed ``seed``, game i
    being ``Game.from_seed(game_seed(seed, i), rules)`` (RNG.md), each with its
    own ``node_limit`` and ``time_limit``, and counts the verdicts.

    ``threads`` (None for all cores, or an int >= 1) is checked and otherwise
    ignored: this engine runs on one thread. ``progress=True`` shows a tqdm bar
    of the games on stderr, and ``callback`` is called as ``callback(done,
    total)`` as games are solved (``acesup.progress``, as ``simulate``). ``ValueError``
    for a negative count, a seed outside [0, 2**64), a thread count below 1, a
    limit that is not positive or a last game index beyond 2**64 - 1;
    ``TypeError`` for an argument of the wrong type (bools are not ints, a
    ``progress`` that is not a bool, a ``callback`` that is not callable).
    """
    games = int_arg(games, "games")
    rules = rules_arg(rules, Rules)
    seed = int_arg(seed, "seed", 0, U64)
    if threads is not None:
        int_arg(threads, "threads", 1)
    start = int_arg(start, "start")
    if start + games > U64:
        raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
    node_limit, time_limit = _limits(node_limit, time_limit)
    report = reporter(games, progress, callback, "games")
    counts = {True: 0, False: 0, None: 0}
    with report or nullcontext():
        for k, index in enumerate(range(start, start + games)):
            game = Game.from_seed(game_seed(seed, index), rules)
            counts[solve(game, node_limit, time_limit).winnable] += 1
            if report is not None:
                report.update(k + 1)
        if report is not None:
            report.finish()
    return Solvability(counts[True], counts[False], counts[None])


def solve_deals(deals: str, numbers: Iterable[int], rules: Rules | None = None, *, threads: int | None = None,
                node_limit: int | None = None, time_limit: float | None = None, progress: bool = False,
                callback: Callback | None = None) -> Iterator[tuple[int, bool | None]]:
    """Solves the numbered deals ``numbers`` of kpat (``deals="kpat"``,
    ``Game.from_kpat``) or of PySolFC (``"pysol"``, ``Game.from_pysol``), each
    under ``rules`` (the program's preset, ``Rules.kpat()`` or ``Rules.pysol()``,
    by default) with its own ``node_limit`` and ``time_limit``, and yields
    (number, winnable) in the order of the numbers as each is solved.

    ``numbers`` is a range (of fewer than 2**64 deals: its first and last numbers
    are checked) or any other iterable of deal numbers (read at the call, each
    checked in its order, so that a second round can take the deals a first one
    left unresolved). The arguments are checked at the call, before anything is
    solved: ``ValueError`` for another program, a number outside the program's
    range, rules that do not deal a 52-card deck (the errors of ``from_kpat``,
    asked of the first deal), a range of 2**64 deals or more, a thread count below
    1 or a limit that is not positive; ``TypeError`` for ``numbers`` that is not
    iterable, a number that is not an int, or an argument of the wrong type.
    ``threads`` is checked and otherwise ignored: this engine runs on one thread.
    ``progress=True`` shows a tqdm bar of the deals on stderr, and ``callback``
    is called as ``callback(done, total)`` as deals are handed out
    (``acesup.progress``); an exception it raises ends the iterator and
    propagates from ``next()``.
    """
    if not isinstance(deals, str):
        raise TypeError(f"deals must be 'kpat' or 'pysol', got {type(deals).__name__}")
    deals = exact_str(deals)
    if deals not in ("kpat", "pysol"):
        raise ValueError(f"deals must be 'kpat' or 'pysol', got {deals!r}")
    rules = rules_arg(rules, Rules, Rules.kpat() if deals == "kpat" else Rules.pysol())
    if threads is not None:
        int_arg(threads, "threads", 1)
    node_limit, time_limit = _limits(node_limit, time_limit)
    deal, number_arg = (Game.from_kpat, kpat_arg) if deals == "kpat" else (Game.from_pysol, pysol_arg)
    if isinstance(numbers, range):
        run: Sequence[int] = numbers
        total = 0
        if numbers:
            deal(numbers[0], rules)  # checks the number, then the rules
            number_arg(numbers[-1])
            total = length(numbers)
            if total >= U64:  # as the native run counts them
                raise ValueError("numbers must hold fewer than 2**64 deals")
    else:
        try:
            items = iter(numbers)
        except TypeError:  # says what numbers is; any other error is its own
            raise TypeError(f"numbers must be a range or an iterable of deal numbers, "
                            f"got {type(numbers).__name__}") from None
        run = [number_arg(number) for number in items]
        total = len(run)
        if run:
            deal(run[0], rules)
    report = reporter(total, progress, callback, "deals")

    def verdicts() -> Iterator[tuple[int, bool | None]]:
        with report or nullcontext():
            for done, number in enumerate(run, 1):
                winnable = solve(deal(number, rules), node_limit, time_limit).winnable
                if report is not None:
                    if done < total:
                        report.update(done)
                    else:
                        report.finish()
                yield number, winnable

    return verdicts()
