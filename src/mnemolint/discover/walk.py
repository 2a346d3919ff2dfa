"""Find every file of a tree and ask the kind registry what each one is.

One `os.scandir` walk. Every symlink met is recorded; a linked directory is entered only when it
resolves inside the root and is not one of the directories already on the walk's path (device
and inode), so a loop ends the descent instead of the run. Files are not read here, but for the
head of a container's marker file where its type judges it by content (`ContainerType.confirms`,
once per directory): `Document` reads lazily, so a single changed topic file costs one walk of its
memory dir, not a parse of it.

Nothing here knows a kind: containers are recognised by the kind registry (a marker file,
`MARKERS`; a location, `located`; a configured glob, `CONFIGURED`) and files by its `kind_of`.
Every file that is not excluded is kept in `Tree.files`, whether or not a kind claims it, for the
rules that need the whole tree. What is excluded, and how a path named on the command line is
treated, is `exclusion.py`'s to say.
"""

from __future__ import annotations

import errno
import os
import stat

from mnemolint.agents import AGENT_HOMES
from mnemolint.config import Settings
from mnemolint.discover.exclusion import Exclusion, Globs
from mnemolint.discover.listing import FILE, FOLDER, LINK, Listings
from mnemolint.discover.tree import LinkRecord, Tree
from mnemolint.errors import ConfigError
from mnemolint.kinds.base import Container, ContainerType
from mnemolint.kinds.registry import CONFIGURED, MARKERS, first_kind, kind_of, kinds_in, located, type_named
from mnemolint.parse.document import Document, head
from mnemolint.paths import inside, link_hazard, repository, upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import Any


class _Walk:
    """State of one discovery: files by directory, the containers found, links, unreadable paths."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.files: dict[str, list[str]] = {}
        self.unfollowed_marker: dict[str, str] = {}
        self.container_paths: dict[str, ContainerType] = {}
        self.marker_dirs: set[str] = set()  # directories holding a marker file, followed or not
        self.holds_asked: dict[tuple[str, str], bool] = {}  # (directory, marker): `holds_marker`, asked once
        self.given: dict[str, tuple[bytes, int]] = {}  # files' bytes read from elsewhere (`discover`)
        self.links: list[LinkRecord] = []
        self.unreadable: list[tuple[str, str]] = []
        self.seen_dirs: set[str] = set()
        self.seen_keys: set[tuple] = set()  # (container or None, directory), each as (device, inode)
        self.marked: set[tuple] = set()  # directories holding a container marker, as (device, inode)
        self.added: set[str] = set()  # every file found, so that one named and walked is filed once
        self.exclusion = Exclusion(settings)
        self.listings: Listings | None = None  # the cache's kept listings (listing.py), when there is a cache
        self._listing: list[tuple[str, str]] | None = None  # the entries of the folder being listed, to keep
        self._no_gitignore: dict[str, bool] = {}  # folder: whether no `.gitignore` stands in it
        self._configured = [  # (a container type's name, the globs its setting gives), where it gives some
            (name, Globs(globs, settings.root))
            for name, setting in CONFIGURED
            if (globs := getattr(settings, setting.replace("-", "_")))
        ]

    def walk(self, top: str, root: str) -> None:
        """Walk `top` (inside `root`), iteratively so depth never costs recursion.

        Real directories go first, then those reached through a link, in path order: a directory
        reachable both ways keeps its real name, and the choice between two links never depends
        on the order the file system lists them in. A directory is walked once per container
        that reaches it, by device and inode, so links that fan out and meet again (a diamond:
        two links per level to the next) cost one walk per directory, not one per path. A
        directory whose kept listing stands (listing.py) is not listed again.
        """
        root = os.path.realpath(root)  # links are judged by where they really lead
        try:
            top_stat = os.stat(top)
        except OSError as error:
            self.unreadable.append((top, error.strerror or str(error)))
            return
        pending = _Pending((top, ((top_stat.st_dev, top_stat.st_ino),), None, _stamp(top_stat)))
        while pending:
            (directory, ancestors, container, stamp), through_link = pending.pop()
            key = ancestors[-1]
            if not self._claim(directory, key, container):
                continue
            listed = os.path.split(os.path.join(directory, "-"))[0]  # the folder `split` gives its files
            context = self._listing_context(directory, root)
            children = self._replay(directory, key + stamp, context, listed, ancestors, root)
            if children is None:
                try:
                    entries = list(os.scandir(directory))
                except OSError as error:
                    self.unreadable.append((directory, error.strerror or str(error)))
                    continue
                self._listing = [] if context is not None else None
                children = [child for entry in entries if (child := self._visit(entry, listed, ancestors, root))]
                if self._listing is not None and self.listings is not None and context is not None:
                    self.listings.put(directory, key + stamp, context, self._listing)
                self._listing = None
            if directory in self.marker_dirs:
                self.marked.add(key)  # it holds a marker: a container under any name, walked once
            if directory in self.container_paths:
                container = key
            for path, lineage, via_link, folder_stamp in children:
                pending.push((path, lineage, container, folder_stamp), via_link or through_link)

    def _listing_context(self, directory: str, root: str) -> tuple | None:
        """What a kept listing of `directory` stands on beside its own stat key: the walk's root and
        work tree. None when it is not to be kept: no cache, or a `.gitignore` may judge its entries
        (one stands in it or above it, up to the work tree; listing.py)."""
        if self.listings is None:
            return None
        ignores = self.exclusion.gitignore(root)
        if ignores is None:
            return (root, None)
        if not inside(directory, ignores.top):
            return None
        for folder in upwards(directory):
            if not self._without_gitignore(folder):
                return None
            if folder == ignores.top:
                return (root, ignores.top)
        return None

    def _without_gitignore(self, folder: str) -> bool:
        """Whether nothing stands at `folder/.gitignore` (asked once per folder in a run)."""
        known = self._no_gitignore.get(folder)
        if known is None:
            try:
                os.lstat(os.path.join(folder, ".gitignore"))
                known = False
            except (FileNotFoundError, NotADirectoryError):
                known = True
            except OSError:
                known = False
            self._no_gitignore[folder] = known
        return known

    def _replay(
        self, directory: str, key: tuple, context: tuple | None, listed: str, ancestors: tuple, root: str
    ) -> list[tuple] | None:
        """The folders to walk from `directory`'s kept listing, its files filed and its links
        judged again as a listing would (`_visit`); None when it has no listing that stands."""
        if context is None or self.listings is None:
            return None
        entries = self.listings.get(directory, key, context)
        if entries is None:
            return None
        prefix = os.path.join(directory, "")
        self._add_files(listed, prefix, [name for name, kind in entries if kind == FILE])
        children = []
        for name, kind in entries:
            path = prefix + name
            if kind == FILE:
                continue
            if kind == LINK:
                child = self._visit_link(path, name, ancestors, root)
                if child is not None:
                    children.append(child)
            else:  # a folder: its own key, for its own listing
                try:
                    info = os.lstat(path)
                except OSError as error:
                    self.unreadable.append((path, error.strerror or str(error)))
                    continue
                if stat.S_ISDIR(info.st_mode):
                    children.append((path, ancestors + ((info.st_dev, info.st_ino),), False, _stamp(info)))
        return children

    def _note(self, name: str, kind: str) -> None:
        """An entry of the folder being listed, as a kept listing gives it back."""
        if self._listing is not None:
            self._listing.append((name, kind))

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

    def _visit(self, entry: os.DirEntry, directory: str, ancestors: tuple, root: str) -> tuple | None:
        """A directory to walk next (path, lineage, whether through a link), or None; a file is
        filed by the folder it was listed in (`directory`)."""
        if self.exclusion.skips(entry.path, entry.name):
            return None
        try:
            if entry.is_symlink():  # git ignores a link by its own name, as a file, wherever it leads
                if self._ignored(entry.path, False, root):
                    return None
                self._note(entry.name, LINK)
                return self._visit_link(entry.path, entry.name, ancestors, root)
            if entry.is_dir(follow_symlinks=False):
                if self._ignored(entry.path, True, root):
                    return None
                info = entry.stat(follow_symlinks=False)
                self._note(entry.name, FOLDER)
                return entry.path, ancestors + ((info.st_dev, info.st_ino),), False, _stamp(info)
            if entry.is_file(follow_symlinks=False) and not self._ignored(entry.path, False, root):
                self._note(entry.name, FILE)
                self.add_file(entry.path, directory, entry.name)
        except OSError as error:
            self._listing = None  # an entry it could not judge: the listing is not kept
            self.unreadable.append((entry.path, error.strerror or str(error)))
        return None

    def _ignored(self, path: str, is_dir: bool, top: str) -> bool:
        """Whether git ignores the entry `path` of a walk of `top` (its folder is not ignored, or the
        walk would not be there) and no agent's convention keeps it out of git to load it anyway."""
        ignores = self.exclusion.gitignore(top)
        if ignores is None or not ignores.check_name(path, is_dir).ignored:
            return False
        self._listing = None  # a verdict of the `.gitignore` files: the folder's listing is not kept
        own = self._type_of(path) if is_dir else None
        container = self.enclosing_container(os.path.dirname(path))
        above = self._type_of(container) if container else None
        if (own is not None and own.gitignored) or (above is not None and above.gitignored):
            return False
        if is_dir:
            return True
        rel = os.path.relpath(path, container or top).replace(os.sep, "/")
        kind = kind_of(rel, above)
        return not (kind is not None and kind.gitignored(rel))

    def _type_of(self, directory: str) -> ContainerType | None:
        """The container type `directory` is: by where it is, a configured glob, or its marker file."""
        found = self.placed(directory) or self.container_paths.get(directory)
        marked = (type_named(each) for marker, each in MARKERS.items() if self.holds(directory, marker))
        return found or next(marked, None)

    def _visit_link(self, path: str, name: str, ancestors: tuple, root: str) -> tuple | None:
        """The symlink `path` (named `name`) recorded, and the directory to walk through it, if any."""
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        resolved = os.path.realpath(path)  # lstat and readlink only: nothing behind it is opened
        sensitive = link_hazard(path, target, resolved)
        facts: dict[str, Any] = {
            "resolved": resolved,
            "outside": not inside(resolved, repository(root)),
            "sensitive": sensitive,
        }
        try:
            info = os.stat(path)
        except OSError as error:
            if error.errno == errno.ELOOP:
                self.links.append(LinkRecord(path, target, "cycle", "resolves back to itself", **facts))
            else:
                self.links.append(LinkRecord(path, target, "dangling", error.strerror or "", **facts))
            self._unfollowed(path, name, "dangling" if error.errno != errno.ELOOP else "a loop")
            return None
        key = (info.st_dev, info.st_ino)
        is_dir = stat.S_ISDIR(info.st_mode)
        # A folder the link sits in, seen from the root down (`ancestors`) or above the root (`..`
        # out of the tree): following it would walk this folder again, inside itself.
        if is_dir and (key in ancestors or inside(os.path.realpath(os.path.dirname(path)), resolved)):
            record = LinkRecord(path, target, "cycle", "points back to a directory it is inside", is_dir=True, **facts)
            self.links.append(record)
            return None
        self.links.append(LinkRecord(path, target, is_dir=is_dir, **facts))
        if sensitive:
            self._unfollowed(path, name, "it leads to a sensitive place")
            return None  # never read a credential folder, a key or a system file, even inside the root
        if not inside(resolved, root) and not self._links_out(path):
            self._unfollowed(path, name, "it leads out of the linted tree")
            return None  # never read what lies behind a link out of the linted root
        if is_dir:
            if self._within_own_container(path, resolved):
                return None  # its files are walked under their real names: no topic twice
            return path, ancestors + (key,), True, _stamp(info)
        if stat.S_ISREG(info.st_mode):
            self.add_file(path)
        return None

    def placed(self, directory: str) -> ContainerType | None:
        """The container type `directory` is by where it is, or by a configured glob."""
        found = located(directory)
        if found is not None:
            return found
        return next((type_named(name) for name, globs in self._configured if globs.matches(directory)), None)

    def enclosing_container(self, directory: str) -> str | None:
        """The nearest container at or above `directory`, for files and subtrees passed alone."""
        for current in upwards(directory):
            marked = current in self.marker_dirs or any(self.holds(current, m) for m in MARKERS)
            if marked or self.placed(current):
                return current
        return None

    def claim_alone(self, directory: str) -> None:
        """The container `directory` is (found by `enclosing_container`), made without walking it."""
        found = self.placed(directory)
        if found is not None:
            self.container_paths.setdefault(directory, found)
            return
        marker = next((marker for marker in MARKERS if self.holds(directory, marker)), None)
        if marker is not None:
            self._marked_by(directory, marker)

    def _links_out(self, link: str) -> bool:
        """Whether the container holding `link` follows links out of the tree (a rules dir)."""
        container = self.enclosing_container(os.path.dirname(link))
        placed = self.placed(container) if container is not None else None
        return placed is not None and placed.shared_by_link

    def _within_own_container(self, link: str, resolved: str) -> bool:
        """Whether a linked directory (leading to `resolved`) leads back into the container holding the link."""
        container = self.enclosing_container(os.path.dirname(link))
        return container is not None and inside(resolved, os.path.realpath(container))

    def _unfollowed(self, path: str, name: str, reason: str) -> None:
        """A marker file that is a link not followed (a linked `MEMORY.md`) still makes its directory
        a container."""
        if name in MARKERS:
            directory = os.path.dirname(path)
            self._marked_by(directory, name)
            self.unfollowed_marker[directory] = reason

    def add_given(self, path: str, named: bool = True) -> None:
        """A file named on the command line (`named`: linted even where `exclude` matches it, as
        ruff does), or read with one as its context (a companion: not when excluded); nothing
        when it is not a regular file (a symlink is judged where it stands, never read through)."""
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:  # gone since it was named: nothing to lint
            return
        if regular and (named or not self.exclusion.skips(path, os.path.basename(path))):
            self.add_file(path)

    def add_file(self, path: str, directory: str | None = None, name: str | None = None) -> None:
        """File `path` (in `directory`, called `name`, when the walk listed it there)."""
        if path in self.added:
            return
        self.added.add(path)
        if directory is None or name is None:
            directory, name = os.path.split(path)
        self.files.setdefault(directory, []).append(name)
        if name in MARKERS:
            self._marked_if_held(directory, name)

    def _add_files(self, directory: str, prefix: str, names: list[str]) -> None:
        """`add_file` of each of `names` (`prefix` is `directory` joined with ""), filed at once
        when none was filed before: a kept listing gives back a dir's 10,000 topics each run."""
        paths = [prefix + name for name in names]
        if not self.added.isdisjoint(paths):
            for path, name in zip(paths, names, strict=True):
                self.add_file(path, directory, name)
            return
        self.added.update(paths)
        self.files.setdefault(directory, []).extend(names)
        for marker in sorted(MARKERS.keys() & names, key=names.index):  # in listing order: the first wins
            self._marked_if_held(directory, marker)

    def holds(self, directory: str, marker: str) -> bool:
        """`holds_marker`, asked once per directory in a run: every file named alone in a memory dir
        (as pre-commit names them) asks it of the same folders."""
        key = (directory, marker)
        if key not in self.holds_asked:
            held = self.given.get(os.path.join(directory, marker))
            text = held[0].decode("utf-8", "replace") if held is not None else None
            self.holds_asked[key] = holds_marker(directory, marker, text)
        return self.holds_asked[key]

    def _marked_if_held(self, directory: str, marker: str) -> None:
        """A marker file filed in `directory`: the directory is its container if it `holds` it."""
        if self.holds(directory, marker):
            self._marked_by(directory, marker)

    def _marked_by(self, directory: str, marker: str) -> None:
        """`directory` holds a container's marker file: it is that container, under any name."""
        self.container_paths.setdefault(directory, type_named(MARKERS[marker]))
        self.marker_dirs.add(directory)


def holds_marker(directory: str, marker: str, text: str | None = None) -> bool:
    """Whether `directory` holds `marker` and is its container: a regular file by what its
    container type reads in its head (`ContainerType.confirms`), anything else standing at that
    name (a link, followed or not, a FIFO) by the name alone, never read. `text`: the marker's
    content given from elsewhere (standard input), standing for a file that need not exist."""
    path = os.path.join(directory, marker)
    if text is None:
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            return False
        if not regular:
            return True
        text = head(path)
        if text is None:  # refused (a dangerous link above it, or swapped): the rules that read it say why
            return True
    return type_named(MARKERS[marker]).confirms(directory, text)


class _Pending:
    """Directories still to walk, as (path, device-and-inode lineage, container above, mtime and
    ctime): the real ones first, depth first; then those reached through a link, by path."""

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


def _stamp(info: os.stat_result) -> tuple[int, int]:
    """A directory's mtime and ctime: with its device and inode, the key of its kept listing."""
    return info.st_mtime_ns, info.st_ctime_ns


def placed(directory: str, settings: Settings) -> ContainerType | None:
    """The container type `directory` is by where it is or by a configured glob, as the walk judges it."""
    return _Walk(settings).placed(directory)


def discover(
    paths: list[str],
    settings: Settings,
    given: dict[str, tuple[bytes, int]] | None = None,
    whole_containers: bool = True,
    listings: Listings | None = None,
) -> Tree:
    """Walk directories, find the containers, and classify every file through the kind registry.
    `given` maps named files (absolute) to their bytes and size read from elsewhere (standard
    input, `Document.take`): such a file need not exist, and is filed where it would be, with the
    tree around it from disk. `whole_containers=False`: a named file's container is made but not
    walked, so it holds the named files alone (the hook, which lints only what a write changed)."""
    given = given or {}
    walk = _Walk(settings)
    walk.given = given
    walk.listings = listings
    focus: set[str] = set()
    explicit_files: list[str] = []
    roots: list[str] = []
    excluded: list[str] = []
    for named in paths:
        path = os.path.abspath(named)
        if path not in given:
            _refuse_special(path, named)
        if walk.exclusion.forced(path):
            excluded.append(path)
            continue
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
            if path in given:
                walk.add_file(path)  # filed by its name, on disk or not; a marker makes its folder a container
            context = walk.enclosing_container(os.path.dirname(path))
            if context and not whole_containers:
                walk.claim_alone(context)
                if _no_link_between(context, os.path.dirname(path)):
                    walk.add_given(path)
            elif context:  # its container is walked, for the context its rules need
                placed = walk.placed(context)
                for container in [context, *(placed.companions(context) if placed else ())]:
                    walk.walk(container, container)
                if _no_link_between(context, os.path.dirname(path)):  # else the walk judged it by its real name
                    walk.add_given(path)  # the walk left it out if excluded: named, it is linted
            else:  # a file in no container: the kinds that need none may still claim it
                kind = kind_of(path.replace(os.sep, "/"), None)
                walk.add_given(path)
                for file in kind.companions(path) if kind else ():
                    walk.add_given(file, named=False)
    if settings.options["user-rules"]:
        for home in AGENT_HOMES:  # user-level rules dirs, linted as if named
            rules_dir = os.path.join(os.path.expanduser("~"), home, "rules")
            if os.path.isdir(rules_dir):
                walk.walk(rules_dir, rules_dir)
                focus.add(rules_dir)
    tree = Tree(os.path.commonpath(roots) if roots else os.getcwd(), settings.options)
    tree.links = walk.links
    tree.walked, tree.markers = walk.seen_dirs, walk.holds_asked
    tree.roots = roots
    tree.excluded = excluded
    _build(tree, walk, settings)
    for document in tree.documents:
        if document.path in given:
            document.take(*given[document.path])
    if explicit_files or _context_outside(tree, focus):
        tree.focus = _focus_set(tree, focus, explicit_files)
    return tree


def _no_link_between(container: str, folder: str) -> bool:
    """Whether `folder`, at or below `container`, is reached from it without a symlink."""
    real = os.path.realpath(container)
    return os.path.realpath(folder) == os.path.normpath(os.path.join(real, os.path.relpath(folder, container)))


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
        prefix = os.path.join(directory, "")  # joined once: `prefix + name` is `os.path.join(directory, name)`
        kinds = kinds_in(container_type) if container_type is not None else None
        filed: list[Document] = []
        for name in sorted(walk.files[directory]):
            path = prefix + name
            tree.files.append(path)
            rel = above + name
            kind = kind_of(rel, None) if kinds is None else first_kind(kinds, rel)
            if kind is None:
                if owner is not None:
                    owner.others.append(path)
                continue
            document = Document(path, kind, options, owner)
            document.rel = rel
            filed.append(document)
        tree.documents += filed
        if owner is not None:
            owner.add_all(filed)
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
