"""``acesup table --players``: the row of the certified upper bound (docs/BOUND.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import acesup

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_helpers import run  # noqa: E402  (the CLI tests' helper, in their folder)

BOUND_ROW = "upper bound without seeing the stock (penalties, W strong, BOUND.md)"


def rows_of(out: str) -> dict[str, list[str]]:
    rows = [line for line in out.splitlines() if line.startswith("|")]
    return {row.strip("|").split("|")[0].strip(): [c.strip() for c in row.strip("|").split("|")] for row in rows[2:]}


def test_table_players_ends_with_the_bound(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--players", "--games", "20", "--cheap-games", "20",
                         "--strategy", "lookahead", "--node-limit", "20000", "--bound-games", "6", "--threads", "1")
    assert status == 0
    cells = rows_of(out)
    bound = acesup.upper_bound(6, value="strong")
    assert cells[BOUND_ROW][1] == "6" and cells[BOUND_ROW][2].startswith(f"{100 * bound.mean:.2f} (")
    assert list(cells)[-1] == BOUND_ROW


def test_the_bound_row_is_left_out_under_relocate_single(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--players", "--games", "20", "--cheap-games", "20",
                         "--strategy", "lookahead", "--rules", "kpat", "--node-limit", "2000", "--threads", "1")
    assert status == 0 and BOUND_ROW not in rows_of(out)


def test_bound_games_is_an_option_of_the_players_table(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, "table", "--games", "1", "--small", "--bound-games", "5")
    assert status == 2 and out == ""
    assert "argument --bound-games: only with --players" in err
