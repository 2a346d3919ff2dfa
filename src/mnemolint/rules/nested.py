"""NST: nested instruction and memory files. `AGENTS.md` and `CLAUDE.md` side by side, which the
agents read differently (NST001), and the files the walk could not read or an agent skips for
their size (NST002), reported so that the run goes on and nothing skipped is skipped silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents import CLAUDE_CODE
from mnemolint.agents.claude_code import MAX_BYTES, VERSION
from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import AGENTS_MD, CLAUDE_MD, DOT_CLAUDE_MD, INSTRUCTION_FILE, placed
from mnemolint.model import ERROR, WARNING, Hit
from mnemolint.options import MAX_FILE_BYTES
from mnemolint.parse.document import Document
from mnemolint.parse.imports import IMPORTED, IN_CODE, IN_COMMENT, imports
from mnemolint.rules.base import EVERY_FILE, TREE, Family, rule


@rule(
    "NST001",
    "claude-md-shadowed",
    WARNING,
    reads=TREE,
    needs=(INSTRUCTION_FILE,),
    reads_members=False,
    summary="`AGENTS.md` and `CLAUDE.md` in one folder: Wave reads only the first, Claude Code only the second.",
)
def claude_md_shadowed(tree: Tree, options: dict) -> Iterator[Hit]:
    by_folder: dict[str, dict[str, Document]] = {}
    for document in tree.documents:
        if document.kind is INSTRUCTION_FILE:
            folder, name = placed(document.path)
            by_folder.setdefault(folder, {})[name] = document
    for files in by_folder.values():
        agents = files.get(AGENTS_MD)
        claudes = [files[name] for name in (CLAUDE_MD, DOT_CLAUDE_MD) if name in files]
        if agents is None or not claudes or not agents.readable or not all(doc.readable for doc in claudes):
            continue
        verdicts = [_import_of(claude, agents.path) for claude in claudes]
        if any(claude.text.strip() == agents.text.strip() for claude in claudes) or (IMPORTED, "") in verdicts:  # type: ignore[union-attr]
            continue
        claude, (verdict, written) = claudes[0], verdicts[0]
        why = _WHY_NOT.get(verdict or "", "").format(written=written)
        yield Hit(
            "`AGENTS.md` sits beside this file: Wave reads `AGENTS.md` and ignores `CLAUDE.md` here, and Claude "
            f"Code {VERSION} reads only `CLAUDE.md` (it loads `AGENTS.md` only where no `CLAUDE.md` loads at all), "
            f"so the two agents get different instructions.{why} Keep one text: make this file `@AGENTS.md` "
            "(Claude Code then imports it), or make the two the same.",
            path=claude.path,
        )


_WHY_NOT = {
    IN_CODE: " Its `@{written}` is inside code or an HTML comment, where Claude Code imports nothing.",
    "elsewhere": " `@{written}` resolves relative to this file, not to the `AGENTS.md` beside it, and Claude "
    "Code drops an import it cannot find silently.",
    "named": " Naming or linking `AGENTS.md` is not importing it: Claude Code loads it only if the model decides "
    "to open it.",
}


def _import_of(document: Document, target: str) -> tuple[str | None, str]:
    """How `document` (a `CLAUDE.md`) refers to `target`, its imports found and resolved as Claude
    Code does (parse/imports.py): IMPORTED, IN_CODE (in code or an HTML comment, so not imported),
    "elsewhere" (an `@…AGENTS.md` that leads to another file), "named" (mentioned only), or None;
    with the import as written."""
    text = document.text or ""
    if AGENTS_MD not in text:
        return None, ""
    found: tuple[str | None, str] = ("named", "")
    for each in imports(text, os.path.dirname(document.path)):
        if not each.written.endswith(AGENTS_MD):
            continue
        if each.path == target:
            if each.where == IMPORTED:
                return IMPORTED, ""
            found = (IN_CODE, each.written)
        elif found[0] == "named" and each.where != IN_COMMENT:
            found = ("elsewhere", each.written)
    return found


@rule(
    "NST002",
    "memory-file-unreadable",
    ERROR,
    reads=EVERY_FILE,
    summary="A memory file (or a directory holding memory) that cannot be read.",
    options=(MAX_FILE_BYTES,),
    cacheable=True,
)
def memory_file_unreadable(document: Document, options: dict) -> Iterator[Hit]:
    if document.unlisted:
        yield Hit(f"Cannot read this path ({document.read_error}): memory files in it were not checked.")
    elif document.too_large or (_claude_reads(document) and document.size > MAX_BYTES):
        yield Hit(_too_large(document, options["max-file-bytes"]))
    elif document.text is None and document.read_error:
        yield Hit(
            f"Cannot read this memory file ({document.read_error}): it was skipped, and the agent "
            "cannot load it either."
        )


def _too_large(document: Document, limit: int) -> str:
    """What a file over `max-file-bytes` costs: for an instruction file Claude Code reads, what the
    client does with it at that size (it skips a file over `MAX_BYTES` whole, without a word)."""
    read = (
        f"File is {document.size:,} bytes, over max-file-bytes ({limit:,}): it was not read, so only its size was "
        "checked."
    )
    if not _claude_reads(document):
        return read
    if document.size > MAX_BYTES:
        return (
            f"File is {document.size:,} bytes, over the {MAX_BYTES:,} Claude Code {VERSION} reads: it skips this file "
            "whole, without a word, so none of it loads (where no other `CLAUDE.md` loads, `AGENTS.md` then does). "
            f"{'mnemolint did not read it either. ' if document.too_large else ''}Split it, or move detail into "
            "files the agent reads on demand."
        )
    return f"{read} Claude Code loads it (it reads up to {MAX_BYTES:,} bytes)."


def _claude_reads(document: Document) -> bool:
    return document.kind is INSTRUCTION_FILE and document.reader is CLAUDE_CODE


FAMILY = Family(
    "NST",
    "nested instruction files",
    "instruction-files",
    (claude_md_shadowed, memory_file_unreadable),
    cites=("Claude Code", "Wave"),
)
