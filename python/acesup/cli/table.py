"""``acesup table``: the Markdown tables of win rates by rules and strategy."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from tqdm import tqdm

import acesup

from ..arguments import games_count, int_at_least
from .common import MAX_THREADS, PROGRESS_DELAY, bad_arguments, seconds, seed, strategies_failing, terminal, \
    threads, user_strategy

# The rows of the default table, each under both deal timings: the four games of the standard layout (R5).
TABLE_PRESETS = ("standard", "strict", "easy", "reverse")
# Its columns by default: the strategies that play any deal without knowing the stock, at a cost a table affords.
TABLE_STRATEGIES = ("random", "noop", "simple", "greedy", "lookahead", "montecarlo")
CHEAP_SECONDS = 10e-6  # a strategy cheaper than this a game plays --cheap-games in `table --players`
CHEAP_GAMES = 1_000_000  # --cheap-games by default
# `table`'s options of one kind of table, each with the option that asks for that kind.
TABLE_KIND_OPTIONS = {"layout": "small", "rules": "players", "cheap_games": "players", "bound_games": "players"}
BOUND_GAMES = 2_000  # --bound-games by default: the stock orders of the upper bound's row in `table --players`
# The rows of `table --small`: the layouts in reach of the exact optimum, 4 suits (fewer are always won).
SMALL_LAYOUTS = ("suits=4,ranks=2", "suits=4,ranks=3", "strict,suits=4,ranks=3", "easy,suits=4,ranks=3",
                 "reverse,suits=4,ranks=3", "suits=4,ranks=3,deal=stuck", "suits=4,ranks=3,deal=any",
                 "suits=4,ranks=3,deal_to=empty", "suits=4,ranks=3,piles=5")


def add_parser(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The ``table`` command and its options, in the subparsers ``commands``."""
    table = commands.add_parser(
        "table", formatter_class=formatter,
        help="print the Markdown table of win rates by rules and strategy",
        description=f"Plays the same deals under the rules presets {', '.join(TABLE_PRESETS)} and each deal "
                    "timing with each strategy (compare) and the clairvoyant solver (solvability), and prints "
                    "the win rates with 95% intervals as a Markdown table on standard output.",
        epilog="""examples:
  acesup table > results.md
  acesup table --games 100000 --seed 1
  acesup table --games 1000 --strategy greedy --strategy lookahead --node-limit 1e5
  acesup table --small --games 100000
  acesup table --players --games 20000 --cheap-games 1e6""")
    table.add_argument("--games", type=games_count(), default=10_000, metavar="N",
                       help="deals per rules (default 10000; at most 2**64)")
    table.add_argument("--seed", type=seed, default=0, metavar="K", help="master seed (default 0)")
    table.add_argument("--strategy", action="append", metavar="S",
                       help=f"a strategy column, repeatable (default: {', '.join(TABLE_STRATEGIES)}): a built-in "
                            "or your own as module:function or path/to/file.py:function")
    table.add_argument("--threads", type=threads, metavar="T",
                       help=f"threads, at most {MAX_THREADS} (default: all cores)")
    table.add_argument("--node-limit", type=int_at_least(1), default=1_000_000, metavar="N",
                       help="positions the solver may search per deal (default 1e6)")
    table.add_argument("--time-limit", type=seconds, metavar="S",
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
                            "clairvoyant share and the certified upper bound; --games paired deals (use 20000), "
                            "--cheap-games for the cheap ones, --bound-games for the bound")
    table.add_argument("--rules", metavar="RULES", help="with --players: the rules text (default standard)")
    table.add_argument("--cheap-games", type=games_count(), metavar="N",
                       help=f"with --players: games of a strategy under {CHEAP_SECONDS * 1e6:g} us a game, "
                            f"when more than --games (default 1e6)")
    table.add_argument("--bound-games", type=int_at_least(0), metavar="N",
                       help=f"with --players: the stock orders of the certified upper bound's row "
                            f"(acesup.upper_bound, W 'strong'; default {BOUND_GAMES}, 0 leaves the row out)")
    table.set_defaults(run=run, parser=table)


def _percent(rate: float, bounds: tuple[float, float]) -> str:
    return f"{100 * rate:.2f} ({100 * bounds[0]:.2f}\u2013{100 * bounds[1]:.2f})"


def registry_strategies(*layouts: Any) -> list[str]:
    """Every built-in strategy of the registry that plays each of the rules
    ``layouts`` (some refuse a layout: "optimal" one out of its reach), in registry
    order."""
    names = []
    for name in acesup.builtin_names():
        try:
            for rules in layouts:
                acesup.simulate(0, name, rules)
        except acesup.StrategyError:
            continue
        names.append(name)
    return names


def _small_table(args: argparse.Namespace, given: dict[str, Any]) -> int:
    """The small-layout table: the exact optimum beside the clairvoyant share and
    every strategy's win rate, one row per layout; the strategies ``given`` by
    ``--strategy`` (text to strategy) or the registry's."""
    from ..reference.optimal import MAX_DECK  # the optimum's reach, the same in both engines
    layouts = args.layout or list(SMALL_LAYOUTS)
    with bad_arguments(args.parser):
        rules_of = {text: acesup.Rules.parse(text) for text in layouts}
        for text, rules in rules_of.items():
            if rules.deck_size() > MAX_DECK:
                raise ValueError(f"layout {text!r} has {rules.deck_size()} cards: the exact optimum is computed "
                                 f"for decks of at most {MAX_DECK} cards")
        strategies = given or {name: name for name in registry_strategies(*rules_of.values())}
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


def _cost_per_game(strategy: Any, rules: Any, seed: int) -> float:
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


def _players_table(args: argparse.Namespace, given: dict[str, Any]) -> int:
    """The full-deck table of the players: every registry strategy that plays the
    rules (or those ``given`` by ``--strategy``, text to strategy), its win rate,
    its paired difference against lookahead on the same deals, its cost per game,
    and the clairvoyant share as the upper bound."""
    with bad_arguments(args.parser):
        rules = acesup.Rules.parse("standard" if args.rules is None else args.rules)
        strategies = dict(given or {name: name for name in registry_strategies(rules)})
        strategies.setdefault("lookahead", "lookahead")
        acesup.compare(strategies, 0, rules, args.seed, threads=args.threads)  # checks them all
    costs = {name: _cost_per_game(strategy, rules, args.seed) for name, strategy in strategies.items()}
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
            stats = acesup.simulate(cheap_games, strategies[name], rules, args.seed, threads=args.threads)
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
    lines += _bound_row(args, rules)
    print("\n".join(lines))
    return 0


def _bound_row(args: argparse.Namespace, rules: Any) -> list[str]:
    """The row of the certified upper bound on a player who never sees the stock
    (docs/BOUND.md), W ``"strong"``, over the first ``--bound-games`` games; none
    when that is 0 or the rules have ``relocate_single``, which the bound refuses."""
    games = BOUND_GAMES if args.bound_games is None else args.bound_games
    if rules.relocate_single:
        return []
    if not games:
        return []
    bound = acesup.upper_bound(games, rules=rules, seed=args.seed, value="strong", threads=args.threads)
    return [f"| upper bound without seeing the stock (penalties, W strong, BOUND.md) | {bound.games:,} | "
            f"{_percent(bound.mean, bound.ci95)} | | {bound.seconds / bound.games * 1e6:,.1f} us (wall) |"]


def run(args: argparse.Namespace) -> int:
    """Prints the table that the options ask for. ``--strategy`` takes the user's
    own strategies too (``module:function``, ``file.py:function``), which end the
    command with a one-line error when they fail."""
    for name, kind in TABLE_KIND_OPTIONS.items():
        if getattr(args, name) is not None and not getattr(args, kind):
            args.parser.error(f"argument --{name.replace('_', '-')}: only with --{kind}")
    with bad_arguments(args.parser):
        given = {text: user_strategy(text) for text in args.strategy or ()}
    with strategies_failing(args.parser, given):
        if args.small:
            return _small_table(args, given)
        if args.players:
            return _players_table(args, given)
        return _rules_table(args, given)


def _rules_table(args: argparse.Namespace, given: dict[str, Any]) -> int:
    """The table of the rules presets: each strategy's win rate (those ``given`` by
    ``--strategy``, text to strategy, or the table's) and the clairvoyant share."""
    strategies = given or {name: name for name in TABLE_STRATEGIES}
    with bad_arguments(args.parser):
        acesup.compare(strategies, 0, None, args.seed, threads=args.threads)  # checks them all
        acesup.solvability(0, None, args.seed, threads=args.threads, node_limit=args.node_limit,
                           time_limit=args.time_limit)
    rows = [(preset, deal) for preset in TABLE_PRESETS for deal in ("free", "stuck")]
    lines = [
        f"Win rates in % with 95% Wilson intervals, over games 0 to {args.games - 1:,} of seed {args.seed}: "
        f"every strategy and the solver play the same {args.games:,} deals under each rules.",
        "*solvable*: the clairvoyant solver, which knows the order of the stock; its interval counts the "
        f"deals left unresolved by its limit ({_limits_text(args)}) as possibly either.",
        "",
        "| rules | deal | " + " | ".join(strategies) + " | solvable | unresolved |",
        "| --- | --- | " + " | ".join("---:" for _ in strategies) + " | ---: | ---: |",
    ]
    with tqdm(total=len(rows), disable=not terminal(sys.stdout), delay=PROGRESS_DELAY, unit="rules",
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


def _limits_text(args: argparse.Namespace) -> str:
    """The solver's limits a deal, in words."""
    limits = []
    if args.node_limit is not None:
        limits.append(f"{args.node_limit:,} positions")
    if args.time_limit is not None:
        limits.append(f"{args.time_limit:g} s")
    return " or ".join(limits) + " a deal" if limits else "none"
