"""Cline as its open-source extension reads rules: the one place its facts live.

Read in cline/cline at 21cb8d2 (2026-08-22), `apps/vscode/src/core/context/instructions/
user-instructions/` (`frontmatter.ts`, `rule-conditionals.ts`, `rule-helpers.ts`) and
`apps/vscode/src/utils/fs.ts`, read 2026-12-02; and docs.cline.bot/features/cline-rules
(overview, conditional rules), read 2026-12-02. Not run here (it is a VS Code extension).
"""

from __future__ import annotations

from mnemolint.agents.base import SESSION, SOURCE, Agent, Instructions, Verified
from mnemolint.agents.cursor import AlsoReadsFallback

SOURCE_AT = "cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4"
DOCS_AT = "https://docs.cline.bot/features/cline-rules/conditional-rules"  # read 2026-12-02

HOME = ".clinerules"  # a file (the whole ruleset) or a folder of rule files, at the workspace root
# Left out of the folder: its `workflows/`, `hooks/` and `skills/` (cline-rules.ts). The docs say
# the folder's `.md` files are the rules.
NOT_RULES = ("workflows", "hooks", "skills")
# Frontmatter: js-yaml with the JSON schema; when it fails the whole file, frontmatter and all,
# is loaded for every request and `paths` is not applied (frontmatter.ts, rule-helpers.ts).
# `paths` must be a list of non-empty strings: anything else is ignored and the rule is loaded for
# every request; `paths: []` loads it for none. Each pattern is matched with picomatch
# `{dot: true}` against workspace-relative paths (no `matchBase`: `*.ts` is root files only); no
# file in the request's context, no match (rule-conditionals.ts). An empty file loads nothing.
KEYS = ("paths",)

# `AGENTS.md` of the workspace root is read beside `.clinerules` (docs.cline.bot, rules overview,
# read 2026-12-02; its search of subdirectories is not followed here).
AGENTS_NAMES = ("AGENTS.md",)
GLOB_STYLE = "minimatch"  # picomatch `{dot: true}`: minimatch's semantics (parse/globs.py)

FACTS: dict[str, tuple[str, ...]] = {name: () for name in ("HOME", "NOT_RULES", "KEYS", "AGENTS_NAMES", "GLOB_STYLE")}

AGENT = Agent(
    "cline",
    "Cline",
    None,
    verified=Verified(SOURCE, "21cb8d2", SOURCE_AT, "2026-12-02"),
    facts=FACTS,
    traces=(HOME,),
    instructions=Instructions((), fallback=AGENTS_NAMES, walk=SESSION, session=AlsoReadsFallback),
    frontmatter="yaml",  # js-yaml, strict
)
