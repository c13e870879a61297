"""``acesup play``: play a game in the terminal, by typing moves."""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import sys
import textwrap
from typing import Any

import acesup

from ..display import SUIT_SYMBOLS
from ..errors import MoveError, UndoError
from .common import NUMBERED_RULES, PROGRAMS, InputError, bad_arguments, colour, moves, numbered, numbered_game, \
    numbered_options, rules, rules_options, seed, tableau, terminal

HINT_NODES = 200_000  # how hard `hint` and `solve` in `acesup play` let the solver look for a win
HINT_SECONDS = 1.0
WIDTH = 80  # the columns that the header of `acesup play` fits in

PLAY_HELP = """\
Type a move in the notation of RULES.md R6.3 (piles are numbered 0 to {last}, left to right):
  d2       discard the top card of pile 2 (a higher card of its suit is on top of another pile)
  f2>0     fill the empty pile 0 with the top card of pile 2
  f2:1>0   fill pile 0 with the card at index 1 of pile 2, counted from the top (fill=any),
           or with it and the card above it (fill=stack)
  2>r      put the top card of pile 2 in the reserve (reserve=1, Firing Squad)
  r>0      move the reserve's card to the empty pile 0 (reserve=1)
  deal     deal from the stock
or a command:
  moves    list the legal moves        undo   take back the last move
  hint     suggest a move              solve  tell whether this position can still be won
  help     show this                   quit   stop playing (Ctrl-D too)"""


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``play`` command and its options, in the subparsers ``commands``."""
    play = commands.add_parser(
        "play", parents=[rules_options(NUMBERED_RULES)], formatter_class=formatter,
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
    deal.add_argument("--seed", type=seed, metavar="K", help="the deal Game.from_seed(K) (default: a random one)")
    numbered_options(deal)
    play.set_defaults(run=run, parser=play)


_CARD_TEXT = re.compile(r"\b([2-9TJQKA])([cdhs])\b")  # a card in the notation of RULES.md R6.1


def _as_on_the_board(message: str) -> str:
    """``message`` (an engine's) with its cards written as the tableau shows them,
    ``Q\u2660`` for ``Qs`` (RULES.md R6.6)."""
    return _CARD_TEXT.sub(lambda card: card[1] + SUIT_SYMBOLS[card[2]], message)


def _search(game: Any) -> Any:
    """The solver's verdict on ``game`` within the small limits of play."""
    return acesup.solve(game, node_limit=HINT_NODES, time_limit=HINT_SECONDS)


def _hint(game: Any) -> Any:
    """A suggested move: the first move of the solver's winning line when it finds
    one within its small limit, else the "greedy" strategy's move (under rules with
    a reserve, which greedy does not play, the first legal move). Which of the two
    it is goes unsaid, so that a hint does not give away whether the deal can
    still be won; the player asks for that with ``solve``."""
    solution = _search(game)
    if solution.winnable and solution.moves:
        return solution.moves[0]
    if game.rules.reserve:
        return game.legal_moves()[0]
    return acesup.strategy("greedy")(game)


def _verdict(game: Any) -> str:
    """What the solver says of ``game``, in words (the ``solve`` command of play)."""
    solution = _search(game)
    if solution.winnable:
        return f"this position can be won: the solver found a win in {moves(len(solution.moves))}"
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


def _read_line(at_terminal: bool) -> str | None:
    """The next line typed, or None at the end of the input (Ctrl-D, a closed
    stdin). On a terminal Ctrl-D and Ctrl-C first end the prompt's line, so that
    what follows starts on a fresh one."""
    if sys.stdin is None:
        return None
    try:
        return input("move> ")
    except EOFError:
        if at_terminal:
            print()
        return None
    except UnicodeError as err:  # what errors="replace" cannot mend: a UTF-16 or UTF-32 input without a BOM
        raise InputError(f"cannot read the input as {sys.stdin.encoding}: {err}") from None
    except KeyboardInterrupt:
        if at_terminal:
            print()
        raise


def run(args: argparse.Namespace) -> int:
    """Plays the game with the moves read from standard input."""
    program = numbered(args)
    deal_seed = args.seed if args.seed is not None else random.randrange(2**64)
    with bad_arguments(args.parser):
        if program is None:
            game = acesup.Game.from_seed(deal_seed, rules(acesup, args))
        else:
            game = numbered_game(program, getattr(args, program), args)
    at_terminal = terminal(sys.stdin) and terminal(sys.stdout)
    coloured, echo, win = colour(sys.stdout), not terminal(sys.stdin), game.rules.win_score()
    if at_terminal:
        _line_editing()
    if program is None:
        print(f"Aces Up, seed {deal_seed} (--seed {deal_seed} deals it again)")
    else:
        number = getattr(args, program)
        print(f"Aces Up, {PROGRAMS[program][2]} {number} (--{program} {number} deals it again)")
    print(textwrap.fill(f"rules {game.rules}".replace(",", ", "), WIDTH, subsequent_indent="  "))
    kept = "aces" if game.rules.ace_high else "kings"
    print(f"Discard every card but the {kept}. Type a move (d2, f2>0, deal), or help.")
    print()
    print(tableau(game, coloured))
    while not game.is_over:
        line = _read_line(at_terminal)
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
            print(tableau(game, coloured))
        else:
            try:
                game.play(word)
            except MoveError as err:  # malformed (MoveError) or against the rules (IllegalMoveError)
                print(_as_on_the_board(str(err)))
                continue
            print(tableau(game, coloured))
    if game.is_won:
        print(f"You won: all {win} cards discarded in {moves(len(game.history))}.")
    else:
        print(f"Game over: no move left, {game.score} of {win} cards discarded.")
    return 0
