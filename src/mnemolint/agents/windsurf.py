"""Windsurf (Cascade) as its public documentation describes it: the one place its facts live.

Windsurf's reader is not open source and does not run here: every fact is from its documentation,
with the address and the date read (2026-12-02). Its limits are options
(`windsurf-max-rule-chars`, `windsurf-max-total-chars`) since its pages have given other figures
over time.
"""

from __future__ import annotations

from mnemolint.agents.base import DOCS, ON_TOUCH, SESSION, Agent, Instructions, Verified
from mnemolint.agents.cursor import AlsoReadsFallback

DOCS_AT = "https://docs.windsurf.com/windsurf/cascade/memories"  # read 2026-12-02
PLUGIN_DOCS = "https://docs.windsurf.com/plugins/cascade/memories"  # read 2026-12-02

RULES_HOME = ".windsurf"  # workspace rules: `.windsurf/rules/*.md`, in sub-directories of the workspace too
LEGACY_FILE = ".windsurfrules"
# Each rule's activation is its `trigger`; `glob` takes `globs`, `model_decision` a `description`.
TRIGGERS = ("always_on", "model_decision", "glob", "manual")
ALWAYS_ON = "always_on"
GLOB = "glob"
KEYS = ("trigger", "globs", "description")
# "Rules files are limited to 6000 characters each": content past it is cut and Cascade never
# sees it; when global and workspace rules together pass 12,000 characters, global rules come
# first, then workspace rules, and the rest is cut (both pages above, read 2026-12-02).
MAX_RULE_CHARS = 6_000
MAX_TOTAL_CHARS = 12_000

# `AGENTS.md`: the root one always on, one in a subdirectory for the files below it (DOCS_AT).
AGENTS_NAMES = ("AGENTS.md",)

FACTS: dict[str, tuple[str, ...]] = {
    name: () for name in ("RULES_HOME", "LEGACY_FILE", "TRIGGERS", "KEYS", "MAX_RULE_CHARS", "MAX_TOTAL_CHARS")
}

AGENT = Agent(
    "windsurf",
    "Windsurf",
    RULES_HOME,
    verified=Verified(DOCS, "read 2026-12-02", DOCS_AT, "2026-12-02"),
    facts=FACTS,
    traces=(f"{RULES_HOME}/rules/", LEGACY_FILE),
    instructions=Instructions((), fallback=AGENTS_NAMES, walk=SESSION, below=ON_TOUCH, session=AlsoReadsFallback),
    frontmatter="own lines",  # `globs: *.md` unquoted, as its editor writes it
)
