"""A project: the folder an agent session works in (Wave's workdir; the folder holding `.claude`
for Claude Code), which agents use it, and the files it holds — what rule globs are matched
against.

The files are `git ls-files --cached --others --exclude-standard` inside a git work tree (what the
repository has, tracked or not, ignored files left out), else a walk of the folder of its own,
less what a `.gitignore` ignores (a run over one changed file walks only that file's container).
Either is listed once, and only when a rule asks: most runs lint no rule glob. What a rule needs
of a project file it does not lint (a cited file: is it there, its lines, its last change) is
asked here too, once per file. git is asked through `gitrun`, the one module that runs it.
"""

from __future__ import annotations

import os

from mnemolint.agents import CLAUDE_CODE, used_by, wave
from mnemolint.gitrun import git, repository
from mnemolint.options import defaults
from mnemolint.paths import DEFAULT_EXCLUDES, inside

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Agent

WORKTREES = tuple(wave.WORKTREES.split("/"))  # Wave's linked worktrees live in `.wave/worktrees/<name>/`


class Project:
    """One project folder (`path`). `readers` are the agents that use it: the `agents` setting
    when given, else each agent whose traces stand there (`agents.used_by`: Wave where `.wave/`
    exists, Claude Code where `.claude/` or `CLAUDE.md` does, …)."""

    __slots__ = ("path", "options", "readers", "_files", "_line_counts")

    def __init__(self, path: str, options: dict) -> None:
        self.path = path
        self.options = {**defaults(), **options}  # a caller may give only what it sets
        self.readers = used_by(path, list(options.get("agents") or []))
        self._files: list[str] | None = None
        self._line_counts: dict[str, int | None] = {}

    def uses(self, reader: Agent) -> bool:
        return reader in self.readers

    def files(self) -> list[str]:
        """Every file of the project, relative to it (POSIX), linked worktrees mapped to their
        checkout-relative path (Wave's path rules): listed on first use."""
        if self._files is None:
            listed = _git_files(self.path)
            if listed is None:
                listed = _not_ignored(self.path, self.options)
            self._files = sorted({checkout_relative(rel) for rel in listed})
        return self._files

    def relative(self, path: str) -> str | None:
        """`path` relative to the project as the agents match it (`relative_to`)."""
        return relative_to(path, self.path)

    def has(self, rel: str) -> bool:
        """Whether a file (or a link) stands at `rel` in the project folder, listed or not: a file
        `.gitignore` leaves out is still there for the agent. A folder is no file."""
        full = os.path.join(self.path, rel)
        return os.path.lexists(full) and not os.path.isdir(full)

    def line_count(self, rel: str) -> int | None:
        """How many lines the file at `rel` has, read once per run and never past `max-file-bytes`;
        None when it is no regular file inside the project (a link, or reached through a linked
        folder: nothing behind a link is read), or too large, binary or unreadable."""
        if rel not in self._line_counts:
            self._line_counts[rel] = self._count(rel)
        return self._line_counts[rel]

    def _count(self, rel: str) -> int | None:
        from mnemolint.parse.document import Document

        full = os.path.join(self.path, rel)
        if os.path.islink(full) or not inside(os.path.realpath(full), os.path.realpath(self.path)):
            return None
        text = Document(full, None, self.options).text  # the one bounded read
        if text is None:
            return None
        return text.count("\n") + (1 if text and not text.endswith("\n") else 0)

    def last_changes(self, rels: list[str]) -> dict[str, float]:
        """When each file at `rels` last changed, in seconds since the epoch: inside a git work
        tree its last commit (one `git log` for all of them) unless what it holds is not what
        that commit holds (`uncommitted`); else, and for a file never committed, its mtime. A file
        that is not there has no entry."""
        dates: dict[str, float] = {}
        specs = [f":(literal){rel}" for rel in rels]
        # No signature is verified, no mailmap, order file, textconv or external diff is read or run.
        log = ["log", "--no-show-signature", "--no-mailmap", "--no-textconv", "--no-ext-diff", f"-O{os.devnull}"]
        log += ["--format=%x01%ct", "--name-only", "-z", "--no-renames", "--relative", "--", *specs]
        logged = git(self.path, *log, may_fail=True) if rels else None  # no commit yet: it fails
        if logged is not None:
            moment = None
            for token in (token.lstrip(b"\n") for token in logged.split(b"\0")):
                if token.startswith(b"\x01"):
                    moment = float(token[1:])
                elif token and moment is not None:
                    dates.setdefault(os.fsdecode(token), moment)  # newest first: the first is the last change
            for rel in uncommitted(self.path, [rel for rel in rels if rel in dates], self.options["max-file-bytes"]):
                dates.pop(rel, None)
        for rel in rels:
            if rel not in dates:
                try:
                    dates[rel] = os.lstat(os.path.join(self.path, rel)).st_mtime
                except OSError:
                    pass
        return dates


def uncommitted(path: str, rels: list[str], limit: int) -> set[str]:
    """Those of the files at `rels` (relative to the folder `path`) whose content is not what the
    last commit holds. git is asked for the committed object ids only (`ls-tree`, which reads no
    file of the work tree); the files are hashed here, as git hashes a blob with no filter: `git
    diff` would run the clean filters a repository's `.gitattributes` names. A file that is no
    regular file, is over `limit` bytes, or is held differently (a filter, line-ending conversion)
    counts as changed: its mtime is then its date, as for a file with uncommitted work."""
    if not rels:
        return set()
    listed = git(path, "ls-tree", "-r", "-z", "HEAD", "--", *(f":(literal){rel}" for rel in rels))
    committed: dict[str, str] = {}
    for entry in (listed or b"").split(b"\0"):
        info, _, name = entry.partition(b"\t")
        fields = info.split()
        if len(fields) == 3 and fields[0] != b"120000":
            committed[os.fsdecode(name)] = fields[2].decode("ascii", "replace")
    return {rel for rel in rels if rel not in committed or _blob_id(path, rel, committed[rel], limit) != committed[rel]}


def _blob_id(folder: str, rel: str, like: str, limit: int) -> str | None:
    """The id git gives the file at `rel` in `folder` as a blob, with no filter (SHA-1, or SHA-256 when the
    repository's ids are that long as `like`), read once and bounded; None when it is no regular
    file or over `limit` bytes. Opened without following a link or blocking."""
    import hashlib
    import stat

    try:
        fd = os.open(
            os.path.join(folder, rel), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
        with open(fd, "rb", buffering=0) as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            data = handle.read(info.st_size + 1)
    except OSError:
        return None
    digest = hashlib.sha256() if len(like) == 64 else hashlib.sha1()  # noqa: S324 - git's own object id
    digest.update(b"blob %d\0" % len(data) + data)
    return digest.hexdigest()


def relative_to(path: str, base: str) -> str | None:
    """`path` relative to `base` as the agents match it (POSIX): a file in one of Wave's linked
    worktrees or in a linked git worktree of the same repository by its checkout-relative path
    (Wave's path rules); None when it cannot be said relative to `base` at all
    ("relativization failed", path rules 7)."""
    absolute = os.path.abspath(path)
    if not inside(absolute, base):
        tree = next((tree for tree in linked_worktrees(base) if inside(absolute, tree)), None)
        if tree is None:
            return None
        absolute = os.path.join(base, os.path.relpath(absolute, tree))
    return checkout_relative(os.path.relpath(absolute, base).replace(os.sep, "/"))


def checkout_relative(rel: str) -> str:
    """A path inside one of Wave's linked worktrees (`.wave/worktrees/<name>/src/a.ts`) as the
    checkout path it stands for (`src/a.ts`); any other path as it is."""
    parts = rel.split("/")
    if len(parts) > 3 and tuple(parts[:2]) == WORKTREES:
        return "/".join(parts[3:])
    return rel


def uses_claude_code(path: str, agents: list[str]) -> bool:
    """Whether the project at `path` is one Claude Code works in (the `agents` setting, else its files)."""
    return CLAUDE_CODE in used_by(path, agents)


def _git_files(path: str) -> list[str] | None:
    """The work tree's files below `path`, relative to it; None outside a work tree or without git.
    A linked worktree in `.wave/worktrees/<name>/` is a work tree of its own, which git lists as
    that one folder (`.wave/worktrees/<name>/`): its files are listed from it."""
    listed = git(path, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if listed is None:
        return None
    files: list[str] = []
    for name in (os.fsdecode(name) for name in listed.split(b"\0") if name):
        parts = name.split("/")
        if len(parts) == 4 and not parts[3] and tuple(parts[:2]) == WORKTREES:
            inner = _git_files(os.path.join(path, *parts[:3]))
            if inner is not None:
                files.extend(name + rel for rel in inner)
                continue
        files.append(name)
    return files


def is_tracked(path: str) -> bool:
    """Whether the file at `path` is in git's index (committed or staged): what every clone gets."""
    folder, name = os.path.split(path)
    listed = git(folder, "ls-files", "-z", "--cached", "--", name)
    return bool(listed and listed.strip(b"\0"))


def linked_worktrees(path: str) -> list[str]:
    """The other work trees of the git repository holding `path` (`git worktree add`), whose files
    the agents match by their checkout-relative path (Wave's path rules)."""
    listed = git(path, "worktree", "list", "--porcelain")
    if listed is None:
        return []
    trees = [os.fsdecode(line[len(b"worktree ") :]) for line in listed.splitlines() if line.startswith(b"worktree ")]
    return [os.path.normpath(tree) for tree in trees[1:]]  # the first is the main work tree


def git_top_level(path: str) -> str | None:
    """The top of the git work tree holding the folder `path`, or None: found without running git
    (`gitrun.repository`)."""
    found = repository(path)
    return found.work_tree if found else None


def _not_ignored(path: str, options: dict) -> list[str]:
    """The files below `path` (relative to it) that git's ignore rules, every `.gitignore` from
    `path` down (kinds/gitignore.py), leave in. Listed by a walk of its own, not the discovery
    walk's: a run over one changed rule file walks its rules dir only, yet its globs are judged
    against the whole project. Links are not followed; `.git` and the default excludes are left out."""
    from mnemolint.kinds.gitignore import Ignores

    ignores = Ignores(path, {}, options)
    found = []
    for folder, folders, names in os.walk(path):
        folders[:] = [name for name in folders if name not in DEFAULT_EXCLUDES]
        for name in names:
            file = os.path.join(folder, name)
            if not ignores.check(file).ignored:
                found.append(os.path.relpath(file, path).replace(os.sep, "/"))
    return found
