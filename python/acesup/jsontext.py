"""The JSON text of Stats (docs/API.md, "JSON"), shared by both engines, so that
``Stats.to_json()`` writes the same text in each and either engine's
``Stats.from_json`` reads what the other wrote. ``acesup.compare`` builds the
JSON of a Comparison on the documents made here, and ``acesup simulate --json``
prints a Stats document with the run's figures added.

A document is a JSON object: ``"format": "acesup.stats/1"``, the figures
(``games``, ``wins``, ``losses``, ``win_rate``, ``ci95``, ``mean_score``; null
for a figure that is nan), ``histogram``, ``scores`` (the per-game scores as
base64 of their bytes, or null), and the origin (``strategy``, ``rules``,
``seed``, each null when unknown). Reading takes the histogram, the scores and
the origin, checks that the figures given agree with them (a figure left out is
not checked) and ignores other keys (the run's figures that the command line
adds). This module imports nothing of the package but its argument checks.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from typing import Any, TypeVar

__all__ = ["STATS_FORMAT", "document", "dumps", "finite", "loads", "stats_document", "stats_from_document"]

STATS_FORMAT = "acesup.stats/1"
"""The ``format`` of a Stats document; its number changes when the document does."""

FIGURES = ("games", "wins", "losses", "win_rate", "ci95", "mean_score")
"""The figures a Stats document holds beside its histogram, derived from it."""

S = TypeVar("S")


def finite(value: float) -> float | None:
    """A float for JSON, which has no nan: None stands for "no games"."""
    return None if math.isnan(value) else value


def stats_document(stats: Any) -> dict[str, Any]:
    """The document of ``stats`` (a Stats of either engine), as a dict in the key
    order that the text keeps."""
    scores = stats.scores
    return {
        "format": STATS_FORMAT,
        "games": stats.games, "wins": stats.wins, "losses": stats.losses,
        "win_rate": finite(stats.win_rate), "ci95": list(stats.ci95), "mean_score": finite(stats.mean_score),
        "histogram": list(stats.histogram),
        "scores": None if scores is None else base64.b64encode(scores.tobytes()).decode("ascii"),
        "strategy": stats.strategy, "rules": stats.rules, "seed": stats.seed,
    }


def dumps(value: dict[str, Any]) -> str:
    """The JSON text of a document: one line, keys in their order, floats as
    ``repr`` writes them (so that they read back exactly)."""
    return json.dumps(value, allow_nan=False)


def loads(text: object, format: str) -> dict[str, Any]:
    """The document of the JSON ``text``, which must be an object of ``format``:
    ``TypeError`` when ``text`` is not a str (or bytes), ``ValueError`` naming the
    problem for text that is not JSON or not such a document."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json() takes the JSON text, a str, got {type(text).__name__}")
    try:
        value = json.loads(text)
    except ValueError as err:  # JSONDecodeError, or bytes that are not UTF-8
        raise ValueError(f"not JSON: {err}") from None
    return document(value, format, "the JSON text")


def document(value: object, format: str, where: str) -> dict[str, Any]:
    """``value`` (``where`` names it in messages) as a document of ``format``:
    ``ValueError`` unless it is a JSON object with that ``"format"``."""
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a JSON object, got {_json_type(value)}")
    if value.get("format") != format:
        raise ValueError(f"{where} must have \"format\": {json.dumps(format)}, "
                         f"got {json.dumps(value.get('format'))}")
    return value


def stats_from_document(cls: type[S], value: dict[str, Any], where: str = "the JSON text") -> S:
    """The Stats (of class ``cls``, either engine's) that the document ``value``
    holds; ``ValueError`` naming what is wrong, ``where`` naming the document."""
    scores = value.get("scores")
    if scores is not None:
        if not isinstance(scores, str):
            raise ValueError(f"scores of {where} must be base64 text or null, got {_json_type(scores)}")
        try:
            scores = base64.b64decode(scores, validate=True)
        except (binascii.Error, ValueError) as err:
            raise ValueError(f"scores of {where} are not base64: {err}") from None
    fields = {name: value.get(name) for name in ("strategy", "rules", "seed")}
    if "histogram" not in value:
        raise ValueError(f"{where} has no histogram")
    if not isinstance(value["histogram"], list):
        raise ValueError(f"histogram of {where} must be a list of counts, got {_json_type(value['histogram'])}")
    try:
        stats = cls(value["histogram"], scores, **fields)  # type: ignore[call-arg]
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where} does not hold Stats: {err}") from None
    written = stats_document(stats)
    for figure in FIGURES:
        if figure in value and value[figure] != written[figure]:
            raise ValueError(f"{figure} of {where} is {json.dumps(value[figure])}, but its histogram gives "
                             f"{json.dumps(written[figure])}")
    return stats


def _json_type(value: object) -> str:
    """What JSON calls the type of a value that ``json.loads`` made."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
