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
    """The page of `code`, and for a preview rule the note saying so, from its declaration."""
    directory = catalog_dir()
    if directory is None:
        return None
    try:
        with open(os.path.join(directory, f"{code}.md"), encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return None
    from mnemolint.rules import BY_CODE

    rule = BY_CODE.get(code)
    return with_note(text, preview_note(rule.preview)) if rule is not None and rule.preview else text


def preview_note(reason: str) -> str:
    """What a preview rule's page says first: that it is off by default, how to turn it on, and why."""
    return (
        "> **This rule is in preview:** it runs only with `--preview` (or `preview = true` in the "
        f"configuration), whatever `select` says. {reason}"
    )


def with_note(text: str, note: str) -> str:
    """`text` with `note` as the first paragraph under its `# ` title (at the top when it has none)."""
    head, title, rest = text.partition("\n# ")
    if not title:
        return f"{note}\n\n{text}"
    heading, _, after = rest.partition("\n")
    return f"{head}{title}{heading}\n\n{note}\n{after}"


def body(text: str) -> str:
    """A page without its frontmatter: what a reader of the page is shown."""
    from mnemolint.parse.frontmatter import after

    return after(text)[1]


def sections(text: str) -> dict[str, str]:
    """A page's `## Title` sections by title; a `## ` line inside a fenced code block is content.

    Plain string handling rather than a Markdown library: the pages follow one layout, which
    tests/test_catalog.py enforces, and the SARIF output must not pay a parser's import.
    """
    found: dict[str, str] = {}
    title: str | None = None
    lines: list[str] = []
    fence = ""
    for line in text.split("\n"):
        stripped = line.strip()
        if fence:
            if len(stripped) >= len(fence) and stripped == fence[0] * len(stripped):
                fence = ""
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
        elif line.startswith("## "):
            if title is not None:
                found[title] = "\n".join(lines).strip("\n")
            title, lines = line[3:].strip(), []
            continue
        lines.append(line)
    if title is not None:
        found[title] = "\n".join(lines).strip("\n")
    return found
