"""Regenerate tests/data/golden.json: recorded playthroughs of the random strategy.

    python tests/data/make_golden.py

One game for every combination of the four rule options (24), plus the first won
game of the random strategy under the standard and the reverse rules. Game k is
``Game.from_seed(game_seed(MASTER, k), rules)``, so ``simulate(1, seed=MASTER,
start=k, rules=rules)`` plays it too. The moves are chosen as docs/RNG.md describes
the random strategy: the first legal discard if any, else ``moves[game.randbelow(len(moves))]``.

Uses the reference engine. Only rerun it after a deliberate change to the rules or
the generator, and review the diff: tests/rules/test_golden.py holds both engines to it.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import acesup.reference as ref
except ImportError:  # running from a source checkout without installing
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    import acesup.reference as ref

MASTER = 20240601
OPTIONS = [
    dict(fill=f, deal=d, relocate_single=r, ace_high=a)
    for f, d, r, a in itertools.product(("top", "ace", "any"), ("free", "stuck"), (False, True), (True, False))
]


def play_random(game):
    moves = []
    while True:
        legal = game.legal_moves()
        if not legal:
            return moves
        discards = [m for m in legal if m.kind == "discard"]
        move = discards[0] if discards else legal[game.randbelow(len(legal))]
        game.play(move)
        moves.append(str(move))


def record(index, rules):
    seed = ref.game_seed(MASTER, index)
    game = ref.Game.from_seed(seed, rules)
    start = game.to_str()
    moves = play_random(game)
    return {
        "master": MASTER,
        "index": index,
        "seed": seed,
        "rules": str(rules),
        "start": start,
        "moves": moves,
        "final": game.to_str(),
        "score": game.score,
        "won": game.is_won,
    }


def main():
    games = [record(k, ref.Rules(**opts)) for k, opts in enumerate(OPTIONS)]
    for rules in (ref.Rules.standard(), ref.Rules.reverse()):
        k = len(OPTIONS)
        while True:
            entry = record(k, rules)
            if entry["won"]:
                games.append(entry)
                break
            k += 1
    out = {
        "about": {
            "what": "recorded playthroughs of the random strategy (docs/RNG.md), one per rule combination "
            "plus the first won game under the standard and the reverse rules; written by "
            "tests/data/make_golden.py with the reference engine",
            "games": "list of {master, index, seed, rules, start, moves, final, score, won}: "
            "seed = game_seed(master, index); Game.from_seed(seed, Rules.parse(rules)) has to_str() == start; "
            "playing moves (R6.3 text) in order, each legal, ends over in the position final (R6.5) with "
            "that score and is_won == won",
        },
        "games": games,
    }
    path = HERE / "golden.json"
    # One line per game keeps the file short and its diffs readable.
    text = '{\n "about": ' + json.dumps(out["about"], indent=2) + ',\n "games": [\n'
    text += ",\n".join("  " + json.dumps(g) for g in games) + "\n ]\n}\n"
    assert json.loads(text) == out
    path.write_text(text, encoding="utf-8")
    print(f"wrote {len(games)} games to {path}")


if __name__ == "__main__":
    main()
