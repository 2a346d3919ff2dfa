"""Instruction files: `AGENTS.md`, `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md`, in
every folder of the project (SPEC §1, §5; READERS.md §4, B).

They live in no container: each is recognised by its name, wherever it is. Wave reads
`AGENTS.md`, falling back to `CLAUDE.md` only when there is none (memory.ts:177-212; nested
folders the same way, nestedMemory.ts:15-73); Claude Code reads `CLAUDE.md`, `.claude/CLAUDE.md`
and `CLAUDE.local.md`, never `AGENTS.md` (claudemd.ts:878-933); Codex reads `AGENTS.md`.
"""

from __future__ import annotations

from mnemolint.kinds.base import Kind
from mnemolint.parse.document import Document
from mnemolint.readers import CLAUDE, WAVE, Reader

AGENTS_MD = "AGENTS.md"
CLAUDE_MD = "CLAUDE.md"
CLAUDE_LOCAL_MD = "CLAUDE.local.md"
NAMES = (AGENTS_MD, CLAUDE_MD, CLAUDE_LOCAL_MD)


def _reader(document: Document) -> Reader:
    return WAVE if document.path.endswith(AGENTS_MD) else CLAUDE


INSTRUCTION_FILE = Kind(
    "instruction file",
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] in NAMES,
    frontmatter=False,  # loaded as they are: no agent takes fields from them
    frontmatter_fields=False,
    suppressions=True,
    reader=_reader,
    instructions=True,
)
