"""Random play of OpenSpiel's ``python_acesup`` (docs/BATCH.md "Gymnasium and
OpenSpiel"): games played to the end from Python, a uniformly random chance
outcome at each chance node and a uniformly random legal action at each
decision, for a fixed time. Run from the repository root after building the
extension:

    python scripts/openspiel_speed.py                 # 10 seconds, standard rules
    python scripts/openspiel_speed.py --seconds 5 --rules easy

It prints the games, the games per second and their mean score. To compare two
versions of the package, run it with each on ``PYTHONPATH``, alternately, in one
session.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import acesup.openspiel  # noqa: F401 - registers python_acesup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play (default 10)")
    parser.add_argument("--rules", default="standard", help="rules text or preset (default standard)")
    args = parser.parse_args()
    game = pyspiel.load_game("python_acesup", {"rules": args.rules})
    rnd = random.Random(0)
    games, total = 0, 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
        total += state.returns()[0]
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{games} games in {elapsed:.1f} s: {games / elapsed:,.0f} games/s, mean score {total / games:.2f}")


if __name__ == "__main__":
    main()
