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
from mnemolint.readers import CLAUDE
from mnemolint.rules.base import EVERY_FILE, TREE, Family, rule

# An `@path` import as Claude Code finds it: `@` at the start of a line or after a space
# (claudemd.ts:18-25); the path ends at whitespace, a `#fragment` is stripped.
_IMPORT = re.compile(r"(?:^|\s)@([^\s#]+)")


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
        claudes = [files[name] for name in (CLAUDE_MD, f"{CLAUDE.home}/{CLAUDE_MD}") if name in files]
        if agents is None or not claudes or not agents.readable or not all(doc.readable for doc in claudes):
            continue
        verdicts = [_import_of(claude, agents.path) for claude in claudes]
        if any(claude.text.strip() == agents.text.strip() for claude in claudes) or (IMPORTED, "") in verdicts:  # type: ignore[union-attr]
            continue
        claude, (verdict, written) = claudes[0], verdicts[0]
        why = _WHY_NOT.get(verdict or "", "").format(written=written)
        yield Hit(
            "`AGENTS.md` sits beside this file: Wave reads `AGENTS.md` and ignores `CLAUDE.md` here, and Claude "
            "Code reads only `CLAUDE.md` (it never reads `AGENTS.md`), so the two agents get different "
            f"instructions.{why} Keep one text: make this file `@AGENTS.md` (Claude Code "
            "then imports it), or make the two the same.",
            path=claude.path,
        )


IMPORTED = "imported"
_WHY_NOT = {
    "in code": " Its `@{written}` is inside code or an HTML comment, where Claude Code imports nothing.",
    "elsewhere": " `@{written}` resolves relative to this file, not to the `AGENTS.md` beside it, and Claude "
    "Code drops an import it cannot find silently.",
    "named": " Naming or linking `AGENTS.md` is not importing it: Claude Code loads it only if the model decides "
    "to open it.",
}
_COMMENT = re.compile(r"<!--.*?-->")


def _import_of(document: Document, target: str) -> tuple[str | None, str]:
    """How `document` (a `CLAUDE.md`) refers to `target`, resolved as Claude Code resolves an
    `@path` (relative to the importing file, `@~/` from home, `@/` absolute; not inside code, a
    code span or an HTML comment, claudemd.ts:459-533): IMPORTED, "in code", "elsewhere" (an
    `@…AGENTS.md` that leads to another file), "named" (mentioned only), or None; with the
    import as written."""
    text = document.text or ""
    if AGENTS_MD not in text:
        return None, ""
    folder = os.path.dirname(document.path)
    code: set[int] | None = None
    found: tuple[str | None, str] = ("named", "")
    for number, line in enumerate(document.lines, start=1):
        for match in _IMPORT.finditer(line):
            written = match.group(1)
            if not written.endswith(AGENTS_MD):
                continue
            path = os.path.expanduser(written) if written.startswith("~/") else os.path.join(folder, written)
            if os.path.normpath(path) != target:
                found = ("elsewhere", written) if found[0] == "named" else found
                continue
            if code is None:
                from mnemolint.parse.markdown import code_lines

                code = code_lines(text) or set()
            bare = _COMMENT.sub(" ", line)
            if number in code or f"`{match.group(0).strip()}`" in line or match.group(0).strip() not in bare:
                found = ("in code", written)
            else:
                return IMPORTED, ""
    return found


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
