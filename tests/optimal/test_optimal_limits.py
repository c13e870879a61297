"""The exact optimum's memory bound (issue "Hardening, round two", item 3):
``optimal`` stops with a MemoryError naming its limit once its memo would hold more
than ``max_states`` positions, by default as many as the memory available holds
(``acesup.resources``), in both engines and in ``acesup table --small``. Before,
it grew until an allocation failed and the process aborted, so the runs without
an explicit limit run in a subprocess with their address space bounded."""

from __future__ import annotations

import pytest

from helpers import run_isolated

GiB = 2**30
BIG = "suits=4,ranks=6,piles=5"  # far beyond this machine: its memo grows without end
LIMIT_TEXT = "the exact optimum for 4 suits x 6 ranks on 5 piles needs more than max_states={} positions in memory"


def test_max_states_stops_it_with_a_memory_error(engine):
    with pytest.raises(MemoryError) as info:
        engine.optimal(engine.Rules.parse(BIG), max_states=100)
    assert str(info.value) == LIMIT_TEXT.format(100)
    small = engine.Rules(suits=2, ranks=3)  # alive, and a limit it stays within changes nothing
    assert engine.optimal(small, max_states=10**5) == engine.optimal(small)


@pytest.mark.parametrize(("value", "error"), [(0, ValueError), (2**64, ValueError), (1.5, TypeError),
                                              (True, TypeError)])
def test_max_states_must_be_a_positive_int(engine, value, error):
    with pytest.raises(error, match="max_states must be an int in \\[1, 2\\*\\*64\\)"):
        engine.optimal(engine.Rules(suits=2, ranks=3), max_states=value)


@pytest.mark.parametrize("name", ["reference", "native"])
def test_the_default_limit_is_the_memory_available(name):
    """With the memory available said to be 100 positions' worth, the default limit
    is 100 (the native engine counts 256 bytes a position, the reference 1024)."""
    module, state_bytes = {"reference": ("acesup.reference", 1024), "native": ("acesup", 256)}[name]
    done = run_isolated(f"""
        import acesup.resources
        import {module} as engine
        limit_address_space({GiB})
        acesup.resources.available_memory = lambda: 100 * {state_bytes}
        try:
            engine.optimal(engine.Rules.parse({BIG!r}))
        except MemoryError as err:
            print(err)
        """, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == LIMIT_TEXT.format(100)


def test_the_small_table_reports_the_limit():
    done = run_isolated(f"""
        import acesup.resources
        from acesup.cli import main
        limit_address_space({GiB})
        acesup.resources.available_memory = lambda: 100 * 256
        raise SystemExit(main(["table", "--small", "--layout", {BIG!r}, "--games", "10"]))
        """, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.strip().endswith(f"error: {LIMIT_TEXT.format(100)}")
