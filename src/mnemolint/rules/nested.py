"""NST: nested instruction and memory files. `AGENTS.md` and `CLAUDE.md` side by side, which the
agents read differently (NST001), and the files the walk could not read (NST002), reported so
that the run goes on and nothing it skipped is skipped silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import AGENTS_MD, CLAUDE_MD, INSTRUCTION_FILE
from mnemolint.model import ERROR, WARNING, Hit
from mnemolint.options import MAX_FILE_BYTES
from mnemolint.parse.document import Document
from mnemolint.parse.imports import IMPORTED, imports
from mnemolint.readers import CLAUDE
from mnemolint.rules.base import EVERY_FILE, TREE, Family, rule


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
            if os.path.basename(folder) == CLAUDE.home:  # `.claude/CLAUDE.md` speaks for the folder above
                folder, name = os.path.dirname(folder), f"{CLAUDE.home}/{name}"
            by_folder.setdefault(folder, {})[name] = document
    for files in by_folder.values():
        agents = files.get(AGENTS_MD)
        claude = files.get(CLAUDE_MD) or files.get(f"{CLAUDE.home}/{CLAUDE_MD}")
        if agents is None or claude is None or not (agents.readable and claude.readable):
            continue
        if claude.text.strip() == agents.text.strip():  # type: ignore[union-attr]
            continue
        found = [each for each in imports(claude.text or "", os.path.dirname(claude.path)) if each.where == IMPORTED]
        if any(each.path == agents.path for each in found):
            continue
        astray = next((each.written for each in found if each.written.endswith(AGENTS_MD)), None)
        if astray:
            mentioned = (
                f" `@{astray}` resolves relative to this file, not to the `AGENTS.md` beside it, and Claude Code "
                "drops an import it cannot find silently."
            )
        elif AGENTS_MD in (claude.text or ""):
            mentioned = (
                " Naming or linking `AGENTS.md` is not importing it: Claude Code loads it only if the model "
                "decides to open it."
            )
        else:
            mentioned = ""
        yield Hit(
            "`AGENTS.md` sits beside this file: Wave reads `AGENTS.md` and ignores `CLAUDE.md` here, and Claude "
            "Code reads only `CLAUDE.md` (it never reads `AGENTS.md`), so the two agents get different "
            f"instructions.{mentioned} Keep one text: make this file `@AGENTS.md` (Claude Code then imports it), "
            "or make the two the same.",
            path=claude.path,
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
