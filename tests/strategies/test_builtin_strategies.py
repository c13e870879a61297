"""The built-in strategies of docs/STRATEGIES.md, in both engines.

The deterministic ones (noop, simple, greedy, lookahead) are written out here a
second time, straight from the document, as callables; each engine's built-in
must give the same statistics as the callable on the same games.

``engine.strategy(text)`` asks a built-in for its move in a position without
playing it, so each rule of the document is also checked decision by decision on
positions built by hand (tie-breaks included), lookahead against a brute-force
search of its lines, and montecarlo and hindsight for their parameters, their
determinism and for never reading the order of the stock. The last tests check
that the two engines play every built-in identically, game by game (and
test_crosscheck.py that they agree on montecarlo).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import acesup.errors as errors
from helpers import RULE_OPTIONS, U64, Path, load_engine, position, rule_options, rules_text, seeds, walk


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


DETERMINISTIC = ["noop", "simple", "greedy", "lookahead"]


def stream_moved(engine, game, text, seed=0):
    """Whether ``game``'s strategy stream has left where ``Game.from_str(text, seed)`` starts it."""
    return game.randbelow(U64 - 1) != engine.Game.from_str(text, seed).randbelow(U64 - 1)


def decide(engine, name, text, seed=0):
    """The move (as text) of built-in ``name`` in position ``text``, and whether it drew."""
    game = engine.Game.from_str(text, seed)
    move = engine.strategy(name)(game)
    assert game.to_str() == text, "a strategy must not change the game"
    return str(move), stream_moved(engine, game, text, seed)


# --- decisions on positions built by hand -----------------------------------------------

STANDARD = rules_text()
STUCK_RELOCATE = rules_text(deal="stuck", relocate_single=True)

# (id, position, {strategy: the move STRATEGIES.md prescribes})
CASES = [
    # Two discards are legal: every built-in plays the first one (R3 order) and draws nothing.
    ("forced-discard",
     position([["4d", "7s"], ["Js"], ["2h", "5h"], ["9h"]]),
     {name: "d0" for name in ["random", *DETERMINISTIC, "montecarlo:playouts=3", "hindsight:samples=3"]}),
    # f0>1 discards nothing, f2>1 one card, f3>1 two at once. greedy takes the most now
    # (f3>1). lookahead sees that f2>1 then f3>2 also ends with two more discards and
    # one empty pile, like f3>1, and that line comes first in R3 order.
    ("tie-order",
     position([["4h", "9c"], [], ["2c", "7d"], ["Kd", "3s"]]),
     {"noop": "deal", "simple": "f0>1", "greedy": "f3>1", "lookahead": "f2>1"}),
    # Only Kc's moves discard (Tc): f3>0 keeps two empty piles, f2>0 then f3>1 discards as much
    # but keeps one, so lookahead's second criterion decides; greedy: the first of f3>0, f3>1.
    ("empty-piles-break-ties",
     position([[], [], ["6h", "Ks"], ["Tc", "Kc"]]),
     {"noop": "deal", "simple": "f2>0", "greedy": "f3>0", "lookahead": "f3>0"}),
    # No fill discards anything: greedy parks the ace (rule 2, not the first fill),
    # lookahead keeps its empty pile and deals.
    ("park-top-rank",
     position([["4d", "9c"], [], ["5d", "As"], ["8d", "Qh"]]),
     {"noop": "deal", "simple": "f0>1", "greedy": "f2>1", "lookahead": "deal"}),
    # The same under ace_high=False: the ace is no longer the top rank, so greedy deals.
    ("park-top-rank-reverse",
     position([["4d", "9c"], [], ["5d", "As"], ["8d", "Qh"]], rules=rules_text(ace_high=False)),
     {"greedy": "deal"}),
    # fill=any: greedy parks a buried ace (index 1); simple moves top cards only.
    ("park-buried-ace",
     position([["Ts", "9c"], [], ["As", "5d"], ["8s", "Qh"]], rules=rules_text(fill="any")),
     {"noop": "deal", "simple": "f0>1", "greedy": "f2:1>1"}),
    # Two empty piles, nothing to discard or park: greedy unburies the tallest pile into
    # the leftmost empty one...
    ("unbury-tallest",
     position([["4d", "9c"], [], [], ["2h", "8d", "Qs"]]),
     {"noop": "deal", "simple": "f0>1", "greedy": "f3>1"}),
    # ... the leftmost of the tallest on a tie.
    ("unbury-tie",
     position([["4d", "9c"], [], [], ["8h", "Qs"]]),
     {"greedy": "f0>1"}),
    # deal="stuck" holds the deal back while f2>1 is legal; the lone cards of piles 0 and 3
    # may move too (relocate_single), but no built-in but random takes them (the last resort
    # is the first *real* fill), so none can shuttle a lone card forever. lookahead's only
    # line is [f2>1], so montecarlo has one candidate and draws nothing.
    ("last-resort-stuck",
     position([["5c"], [], ["2d", "9h"], ["Js"]], rules=STUCK_RELOCATE),
     {name: "f2>1" for name in [*DETERMINISTIC, "montecarlo:playouts=3", "hindsight:samples=3"]}),
    # An empty stock: no deal, so noop fills (the first real fill).
    ("last-resort-empty-stock",
     position([["Ac", "9c"], [], ["Ad", "7s"], ["As", "Ah"]], stock=[]),
     {"noop": "f0>1", "simple": "f0>1"}),
    # No empty pile: the deal is the only move, and montecarlo's only candidate.
    ("deal-only",
     position([["4d", "9c"], ["Jd"], ["5d", "As"], ["8d", "Qh"]]),
     {name: "deal" for name in [*DETERMINISTIC, "montecarlo", "hindsight"]}),
]


@pytest.mark.parametrize("text, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_decision_on_a_hand_made_position(engine, text, expected):
    for name, move in expected.items():
        chosen, drew = decide(engine, name, text, seed=12)
        assert chosen == move, name
        assert not drew, f"{name} drew from the stream"


def test_strategy_callable(engine):
    greedy = engine.strategy("greedy")
    assert repr(greedy) == "strategy('greedy')" and greedy.text == "greedy"
    game = engine.Game.from_seed(3)
    while not game.is_over:
        game.play(greedy(game))
    assert greedy(game) is None  # over
    with pytest.raises(errors.StrategyError):
        engine.strategy("greedy:x=1")
    with pytest.raises(TypeError):
        engine.strategy(3)
    with pytest.raises(TypeError):
        greedy("not a game")
    # Passed to simulate it is a strategy like any callable, and plays as its name does.
    assert engine.simulate(5, greedy, seed=2) == engine.simulate(5, "greedy", seed=2)


@pytest.mark.parametrize("name", ["montecarlo:playouts=2", "hindsight:samples=2", "hindsight:samples=2,stock=1"])
def test_sampling_builtins_draw_when_they_have_a_choice(engine, name):
    text = CASES[1][1]
    chosen, drew = decide(engine, name, text, seed=5)
    assert drew
    assert (chosen, drew) == decide(engine, name, text, seed=5)


# Four cards left (Ks 2d Ah Jh, in some order). Moving Ac to the empty pile first wins on
# both guesses, by the solver: hindsight plays it. With the stock longer than its `stock`
# it solves nothing and the noop play-outs decide, as montecarlo's do: they favour the deal,
# by more than 4 points and less than 8 a guess, so that `win` (the worth of a won guess in
# points of score) decides from 8 up.
HINDSIGHT_CASE = ("-/Ad3dAsKd5h/Js/KhAc Ks2dAhJh Ts3h2h6h6c9s5s3s8dQh3cTd6d5c5d2cQd4d7h7d4cQc9d4sQs4h6s2s8hTcJd9h8cJcTh"
                  "7cKc7s8s9c fill=top,deal=free,relocate_single=false,ace_high=true")


def test_hindsight_plays_what_the_solver_wins(engine):
    solved = decide(engine, "hindsight:samples=2", HINDSIGHT_CASE)
    blind = decide(engine, "hindsight:samples=2,stock=3", HINDSIGHT_CASE)
    assert (solved, blind) == (("f3>0", True), ("deal", True))
    assert blind == decide(engine, "montecarlo:playouts=2", HINDSIGHT_CASE)
    assert decide(engine, "hindsight:samples=2,win=4", HINDSIGHT_CASE) == blind
    assert decide(engine, "hindsight:samples=2,win=8", HINDSIGHT_CASE) == solved
    assert decide(engine, "hindsight:samples=2,win=274877906944", HINDSIGHT_CASE) == solved


@pytest.mark.parametrize("text", ["hindsight:samples=0", "hindsight:nodes=18446744073709551616",
                                  "hindsight:stock=-1", "hindsight:stock=", "hindsight:playouts=3",
                                  "hindsight:samples=4294967296", "hindsight:win=0",
                                  "hindsight:win=274877906945"])
def test_hindsight_bad_parameters(engine, text):
    with pytest.raises(errors.StrategyError, match=text.split(":")[1].split("=")[0]):
        engine.strategy(text)


@pytest.mark.parametrize("text", ["montecarlo:playouts=4294967296", "montecarlo:playouts=+3",
                                  "montecarlo:playouts=3.0", "montecarlo:policy=", "montecarlo:x=1,x=2"])
def test_montecarlo_bad_parameters(engine, text):
    with pytest.raises(errors.StrategyError):
        engine.strategy(text)


def test_montecarlo_parameters_are_read_like_names(engine):
    a = engine.simulate(2, " MonteCarlo : playouts = 2 , policy = Simple ", seed=4)
    assert a == engine.simulate(2, "montecarlo:playouts=2,policy=simple", seed=4)


def test_playouts_may_have_leading_zeros(engine):
    padded = engine.strategy("montecarlo:playouts=00000000001")
    assert engine.simulate(2, padded) == engine.simulate(2, "montecarlo:playouts=1")
    with pytest.raises(errors.StrategyError, match="expected an int from 1 to 4294967295"):
        engine.strategy("montecarlo:playouts=0004294967296")


# --- lookahead is the best line, found by brute force ---------------------------------------


def deal_is_legal(game):
    moves = game.legal_moves()
    return bool(moves) and moves[-1].kind == "deal"


class TooBig(Exception):
    pass


def brute_force_lookahead(game, budget=3000):
    """lookahead's move by STRATEGIES.md to the letter: every line, tried in tie order,
    with no position skipped; ``TooBig`` past ``budget`` lines."""
    best = None  # (value, line)
    count = 0

    def visit(position, line):
        nonlocal best, count
        count += 1
        if count > budget:
            raise TooBig
        fills = real_fills(position)
        if not fills or deal_is_legal(position):
            value = (position.score, sum(1 for pile in position.piles if not pile))
            if best is None or value > best[0]:
                best = (value, line)
        for fill in fills:
            after = position.copy()
            after.play(fill)
            play_forced_discards(after)
            visit(after, line + [fill])

    visit(game.copy(), [])
    line = best[1]
    if line:
        return line[0]
    return game.legal_moves()[-1] if deal_is_legal(game) else real_fills(game)[0]


# Random walks that stop midway: most of a game's decisions come before its end.
midway = st.builds(Path, st.just([]), st.integers(0, 2**32 - 1), st.integers(0, 45))


def some_position(engine, seed, options, path):
    """A position with a choice to make (no discard legal, a real fill legal) of a
    game of ``seed``: the first one after the moves of ``path``, dealing until there
    is one; None if the game ends first."""
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        pass
    while True:
        play_forced_discards(game)
        if game.is_over:
            return None
        if real_fills(game):
            return game
        game.play(engine.Move.deal())


@given(seed=seeds, options=rule_options, path=midway)
def test_lookahead_is_the_best_line(engine, seed, options, path):
    game = some_position(engine, seed, options, path)
    if game is None:
        return
    try:
        expected = brute_force_lookahead(game)
    except TooBig:
        return
    assert str(engine.strategy("lookahead")(game)) == str(expected), game.to_str()


# --- montecarlo never reads the stock order ------------------------------------------------


@settings(max_examples=100)  # the reference plays ~2 games per candidate per example
@given(seed=seeds, options=rule_options, path=midway, order=st.integers(0, 2**32 - 1), stream=seeds,
       policy=st.sampled_from(DETERMINISTIC))
def test_montecarlo_never_reads_the_stock_order(engine, seed, options, path, order, stream, policy):
    assert_never_reads_the_stock_order(engine, f"montecarlo:playouts=2,policy={policy}", seed, options, path,
                                       order, stream)


def assert_never_reads_the_stock_order(engine, name, seed, options, path, order, stream):
    """Built-in ``name`` makes the same choice, with the same draws, in a position
    reached from ``seed`` and in the same position with its stock shuffled."""
    game = some_position(engine, seed, options, path)
    if game is None:
        return
    piles, stock, discards, rules = game.to_str().split(" ")
    cards = [stock[i:i + 2] for i in range(0, len(stock), 2)] if stock != "-" else []
    random.Random(order).shuffle(cards)
    other = f"{piles} {''.join(cards) or '-'} {discards} {rules}"
    a, b = engine.Game.from_str(game.to_str(), stream), engine.Game.from_str(other, stream)
    strategy = engine.strategy(name)
    assert str(strategy(a)) == str(strategy(b)), (game.to_str(), other)
    assert a.randbelow(U64 - 1) == b.randbelow(U64 - 1)  # the same draws


@pytest.mark.parametrize("win", ["16", "274877906944"])
@settings(max_examples=20)  # the reference solves 2 guesses per candidate per example
@given(seed=seeds, options=rule_options, path=midway, order=st.integers(0, 2**32 - 1), stream=seeds)
def test_hindsight_never_reads_the_stock_order(engine, win, seed, options, path, order, stream):
    assert_never_reads_the_stock_order(engine, f"hindsight:samples=2,nodes=100,stock=52,win={win}", seed,
                                       options, path, order, stream)


# --- both engines play every built-in alike -----------------------------------------------

CROSS_RULES = [{}, {"fill": "ace"}, {"fill": "any", "relocate_single": True}, {"ace_high": False},
               {"deal": "stuck", "relocate_single": True}]


@pytest.mark.parametrize("options", CROSS_RULES, ids=lambda o: rules_text(**o))
@pytest.mark.parametrize("name, games", [("noop", 40), ("simple", 40), ("greedy", 40), ("lookahead", 20),
                                         ("montecarlo:playouts=2,policy=noop", 3),
                                         ("montecarlo:playouts=2,policy=lookahead", 1)])
def test_engines_agree_game_by_game(name, games, options):
    native, ref = load_engine("native"), load_engine("reference")
    a = native.simulate(games, name, native.Rules(**options), seed=2718, start=5, scores=True)
    b = ref.simulate(games, name, ref.Rules(**options), seed=2718, start=5, scores=True)
    assert a.histogram == b.histogram
    assert bytes(a.scores) == bytes(b.scores)


# Solves that finish are exact, so the engines agree when no solve meets its node limit
# (the engines count nodes differently): solves in the standard game's last three deals,
# or in whole games of small layouts.
@pytest.mark.parametrize("rules, name, games", [
    ({}, "hindsight:samples=2,nodes=10000000,stock=12", 3),
    ({"fill": "ace"}, "hindsight:samples=2,nodes=10000000,stock=12", 3),
    ({"suits": 4, "ranks": 3}, "hindsight:samples=3,nodes=10000000,stock=52", 12),
    ({"suits": 4, "ranks": 4, "piles": 5}, "hindsight:samples=2,nodes=10000000,stock=52", 6),
    ({}, "hindsight:samples=2,nodes=10000000,stock=12,win=1", 3),
    ({"suits": 4, "ranks": 3}, "hindsight:samples=3,nodes=10000000,stock=52,win=274877906944", 12),
], ids=str)
def test_engines_agree_on_hindsight(rules, name, games):
    native, ref = load_engine("native"), load_engine("reference")
    a = native.simulate(games, name, native.Rules(**rules), seed=2718, start=5, scores=True)
    b = ref.simulate(games, name, ref.Rules(**rules), seed=2718, start=5, scores=True)
    assert bytes(a.scores) == bytes(b.scores)
