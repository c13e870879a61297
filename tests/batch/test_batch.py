"""Batch (docs/BATCH.md): slots and refills, the action numbering, the observation
encoding, the arrays, step's checks, stats against simulate, pickle, and the
examples of BATCH.md, on every engine that has a Batch."""

from __future__ import annotations

import copy
import pickle
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acesup.resources import available_memory
from helpers import ROOT, engines_with, family_rules, load_engine, rule_options

BATCH_MD = ROOT / "docs" / "BATCH.md"

ENGINES_WITH_BATCH = engines_with("Batch")


@pytest.fixture(scope="module", params=ENGINES_WITH_BATCH)
def engine(request):
    return load_engine(request.param)


# --- plain facts, computed from the public Game API as BATCH.md states them -----------


def layout(batch):
    """P, H and the layout's deck (index order) of a batch, from its first game."""
    game = batch.game(0)
    deck = sorted([c for pile in game.piles for c in pile] + list(game.stock) + list(game.discards))
    return len(game.piles), batch.max_height, deck


def plain_observation(batch, game):
    """The observation row of BATCH.md, written out from the document."""
    p, h, deck = layout(batch)
    code = {card: k for k, card in enumerate(deck)}
    row = [-1] * (p * h) + [0] * len(deck) + [len(game.stock)]
    for pile_number, pile in enumerate(game.piles):
        for height, card in enumerate(pile):
            row[pile_number * h + height] = code[card]
    for card in game.discards:
        row[p * h + code[card]] = 1
    return row


def plain_actions(engine, rules, p, h):
    """Every action's Move, in the numbering of BATCH.md's table."""
    k = h if rules.fill in ("any", "stack") else 1
    moves = [engine.Move.discard(q) for q in range(p)]
    for src in range(p):
        for dst in range(p):
            if dst != src:
                moves += [engine.Move.fill(src, dst, i) for i in range(k)]
    return moves + [engine.Move.deal()]


def forced_first(moves):
    return moves[0] if moves[0].kind == "discard" else None


def last_legal(game):
    """The callable twin of the batch policy 'highest legal action' under auto_discard."""
    moves = game.legal_moves()
    return forced_first(moves) or moves[-1]


def first_legal(game):
    return game.legal_moves()[0]


def highest_legal(mask):
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def random_legal(rng, mask):
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


# --- construction and layout --------------------------------------------------------


def test_standard_sizes(engine):
    batch = engine.Batch(3)
    assert (batch.n, batch.piles, batch.deck_size, batch.max_height) == (3, 4, 52, 13)
    assert batch.num_actions == 17 and batch.observation_size == 4 * 13 + 52 + 1
    assert batch.observation.shape == (3, 105) and batch.observation.dtype == np.int8
    assert batch.action_mask.shape == (3, 17) and batch.action_mask.dtype == np.bool_
    assert batch.score.dtype == np.uint8 and batch.game_index.dtype == np.uint64
    for name in ("terminated", "won"):
        assert getattr(batch, name).dtype == np.bool_ and not getattr(batch, name).any()
    assert np.array_equal(batch.final_observation, batch.observation)
    assert engine.Batch(1, engine.Rules.easy()).num_actions == 4 + 12 * 13 + 1
    assert batch.games == 2**64 and batch.next_index == 3 and batch.finished == 0 and not batch.done
    assert (batch.rules, batch.seed, batch.start, batch.auto_discard) == (engine.Rules(), 0, 0, True)


def test_slots_start_with_games_start_onwards(engine):
    batch = engine.Batch(5, seed=11, start=40)
    assert batch.game_index.tolist() == [40, 41, 42, 43, 44]
    for slot in range(5):
        game = engine.Game.from_seed(engine.game_seed(11, 40 + slot))
        while game.legal_moves() and game.legal_moves()[0].kind == "discard":
            game.play(game.legal_moves()[0])
        assert batch.game(slot) == game and batch.game(slot).history == game.history


@pytest.mark.parametrize("options", [dict(fill="top"), dict(fill="any", deal="stuck"),
                                     dict(fill="ace", relocate_single=True, ace_high=False)])
def test_action_numbering(engine, options):
    rules = engine.Rules(**options)
    batch = engine.Batch(1, rules)
    moves = plain_actions(engine, rules, batch.piles, batch.max_height)
    assert len(moves) == batch.num_actions
    assert moves == sorted(moves)  # R3 order
    for action, move in enumerate(moves):
        assert batch.action_to_move(action) == move
        assert batch.move_to_action(move) == action
        assert batch.move_to_action(str(move)) == action
    assert batch.action_to_move(np.int64(batch.num_actions - 1)) == engine.Move.deal()


def test_action_conversion_errors(engine):
    batch = engine.Batch(1)
    for bad in (-1, 17, 2**70):
        with pytest.raises(ValueError, match="action must be an int from 0 to 16"):
            batch.action_to_move(bad)
    for bad in (True, 1.0, "3"):
        with pytest.raises(TypeError):
            batch.action_to_move(bad)
    with pytest.raises(ValueError, match="no action"):
        batch.move_to_action(engine.Move.fill(0, 1, index=1))  # fill="top": no buried card
    with pytest.raises(engine.MoveError):
        batch.move_to_action("f9")
    with pytest.raises(TypeError):
        batch.move_to_action(3)


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(n=0), ValueError, "n must be"),
    (dict(n=-3), ValueError, "n must be"),
    (dict(n=True), TypeError, "n must be"),
    (dict(n=2.0), TypeError, "n must be"),
    (dict(n=4, games=3), ValueError, "games must be at least n"),
    (dict(n=1, seed=-1), ValueError, "seed"),
    (dict(n=1, seed=2**64), ValueError, "seed"),
    (dict(n=1, start=2**64 - 1, games=2), ValueError, "start \\+ games"),
    (dict(n=1, auto_discard=1), TypeError, "auto_discard"),
    (dict(n=1, scores="yes"), TypeError, "scores"),
])
def test_construction_errors(engine, kwargs, error, text):
    with pytest.raises(error, match=text):
        engine.Batch(**kwargs)


def test_last_game_index(engine):
    batch = engine.Batch(1, start=2**64 - 1)
    assert batch.game_index.tolist() == [2**64 - 1] and batch.games == 1


@pytest.mark.skipif(available_memory() is None, reason="the system does not say how much memory is available")
def test_a_batch_that_cannot_fit_is_refused_at_its_construction(engine):
    n = 10**14  # 10**16 bytes and more: the native engine's allocation failed and aborted the process
    with pytest.raises(MemoryError) as info:
        engine.Batch(n)
    slot = engine.Batch(1)._slot_bytes(False)  # what the engine takes a slot (tests/batch/test_batch_limits.py)
    assert slot >= 2 * 105 + 17  # at least the standard layout's observation, twice, and its action mask
    assert str(info.value).startswith(f"a Batch of {n} slots needs about {slot * n} bytes ({slot} a slot)")
    assert "available" in str(info.value)
    assert engine.Batch(1000).n == 1000


# --- stepping ----------------------------------------------------------------------


def check_slots(engine, batch):
    """Every array of BATCH.md against the slot's Game (BATCH.md "Arrays")."""
    p, h, _ = layout(batch)
    moves = plain_actions(engine, batch.rules, p, h)
    for slot in range(batch.n):
        game = batch.game(slot)
        index = int(batch.game_index[slot])
        replay = engine.Game.from_seed(engine.game_seed(batch.seed, index), batch.rules)
        for move in game.history:
            replay.play(move)
        assert replay == game
        assert batch.observation[slot].tolist() == plain_observation(batch, game)
        legal = set(game.legal_moves())
        assert batch.action_mask[slot].tolist() == [m in legal for m in moves]
        assert batch.score[slot] == game.score
        if batch.auto_discard:
            assert not batch.action_mask[slot, :p].any()


@settings(max_examples=25)
@given(options=rule_options, n=st.integers(1, 6), extra=st.integers(0, 12), seed=st.integers(0, 2**64 - 1),
       start=st.integers(0, 10**6), auto=st.booleans(), choice=st.integers(0, 2**32))
def test_a_run_covers_its_games_exactly_in_slot_order(engine, options, n, extra, seed, start, auto, choice):
    """Random legal actions: after every step the arrays agree with the games; the
    slots whose game ended take the next game indices in ascending slot order; the
    run ends with every game start .. start+games-1 finished, counted once."""
    rules = engine.Rules(**options)
    games = n + extra
    batch = engine.Batch(n, rules, seed, start, auto, games=games, scores=True)
    rng = np.random.default_rng(choice)
    taken = batch.game_index.tolist()
    steps = 0
    while not batch.done:
        check_slots(engine, batch)
        before_next = batch.next_index
        before = batch.game_index.tolist()
        active = batch.action_mask.any(axis=1)
        reward = batch.step(random_legal(rng, batch.action_mask))
        steps += 1
        assert reward.dtype == np.uint8 and reward.shape == (n,)
        assert not reward[~active].any()
        assert not batch.terminated[~active].any()
        assert not (batch.won & ~batch.terminated).any()
        after = batch.game_index.tolist()
        renewed = [slot for slot in range(n) if after[slot] != before[slot]]
        assert [after[slot] for slot in renewed] == list(range(before_next, before_next + len(renewed)))
        ended = np.flatnonzero(batch.terminated).tolist()
        assert renewed == ended[:start + games - before_next]  # no game of these layouts is over at its start
        taken += [after[slot] for slot in renewed]
        for slot in np.flatnonzero(~batch.terminated):
            assert np.array_equal(batch.final_observation[slot], batch.observation[slot])
        assert steps < 10_000
    assert taken == list(range(start, start + games))
    assert batch.finished == games and batch.next_index == start + games
    assert not batch.action_mask.any()
    stats = batch.stats()
    assert stats.games == games and len(stats.scores) == games
    check_slots(engine, batch)


@settings(max_examples=20)
@given(options=rule_options, n=st.integers(1, 5), extra=st.integers(0, 15), seed=st.integers(0, 2**64 - 1),
       start=st.integers(0, 10**9), auto=st.booleans())
def test_stats_equal_simulate_with_the_same_policy(engine, options, n, extra, seed, start, auto):
    """The highest legal action (auto_discard) or the first (without it), as NumPy
    over the mask and as a callable in simulate, give equal Stats, scores included."""
    # Neither policy ends under relocate_single: it may move a lone card back and forth forever.
    rules = engine.Rules(**options).replace(relocate_single=False)
    games = n + extra
    batch = engine.Batch(n, rules, seed, start, auto, games=games, scores=True)
    while not batch.done:
        mask = batch.action_mask
        batch.step(highest_legal(mask) if auto else mask.argmax(axis=1))
    policy = last_legal if auto else first_legal
    assert batch.stats() == engine.simulate(games, policy, rules, seed, start=start, scores=True)
    unrecorded = engine.Batch(n, rules, seed, start, auto, games=games)
    while not unrecorded.done:
        mask = unrecorded.action_mask
        unrecorded.step(highest_legal(mask) if auto else mask.argmax(axis=1))
    assert unrecorded.stats() == engine.simulate(games, policy, rules, seed, start=start)
    assert unrecorded.stats().scores is None


def test_reward_is_the_cards_discarded_by_the_step(engine):
    batch = engine.Batch(8, seed=3, games=40)
    rng = np.random.default_rng(5)
    total = np.zeros(8, dtype=np.int64)
    while not batch.done:
        before = batch.score.astype(np.int64)
        index = batch.game_index.copy()
        reward = batch.step(random_legal(rng, batch.action_mask))
        final_score = (batch.final_observation[:, 4 * 13:4 * 13 + 52] == 1).sum(axis=1)
        assert np.array_equal(final_score - before, reward.astype(np.int64))
        same = batch.game_index == index
        assert np.array_equal(batch.score[same & ~batch.terminated], final_score[same & ~batch.terminated])
        total += reward
    assert batch.stats().games == 40


def test_a_stock_order_never_shows(engine):
    """Two decks that differ only in the order of the stock give equal observations
    (the encoding every engine shares) until the next deal."""
    from acesup.encoding import Encoding
    rnd = random.Random(7)
    for trial in range(20):
        rules = engine.Rules(fill=rnd.choice(["top", "ace", "any"]))
        deck = engine.deck_from_seed(trial)
        stock = deck[4:]
        rnd.shuffle(stock)
        games = [engine.Game.from_deck(deck, rules), engine.Game.from_deck(deck[:4] + stock, rules)]
        encoding = Encoding.of(engine, rules)
        while True:
            assert encoding.observation(games[0]) == encoding.observation(games[1])
            moves = games[0].legal_moves()
            assert moves == games[1].legal_moves()
            before_deal = [m for m in moves if m.kind != "deal"]
            if not before_deal:
                break
            move = rnd.choice(before_deal)
            for g in games:
                g.play(move)


# --- bad input ------------------------------------------------------------------------


def snapshot(batch):
    return (batch.observation.copy(), batch.action_mask.copy(), batch.game_index.copy(), batch.score.copy(),
            [batch.game(slot).to_str() for slot in range(batch.n)], batch.next_index, batch.finished)


def same(a, b):
    return all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b))


@pytest.mark.parametrize("actions, error, text", [
    (np.full(4, 16.0), TypeError, re.escape("actions must be an array of integers, got dtype float64")),
    (np.ones(4, dtype=bool), TypeError, "dtype bool"),
    (["deal"] * 4, TypeError, "actions must be an array of integers"),
    (np.full(3, 16), ValueError, re.escape("actions must have shape (4,), got (3,)")),
    (np.full((4, 1), 16), ValueError, re.escape("got (4, 1)")),
    (np.array(16), ValueError, re.escape("got ()")),
    (np.array([16, 16, 17, -1]), ValueError, re.escape("actions[2] = 17 is not an action: actions are 0 to 16")),
    (np.array([-1, 16, 16, 16], dtype=np.int8), ValueError, re.escape("actions[0] = -1 is not an action")),
])
def test_bad_actions_change_nothing(engine, actions, error, text):
    batch = engine.Batch(4, seed=1)
    before = snapshot(batch)
    with pytest.raises(error, match=text):
        batch.step(actions)
    assert same(before, snapshot(batch))


def test_an_illegal_action_names_the_slot_and_the_move(engine):
    batch = engine.Batch(3, seed=1, start=5)
    deal = batch.num_actions - 1
    fill = batch.move_to_action("f0>1")
    assert batch.action_mask[:, deal].all()
    actions = np.array([deal, fill, fill])
    game = batch.game(1)
    with pytest.raises(engine.IllegalMoveError) as caught:
        game.play("f0>1")
    before = snapshot(batch)
    with pytest.raises(engine.IllegalMoveError) as info:
        batch.step(actions)
    assert str(info.value) == f"slot 1 (game 6): action {fill} (f0>1): {caught.value}"
    assert same(before, snapshot(batch))
    batch.step(np.full(3, deal, dtype=np.uint8))  # still playable


def test_a_done_run_refuses_to_step(engine):
    batch = engine.Batch(2, seed=4, games=2)
    while not batch.done:
        batch.step(highest_legal(batch.action_mask))
    before = snapshot(batch)
    with pytest.raises(ValueError, match="the run is done: all 2 games have been played"):
        batch.step(np.zeros(2, dtype=np.int64))
    assert same(before, snapshot(batch))


def test_game_index_errors(engine):
    batch = engine.Batch(2)
    for bad in (-1, 2):
        with pytest.raises(IndexError):
            batch.game(bad)
    with pytest.raises(TypeError):
        batch.game("0")


def test_arrays_are_the_caller_s_own(engine):
    """Every array read is a new writable array (PyTorch warns on a read-only one):
    writing into it changes neither the batch nor an array read before or after,
    and neither does the next step change it."""
    batch = engine.Batch(2)
    for name in ("observation", "action_mask", "score", "game_index", "terminated", "won", "final_observation"):
        array, kept = getattr(batch, name), getattr(batch, name)
        assert array.flags.writeable, name
        before = kept.copy()
        array[0] = 1 - array[0] if array.dtype == np.bool_ else 7
        assert np.array_equal(getattr(batch, name), before) and np.array_equal(kept, before), name
    observation = batch.observation
    first = observation.copy()
    batch.step(batch.action_mask.argmax(axis=1))
    assert np.array_equal(observation, first) and not np.array_equal(batch.observation, first)


# --- pickle --------------------------------------------------------------------------


@pytest.mark.parametrize("dup", [lambda b: pickle.loads(pickle.dumps(b)), copy.deepcopy])
def test_a_copy_goes_on_as_the_original(engine, dup):
    batch = engine.Batch(6, engine.Rules.easy(), seed=9, start=3, games=30, scores=True)
    rng = np.random.default_rng(2)
    for _ in range(15):
        batch.step(random_legal(rng, batch.action_mask))
    twin = dup(batch)
    while not batch.done:
        actions = random_legal(rng, batch.action_mask)
        for b in (batch, twin):
            b.step(actions)
        for name in ("observation", "action_mask", "score", "game_index", "terminated", "won", "final_observation"):
            assert np.array_equal(getattr(batch, name), getattr(twin, name)), name
    assert twin.done and twin.stats() == batch.stats()


# --- the examples of BATCH.md -------------------------------------------------------


def examples():
    text = BATCH_MD.read_text(encoding="utf-8")
    return dict(re.findall(r"```python\n# example: (\w+)\n(.*?)```", text, flags=re.S))


def test_batch_md_has_its_examples():
    assert set(examples()) == {"simple", "random", "evaluate"}


@pytest.mark.parametrize("name", ["simple", "random", "evaluate"])
def test_batch_md_example(engine, name):
    """The example as written, with ``from acesup import`` meaning this engine. The
    pure-Python engine plays the 10,000 games of the simple example in about a
    minute, so it plays the first 2,000 of them (the native engine all of them), and
    so in the others."""
    code = examples()[name].replace("from acesup import", f"from {engine.__name__} import")
    if engine.__name__ == "acesup.reference":
        code = code.replace("10_000", "2_000")
    exec(compile(code, f"BATCH.md example {name}", "exec"), {"__name__": "batch_md_example"})


def test_the_bench_random_policy_is_uniform_over_the_legal_actions():
    """The random-legal policy of the bench and of BATCH.md picks only legal actions,
    each legal action of a row about as often as the others (6,000 draws: within 5
    standard deviations), and action 0 in a row without any."""
    from acesup.bench import _random_legal

    mask = np.zeros((4, 17), dtype=bool)
    mask[0, [3, 7, 16]] = mask[1, 16] = mask[3, :] = True
    rng = np.random.default_rng(0)
    draws = 6_000
    picks = np.array([_random_legal(rng, mask) for _ in range(draws)])
    for row in range(4):
        legal = np.flatnonzero(mask[row]) if mask[row].any() else np.array([0])
        counts = np.bincount(picks[:, row], minlength=17)
        assert np.array_equal(np.flatnonzero(counts), legal)
        p = 1 / len(legal)
        assert np.all(np.abs(counts[legal] / draws - p) <= 5 * np.sqrt(p * (1 - p) / draws))


# --- the engines agree ---------------------------------------------------------------

ARRAYS = ("observation", "action_mask", "score", "game_index", "terminated", "won", "final_observation")


@pytest.mark.skipif(len(ENGINES_WITH_BATCH) < 2, reason="only one engine has a Batch so far")
@settings(max_examples=60)
@given(options=family_rules, n=st.integers(1, 8), extra=st.integers(0, 20), seed=st.integers(0, 2**64 - 1),
       start=st.integers(0, 2**40), auto=st.booleans(), record=st.booleans(), choice=st.integers(0, 2**32))
def test_engines_give_the_same_arrays_step_by_step(options, n, extra, seed, start, auto, record, choice):
    """Every layout and option of the family, random legal actions: the native and
    the reference Batch show equal arrays, rewards and progress after every step,
    and equal games in every slot."""
    check_the_same_arrays_step_by_step(options, n, extra, seed, start, auto, record, choice)


def check_the_same_arrays_step_by_step(options, n, extra, seed, start, auto, record, choice):
    """The check of ``test_engines_give_the_same_arrays_step_by_step`` on one run."""
    engines = [load_engine(name) for name in ENGINES_WITH_BATCH]
    batches = [e.Batch(n, e.Rules(**options), seed, start, auto, games=n + extra, scores=record) for e in engines]
    rng = np.random.default_rng(choice)
    steps = 0
    while not batches[0].done and steps < 2000:
        for name in ARRAYS:
            first, *rest = (getattr(b, name) for b in batches)
            for other in rest:
                assert first.dtype == other.dtype and np.array_equal(first, other), name
        actions = random_legal(rng, batches[0].action_mask)
        rewards = [b.step(actions) for b in batches]
        assert all(np.array_equal(rewards[0], r) and r.dtype == np.uint8 for r in rewards)
        assert len({b.next_index for b in batches}) == 1 and len({b.finished for b in batches}) == 1
        slot = steps % n
        assert len({(b.game(slot).to_str(), tuple(map(str, b.game(slot).history))) for b in batches}) == 1
        steps += 1
    assert len({b.done for b in batches}) == 1
    first, second = (b.stats() for b in batches)
    assert first.histogram == second.histogram
    assert (first.scores is None) == (second.scores is None) == (not record)
    assert record is False or np.array_equal(first.scores, second.scores)
