"""Simulations, policy evaluations, solvability runs and numbered deals spread
over a Dask cluster (the ``acesup[dask]`` extra); see docs/DISTRIBUTED.md.

A run of games ``start .. start + games - 1`` is cut into shards of consecutive
game indices. Each shard is one task that calls the native engine's
``simulate``, ``evaluate`` or ``solvability`` with ``start=`` set to its first
index, and the results are added up in shard order with ``+``. Every game's deal
and strategy stream depend only on the master seed and the game's index
(docs/RNG.md), so the result equals that of one local call with the same
arguments, per-game scores included, whatever the number of workers, shards or
threads. ``solve_deals`` cuts its deal numbers into consecutive shards the same
way and hands the verdicts out in the numbers' order.

Each task runs on one thread (``threads=1``): Dask provides the parallelism,
one task per worker thread, and the engine releases the interpreter lock while
it plays, so a worker's threads run in parallel.

To use a real cluster, install acesup (with the same version) on the scheduler's
client and on every worker, start the cluster (``dask scheduler`` and ``dask
worker tcp://scheduler:8786 --nthreads <cores> --nworkers 1`` on each machine,
or dask-jobqueue, dask-kubernetes, ...), and pass its client::

    from dask.distributed import Client
    import acesup.distributed

    client = Client("tcp://scheduler:8786")
    stats = acesup.distributed.simulate(client, 10**10, "greedy", seed=7)

Nothing here imports Dask: the functions only call the client's ``submit`` and
``nthreads`` and the futures' ``result``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import acesup
from .arguments import U64, int_arg, length
from .bound import DEFAULT_SAMPLES

if TYPE_CHECKING:
    from distributed import Client, Future

    from .evaluation import Policy

__all__ = ["simulate", "solvability", "evaluate", "solve_deals", "upper_bound"]

R = TypeVar("R", "acesup.Stats", "acesup.Solvability", "acesup.UpperBound")  # what a run adds up, shard by shard

SHARDS_PER_THREAD = 4  # more shards than threads, so that a slow shard does not idle the others


def _shard_ranges(games: int, start: int, shards: int) -> list[tuple[int, int]]:
    """``(first index, number of games)`` of each of ``shards`` consecutive shards
    covering games ``start .. start + games - 1``, as even as can be (no empty
    shard: fewer shards when there are fewer games)."""
    shards = min(shards, games)
    if not shards:
        return []
    size, extra = divmod(games, shards)
    ranges, first = [], start
    for k in range(shards):
        count = size + (k < extra)
        ranges.append((first, count))
        first += count
    return ranges


def _shard_count(client: Client, shards: int | None) -> int:
    """``shards``, an int >= 1, or by default 4 per worker thread of the cluster."""
    if shards is None:
        shards = SHARDS_PER_THREAD * max(1, sum(client.nthreads().values()))
    return int_arg(shards, "shards", 1)


def _run(client: Client, task: Callable[..., R], games: int, start: int, shards: int | None,
         args: tuple[Any, ...], empty: R) -> R:
    """Runs ``task(count, *args, start=first)`` for every shard on the cluster and
    adds the results up in shard order."""
    games, start = int_arg(games, "games"), int_arg(start, "start")
    if start + games > U64:
        raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
    futures = [client.submit(task, count, *args, start=first, pure=False)
               for first, count in _shard_ranges(games, start, _shard_count(client, shards))]
    results: list[R] = [future.result() for future in futures]  # in order: a failure is the first shard's
    return sum(results, empty)


def _simulate_shard(games: int, strategy: Any, rules: Any, seed: int, *, start: int) -> acesup.Stats:
    return acesup.simulate(games, strategy, rules, seed, threads=1, start=start)


def _solvability_shard(games: int, rules: Any, seed: int, node_limit: int | None, time_limit: float | None,
                       *, start: int) -> acesup.Solvability:
    return acesup.solvability(games, rules, seed, threads=1, start=start, node_limit=node_limit,
                              time_limit=time_limit)


def _evaluate_shard(games: int, policy: Policy, rules: Any, seed: int, batch: int, scores: bool, *,
                    start: int) -> acesup.Stats:
    return acesup.evaluate(policy, games, rules=rules, seed=seed, start=start, batch=batch, scores=scores)


def _solve_deals_shard(deals: str, numbers: Sequence[int], rules: Any, node_limit: int | None,
                       time_limit: float | None) -> list[tuple[int, bool | None]]:
    return list(acesup.solve_deals(deals, numbers, rules, threads=1, node_limit=node_limit, time_limit=time_limit))


def _upper_bound_shard(games: int, rules: Any, seed: int, value: str, samples: int | None, *,
                       start: int) -> acesup.UpperBound:
    return acesup.upper_bound(games, rules=rules, seed=seed, value=value, samples=samples, start=start, threads=1)


def simulate(client: Client, games: int, strategy: Any = "random", rules: acesup.Rules | None = None,
             seed: int = 0, *, start: int = 0, shards: int | None = None) -> acesup.Stats:
    """``acesup.simulate(games, strategy, rules, seed, start=start)``, played on the
    Dask cluster of ``client`` in ``shards`` tasks (default: 4 per worker thread),
    with the same result.

    ``strategy`` is a built-in's name, or a callable that the workers can unpickle
    (a module-level function of a module installed on them); a callable runs
    with the interpreter lock held, so it gains only from worker processes.
    Every argument is checked here before any task is sent, raising what
    ``acesup.simulate`` raises (``StrategyError``, ``ValueError``, ``TypeError``);
    ``shards`` must be an int >= 1.
    """
    acesup.simulate(0, strategy, rules, seed, start=start)  # checks every argument, plays nothing
    return _run(client, _simulate_shard, games, start, shards, (strategy, rules, seed), acesup.Stats.empty())


def solvability(client: Client, games: int, rules: acesup.Rules | None = None, seed: int = 0, *,
                start: int = 0, shards: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None) -> acesup.Solvability:
    """``acesup.solvability(games, rules, seed, start=start, node_limit=node_limit,
    time_limit=time_limit)``, solved on the Dask cluster of ``client`` in
    ``shards`` tasks (default: 4 per worker thread).

    The result equals the local one whenever ``time_limit`` stops no search: a
    node limit gives the same verdicts everywhere, a time limit depends on the
    speed of the machine that searches. Every argument is checked here before any
    task is sent, raising what ``acesup.solvability`` raises (``ValueError``,
    ``TypeError``); ``shards`` must be an int >= 1.
    """
    acesup.solvability(0, rules, seed, start=start, node_limit=node_limit, time_limit=time_limit)
    return _run(client, _solvability_shard, games, start, shards, (rules, seed, node_limit, time_limit),
                acesup.Solvability.empty())


def evaluate(client: Client, policy: Policy, games: int, *, rules: acesup.Rules | None = None, seed: int = 0,
             start: int = 0, batch: int = 1024, scores: bool = False, shards: int | None = None) -> acesup.Stats:
    """``acesup.evaluate(policy, games, rules=rules, seed=seed, start=start,
    batch=batch, scores=scores)``, played on the Dask cluster of ``client`` in
    ``shards`` tasks (default: 4 per worker thread), with the same result, per-game
    scores included.

    ``policy`` must reach the workers by pickle (Dask's cloudpickle takes a
    function by value unless it is importable there, and a torch module pickles
    with its weights); each task plays its shard in a Batch of its own on one
    worker thread. Every argument is checked here before any task is sent,
    raising what ``acesup.evaluate`` raises; ``shards`` must be an int >= 1. What
    the policy returns is checked on the workers, and a shard's error is raised
    here.
    """
    empty = acesup.evaluate(policy, 0, rules=rules, seed=seed, start=start, batch=batch, scores=scores)
    return _run(client, _evaluate_shard, games, start, shards, (policy, rules, seed, batch, scores), empty)


def solve_deals(client: Client, deals: str, numbers: Iterable[int], rules: acesup.Rules | None = None, *,
                shards: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None) -> Iterator[tuple[int, bool | None]]:
    """``acesup.solve_deals(deals, numbers, rules, node_limit=node_limit,
    time_limit=time_limit)``, solved on the Dask cluster of ``client``: the
    numbers are cut into ``shards`` runs of consecutive numbers (default: 4 per
    worker thread), each solved by one task on one thread, and the verdicts
    ``(number, winnable)`` are handed out in the numbers' order, each shard's as
    soon as it and those before it are done.

    The verdicts equal the local ones whenever ``time_limit`` stops no search.
    ``numbers`` is read here (a ``range`` is cut into ranges, never listed), and
    every argument is checked before any task is sent, raising what
    ``acesup.solve_deals`` raises; ``shards`` must be an int >= 1. Dropping the
    iterator releases the shards not yet handed out, which the cluster then
    cancels.
    """
    numbers = numbers if isinstance(numbers, range) else list(numbers)
    acesup.solve_deals(deals, numbers, rules, node_limit=node_limit, time_limit=time_limit)  # checks, solves nothing
    count = length(numbers)
    futures = [client.submit(_solve_deals_shard, deals, numbers[first:first + size], rules, node_limit, time_limit,
                             pure=False)
               for first, size in _shard_ranges(count, 0, _shard_count(client, shards))]
    return _verdicts(futures)


def _verdicts(futures: list[Future[list[tuple[int, bool | None]]]]) -> Iterator[tuple[int, bool | None]]:
    """The verdicts of the shards ``futures``, in their order, each future let go
    once its verdicts are handed out."""
    futures.reverse()
    while futures:
        yield from futures.pop().result()


def upper_bound(client: Client, games: int, *, rules: acesup.Rules | None = None, seed: int = 0,
                value: str = "strong", samples: int | None = DEFAULT_SAMPLES, start: int = 0,
                shards: int | None = None) -> acesup.UpperBound:
    """``acesup.upper_bound(games, rules=rules, seed=seed, value=value,
    samples=samples, start=start)`` (docs/BOUND.md), searched on the Dask cluster
    of ``client`` in ``shards`` tasks (default: 4 per worker thread), with the same
    result: the same per-game values in game order, the same bound and interval
    (only ``seconds`` differs, the sum of the shards' times). Every argument is
    checked here before any task is sent, raising what ``acesup.upper_bound``
    raises; ``shards`` must be an int >= 1.
    """
    empty = acesup.upper_bound(0, rules=rules, seed=seed, value=value, samples=samples, start=start)
    return _run(client, _upper_bound_shard, games, start, shards, (rules, seed, value, samples), empty)
