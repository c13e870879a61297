"""``acesup solve``: find a winning line for a deal, or prove there is none."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import acesup

from ..arguments import int_at_least
from .common import NUMBERED_RULES, bad_arguments, colour, moves, numbered, numbered_game, numbered_options, rules, rules_given, \
    rules_options, seconds, seed, tableau


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``solve`` command and its options, in the subparsers ``commands``."""
    solve = commands.add_parser(
        "solve", parents=[rules_options(NUMBERED_RULES)], formatter_class=formatter,
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
  acesup solve --pysol 98765 --rules standard               PySolFC's game 98765, under other rules
  acesup solve --pysol 1 --rules pysol_fortunes             PySolFC's Fortunes, game 1""")
    deal = solve.add_mutually_exclusive_group(required=True)
    deal.add_argument("--seed", type=seed, metavar="K", help="the deal Game.from_seed(K)")
    deal.add_argument("--deck", metavar="CARDS", help="the 52 cards in deal order (RULES.md R6.2)")
    deal.add_argument("--position", metavar="STR", help="a position in the one-line text of RULES.md R6.5, "
                                                        "which includes its rules")
    numbered_options(deal)
    solve.add_argument("--node-limit", type=int_at_least(1), metavar="N",
                       help="stop after searching N positions (default: no limit)")
    solve.add_argument("--time-limit", type=seconds, default=60.0, metavar="S",
                       help="stop after S seconds (default 60)")
    solve.set_defaults(run=run, parser=solve)


def _game(args: argparse.Namespace) -> Any:
    """The native Game named by --seed, --deck, --position, --kpat or --pysol, under
    the rules options."""
    program = numbered(args)
    if program is not None:
        return numbered_game(program, getattr(args, program), args)
    if args.position is not None:
        if rules_given(args):
            raise ValueError("a --position carries its own rules: leave out --rules, --fill, --deal, "
                             "--relocate-single and --ace-low")
        return acesup.Game.from_str(args.position)
    chosen = rules(acesup, args)
    if args.deck is not None:
        return acesup.Game.from_deck(args.deck, chosen)
    return acesup.Game.from_seed(args.seed, chosen)


def run(args: argparse.Namespace) -> int:
    """Solves the deal and prints the verdict, and a winning line move by move."""
    with bad_arguments(args.parser):
        game = _game(args)
    coloured = colour(sys.stdout)
    solution = acesup.solve(game, node_limit=args.node_limit, time_limit=args.time_limit)
    print(f"position  {game.to_str()}")
    searched = f"{solution.nodes:,} position{'s' * (solution.nodes != 1)} searched"
    if solution.winnable:
        print(f"winnable: a winning line of {moves(len(solution.moves))} ({searched})")
    elif solution.winnable is False:
        print(f"lost: no sequence of moves wins this deal (proved exhaustively, {searched})")
    else:
        print(f"unresolved: the search stopped at its limit ({searched}); raise --node-limit or --time-limit")
    print()
    print(tableau(game, coloured))
    for number, move in enumerate(solution.moves, 1):
        game.play(move)
        print()
        print(f"{number}. {move}")
        print(tableau(game, coloured))
    return 0
