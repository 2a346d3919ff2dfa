"""Cline's rules: `.clinerules` at the workspace root, a file (the whole ruleset) or a folder of
rule files (its `workflows/`, `hooks/` and `skills/` left out), with `paths` in their
frontmatter.

Cline reads frontmatter with js-yaml, strictly: invalid YAML is FM001's finding, and what it costs
is said here (`unread_frontmatter`). What `paths` does is `agents/cline.py`'s.
"""

from __future__ import annotations

from mnemolint.agents import cline
from mnemolint.kinds.base import Kind
from mnemolint.kinds.editor_rules import rules_dir_type

_UNREAD = (
    "Cline then applies no `paths` and loads the whole file, frontmatter included, into every request: "
    'quote each glob (`- "src/**"`)'
)

CLINE_RULES_DIR = rules_dir_type(
    "Cline rules dir",
    cline.HOME,
    "",
    "A Cline rules dir is `.clinerules/`; its rules are its .md files, at any depth, less workflows, hooks and skills.",
)
# How both of Cline's kinds are read: strict YAML frontmatter whose `paths` it acts on.
_READ = {
    "frontmatter": True,
    "frontmatter_fields": True,
    "suppressions": True,
    "unread_frontmatter": _UNREAD,
    "fields": "`paths`, so the rule is loaded for every request",
    "keys": cline.KEYS,
    "reader": lambda document: cline.AGENT,
    "instructions": True,
}
CLINE_RULE = Kind(
    "Cline rule",
    container=CLINE_RULES_DIR,
    matches=lambda rel: rel.endswith(".md") and rel.split("/", 1)[0] not in cline.NOT_RULES,
    **_READ,  # type: ignore[arg-type]
)
CLINERULES_FILE = Kind(
    "Cline .clinerules file",
    names=(cline.HOME,),
    container=None,
    matches=lambda rel: rel == cline.HOME,
    **_READ,  # type: ignore[arg-type]
)
