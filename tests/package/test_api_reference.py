"""The site's API reference (docs/reference/, rendered by mkdocstrings) shows every public name
of both engines: a name added to an engine's ``__all__`` must be added to a reference page
too, where the strict build of .ci/run then checks that it resolves."""

from __future__ import annotations

import re

import pytest

import acesup
import acesup.reference
from helpers import ROOT

PAGES = sorted((ROOT / "docs" / "reference").glob("*.md"))


def documented_names() -> set[str]:
    """The names the reference pages show: the targets of their ``:::`` blocks (with every
    name of ``__all__`` for a whole module), the items of their ``members:`` lists, and
    the names of their own headings (`` ## `compare` ``)."""
    names: set[str] = set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"(?m)^::: (\S+)$", text):
            names.add(target.rsplit(".", 1)[-1])
            if target == "acesup.errors":
                names.update(acesup.errors.__all__)
        names.update(re.findall(r"(?m)^ {8}- (\w+)$", text))
        names.update(re.findall(r"(?m)^#+ `(\w+)`$", text))
    return names


def test_the_reference_pages_show_every_public_name_of_both_engines():
    missing = (set(acesup.__all__) | set(acesup.reference.__all__)) - documented_names()
    assert not missing, f"not in docs/reference/: {sorted(missing)}"


def test_every_listed_member_is_a_name_the_site_can_show():
    """mkdocstrings skips a listed member that is not there, and a name that is also a
    submodule's (``acesup.compare``, ``acesup.reference.simulate``) resolves to the module,
    which it does not show: both would leave a name out of the site without a warning."""
    griffe = pytest.importorskip("griffe")  # the docs extra, which .ci/run installs
    package = griffe.load("acesup")
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target, options in re.findall(r"(?m)^::: acesup(\S*)\n((?: {4}.*\n)*)", text):
            module = package[target.lstrip(".")] if target else package
            for name in re.findall(r"(?m)^ {8}- (\w+)$", options):
                assert name in module.members, f"{page.name}: {name} is not in acesup{target}"
                member = module.members[name]
                assert not (member.final_target if member.is_alias else member).is_module, \
                    f"{page.name}: acesup{target}.{name} is a module there: show it from where it is defined"


def test_the_site_s_navigation_has_every_reference_page():
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        assert f"reference/{page.name}" in mkdocs, page.name
