"""The kind registry: every container type and every kind of file mnemolint lints, in one place.

Discovery asks `CONTAINERS` which directories are containers and `kind_of` what each file is;
a file no kind claims is not linted. Adding a kind is one module in `kinds/` (its `Kind`, and its
`ContainerType` when it has a new one) plus one entry below; see docs/architecture.md.
"""

from __future__ import annotations

from mnemolint.kinds import (
    ai_memory,
    cline,
    copilot,
    cursor,
    gemini,
    gitignore,
    instructions,
    memory,
    opencode,
    rules,
    windsurf,
)
from mnemolint.kinds.base import ContainerType, Kind

CONTAINERS: tuple[ContainerType, ...] = (
    memory.MEMORY_DIR,
    rules.RULES_DIR,
    ai_memory.AI_MEMORY_DIR,
    cursor.CURSOR_RULES_DIR,
    copilot.COPILOT_INSTRUCTIONS_DIR,
    windsurf.WINDSURF_RULES_DIR,
    cline.CLINE_RULES_DIR,
)
KINDS: tuple[Kind, ...] = (
    memory.INDEX,
    memory.TOPIC,
    rules.RULE_FILE,
    instructions.INSTRUCTION_FILE,
    *ai_memory.KINDS,
    gitignore.GITIGNORE,
    *gemini.KINDS,
    cursor.CURSOR_RULE,
    cursor.CURSORRULES,
    copilot.PATH_INSTRUCTIONS,
    windsurf.WINDSURF_RULE,
    cline.CLINE_RULE,
    cline.CLINERULES_FILE,
    opencode.OPENCODE_CONFIG,
)
WITH_FRONTMATTER = tuple(kind for kind in KINDS if kind.frontmatter)
TAKING_FRONTMATTER = tuple(kind for kind in KINDS if kind.frontmatter_fields)


def kind_of(rel: str, container_type: ContainerType | None) -> Kind | None:
    """The kind of a file at `rel` (POSIX, relative to its container, or to the root when it is in
    none), or None when no kind claims it. The first kind in `KINDS` that matches wins."""
    for kind in KINDS:
        if kind.container is container_type and kind.matches(rel):
            return kind
    return None
