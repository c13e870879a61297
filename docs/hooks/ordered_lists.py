"""An mkdocs hook (mkdocs.yml): ordered lists start at the number the page gives, as on GitHub.

Python-Markdown numbers every ordered list from 1 unless told otherwise, and the list
extensions of mkdocs.yml keep that default; RULES.md R7 numbers its checks from 0, and
API.md cites "R7 check 0". This hook adds, after those extensions, one that makes the
ordered-list processor keep a list's first number.
"""

from __future__ import annotations

from typing import Any

from markdown import Extension, Markdown


class StartNumbers(Extension):
    """Makes the registered ordered-list processor honour a list's first number."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.parser.blockprocessors["olist"].LAZY_OL = False


def on_config(config: Any, **kwargs: Any) -> Any:
    config.markdown_extensions.append(StartNumbers())
    return config
