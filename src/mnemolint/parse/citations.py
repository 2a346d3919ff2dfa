"""The `path/file.ext:123` citations of a memory's text: which file and which lines it points at.

A citation is a relative path with an extension followed by `:LINE`, `:START-END` or GitHub's
`#LLINE` / `#LSTART-LEND` (`src/app.py:12`, `api/main.py:117-152`, `src/Delta.fs#L230`); and in a
`相关文件` section (the `.ai-memory` skill's Known Issue template, `- [文件路径:行号]`) a list item that is a
path alone, the line left out. Plain text and code spans count; a fenced block does not (it holds
commands and the output they printed then: `grep -c` prints `file:0`). Not a citation: a URL
(`https://x/a.py:12`), `host:port` (`127.0.0.1:3000`; a host name ending like a file is left to
the rule, which finds no such file), a time (`12:30`), a Windows path (`C:\\a.py:3`), an
absolute or `~` path, one with `..`, line 0, and a name written as a pattern (`db.*.co:5432`).
Code is what the Markdown layer says is code (fenced or indented, parse/markdown.py): a fence of
four backticks holds a line of three.

A citation of another codebase is found but marked `foreign`: one on a line, under a heading, or in
a memory whose frontmatter says so — a code host's URL (`github.com/owner/repo`), `owner/repo@sha`
or `owner/repo#12`, `repo owner/name`, `upstream`, `another repository`, `in the react repo` —
is not about the project, whatever file of it has that name (`_FOREIGN`).

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
_FENCE = Lazy(r" {0,3}(`{3,}|~{3,})([^`]*)$")
# What says a citation is another codebase's: a code host's address, a repository named with its
# owner (`owner/repo@sha`, `owner/repo#12`, `repo owner/name`, not a cited path), `upstream`, or a repository named as
# another's (`another repo`, `third-party package`, `in the react repo`; not `this`, `our`, `the
# same` or `the main` one). Quantifiers are bounded: it runs on lines of any length.
_FOREIGN = Lazy(
    r"\b(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|gitee\.com|sr\.ht|googlesource\.com"
    r"|sourcegraph\.com)/"
    r"|(?<![\w./-])[\w-]{1,100}/[\w.-]{1,100}(?:@[0-9a-f]{7,40}|#[0-9]{1,7})\b"
    r"|\b(?:repo|repository)\s{0,3}[:=]?\s{0,3}`?[\w-]{1,100}/[\w.-]{1,100}(?![\w./-]|:[0-9]|#L[0-9])"
    r"|\bupstream\b"
    r"|\b(?:another|other|external|third[- ]party|vendored|separate|sibling|their)\s{1,3}"
    r"(?:repo|repository|repositories|repos|codebase|package|library)\b"
    r"|\b(?:in|from|of)\s{1,3}(?!this\b|our\b|the\s{1,3}(?:same|main|current)\b)(?:the\s{1,3})?`?[A-Za-z][\w.-]{0,100}`?"
    r"\s{1,3}(?:repo|repository|codebase)\b",
    re.IGNORECASE,
)
_FRONTMATTER_LINES = 50  # how far down a frontmatter's closing `---` is looked for
# A bare name ending like these is a host (`db.pooler.supabase.com:6543`), not a file.
_HOSTS = frozenset(("com", "net", "org", "io", "co", "dev", "app", "ai", "cloud", "local", "internal", "localhost"))
# What a text with a citation holds: an extension then `:1`-`:9` or `#L`. Led by a literal `.`,
# this one pass is ten times faster than substring tests for each mark (measured on 14 MB of
# topics: 0.01 s), and it lets through 2 % of them; the full expression then runs on those only.
_MARK = Lazy(r"\.[A-Za-z][A-Za-z0-9]{0,9}(?::[1-9]|#L[1-9])")
_RELATED_MARK = "相关文件"


class Citation:
    """One citation: the text as written, the path, its first and last line (None: the whole
    file, as a `相关文件` item names it), where it stands (1-based line and column), and whether
    the text says it is about another codebase (`foreign`)."""

    __slots__ = ("written", "path", "line", "end", "row", "column", "foreign")

    def __init__(self, written: str, path: str, line: int | None, end: int | None, row: int, column: int) -> None:
        self.written = written
        self.path = path
        self.line = line
        self.end = end
        self.row = row
        self.column = column
        self.foreign = False  # the memory says it is another codebase's (`_FOREIGN`)

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
    """The citations of a text split into `lines`, outside code, in reading order; each marked
    `foreign` when its line, a heading it is under or the memory's frontmatter names another
    codebase."""
    found: list[Citation] = []
    code = _code_rows(lines)
    related = 0  # the level of the `相关文件` heading we are under, 0 when none
    elsewhere = 0  # the level of a heading naming another codebase we are under, 0 when none
    everywhere = _frontmatter_foreign(lines)
    for number, raw in enumerate(lines, 1):
        if number in code:
            continue
        text = raw.rstrip("\r")
        heading = _HEADING.match(text)
        if heading:
            level = len(heading.group(1))
            if level <= elsewhere:
                elsewhere = 0
            if not elsewhere and _FOREIGN.search(text):
                elsewhere = level
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
        if len(found) > before and (everywhere or elsewhere or _FOREIGN.search(text)):
            for citation in found[before:]:
                citation.foreign = True
    return found


def _code_rows(lines: list[str]) -> set[int]:
    """The rows that are code, as the Markdown layer parses the text; a text too large for it
    (`markdown.MAX_CHARS`) has its fences found line by line, as CommonMark closes them."""
    from mnemolint.parse import markdown

    found = markdown.blocks("\n".join(lines))
    if found is None:
        return _fenced_rows(lines)
    return {
        row
        for block in found
        if block.kind in (markdown.FENCE, markdown.CODE)
        for row in range(block.start_line, block.end_line + 1)
    }


def _fenced_rows(lines: list[str]) -> set[int]:
    """The rows of fenced blocks: a fence closes at a line of its own character, at least as long
    (a ```` fence holds a ``` line), and nothing else; an unclosed one runs to the end."""
    rows: set[int] = set()
    fence = ""
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r")
        stripped = text.strip()
        if fence:
            rows.add(number)
            if len(stripped) >= len(fence) and stripped == fence[0] * len(stripped) and not text.startswith("    "):
                fence = ""
            continue
        opened = _FENCE.match(text)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            rows.add(number)
    return rows


def _frontmatter_foreign(lines: list[str]) -> bool:
    """Whether the memory's frontmatter (its `name`, its `description`) names another codebase."""
    if not lines or lines[0].rstrip("\r") != "---":
        return False
    for raw in lines[1:_FRONTMATTER_LINES]:
        if raw.rstrip("\r") == "---":
            return False
        if _FOREIGN.search(raw):
            return True
    return False


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
