"""``acesup table``: the Markdown tables of win rates (by rules, small layouts, players)."""

from __future__ import annotations

import pytest

import acesup
from cli_helpers import run


def test_table_is_markdown_of_every_rules_and_deal(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--games", "40", "--seed", "3", "--strategy", "greedy",
                         "--strategy", "random", "--node-limit", "20000")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert rows[0] == "| rules | deal | greedy | random | solvable | unresolved |"
    assert len(rows) == 2 + 8
    cells = {tuple(cell.strip() for cell in row.strip("|").split("|")[:2]): row for row in rows[2:]}
    assert set(cells) == {(preset, deal) for preset in ("standard", "strict", "easy", "reverse")
                          for deal in ("free", "stuck")}
    rules = acesup.Rules.easy().replace(deal="stuck")
    greedy = acesup.simulate(40, "greedy", rules, seed=3)
    solvable = acesup.solvability(40, rules, seed=3, node_limit=20000)
    cell = cells[("easy", "stuck")].strip("|").split("|")
    assert cell[2].strip().startswith(f"{100 * greedy.win_rate:.2f} (")
    assert cell[4].strip().startswith(f"{100 * solvable.rate:.2f} (")
    assert cell[5].strip() == f"{solvable.unresolved:,}"


def test_table_small_puts_the_optimum_beside_the_strategies(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--small", "--games", "30", "--layout", "suits=4,ranks=2",
                         "--node-limit", "20000")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    from acesup.reference.strategies import builtin_names
    assert rows[0] == "| layout | optimum | solvable | " + " | ".join(builtin_names()) + " |"
    cells = [cell.strip() for cell in rows[2].strip("|").split("|")]
    assert cells[0] == "suits=4,ranks=2" and cells[1].startswith("54.29 = 19/35 (")
    rules = acesup.Rules(suits=4, ranks=2)
    optimal = acesup.simulate(30, "optimal", rules)
    assert cells[-1].startswith(f"{100 * optimal.win_rate:.2f} (")


@pytest.mark.parametrize("argv, words", [
    (("--layout", "suits=4,ranks=2"), "argument --layout: only with --small"),
    (("--players", "--layout", "suits=4,ranks=2"), "argument --layout: only with --small"),
    (("--rules", "easy"), "argument --rules: only with --players"),
    (("--small", "--cheap-games", "100"), "argument --cheap-games: only with --players"),
    (("--small", "--players"), "argument --players: not allowed with argument --small"),
    (("--small", "--layout", "suits=4,ranks=2", "--layout", "standard"),
     "layout 'standard' has 52 cards: the exact optimum is computed for decks of at most 24 cards"),
])
def test_table_options_of_another_kind_of_table_are_usage_errors(capsys, monkeypatch, argv, words):
    """An option that only one kind of table reads is refused with another, not
    left without effect (the table would be computed as if it were not there)."""
    status, out, err = run(capsys, monkeypatch, "table", "--games", "1", *argv)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_table_small_columns_are_the_strategies_that_play_every_layout():
    from acesup.cli.table import registry_strategies
    from acesup.reference.strategies import builtin_names

    small, larger = acesup.Rules(suits=4, ranks=2), acesup.Rules(suits=4, ranks=5)  # 8 and 20 cards
    assert registry_strategies(small) == list(builtin_names())
    assert registry_strategies(small, larger) == [name for name in builtin_names() if name != "optimal"]
    assert registry_strategies(larger, small) == registry_strategies(small, larger)


def test_table_players_pairs_every_strategy_with_lookahead(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--players", "--games", "60", "--cheap-games", "200",
                         "--strategy", "greedy", "--strategy", "lookahead", "--node-limit", "20000",
                         "--bound-games", "0")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert rows[0] == "| player | games | win % | vs lookahead | cost per game |"
    cells = {row.strip("|").split("|")[0].strip(): [c.strip() for c in row.strip("|").split("|")] for row in rows[2:]}
    assert set(cells) == {"greedy", "lookahead", "clairvoyant (solvable, upper bound)"}
    greedy = acesup.simulate(200, "greedy")  # cheap: it plays --cheap-games
    assert cells["greedy"][1] == "200" and cells["greedy"][2].startswith(f"{100 * greedy.win_rate:.2f} (")
    pair = acesup.compare(["greedy", "lookahead"], 60).pairs[0]
    assert cells["greedy"][3].startswith(f"{100 * pair.diff:+.2f} (")
    assert cells["lookahead"][3] == "0" and cells["greedy"][4].endswith(" us")
    solvable = acesup.solvability(60, node_limit=20000)
    assert cells["clairvoyant (solvable, upper bound)"][2].startswith(f"{100 * solvable.rate:.2f} (")
