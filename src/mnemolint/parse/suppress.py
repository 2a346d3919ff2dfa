"""Inline suppression comments in Markdown, markdownlint style.

    <!-- mnemolint-disable MEM103,MEM108 --> … <!-- mnemolint-enable MEM103,MEM108 -->
    <!-- mnemolint-disable-next-line MEM103 -->
    <!-- mnemolint-disable-file MEM105 -->

No codes means every code; a code may be a prefix (`MEM1`). Whole-file findings (no line) are
silenced only by `disable-file`.

Both the scan and the lookup stay linear on hostile input: the pattern stops at the action and
the codes are cut out up to the next `>` by hand (a lazy group before `\\s*-->` backtracks
quadratically over a run of spaces), and a finding asks only the selectors its code can match.
"""

from __future__ import annotations

import re

from mnemolint.selection import ALL

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator

# The comment's start up to its action; `\b`, so `disable-next-linex` is `disable` with codes.
# Left to `re`'s cache: a file with no `mnemolint-` in it, the common case, never compiles it.
_DIRECTIVE = r"<!--\s*mnemolint-(disable-next-line|disable-file|disable|enable)\b"


class Suppressions:
    """One document's suppressions, by selector, so a lookup costs the same for one or 100,000."""

    __slots__ = ("file", "ranges", "next_line")

    def __init__(self) -> None:
        self.file: set[str] = set()
        # selector → (first lines, last lines) of its ranges, in order and not overlapping
        self.ranges: dict[str, tuple[list[int], list[int]]] = {}
        self.next_line: dict[int, set[str]] = {}

    def covers(self, code: str, line: int | None) -> bool:
        # The only selectors that can match (`selection.matches`): ALL, and each prefix of this code.
        selectors = [ALL] + [code[:end] for end in range(1, len(code) + 1)]
        if not self.file.isdisjoint(selectors):
            return True
        if line is None:
            return False
        marked = self.next_line.get(line)
        if marked is not None and not marked.isdisjoint(selectors):
            return True
        return any(_within(self.ranges[selector], line) for selector in selectors if selector in self.ranges)

    def add_range(self, selector: str, first: int, last: int) -> None:
        """A range ends; a selector's ranges close in the order they opened."""
        firsts, lasts = self.ranges.setdefault(selector, ([], []))
        firsts.append(first)
        lasts.append(last)


def _within(spans: tuple[list[int], list[int]], line: int) -> bool:
    """Whether `line` lies in one of the ordered, non-overlapping ranges `spans`."""
    from bisect import bisect_right

    firsts, lasts = spans
    at = bisect_right(firsts, line) - 1
    return at >= 0 and line <= lasts[at]


def _selectors(text: str) -> list[str]:
    codes = [part for part in re.split(r"[\s,]+", text.strip()) if part]
    return codes or [ALL]


def _directives(line: str) -> Iterator[tuple[str, str]]:
    """(action, codes) of each `<!-- mnemolint-… -->` comment on `line`, in one pass.

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
            yield match.group(1), line[match.end() : end - 2]
        position = end + 1


def parse(text: str, lines: list[str]) -> Suppressions | None:
    """The suppressions of a document, or None when it has none (the common, fast case)."""
    if "mnemolint-" not in text:
        return None
    result = Suppressions()
    open_at: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        for action, codes in _directives(line):
            selectors = _selectors(codes)
            if action == "disable-file":
                result.file.update(selectors)
            elif action == "disable-next-line":
                result.next_line.setdefault(number + 1, set()).update(selectors)
            elif action == "disable":
                for selector in selectors:
                    open_at.setdefault(selector, number)
            else:
                for selector in selectors if selectors != [ALL] else list(open_at):
                    if selector in open_at:
                        result.add_range(selector, open_at.pop(selector), number)
    end = len(lines)
    for selector, first in open_at.items():
        result.add_range(selector, first, end)
    return result
