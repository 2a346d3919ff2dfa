"""The `.ai-memory/` project memory of the `.ai-memory` skill, its files, and the git facts its rules need.

`.ai-memory/` sits at the project root: `project_memory.md` and `handoff.md` (shared, committed),
and one `YYYYMMDD/` folder a day holding `daily.md`, `topics.md` and
`session_memory_<YYYYMMDD-HHmm>.jsonl` (personal, ignored). The user-level
`~/.ai-memory/user_profile.md` is linted only when asked (`check --user-memory`).

The container answers, once each, what its rules share: its dated folders (by listing its
directory, so a folder holding no file of a kind still counts), and, when it lies in a git work
tree, that tree's top level (found without git) and the files of `.ai-memory/` git already
tracks (asked through `gitrun`); a missing or failing git means "nothing tracked", never an error.
"""

from __future__ import annotations

import os
import re

from mnemolint.agents.base import Agent
from mnemolint.kinds.base import Container, ContainerType, Kind
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import datetime as _dt
    from collections.abc import Callable, Iterable, Iterator

    from mnemolint.parse.document import Document

DIR_NAME = ".ai-memory"
PROJECT_MEMORY_NAME = "project_memory.md"
HANDOFF_NAME = "handoff.md"
USER_PROFILE_NAME = "user_profile.md"
SHARED_NAMES = (PROJECT_MEMORY_NAME, HANDOFF_NAME)  # committed, for the team (003 version control)
DATED = Lazy(r"[0-9]{8}")  # a `YYYYMMDD` folder name, possible date or not
SESSION_FILE = Lazy(r"session_memory_([0-9]{8})-([0-9]{2})([0-9]{2})\.jsonl")

# The skill is run by whichever agent loads it (Trae, VS Code, Claude Code…): it reads the files
# as plain Markdown and JSON lines, with no frontmatter.
SKILL = Agent("ai-memory", "the .ai-memory skill", DIR_NAME, verified=None, selectable=False, frontmatter="none")


def folder_date(name: str) -> _dt.date | None:
    """The date a `YYYYMMDD` folder name stands for, None when no such day exists (`20261340`)."""
    if not DATED.fullmatch(name):
        return None
    import datetime as _dt  # only for a dated folder: its import costs 1 ms of every start

    try:
        return _dt.datetime.strptime(name, "%Y%m%d").date()
    except ValueError:
        return None


def user_profile_path() -> str:
    """`~/.ai-memory/user_profile.md` of the user running mnemolint, by `$HOME` (003: L4 follows the user)."""
    return os.path.join(os.path.expanduser("~"), DIR_NAME, USER_PROFILE_NAME)


class AiMemoryDir(Container):
    """An `.ai-memory/` directory. `project` is the directory holding it (the project root the
    skill writes to); `user_level` is True for the one in the user's home directory."""

    __slots__ = ("project", "user_level", "_dated", "_git_top", "_tracked")

    def __init__(self, path: str) -> None:
        super().__init__(path, AI_MEMORY_DIR)
        self.project = os.path.dirname(path)
        self.user_level = os.path.realpath(path) == os.path.realpath(os.path.dirname(user_profile_path()))
        self._dated: list[str] | None = None
        self._git_top: str | None | bool = False  # False: not asked yet
        self._tracked: list[str] | None = None

    @property
    def dated(self) -> list[str]:
        """Names of its `YYYYMMDD` folders (eight digits, a possible date or not), sorted."""
        if self._dated is None:
            try:
                with os.scandir(self.path) as entries:
                    names = [entry.name for entry in entries if entry.is_dir(follow_symlinks=False)]
            except OSError:
                names = []
            self._dated = sorted(name for name in names if DATED.fullmatch(name))
        return self._dated

    def in_folder(self, name: str) -> list[Document]:
        """Its documents in the dated folder `name`."""
        return [document for document in self.documents if document.rel.partition("/")[0] == name]

    @property
    def git_top(self) -> str | None:
        """The top level of the git work tree holding the project, None outside one (or without git)."""
        if self._git_top is False:
            from mnemolint.project import git_top_level

            found = git_top_level(self.project)
            self._git_top = os.path.realpath(found) if found else None
        return self._git_top  # type: ignore[return-value]

    @property
    def tracked(self) -> list[str]:
        """Paths below `.ai-memory/` (relative to it, POSIX) that git tracks; none outside a work tree."""
        if self._tracked is None:
            from mnemolint.gitrun import git

            listed = git(self.path, "ls-files", "-z", "--", ".") if self.git_top else None
            self._tracked = sorted(os.fsdecode(name) for name in (listed or b"").split(b"\0") if name)
        return self._tracked


def project_dirs(containers: Iterable[Container]) -> Iterator[AiMemoryDir]:
    """The project-level `.ai-memory` dirs among `containers` (not the user's `~/.ai-memory`),
    which the GIT rules and AIM010 judge."""
    for container in containers:
        if isinstance(container, AiMemoryDir) and not container.user_level:
            yield container


def _located(directory: str) -> bool:
    return os.path.basename(directory) == DIR_NAME


def _in_dated(name: str) -> Callable[[str], re.Match | None]:
    """Whether a path is `name` in a YYYYMMDD/ folder; compiled when a `.ai-memory` file is first met."""
    pattern = Lazy(r"[0-9]{8}/" + name)
    return lambda rel: pattern.fullmatch(rel)


_DAILY = _in_dated(r"daily\.md")
_TOPICS = _in_dated(r"topics\.md")
_SESSION = _in_dated(r"session_[^/]*\.jsonl")


def _named(name: str):
    return lambda rel: rel == name


def _kind(name: str, matches, *, markdown: bool = True) -> Kind:
    """An `.ai-memory` kind: plain Markdown (suppression comments, no frontmatter) or JSON lines."""
    return Kind(
        name,
        container=AI_MEMORY_DIR,
        matches=matches,
        frontmatter=False,
        frontmatter_fields=False,
        suppressions=markdown,
        reader=lambda document: SKILL,
    )


AI_MEMORY_DIR = ContainerType(
    "ai-memory dir",
    names=(DIR_NAME,),
    marker=None,
    setting=None,
    located=_located,
    make=AiMemoryDir,
    gitignored=True,  # the skill's own `.gitignore` lines keep its dated logs out of git (GIT001)
    about=f"An `{DIR_NAME}/` directory holds {PROJECT_MEMORY_NAME}, {HANDOFF_NAME} and YYYYMMDD/ folders of "
    "daily.md, topics.md and session_memory_*.jsonl.",
)
PROJECT_MEMORY = _kind("ai-memory project memory", _named(PROJECT_MEMORY_NAME))
HANDOFF = _kind("ai-memory handoff", _named(HANDOFF_NAME))
USER_PROFILE = _kind("ai-memory user profile", _named(USER_PROFILE_NAME))
DAILY = _kind("ai-memory daily log", _DAILY)
TOPICS = _kind("ai-memory topics", _TOPICS)
SESSION = _kind("ai-memory session log", _SESSION, markdown=False)
TEMPLATED = (PROJECT_MEMORY, HANDOFF, TOPICS, USER_PROFILE)  # the files that hold template instances
KINDS = (PROJECT_MEMORY, HANDOFF, USER_PROFILE, DAILY, TOPICS, SESSION)
