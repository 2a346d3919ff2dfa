"""Cursor as its public documentation describes it: the one place its facts live.

Cursor's reader is not open source and does not run here, so every fact below is taken from its
documentation or from its users' own files in public repositories, each with the address and the
date it was read (2026-12-02). Where the documentation leaves a reading open, the rules that need
it read it the widest way (a glob is dead only when no reading of it matches a file) or take an
option, rather than guess.
"""

from __future__ import annotations

import os

from mnemolint.agents.base import DOCS, ON_TOUCH, SESSION, Agent, Instructions, Session, Verified

DOCS_AT = "https://cursor.com/docs/rules"  # read 2026-12-02

# Project rules are `.mdc` files in `.cursor/rules/` (subfolders and nested `.cursor/rules`
# folders of subdirectories too); a plain `.md` file there is ignored by the rules system.
# (cursor.com/docs/rules, read 2026-12-02)
RULES_HOME = ".cursor"
RULE_EXTENSION = ".mdc"
# The legacy single file at the project root, still read but deprecated in favour of
# `.cursor/rules` (cursor.com/docs/rules; cursor.com/help/customization/rules.md, read 2026-12-02).
LEGACY_FILE = ".cursorrules"

# Frontmatter: `description`, `globs`, `alwaysApply`. Their combination gives the four kinds of
# rule (cursor.com/docs/rules and cursor.com/help/customization/rules.md, read 2026-12-02):
ALWAYS = "always"  # `alwaysApply: true`: in every chat; globs and description are ignored
AUTO_ATTACHED = "auto-attached"  # `globs`: when a matching file is in the context
AGENT_REQUESTED = "agent-requested"  # `description` only: the agent reads it when it judges it relevant
MANUAL = "manual"  # none of them: only when a person @-mentions the rule
KINDS_OF_RULE = (ALWAYS, AUTO_ATTACHED, AGENT_REQUESTED, MANUAL)
# `globs` is written unquoted and comma-separated (`globs: *.tsx, src/**`), the way Cursor's own
# rule editor writes it: Cursor's format, not YAML (Cursor's own rule-writing guides in public
# repositories say so, e.g. rawr-ai/mcp-filesystem `.cursor/rules/creating-cursor-rules.mdc`,
# StuMason/coolify-mcp `.cursor/rules/000-cursor-rules.mdc`, read 2026-12-02).
KEYS = ("description", "globs", "alwaysApply")
# Cursor's documentation advises keeping a rule under 500 lines and splitting a larger one
# (cursor.com/docs/rules best practices, quoted in TanStack/router#6935, read 2026-12-02).
ADVISED_MAX_LINES = 500

# `AGENTS.md` is the plain alternative to `.cursor/rules`, in the project root and in
# subdirectories, applied for the files below it (cursor.com/docs/rules, read 2026-12-02).
AGENTS_NAMES = ("AGENTS.md",)

FACTS: dict[str, tuple[str, ...]] = {
    name: () for name in ("RULES_HOME", "RULE_EXTENSION", "LEGACY_FILE", "KINDS_OF_RULE", "KEYS", "ADVISED_MAX_LINES")
}


class AlsoReadsFallback(Session):
    """A session that reads the instruction files an agent takes from other agents (`fallback`:
    `AGENTS.md`) in every folder it walks, beside its own rules folders."""

    def files_of(self, place: str, nested: bool = False) -> list[str]:
        names = self.instructions.every_name
        return [path for name in names if self.probe.loads(path := os.path.join(place, *name.split("/")))]


AGENT = Agent(
    "cursor",
    "Cursor",
    RULES_HOME,
    verified=Verified(DOCS, "read 2026-12-02", DOCS_AT, "2026-12-02"),
    facts=FACTS,
    traces=(f"{RULES_HOME}/rules/", LEGACY_FILE),
    instructions=Instructions((), fallback=AGENTS_NAMES, walk=SESSION, below=ON_TOUCH, session=AlsoReadsFallback),
    frontmatter="own lines",  # its own format: `globs: *.tsx, src/**` unquoted (kinds/editor_rules.read_fields)
)


def kind_of_rule(always: bool | None, has_globs: bool, has_description: bool) -> str:
    """Which of the four kinds a rule is, from what its frontmatter gives."""
    if always:
        return ALWAYS
    if has_globs:
        return AUTO_ATTACHED
    return AGENT_REQUESTED if has_description else MANUAL
