"""Cline as its open-source extension reads rules: the one place its facts live.

Read in cline/cline at 21cb8d2 (2026-08-22), `apps/vscode/src/core/context/instructions/
user-instructions/` (`frontmatter.ts`, `rule-conditionals.ts`, `rule-helpers.ts`) and
`apps/vscode/src/utils/fs.ts`, read 2026-12-02; and docs.cline.bot/features/cline-rules
(overview, conditional rules), read 2026-12-02. Not run here (it is a VS Code extension).
"""

from __future__ import annotations

from mnemolint.readers import Reader

VERIFIED = "source"  # read in the extension's source, not run
SOURCE = "https://github.com/cline/cline"  # at 21cb8d2
DOCS = "https://docs.cline.bot/features/cline-rules/conditional-rules"  # read 2026-12-02

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

READER = Reader("cline", "Cline", HOME, reads_metadata_block=False, glob_style="minimatch")
