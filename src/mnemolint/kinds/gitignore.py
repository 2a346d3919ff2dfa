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
it leaves out a line pathspec cannot compile. The search over the lines is pathspec's own: the
last line matching the path itself wins, else the last one matching a folder of it.

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

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
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
_DIR_MARK = "ps_d"  # pathspec's group for a match through a directory pattern


class _Spec:
    """One `.gitignore`: its patterns (whether each includes, and its expression) and the line of
    each. A line pathspec cannot turn into a regular expression (a reversed range, `[z-a]`) is
    left out: git's wildmatch matches at most its first character with it, which no memory file
    is named after."""

    __slots__ = ("path", "expressions", "lines", "patterns")

    def __init__(self, path: str, text: str, owner: Ignores) -> None:
        import re
        import warnings

        from pathspec import GitIgnoreSpec

        from mnemolint.parse.safe_regex import guarded

        self.expressions: list[tuple[bool, re.Pattern | SafeRegex]] = []
        self.lines, self.patterns = [], []
        text = text[1:] if text.startswith("\ufeff") else text  # git skips a byte-order mark
        for number, line in enumerate(text.split("\n"), 1):
            line = line[:-1] if line.endswith("\r") else line
            try:
                with warnings.catch_warnings():  # `[[` compiles with a FutureWarning, not for the user's eyes
                    warnings.simplefilter("ignore", FutureWarning)
                    found = GitIgnoreSpec.from_lines([line]).patterns
                    expressions = [
                        (bool(pattern.include), guarded(pattern.regex, owner.budget))
                        for pattern in found
                        if pattern.include is not None and pattern.regex is not None
                    ]
            except (re.error, ValueError):  # pathspec's own error (`!`: git never matches it); TooComplex
                continue
            for expression in expressions:
                self.expressions.append(expression)
                self.lines.append(number)
                self.patterns.append(line)
        self.path = path

    def check(self, rel: str) -> Verdict | None:
        """pathspec's `GitIgnoreSpec.check_file`: the last line matching `rel` itself, else the
        last matching it through a directory pattern (a folder of it)."""
        chosen: int | None = None
        for index in range(len(self.expressions) - 1, -1, -1):
            include, expression = self.expressions[index]
            found = expression.search(rel)
            if found is None:
                continue
            if not found.groupdict().get(_DIR_MARK):
                chosen = index
                break
            if chosen is None:
                chosen = index
        if chosen is None:
            return None
        return Verdict(self.expressions[chosen][0], Source(self.path, self.lines[chosen], self.patterns[chosen]))


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
        self._specs: dict[str, _Spec | None] = {}

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
        rel = os.path.relpath(path, self.top).replace(os.sep, "/")
        parts = rel.split("/")
        for depth in range(1, len(parts) + 1):
            is_dir = directory or depth < len(parts)
            verdict = self._check_one(parts[:depth], is_dir)
            if verdict.ignored or depth == len(parts):
                return verdict
        raise AssertionError("unreachable: a path has at least one part")

    def _check_one(self, parts: list[str], is_dir: bool) -> Verdict:
        """One path by its own name, every `.gitignore` above it consulted, the deepest deciding."""
        decided = Verdict(False, None)
        for depth in range(len(parts)):
            spec = self._spec(os.path.join(self.top, *parts[:depth]))
            if spec is None:
                continue
            verdict = spec.check("/".join(parts[depth:]) + ("/" if is_dir else ""))
            if verdict is not None:
                decided = verdict
        return decided


GITIGNORE = Kind(
    "gitignore",
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] == NAME,
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,
    reader=lambda document: CLAUDE_CODE,  # no agent loads it: git does, and no reader-specific rule reads it
)
