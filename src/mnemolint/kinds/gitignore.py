"""`.gitignore` files, and whether git ignores a path by them: which memory is shared.

`Ignores` answers as git does: every `.gitignore` from the top directory down to the path's own,
a deeper file overriding a shallower one and, within a file, the last matching line winning
(pathspec's `GitIgnoreSpec` reads each line with git's wildmatch semantics); and a path below an
ignored directory is ignored whatever a later `!` line says, since git never looks inside that
directory. tests/test_gitignore.py checks it against `git check-ignore` in a real repository.

pathspec's expression of a line with many wildcards backtracks exponentially (`*a*a*a*a*a*a*b`
against a long name ran for minutes), so such a line is matched by `safe_regex` (the same
answer, directory mark included, in time linear in the name); an `Ignores` matches at most
`MAX_COSTLY` such lines (a `Budget`), and leaves out any beyond, or one too long to match (`TooComplex`), as
it leaves out a line pathspec cannot compile. It reads at most `MAX_PATTERNS` pattern lines in
all (a 1 MB file of them would take seconds to compile) and compiles a line only when a path holds
the text every path it matches holds (`_needle`): the discovery walk asks of every entry. The
search over the lines is pathspec's own: the last line matching the path itself wins, else the
last one matching a folder of it.

Only `.gitignore` files count, not `.git/info/exclude` or a global excludes file: those are one
person's, and what the rules ask is what every clone of the project ignores. A `.gitignore` the
walk linted is read from its `Document` (so a fix computed but not yet written counts); one it
did not (above the linted root, or inside a container) is read through a `Document` too. A
`.gitignore` that is a symlink or a FIFO is not read, as git reads neither (`not_read`).
pathspec is imported only when a question is asked.
"""

from __future__ import annotations

import os

from mnemolint.agents import CLAUDE_CODE
from mnemolint.kinds.base import Kind
from mnemolint.parse.document import Document
from mnemolint.paths import inside
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import re

    from mnemolint.parse.safe_regex import SafeRegex

NAME = ".gitignore"


class Source:
    """The `.gitignore` line that decides a path: its file, its 1-based line and its text."""

    __slots__ = ("path", "line", "pattern")

    def __init__(self, path: str, line: int, pattern: str) -> None:
        self.path = path
        self.line = line
        self.pattern = pattern


class Verdict:
    """Whether a path is ignored, and the line that decides it (None when no line matches)."""

    __slots__ = ("ignored", "source")

    def __init__(self, ignored: bool, source: Source | None) -> None:
        self.ignored = ignored
        self.source = source


MAX_COSTLY = 64  # lines of many wildcards one `Ignores` matches (each costs a Python loop per path)
MAX_PATTERNS = 5_000  # pattern lines one `Ignores` reads; compiling one costs ~0.3 ms
_DIR_MARK = "ps_d"  # pathspec's group for a match through a directory pattern
_UNCOMPILED = object()  # an expression not compiled yet: no path has held its needle so far


def _needle(line: str) -> str:
    """Text every path the line matches holds: its longest run of characters that match only
    themselves, within one name ("" when the line has an escape or a class, which may change that)."""
    import re

    body = line.strip().removeprefix("!")
    if "\\" in body or "[" in body:
        return ""
    return max(re.split(r"[*?/]", body), key=len)


_LITERAL = Lazy(r"[^*?\[\]\\\s!#/]+")  # characters that match only themselves: no wildcard, escape or space


def _simple(line: str) -> tuple[str | None, bool | None] | None:
    """pathspec's expression of `line` and whether it ignores, for the lines most `.gitignore`
    files are made of (a blank or a comment; a name or a path, `/` before or after it; `*.ext`),
    made without importing pathspec (~100 ms at start-up): exactly the string pathspec makes, as
    tests/test_discovery_gitignore.py checks. None for any other line."""
    import re

    body = line.rstrip(" ")
    if not body or body.startswith("#"):
        return None, None
    include = not body.startswith("!")
    body = body if include else body[1:]
    folder = body.endswith("/")
    body = body[:-1] if folder else body
    anchored = "/" in body  # a `/` first or inside: from the `.gitignore`'s folder only
    body = body[1:] if body.startswith("/") else body
    star = not anchored and body.startswith("*")
    parts = (body[1:] if star else body).split("/")
    if not all(_LITERAL.fullmatch(part) and part not in (".", "..") for part in parts):
        return None
    start = "^" if anchored else "^(?:.+/)?"
    name = ("[^/]*" if star else "") + "/".join(re.escape(part) for part in parts)
    return start + name + ("(?P<ps_d>/)" if folder else "(?:(?P<ps_d>/)|$)"), include


def _pathspec(line: str) -> tuple[str | None, bool | None]:
    """pathspec's own expression of `line` (a `ValueError` for a line it refuses)."""
    import warnings

    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    with warnings.catch_warnings():  # `[[` compiles with a FutureWarning, not for the user's eyes
        warnings.simplefilter("ignore", FutureWarning)
        return GitIgnoreSpecPattern.pattern_to_regex(line)


class _Spec:
    """One `.gitignore`: its patterns (whether each includes, and its expression) and the line of
    each. A line pathspec cannot turn into a regular expression (a reversed range, `[z-a]`) is
    left out: git's wildmatch matches at most its first character with it, which no memory file
    is named after. An expression is compiled the first time a path holds its `_needle`: the
    walk asks of every file, and most lines never concern most paths."""

    __slots__ = ("path", "includes", "sources", "compiled", "needles", "costly", "lines", "patterns")

    def __init__(self, path: str, text: str, owner: Ignores) -> None:
        from mnemolint.parse.safe_regex import costly

        self.includes: list[bool] = []
        self.sources: list[str] = []
        self.compiled: list[re.Pattern | SafeRegex | object | None] = []  # None: left out; or _UNCOMPILED
        self.needles: list[str] = []
        self.costly: list[bool] = []
        self.lines, self.patterns = [], []
        text = text[1:] if text.startswith("\ufeff") else text  # git skips a byte-order mark
        for number, line in enumerate(text.split("\n"), 1):
            if owner.patterns_left <= 0:
                break
            line = line[:-1] if line.endswith("\r") else line
            try:
                source, include = _simple(line) or _pathspec(line)
            except ValueError:  # pathspec's own error (`!`: git never matches it)
                continue
            if include is None or source is None:  # a blank line or a comment
                continue
            expensive = costly(source)
            if expensive:
                if owner.budget.left <= 0:  # past `MAX_COSTLY`: left out
                    continue
                owner.budget.left -= 1
            owner.patterns_left -= 1
            self.includes.append(bool(include))
            self.sources.append(source)
            self.compiled.append(_UNCOMPILED)
            self.needles.append(_needle(line))
            self.costly.append(expensive)
            self.lines.append(number)
            self.patterns.append(line)
        self.path = path

    def _expression(self, index: int) -> re.Pattern | SafeRegex | None:
        """The expression of pattern `index`, compiled on first use; None when it cannot be (a
        reversed range, or one too long to match: `TooComplex`), and it is left out."""
        expression = self.compiled[index]
        if expression is _UNCOMPILED:
            import re

            from mnemolint.parse.safe_regex import SafeRegex

            try:
                regex = re.compile(self.sources[index])
                expression = SafeRegex(regex) if self.costly[index] else regex
            except (re.error, ValueError):  # TooComplex is a ValueError
                expression = None
            self.compiled[index] = expression
        return expression  # type: ignore[return-value]  # compiled, or None

    def check(self, rel: str, own: bool = False) -> Verdict | None:
        """pathspec's `GitIgnoreSpec.check_file`: the last line matching `rel` itself, else the
        last matching it through a directory pattern (a folder of it, or `rel`/ itself: a
        directory's path ends in `/`; with `own`, only that one, never a folder above it)."""
        chosen: int | None = None
        needles = self.needles
        for index in range(len(needles) - 1, -1, -1):
            if needles[index] not in rel:
                continue
            expression = self._expression(index)
            found = expression.search(rel) if expression is not None else None
            if found is None:
                continue
            if not found.groupdict().get(_DIR_MARK):
                chosen = index
                break
            if chosen is None and not (own and found.end(_DIR_MARK) != len(rel)):
                chosen = index
        if chosen is None:
            return None
        return Verdict(self.includes[chosen], Source(self.path, self.lines[chosen], self.patterns[chosen]))


def not_read(path: str) -> str | None:
    """What stands at `path` when it is a `.gitignore` git does not read: "a symlink" (git opens a
    `.gitignore` without following links, since git 2.32) or "a named pipe (FIFO)" and the like (git
    would wait on it; mnemolint never opens one). None for a regular file or nothing at all."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "not a regular file (a device or a socket)"


class Ignores:
    """Ignore status of paths below `top`, by the `.gitignore` files from `top` down.

    `texts` maps a `.gitignore` path to its text where it is known (the linted documents); any
    other is read when first needed. `options` are the run's (the read is bounded like every read).
    """

    def __init__(self, top: str, texts: dict[str, str | None], options: dict) -> None:
        self.top = top
        self.texts = texts
        self.options = options
        from mnemolint.parse.safe_regex import Budget

        self.budget = Budget(MAX_COSTLY)
        self.patterns_left = MAX_PATTERNS
        self._specs: dict[str, _Spec | None] = {}
        self._chains: dict[str, list[tuple[int, _Spec]]] = {}
        self._prefix = top.rstrip(os.sep) + os.sep

    def text(self, path: str) -> str | None:
        """The text of the `.gitignore` at `path`, None when there is none, git reads none there
        (`not_read`) or it is unreadable."""
        unread = not_read(path)
        if unread or path not in self.texts:
            readable = not unread and os.path.isfile(path)
            self.texts[path] = Document(path, GITIGNORE, self.options).text if readable else None
        return self.texts[path]

    def with_text(self, path: str, text: str) -> Ignores:
        """The same question asked with `text` in the `.gitignore` at `path`: what a fix would make."""
        return Ignores(self.top, {**self.texts, path: text}, self.options)

    def _spec(self, directory: str) -> _Spec | None:
        if directory not in self._specs:
            path = os.path.join(directory, NAME)
            text = self.text(path)
            self._specs[directory] = _Spec(path, text, self) if text else None
        return self._specs[directory]

    def check(self, path: str, directory: bool = False) -> Verdict:
        """Whether git ignores `path` (absolute, below `top`; `directory` if it is one)."""
        parts = self._relative(path).split("/")
        for depth in range(1, len(parts) + 1):
            is_dir = directory or depth < len(parts)
            verdict = self._check_one(os.path.join(self.top, *parts[:depth]), is_dir, own=False)
            if verdict.ignored or depth == len(parts):
                return verdict
        raise AssertionError("unreachable: a path has at least one part")

    def check_name(self, path: str, directory: bool = False) -> Verdict:
        """Whether git ignores `path` by its own name, its folders taken as not ignored (a
        directory pattern matching one of them does not count): what a walk that never enters an
        ignored folder asks of each entry, and of those below a folder named to it, as ruff's does."""
        return self._check_one(path, directory, own=True)

    def _check_one(self, path: str, directory: bool, own: bool) -> Verdict:
        """One path by its own name, every `.gitignore` above it consulted, the deepest deciding."""
        folder = path.rpartition(os.sep)[0] or os.sep
        chain = self._chains.get(folder)
        if chain is None:
            chain = self._chain(folder)
        decided = Verdict(False, None)
        if not chain:  # most folders of most trees: no `.gitignore` above them says anything
            return decided
        rel = self._relative(path) + ("/" if directory else "")
        for start, spec in chain:
            verdict = spec.check(rel[start:], own)
            if verdict is not None:
                decided = verdict
        return decided

    def _relative(self, path: str) -> str:
        prefix = self._prefix
        rel = path[len(prefix) :] if path.startswith(prefix) else os.path.relpath(path, self.top)
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def _chain(self, folder: str) -> list[tuple[int, _Spec]]:
        """The `.gitignore` files of `folder` and of every folder above it up to `top`, top first,
        each with the offset at which a `top`-relative path leaves its folder: once per folder."""
        missing: list[str] = []
        current = folder
        while current not in self._chains:
            missing.append(current)
            parent = os.path.dirname(current)
            if current == self.top or parent == current:
                break
            current = parent
        chain = [] if missing and missing[-1] == current else self._chains[current]
        for each in reversed(missing):
            spec = self._spec(each) if inside(each, self.top) else None
            if spec is not None:
                chain = [*chain, (0 if each == self.top else len(self._relative(each)) + 1, spec)]
            self._chains[each] = chain
        return chain


GITIGNORE = Kind(
    "gitignore",
    names=(NAME,),
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] == NAME,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,
    reader=lambda document: CLAUDE_CODE,  # no agent loads it: git does, and no reader-specific rule reads it
)
