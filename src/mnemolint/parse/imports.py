"""Claude Code's `@path` imports: where each one in a file points, and what a file brings with it.

Claude Code scans the Markdown tokens of the instruction files it loads (after their frontmatter)
for `@path` in text: never in a code span, a fence or an indented code block, never escaped
(`\\@`), and in an HTML comment block only in what is left beside the comment. A list item's text
is scanned as written, so an `@path` in a comment or a code span of a list item does load
(`agents/claude_code.py` has each fact with the oracle case that shows it). A path is taken
relative to the importing file, `@~/` from the home folder and `@/` as absolute; a `#fragment` is
stripped and `\\ ` stands for a space. It then reads each imported file the same way, depth first,
each file once, never deeper than 4 nested levels, and skips a file whose extension is not a text
one. A missing file is dropped silently.

`imports(text, folder)` is the scan of one text; `expand(document, within)` follows the imports of
one file as Claude Code does and says what loads, what is lost and why. Imported files that no
kind claims are read here, through `Document` (sized reads, never outside `within`, never a
sensitive place: a credential or system file an import names is reported, not read). A `Memo`
holds each file's text and scan for one run, so a file imported by many is read and parsed once.
"""

from __future__ import annotations

import os

from mnemolint.agents.claude_code import IMPORT_DEPTH, imports_text_file
from mnemolint.parse.document import Document
from mnemolint.parse.frontmatter import after
from mnemolint.parse.markdown import CODE, CODE_SPAN, FENCE, HTML, ITEM_TEXT, TEXT, Run, runs
from mnemolint.paths import inside, sensitive_place
from mnemolint.patterns import Lazy

MAX_DEPTH = IMPORT_DEPTH  # nested levels Claude Code follows: `depth >= 5` is refused, the root being 0

# `@` at the start of a text token or after white space; the path runs to white space, `\ ` kept
_IMPORT = Lazy(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_SYMBOLS = Lazy(r"[#%^&*()]+")
_PATH_START = Lazy(r"[a-zA-Z0-9._-]")
TRAILING = ":,;.)!?"  # punctuation a sentence puts after a path, which Claude Code keeps in it

IMPORTED = "imported"
IN_CODE = "in code"
IN_COMMENT = "in a comment"  # inside an HTML comment (outside a list item): not imported


class Import:
    """One `@path` of a text. `written` is what follows `@` (fragment stripped, `\\ ` unescaped);
    `path` the file it resolves to (None for a home-relative `@~/`, which depends on the reader's
    home); `where` IMPORTED, or IN_CODE / IN_COMMENT for one in code or in an HTML comment, which
    is not imported."""

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
    those in code or in an HTML comment are listed too (IN_CODE, IN_COMMENT). `@~/` resolves
    under `home` when it is given (else to no path). A text too large to parse yields none."""
    if "@" not in text:
        return []
    offset, body = after(text)  # Claude Code scans the text after its frontmatter
    found = runs(body)
    if found is None:
        return []
    lines = body.split("\n")
    cursor: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()  # a list item's line is scanned whole, then token by token
    result = []
    for run in found:
        for line_number, piece, where in _pieces(run):
            for match in _IMPORT.finditer(piece):
                written = match.group(1).split("#", 1)[0].replace("\\ ", " ")
                if not _valid(written) or (run.kind == CODE_SPAN and not _looks_like_file(written)):
                    continue
                if (line_number, written) in seen:
                    continue
                if where == IMPORTED:
                    seen.add((line_number, written))
                column = _column(lines, line_number, match.group(1), cursor)
                result.append(Import(line_number + offset, column, written, _resolve(written, folder, home), where))
    return result


def _pieces(run: Run) -> list[tuple[int, str, str]]:
    """The lines of a Markdown run Claude Code scans, each with its line and what an `@path` in it
    is: an HTML token is scanned beside its comments only when it opens with one (the comments'
    own text given apart, IN_COMMENT), a fence's body starts below its opening line."""
    if run.kind == HTML:
        stripped = run.content.lstrip()
        if not (stripped.startswith("<!--") and "-->" in stripped):
            return []
        beside, comments = strip_comments(run.content)
        return [(run.line, beside, IMPORTED), *((run.line, comment, IN_COMMENT) for comment in comments)]
    if run.kind in (FENCE, CODE):
        first = run.line + 1 if run.kind == FENCE else run.line
        return [(first + number, line, IN_CODE) for number, line in enumerate(run.content.split("\n"))]
    return [(run.line, run.content, IMPORTED if run.kind in (TEXT, ITEM_TEXT) else IN_CODE)]


def strip_comments(text: str) -> tuple[str, list[str]]:
    """`text` with its complete HTML comments (`<!--` … `-->`) removed, and the comments' bodies, in
    one pass (an unclosed `<!--` and all after it stay), as JavaScript's lazy `<!--[\\s\\S]*?-->`
    replacement leaves it; linear in the text, whatever it holds."""
    kept: list[str] = []
    comments: list[str] = []
    position = 0
    while True:
        start = text.find("<!--", position)
        end = text.find("-->", start + 4) if start >= 0 else -1
        if end < 0:
            kept.append(text[position:])
            return "".join(kept), comments
        kept.append(text[position:start])
        comments.append(text[start + 4 : end])
        position = end + 3


def _valid(path: str) -> bool:
    """Claude Code's test of an import path."""
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


def sensitive_target(found: Import) -> str | None:
    """What makes the file an import names a credential or system file ("in `~/.ssh`, a
    credential folder"), judged by name on what is written and where it resolves; or None."""
    for name in (found.written, found.path):
        if name:
            why = sensitive_place(name.replace(os.sep, "/"))
            if why:
                return why
    return None


class Memo:
    """What the expansions of one run share: each file's text and imports, and the file system's
    answers about each path, so that a file imported by many roots, or refused for depth again
    and again, is read, scanned and looked up once (`Tree.derived` keeps one per run)."""

    __slots__ = ("options", "_texts", "_imports", "_real", "_files", "_sensitive")

    def __init__(self, options: dict) -> None:
        self.options = options
        self._texts: dict[str, str | None] = {}
        self._imports: dict[tuple[str, str | None], list[Import]] = {}
        self._real: dict[str, str] = {}
        self._files: dict[str, bool] = {}
        self._sensitive: dict[tuple[str, str | None], str | None] = {}

    def text(self, path: str, document: Document | None = None) -> str | None:
        if path not in self._texts:
            self._texts[path] = (document or Document(path, None, self.options)).text
        return self._texts[path]

    def imports(self, path: str, text: str, home: str | None) -> list[Import]:
        key = (path, home)
        if key not in self._imports:
            self._imports[key] = imports(text, os.path.dirname(path), home)
        return self._imports[key]

    def real(self, path: str) -> str:
        """`path` with its links followed."""
        if path not in self._real:
            self._real[path] = os.path.realpath(path)
        return self._real[path]

    def is_file(self, path: str) -> bool:
        if path not in self._files:
            self._files[path] = _is_file(path)
        return self._files[path]

    def sensitive(self, found: Import) -> str | None:
        key = (found.written, found.path)
        if key not in self._sensitive:
            self._sensitive[key] = sensitive_target(found)
        return self._sensitive[key]

    def inside(self, path: str, within: tuple[str, ...]) -> bool:
        """Whether `path`, its links followed, is in one of the folders `within`."""
        real = self.real(path)
        return any(inside(real, self.real(folder)) for folder in within)


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
    to no file; `outside` those leading out of `within` (never read); `sensitive` those naming a
    credential or system file (never read: `sensitive_target` says why); `too_deep` those refused for depth (with the
    files that load only through them, never loading); `cycles` the imports that lead back to a
    file of their own chain; `in_code` the `@path`s in code that name a file."""

    __slots__ = ("root", "loaded", "texts", "missing", "outside", "sensitive", "too_deep", "cycles", "in_code")

    def __init__(self, root: str) -> None:
        self.root = root
        self.loaded: list[tuple[str, int]] = []
        self.texts: dict[str, str] = {}
        self.missing: list[Edge] = []
        self.outside: list[Edge] = []
        self.sensitive: list[Edge] = []
        self.too_deep: list[tuple[Edge, list[str]]] = []
        self.cycles: list[Edge] = []
        self.in_code: list[Edge] = []


def expand(document: Document, within: str, home: str | None = None, memo: Memo | None = None) -> Expansion:
    """Follow `document`'s imports as Claude Code does: depth first, each file once, refused past
    `MAX_DEPTH`, files outside the folder `within` not read — nor those in the home folder,
    unless `home` is given (`@~/` imports, read only when the user asks). `memo` shares the files
    read with the other expansions of a run."""
    result = Expansion(document.path)
    allowed = (within, home) if home else (within,)
    walk = _Walk(memo or Memo(document.options), allowed, home, result)
    walk.visit(document.path, document, 0, ())
    return result


class _Walk:
    """One expansion under way: the files processed so far and where they may lie."""

    __slots__ = ("memo", "within", "home", "result", "processed")

    def __init__(self, memo: Memo, within: tuple[str, ...], home: str | None, result: Expansion) -> None:
        self.memo = memo
        self.within = within
        self.home = home
        self.result = result
        self.processed: set[str] = set()

    def visit(self, path: str, document: Document | None, depth: int, chain: tuple[str, ...]) -> None:
        memo = self.memo
        self.processed.update((path, memo.real(path)))
        text = memo.text(path, document)
        if text is None or not text.strip():
            return
        result = self.result
        result.loaded.append((path, depth))
        result.texts[path] = text
        chain = (*chain, path)
        real_chain = {memo.real(step) for step in chain}
        for found in memo.imports(path, text, self.home):
            edge = Edge(path, found, depth + 1, chain)
            target = found.path
            why = memo.sensitive(found)
            if why and found.where == IMPORTED:
                result.sensitive.append(edge)
                continue
            if target is None or why:
                continue
            if found.where != IMPORTED:
                if found.where == IN_CODE and memo.is_file(target) and memo.inside(target, self.within):
                    result.in_code.append(edge)
                continue
            if not memo.inside(target, self.within):
                result.outside.append(edge)
                continue
            if not memo.is_file(target):
                if not os.path.isdir(target) and _looks_like_file(found.written):
                    result.missing.append(edge)
                continue
            if not imports_text_file(target):
                continue  # Claude Code skips an import that is not a text file
            if memo.real(target) in real_chain:
                result.cycles.append(edge)
                continue
            if target in self.processed or memo.real(target) in self.processed:
                continue
            if depth + 1 > MAX_DEPTH:
                result.too_deep.append((edge, self._never_loaded(target)))
                continue
            self.visit(target, None, depth + 1, chain)

    def _never_loaded(self, path: str) -> list[str]:
        """`path` and the files that would load only through it, none of which loads."""
        lost: list[str] = []
        pending = [path]
        seen = set(self.processed)
        while pending and len(lost) < 50:
            current = pending.pop(0)
            if current in seen:
                continue
            seen.add(current)
            lost.append(current)
            memo = self.memo
            for found in memo.imports(current, memo.text(current) or "", None):
                target = found.path
                if (
                    found.where == IMPORTED
                    and target
                    and not memo.sensitive(found)
                    and memo.inside(target, self.within)
                    and memo.is_file(target)
                ):
                    pending.append(target)
        return lost


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False
