"""Windsurf's workspace rules: the `.md` files of `.windsurf/rules/`, with `trigger`, `globs` and
`description` in their frontmatter, written unquoted the way Windsurf's editor writes them
(`globs: *.md`) and read line by line (`editor_rules.read_fields`). What they mean, and the
character limits, are `agents/windsurf.py`'s.
"""

from __future__ import annotations

from mnemolint.agents import windsurf
from mnemolint.kinds.base import Kind
from mnemolint.kinds.editor_rules import rules_dir_type

WINDSURF_RULES_DIR = rules_dir_type(
    "Windsurf rules dir",
    windsurf.RULES_HOME,
    "rules",
    "A Windsurf rules dir is `.windsurf/rules/`; its rules are the .md files in it.",
)
WINDSURF_RULE = Kind(
    "Windsurf rule",
    container=WINDSURF_RULES_DIR,
    matches=lambda rel: rel.endswith(".md") and "/" not in rel,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=True,
    reader=lambda document: windsurf.AGENT,
    instructions=True,
)
