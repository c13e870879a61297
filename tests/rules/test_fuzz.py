"""No input reachable from Python makes the native engine panic.

Hypothesis throws malformed card, deck, move, rules and position texts,
out-of-range integers and corrupt pickles at both engines. Each call must either
succeed in both or fail in both with the same exception type: a Rust panic would
surface as ``pyo3_runtime.PanicException``, a ``BaseException`` that no
``except Exception`` catches, and fail the test with a different type.

``FUZZ_EXAMPLES`` (default 300 per test) sets the number of cases.
"""

from __future__ import annotations

import os
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import acesup
import acesup.reference as ref

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
fuzz = settings(max_examples=EXAMPLES, deadline=None)

CARD_CHARS = "0123456789TJQKAtjqka cdhsCDHS♣♦♥♠♧♢♡♤/-:>,=.\t\n\x00é"
card_like = st.text(alphabet=CARD_CHARS, max_size=12)
huge = st.one_of(st.integers(), st.integers(min_value=-2**70, max_value=2**70),
                 st.sampled_from([-1, 0, 1, 3, 4, 51, 52, 2**63, 2**64 - 1, 2**64, 2**128]))


def outcome(call):
    """What ``call()`` gives: ("ok", text of the result) or ("error", exception type).
    A BaseException that is not an Exception (a panic) propagates and fails the test."""
    try:
        return ("ok", str(call()))
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return ("error", type(error))


def same(native_call, reference_call):
    native, reference = outcome(native_call), outcome(reference_call)
    assert native[0] == reference[0], (native, reference)
    if native[0] == "error":
        assert native[1] is reference[1], (native, reference)
    return native


@fuzz
@given(text=st.one_of(card_like, st.text(max_size=8)))
def test_card_text(text):
    same(lambda: acesup.Card(text), lambda: ref.Card(text))


@fuzz
@given(index=huge)
def test_card_index(index):
    same(lambda: acesup.Card.from_index(index), lambda: ref.Card.from_index(index))


@fuzz
@given(text=st.one_of(st.text(alphabet="dfDF0123456789:>-+ eal\t", max_size=12), st.text(max_size=10)))
def test_move_text(text):
    same(lambda: acesup.Move.parse(text), lambda: ref.Move.parse(text))


@fuzz
@given(src=huge, dst=huge, index=huge)
def test_move_numbers(src, dst, index):
    same(lambda: acesup.Move.fill(src, dst, index=index), lambda: ref.Move.fill(src, dst, index=index))
    same(lambda: acesup.Move.discard(src), lambda: ref.Move.discard(src))


@fuzz
@given(text=st.one_of(st.text(alphabet="filtopacenydsruk=,_ 01", max_size=40), st.text(max_size=20)))
def test_rules_text(text):
    same(lambda: acesup.Rules.parse(text), lambda: ref.Rules.parse(text))


@fuzz
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), data=st.data())
def test_position_text(seed, data):
    """Positions made from a real one by deleting, duplicating, swapping or inserting pieces."""
    text = ref.Game.from_seed(seed).to_str()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 6)))
        text = text[:i] + data.draw(st.one_of(st.just(""), st.text(alphabet=CARD_CHARS, max_size=6),
                                              st.just(text[i:j] * 2))) + text[j:]
    same(lambda: acesup.Game.from_str(text).to_str(), lambda: ref.Game.from_str(text).to_str())


@fuzz
@given(cards=st.lists(st.one_of(card_like, st.integers(0, 60)), max_size=60))
def test_deck(cards):
    as_text = " ".join(map(str, cards))
    same(lambda: acesup.Game.from_deck(as_text).to_str(), lambda: ref.Game.from_deck(as_text).to_str())
    same(lambda: acesup.Game.from_deck(cards).to_str(), lambda: ref.Game.from_deck(cards).to_str())


@fuzz
@given(seed=st.integers(0, 2**64 - 1), move=st.tuples(huge, huge, huge), n=huge)
def test_game_calls(seed, move, n):
    native, reference = acesup.Game.from_seed(seed % 2**64), ref.Game.from_seed(seed % 2**64)
    src, dst, index = move
    for text in (f"d{src}", f"f{src}>{dst}", f"f{src}:{index}>{dst}", "deal"):
        same(lambda: native.play(text), lambda: reference.play(text))
        assert native.to_str() == reference.to_str()
    same(lambda: native.randbelow(n), lambda: reference.randbelow(n))
    same(lambda: acesup.Rng(n).below(seed), lambda: ref.Rng(n).below(seed))
    same(lambda: acesup.game_seed(n, seed), lambda: ref.game_seed(n, seed))


@fuzz
@given(games=huge, start=huge, seed=huge, threads=st.one_of(st.none(), huge))
def test_simulate_arguments(games, start, seed, threads):
    small = isinstance(games, int) and 0 <= games <= 3
    games = games if small or not isinstance(games, int) or games < 0 else games + 2**64  # never a long run
    same(lambda: acesup.simulate(games, seed=seed, start=start, threads=threads),
         lambda: ref.simulate(games, seed=seed, start=start, threads=threads))


@fuzz
@given(counts=st.lists(huge, min_size=0, max_size=52))
def test_stats_histogram(counts):
    same(lambda: acesup.Stats(counts), lambda: ref.Stats(counts))


@fuzz
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_corrupt_game_pickles(seed, data):
    """A pickled game with a byte changed loads into the same game or fails the same way."""
    native, reference = acesup.Game.from_seed(seed), ref.Game.from_seed(seed)
    for move in reference.legal_moves()[:1]:
        native.play(str(move))
        reference.play(str(move))
    reduced_native, reduced_reference = native.__reduce__(), reference.__reduce__()
    blob = pickle.dumps(reduced_native[1:])
    i = data.draw(st.integers(0, len(blob) - 1))
    corrupt = blob[:i] + bytes([data.draw(st.integers(0, 255))]) + blob[i + 1:]
    try:
        args = pickle.loads(corrupt)
    except Exception:  # noqa: BLE001 - a pickle that no longer parses says nothing of the engines
        return
    rebuild = lambda cls, reduced: (lambda: _rebuild(reduced[0], *args))  # noqa: E731
    same(rebuild(acesup.Game, reduced_native), rebuild(ref.Game, reduced_reference))


@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_a_bad_pickled_state_leaves_the_game_as_it_was(seed, data):
    """__setstate__ with a history that turns illegal part-way, or a bad stream,
    raises and changes nothing: the moves before the bad one are not kept."""
    for engine in (acesup, ref):
        game = engine.Game.from_seed(seed)
        good = [str(game.legal_moves()[0])]
        bad = data.draw(st.sampled_from(["d9", "f0>0", "x"]))
        stream = data.draw(st.sampled_from([0, -1]))
        state = {"history": good + [bad], "stream": stream} if stream == 0 else {"history": good, "stream": stream}
        before = game.__reduce__()  # the start, the moves and the stream's state
        with pytest.raises((engine.AcesUpError, ValueError)):
            game.__setstate__(state)
        assert game.__reduce__() == before


def _rebuild(constructor, args, state=None, *rest):
    game = constructor(*args)
    if state is not None:
        game.__setstate__(state)
    return game.to_str()


# --- lone surrogates ----------------------------------------------------------------------

# Texts with lone surrogates ("\udcff" is what surrogateescape makes of a byte 0xff):
# a Rust String cannot hold them, yet each must get the reference's specific error,
# word for word, never a UnicodeEncodeError.
surrogate = st.one_of(st.sampled_from(["\ud800", "\udcff", "\udfff"]), st.characters(categories=["Cs"]))
with_surrogates = st.lists(st.one_of(surrogate, st.sampled_from(CARD_CHARS + "=fild,>:")), max_size=10).map(
    "".join).filter(lambda text: any(0xD800 <= ord(c) < 0xE000 for c in text))


def _moved_stock_card(engine):
    """The seed-42 position with one stock card put on pile 0: a stock no deal leaves."""
    piles, stock, discards, rules = engine.Game.from_seed(42).to_str().split(" ")
    first, rest = piles.split("/", 1)
    return engine.Game.from_str(f"{first}{stock[:2]}/{rest} {stock[2:]} {discards} {rules}")


# Errors whose messages the engines once worded differently: each is compared word for word.
WORDED_ERRORS = {
    "deck smaller than the piles": lambda e: e.Rules(suits=1, ranks=3),
    "card not in the layout": lambda e: e.Game.from_deck(["As", "2s"], e.Rules(suits=2, ranks=5)),
    "kpat deal under a small layout": lambda e: e.Game.from_kpat(5, e.Rules(suits=2, ranks=5)),
    "piles field": lambda e: e.Game.from_str(e.Game.from_seed(1).to_str().replace(" ", "/ ", 1)),
    "stock no deal leaves": _moved_stock_card,
    "histogram length": lambda e: e.Stats([0] * 48),
    "sum past 2**64 - 1": lambda e: e.Stats([0] * 48 + [2**63]) + e.Stats([0] * 48 + [2**63]),
    "adding two layouts": lambda e: e.simulate(2) + e.simulate(2, rules=e.Rules(suits=4, ranks=2)),
    "scores of another histogram": lambda e: e.Stats(e.simulate(3, "greedy").histogram, scores=bytes(3)),
}


@pytest.mark.parametrize("name", list(WORDED_ERRORS))
def test_the_engines_word_these_errors_alike(name):
    call = WORDED_ERRORS[name]
    native = outcome_text(lambda: call(acesup))
    assert native[0] != "ok", native
    assert outcome_text(lambda: call(ref)) == native


# Calls given a NumPy str_, which each engine must take as the str it holds: in its
# values (a Rules' repr, a Stats' strategy) and in its messages alike.
NUMPY_TEXTS = {
    "Rules value": lambda e, np: repr(e.Rules(fill=np.str_("any"))),
    "Rules bad value": lambda e, np: e.Rules(fill=np.str_("x")),
    "Rules.parse": lambda e, np: e.Rules.parse(np.str_("fill=q")),
    "Rules.preset": lambda e, np: e.Rules.preset(np.str_("nope")),
    "Card": lambda e, np: e.Card(np.str_("top")),
    "Move.parse": lambda e, np: e.Move.parse(np.str_("zz")),
    "Game.from_str": lambda e, np: e.Game.from_str(np.str_("x y")),
    "Stats strategy": lambda e, np: repr(e.Stats([0] * 49, strategy=np.str_("g"))),
    "simulate strategy": lambda e, np: repr(e.simulate(1, np.str_("greedy")).strategy),
    "strategy text": lambda e, np: repr(e.strategy(np.str_("greedy")).text),
    "solve_deals program": lambda e, np: e.solve_deals(np.str_("x"), [1]),
}


@pytest.mark.parametrize("name", list(NUMPY_TEXTS))
def test_a_numpy_str_is_the_str_it_holds_in_both_engines(name):
    np = pytest.importorskip("numpy")
    call = NUMPY_TEXTS[name]

    def result(engine):
        try:
            return ("ok", call(engine, np))
        except Exception as error:  # noqa: BLE001 - the type and message are what is compared
            return (type(error), str(error))

    native = result(acesup)
    assert native == result(ref)
    assert "np.str_" not in str(native) and "numpy" not in str(native)


RULES_ITEMS = ["strict", "easy", "fill=x", "fill=any", "deal=q", "deal=any", "piles=9", "piles=5", "suits=1",
               "ranks=3", "ranks=99", "deal_to=e2pt", "deal_to=empty", "ace_high=maybe", "zzz=1", "", "piles=0005"]


@fuzz
@given(items=st.lists(st.sampled_from(RULES_ITEMS), min_size=1, max_size=5))
def test_rules_text_with_several_faults_gives_the_same_error_in_both_engines(items):
    """Which fault of a rules text is reported, and in what words: the same in both."""
    text = ",".join(items)
    assert outcome_text(lambda: acesup.Rules.parse(text)) == outcome_text(lambda: ref.Rules.parse(text))


def same_error(native_call, reference_call):
    """Both calls raise the same exception type with the same message."""
    native, reference = outcome_text(native_call), outcome_text(reference_call)
    assert native == reference
    assert native[0] is not UnicodeEncodeError, native


def outcome_text(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the type and message are what is compared
        return (type(error), str(error))
    return ("ok", None)


SURROGATE_CALLS = {
    "Card": lambda e, t: e.Card(t),
    "Move.parse": lambda e, t: e.Move.parse(t),
    "play": lambda e, t: e.Game.from_seed(1).play(t),
    "is_legal": lambda e, t: e.Game.from_seed(1).is_legal(t),
    "from_str": lambda e, t: e.Game.from_str(t),
    "from_deck text": lambda e, t: e.Game.from_deck(t),
    "from_deck cards": lambda e, t: e.Game.from_deck([t] * 52),
    "Rules option": lambda e, t: e.Rules(fill=t),
    "Rules keyword": lambda e, t: e.Rules(**{t: 1}),
    "Rules.parse": lambda e, t: e.Rules.parse(t),
    "Rules.preset": lambda e, t: e.Rules.preset(t),
    "strategy": lambda e, t: e.strategy(t),
}


@fuzz
@given(text=with_surrogates, call=st.sampled_from(sorted(SURROGATE_CALLS)))
def test_lone_surrogates(text, call):
    same_error(lambda: SURROGATE_CALLS[call](acesup, text), lambda: SURROGATE_CALLS[call](ref, text))


def test_lone_surrogate_examples():
    """A lone surrogate given to each call that takes a text: the same error in both
    engines, a Card's naming the text by its escape."""
    for call in SURROGATE_CALLS:
        same_error(lambda: SURROGATE_CALLS[call](acesup, "\udcff"), lambda: SURROGATE_CALLS[call](ref, "\udcff"))
    import acesup.errors as errors
    try:
        acesup.Card("\udcff")
    except errors.CardError as error:
        assert "'\\udcff'" in str(error)
