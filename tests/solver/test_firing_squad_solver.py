"""The solver under rules with a reserve (PySolFC's Firing Squad, RULES.md R2.4;
SOLVER.md, *A reserve*): the native solver plays them by the plain search, move
for move the reference solver, so the two give the same verdict, line and count
of positions, and every winning line replays to a win.
"""

from __future__ import annotations

import pytest

import acesup
import acesup.reference as ref

# Small decks, where the plain search of the reference settles every deal: Firing
# Squad's rules on 1,000 deals of 12 cards (some lost), and other rules with a
# reserve on fewer (all of these are won: a reserve helps much on small decks).
SMALL = [("pysol_firing_squad,suits=4,ranks=3", 1000), ("reserve=1,suits=2,ranks=5,fill=any,deal=stuck", 100),
         ("reserve=1,piles=5,suits=3,ranks=3,ace_high=false", 100)]


def replays_to_a_win(position_text, moves):
    game = ref.Game.from_str(position_text)
    for move in moves:
        game.play(str(move))
    return game.is_won


@pytest.mark.parametrize("rules, deals", SMALL)
def test_the_solver_is_the_plain_search_on_small_deals(rules, deals):
    native_rules, ref_rules = acesup.Rules.parse(rules), ref.Rules.parse(rules)
    won = 0
    for index in range(deals):
        seed = acesup.game_seed(49, index)
        a = acesup.solve(acesup.Game.from_seed(seed, native_rules))
        b = ref.solve(ref.Game.from_seed(seed, ref_rules))
        assert (a.winnable, [str(m) for m in a.moves], a.nodes) == (b.winnable, [str(m) for m in b.moves], b.nodes)
        assert a.winnable is not None
        if a.winnable:
            won += 1
            assert replays_to_a_win(ref.Game.from_seed(seed, ref_rules).to_str(), a.moves)
    if deals == 1000:
        assert 0 < won < deals  # both verdicts are met
    tally = acesup.solvability(deals, native_rules, seed=49)
    assert (tally.winnable, tally.unwinnable, tally.unresolved) == (won, deals - won, 0)


def test_a_limit_only_leaves_the_verdict_unresolved():
    rules = acesup.Rules.parse(SMALL[0][0])
    for index in range(50):
        game = acesup.Game.from_seed(acesup.game_seed(3, index), rules)
        full = acesup.solve(game)
        cut = acesup.solve(game, node_limit=3)
        assert cut.winnable in (None, full.winnable)
        assert cut.nodes <= 3
        twin = ref.solve(ref.Game.from_str(game.to_str()), node_limit=3)
        assert (cut.winnable, cut.nodes) == (twin.winnable, twin.nodes)


def test_a_reserve_card_is_part_of_the_position_searched():
    """Two positions that differ only by the reserve's card are not the same node:
    from this one the win needs the reserve's ace on an empty pile."""
    text = "Jc/Ac/JdAd/- - QcKcQdKd - fill=top,deal=any,relocate_single=true,ace_high=true,suits=2,ranks=4,reserve=1"
    for engine in (acesup, ref):
        solution = engine.solve(engine.Game.from_str(text))
        assert solution.winnable is True
        assert replays_to_a_win(text, solution.moves)
