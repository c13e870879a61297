"""Every deck a game is dealt from: the seeded decks of RNG.md (a layout's deck
shuffled by ``Rng``) and the numbered deals of KDE's kpat and of PySolFC
(docs/RULES.md R8).

A player stuck on kpat deal 1234 or PySolFC game 98765 names the deal by its
number; ``deck_from_kpat`` and ``deck_from_pysol`` give the deck that the program
deals for that number, in acesup's deal order (R1.3: pile 0 first). Both programs
put the shuffled list into their talon in list order and deal from its end, so
acesup's deck is the shuffled list reversed.

- kpat (src/shuffle.h) and PySolFC's game numbers 1-31999 use the Microsoft
  FreeCell generator on the list ``AC AD AH AS 2C … KS`` (rank by rank).
- PySolFC's numbers from 32000 up seed CPython's ``random.Random`` (MT19937) and
  shuffle the list of the suits clubs, spades, hearts, diamonds, each ace to king.

The reference uses CPython's own ``random.Random``: that is the definition the
native engine's MT19937 reproduces.
"""

from __future__ import annotations

import random

from ..arguments import int_arg, rules_arg
from .cards import ALL_CARDS, Card
from .rng import Rng, shuffle_slice
from .rules import Rules

__all__ = ["deck_from_seed", "deck_from_seed_and_stream", "deck_from_kpat", "deck_from_pysol", "kpat_arg", "pysol_arg",
           "KPAT_MAX", "PYSOL_MS_END", "PYSOL_MAX"]

KPAT_MAX = 2**31 - 1  # kpat clamps a deal number into 1..INT_MAX (src/dealer.cpp, startNew)
PYSOL_MS_END = 32000  # PySolFC: numbers below this use the Microsoft generator (pysolrandom.py)
PYSOL_MAX = 10**20  # PySolFC's MTRandom.MAX_SEED, the largest number it deals or counts up to


def deck_from_seed_and_stream(seed: int, rules: Rules | None = None) -> tuple[list[Card], Rng]:
    """The deck of ``Game.from_seed(seed, rules)`` and its strategy stream: the
    layout's deck (``rules.deck()``, in index order) shuffled with
    ``Rng(seed).below`` (D - 1 draws, 51 for the standard deck; RNG.md), and that
    generator just after the shuffle. The errors of ``deck_from_seed``, the seed's
    first."""
    rng = Rng(seed)
    return shuffle_slice(list(rules_arg(rules, Rules).deck()), rng.below), rng


def deck_from_seed(seed: int, rules: Rules | None = None) -> list[Card]:
    """The deck that ``Game.from_seed(seed, rules)`` deals, in deal order: the
    layout's deck shuffled with ``Rng(seed)``. Only the layout options (suits,
    ranks, ace_high) change it, and the standard deck is shuffled as it always was.

    ``ValueError`` unless seed is an int in [0, 2**64); ``TypeError`` for a non-int
    seed or rules that are not a Rules or None.
    """
    return deck_from_seed_and_stream(seed, rules)[0]


# acesup suit numbers (R1.1: c d h s) of the suit letters of the two programs.
_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}


def _card(suit_letter: str, rank: int) -> Card:
    """The card of a suit letter and a rank counted 1 (ace) to 13 (king), as both programs count."""
    return ALL_CARDS[13 * _SUIT[suit_letter] + (12 if rank == 1 else rank - 2)]


# kpat's deck before the shuffle: rank by rank, each in the suits C D H S
# (src/dealer.cpp, setDeckContents; src/libkcardgame/kcarddeck.cpp).
_MS_ORDER = tuple(_card(suit, rank) for rank in range(1, 14) for suit in "CDHS")
# PySolFC's deck before an MT shuffle: suit by suit in its suit order Club, Spade,
# Heart, Diamond (pysollib/util.py SUITS), each ace to king (Game.createCards).
_PYSOL_ORDER = tuple(_card(suit, rank) for suit in "CSHD" for rank in range(1, 14))


def _ms_shuffled(seed: int) -> list[Card]:
    """kpat's ``KpatShuffle::shuffled`` (src/shuffle.h): the Microsoft FreeCell LCG,
    one swap per position from the end of the list."""
    cards = list(_MS_ORDER)
    for i in range(len(cards), 1, -1):
        seed = (214013 * seed + 2531011) & 0xFFFFFFFF
        j = ((seed >> 16) & 0x7FFF) % i
        cards[i - 1], cards[j] = cards[j], cards[i - 1]
    return cards


def _mt_shuffled(seed: int) -> list[Card]:
    """PySolFC's MTRandom shuffle (pysol_cards random_base.RandomBase.shuffle and
    randint): ``random.Random(seed)``, then for k = 51 down to 1 swap k with
    ``int(random() * (k + 1))``."""
    rng = random.Random(seed)
    cards = list(_PYSOL_ORDER)
    for k in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (k + 1))
        cards[k], cards[j] = cards[j], cards[k]
    return cards


def deck_from_kpat(n: int) -> list[Card]:
    """The deck of kpat's Aces Up deal number ``n`` (1 to 2**31 - 1), in deal order.

    ``ValueError`` naming the range for a number outside it, ``TypeError`` for a
    non-int (kpat itself clamps such numbers into the range; acesup refuses them).
    """
    return _ms_shuffled(kpat_arg(n))[::-1]


def deck_from_pysol(n: int) -> list[Card]:
    """The deck of PySolFC's game number ``n`` (1 to 10**20) for Aces Up, Aces Up 5
    and Russian Aces, in deal order.

    1-31999 deal as kpat does (the Microsoft generator); from 32000 up the number
    seeds CPython's Mersenne Twister. ``ValueError`` naming the range for a number
    outside it, ``TypeError`` for a non-int.
    """
    n = pysol_arg(n)
    shuffled = _ms_shuffled(n) if n < PYSOL_MS_END else _mt_shuffled(n)
    return shuffled[::-1]


def kpat_arg(n: object) -> int:
    """``n`` as a kpat deal number, 1 to 2**31 - 1: ``ValueError`` naming the range
    outside it, ``TypeError`` for a non-int."""
    return int_arg(n, "a kpat deal number", 1, KPAT_MAX + 1)


def pysol_arg(n: object) -> int:
    """``n`` as a PySolFC game number, checked as ``kpat_arg`` checks for 1 to 10**20."""
    return int_arg(n, "a PySolFC game number", 1, PYSOL_MAX + 1)
