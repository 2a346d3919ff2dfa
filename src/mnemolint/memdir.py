"""An auto-memory directory: its `MEMORY.md` index, its topic files, and how index links resolve.

Index rules get one `MemoryDir` and share what it computes once: the classified index lines and
the resolution of every link target.
"""

from __future__ import annotations

import os
import posixpath
import re

from mnemolint.document import Document
from mnemolint.index_lines import IndexLine, classify

INDEX_NAME = "MEMORY.md"

URL = "a URL"
ABSOLUTE = "an absolute path"
ESCAPES = "outside the memory dir"
MISSING = "missing"

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


class Resolved:
    """Where an index link points: a path relative to the memory dir, or why it cannot be followed."""

    __slots__ = ("rel", "problem")

    def __init__(self, rel: str | None, problem: str | None) -> None:
        self.rel = rel
        self.problem = problem


class MemoryDir:
    __slots__ = ("path", "index", "topics", "reader", "_lines", "_topic_by_rel", "_exists_cache")

    def __init__(self, path: str, index: Document | None, topics: list[Document]) -> None:
        self.path = path
        self.index = index
        self.topics = topics
        self.reader = "wave" if f"{os.sep}.wave{os.sep}" in path + os.sep else "claude"
        self._lines: list[IndexLine] | None = None
        self._topic_by_rel: dict[str, Document] | None = None
        self._exists_cache: dict[str, bool] = {}

    @property
    def index_path(self) -> str:
        return os.path.join(self.path, INDEX_NAME)

    @property
    def topic_by_rel(self) -> dict[str, Document]:
        if self._topic_by_rel is None:
            self._topic_by_rel = {topic.rel: topic for topic in self.topics}
        return self._topic_by_rel

    @property
    def lines(self) -> list[IndexLine]:
        """The index's classified lines; empty when there is no readable index."""
        if self._lines is None:
            index = self.index
            if index is None or not index.readable:
                self._lines = []
            else:
                frontmatter = index.frontmatter
                end = frontmatter.close_line or (len(index.lines) if frontmatter.present else 0)
                self._lines = classify(index.lines, end)
        return self._lines

    def linked(self) -> set[str]:
        """Memory-dir-relative paths that some index line links to."""
        return {
            resolved.rel
            for line in self.lines
            for link in line.links
            if (resolved := self.resolve(link.target)) and resolved.rel and not resolved.problem
        }

    def resolve(self, target: str) -> Resolved | None:
        """Resolve a link target against the memory dir; None for in-page anchors and empty links."""
        if not target or target.startswith("#"):
            return None
        if target.startswith("//") or (_SCHEME.match(target) and not _DRIVE.match(target)):
            return Resolved(None, URL)
        if target.startswith(("/", "\\", "~")) or _DRIVE.match(target):
            return Resolved(None, ABSOLUTE)
        path = target.split("#", 1)[0].split("?", 1)[0]
        if "%" in path:
            from urllib.parse import unquote

            path = unquote(path)
        rel = posixpath.normpath(path.replace("\\", "/"))
        if rel == ".." or rel.startswith("../"):
            return Resolved(rel, ESCAPES)
        if rel in self.topic_by_rel or self._exists(rel):
            return Resolved(rel, None)
        return Resolved(rel, MISSING)

    def _exists(self, rel: str) -> bool:
        if rel not in self._exists_cache:
            self._exists_cache[rel] = os.path.exists(os.path.join(self.path, *rel.split("/")))
        return self._exists_cache[rel]
