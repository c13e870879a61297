"""What a Batch may ask of the machine (issue "Hardening, round two", item 1): a
batch larger than the memory or the address space is a MemoryError naming the
bytes, never an abort. The runs that aborted the interpreter run in a subprocess."""

from __future__ import annotations

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
