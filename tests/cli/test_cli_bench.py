"""``acesup bench``: the performance figures and the ratios beside them."""

from __future__ import annotations

import os
import re

import pytest

import acesup
from cli_helpers import run


def test_bench_prints_the_figures(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "bench", "--games", "2000", "--reference-games", "20",
                         "--solver-games", "4", "--node-limit", "1000", "--memory-games", "0",
                         "--montecarlo-games", "2", "--plain-games", "3", "--batch-slots", "256",
                         "--batch-steps", "3", "--callable-games", "20", "--batch-memory-games", "0",
                         "--rounds", "1")
    assert status == 0
    for figure in ("native ns a game, 1 thread", "native games/s, 1 thread", "native games/s, 2 threads",
                   "native games/s, 2 processes of 1 thread", "2 threads / 2 processes", "reference games/s",
                   "native / reference", "solver deals/s, 1 thread", "montecarlo ms a game, 1 thread",
                   "solver / plain search, standard", "solver / plain search, relocate_single=true",
                   "NumPy over Batch(256)", "Batch / callable", "ceiling of Batch / callable (built-in / callable)",
                   "native step decisions/s"):
        assert figure in out
    assert re.search(r"^bytes of a native position +240$", out, re.MULTILINE), out
    assert re.search(r"^2 threads / 2 processes +\d+\.\d\d$", out, re.MULTILINE), out


@pytest.mark.parametrize("cores", [2, 4])
def test_bench_ratios_are_those_of_the_figures_beside_them(monkeypatch, cores):
    """On two cores the every-core run once replaced the two-thread figure, so
    that "2 threads / 2 processes" was not the quotient of the figures printed.
    The mean of the rounds' ratios and its standard error are those of each
    round's own two figures, not of the best of each."""
    import acesup.bench

    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    rates = []
    real_rate, real_processes = acesup.bench._rate, acesup.bench._two_processes
    monkeypatch.setattr(acesup.bench, "_rate", lambda run, games: rates.append(real_rate(run, games)) or rates[-1])
    monkeypatch.setattr(acesup.bench, "_two_processes",
                        lambda *a: rates.append(real_processes(*a)) or rates[-1])
    f = acesup.bench.measure(native_games=2000, reference_games=20, rounds=2)
    # Each round: one thread, two threads, two processes.
    ratios = [rates[1] / rates[2], rates[4] / rates[5]]
    assert f["2 threads / 2 processes, mean of the rounds"] == pytest.approx(sum(ratios) / 2, rel=1e-12)
    assert f["2 threads / 2 processes, its standard error"] == pytest.approx(abs(ratios[0] - ratios[1]) / 2, rel=1e-9)
    assert f["2 threads / 2 processes"] == f["native games/s, 2 threads"] / f["native games/s, 2 processes of 1 thread"]
    assert f["2 threads / 1 thread"] == f["native games/s, 2 threads"] / f["native games/s, 1 thread"]
    assert f"native games/s, {cores} threads" in f and f"{cores} threads / 1 thread" in f
