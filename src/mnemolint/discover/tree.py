"""What discovery found: the documents, the containers holding them, every file, every link."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.base import Container
    from mnemolint.parse.document import Document


class LinkRecord:
    """A symlink met by the walk. `problem` is None, "cycle" or "dangling"."""

    __slots__ = ("path", "target", "problem", "detail")

    def __init__(self, path: str, target: str, problem: str | None = None, detail: str = "") -> None:
        self.path = path
        self.target = target
        self.problem = problem
        self.detail = detail


class Tree:
    """Everything discovery found. `documents` are the files a kind claims (and the paths the walk
    could not read); `files` is every file walked that is not excluded, claimed or not, sorted by
    directory. `focus` is None when whole trees were asked for. `roots` are the directories named
    on the command line (none when only files were)."""

    __slots__ = ("root", "roots", "documents", "containers", "files", "links", "focus")

    def __init__(self, root: str) -> None:
        self.root = root
        self.documents: list[Document] = []
        self.containers: list[Container] = []
        self.files: list[str] = []
        self.links: list[LinkRecord] = []
        self.focus: set[str] | None = None
        self.roots: list[str] = []

    def in_focus(self, path: str) -> bool:
        return self.focus is None or path in self.focus
