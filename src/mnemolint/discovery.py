"""Find the memory files of a tree and say what kind each one is (SPEC §1).

One `os.scandir` walk. Every symlink met is recorded; a linked directory is entered only when it
resolves inside the root and is not one of the directories already on the walk's path (device
and inode), so a loop ends the descent instead of the run. Files are not read here: `Document`
reads lazily, so a single changed topic file costs one walk of its memory dir, not a parse of it.

Adding a kind of memory file means teaching `_kind_of` (and `_add_file`, which keeps `.md` files)
to recognise it.
"""

from __future__ import annotations

import errno
import os
import stat

from mnemolint.config import ConfigError, Settings
from mnemolint.document import INDEX, TOPIC, Document
from mnemolint.memdir import INDEX_NAME, MemoryDir

DEFAULT_EXCLUDES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
    }
)
NOT_TOPICS = frozenset({"README.md", "AGENTS.md", "CLAUDE.md"})
_AGENT_HOMES = (".claude", ".wave")


class LinkRecord:
    """A symlink met by the walk. `problem` is None, "cycle" or "dangling"."""

    __slots__ = ("path", "target", "problem", "detail")

    def __init__(self, path: str, target: str, problem: str | None = None, detail: str = "") -> None:
        self.path = path
        self.target = target
        self.problem = problem
        self.detail = detail


class Tree:
    """Everything discovery found. `focus` is None when whole trees were asked for."""

    __slots__ = ("root", "documents", "memdirs", "links", "focus")

    def __init__(self, root: str) -> None:
        self.root = root
        self.documents: list[Document] = []
        self.memdirs: list[MemoryDir] = []
        self.links: list[LinkRecord] = []
        self.focus: set[str] | None = None

    def in_focus(self, path: str) -> bool:
        return self.focus is None or path in self.focus


class _Walk:
    """State of one discovery: md files by directory, directories holding an index, links."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.md_files: dict[str, list[str]] = {}
        self.unfollowed_index: dict[str, str] = {}
        self.memdir_paths: set[str] = set()
        self.links: list[LinkRecord] = []
        self.unreadable: list[tuple[str, str]] = []
        self.seen_dirs: set[str] = set()
        self.seen_keys: set[tuple] = set()  # (memory dir or None, directory), each as (device, inode)
        self.indexed: set[tuple] = set()  # directories holding a MEMORY.md, as (device, inode)
        self._exclude = _Matcher(settings.exclude + settings.extend_exclude, settings.root)
        self._memory_globs = _Matcher(settings.memory_dirs, settings.root)

    def walk(self, top: str, root: str) -> None:
        """Walk `top` (inside `root`), iteratively so depth never costs recursion.

        Real directories go first, then those reached through a link, in path order: a directory
        reachable both ways keeps its real name, and the choice between two links never depends
        on the order the file system lists them in. A directory is walked once per memory dir
        that reaches it, by device and inode, so links that fan out and meet again (a diamond:
        two links per level to the next) cost one walk per directory, not one per path.
        """
        root = os.path.realpath(root)  # links are judged by where they really lead
        try:
            top_stat = os.stat(top)
        except OSError as error:
            self.unreadable.append((top, error.strerror or str(error)))
            return
        pending = _Pending((top, ((top_stat.st_dev, top_stat.st_ino),), None))
        while pending:
            (directory, ancestors, memdir), through_link = pending.pop()
            key = ancestors[-1]
            if not self._claim(directory, key, memdir):
                continue
            try:
                entries = list(os.scandir(directory))
            except OSError as error:
                self.unreadable.append((directory, error.strerror or str(error)))
                continue
            children = [child for entry in entries if (child := self._visit(entry, ancestors, root))]
            if directory in self.unfollowed_index or INDEX_NAME in self.md_files.get(directory, ()):
                self.indexed.add(key)  # it holds an index: a memory dir under any name, walked once
            if directory in self.memdir_paths:
                memdir = key
            for path, lineage, via_link in children:
                pending.push((path, lineage, memdir), via_link or through_link)

    def _claim(self, directory: str, key: tuple, memdir: tuple | None) -> bool:
        """Whether to walk `directory` (device and inode `key`, below memory dir `memdir`): not
        when this path, or this directory for the memory dir its files would belong to, was walked."""
        placed = _is_memory_dir_by_location(directory) or self._memory_globs.matches(directory)
        owned = (key if placed else memdir, key)  # a memory dir by its path owns its files itself
        if directory in self.seen_dirs or owned in self.seen_keys or key in self.indexed:
            return False
        self.seen_dirs.add(directory)
        self.seen_keys.add(owned)
        if placed:
            self.memdir_paths.add(directory)
        return True

    def _visit(self, entry: os.DirEntry, ancestors: tuple, root: str) -> tuple | None:
        name = entry.name
        if name in DEFAULT_EXCLUDES or self._exclude.matches(entry.path):
            return None
        try:
            if entry.is_symlink():
                return self._visit_link(entry, ancestors, root)
            if entry.is_dir(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                return entry.path, ancestors + ((info.st_dev, info.st_ino),), False
            if name.endswith(".md") and entry.is_file(follow_symlinks=False):
                self._add_file(entry.path)
        except OSError as error:
            self.unreadable.append((entry.path, error.strerror or str(error)))
        return None

    def _visit_link(self, entry: os.DirEntry, ancestors: tuple, root: str) -> tuple | None:
        try:
            target = os.readlink(entry.path)
        except OSError:
            target = "?"
        try:
            info = os.stat(entry.path)
        except OSError as error:
            if error.errno == errno.ELOOP:
                self.links.append(LinkRecord(entry.path, target, "cycle", "resolves back to itself"))
            else:
                self.links.append(LinkRecord(entry.path, target, "dangling", error.strerror or ""))
            self._unfollowed(entry, "dangling" if error.errno != errno.ELOOP else "a loop")
            return None
        key = (info.st_dev, info.st_ino)
        if stat.S_ISDIR(info.st_mode) and key in ancestors:
            self.links.append(LinkRecord(entry.path, target, "cycle", "points back to a directory it is inside"))
            return None
        self.links.append(LinkRecord(entry.path, target))
        if not _inside(os.path.realpath(entry.path), root):
            self._unfollowed(entry, "it leads out of the linted tree")
            return None  # never read what lies behind a link out of the linted root
        if stat.S_ISDIR(info.st_mode):
            if self._within_own_memdir(entry.path):
                return None  # its files are walked under their real names: no topic twice
            return entry.path, ancestors + (key,), True
        if entry.name.endswith(".md") and stat.S_ISREG(info.st_mode):
            self._add_file(entry.path)
        return None

    def enclosing_memdir(self, directory: str) -> str | None:
        """The nearest memory dir at or above `directory`, for files and subtrees passed alone."""
        current = directory
        while True:
            if (
                os.path.lexists(os.path.join(current, INDEX_NAME))
                or _is_memory_dir_by_location(current)
                or self._memory_globs.matches(current)
            ):
                return current
            parent = os.path.dirname(current)
            if parent == current:
                return None
            current = parent

    def _within_own_memdir(self, link: str) -> bool:
        """Whether a linked directory leads back into the memory dir holding the link."""
        memdir = self.enclosing_memdir(os.path.dirname(link))
        return memdir is not None and _inside(os.path.realpath(link), os.path.realpath(memdir))

    def _unfollowed(self, entry: os.DirEntry, reason: str) -> None:
        """A linked `MEMORY.md` that is not read still makes its directory a memory dir."""
        if entry.name == INDEX_NAME:
            directory = os.path.dirname(entry.path)
            self.memdir_paths.add(directory)
            self.unfollowed_index[directory] = reason

    def _add_file(self, path: str) -> None:
        directory, name = os.path.split(path)
        self.md_files.setdefault(directory, []).append(name)
        if name == INDEX_NAME:
            self.memdir_paths.add(directory)


class _Pending:
    """Directories still to walk, as (path, device-and-inode lineage, memory dir above): the real
    ones first, depth first; then those reached through a link, by path."""

    __slots__ = ("real", "linked")

    def __init__(self, top: tuple) -> None:
        self.real = [top]
        self.linked: list[tuple] = []  # a heap

    def __bool__(self) -> bool:
        return bool(self.real or self.linked)

    def pop(self) -> tuple[tuple, bool]:
        """The next directory, and whether it was reached through a link."""
        if self.real:
            return self.real.pop(), False
        from heapq import heappop  # here, not at start-up: most trees hold no linked directory

        return heappop(self.linked), True

    def push(self, directory: tuple, through_link: bool) -> None:
        if not through_link:
            self.real.append(directory)
            return
        from heapq import heappush

        heappush(self.linked, directory)


class _Matcher:
    """Root-relative globs (wcmatch: globstar, braces, dotfiles), imported only when configured."""

    def __init__(self, patterns: list[str], root: str) -> None:
        self.patterns = patterns
        self.root = root
        self._match = None
        if patterns:
            from wcmatch import glob

            flags = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB | glob.NEGATE
            self._match = lambda rel: glob.globmatch(rel, patterns, flags=flags)

    def matches(self, path: str) -> bool:
        if self._match is None:
            return False
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        return bool(self._match(rel) or self._match(rel + "/") or self._match(os.path.basename(path)))


def _is_memory_dir_by_location(directory: str) -> bool:
    """`…/.claude/projects/<slug>/memory` or `…/.wave/projects/<id>/memory` (SPEC §1)."""
    parts = directory.rstrip(os.sep).split(os.sep)
    return len(parts) >= 4 and parts[-1] == "memory" and parts[-3] == "projects" and parts[-4] in _AGENT_HOMES


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def discover(paths: list[str], settings: Settings) -> Tree:
    """Walk directories, classify files, and build memory dirs with their index and topics."""
    walk = _Walk(settings)
    focus: set[str] = set()
    explicit_files: list[str] = []
    roots: list[str] = []
    for given in paths:
        path = os.path.abspath(given)
        if not os.path.lexists(path):
            raise ConfigError(f"path not found: {given}")
        # A symlink is judged where it stands, like a file (pre-commit passes links as files):
        # walking through a link to a directory would lint what lies behind it under its name.
        if os.path.isdir(path) and not os.path.islink(path):
            walk.walk(path, path)
            roots.append(path)
            context = walk.enclosing_memdir(path)
            if context and context != path:
                walk.walk(context, context)
            focus.add(path)
        else:
            explicit_files.append(path)
            context = walk.enclosing_memdir(os.path.dirname(path))
            if context:  # else it is no memory file: nothing to walk
                walk.walk(context, context)
    tree = Tree(os.path.commonpath(roots) if roots else os.getcwd())
    tree.links = walk.links
    _build(tree, walk, settings)
    if explicit_files or _context_outside(tree, focus):
        tree.focus = _focus_set(tree, focus, explicit_files)
    return tree


def _context_outside(tree: Tree, dirs: set[str]) -> bool:
    """Whether a memory dir was walked only for context, above the directories asked for."""
    return any(not any(_inside(memdir.path, top) for top in dirs) for memdir in tree.memdirs)


def _focus_set(tree: Tree, dirs: set[str], files: list[str]) -> set[str]:
    focus = set(files)
    for document in tree.documents:
        if any(_inside(document.path, top) for top in dirs):
            focus.add(document.path)
    for memdir in tree.memdirs:
        if any(_inside(memdir.path, top) for top in dirs):
            focus.add(memdir.index_path)
    for link in tree.links:
        if any(_inside(link.path, top) for top in dirs):
            focus.add(link.path)
    return focus


def _build(tree: Tree, walk: _Walk, settings: Settings) -> None:
    memdirs: dict[str, MemoryDir] = {}
    for path in sorted(walk.memdir_paths):
        memdirs[path] = MemoryDir(path, None, [])
        memdirs[path].index_link = walk.unfollowed_index.get(path)
    options = settings.options
    for directory in sorted(walk.md_files):
        owner = _owner(directory, memdirs)
        for name in sorted(walk.md_files[directory]):
            kind = _kind_of(directory, name, owner)
            if kind is None or owner is None:
                continue
            document = Document(os.path.join(directory, name), kind, options, owner)
            document.rel = document.path[len(owner.path) + 1 :].replace(os.sep, "/")
            tree.documents.append(document)
            if kind == INDEX:
                owner.index = document
            else:
                owner.topics.append(document)
    tree.memdirs = list(memdirs.values())
    for path, reason in walk.unreadable:
        tree.documents.append(Document.unreadable(path, reason, options))


def _owner(directory: str, memdirs: dict[str, MemoryDir]) -> MemoryDir | None:
    """The innermost memory dir holding `directory`."""
    current = directory
    while True:
        if current in memdirs:
            return memdirs[current]
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _kind_of(directory: str, name: str, memdir: MemoryDir | None) -> str | None:
    """The kind of an `.md` file: the one place that decides what mnemolint lints."""
    if memdir is None:
        return None
    if name == INDEX_NAME and directory == memdir.path:
        return INDEX
    if name in NOT_TOPICS:
        return None
    return TOPIC
