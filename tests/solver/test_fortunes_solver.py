"""The solver under ``fill="stack"`` (PySolFC's Fortunes, SOLVER.md *`fill="stack"`*):
its verdicts against the reference's plain search on 1,000 small-deck deals of
each Fortunes rule set, its lines replayed in the reference engine, and its limits.
"""

from __future__ import annotations

import pytest

import acesup
import acesup.reference as ref
from test_solver import replays_to_a_win

# PySolFC's Fortunes and the plain rules with stacks, on decks small enough for
# the plain search; with four suits some deals are lost, and five piles are won.
SMALL_STACK_RULES = {
    "pysol_fortunes,suits=4,ranks=3": True,
    "fill=stack,suits=4,ranks=3": True,
    "pysol_fortunes,suits=3,ranks=4,piles=5,deal_to=empty": False,
}


@pytest.mark.parametrize("rules, some_lost", SMALL_STACK_RULES.items())
def test_the_solver_agrees_with_the_plain_search_on_1000_small_deals(rules, some_lost):
    native_rules, reference_rules = acesup.Rules.parse(rules), ref.Rules.parse(rules)
    won = 0
    for i in range(1000):
        deal = ref.Game.from_seed(ref.game_seed(3, i), reference_rules)
        expected = ref.solve(deal)
        solution = acesup.solve(acesup.Game.from_seed(acesup.game_seed(3, i), native_rules))
        assert solution.winnable == expected.winnable, deal.to_str()
        if solution.winnable:
            won += 1
            assert replays_to_a_win(deal.to_str(), solution.moves), (deal.to_str(), solution)
        else:
            assert solution.moves == ()
    assert 0 < won and (won < 1000) == some_lost


def test_a_limit_never_gives_a_wrong_verdict_under_stacks():
    rules = acesup.Rules.parse("pysol_fortunes,suits=4,ranks=3")
    for i in range(20):
        game = acesup.Game.from_seed(acesup.game_seed(8, i), rules)
        full = acesup.solve(game)
        for limit in (1, 2, 5, 20):
            limited = acesup.solve(game, node_limit=limit)
            assert limited.winnable in (None, full.winnable)
            assert limited.nodes <= limit
        assert acesup.solve(game, time_limit=1e-9).winnable in (None, full.winnable)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_pysol_fortunes_games_are_solved_with_lines_that_replay(n):
    game = acesup.Game.from_pysol(n, acesup.Rules.pysol_fortunes())
    solution = acesup.solve(game, node_limit=2_000_000)
    assert solution.winnable
    assert replays_to_a_win(game.to_str(), solution.moves)
