"""Inline suppression comments in Markdown, markdownlint style.

    <!-- mnemolint-disable MEM103,MEM108 --> … <!-- mnemolint-enable MEM103,MEM108 -->
    <!-- mnemolint-disable-next-line MEM103 -->
    <!-- mnemolint-disable-file MEM105 -->

No codes means every code; a code may be a prefix (`MEM1`). Whole-file findings (no line) are
silenced only by `disable-file`.
"""

from __future__ import annotations

import re

ALL = "*"
_DIRECTIVE = re.compile(r"<!--\s*mnemolint-(disable-next-line|disable-file|disable|enable)\b([^>]*?)\s*-->")


class Suppressions:
    __slots__ = ("file", "ranges", "next_line")

    def __init__(self) -> None:
        self.file: list[str] = []
        self.ranges: list[tuple[str, int, int]] = []  # (selector, first line, last line)
        self.next_line: dict[int, list[str]] = {}

    def covers(self, code: str, line: int | None) -> bool:
        if any(_matches(selector, code) for selector in self.file):
            return True
        if line is None:
            return False
        if any(_matches(selector, code) for selector in self.next_line.get(line, ())):
            return True
        return any(first <= line <= last and _matches(selector, code) for selector, first, last in self.ranges)


def _matches(selector: str, code: str) -> bool:
    return selector == ALL or code.startswith(selector)


def _selectors(text: str) -> list[str]:
    codes = [part for part in re.split(r"[\s,]+", text.strip()) if part]
    return codes or [ALL]


def parse(text: str, lines: list[str]) -> Suppressions | None:
    """The suppressions of a document, or None when it has none (the common, fast case)."""
    if "mnemolint-" not in text:
        return None
    result = Suppressions()
    open_at: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        for match in _DIRECTIVE.finditer(line):
            action, selectors = match.group(1), _selectors(match.group(2))
            if action == "disable-file":
                result.file.extend(selectors)
            elif action == "disable-next-line":
                result.next_line.setdefault(number + 1, []).extend(selectors)
            elif action == "disable":
                for selector in selectors:
                    open_at.setdefault(selector, number)
            else:
                for selector in selectors if selectors != [ALL] else list(open_at):
                    if selector in open_at:
                        result.ranges.append((selector, open_at.pop(selector), number))
    end = len(lines)
    result.ranges.extend((selector, first, end) for selector, first in open_at.items())
    return result
