"""Instruction files: every file an agent reads as instructions (`AGENTS.md`, `CLAUDE.md`,
`CLAUDE.local.md`, `.claude/CLAUDE.md`, `AGENTS.override.md`, …: the names in the agents' profiles),
in every folder of the project.

They live in no container: each is recognised by its name, wherever it is, and is written for the
agent the registry names for it (`agents.reader_of`). Which of them a session loads, and in which
order, is each agent's `Session` (agents/base.py; Claude Code's `ClaudeSession`), walked here over
the files: `session` gives it a `Probe` that reads through `Document`, never through a dangerous
link; `codex_chain` and `claude_loads` are what the CDX and CLD rules ask of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import islice

from mnemolint.agents import CLAUDE_CODE, CODEX, instruction_names, instruction_paths, reader_of
from mnemolint.agents.base import SKIPS_WHOLE, Agent
from mnemolint.agents.claude_code import BLOCKS_FALLBACK, FALLBACK_NAMES, LOCAL_NAME
from mnemolint.kinds.base import Kind
from mnemolint.parse.document import Document
from mnemolint.paths import inside, sensitive_place

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Session

AGENTS_MD = "AGENTS.md"
AGENTS_OVERRIDE_MD = "AGENTS.override.md"  # Codex's local override: it wins over `AGENTS.md`
CLAUDE_MD = "CLAUDE.md"
NAMES = instruction_names()  # every agent's file names
PLACES = instruction_paths()  # and the names as they stand in a folder (`.claude/CLAUDE.md` too)
LISTING_MAX = 10_000  # entries of one folder a probe lists (a session walk's globs)
DOT_CLAUDE_MD = f"{CLAUDE_CODE.home}/{CLAUDE_MD}"  # read by Claude Code as the folder's own CLAUDE.md


def placed(path: str) -> tuple[str, str]:
    """The folder an instruction file speaks for, and its name there: a file an agent reads from a
    folder inside the one it speaks for (`.claude/CLAUDE.md`: claudemd.ts:878-933) speaks for the
    folder above it."""
    folder, name = os.path.split(path)
    inner = f"{os.path.basename(folder)}/{name}"
    if inner in PLACES:
        return os.path.dirname(folder), inner
    return folder, name


def _companions(path: str) -> list[str]:
    """The other instruction files of the folder it speaks for."""
    folder = placed(path)[0]
    paths = [os.path.join(folder, *name.split("/")) for name in PLACES]
    return [other for other in paths if other != path and os.path.isfile(other)]


def _reader(document: Document) -> Agent:
    return reader_of(os.path.basename(document.path))


INSTRUCTION_FILE = Kind(
    "instruction file",
    names=NAMES,
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] in NAMES,
    frontmatter=False,  # loaded as they are: no agent takes fields from them
    frontmatter_fields=False,
    suppressions=True,
    reader=_reader,
    companions=_companions,
    instructions=True,
    # Claude Code's personal file of a folder, meant for no one else's clone: ignored by git, loaded.
    gitignored=lambda rel: rel.rpartition("/")[2] == LOCAL_NAME,
)


class _Probe:
    """What a session walk asks of the files (agents/base.Probe), each file read once through
    `Document` (a `known` one, found by the walk, not again): a link to a credential or system
    file is never read, and counts as no file. `exists` counts a link, so that a file mnemolint
    does not read through is still shown where the agent would take it."""

    __slots__ = ("agent", "known", "options", "_loads")

    def __init__(self, agent: Agent, known: dict[str, Document], options: dict) -> None:
        self.agent = agent
        self.known = known
        self.options = options
        self._loads: dict[str, bool] = {}

    def exists(self, path: str) -> bool:
        return path in self.known or os.path.isfile(path) or os.path.islink(path)

    def document(self, path: str) -> Document:
        return self.known.get(path) or Document(path, INSTRUCTION_FILE, self.options)

    def loads(self, path: str) -> bool:
        if path not in self._loads:
            if path not in self.known and _dangerous(path):
                self._loads[path] = False  # a link to a credential or system file is never read
            else:
                self._loads[path] = self._has_text(self.document(path))
        return self._loads[path]

    def text(self, path: str) -> str | None:
        """The file's text as mnemolint reads it (bounded, never through a link to a credential or
        system file): None for no file, or one not read (too large, not text)."""
        if not self.exists(path) or (path not in self.known and _dangerous(path)):
            return None
        return self.document(path).text

    def listing(self, folder: str) -> list[tuple[str, bool]]:
        """(name, is a folder) of each entry of `folder`, sorted, links never followed (a linked
        folder is no folder here); at most `LISTING_MAX` entries, none for no folder."""
        try:
            with os.scandir(folder) as entries:
                found = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in islice(entries, LISTING_MAX)]
        except OSError:
            return []
        return sorted(found)

    def _has_text(self, document: Document) -> bool:
        """It has text, and is within the agent's cap when the agent skips a larger file whole (one
        over `max-file-bytes` but within that cap is taken to have text: it is not read here)."""
        instructions = self.agent.instructions
        if document.too_large:
            cap = instructions.max_bytes if instructions is not None and instructions.cut == SKIPS_WHOLE else None
            return cap is None or document.size <= cap
        return bool(document.text and document.text.strip())


def _dangerous(path: str) -> bool:
    return os.path.islink(path) and sensitive_place(os.path.realpath(path)) is not None


def session(agent: Agent, folder: str, known: dict[str, Document], options: dict) -> Session:
    """`agent`'s instruction-file walk for a session in `folder` (agents/base.Session), over the
    files: `known` are the documents a walk found; any other is read here (a file above the
    linted root)."""
    return agent.session(folder, _Probe(agent, known, options))


def documents(found: Session, paths: list[str]) -> list[Document]:
    """The documents of the files a session walk named (read once, through its probe)."""
    probe = found.probe
    assert isinstance(probe, _Probe)
    return [probe.document(path) for path in paths]


def codex_chain(folder: str, known: dict[str, Document], options: dict) -> list[Document]:
    """The files Codex reads for a session in `folder`, root first (agents/codex.py): one per
    folder from the nearest folder holding `.git` down to `folder`."""
    walk = session(CODEX, folder, known, options)
    return documents(walk, walk.start())


def claude_loads(folder: str, known: dict[str, Document], options: dict) -> Callable[[Document], bool]:
    """For a session in `folder`: whether Claude Code loads an `AGENTS.md` document (at the start
    or on a touch below `folder`), which it does only where it falls back to them."""
    walk = session(CLAUDE_CODE, folder, known, options)
    falls_back = getattr(walk, "falls_back", False)
    probe = walk.probe

    def loads(document: Document) -> bool:
        place, name = placed(document.path)
        if not falls_back or name not in FALLBACK_NAMES or not probe.loads(document.path):
            return False
        if not inside(place, folder):
            return True
        return place == folder or not any(
            probe.loads(os.path.join(place, *other.split("/"))) for other in BLOCKS_FALLBACK
        )

    return loads
