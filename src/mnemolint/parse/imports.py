"""Claude Code's `@path` imports: where each one in a file points, and what a file brings with it.

Claude Code scans the Markdown tokens of `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and
`.claude/rules` files (after their frontmatter) for `@path` in text: never in a code span, a fence
or an indented code block, and in an HTML comment block only in what is left beside the comment
(claudemd.ts:459-533). A path is taken relative to the importing file, `@~/` from the home folder
and `@/` as absolute; a `#fragment` is stripped and `\\ ` stands for a space. It then reads each
imported file the same way, depth first, each file once, and never deeper than 4 nested levels
(`depth >= 5` is refused, claudemd.ts:537, 630-670). A missing file is dropped silently.

`imports(text, folder)` is the scan of one text; `expand(document, within)` follows the imports of
one file as Claude Code does and says what loads, what is lost and why. Imported files that no
kind claims are read here, through `Document` (sized reads, never outside `within`).
"""

from __future__ import annotations

import os
import re

from mnemolint.parse.document import Document
from mnemolint.parse.frontmatter import after
from mnemolint.parse.markdown import CODE, CODE_SPAN, FENCE, HTML, TEXT, runs
from mnemolint.paths import inside
from mnemolint.patterns import Lazy

MAX_DEPTH = 4  # nested levels Claude Code follows: `depth >= 5` is refused, the root being 0

# `@` at the start of a text token or after white space; the path runs to white space, `\ ` kept
_IMPORT = Lazy(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_SYMBOLS = re.compile(r"[#%^&*()]+")
_PATH_START = Lazy(r"[a-zA-Z0-9._-]")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
TRAILING = ":,;.)!?"  # punctuation a sentence puts after a path, which Claude Code keeps in it

IMPORTED = "imported"
IN_CODE = "in code"


class Import:
    """One `@path` of a text. `written` is what follows `@` (fragment stripped, `\\ ` unescaped);
    `path` the file it resolves to (None for a home-relative `@~/`, which depends on the reader's
    home); `where` IMPORTED, or IN_CODE for one in a code span or fence, which is not imported."""

    __slots__ = ("line", "column", "written", "path", "where")

    def __init__(self, line: int, column: int, written: str, path: str | None, where: str) -> None:
        self.line = line
        self.column = column
        self.written = written
        self.path = path
        self.where = where

    def __repr__(self) -> str:
        return f"<Import {self.line}:{self.column} @{self.written} {self.where}>"


def imports(text: str, folder: str, home: str | None = None) -> list[Import]:
    """The `@path`s of `text` (a file in `folder`), in order, as Claude Code's scan finds them;
    those in code are listed too (IN_CODE). `@~/` resolves under `home` when it is given (else to
    no path). A text too large to parse yields none."""
    if "@" not in text:
        return []
    offset, body = after(text)  # Claude Code scans the text after its frontmatter
    found = runs(body)
    if found is None:
        return []
    lines = body.split("\n")
    cursor: dict[int, int] = {}
    result = []
    for run in found:
        if run.kind == HTML:
            stripped = run.content.lstrip()
            if not (stripped.startswith("<!--") and "-->" in stripped):
                continue
            content, where = _COMMENT.sub("", run.content), IMPORTED
        else:
            content, where = run.content, IMPORTED if run.kind == TEXT else IN_CODE
        if run.kind in (FENCE, CODE):
            first = run.line + 1 if run.kind == FENCE else run.line  # a fence's body starts below it
            scanned = [(first + number, line) for number, line in enumerate(content.split("\n"))]
        else:
            scanned = [(run.line, content)]
        for line_number, piece in scanned:
            for match in _IMPORT.finditer(piece):
                written = match.group(1).split("#", 1)[0].replace("\\ ", " ")
                if not _valid(written) or (run.kind == CODE_SPAN and not _looks_like_file(written)):
                    continue
                column = _column(lines, line_number, match.group(1), cursor)
                result.append(Import(line_number + offset, column, written, _resolve(written, folder, home), where))
    return result


def _valid(path: str) -> bool:
    """Claude Code's test of an import path (claudemd.ts:477-484)."""
    if path.startswith(("./", "~/")) or (path.startswith("/") and path != "/"):
        return True
    return bool(path) and not path.startswith("@") and not _SYMBOLS.match(path) and bool(_PATH_START.match(path))


def _looks_like_file(written: str) -> bool:
    """An `@name` meant as a file, not a mention (`@alice`) or a package (`@types/node`): it
    starts `./`, `~/`, `/`, or its last part has an extension."""
    stem = written.rstrip(TRAILING)
    return stem.startswith(("./", "~/", "/")) or "." in stem.rpartition("/")[2].lstrip(".")


def _resolve(written: str, folder: str, home: str | None) -> str | None:
    if written.startswith("~/"):
        return os.path.normpath(os.path.join(home, written[2:])) if home else None
    return os.path.normpath(written if written.startswith("/") else os.path.join(folder, written))


def _column(lines: list[str], line_number: int, raw: str, cursor: dict[int, int]) -> int:
    """The 1-based column of `@raw` on its line, after the imports already placed on it."""
    if not 0 < line_number <= len(lines):
        return 1
    text = lines[line_number - 1]
    at = text.find("@" + raw, cursor.get(line_number, 0))
    if at < 0:
        return 1
    cursor[line_number] = at + 1
    return at + 1


class Edge:
    """An import followed from `source` (a path): `target` the `Import`, `depth` the level the
    imported file would load at, `chain` the files from the root down to `source`."""

    __slots__ = ("source", "target", "depth", "chain")

    def __init__(self, source: str, target: Import, depth: int, chain: tuple[str, ...]) -> None:
        self.source = source
        self.target = target
        self.depth = depth
        self.chain = chain


class Expansion:
    """What a file brings with it when Claude Code loads it. `loaded` are the files that load, in
    Claude Code's order (the root first), each with its depth; `missing` the imports that resolve
    to no file; `outside` those leading out of `within` (never read); `too_deep` those refused for
    depth (with the files that load only through them, never loading); `cycles` the imports that
    lead back to a file of their own chain; `in_code` the `@path`s in code that name a file."""

    __slots__ = ("root", "loaded", "texts", "missing", "outside", "too_deep", "cycles", "in_code")

    def __init__(self, root: str) -> None:
        self.root = root
        self.loaded: list[tuple[str, int]] = []
        self.texts: dict[str, str] = {}
        self.missing: list[Edge] = []
        self.outside: list[Edge] = []
        self.too_deep: list[tuple[Edge, list[str]]] = []
        self.cycles: list[Edge] = []
        self.in_code: list[Edge] = []


def expand(document: Document, within: str, home: str | None = None) -> Expansion:
    """Follow `document`'s imports as Claude Code does (claudemd.ts:618-680): depth first, each file
    once, refused past `MAX_DEPTH`, files outside the folder `within` not read — nor those in the
    home folder, unless `home` is given (`@~/` imports, read only when the user asks)."""
    result = Expansion(document.path)
    processed: set[str] = set()
    allowed = (within, home) if home else (within,)
    _visit(document.path, document, 0, (), processed, allowed, result, document.options)
    return result


def _visit(
    path: str,
    document: Document | None,
    depth: int,
    chain: tuple[str, ...],
    processed: set[str],
    within: tuple[str, ...],
    result: Expansion,
    options: dict,
) -> None:
    processed.add(path)
    real = os.path.realpath(path)
    processed.add(real)
    if document is None:
        document = Document(path, None, options)
    text = document.text
    if text is None or not text.strip():
        return
    result.loaded.append((path, depth))
    result.texts[path] = text
    chain = (*chain, path)
    home = within[1] if len(within) > 1 else None
    for found in imports(text, os.path.dirname(path), home):
        edge = Edge(path, found, depth + 1, chain)
        target = found.path
        if target is None:
            continue
        if found.where == IN_CODE:
            if _is_file(target) and _inside(target, within):
                result.in_code.append(edge)
            continue
        if not _inside(target, within):
            result.outside.append(edge)
            continue
        if not _is_file(target):
            if not os.path.isdir(target) and _looks_like_file(found.written):
                result.missing.append(edge)
            continue
        if target in chain or os.path.realpath(target) in {os.path.realpath(step) for step in chain}:
            result.cycles.append(edge)
            continue
        if target in processed or os.path.realpath(target) in processed:
            continue
        if depth + 1 > MAX_DEPTH:
            result.too_deep.append((edge, _never_loaded(target, processed, within, options)))
            continue
        _visit(target, None, depth + 1, chain, processed, within, result, options)


def _never_loaded(path: str, processed: set[str], within: tuple[str, ...], options: dict) -> list[str]:
    """`path` and the files that would load only through it, none of which loads."""
    lost: list[str] = []
    pending = [path]
    seen = set(processed)
    while pending and len(lost) < 50:
        current = pending.pop(0)
        if current in seen:
            continue
        seen.add(current)
        lost.append(current)
        text = Document(current, None, options).text or ""
        for found in imports(text, os.path.dirname(current)):
            if found.where == IMPORTED and found.path and _inside(found.path, within) and _is_file(found.path):
                pending.append(found.path)
    return lost


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def _inside(path: str, within: tuple[str, ...]) -> bool:
    """Whether `path`, its links followed, is in one of the folders `within`."""
    real = os.path.realpath(path)
    return any(inside(real, os.path.realpath(folder)) for folder in within)
