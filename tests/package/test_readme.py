"""The README as a new user meets it: a front page that stays short, whose tour runs as
written, whose options table shows every option of RULES.md R5, and which names the
parts of the package a learning agent needs."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def first_column(table_heading: str, text: str) -> list[str]:
    """The first cells of the rows of the Markdown table whose header row starts with
    ``table_heading``, in order."""
    lines = text[text.index(f"| {table_heading} |"):].splitlines()
    rows = []
    for line in lines[2:]:  # the header and its rule
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    return rows


def test_the_readme_is_a_front_page_of_at_most_150_lines():
    assert len(README.splitlines()) <= 150


def test_the_options_table_shows_every_option_of_rules_r5():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    r5 = rules[rules.index("## R5."):rules.index("## R6.")]
    assert first_column("option", README) == first_column("option", r5)


def test_the_readme_names_batch_and_the_environments():
    for name in ("acesup.Batch(", "acesup.gym", "acesup.openspiel", 'gymnasium.make("acesup/AcesUp-v0")'):
        assert name in README, name


def test_the_readme_links_the_notebooks_and_the_performance_page():
    for path in ("examples/first_hour.ipynb", "docs/PERFORMANCE.md"):
        assert f"]({path})" in README and (ROOT / path).is_file(), path


def test_the_tour_runs_as_written(tmp_path):
    tour = re.search(r"```python\n(.*?)```", README, re.S)[1]
    done = subprocess.run([sys.executable, "-c", tour], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "winnable" in done.stdout and "greedy" in done.stdout
