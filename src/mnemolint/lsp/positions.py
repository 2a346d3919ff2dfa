"""mnemolint's places in a text (1-based lines, columns and offsets in code points) as the Language
Server Protocol's (0-based lines, characters in the negotiated unit: UTF-16 code units unless the
client took UTF-8 or UTF-32), and back.

Each line's characters wider than one unit are found once, on the first question about that line,
and every conversion is then a binary search: a megabyte line with a hundred thousand links costs
no more per link than a short one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from lsprotocol.types import Position, Range

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"
# The characters wider than one unit: beyond the BMP in UTF-16, beyond ASCII in UTF-8.
_WIDE = {UTF16: re.compile("[\U00010000-\U0010ffff]"), UTF8: re.compile("[^\x00-\x7f]")}


def units(text: str, encoding: str) -> int:
    """The length of `text` in the client's units."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class Lines:
    """A text split as mnemolint splits it (on `\\n`, any `\\r` kept), for position arithmetic."""

    __slots__ = ("text", "lines", "starts", "encoding", "_wide")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.encoding = encoding
        starts, position = [], 0
        for line in self.lines:
            starts.append(position)
            position += len(line) + 1
        self.starts = starts
        self._wide: dict[int, tuple[list[int], list[int]]] = {}

    def _extras(self, index: int) -> tuple[list[int], list[int]]:
        """Where on line `index` the characters wider than one unit are, and the units they add
        up to, each included."""
        found = self._wide.get(index)
        if found is None:
            text, positions, totals, total = self.lines[index], [], [], 0
            wide = _WIDE.get(self.encoding)
            if wide is not None and not text.isascii():
                for match in wide.finditer(text):
                    total += units(match.group(), self.encoding) - 1
                    positions.append(match.start())
                    totals.append(total)
            found = self._wide[index] = (positions, totals)
        return found

    def _units(self, index: int, column: int) -> int:
        """The units of the first `column` characters of line `index`."""
        positions, totals = self._extras(index)
        before = bisect_left(positions, column)
        return column + (totals[before - 1] if before else 0)

    def position(self, line: int, column: int | None = None) -> Position:
        """The protocol position of 1-based `line` and `column` (code points, 1-based; None: the
        line's start). A place past the end is clamped to it."""
        index = min(max(line, 1), len(self.lines)) - 1
        at = min(max((column or 1) - 1, 0), len(self.lines[index]))
        return Position(index, self._units(index, at))

    def at_offset(self, offset: int) -> Position:
        """The protocol position of a code-point offset into the text."""
        offset = min(max(offset, 0), len(self.text))
        index = bisect_right(self.starts, offset) - 1
        return Position(index, self._units(index, offset - self.starts[index]))

    def offset(self, position: Position) -> int:
        """The code-point offset of a protocol position (past a line's end: at its end; inside a
        wide character: before it)."""
        index = position.line
        if index >= len(self.lines):
            return len(self.text)
        index = max(index, 0)
        low, high = 0, len(self.lines[index])
        while low < high:  # the last column whose units do not pass the position's
            middle = (low + high + 1) // 2
            if self._units(index, middle) <= position.character:
                low = middle
            else:
                high = middle - 1
        return self.starts[index] + low

    def span(self, start: int, end: int) -> Range:
        """The protocol range of the offsets `start`..`end`."""
        return Range(self.at_offset(start), self.at_offset(end))

    def whole(self) -> Range:
        """The range of the whole text."""
        return self.span(0, len(self.text))

    def line_range(self, line: int | None, column: int | None, end_line: int | None, end_column: int | None) -> Range:
        """A finding's range: its line (or line 1 for a whole-file finding), from its column to its
        end column, or to the line's end when it has none."""
        first = line or 1
        start = self.position(first, column if line else 1)
        if end_line is None and end_column is None:
            index = min(max(first, 1), len(self.lines)) - 1
            end = Position(index, self._units(index, len(self.lines[index].rstrip("\r"))))
            if end.character < start.character:
                end = start
            return Range(start, end)
        return Range(start, self.position(end_line or first, end_column))
