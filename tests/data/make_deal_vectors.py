"""Regenerate tests/data/deal_vectors.json: the decks of kpat and PySolFC deal
numbers, and outputs of CPython's Mersenne Twister (docs/RULES.md R8).

    python tests/data/make_deal_vectors.py      (needs pysol_cards: pip install pysol_cards)

Nothing here uses acesup. The decks come from pysol_cards' own generators driven
the way PySolFC's game drives them (tests/rules/test_deals.py explains that order), the
MT19937 outputs from CPython's ``random.Random``. tests/rules/test_deals.py checks the
"kpat" and "freecell" entries against the vectors printed in kpat's and
pysol_cards' own tests; both engines' tests (pytest and cargo) read this file.

Each vector sits on one line so that the cargo test reads it with a field scanner
rather than a JSON parser. Decks are acesup card texts in deal order (pile 0 first).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

OUT = Path(__file__).resolve().parent / "deal_vectors.json"

# kpat's autotests/shuffle_test.cpp: the shuffled list (before the deal) of seeds 1 and 24.
KPAT_TESTS = {
    1: "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS 5C 4C 3C AH "
       "AS JS QD 9D KS 2S 3H KH QC AD 5S 9S KC KD 5H 7C 7H 5D JC 9H 2D JD",
    24: "AS 3D QD 2H 9D JD 7C 8D 6D KS 4H 4S 8S 8H KC TD JH 3S 3H QS 4D AD TS TC 5C 9H AC 8C 7D 6S "
        "KH TH JC 6H 3C 9C 6C 5S JS KD 2S 9S QH 2C 7S AH 7H 2D 5D QC 5H 4C",
}

# pysol_cards' code/tests/test_pysol_cards.py: FreeCell layouts (one line per column,
# dealt round-robin over 8 columns from the reversed shuffled list).
FREECELL_TESTS = {
    24: ("ms", ["4C 2C 9C 8C QS 4S 2H", "5H QH 3C AC 3H 4H QD", "QC 9S 6H 9H 3S KS 3D",
                "5D 2S JC 5C JH 6D AS", "2D KD TH TC TD 8D", "7H JS KH TS KC 7C",
                "AH 5S 6S AD 8H JD", "7S 6C 7D 4D 8S 9D"]),
    300000000000: ("pysolfc", ["4S KD 6H 2D QC 4D AH", "QS 7S 5C AS KC 6S 8H", "TH JC 9S 2C 3D 4H 7D",
                               "5S 4C 8D 7C JD 8C JS", "QH TS AC KS TC 5H", "6C 9D 9H 2H JH 3C",
                               "9C 2S 8S 3H 6D QD", "KH 3S TD 5D 7H AD"]),
}

PYSOL_NUMBERS = [1, 2, 24, 100, 11982, 31999, 32000, 32001, 100000, 123456789, 2**31 - 1, 2**31,
                 2**32 - 1, 2**32, 2**32 + 1, 300000000000, 10**16, 2**53 + 1, 2**64 - 1, 2**64,
                 10**20 - 1, 10**20]

MT_SEEDS = [0, 1, 12345, 32000, 2**32 - 1, 2**32, 2**64 + 7, 10**20, 2**200 + 3]


def acesup_text(card) -> str:
    """A pysol_cards card as acesup text: rank 1-13 (ace low) and suit 0-3 in C S H D."""
    return "A23456789TJQK"[card.rank - 1] + "cshd"[card.suit]


KPAT_NUMBERS = [1, 24, 617, 11982, 32000, 1234567, 2**31 - 1]


def deck_text(rng, cards) -> str:
    """The cards shuffled by a pysol_cards generator, reversed into acesup's deal order."""
    rng.shuffle(cards)
    return " ".join(acesup_text(c) for c in reversed(cards))


def kpat_deck(n: int) -> str:
    """kpat's deck of deal n: pysol_cards' Microsoft generator, which below 2**31 is
    kpat's, on the Microsoft order (ms_rearrange)."""
    return deck_text(LCRandom31(n), ms_rearrange(createCards(1)))


def pysol_deck(n: int) -> str:
    """PySolFC's Aces Up deck for game number n (pysollib/pysolrandom.py
    construct_random, pysollib/game/__init__.py Game.shuffle)."""
    if n < 32000:
        return kpat_deck(n)
    return deck_text(MTRandom(n), createCards(1))


def words(n: int) -> list[int]:
    """n as CPython's init_by_array key: 32-bit words, least significant first (0 is one word)."""
    out = []
    while True:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return out


def mt_vector(seed: int) -> dict:
    r = random.Random(seed)
    u32 = [r.getrandbits(32) for _ in range(1001)]
    r = random.Random(seed)
    return {"seed": str(seed), "words": words(seed), "u32": u32[:3], "u32_1000": u32[1000],
            "random": [r.random() for _ in range(3)]}


def main() -> None:
    sections = {
        "kpat": [{"n": n, **({"shuffled": KPAT_TESTS[n]} if n in KPAT_TESTS else {}), "deck": kpat_deck(n)}
                 for n in KPAT_NUMBERS],
        "freecell": [{"n": n, "which": which, "columns": cols, "deck": pysol_deck(n)}
                     for n, (which, cols) in FREECELL_TESTS.items()],
        "pysol": [{"n": str(n), "deck": pysol_deck(n)} for n in PYSOL_NUMBERS],
        "mt19937": [mt_vector(seed) for seed in MT_SEEDS],
    }
    about = {
        "source": "tests/data/make_deal_vectors.py: pysol_cards' generators as PySolFC drives them, "
                  "CPython's random.Random; kpat and freecell entries quote kpat's and pysol_cards' tests",
        "deck": "acesup card texts in deal order: pile 0, 1, 2, 3 first (the shuffled list reversed)",
        "n": "the deal number; a decimal string where it may exceed 2**53",
        "mt19937": "seed, its init_by_array key (words, least significant first), the first 3 "
                   "getrandbits(32), the output at index 1000, and the first 3 random() of random.Random(seed)",
    }
    lines = ["{", f' "about": {json.dumps(about)},']
    for i, (name, items) in enumerate(sections.items()):
        lines.append(f' "{name}": [')
        lines += [f"  {json.dumps(item)}" + ("," if k < len(items) - 1 else "") for k, item in enumerate(items)]
        lines.append(" ]" + ("," if i < len(sections) - 1 else ""))
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
