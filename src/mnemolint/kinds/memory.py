"""An auto-memory directory: its `MEMORY.md` index, its topic files, and how index links resolve.

Index rules get one `MemoryDir` and share what it computes once: the classified index lines and
the resolution of every link target.
"""

from __future__ import annotations

import os
import posixpath
import re

from mnemolint.parse.document import Document
from mnemolint.parse.index_lines import IndexLine, LoadCut, classify, load_cut

INDEX_NAME = "MEMORY.md"

URL = "a URL"
ABSOLUTE = "an absolute path"
ESCAPES = "outside the memory dir"
MISSING = "missing"

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")  # CommonMark: 2 to 32 characters
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: a backslash escapes ASCII punctuation


class Resolved:
    """Where an index link points: a path relative to the memory dir, or why it cannot be followed."""

    __slots__ = ("rel", "problem")

    def __init__(self, rel: str | None, problem: str | None) -> None:
        self.rel = rel
        self.problem = problem


class MemoryDir:
    """`index_link` is set when `MEMORY.md` is a symlink that was not followed (dangling, or out of
    the linted tree): then `index` is None although the agent may well have an index."""

    __slots__ = ("path", "index", "index_link", "topics", "reader", "_lines", "_topic_by_rel", "_exists_cache", "_cuts")

    def __init__(self, path: str, index: Document | None, topics: list[Document]) -> None:
        self.path = path
        self.index = index
        self.index_link: str | None = None
        self.topics = topics
        self.reader = "wave" if f"{os.sep}.wave{os.sep}" in path + os.sep else "claude"
        self._lines: list[IndexLine] | None = None
        self._topic_by_rel: dict[str, Document] | None = None
        self._exists_cache: dict[str, bool] = {}
        self._cuts: dict[tuple[int, int], LoadCut] = {}

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
                # An unclosed `---` is no frontmatter here: the agent loads the index as is.
                self._lines = classify(index.lines, index.frontmatter.close_line)
        return self._lines

    def cut(self, max_lines: int, max_chars: int) -> LoadCut | None:
        """What the agent's loader keeps of the index (None when there is no readable index)."""
        if self.index is None or self.index.text is None:
            return None
        key = (max_lines, max_chars)
        if key not in self._cuts:
            self._cuts[key] = load_cut(self.index.text, max_lines, max_chars)
        return self._cuts[key]

    def linked(self, through_line: int | None = None) -> set[str]:
        """Memory-dir-relative paths that an index line (up to `through_line`, if given) links to."""
        return {
            resolved.rel
            for line in self.lines
            if through_line is None or line.number <= through_line
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
        if "\\" in path or "&" in path:  # Markdown escapes (`a\_b.md`) and entities (`a&amp;b.md`)
            import html

            path = html.unescape(_ESCAPED.sub(r"\1", path))
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
