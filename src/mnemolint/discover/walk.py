"""Find every file of a tree and ask the kind registry what each one is.

One `os.scandir` walk. Every symlink met is recorded; a linked directory is entered only when it
resolves inside the root and is not one of the directories already on the walk's path (device
and inode), so a loop ends the descent instead of the run. Files are not read here: `Document`
reads lazily, so a single changed topic file costs one walk of its memory dir, not a parse of it.

Nothing here knows a kind: containers are recognised by `kinds.registry.CONTAINERS` (a marker
file, a location, a configured glob) and files by `kinds.registry.kind_of`. Every file that is not excluded is
kept in `Tree.files`, whether or not a kind claims it, for the rules that need the whole tree.
"""

from __future__ import annotations

import errno
import os
import stat

from mnemolint.agents import AGENT_HOMES
from mnemolint.config import Settings, glob_flags
from mnemolint.discover.tree import LinkRecord, Tree
from mnemolint.errors import ConfigError
from mnemolint.kinds.base import Container, ContainerType
from mnemolint.kinds.registry import CONTAINERS, kind_of
from mnemolint.parse.document import Document
from mnemolint.paths import DEFAULT_EXCLUDES, inside, link_hazard, repository, upwards

_MARKERS = {container.marker: container for container in CONTAINERS if container.marker}


def _agent_worktrees(path: str, name: str) -> bool:
    """`.wave/worktrees/` and `.claude/worktrees/`: the agents' linked checkouts of this same
    repository, whose memory files are copies of the ones linted here (Wave's path rules)."""
    return name == "worktrees" and os.path.basename(os.path.dirname(path)) in AGENT_HOMES


class _Walk:
    """State of one discovery: files by directory, the containers found, links, unreadable paths."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.files: dict[str, list[str]] = {}
        self.unfollowed_marker: dict[str, str] = {}
        self.container_paths: dict[str, ContainerType] = {}
        self.marker_dirs: set[str] = set()  # directories holding a marker file, followed or not
        self.links: list[LinkRecord] = []
        self.unreadable: list[tuple[str, str]] = []
        self.seen_dirs: set[str] = set()
        self.seen_keys: set[tuple] = set()  # (container or None, directory), each as (device, inode)
        self.marked: set[tuple] = set()  # directories holding a container marker, as (device, inode)
        self._exclude = _Matcher(settings.exclude + settings.extend_exclude, settings.root)
        self._configured = [
            (container, _Matcher(getattr(settings, container.setting.replace("-", "_")), settings.root))
            for container in CONTAINERS
            if container.setting
        ]

    def walk(self, top: str, root: str) -> None:
        """Walk `top` (inside `root`), iteratively so depth never costs recursion.

        Real directories go first, then those reached through a link, in path order: a directory
        reachable both ways keeps its real name, and the choice between two links never depends
        on the order the file system lists them in. A directory is walked once per container
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
            (directory, ancestors, container), through_link = pending.pop()
            key = ancestors[-1]
            if not self._claim(directory, key, container):
                continue
            try:
                entries = list(os.scandir(directory))
            except OSError as error:
                self.unreadable.append((directory, error.strerror or str(error)))
                continue
            children = [child for entry in entries if (child := self._visit(entry, ancestors, root))]
            if directory in self.marker_dirs:
                self.marked.add(key)  # it holds a marker: a container under any name, walked once
            if directory in self.container_paths:
                container = key
            for path, lineage, via_link in children:
                pending.push((path, lineage, container), via_link or through_link)

    def _claim(self, directory: str, key: tuple, container: tuple | None) -> bool:
        """Whether to walk `directory` (device and inode `key`, below the container `container`):
        not when this path, or this directory for the container its files would belong to, was walked."""
        placed = self.placed(directory)
        owned = (key if placed else container, key)  # a container by its path owns its files itself
        if directory in self.seen_dirs or owned in self.seen_keys or key in self.marked:
            return False
        self.seen_dirs.add(directory)
        self.seen_keys.add(owned)
        if placed:
            self.container_paths[directory] = placed
        return True

    def _excluded(self, path: str, name: str) -> bool:
        return name in DEFAULT_EXCLUDES or _agent_worktrees(path, name) or self._exclude.matches(path)

    def _visit(self, entry: os.DirEntry, ancestors: tuple, root: str) -> tuple | None:
        if self._excluded(entry.path, entry.name):
            return None
        try:
            if entry.is_symlink():
                return self._visit_link(entry, ancestors, root)
            if entry.is_dir(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                return entry.path, ancestors + ((info.st_dev, info.st_ino),), False
            if entry.is_file(follow_symlinks=False):
                self._add_file(entry.path)
        except OSError as error:
            self.unreadable.append((entry.path, error.strerror or str(error)))
        return None

    def _visit_link(self, entry: os.DirEntry, ancestors: tuple, root: str) -> tuple | None:
        try:
            target = os.readlink(entry.path)
        except OSError:
            target = "?"
        resolved = os.path.realpath(entry.path)  # lstat and readlink only: nothing behind it is opened
        sensitive = link_hazard(entry.path, target, resolved)
        facts = {"resolved": resolved, "outside": not inside(resolved, repository(root)), "sensitive": sensitive}
        try:
            info = os.stat(entry.path)
        except OSError as error:
            if error.errno == errno.ELOOP:
                self.links.append(LinkRecord(entry.path, target, "cycle", "resolves back to itself", **facts))
            else:
                self.links.append(LinkRecord(entry.path, target, "dangling", error.strerror or "", **facts))
            self._unfollowed(entry, "dangling" if error.errno != errno.ELOOP else "a loop")
            return None
        key = (info.st_dev, info.st_ino)
        is_dir = stat.S_ISDIR(info.st_mode)
        # A folder the link sits in, seen from the root down (`ancestors`) or above the root (`..`
        # out of the tree): following it would walk this folder again, inside itself.
        if is_dir and (key in ancestors or inside(os.path.realpath(os.path.dirname(entry.path)), resolved)):
            record = LinkRecord(
                entry.path, target, "cycle", "points back to a directory it is inside", is_dir=True, **facts
            )
            self.links.append(record)
            return None
        self.links.append(LinkRecord(entry.path, target, is_dir=is_dir, **facts))
        if sensitive:
            self._unfollowed(entry, "it leads to a sensitive place")
            return None  # never read a credential folder, a key or a system file, even inside the root
        if not inside(resolved, root) and not self._links_out(entry.path):
            self._unfollowed(entry, "it leads out of the linted tree")
            return None  # never read what lies behind a link out of the linted root
        if is_dir:
            if self._within_own_container(entry.path, resolved):
                return None  # its files are walked under their real names: no topic twice
            return entry.path, ancestors + (key,), True
        if stat.S_ISREG(info.st_mode):
            self._add_file(entry.path)
        return None

    def placed(self, directory: str) -> ContainerType | None:
        """The container type `directory` is by where it is, or by a configured glob."""
        for container in CONTAINERS:
            if container.located(directory):
                return container
        return next((container for container, globs in self._configured if globs.matches(directory)), None)

    def enclosing_container(self, directory: str) -> str | None:
        """The nearest container at or above `directory`, for files and subtrees passed alone."""
        for current in upwards(directory):
            if any(os.path.lexists(os.path.join(current, marker)) for marker in _MARKERS) or self.placed(current):
                return current
        return None

    def _links_out(self, link: str) -> bool:
        """Whether the container holding `link` follows links out of the tree (a rules dir)."""
        container = self.enclosing_container(os.path.dirname(link))
        placed = self.placed(container) if container is not None else None
        return placed is not None and placed.shared_by_link

    def _within_own_container(self, link: str, resolved: str) -> bool:
        """Whether a linked directory (leading to `resolved`) leads back into the container holding the link."""
        container = self.enclosing_container(os.path.dirname(link))
        return container is not None and inside(resolved, os.path.realpath(container))

    def _unfollowed(self, entry: os.DirEntry, reason: str) -> None:
        """A marker file that is a link not followed (a linked `MEMORY.md`) still makes its directory
        a container."""
        if entry.name in _MARKERS:
            directory = os.path.dirname(entry.path)
            self._marked_by(directory, entry.name)
            self.unfollowed_marker[directory] = reason

    def add_given(self, path: str) -> None:
        """A file named on the command line outside every container, unless excluded or not a
        regular file (a symlink is judged where it stands, and never read through)."""
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:  # gone since it was named: nothing to lint
            return
        if regular and not self._excluded(path, os.path.basename(path)):
            self._add_file(path)

    def _add_file(self, path: str) -> None:
        directory, name = os.path.split(path)
        self.files.setdefault(directory, []).append(name)
        if name in _MARKERS:
            self._marked_by(directory, name)

    def _marked_by(self, directory: str, marker: str) -> None:
        """`directory` holds a container's marker file: it is that container, under any name."""
        self.container_paths.setdefault(directory, _MARKERS[marker])
        self.marker_dirs.add(directory)


class _Pending:
    """Directories still to walk, as (path, device-and-inode lineage, container above): the real
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

            flags = glob_flags() | glob.NEGATE
            self._match = lambda rel: glob.globmatch(rel, patterns, flags=flags)

    def matches(self, path: str) -> bool:
        if self._match is None:
            return False
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        return bool(self._match(rel) or self._match(rel + "/") or self._match(os.path.basename(path)))


def placed(directory: str, settings: Settings) -> ContainerType | None:
    """The container type `directory` is by where it is or by a configured glob, as the walk judges it."""
    return _Walk(settings).placed(directory)


def discover(paths: list[str], settings: Settings) -> Tree:
    """Walk directories, find the containers, and classify every file through the kind registry."""
    walk = _Walk(settings)
    focus: set[str] = set()
    explicit_files: list[str] = []
    roots: list[str] = []
    for given in paths:
        path = os.path.abspath(given)
        _refuse_special(path, given)
        # A symlink is judged where it stands, like a file (pre-commit passes links as files):
        # walking through a link to a directory would lint what lies behind it under its name.
        if os.path.isdir(path) and not os.path.islink(path):
            walk.walk(path, path)
            roots.append(path)
            context = walk.enclosing_container(path)
            if context and context != path:
                walk.walk(context, context)
            focus.add(path)
        else:
            explicit_files.append(path)
            context = walk.enclosing_container(os.path.dirname(path))
            if context:  # its container is walked, for the context its rules need
                placed = walk.placed(context)
                for container in [context, *(placed.companions(context) if placed else ())]:
                    walk.walk(container, container)
            else:  # a file in no container: the kinds that need none may still claim it
                kind = kind_of(path.replace(os.sep, "/"), None)
                for file in [path, *(kind.companions(path) if kind else ())]:
                    walk.add_given(file)
    if settings.options["user-rules"]:
        for home in AGENT_HOMES:  # user-level rules dirs, linted as if named
            rules_dir = os.path.join(os.path.expanduser("~"), home, "rules")
            if os.path.isdir(rules_dir):
                walk.walk(rules_dir, rules_dir)
                focus.add(rules_dir)
    tree = Tree(os.path.commonpath(roots) if roots else os.getcwd(), settings.options)
    tree.links = walk.links
    tree.roots = roots
    _build(tree, walk, settings)
    if explicit_files or _context_outside(tree, focus):
        tree.focus = _focus_set(tree, focus, explicit_files)
    return tree


_SPECIAL = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _refuse_special(path: str, given: str) -> None:
    """A path on the command line must exist and be a file, directory or symlink: a FIFO or a
    device is never memory, and reading one could block or never end."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise ConfigError(f"path not found: {given}") from None
    except OSError as error:
        raise ConfigError(f"cannot examine {given}: {error.strerror}") from None
    kind = _SPECIAL.get(stat.S_IFMT(mode))
    if kind:
        raise ConfigError(f"{given} is {kind}, not a file or directory: nothing in it can be linted")


def _context_outside(tree: Tree, dirs: set[str]) -> bool:
    """Whether a container was walked only for context, above the directories asked for."""
    return any(not any(inside(container.path, top) for top in dirs) for container in tree.containers)


def _focus_set(tree: Tree, dirs: set[str], files: list[str]) -> set[str]:
    focus = set(files)
    for document in tree.documents:
        if any(inside(document.path, top) for top in dirs):
            focus.add(document.path)
    for container in tree.containers:
        if any(inside(container.path, top) for top in dirs):
            focus.add(container.anchor_path)
    for link in tree.links:
        if any(inside(link.path, top) for top in dirs):
            focus.add(link.path)
    return focus


def _build(tree: Tree, walk: _Walk, settings: Settings) -> None:
    """Make the containers, then a `Document` for each file a kind claims, filed in its container."""
    containers: dict[str, Container] = {}
    for path in sorted(walk.container_paths):
        containers[path] = walk.container_paths[path].make(path)
        containers[path].marker_link = walk.unfollowed_marker.get(path)
    options = settings.options
    for directory in sorted(walk.files):
        owner = _owner(directory, containers)
        container_type = owner.type if owner is not None else None
        # Relative to the container (or the root) once per directory, not once per file.
        above = _relative(directory, owner.path if owner is not None else tree.root)
        above = "" if above == "." else above + "/"
        for name in sorted(walk.files[directory]):
            path = os.path.join(directory, name)
            tree.files.append(path)
            rel = above + name
            kind = kind_of(rel, container_type)
            if kind is None:
                if owner is not None:
                    owner.others.append(path)
                continue
            document = Document(path, kind, options, owner)
            document.rel = rel
            tree.documents.append(document)
            if owner is not None:
                owner.add(document)
    tree.containers = list(containers.values())
    for container in tree.containers:
        container.settle(tree)
    for path, reason in walk.unreadable:
        tree.documents.append(Document.unreadable(path, reason, options))


def _relative(path: str, base: str) -> str:
    """`path` relative to `base`, POSIX separators (`.` for `base` itself)."""
    if path == base:
        return "."
    if path.startswith(base + os.sep):
        return path[len(base) + 1 :].replace(os.sep, "/")
    return os.path.relpath(path, base).replace(os.sep, "/")


def _owner(directory: str, containers: dict[str, Container]) -> Container | None:
    """The innermost container holding `directory`."""
    return next((containers[current] for current in upwards(directory) if current in containers), None)
