"""mnemolint's places in a text (1-based lines, columns and offsets in code points) as the Language
Server Protocol's (0-based lines, characters in the negotiated unit: UTF-16 code units unless the
client took UTF-8 or UTF-32), and back."""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol.types import Position, Range

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def units(text: str, encoding: str) -> int:
    """The length of `text` in the client's units."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class Lines:
    """A text split as mnemolint splits it (on `\\n`, any `\\r` kept), for position arithmetic."""

    __slots__ = ("text", "lines", "starts", "encoding")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.encoding = encoding
        starts, position = [], 0
        for line in self.lines:
            starts.append(position)
            position += len(line) + 1
        self.starts = starts

    def position(self, line: int, column: int | None = None) -> Position:
        """The protocol position of 1-based `line` and `column` (code points, 1-based; None: the
        line's start). A place past the end is clamped to it."""
        index = min(max(line, 1), len(self.lines)) - 1
        text = self.lines[index]
        at = min(max((column or 1) - 1, 0), len(text))
        return Position(index, units(text[:at], self.encoding))

    def at_offset(self, offset: int) -> Position:
        """The protocol position of a code-point offset into the text."""
        offset = min(max(offset, 0), len(self.text))
        index = bisect_right(self.starts, offset) - 1
        return Position(index, units(self.text[self.starts[index] : offset], self.encoding))

    def offset(self, position: Position) -> int:
        """The code-point offset of a protocol position (past a line's end: at its end)."""
        index = position.line
        if index >= len(self.lines):
            return len(self.text)
        text, wanted, seen = self.lines[max(index, 0)], position.character, 0
        for at, char in enumerate(text):
            if seen >= wanted:
                return self.starts[index] + at
            seen += units(char, self.encoding)
        return self.starts[index] + len(text)

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
            last = min(max(first, 1), len(self.lines))
            end = Position(last - 1, units(self.lines[last - 1].rstrip("\r"), self.encoding))
            if end.character < start.character:
                end = start
            return Range(start, end)
        return Range(start, self.position(end_line or first, end_column))
