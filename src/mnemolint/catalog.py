"""The rule pages (`rules-catalog/CODE.md`), found in an installed wheel or a source checkout."""

from __future__ import annotations

import os

from mnemolint import __version__

REPOSITORY = "https://github.com/mnemolint/mnemolint"


def rule_url(code: str) -> str:
    """Help URL pinned to this release, so a finding links the page of the rule that made it."""
    return f"{REPOSITORY}/blob/v{__version__}/rules-catalog/{code}.md"


def catalog_dir() -> str | None:
    """The wheel ships the pages as `mnemolint/catalog`; a checkout has them at the top level."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "catalog"), os.path.join(here, os.pardir, os.pardir, "rules-catalog")):
        if os.path.isdir(candidate):
            return os.path.normpath(candidate)
    return None


def page(code: str) -> str | None:
    directory = catalog_dir()
    if directory is None:
        return None
    try:
        with open(os.path.join(directory, f"{code}.md"), encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None
