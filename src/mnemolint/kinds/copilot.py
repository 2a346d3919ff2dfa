"""GitHub Copilot's path-specific instruction files: the `*.instructions.md` files of
`.github/instructions/` (at any depth), with `applyTo` and `excludeAgent` in their frontmatter.
(`.github/copilot-instructions.md` is an instruction file by its name, as the agents' own files
are: `agents/copilot.py` names it, `kinds/instructions.py` claims it.)

The Copilot CLI reads that frontmatter loosely (`applyTo: **/*.ts` unquoted is its glob, a
repeated key keeps its first value): it is read line by line here (`editor_rules.read_fields`),
never judged as YAML. What it means is `agents/copilot.py`'s.
"""

from __future__ import annotations

from mnemolint.agents import copilot
from mnemolint.kinds.base import Kind
from mnemolint.kinds.editor_rules import rules_dir_type

_HOME, _LEAF = copilot.INSTRUCTIONS_DIR.split("/")

COPILOT_INSTRUCTIONS_DIR = rules_dir_type(
    "Copilot instructions dir",
    _HOME,
    _LEAF,
    "A Copilot instructions dir is `.github/instructions/`; its files are its *.instructions.md files, at any depth.",
)
PATH_INSTRUCTIONS = Kind(
    "Copilot instructions file",
    container=COPILOT_INSTRUCTIONS_DIR,
    matches=lambda rel: rel.endswith(copilot.SUFFIX),
    frontmatter=False,  # read loosely, as the CLI reads it
    frontmatter_fields=False,
    suppressions=True,
    reader=lambda document: copilot.AGENT,
    instructions=True,
)
