"""The memory of a long Batch run (issue 11): a ``Batch(65536)`` playing 10**7
games with uniformly random legal actions, and the resident memory of the
process before and after. A batch keeps its slots and its histogram, nothing per
game (without ``scores=True``), so the figure must stay flat however many games
it plays. Run from the repository root after building the extension:

    python scripts/batch_memory.py                  # 65536 slots, 10**7 games
    python scripts/batch_memory.py --games 1e6      # a shorter run

It prints the resident MiB before and after (Linux's /proc, or ``resource``'s
peak elsewhere), the games played and the games per second.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import acesup
from acesup.arguments import games_count, int_at_least
from acesup.bench import _random_legal, _resident_mib  # the bench's policy and its measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--slots", type=int_at_least(1), default=65_536, help="slots of the Batch (default 65536)")
    parser.add_argument("--games", type=games_count(), default=10_000_000, help="games to play (default 1e7)")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    batch = acesup.Batch(args.slots, seed=7)
    batch.step(_random_legal(rng, batch.action_mask))  # every array made once
    before = _resident_mib()
    began = time.perf_counter()
    while batch.finished < args.games:
        batch.step(_random_legal(rng, batch.action_mask))
    seconds = time.perf_counter() - began
    after = _resident_mib()
    print(f"Batch({args.slots}), random legal actions: {batch.finished:,} games in {seconds:.0f} s "
          f"({batch.finished / seconds:,.0f} games/s)")
    print(f"resident MiB before {before:.1f}, after {after:.1f} ({after - before:+.1f})")


if __name__ == "__main__":
    main()
