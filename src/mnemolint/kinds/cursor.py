"""Cursor's rule files: the `.mdc` files of `.cursor/rules/` (nested folders, and nested
`.cursor/rules` folders of subdirectories, too) and the legacy `.cursorrules` file.

Their frontmatter is Cursor's own format (`globs: *.tsx, src/**` unquoted), read line by line
(`editor_rules.read_fields`), never as YAML: no FM rule judges it. What each field means is
`agents/cursor.py`'s.
"""

from __future__ import annotations

from mnemolint.agents import cursor
from mnemolint.kinds.base import Kind
from mnemolint.kinds.editor_rules import rules_dir_type

CURSOR_RULES_DIR = rules_dir_type(
    "Cursor rules dir",
    cursor.RULES_HOME,
    "rules",
    "A Cursor rules dir is `.cursor/rules/`; its rules are its .mdc files, at any depth.",
)
CURSOR_RULE = Kind(
    "Cursor rule",
    container=CURSOR_RULES_DIR,
    matches=lambda rel: rel.endswith(cursor.RULE_EXTENSION),
    frontmatter=False,  # Cursor's own format, not YAML: read by editor_rules.read_fields
    frontmatter_fields=False,
    suppressions=True,
    reader=lambda document: cursor.AGENT,
    instructions=True,
)
CURSORRULES = Kind(
    "legacy .cursorrules",
    names=(cursor.LEGACY_FILE,),
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] == cursor.LEGACY_FILE,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=True,
    reader=lambda document: cursor.AGENT,
    instructions=True,
)
