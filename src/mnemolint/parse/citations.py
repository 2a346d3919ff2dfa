"""The `path/file.ext:123` citations of a memory's text: which file and which lines it points at.

A citation is a relative path with an extension followed by `:LINE`, `:START-END` or GitHub's
`#LLINE` / `#LSTART-LEND` (`src/app.py:12`, `api/main.py:117-152`, `src/Delta.fs#L230`); and in a
`相关文件` section (the `.ai-memory` skill's Known Issue template, `- [文件路径:行号]`) a list item that is a
path alone, the line left out. Plain text and code spans count; a fenced block does not (it holds
commands and the output they printed then: `grep -c` prints `file:0`). Not a citation: a URL
(`https://x/a.py:12`), `host:port` (`127.0.0.1:3000`; a host name ending like a file is left to
the rule, which finds no such file), a time (`12:30`), a Windows path (`C:\\a.py:3`), an
absolute or `~` path, one with `..`, line 0, and a name written as a pattern (`db.*.co:5432`).

Pure text in, citations out; what the cited file is, is the rules' question (rules/citations.py).
"""

from __future__ import annotations

import re

from mnemolint.patterns import Lazy

# Before a path: not a path, URL, host or drive character (`/x/a.py`, `//h/a.py`, `C:\a.py`,
# `user@host.com:22`, `~/a.py`, `*.co:5432`). After the line: no letter or digit (`llama3.2:3b`).
_PATH = r"(?P<path>(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z][A-Za-z0-9]{0,9})"
# Compiled on first use: a run that meets no citation never compiles them.
_CITATION = Lazy(
    r"(?<![A-Za-z0-9_./\\:@~*%$#+=-])" + _PATH + r"(?::(?P<line>[0-9]{1,7})(?:[-–](?P<end>[0-9]{1,7}))?"
    r"|#L(?P<hline>[0-9]{1,7})(?:-L?(?P<hend>[0-9]{1,7}))?)(?![A-Za-z0-9_]|\.[0-9])"
)
# A `相关文件` list item holding one path: `- src/a.py`, `` - `src/a.py` ``, `- [src/a.py]`,
# with or without its line, and maybe a note after a dash or a colon.
_LISTED = Lazy(r"\s*[-*+]\s+[\[`]*" + _PATH + r"(?::[0-9]{1,7}(?:[-–][0-9]{1,7})?)?[\]`]*(?:\s+\S.*|[:：].*)?")
_RELATED = Lazy(r" {0,3}#{1,6}\s*相关文件\s*#*\s*")
_HEADING = Lazy(r" {0,3}(#{1,6})\s")
_FENCE = Lazy(r" {0,3}(`{3,}|~{3,})")
# A bare name ending like these is a host (`db.pooler.supabase.com:6543`), not a file.
_HOSTS = frozenset(("com", "net", "org", "io", "co", "dev", "app", "ai", "cloud", "local", "internal", "localhost"))
# What a text with a citation holds: an extension then `:1`-`:9` or `#L`. Led by a literal `.`,
# this one pass is ten times faster than substring tests for each mark (measured on 14 MB of
# topics: 0.01 s), and it lets through 2 % of them; the full expression then runs on those only.
_MARK = Lazy(r"\.[A-Za-z][A-Za-z0-9]{0,9}(?::[1-9]|#L[1-9])")
_RELATED_MARK = "相关文件"


class Citation:
    """One citation: the text as written, the path, its first and last line (None: the whole
    file, as a `相关文件` item names it), and where it stands (1-based line and column)."""

    __slots__ = ("written", "path", "line", "end", "row", "column")

    def __init__(self, written: str, path: str, line: int | None, end: int | None, row: int, column: int) -> None:
        self.written = written
        self.path = path
        self.line = line
        self.end = end
        self.row = row
        self.column = column

    @property
    def last(self) -> int | None:
        """The last line it names: the end of a range, else its line."""
        return self.end if self.end is not None else self.line

    def __repr__(self) -> str:
        return f"Citation({self.written!r} at {self.row}:{self.column})"


def may_cite(text: str) -> bool:
    """Whether `text` could hold a citation at all: one fast pass, before any line is looked at."""
    return _RELATED_MARK in text or _MARK.search(text) is not None


def find(lines: list[str]) -> list[Citation]:
    """The citations of a text split into `lines`, outside fenced blocks, in reading order."""
    found: list[Citation] = []
    fence: str | None = None
    related = 0  # the level of the `相关文件` heading we are under, 0 when none
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r")
        if fence is not None:
            if text.strip().startswith(fence):
                fence = None
            continue
        opened = _FENCE.match(text)
        if opened:
            fence = opened.group(1)[0] * 3
            continue
        heading = _HEADING.match(text)
        if heading:
            level = len(heading.group(1))
            if _RELATED.fullmatch(text):
                related = level
                continue
            if level <= related:
                related = 0
        before = len(found)
        for match in _CITATION.finditer(text):
            citation = _citation(match, number)
            if citation is not None:
                found.append(citation)
        if related and len(found) == before:
            listed = _LISTED.fullmatch(text)
            if listed and _usable(listed.group("path")):
                found.append(Citation(listed.group("path"), _clean(listed.group("path")), None, None, number, 1))
    return found


def _citation(match: re.Match, row: int) -> Citation | None:
    path = match.group("path")
    first = match.group("line") or match.group("hline")
    last = match.group("end") or match.group("hend")
    line = int(first)
    end = int(last) if last else None
    if line == 0 or not _usable(path):
        return None
    if end is not None and end < line:  # `12-3` is no range: keep the line
        end = None
    return Citation(match.group(0), _clean(path), line, end, row, match.start() + 1)


def _usable(path: str) -> bool:
    """A path the project can answer for: relative, no `..`, no empty part."""
    parts = _clean(path).split("/")
    if len(parts) == 1 and parts[0].rsplit(".", 1)[1].lower() in _HOSTS:
        return False
    return all(part not in ("", ".", "..") for part in parts)


def _clean(path: str) -> str:
    return path[2:] if path.startswith("./") else path
