"""Random play of OpenSpiel's ``python_acesup`` (docs/BATCH.md "Gymnasium and
OpenSpiel"): games played to the end from Python, a uniformly random chance
outcome at each chance node and a uniformly random legal action at each
decision, for a fixed time. Run from the repository root after building the
extension:

    python scripts/openspiel_speed.py                 # 10 seconds, standard rules
    python scripts/openspiel_speed.py --seconds 5 --rules easy
    python scripts/openspiel_speed.py --do-nothing    # the most any Python state reaches

It prints the games, the games per second and their mean score. To compare two
versions of the package, run it with each on ``PYTHONPATH``, alternately, in one
session. ``--do-nothing`` plays, in the same loop, a Python pyspiel game that does
nothing but count its nodes: as many chance nodes and decisions as an Aces Up game
(52 and 15), constant outcomes and actions. What it reaches is the cost of
pyspiel's calls into a Python state alone, the ceiling of any Python state here.
"""

from __future__ import annotations

import argparse
import random
import time

from typing import Any

import pyspiel

import acesup.openspiel  # noqa: F401 - registers python_acesup

CHANCE_NODES, DECISIONS = 52, 15  # about those of a game of Aces Up
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_COUNT_TYPE = pyspiel.GameType(
    short_name="python_count_nodes", long_name="Python count nodes",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1, min_num_players=1, provides_information_state_string=False,
    provides_information_state_tensor=False, provides_observation_string=False,
    provides_observation_tensor=False, parameter_specification={})
_OUTCOMES = [(code, 1.0 / 52) for code in range(52)]
_ACTIONS = list(range(17))


class CountGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The do-nothing game: CHANCE_NODES chance nodes, then DECISIONS decisions."""

    def __init__(self, params: Any = None) -> None:
        info = pyspiel.GameInfo(num_distinct_actions=17, max_chance_outcomes=52, num_players=1, min_utility=0.0,
                                max_utility=1.0, utility_sum=None, max_game_length=CHANCE_NODES + DECISIONS)
        super().__init__(_COUNT_TYPE, info, params or {})

    def new_initial_state(self) -> CountState:
        return CountState(self)


class CountState(pyspiel.State):  # type: ignore[misc]
    """A count of the nodes played; every method is a constant or a comparison."""

    def __init__(self, game: CountGame) -> None:
        super().__init__(game)
        self.n = 0

    def current_player(self) -> int:
        if self.n < CHANCE_NODES:
            return CHANCE
        return TERMINAL if self.n >= CHANCE_NODES + DECISIONS else 0

    def is_chance_node(self) -> bool:
        return self.n < CHANCE_NODES

    def legal_actions(self, player: int | None = None) -> list[int]:
        return _ACTIONS

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _OUTCOMES

    def _apply_action(self, action: int) -> None:
        self.n += 1

    def is_terminal(self) -> bool:
        return self.n >= CHANCE_NODES + DECISIONS

    def returns(self) -> list[float]:
        return [0.0]

    def __str__(self) -> str:
        return str(self.n)


pyspiel.register_game(_COUNT_TYPE, CountGame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play (default 10)")
    parser.add_argument("--rules", default="standard", help="rules text or preset (default standard)")
    parser.add_argument("--do-nothing", action="store_true", help="play the do-nothing game instead (see above)")
    args = parser.parse_args()
    game = (pyspiel.load_game("python_count_nodes") if args.do_nothing
            else pyspiel.load_game("python_acesup", {"rules": args.rules}))
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
