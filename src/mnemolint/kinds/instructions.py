"""Instruction files: `AGENTS.md`, `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md`, in
every folder of the project.

They live in no container: each is recognised by its name, wherever it is. Wave reads
`AGENTS.md`, falling back to `CLAUDE.md` only when there is none (nested folders the same way);
Claude Code reads `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` of every folder from the
file system's root down to the session folder, and `AGENTS.md` and `.claude/AGENTS.md` only where
none of those loads (`ClaudeSession`, from the facts in agents/claude_code.py); Codex reads
`AGENTS.md`, or `AGENTS.override.md` where there is one, in each folder from the git root down
(`codex_chain`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from mnemolint.agents import claude_code
from mnemolint.kinds.base import Kind
from mnemolint.parse.document import Document
from mnemolint.paths import inside, sensitive_place, upwards
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
    # Claude Code's personal file of a folder, meant for no one else's clone: ignored by git, loaded.
    gitignored=lambda rel: rel.rpartition("/")[2] == CLAUDE_LOCAL_MD,
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


class ClaudeSession:
    """What Claude Code loads as instructions for a session started in `folder`: the files of
    each folder from the file system's root (left out) down to `folder` at the start (`start`),
    and of each folder below it when the agent reads a file there (`nested`); `AGENTS.md` files
    in place of the `CLAUDE.md` ones when none of those loads (`falls_back`). `known` are the
    documents a walk found (read here otherwise: a file above the linted root)."""

    __slots__ = ("folder", "known", "options", "falls_back", "_loads")

    def __init__(self, folder: str, known: dict[str, Document], options: dict) -> None:
        self.folder = folder
        self.known = known
        self.options = options
        self._loads: dict[str, bool] = {}
        above = list(reversed(list(upwards(folder))))[1:]  # the file system's root is left out
        self.falls_back = not any(
            self.loads(os.path.join(place, *name.split("/"))) for place in above for name in claude_code.BLOCKS_FALLBACK
        )

    def loads(self, path: str) -> bool:
        """Whether Claude Code loads the file at `path` when it comes to it: a file with text, of at
        most `MAX_BYTES` (an empty one, or a larger one, loads nothing, without a word)."""
        if path not in self._loads:
            document = self.known.get(path)
            if document is None and os.path.islink(path) and sensitive_place(os.path.realpath(path)):
                self._loads[path] = False  # a link to a credential or system file is never read
            else:
                self._loads[path] = _has_text(document or Document(path, INSTRUCTION_FILE, self.options))
        return self._loads[path]

    def files_of(self, place: str, nested: bool = False) -> list[str]:
        """The instruction files Claude Code loads from folder `place`, in its order, its rules
        dir left out (it loads between `.claude/CLAUDE.md` and `CLAUDE.local.md`)."""
        names = [*claude_code.PROJECT_NAMES, claude_code.LOCAL_NAME]
        found = [path for name in names if self.loads(path := os.path.join(place, *name.split("/")))]
        if self.falls_back and not (nested and found):
            found += [
                path for name in claude_code.FALLBACK_NAMES if self.loads(path := os.path.join(place, *name.split("/")))
            ]
        return found

    def start(self) -> list[str]:
        """The files loaded at the start, outermost folder first."""
        above = list(reversed(list(upwards(self.folder))))[1:]
        return [path for place in above for path in self.files_of(place)]

    def nested(self, target: str) -> list[str]:
        """The files loaded when the agent reads `target`: those of each folder strictly below the
        session folder down to `target`'s own, outermost first; none for a file outside it."""
        folder = os.path.dirname(os.path.abspath(target))
        if folder == self.folder or not inside(folder, self.folder):
            return []
        parts = os.path.relpath(folder, self.folder).split(os.sep)
        places = [os.path.join(self.folder, *parts[: count + 1]) for count in range(len(parts))]
        return [path for place in places for path in self.files_of(place, nested=True)]


def _has_text(document: Document) -> bool:
    """Whether a file Claude Code comes to loads: it has text and is at most `MAX_BYTES` (one
    over `max-file-bytes` but within it is taken to have text: it is not read here)."""
    if document.too_large:
        return document.size <= claude_code.MAX_BYTES
    return bool(document.text and document.text.strip())


def claude_loads(folder: str, known: dict[str, Document], options: dict) -> Callable[[Document], bool]:
    """For a session in `folder`: whether Claude Code loads an `AGENTS.md` document (at the start
    or on a touch below `folder`), which it does only where it falls back to them."""
    session = ClaudeSession(folder, known, options)

    def loads(document: Document) -> bool:
        place, name = placed(document.path)
        if not session.falls_back or name not in claude_code.FALLBACK_NAMES or not session.loads(document.path):
            return False
        if not inside(place, folder):
            return True
        return place == folder or not any(
            session.loads(os.path.join(place, *other.split("/"))) for other in claude_code.BLOCKS_FALLBACK
        )

    return loads
