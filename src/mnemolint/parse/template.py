"""The outline of a Markdown memory file: headings, what each one spans, code lines, field lines.

The `.ai-memory` skill's templates are Markdown: an instance starts at its heading (`## Decision Record: …`) and
runs to the next heading of the same or a higher level; its parts are `###` sections and bold
fields (`**日期**: …`, also as list items, with an ASCII or a full-width colon, the colon inside
or after the bold). The block structure comes from the Markdown layer (`parse/markdown.py`), so
a heading or a field inside a fenced example is none. A text too large for that layer has no
outline (None), and so no template findings.

The rules of one file ask for its outline in turn, so the last one is kept (by the identity of
the text, which a fix replaces): each file is parsed once.
"""

from __future__ import annotations

from mnemolint.parse import markdown
from mnemolint.patterns import Lazy

# `**名称**: 值`, `- **名称**：值`, `**名称:** 值`; the name holds no `*` and no colon.
_BOLD_FIELD = Lazy(
    r"\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?\*\*\s*(?P<name>[^*:：\n]{1,40}?)\s*(?P<inner>[:：])?\s*\*\*"
    r"\s*(?(inner)|[:：])\s*(?P<value>.*)"
)
_PLAIN_FIELD = Lazy(r"\s*(?:[-*+]\s+)?(?:\*\*)?(?P<name>[^\s*:：][^*:：\n]{0,20}?)(?:\*\*)?\s*[:：]\s*(?P<value>.*)")
_TICKS = Lazy(r"`+")


class Heading:
    """A heading: its 1-based line, level, text, and the last line it spans (up to the next
    heading of its level or higher, or the end of the text)."""

    __slots__ = ("line", "level", "title", "end")

    def __init__(self, line: int, level: int, title: str) -> None:
        self.line = line
        self.level = level
        self.title = title
        self.end = line


class Field:
    """A `**name**: value` line."""

    __slots__ = ("name", "value", "line")

    def __init__(self, name: str, value: str, line: int) -> None:
        self.name = name
        self.value = value
        self.line = line


class Outline:
    """The headings of a text, its lines (CR dropped) and which of them are code or raw HTML."""

    __slots__ = ("lines", "headings", "code")

    def __init__(self, lines: list[str], headings: list[Heading], code: set[int]) -> None:
        self.lines = lines
        self.headings = headings
        self.code = code

    def text_lines(self, first: int, last: int) -> list[tuple[int, str]]:
        """Lines `first`..`last` (1-based, inclusive) that are not code, inline code spans blanked."""
        return [
            (number, blank_code_spans(self.lines[number - 1]))
            for number in range(max(first, 1), min(last, len(self.lines)) + 1)
            if number not in self.code
        ]

    def fields(self, first: int, last: int, plain: bool = False) -> list[Field]:
        """The bold fields (or, `plain`, `name: value` lines too) on lines `first`..`last`."""
        pattern = _PLAIN_FIELD if plain else _BOLD_FIELD
        found = []
        for number, line in self.text_lines(first, last):
            match = pattern.fullmatch(line)
            if match:
                found.append(Field(match.group("name").strip(), match.group("value").strip(), number))
        return found

    def below(self, heading: Heading) -> list[Heading]:
        """The headings inside `heading`'s span (its sections, at any depth)."""
        return [other for other in self.headings if heading.line < other.line <= heading.end]

    def body(self, heading: Heading) -> list[tuple[int, str]]:
        """The lines under `heading` up to the next heading of any level, code included."""
        following = [other.line for other in self.headings if other.line > heading.line]
        last = min(following) - 1 if following else len(self.lines)
        return [(number, self.lines[number - 1]) for number in range(heading.line + 1, last + 1)]


def blank_code_spans(line: str) -> str:
    """`line` with each inline code span replaced by a space. As CommonMark reads them: a run of
    backticks opens a span that the next run of the same length closes; a run with no such
    closer is text. One pass over the runs (a backreferencing pattern was cubic in a line of
    backticks: 1,500 of them took a minute)."""
    if "`" not in line:
        return line
    runs = [(match.start(), match.end()) for match in _TICKS.finditer(line)]
    closer: list[int | None] = [None] * len(runs)
    last_of_length: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):  # the next run of each length, from the right
        start, end = runs[index]
        closer[index] = last_of_length.get(end - start)
        last_of_length[end - start] = index
    pieces, kept, index = [], 0, 0
    while index < len(runs):
        close = closer[index]
        if close is None:
            index += 1
            continue
        pieces += [line[kept : runs[index][0]], " "]
        kept = runs[close][1]
        index = close + 1
    return "".join(pieces) + line[kept:]


_last: tuple[str, Outline | None] | None = None


def outline(text: str) -> Outline | None:
    """The outline of `text`, None when it is too large for the Markdown layer."""
    global _last
    if _last is not None and _last[0] is text:
        return _last[1]
    found = markdown.blocks(text)
    result = None
    if found is not None:
        lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
        headings = [Heading(block.start_line, block.level, block.content.strip()) for block in found if block.level]
        for position, heading in enumerate(headings):
            later = [other.line for other in headings[position + 1 :] if other.level <= heading.level]
            heading.end = later[0] - 1 if later else len(lines)
        result = Outline(lines, headings, markdown.code_in(found))
    _last = (text, result)
    return result
