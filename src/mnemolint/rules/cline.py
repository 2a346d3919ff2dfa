"""CLN0xx: Cline's rules (`.clinerules`, a file or a folder), read as Cline's extension reads them:
strict YAML frontmatter, `paths` applied only when it is a list of non-empty strings, each
pattern matched with picomatch against workspace-relative paths (agents/cline.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.kinds.cline import CLINE_RULE, CLINE_RULES_DIR, CLINERULES_FILE
from mnemolint.kinds.editor_rules import MAX_PATTERNS, ToolRulesDir, dead_globs, pattern_lines, read_fields, short
from mnemolint.kinds.tool_rules import applied_paths, exact
from mnemolint.model import WARNING, Hit
from mnemolint.parse.document import Document
from mnemolint.rules.base import ON_MEMBERS, Family, rule

_PREVIEW = "held-out: 0 findings on the corpus's 1 Cline rule file, fewer than 5 to judge"


def paths_value(document: Document) -> tuple[bool, object]:
    """Whether the YAML frontmatter has `paths`, and its value (Cline's js-yaml reading)."""
    data = document.frontmatter.data
    if not isinstance(data, dict) or "paths" not in data:
        return False, None
    return True, data["paths"]


def _patterns(document: Document) -> list[tuple[str, int | None]]:
    patterns = (applied_paths(document) or [])[:MAX_PATTERNS]
    return pattern_lines(document, read_fields(document.text or ""), "paths", patterns)


@rule(
    "CLN001",
    "cline-glob-unmatched",
    WARNING,
    reads=CLINE_RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="A `paths` glob of a Cline rule matches no file of the workspace: the rule is never loaded through it.",
    preview=_PREVIEW,
)
def cline_glob_unmatched(container: ToolRulesDir, options: dict) -> Iterator[Hit]:
    for document, pattern, line in dead_globs(container, _patterns, exact, options):
        root_only = "/" not in pattern and not pattern.startswith("**")
        hint = f" Without `matchBase` it names root files only: write `**/{pattern}`." if root_only else ""
        yield Hit(
            f"`{short(pattern)}` matches no file of the workspace, so Cline never loads this rule through it.{hint} "
            "Fix the pattern, or delete the rule if what it was for is gone.",
            path=document.path,
            line=line,
        )


@rule(
    "CLN002",
    "cline-paths-ignored",
    WARNING,
    reads=(CLINE_RULE, CLINERULES_FILE),
    summary="Cline's `paths` is not a list of non-empty strings: Cline ignores it and loads the rule every time.",
    preview=_PREVIEW,
)
def cline_paths_ignored(document: Document, options: dict) -> Iterator[Hit]:
    present, value = paths_value(document)
    if not present or applied_paths(document) is not None or value == []:
        return
    shape = "a string" if isinstance(value, str) else "empty" if value is None else "not a list of non-empty strings"
    advice = f' (`- "{short(value, 40)}"`)' if isinstance(value, str) and value else ""
    yield Hit(
        f"`paths` is {shape}: Cline applies `paths` only when it is a list of non-empty strings, so it ignores this "
        f"one and loads the rule into every request. Write a block list of quoted globs{advice}.",
        line=document.frontmatter.key_line("paths"),
    )


@rule(
    "CLN003",
    "cline-paths-empty",
    WARNING,
    reads=(CLINE_RULE, CLINERULES_FILE),
    summary="Cline's `paths` is an empty list: Cline never loads the rule.",
    preview=_PREVIEW,
)
def cline_paths_empty(document: Document, options: dict) -> Iterator[Hit]:
    if applied_paths(document) == [] or paths_value(document) == (True, []):
        yield Hit(
            "`paths` is an empty list: Cline matches such a rule against nothing and never loads it. List the globs "
            "it is for, or remove `paths` to load it for every request.",
            line=document.frontmatter.key_line("paths"),
        )


FAMILY = Family(
    "CLN",
    "Cline rules",
    "cline-rules",
    (cline_glob_unmatched, cline_paths_ignored, cline_paths_empty),
    precision={"CLN001": "high"},
    cites=("Cline",),
)
