"""The built-in strategies of docs/STRATEGIES.md.

The deterministic ones (noop, simple, greedy, lookahead) are written out here a
second time, straight from the document, as callables; each engine's built-in
must give the same statistics as the callable on the same games. montecarlo is
checked for its parameters, its determinism and (in test_crosscheck.py) for
agreement between the engines.
"""

from __future__ import annotations

import pytest

import acesup.errors as errors
from helpers import RULE_OPTIONS, rules_text


# --- the strategies, from the document -------------------------------------------------


def forced_discard(moves):
    return moves[0] if moves and moves[0].kind == "discard" else None


def real_fills(game, moves=None):
    moves = game.legal_moves() if moves is None else moves
    return [m for m in moves if m.kind == "fill" and len(game.piles[m.src]) >= 2]


def fallback(game, moves):
    """"The first legal move in R3 order" for a built-in, which never plays a
    lone-card relocation (there is always another move then: the deal)."""
    return next(m for m in moves if not (m.kind == "fill" and len(game.piles[m.src]) == 1))


def play_forced_discards(game):
    count = 0
    while True:
        move = forced_discard(game.legal_moves())
        if move is None:
            return count
        game.play(move)
        count += 1


def doc_noop(game):
    moves = game.legal_moves()
    if forced_discard(moves):
        return moves[0]
    if moves[-1].kind == "deal":
        return moves[-1]
    return fallback(game, moves)


def doc_simple(game):
    moves = game.legal_moves()
    if forced_discard(moves):
        return moves[0]
    candidates = [m for m in real_fills(game, moves) if m.index == 0]
    if candidates:
        return min(candidates, key=lambda m: (m.dst, m.src))
    if moves[-1].kind == "deal":
        return moves[-1]
    return fallback(game, moves)


def doc_greedy(game):
    moves = game.legal_moves()
    if forced_discard(moves):
        return moves[0]
    fills = real_fills(game, moves)
    # 1. Fill for a discard.
    best, best_count = None, 0
    for fill in fills:
        trial = game.copy()
        trial.play(fill)
        count = play_forced_discards(trial)
        if count > best_count:
            best, best_count = fill, count
    if best is not None:
        return best
    # 2. Park a top-rank card.
    top = "A" if game.rules.ace_high else "K"
    for fill in fills:
        if str(game.piles[fill.src][-1 - fill.index])[0] == top:
            return fill
    # 3. Unbury, but keep a pile free.
    empty = [p for p in range(4) if not game.piles[p]]
    if len(empty) >= 2:
        options = [f for f in fills if f.index == 0 and f.dst == empty[0]]
        if options:
            return min(options, key=lambda f: (-len(game.piles[f.src]), f.src))
    # 4. Deal.
    if moves[-1].kind == "deal":
        return moves[-1]
    return fallback(game, moves)


def lookahead_lines(game):
    """Every line from ``game`` (no discard legal) in tie order (pre-order, R3 order),
    as (line, end position) for the lines that may end where they do."""
    out = []

    def visit(position, line):
        moves = position.legal_moves()
        fills = real_fills(position, moves)
        deal_legal = bool(moves) and moves[-1].kind == "deal"
        if deal_legal or not fills:
            out.append((line, position))
        for fill in fills:
            nxt = position.copy()
            nxt.play(fill)
            play_forced_discards(nxt)
            visit(nxt, line + [fill])

    visit(game.copy(), [])
    return out


def doc_lookahead(game):
    moves = game.legal_moves()
    if forced_discard(moves):
        return moves[0]
    best_line, best_value = None, None
    for line, end in lookahead_lines(game):
        value = (len(end.discards), sum(1 for p in end.piles if not p))
        if best_value is None or value > best_value:
            best_line, best_value = line, value
    if best_line:
        return best_line[0]
    if moves[-1].kind == "deal":
        return moves[-1]
    return fallback(game, moves)


DOC_STRATEGIES = {"noop": doc_noop, "simple": doc_simple, "greedy": doc_greedy, "lookahead": doc_lookahead}
SOME_RULES = [RULE_OPTIONS[i] for i in (0, 2, 4, 9, 16, 19, 22)]


@pytest.mark.parametrize("options", SOME_RULES, ids=lambda o: rules_text(**o))
@pytest.mark.parametrize("name", list(DOC_STRATEGIES))
def test_builtin_is_the_document(engine, name, options):
    rules = engine.Rules(**options)
    games = 6 if name == "lookahead" else 15
    builtin = engine.simulate(games, strategy=name, rules=rules, seed=606)
    written_out = engine.simulate(games, strategy=DOC_STRATEGIES[name], rules=rules, seed=606)
    assert builtin.histogram == written_out.histogram


@pytest.mark.parametrize("name", ["random", "noop", "simple", "greedy", "lookahead"])
def test_builtins_play_whole_games(engine, name):
    stats = engine.simulate(5, strategy=name, seed=1)
    assert stats.games == 5
    assert stats == engine.simulate(5, strategy=name, seed=1)


def test_montecarlo_runs_and_is_reproducible(engine):
    text = "montecarlo:playouts=2,policy=simple"
    a = engine.simulate(2, strategy=text, seed=5)
    assert a.games == 2
    assert a == engine.simulate(2, strategy=text, seed=5)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("montecarlo:playouts=0", "playouts"),
        ("montecarlo:playouts=-3", "playouts"),
        ("montecarlo:playouts=many", "many"),
        ("montecarlo:policy=random", "random"),
        ("montecarlo:policy=montecarlo", "montecarlo"),
        ("montecarlo:depth=3", "depth"),
        ("random:playouts=3", "playouts"),
        ("greedy:x=1", "x"),
        ("montecarlo:playouts", "playouts"),
        ("clever", "clever"),
        ("", ""),
    ],
)
def test_bad_strategy_text(engine, text, fragment):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, strategy=text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("value", [3, None, 1.5])
def test_strategy_of_a_wrong_type(engine, value):
    with pytest.raises((TypeError, errors.StrategyError)):
        engine.simulate(1, strategy=value)
