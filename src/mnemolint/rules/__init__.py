"""The rule registry: one explicit, ordered tuple of families. A rule's code is its public, stable name.

The order of `FAMILIES`, and of the rules in each, is the public order of `mnemolint rules`, the
README table and SARIF's `rules[]`. Everything else is derived: a new family is one module
ending in `FAMILY = Family(...)` plus one line here.
"""

from __future__ import annotations

from mnemolint.options import SHARED, Option
from mnemolint.precision import preview_reason
from mnemolint.rules import (
    ai_memory,
    citations,
    claude,
    cline,
    codex,
    copilot,
    cursor,
    frontmatter,
    gemini,
    gitignore,
    index,
    links,
    nested,
    opencode,
    secrets,
    suppression,
    text,
    topic,
    wave,
    windsurf,
)
from mnemolint.rules.base import Family, Rule

FAMILIES: tuple[Family, ...] = (
    index.FAMILY,
    topic.FAMILY,
    frontmatter.FAMILY,
    text.FAMILY,
    wave.FAMILY,
    nested.FAMILY,
    claude.FAMILY,
    codex.FAMILY,
    gemini.FAMILY,
    opencode.FAMILY,
    links.FAMILY,
    secrets.FAMILY,
    ai_memory.FAMILY,
    gitignore.FAMILY,
    citations.FAMILY,
    suppression.FAMILY,
    cursor.FAMILY,
    copilot.FAMILY,
    windsurf.FAMILY,
    cline.FAMILY,
)

RULES: tuple[Rule, ...] = tuple(rule for family in FAMILIES for rule in family.rules)
for _rule in RULES:  # a rule is on by default only when measured so (precision.py)
    _rule.preview = _rule.preview or preview_reason(_rule.code)
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
PREVIEW: frozenset[str] = frozenset(rule.code for rule in RULES if rule.preview)  # on only in preview mode
FAMILY_OF: dict[str, Family] = {rule.code: family for family in FAMILIES for rule in family.rules}
# Every configurable threshold: the families' own, then the core ones the parse layer reads.
OPTIONS: dict[str, Option] = {
    option.name: option for option in (*(option for family in FAMILIES for option in family.options), *SHARED)
}
