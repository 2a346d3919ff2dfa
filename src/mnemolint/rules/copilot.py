"""CPL0xx: GitHub Copilot's instruction files (`.github/copilot-instructions.md`,
`.github/instructions/**/*.instructions.md`), read the way the Copilot CLI 1.0.102 reads them
(verified on the running client, agents/copilot.py) and as GitHub's documentation says VS Code
and the coding agent read them.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.agents import copilot
from mnemolint.kinds.copilot import COPILOT_INSTRUCTIONS_DIR, PATH_INSTRUCTIONS
from mnemolint.kinds.editor_rules import (
    ToolRulesDir,
    dead_glob_hits,
    empty_body,
    fields_of,
    pattern_lines,
)
from mnemolint.model import WARNING, Hit
from mnemolint.parse.document import Document
from mnemolint.rules.base import ON_MEMBERS, Family, rule

_PREVIEW = "held-out: 1 finding (CPL002, true) on the corpus's 2 Copilot instruction files, fewer than 5 to judge"


def apply_to(document: Document) -> list[str]:
    """The `applyTo` patterns the CLI lists for the model; none when it loads the file whole
    (no `applyTo`, an empty one, or only `*`, `**`, `**/*`)."""
    patterns = fields_of(document).patterns("applyTo")
    return [] if all(pattern in copilot.ALWAYS_PATTERNS for pattern in patterns) else patterns


def _patterns(document: Document) -> list[tuple[str, int | None]]:
    fields = fields_of(document)
    return pattern_lines(document, fields, "applyTo", apply_to(document))


@rule(
    "CPL001",
    "copilot-applyto-unmatched",
    WARNING,
    reads=COPILOT_INSTRUCTIONS_DIR,
    reports_on=ON_MEMBERS,
    summary="An `applyTo` glob of a Copilot instructions file matches no file of the project.",
    preview=_PREVIEW,
)
def copilot_applyto_unmatched(container: ToolRulesDir, options: dict) -> Iterator[Hit]:
    yield from dead_glob_hits(
        container,
        _patterns,
        options,
        "Copilot never applies these instructions through it (the Copilot CLI still lists it to the model as "
        "where they apply)",
        noun="file",
    )


@rule(
    "CPL002",
    "copilot-instructions-no-applyto",
    WARNING,
    reads=(PATH_INSTRUCTIONS,),
    summary="A `.instructions.md` file without `applyTo`: VS Code never applies it by itself, the Copilot CLI "
    "loads it in every session.",
    preview=_PREVIEW,
)
def copilot_instructions_no_applyto(document: Document, options: dict) -> Iterator[Hit]:
    fields = fields_of(document)
    if not document.readable or fields.patterns("applyTo") or not (document.text or "").strip():
        return
    present = "applyTo" in fields.values
    said = "`applyTo` is empty" if present else "This file has no `applyTo`"
    yield Hit(
        f"{said}: per its documentation VS Code applies it only when someone attaches it to a chat by hand, "
        f"while the Copilot CLI {copilot.VERSION} loads all of it into every session. Give it `applyTo` with the "
        'globs it is for, or `applyTo: "**"` if it is meant for every file.',
        line=fields.lines.get("applyTo") or (1 if fields.close else None),
    )


@rule(
    "CPL003",
    "copilot-instructions-empty",
    WARNING,
    reads=(PATH_INSTRUCTIONS,),
    summary="A `.instructions.md` file with no text after its frontmatter.",
    cacheable=True,
    preview=_PREVIEW,
)
def copilot_instructions_empty(document: Document, options: dict) -> Iterator[Hit]:
    yield from empty_body(document, "Copilot gets no instructions from it")


FAMILY = Family(
    "CPL",
    "GitHub Copilot instructions",
    "copilot-instructions",
    (copilot_applyto_unmatched, copilot_instructions_no_applyto, copilot_instructions_empty),
    precision={"CPL001": "high", "CPL002": "high"},
    cites=("Copilot",),
)
