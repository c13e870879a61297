"""The notebooks of examples/ are committed as sources: no outputs, no execution counts.

.ci/run executes every one of them (nbmake); what they print and draw belongs to that run,
not to the repository, where outputs would make every diff noisy and could go stale.
"""

from __future__ import annotations

import json

import pytest

from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))


def test_the_first_notebook_is_there():
    assert ROOT / "examples" / "first_hour.ipynb" in NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_a_notebook_is_committed_without_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code, f"{path.name} has no code cell"
    for number, cell in enumerate(code):
        assert cell["outputs"] == [], f"{path.name}: code cell {number} has outputs"
        assert cell["execution_count"] is None, f"{path.name}: code cell {number} has an execution count"
    assert "widgets" not in notebook["metadata"], f"{path.name} keeps widget state"
