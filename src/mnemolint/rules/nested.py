"""NST: nested instruction and memory files. `AGENTS.md` and `CLAUDE.md` side by side, which the
agents read differently (NST001), and the files the walk could not read (NST002), reported so
that the run goes on and nothing it skipped is skipped silently.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import AGENTS_MD, CLAUDE_MD, INSTRUCTION_FILE
from mnemolint.model import ERROR, WARNING, Hit
from mnemolint.options import MAX_FILE_BYTES
from mnemolint.parse.document import Document
from mnemolint.rules.base import EVERY_FILE, TREE, Family, rule

# `@AGENTS.md` / `@./AGENTS.md` as Claude Code imports it: `@` at the start or after a space.
_IMPORTS_AGENTS = re.compile(r"(?:^|\s)@(?:\./)?AGENTS\.md(?=$|[\s#])", re.M)


@rule(
    "NST001",
    "claude-md-shadowed",
    WARNING,
    reads=TREE,
    summary="`AGENTS.md` and `CLAUDE.md` in one folder: Wave reads only the first, Claude Code only the second.",
)
def claude_md_shadowed(tree: Tree, options: dict) -> Iterator[Hit]:
    by_folder: dict[str, dict[str, Document]] = {}
    for document in tree.documents:
        if document.kind is INSTRUCTION_FILE:
            folder, name = os.path.split(document.path)
            by_folder.setdefault(folder, {})[name] = document
    for files in by_folder.values():
        agents, claude = files.get(AGENTS_MD), files.get(CLAUDE_MD)
        if agents is None or claude is None or not (agents.readable and claude.readable):
            continue
        if claude.text.strip() == agents.text.strip() or _imports_agents(claude):  # type: ignore[union-attr]
            continue
        yield Hit(
            "`AGENTS.md` sits beside this file: Wave reads `AGENTS.md` and ignores `CLAUDE.md` here, and Claude "
            "Code reads only `CLAUDE.md` (it never reads `AGENTS.md`), so the two agents get different "
            "instructions. Keep one text: make this file `@AGENTS.md` (Claude Code then imports it), or make "
            "the two the same.",
            path=claude.path,
        )


def _imports_agents(document: Document) -> bool:
    """Whether `CLAUDE.md` imports the `AGENTS.md` beside it outside code (CLD005's concern)."""
    text = document.text or ""
    if "@" not in text or not _IMPORTS_AGENTS.search(text):
        return False
    from mnemolint.parse.markdown import code_lines

    code = code_lines(text) or set()
    return any(
        _IMPORTS_AGENTS.search(line) and number not in code for number, line in enumerate(document.lines, start=1)
    )


@rule(
    "NST002",
    "memory-file-unreadable",
    ERROR,
    reads=EVERY_FILE,
    summary="A memory file (or a directory holding memory) that cannot be read.",
    options=(MAX_FILE_BYTES,),
)
def memory_file_unreadable(document: Document, options: dict) -> Iterator[Hit]:
    if document.unlisted:
        yield Hit(f"Cannot read this path ({document.read_error}): memory files in it were not checked.")
    elif document.too_large:
        yield Hit(
            f"File is {document.size:,} bytes, over max-file-bytes ({options['max-file-bytes']:,}): "
            "it was not read, so only its size was checked."
        )
    elif document.text is None and document.read_error:
        yield Hit(
            f"Cannot read this memory file ({document.read_error}): it was skipped, and the agent "
            "cannot load it either."
        )


FAMILY = Family(
    "NST",
    "nested instruction files",
    "instruction-files",
    (claude_md_shadowed, memory_file_unreadable),
    cites=("seed", "SPEC"),
)
