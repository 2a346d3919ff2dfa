"""A workspace folder's last tree, kept for its next lint while nothing the tree was made of changed.

A keystroke changes a buffer, not the files around it, yet a lint walks the buffer's memory dir
again (its 2,000 topics) and files a new document for each. The server keeps the last tree
instead, and makes the next one from it (`renew`: new containers, the documents of unchanged
files carried over, a new one for each changed file) as long as the file system's own record says
that what the walk found still stands (`stands`):

- every directory the walk listed, and the folder of every path linted, has the same inode,
  modification and change time: no entry in it was created, deleted, renamed or changed type, nor
  its permissions;
- every marker file the walk judged (a `MEMORY.md`: is its folder a memory dir?) and every
  `.gitignore` at or above a walked directory is the same file (size, modification time, inode)
  or, for an open buffer, gives the same answer (a keystroke in `MEMORY.md` keeps its tree while
  it still reads as an index);
- every container's companions (the other agent's rules dir beside a rules dir), and those of a
  file in no container (the other instruction files of its folder), are the same.

A tree with links or paths the walk could not read is never kept (where a link leads can change
with no directory above it changing), nor one read with the user's own rules dirs, nor one whose
directories changed too recently for their times to tell (the cache's racy window). The
documents themselves are judged as before a kept tree: by their file's stat key, or a buffer's
text (`Folder.walk`).
"""

from __future__ import annotations

import os

from mnemolint.cache import RACY_NS
from mnemolint.discover.tree import Tree
from mnemolint.discover.walk import holds_marker
from mnemolint.parse.document import Document
from mnemolint.paths import upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

    from mnemolint.kinds.base import Container

GITIGNORE = ".gitignore"


class Kept:
    """A tree, the paths it was discovered for, and the state of what it was made of."""

    __slots__ = ("tree", "paths", "directories", "files", "markers", "companions")

    def __init__(self, tree: Tree, paths: list[str]) -> None:
        self.tree = tree
        self.paths = paths
        self.directories: dict[str, tuple[int, int, int] | None] = {}
        self.files: dict[str, object] = {}  # marker files and `.gitignore`s: stat key, or buffer text
        self.markers = dict(tree.markers)
        self.companions = _companions(tree)

    @classmethod
    def of(cls, tree: Tree, paths: list[str], started: int, texts: dict[str, str]) -> Kept | None:
        """What to keep of a run over `paths` that began at `started` (ns), or None when whether
        its tree still stands could not be told (see the module's doc)."""
        if tree.links or tree.options.get("user-rules") or any(document.kind is None for document in tree.documents):
            return None
        kept = cls(tree, paths)
        folders = set(tree.walked) | {os.path.dirname(path) for path in paths}
        for directory in folders:
            key = _directory_key(directory)
            if key is not None and key[1] >= started - RACY_NS:
                return None  # an entry changed just before the run: another may change it in the same tick
            kept.directories[directory] = key
        above = {each for directory in folders for each in upwards(directory)}
        probed = [os.path.join(directory, marker) for directory, marker in tree.markers]
        for path in [*probed, *(os.path.join(directory, GITIGNORE) for directory in above)]:
            state = _state(path, texts)
            if isinstance(state, tuple) and state[1] >= started - RACY_NS:
                return None
            kept.files[path] = state
        return kept

    def stands(self, paths: list[str], texts: dict[str, str]) -> bool:
        """Whether a walk over `paths` now would find what this tree holds."""
        if paths != self.paths:
            return False
        if any(_directory_key(directory) != key for directory, key in self.directories.items()):
            return False
        judged = {(directory, marker): os.path.join(directory, marker) for directory, marker in self.markers}
        open_markers = {path for path in judged.values() if path in texts}
        for path, state in self.files.items():
            if path not in open_markers and _state(path, texts) != state:
                return False
        for (directory, marker), held in self.markers.items():
            if judged[directory, marker] in open_markers and holds_marker(directory, marker) != held:
                return False  # an open marker file is judged by what it answers, not by its text
        return _companions(self.tree) == self.companions

    def renew(self, reuse: Callable[[Document], Document | None]) -> Tree:
        """A new tree of the same files, as the walk would build it: new containers (carrying only
        what `Container.carry` vouches for), each document `reuse` gives (an unchanged file's,
        carried over) or a new one."""
        old = self.tree
        tree = Tree(old.root, old.options)
        tree.files, tree.roots, tree.excluded = list(old.files), old.roots, old.excluded
        tree.focus = None if old.focus is None else set(old.focus)
        tree.walked, tree.markers = old.walked, old.markers
        containers: dict[int, Container] = {}
        for container in old.containers:
            made = container.type.make(container.path)
            made.marker_link, made.others = container.marker_link, list(container.others)
            containers[id(container)] = made
        for earlier in old.documents:
            owner = containers[id(earlier.container)] if earlier.container is not None else None
            document = reuse(earlier)
            if document is None:
                document = Document(earlier.path, earlier.kind, old.options, owner)
                document.rel = earlier.rel
            else:
                document.container, document.keep = owner, False
            tree.documents.append(document)
            if owner is not None:
                owner.add(document)
        tree.containers = list(containers.values())
        for container in old.containers:
            containers[id(container)].carry(container)
        for container in tree.containers:
            container.settle(tree)
        self.tree = tree
        return tree


def _companions(tree: Tree) -> list[list[str]]:
    """What discovery asked besides the walk: each container's companions (walked with it), and
    those of each document in no container."""
    found = [container.type.companions(container.path) for container in tree.containers]
    found += [
        document.kind.companions(document.path)
        for document in tree.documents
        if document.container is None and document.kind is not None
    ]
    return found


def _state(path: str, texts: dict[str, str]) -> object:
    """A file as the walk read it: a buffer's text, else its size, modification time and inode
    (None when there is nothing at the path)."""
    if path in texts:
        return texts[path]
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


def _directory_key(path: str) -> tuple[int, int, int] | None:
    """A directory's inode, modification and change time: an entry created, deleted or renamed
    in it moves the first, a change of its permissions the second."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_ctime_ns)
