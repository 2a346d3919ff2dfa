"""Instruction files: `AGENTS.md`, `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md`, in
every folder of the project.

They live in no container: each is recognised by its name, wherever it is. Wave reads
`AGENTS.md`, falling back to `CLAUDE.md` only when there is none (memory.ts:177-212; nested
folders the same way, nestedMemory.ts:15-73); Claude Code reads `CLAUDE.md`, `.claude/CLAUDE.md`
and `CLAUDE.local.md`, never `AGENTS.md` (claudemd.ts:878-933); Codex reads `AGENTS.md`, or
`AGENTS.override.md` where there is one, in each folder from the git root down (`codex_chain`).
"""

from __future__ import annotations

import os

from mnemolint.kinds.base import Kind
from mnemolint.parse.document import Document
from mnemolint.paths import upwards
from mnemolint.readers import CLAUDE, CODEX, WAVE, Reader

AGENTS_MD = "AGENTS.md"
AGENTS_OVERRIDE_MD = "AGENTS.override.md"  # Codex's local override: it wins over `AGENTS.md`
CLAUDE_MD = "CLAUDE.md"
CLAUDE_LOCAL_MD = "CLAUDE.local.md"
NAMES = (AGENTS_MD, AGENTS_OVERRIDE_MD, CLAUDE_MD, CLAUDE_LOCAL_MD)
CODEX_NAMES = (AGENTS_OVERRIDE_MD, AGENTS_MD)  # the first one present in a folder is read


DOT_CLAUDE_MD = f"{CLAUDE.home}/{CLAUDE_MD}"  # read by Claude Code as the folder's own CLAUDE.md


def placed(path: str) -> tuple[str, str]:
    """The folder an instruction file speaks for, and its name there: `.claude/CLAUDE.md` speaks for
    the folder above `.claude` (claudemd.ts:878-933), as `DOT_CLAUDE_MD`."""
    folder, name = os.path.split(path)
    if os.path.basename(folder) == CLAUDE.home:
        return os.path.dirname(folder), f"{CLAUDE.home}/{name}"
    return folder, name


def _companions(path: str) -> list[str]:
    """The other instruction files of the folder it speaks for."""
    folder = placed(path)[0]
    paths = [os.path.join(folder, *name.split("/")) for name in (*NAMES, DOT_CLAUDE_MD)]
    return [other for other in paths if other != path and os.path.isfile(other)]


def _reader(document: Document) -> Reader:
    if document.path.endswith(AGENTS_OVERRIDE_MD):
        return CODEX
    return WAVE if document.path.endswith(AGENTS_MD) else CLAUDE


INSTRUCTION_FILE = Kind(
    "instruction file",
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] in NAMES,
    frontmatter=False,  # loaded as they are: no agent takes fields from them
    frontmatter_fields=False,
    suppressions=True,
    reader=_reader,
    companions=_companions,
    instructions=True,
)


def codex_chain(folder: str, known: dict[str, Document], options: dict) -> list[Document]:
    """The files Codex reads for a session in `folder`, root first (project_doc.rs
    `discover_project_doc_paths`, openai/codex@0bd53e4): one per folder from the nearest folder
    holding `.git` (a directory or a file) down to `folder`, `AGENTS.override.md` before
    `AGENTS.md`; only `folder` itself outside a git repository. `known` are the documents the
    walk found; a file above the linted root is read here."""
    chain: list[str] = []
    root = None
    for directory in upwards(folder):
        chain.append(directory)
        if os.path.lexists(os.path.join(directory, ".git")):
            root = directory
            break
    chain = list(reversed(chain)) if root is not None else [folder]
    found = []
    for directory in chain:
        for name in CODEX_NAMES:
            path = os.path.join(directory, name)
            if path in known or os.path.isfile(path) or os.path.islink(path):
                found.append(known.get(path) or Document(path, INSTRUCTION_FILE, options))
                break
    return found
