"""What discovery found: the documents, the containers holding them, every file, every link."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")

    from mnemolint.kinds.base import Container
    from mnemolint.parse.document import Document
    from mnemolint.project import Project


class LinkRecord:
    """A symlink met by the walk, judged by `lstat`/`readlink`/`realpath` only (nothing behind it is
    opened). `problem` is None, "cycle" or "dangling"; `resolved` is where it really leads, every
    link of a chain followed (as far as it goes, for a dangling link); `is_dir` whether it leads
    to a directory; `outside` whether it leads out of the repository (the nearest directory at or
    above the linted root holding `.git`, else that root); `sensitive` what makes where it leads
    a place no memory may lead to (`paths.sensitive_place`), or None."""

    __slots__ = ("path", "target", "problem", "detail", "resolved", "is_dir", "outside", "sensitive")

    def __init__(
        self,
        path: str,
        target: str,
        problem: str | None = None,
        detail: str = "",
        *,
        resolved: str = "",
        is_dir: bool = False,
        outside: bool = False,
        sensitive: str | None = None,
    ) -> None:
        self.path = path
        self.target = target
        self.problem = problem
        self.detail = detail
        self.resolved = resolved
        self.is_dir = is_dir
        self.outside = outside
        self.sensitive = sensitive


class Tree:
    """Everything discovery found. `documents` are the files a kind claims (and the paths the walk
    could not read); `files` is every file walked that is not excluded, claimed or not, sorted by
    directory. `focus` is None when whole trees were asked for. `roots` are the directories named
    on the command line (none when only files were); `excluded` the paths named that
    `force-exclude` left out (discover/exclusion.py). `walked` are the directories the walk
    listed and `markers` each (directory, marker file) it judged, with its answer: what the tree
    was made of besides the files' names, for a process that keeps it (lsp/kept.py)."""

    __slots__ = (
        "root",
        "roots",
        "excluded",
        "documents",
        "containers",
        "files",
        "links",
        "focus",
        "options",
        "walked",
        "markers",
        "_projects",
        "_derived",
    )

    def __init__(self, root: str, options: dict | None = None) -> None:
        self.root = root
        self.documents: list[Document] = []
        self.containers: list[Container] = []
        self.files: list[str] = []
        self.links: list[LinkRecord] = []
        self.focus: set[str] | None = None
        self.roots: list[str] = []
        self.excluded: list[str] = []
        self.options = options or {}  # the run's: what a project reads (`agents`, `max-file-bytes`)
        self.walked: set[str] = set()
        self.markers: dict[tuple[str, str], bool] = {}
        self._projects: dict[str, Project] = {}
        self._derived: dict[str, object] = {}

    def project_at(self, path: str) -> Project:
        """The project whose folder is `path`, made once (rules dirs of one folder share it)."""
        project = self._projects.get(path)
        if project is None:
            from mnemolint.project import Project

            project = self._projects[path] = Project(path, self.options)
        return project

    def derived(self, key: str, make: Callable[[Tree], T]) -> T:
        """What `make(tree)` computes, once per run: facts several tree rules share (the files each
        `CLAUDE.md` imports, the `AGENTS.md` chains)."""
        if key not in self._derived:
            self._derived[key] = make(self)
        return self._derived[key]  # type: ignore[return-value]

    def in_focus(self, path: str) -> bool:
        return self.focus is None or path in self.focus

    def focused(self) -> list[Document]:
        """The documents in focus, in walk order: every one when the run named no part of a tree
        (a warm run over 10,000 files then asks no question per file)."""
        focus = self.focus
        if focus is None:
            return list(self.documents)
        return [document for document in self.documents if document.path in focus]
