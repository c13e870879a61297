"""What a Batch may ask of the machine, and what its pickle may say (issue "Hardening,
round two", items 1 and 4): a batch larger than the memory or the address space
is a MemoryError naming the bytes, never an abort; a pickled state whose books
disagree is a ValueError naming the disagreement, the Batch loaded into unchanged.
The runs that aborted the interpreter run in a subprocess."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from helpers import run_isolated

GiB = 2**30


@pytest.mark.parametrize(("n", "headroom"), [(3_000_000, GiB), (10**8, 4 * GiB)])
def test_a_batch_beyond_the_address_space_is_a_memory_error(engine, n, headroom):
    # Under ulimit -v the native Batch(30_000_000) aborted, as Batch(10**8) did on a
    # 24 GiB machine: the check counted 227 bytes a slot and read MemAvailable only.
    done = run_isolated(f"""
        import {engine.__name__} as engine
        limit_address_space({headroom})
        try:
            engine.Batch({n})
        except MemoryError as err:
            print("MemoryError", err)
        """, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(f"MemoryError a Batch of {n} slots needs about "), done.stdout
    assert "RLIMIT_AS" in done.stdout


def test_a_failed_allocation_of_the_native_batch_is_a_memory_error():
    # Past the check (the engine called directly), Vec::with_capacity aborted.
    done = run_isolated("""
        from acesup._core import BatchEngine
        limit_address_space(2**30)
        try:
            BatchEngine(10**9, None, 0, 0, 10**9, True, False)
        except MemoryError as err:
            print("MemoryError", err)
        """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("MemoryError a Batch of 1000000000 slots needs "), done.stdout
    assert "an allocation of" in done.stdout and "bytes of them failed" in done.stdout


def test_the_slot_bytes_cover_the_arrays(engine):
    """Each engine counts at least the rows of its arrays a slot."""
    batch = engine.Batch(2)
    assert batch._slot_bytes(False) >= 2 * batch.observation_size + batch.num_actions


# --- pickles whose books disagree ------------------------------------------------------


def books(engine, batch):
    """The books of ``batch``'s pickled state, as (state, a dict of its dealt,
    finished, histogram and scores, and a function that writes such a dict back)."""
    state = copy.deepcopy(batch.__getstate__() if hasattr(batch, "_engine") else batch.__dict__)
    if "_engine" in state:
        fields = list(state["_engine"])
        read = {"dealt": fields[1], "finished": fields[2], "histogram": list(fields[3]), "scores": fields[4]}

        def write(books):
            fields[1:5] = books["dealt"], books["finished"], books["histogram"], books["scores"]
            state["_engine"] = tuple(fields)
    else:
        read = {"dealt": state["_next"] - state["_start"], "finished": state["_finished"],
                "histogram": list(state["_histogram"]), "scores": bytes(state["_scores"])}

        def write(books):
            state["_next"] = state["_start"] + books["dealt"]
            state["_finished"], state["_histogram"] = books["finished"], books["histogram"]
            state["_scores"] = bytearray(books["scores"])
    return state, read, write


def played(engine):
    """A batch of 4 slots over 20 games, with scores, some of them over."""
    batch = engine.Batch(4, seed=7, games=20, scores=True)
    while batch.finished < 3:
        batch.step(batch.action_mask.argmax(axis=1))
    return batch


def shorter_scores(b):
    b["scores"] = b["scores"][:2]


def more_games_counted(b):
    b["histogram"][5] += 100


def all_dealt_none_finished(b):
    b["dealt"] = 20
    b["finished"] = 0
    b["histogram"] = [0] * len(b["histogram"])


@pytest.mark.parametrize(("tamper", "message"), [
    (shorter_scores, "a Batch state with 2 scores, not one for each of the {dealt} games dealt"),
    (more_games_counted, "a Batch state whose histogram counts {counted} games in 49 scores, "
                         "not the {finished} finished in 49"),
    (all_dealt_none_finished, "a Batch state with 0 games finished and 4 played, not the 20 dealt"),
])
def test_a_pickle_whose_books_disagree_is_refused(engine, tamper, message):
    # The native Batch took these: a step panicked (PanicException, which `except
    # Exception` misses), stats() counted 100 games none played, done never came.
    batch = played(engine)
    state, read, write = books(engine, batch)
    expected = message.format(dealt=read["dealt"], finished=read["finished"], counted=read["finished"] + 100)
    tamper(read)
    write(read)
    before = (batch.next_index, batch.finished, batch.stats(), batch.observation.tobytes())
    with pytest.raises(ValueError) as info:
        batch.__setstate__(state)
    assert str(info.value) == expected
    assert (batch.next_index, batch.finished, batch.stats(), batch.observation.tobytes()) == before
    batch.step(batch.action_mask.argmax(axis=1))  # still whole


def test_an_honest_pickle_still_loads(engine):
    batch = played(engine)
    twin = pickle.loads(pickle.dumps(batch))
    assert (twin.next_index, twin.finished, twin.stats()) == (batch.next_index, batch.finished, batch.stats())
    actions = batch.action_mask.argmax(axis=1)
    assert np.array_equal(twin.step(actions), batch.step(actions))
