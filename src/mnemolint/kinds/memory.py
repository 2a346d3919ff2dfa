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
UNKNOWN = "impossible to examine"  # never "missing": a line whose target may be there is never dropped

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")  # CommonMark: 2 to 32 characters
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
_WRITTEN_SUFFIX = re.compile(r"(?<!&)#|\?")  # where a name as written ends: `x&#38;y.md` is one name
# CommonMark, in one left-to-right pass: a backslash escape of ASCII punctuation (so `\&amp;` is
# `&amp;`), or an entity (an HTML5 name and its `;`) or numeric (1-7 digits, 1-6 hex) reference.
_REFERENCE = re.compile(r"\\([!-/:-@\[-`{-~])|&(?:#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));")


class Resolved:
    """Where an index link points: a path relative to the memory dir, or why it cannot be followed."""

    __slots__ = ("rel", "problem")

    def __init__(self, rel: str | None, problem: str | None) -> None:
        self.rel = rel
        self.problem = problem


class MemoryDir:
    """`index_link` is set when `MEMORY.md` is a symlink that was not followed (dangling, or out of
    the linted tree): then `index` is None although the agent may well have an index."""

    __slots__ = (
        "path",
        "index",
        "index_link",
        "topics",
        "reader",
        "_lines",
        "_topic_by_rel",
        "_resolved",
        "_exists_cache",
        "_cuts",
    )

    def __init__(self, path: str, index: Document | None, topics: list[Document]) -> None:
        self.path = path
        self.index = index
        self.index_link: str | None = None
        self.topics = topics
        self.reader = "wave" if f"{os.sep}.wave{os.sep}" in path + os.sep else "claude"
        self._lines: list[IndexLine] | None = None
        self._topic_by_rel: dict[str, Document] | None = None
        self._resolved: dict[str, Resolved | None] = {}  # every index rule asks for the same targets
        self._exists_cache: dict[str, bool | None] = {}
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
        if target not in self._resolved:
            self._resolved[target] = self._resolve(target)
        return self._resolved[target]

    def _resolve(self, target: str) -> Resolved | None:
        if not target or target.startswith("#"):
            return None
        if target.startswith("//") or (_SCHEME.match(target) and not _DRIVE.match(target)):
            return Resolved(None, URL)
        if target.startswith(("/", "\\", "~")) or _DRIVE.match(target):
            return Resolved(None, ABSOLUTE)
        candidates = _candidates(target)
        unknown: str | None = None
        for rel in candidates:
            if _escapes(rel):
                continue  # never looked for outside the memory dir
            found = rel in self.topic_by_rel or self._exists(rel)
            if found:
                return Resolved(rel, None)
            if found is None and unknown is None:
                unknown = rel
        if unknown is not None:
            return Resolved(unknown, UNKNOWN)
        last = candidates[-1]
        return Resolved(last, ESCAPES if _escapes(last) else MISSING)

    def _exists(self, rel: str) -> bool | None:
        """Whether `rel` is in the memory dir; None when that cannot be known (a directory on the way
        that may not be searched, a loop of links, a name too long for the system)."""
        if rel not in self._exists_cache:
            try:
                os.stat(os.path.join(self.path, *rel.split("/")))
                found: bool | None = True
            except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in the name
                found = False
            except OSError:
                found = None
            self._exists_cache[rel] = found
        return self._exists_cache[rel]


def _candidates(target: str) -> list[str]:
    """The memory-dir-relative names a link destination may stand for, most literal first.

    A file may well be called `ideas&amp;notes.md` or `a%20b.md`, so the name as written comes
    first (up to its `#fragment` or `?query`);
    then the destination as CommonMark reads it (escapes and references decoded, then split as
    the rendered URL is; backslashes that escape nothing taken for separators); then that
    percent-decoded, as a browser or agent opens it. The last one is what a missing target is
    reported as.
    """
    decoded = [_REFERENCE.sub(_decode_reference, target).split("#", 1)[0].split("?", 1)[0]]
    if "%" in decoded[0]:
        from urllib.parse import unquote

        decoded.append(unquote(decoded[0], errors="surrogateescape"))  # bytes as in `os.fsdecode`d names
    names = [posixpath.normpath(_WRITTEN_SUFFIX.split(target, 1)[0])]
    names += [posixpath.normpath(name.replace("\\", "/")) for name in decoded]
    return list(dict.fromkeys(names))


def _decode_reference(match: re.Match) -> str:
    """What CommonMark reads for one escape or reference (`_REFERENCE`); an unknown name stays as is."""
    escaped, decimal, hexadecimal, name = match.groups()
    if escaped is not None:
        return escaped
    if name is not None:
        from html.entities import html5

        return html5.get(name + ";", match.group())
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    # Code point 0, surrogates and anything past Unicode read as U+FFFD.
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _escapes(rel: str) -> bool:
    """Whether a normalized relative path leads out of the memory dir."""
    return rel == ".." or rel.startswith("../")
