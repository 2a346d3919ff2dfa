"""What the language server knows between requests, and how it lints with it.

A workspace folder is a project as `mnemolint check` run there sees it: its settings are the
configuration the CLI would load for it (with the server's own `--config`, `--select`, `--preview`
on top), and nothing outside a folder is ever linted or read. The editor's open buffers stand for
their files (`parse.document.overlay`), so every read of a rule — the file itself, the index a topic
is judged against, an imported file — gets the text being edited, not what is on disk. A lint runs
on every open buffer of a folder at once, with the cache, so that each is judged in its tree's
context (an index against its topics, a topic against its index) and an edit to one updates the
findings of the others.
"""

from __future__ import annotations

import os
import time

from mnemolint.errors import ConfigError
from mnemolint.parse import document as documents
from mnemolint.paths import dangerous_link, inside

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

    from mnemolint.config import Settings
    from mnemolint.discover.tree import Tree
    from mnemolint.engine import Result
    from mnemolint.lsp.kept import Kept
    from mnemolint.model import Diagnostic
    from mnemolint.parse.document import Document


class Buffer:
    """An open document: its text as the editor holds it, and the version the editor gave it."""

    __slots__ = ("path", "text", "version")

    def __init__(self, path: str, text: str, version: int | None) -> None:
        self.path = path
        self.text = text
        self.version = version


class Folder:
    """A workspace folder: its root, its settings (None with `error` when its configuration is
    bad), the last run over its open buffers and the buffer versions that run saw."""

    def __init__(self, root: str, make_settings: Callable[[str], Settings]) -> None:
        self.root = os.path.abspath(root)
        self.real = os.path.realpath(self.root)
        self._make_settings = make_settings
        self.settings: Settings | None = None
        self.error: str | None = None
        self.told = False  # whether the editor was shown `error`
        self.result: Result | None = None
        self.linted: dict[str, int | None] = {}  # path → buffer version the last run read
        self.known: dict[str, tuple[object, Document]] = {}  # each file's last document, by its state
        self.states: dict[str, object] = {}  # each file's state as the current run began
        self.kept: Kept | None = None  # the last tree, while it stands
        self.reload()

    def reload(self) -> None:
        """Read the configuration again (it changed on disk, or the folder was added)."""
        from mnemolint.engine import active_rules

        try:
            settings = self._make_settings(self.root)
            active_rules(settings)  # a selector naming no rule is an error of the configuration, said once
            self.settings, self.error = settings, None
        except ConfigError as error:
            self.settings, self.error = None, str(error)
        self.result, self.known, self.kept, self.told = None, {}, None, False

    def walk(self, paths: list[str], settings: Settings, buffers: dict[str, str]) -> Tree:
        """The tree of a run over `paths`: the last one renewed while it still stands (lsp/kept.py:
        a keystroke walks nothing), else a new walk's. Either way each document of an unchanged
        file, or of a buffer whose text is unchanged, is what the last run read of it: a keystroke
        reads only the buffer typed in, not the 2,000 topics around it."""
        self.states = {}
        if self.kept is not None and self.kept.stands(paths, buffers):
            return self.kept.renew(lambda document: self._held(document, buffers))
        self.kept = None
        from mnemolint.discover.walk import discover

        tree = discover(paths, settings)
        for document in tree.documents:
            held = self._held(document, buffers)
            if held is not None:
                document.take_over(held)
        return tree

    def _held(self, document: Document, buffers: dict[str, str]) -> Document | None:
        """The last run's document of this file while the file is unchanged (size, modification
        time, inode) or, for an open buffer, its text is; the state is noted for `remember`."""
        text = buffers.get(document.path)
        state = self.states[document.path] = text if text is not None else _stat_key(document.path)
        held = self.known.get(document.path)
        if held is None or held[1].kind is not document.kind or held[0] != state:
            return None
        return held[1]

    def remember(self, tree: Tree, paths: list[str], started: int, buffers: dict[str, str]) -> None:
        """Keep the documents of a run that read their files, by the state of each file before the
        run (by its text, for a buffer); a file modified since just before the run began may have
        changed again unseen (the cache's racy files), and is read again next time. Keep the tree
        too, while whether it still stands can be told (`Kept.of`)."""
        from mnemolint.cache import RACY_NS
        from mnemolint.lsp.kept import Kept

        known: dict[str, tuple[object, Document]] = {}
        for document in tree.documents:
            if document.kind is None or not document.known:
                continue
            state = self.states.get(document.path)
            if state is None or isinstance(state, tuple) and state[1] >= started - RACY_NS:
                continue
            known[document.path] = (state, document)
        self.known = known
        if self.kept is None:
            self.kept = Kept.of(tree, paths, started, buffers)

    def forget_tree(self) -> None:
        """Files were created, deleted or changed outside the editor: walk again on the next lint."""
        self.kept = None

    def enter(self) -> None:
        """Work from the folder, as `mnemolint check` run there does: the tree's root, the paths a
        fix may write and the paths messages show are the current directory's."""
        os.chdir(self.root)

    def owns(self, path: str) -> bool:
        """Whether `path` is in this folder, by its name and by where links along it lead, and is
        not behind a link to a sensitive place: the server reads nothing else."""
        return inside(path, self.root) and inside(os.path.realpath(path), self.real) and dangerous_link(path) is None


class Session:
    """The folders, the buffers, and the findings of the last run on each buffer."""

    def __init__(self, make_settings: Callable[[str], Settings]) -> None:
        self.make_settings = make_settings
        self.folders: dict[str, Folder] = {}
        self.buffers: dict[str, Buffer] = {}
        self.findings: dict[str, list[Diagnostic]] = {}

    # Folders

    def add_folder(self, root: str) -> Folder:
        folder = self.folders.get(os.path.abspath(root))
        if folder is None:
            folder = self.folders[os.path.abspath(root)] = Folder(root, self.make_settings)
        return folder

    def remove_folder(self, root: str) -> None:
        self.folders.pop(os.path.abspath(root), None)
        self._overlay()

    def folder_of(self, path: str) -> Folder | None:
        """The innermost folder that owns `path`, or None: then nothing of it is read."""
        owners = [folder for folder in self.folders.values() if folder.owns(path)]
        return max(owners, key=lambda folder: len(folder.root), default=None)

    # Buffers

    def open(self, path: str, text: str, version: int | None) -> None:
        self.buffers[path] = Buffer(path, text, version)
        self._overlay()

    def change(self, path: str, text: str, version: int | None) -> None:
        buffer = self.buffers.get(path)
        if buffer is None:
            self.open(path, text, version)
            return
        buffer.text, buffer.version = text, version
        documents.overlay(self._texts())

    def close(self, path: str) -> None:
        self.buffers.pop(path, None)
        self.findings.pop(path, None)
        self._overlay()

    def _texts(self) -> dict[str, str]:
        return {path: buffer.text for path, buffer in self.buffers.items() if self.folder_of(path) is not None}

    def _overlay(self) -> None:
        documents.overlay(self._texts())

    def text_of(self, path: str, options: dict) -> str | None:
        """The text of `path` as a rule would read it: the buffer's, else the file's (bounded, never
        through a dangerous link); None when it cannot be read."""
        buffer = self.buffers.get(path)
        if buffer is not None:
            return buffer.text
        return documents.Document(path, None, options).text

    # Linting

    def open_in(self, folder: Folder) -> list[str]:
        """The open buffers of `folder` whose files exist (a buffer not yet saved has no place in
        the tree the walk finds)."""
        return sorted(path for path in self.buffers if self.folder_of(path) is folder and os.path.lexists(path))

    def stale(self, folder: Folder) -> bool:
        """Whether a buffer of `folder` changed since its last run (or the run is missing)."""
        if folder.result is None:
            return True
        current = {path: self.buffers[path].version for path in self.open_in(folder)}
        return current != folder.linted

    def lint(self, folder: Folder) -> dict[str, list[Diagnostic]]:
        """Lint every open buffer of `folder` together, with the cache; the findings by buffer (every
        open buffer of the folder has an entry, empty when it has none)."""
        from mnemolint.engine import lint
        from mnemolint.report import shown

        paths = self.open_in(folder)
        versions = {path: self.buffers[path].version for path in paths}
        by_path: dict[str, list[Diagnostic]] = {path: [] for path in paths}
        if folder.settings is None or not paths:
            folder.result, folder.linted = None, versions
            self.findings.update(by_path)
            return by_path
        texts = self._texts()
        documents.overlay(texts)
        folder.enter()
        started = time.time_ns()
        walk = lambda paths, settings: folder.walk(paths, settings, texts)  # noqa: E731
        try:
            folder.result = lint(paths, folder.settings, cache=True, walk=walk)
        except BaseException:
            folder.forget_tree()  # a run that did not end leaves no tree to renew
            raise
        folder.remember(folder.result.tree, paths, started, texts)
        folder.linted = versions
        # Only the buffers' findings are shown: redacting the rest (a memory dir's MEM105 on each
        # closed topic) would cost a keystroke more than its lint.
        for diagnostic in shown([each for each in folder.result.diagnostics if each.path in by_path]):
            by_path[diagnostic.path].append(diagnostic)
        self.findings.update(by_path)
        return by_path

    def fresh(self, folder: Folder) -> Result | None:
        """The last run of `folder`, linted again first if a buffer changed since."""
        if self.stale(folder):
            self.lint(folder)
        return folder.result


def _stat_key(path: str) -> tuple[int, int, int] | None:
    """What says a file is unchanged, as the cache judges it: size, modification time, inode."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)
