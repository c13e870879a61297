"""Shared helpers of the conformance suite: rule options, positions built by hand,
random walks through games, and the plain-Python facts the tests check against.

Everything here takes the engine module as an argument, so the same helper serves
``acesup`` (native) and ``acesup.reference``.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent  # the checkout: tests/ is its child
DATA = ROOT / "tests" / "data"

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_NAMES = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
ALL_CARDS = [r + s for s in SUITS for r in RANKS]  # index order (R1.1)

FILLS = ("top", "ace", "any")
DEALS = ("free", "stuck")
BOOLS = (False, True)
RULE_OPTIONS = [
    dict(fill=f, deal=d, relocate_single=r, ace_high=a)
    for f, d, r, a in itertools.product(FILLS, DEALS, BOOLS, BOOLS)
]
STANDARD_TEXT = "fill=top,deal=free,relocate_single=false,ace_high=true"

# R4.3: 48 discards, 12 deals, at most 4 fills after each of them plus 4 at the start.
MAX_MOVES_WITHOUT_RELOCATE = 48 + 12 + 4 * (48 + 12 + 1)

U64 = 2**64

# The order-preserving relabelling of the reverse variant onto the standard one:
# A 2 3 ... K (low to high, ace_high=False) -> 2 3 4 ... A (low to high, standard).
REVERSE_RANKS = "A23456789TJQK"
RELABEL = dict(zip(REVERSE_RANKS, RANKS))


ENGINES = {"reference": "acesup.reference", "native": "acesup"}


def load_engine(name):
    """The engine module, imported on demand so that collecting the suite never
    needs the native extension."""
    return importlib.import_module(ENGINES[name])


def load_json(name):
    with open(DATA / name, encoding="utf-8") as f:
        return json.load(f)


def rules_text(fill="top", deal="free", relocate_single=False, ace_high=True):
    return (
        f"fill={fill},deal={deal},relocate_single={str(relocate_single).lower()},"
        f"ace_high={str(ace_high).lower()}"
    )


def relabel_card(text):
    return RELABEL[text[0]] + text[1]


def cards_text(cards):
    """Cards as canonical text, concatenated as in a position (R6.5): '-' when empty."""
    return "".join(str(c) for c in cards) or "-"


# --- positions built by hand ------------------------------------------------------


def position(piles, stock=None, discards=None, rules=STANDARD_TEXT, stock_len=None):
    """The R6.5 text of a position with the given piles (lists of card text, bottom
    to top). Cards not named go to the stock (in index order) and the discards:
    with ``stock_len`` given, the stock takes that many of them and the rest, which
    must not include a top-rank card, are discarded; by default the stock takes the
    largest multiple of 4 that leaves the discards free of aces and kings.
    """
    used = [c for p in piles for c in p] + list(stock or []) + list(discards or [])
    assert len(used) == len(set(used)), used
    rest = [c for c in ALL_CARDS if c not in used]
    if stock is None and discards is None:
        high = [c for c in rest if c[0] in "AK"]
        low = [c for c in rest if c[0] not in "AK"]
        if stock_len is None:
            stock_len = len(high) + (-len(high)) % 4
        assert stock_len >= len(high) and stock_len % 4 == 0
        stock = high + low[: stock_len - len(high)]
        discards = low[stock_len - len(high):]
    elif stock is None:
        stock = rest
    elif discards is None:
        discards = rest
    else:
        assert not rest, rest
    field = lambda cs: "".join(cs) or "-"
    return f"{'/'.join(field(p) for p in piles)} {field(stock)} {field(discards)} {rules}"


# --- well-formed moves --------------------------------------------------------------


def wellformed_moves(engine, game):
    """Every move that can exist in this position: discards 0-3, every fill src != dst
    with index 0..len(src) (one past the bottom card), and the deal."""
    moves = [engine.Move.discard(p) for p in range(4)]
    piles = game.piles
    for src in range(4):
        for dst in range(4):
            if src != dst:
                moves += [engine.Move.fill(src, dst, index=i) for i in range(len(piles[src]) + 1)]
    moves.append(engine.Move.deal())
    return moves


def all_cards_of(game):
    return [str(c) for p in game.piles for c in p] + [str(c) for c in game.stock] + [
        str(c) for c in game.discards
    ]


# --- random walks -------------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=U64 - 1)
rule_options = st.fixed_dictionaries(
    {
        "fill": st.sampled_from(FILLS),
        "deal": st.sampled_from(DEALS),
        "relocate_single": st.booleans(),
        "ace_high": st.booleans(),
    }
)


class Path:
    """A way through a game: at most ``length`` moves, the first picks chosen by
    Hypothesis (``prefix``, so that it can shrink them) and the rest drawn from
    ``random.Random(tail)``. Pick c plays ``legal_moves()[c % len(legal_moves())]``."""

    def __init__(self, prefix, tail, length):
        self.prefix, self.tail, self.length = list(prefix), tail, length

    def picks(self):
        rnd = random.Random(self.tail)
        for k in range(self.length):
            yield self.prefix[k] if k < len(self.prefix) else rnd.randrange(2**16)

    def __repr__(self):
        return f"Path(prefix={self.prefix!r}, tail={self.tail!r}, length={self.length!r})"


_prefixes = st.lists(st.integers(min_value=0, max_value=2**16), max_size=20)
_tails = st.integers(min_value=0, max_value=2**32 - 1)
# Mostly to the end of the game, sometimes stopping midway.
paths = st.builds(Path, _prefixes, _tails, st.one_of(st.just(1000), st.integers(min_value=0, max_value=150)))
full_paths = st.builds(Path, _prefixes, _tails, st.just(1000))


def pick(moves, choice):
    return moves[choice % len(moves)]


def walk(game, path):
    """Plays the moves of ``path`` until it ends or the game is over, yielding each
    move before it is played (the game is mutated in place; after the loop every
    yielded move has been played)."""
    for c in path.picks():
        moves = game.legal_moves()
        if not moves:
            return
        move = pick(moves, c)
        yield move
        game.play(move)


def random_strategy_moves(game):
    """The random strategy of RNG.md, written out from the document: plays the game
    to its end and returns the moves as text."""
    played = []
    while True:
        moves = game.legal_moves()
        if not moves:
            return played
        discards = [m for m in moves if m.kind == "discard"]
        move = discards[0] if discards else moves[game.randbelow(len(moves))]
        game.play(move)
        played.append(str(move))


def random_strategy_histogram(engine, games, seed, rules=None, start=0):
    hist = [0] * 49
    for i in range(start, start + games):
        g = engine.Game.from_seed(engine.game_seed(seed, i), rules)
        random_strategy_moves(g)
        hist[g.score] += 1
    return tuple(hist)


# --- the family of layouts (RULES.md R1.4, R2.3, R5) ------------------------------------
#
# The strategies above keep to the standard layout and the first four options, which
# every test written before the family existed reads; ``family_rules`` draws every
# combination of the eight options, for the tests of the whole family.

FAMILY_DEALS = ("free", "stuck", "any")
DEAL_TOS = ("all", "empty")


def _defined_layout(options):
    return options["suits"] * options["ranks"] >= options["piles"]


family_rules = st.fixed_dictionaries(
    {
        "fill": st.sampled_from(FILLS),
        "deal": st.sampled_from(FAMILY_DEALS),
        "relocate_single": st.booleans(),
        "ace_high": st.booleans(),
        "piles": st.sampled_from((4, 5)),
        "suits": st.integers(min_value=1, max_value=4),
        "ranks": st.integers(min_value=2, max_value=13),
        "deal_to": st.sampled_from(DEAL_TOS),
    }
).filter(_defined_layout)

# Layouts small enough for a plain search to solve from the start (at most 20 cards).
small_family_rules = family_rules.filter(lambda o: o["suits"] * o["ranks"] <= 20)


def layout_cards(options):
    """The layout's deck as card texts in index order, from RULES.md R1.4 alone: the
    first S suits of ``cdhs``, the R highest ranks of each under the rank order."""
    order = RANKS if options.get("ace_high", True) else REVERSE_RANKS  # low to high
    ranks = set(order[len(order) - options.get("ranks", 13):])
    suits = SUITS[: options.get("suits", 4)]
    return [c for c in ALL_CARDS if c[0] in ranks and c[1] in suits]


def win_score(options):
    """D - S (R4.2)."""
    return options.get("suits", 4) * options.get("ranks", 13) - options.get("suits", 4)


def stock_lengths(options):
    """The stock lengths a deal can leave (R6.5)."""
    piles = options.get("piles", 4)
    start = options.get("suits", 4) * options.get("ranks", 13) - piles
    if options.get("deal_to", "all") == "empty":
        return set(range(start + 1))
    return set(range(start, 0, -piles)) | {0}


def family_wellformed_moves(engine, game):
    """Every move that can exist in this position under any layout: discards of piles
    0-4, every fill src != dst of piles 0-4 with index 0..len(src) (one past the bottom
    card; 0 for a pile the rules do not have), and the deal."""
    piles = game.piles
    height = lambda p: len(piles[p]) if p < len(piles) else 0
    moves = [engine.Move.discard(p) for p in range(5)]
    for src in range(5):
        for dst in range(5):
            if src != dst:
                moves += [engine.Move.fill(src, dst, index=i) for i in range(height(src) + 1)]
    moves.append(engine.Move.deal())
    return moves


# --- two engines in lockstep ---------------------------------------------------------------


def observe(game):
    return {
        "to_str": game.to_str(),
        "str": str(game),
        "legal": [str(m) for m in game.legal_moves()],
        "score": game.score,
        "is_over": game.is_over,
        "is_won": game.is_won,
        "history": [str(m) for m in game.history],
    }


def outcome(engine, game, text):
    """What playing ``text`` on a copy of ``game`` does: ("ok", position) or (exception type, message)."""
    trial = game.copy()
    try:
        trial.play(engine.Move.parse(text))
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return (type(e), str(e))
    return ("ok", trial.to_str())


def assert_same(a, b):
    oa, ob = observe(a), observe(b)
    for key in oa:
        assert oa[key] == ob[key], f"{key} differs at {ob['to_str']}"


def play_in_lockstep(engine_a, a, engine_b, b, path, wellformed):
    """Plays the games ``a`` (of ``engine_a``) and ``b`` (of ``engine_b``) along
    ``path``, checking at every step that they show the same, that every move of
    ``wellformed(engine_b, b)`` has the same outcome (verdict, exception type and
    message) in both, then that their strategy streams and undo agree."""
    for c in list(path.picks()) + [0]:
        assert_same(a, b)
        # Every well-formed move: the same verdict, the same exception type and message.
        for text in sorted({str(m) for m in wellformed(engine_b, b)}):
            assert outcome(engine_a, a, text) == outcome(engine_b, b, text), text
        moves = b.legal_moves()
        if not moves:
            break
        move = str(pick(moves, c))
        a.play(move)
        b.play(move)
    assert_same(a, b)
    # The strategy streams agree too.
    bounds = (1, 2, 52, 2**63 + 1)
    assert [a.randbelow(n) for n in bounds] == [b.randbelow(n) for n in bounds]
    # And so does undo, all the way back.
    while b.history:
        assert str(a.undo()) == str(b.undo())
        assert a.to_str() == b.to_str()


def other_engine(engine):
    """The engine that ``engine`` is not: the reference for the native one and the
    native one for the reference, to hand one engine's values to the other."""
    return load_engine("reference" if engine is load_engine("native") else "native")


def engines_with(name):
    """The engines (ids of ENGINES) whose module has ``name``: the Batch-based tests
    run on these only while the native Batch is being written. An engine that does
    not import is left out here; the rest of the suite reports it."""
    found = []
    for engine in ENGINES:
        try:
            module = load_engine(engine)
        except ImportError:
            continue
        if hasattr(module, name):
            found.append(engine)
    return found


@contextmanager
def ctrl_c_after(seconds):
    """Sends this process SIGINT after ``seconds``, with Python's own handler in
    place (even if the run was started with SIGINT ignored); yields a list that
    holds, once the block ends, the seconds it lasted."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    lasted = []
    start = time.monotonic()
    timer.start()
    try:
        yield lasted
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
        lasted.append(time.monotonic() - start)


ADDRESS_SPACE_LIMIT = """
import resource

def limit_address_space(headroom):
    # RLIMIT_AS (ulimit -v) set to this process's address space and `headroom` bytes.
    with open("/proc/self/status") as status:
        used = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))
    resource.setrlimit(resource.RLIMIT_AS, (used + headroom, resource.getrlimit(resource.RLIMIT_AS)[1]))
"""


def run_isolated(source, timeout=60, ctrl_c_after=None):
    """Runs ``source`` (dedented, with ``limit_address_space(headroom)`` defined) in
    a new interpreter, so that an abort, a hang or a runaway allocation fails the
    test that asked instead of killing pytest: returns the return code and the
    output, or raises ``subprocess.TimeoutExpired`` after ``timeout`` seconds.
    With ``ctrl_c_after``, the process is sent SIGINT that many seconds after it
    prints its first line (from outside: a thread of its own could not run while
    native code holds the GIL)."""
    code = ADDRESS_SPACE_LIMIT + textwrap.dedent(source)
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        try:
            first = ""
            if ctrl_c_after is not None:
                first = process.stdout.readline()
                time.sleep(ctrl_c_after)
                process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, first + out, err)
