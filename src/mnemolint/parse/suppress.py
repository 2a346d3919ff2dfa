"""Inline suppression comments in Markdown, markdownlint style.

    <!-- mnemolint-disable MEM103,MEM108 --> … <!-- mnemolint-enable MEM103,MEM108 -->
    <!-- mnemolint-disable-next-line MEM103 -->
    some line <!-- mnemolint-disable-line MEM103 -->
    <!-- mnemolint-disable-file MEM105 -->

No codes means every code; a code may be a prefix (`MEM1`). Whole-file findings (no line) are
silenced only by `disable-file`.

Each comment is kept with where it stands (`comments`), and every lookup answers with the marks
that covered the finding, `(comment, selector)`: the engine collects them, and SUP001 reports the
selectors of a comment that covered nothing.

Both the scan and the lookup stay linear on hostile input: the pattern stops at the action and
the codes are cut out up to the next `>` by hand (a lazy group before `\\s*-->` backtracks
quadratically over a run of spaces), and a finding asks only the selectors its code can match.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mnemolint.selection import ALL

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator

# The comment's start up to its action; `\b`, so `disable-next-linex` is `disable` with codes.
# Left to `re`'s cache: a file with no `mnemolint-` in it, the common case, never compiles it.
_DIRECTIVE = r"<!--\s*mnemolint-(disable-next-line|disable-line|disable-file|disable|enable)\b"
_SEPARATORS = r"[\s,]+"

ENABLE = "enable"
DISABLE = "disable"
DISABLE_LINE = "disable-line"
DISABLE_NEXT_LINE = "disable-next-line"
DISABLE_FILE = "disable-file"

# A comment as kept: (line, start column, end column, action, selectors), columns 0-based in the
# line, the end one past its `>`. Plain data, so the cache keeps it as it is.
Comment = tuple[int, int, int, str, tuple[str, ...]]
Mark = tuple[int, str]  # (the comment's index in `comments`, one of its selectors)


class Suppressions:
    """One document's suppressions, by selector, so a lookup costs the same for one or 100,000."""

    __slots__ = ("comments", "file", "ranges", "lines")

    def __init__(self) -> None:
        self.comments: list[Comment] = []
        self.file: dict[str, list[int]] = {}  # selector → the `disable-file` comments naming it
        # selector → (first lines, last lines, opening comments, closing comments: -1 at the
        # file's end) of its ranges, in order and not overlapping
        self.ranges: dict[str, tuple[list[int], list[int], list[int], list[int]]] = {}
        self.lines: dict[int, dict[str, list[int]]] = {}  # line → selector → `disable(-next)-line` comments

    def covers(self, code: str, line: int | None) -> bool:
        return bool(self.covering(code, line))

    def covering(self, code: str, line: int | None, *, blanket: bool = True) -> list[Mark]:
        """The marks that silence `code` at `line` (every one of them: each was of use). Without
        `blanket`, a comment naming no code (ALL) does not count: SUP001's own findings."""
        marks: list[Mark] = []
        on_line = self.lines.get(line) if line is not None else None
        file, ranges = self.file, self.ranges
        for selector in _selectors_of(code, blanket):
            comments = file.get(selector)
            if comments:
                marks += [(comment, selector) for comment in comments]
            if line is None:
                continue
            comments = on_line.get(selector) if on_line else None
            if comments:
                marks += [(comment, selector) for comment in comments]
            spans = ranges.get(selector)
            if spans is not None:
                at = _within(spans, line)
                if at >= 0:
                    marks.append((spans[2][at], selector))
        return marks

    def add_range(self, selector: str, first: tuple[int, int], last: tuple[int, int]) -> None:
        """A range ends: (line, comment) of its `disable` and of its `enable` (-1: the file's end);
        a selector's ranges close in the order they opened."""
        firsts, lasts, openers, closers = self.ranges.setdefault(selector, ([], [], [], []))
        firsts.append(first[0])
        lasts.append(last[0])
        openers.append(first[1])
        closers.append(last[1])

    def ends(self) -> dict[Mark, int]:
        """Each range's `disable` mark → the `enable` comment that ends it (-1: the file's end)."""
        return {
            (opener, selector): closer
            for selector, (_, _, openers, closers) in self.ranges.items()
            for opener, closer in zip(openers, closers, strict=True)
        }


@lru_cache(maxsize=1024)
def _selectors_of(code: str, blanket: bool) -> tuple[str, ...]:
    """The only selectors that can match `code` (`selection.matches`): each prefix of it, and ALL."""
    prefixes = tuple(code[:end] for end in range(1, len(code) + 1))
    return (*prefixes, ALL) if blanket else prefixes


def _within(spans: tuple[list[int], list[int], list[int], list[int]], line: int) -> int:
    """The index of the range of the ordered, non-overlapping `spans` that holds `line`, else -1."""
    from bisect import bisect_right  # only a file with suppression comments asks: not on every start

    at = bisect_right(spans[0], line) - 1
    return at if at >= 0 and line <= spans[1][at] else -1


def _selectors(text: str) -> list[str]:
    codes = [part for part in re.split(_SEPARATORS, text.strip()) if part]
    return codes or [ALL]


def codes_in(comment: str) -> list[tuple[int, int]]:
    """The (start, end) of each code written in the comment text `comment` (`<!-- … -->`), so a
    fix can remove one code and leave the rest of the comment as it was written."""
    match = re.match(_DIRECTIVE, comment)
    if match is None:
        return []
    body_end = comment.rfind("--")
    return [
        (found.start(), found.end())
        for found in re.finditer(r"[^\s,]+", comment[: max(body_end, match.end())])
        if found.start() >= match.end()
    ]


def _directives(line: str) -> Iterator[tuple[str, str, int, int]]:
    """(action, codes, start, end) of each `<!-- mnemolint-… -->` comment on `line`, in one pass.

    A comment ends at the first `>` after its action, which must close `-->`; a start with no
    such end fails, and so does every start before that `>`, so the scan resumes after it.
    """
    position = 0
    directive = re.compile(_DIRECTIVE)
    while (match := directive.search(line, position)) is not None:
        end = line.find(">", match.end())
        if end < 0:
            return
        if line.endswith("--", match.end(), end):
            yield match.group(1), line[match.end() : end - 2], match.start(), end + 1
        position = end + 1


def parse(text: str, lines: list[str]) -> Suppressions | None:
    """The suppressions of a document, or None when it has none (the common, fast case)."""
    if "mnemolint-" not in text:
        return None
    result = Suppressions()
    comments = result.comments
    open_at: dict[str, tuple[int, int]] = {}  # selector → (line, comment) of the `disable` open now
    for number, line in enumerate(lines, start=1):
        for action, codes, start, end in _directives(line):
            selectors = _selectors(codes)
            index = len(comments)
            comments.append((number, start, end, action, tuple(selectors)))
            if action == DISABLE_FILE:
                for selector in selectors:
                    result.file.setdefault(selector, []).append(index)
            elif action in (DISABLE_NEXT_LINE, DISABLE_LINE):
                marked = result.lines.setdefault(number + (action == DISABLE_NEXT_LINE), {})
                for selector in selectors:
                    marked.setdefault(selector, []).append(index)
            elif action == DISABLE:
                for selector in selectors:
                    open_at.setdefault(selector, (number, index))
            else:
                for selector in selectors if selectors != [ALL] else list(open_at):
                    if selector in open_at:
                        result.add_range(selector, open_at.pop(selector), (number, index))
    end = len(lines)
    for selector, first in open_at.items():
        result.add_range(selector, first, (end, -1))
    return result
