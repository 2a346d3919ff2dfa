"""The Markdown layer: CommonMark block structure from markdown-it-py, for the families that need it.

Templates (a `## Handoff Checkpoint` section runs to the next heading of its level), `@imports`
(never inside code or an HTML comment) and fenced examples need to know which lines are code, which
are headings and where each block starts and ends: that is a CommonMark parse, not a regex. The
`MEMORY.md` index keeps its own bounded line scanner (`parse/index_lines.py`), because it must count
exactly what Wave's loader counts, line by line, in linear time on any input.

markdown-it-py is imported on first use only, so the plain `check` path never pays for it, and a
text over `MAX_CHARS` is not parsed at all (`None`): a huge file costs a length check, not a parse.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from typing import Any

MAX_CHARS = 256 * 1024  # markdown-it-py takes up to ~2 s on adversarial text of this size (tests/test_markdown.py)

HEADING = "heading"
FENCE = "fence"  # ``` or ~~~ fenced code, with an info string
CODE = "code"  # indented code
HTML = "html"  # an HTML block, comments included
PARAGRAPH = "paragraph"

_BLOCK_KINDS = {
    "heading_open": HEADING,
    "fence": FENCE,
    "code_block": CODE,
    "html_block": HTML,
    "paragraph_open": PARAGRAPH,
}

_parser: Any = None


class Block:
    """One block of a Markdown text. Lines are 1-based and inclusive; `level` is a heading's level
    (0 for other blocks), `info` a fence's info string, `content` a fence's or code block's body, a
    heading's text or an HTML block's source."""

    __slots__ = ("kind", "start_line", "end_line", "level", "info", "content")

    def __init__(self, kind: str, start_line: int, end_line: int, level: int, info: str, content: str) -> None:
        self.kind = kind
        self.start_line = start_line
        self.end_line = end_line
        self.level = level
        self.info = info
        self.content = content

    def __repr__(self) -> str:
        return f"<Block {self.kind} {self.start_line}-{self.end_line} {self.content[:30]!r}>"


def blocks(text: str) -> list[Block] | None:
    """The text's blocks in order, at any nesting (a fence inside a list item counts); None when
    the text is over `MAX_CHARS` and was not parsed."""
    if len(text) > MAX_CHARS:
        return None
    tokens = _parse(text)
    found = []
    for position, token in enumerate(tokens):
        kind = _BLOCK_KINDS.get(token.type)
        if kind is None or token.map is None:
            continue
        start, end = token.map  # 0-based, end exclusive
        if kind == HEADING:
            content, level = tokens[position + 1].content, int(token.tag[1:])
        elif kind == PARAGRAPH:
            content, level = tokens[position + 1].content, 0
        else:
            content, level = token.content, 0
        found.append(Block(kind, start + 1, max(end, start + 1), level, token.info.strip(), content))
    return found


def fences(text: str) -> list[Block]:
    """The fenced code blocks, with their info strings (empty for a text too large to parse)."""
    return [block for block in blocks(text) or () if block.kind == FENCE]


def code_lines(text: str) -> set[int] | None:
    """Lines that are code or raw HTML (comments included), where Markdown syntax means nothing:
    an `@import` or a link there is not one. None when the text was not parsed."""
    found = blocks(text)
    return None if found is None else code_in(found)


def code_in(found: list[Block]) -> set[int]:
    """The lines of `found` (a text's blocks) that are code or raw HTML."""
    return {
        line
        for block in found
        if block.kind in (FENCE, CODE, HTML)
        for line in range(block.start_line, block.end_line + 1)
    }


TEXT = "text"  # text Markdown syntax means something in: paragraphs, headings, list items, tables
CODE_SPAN = "code span"


class Run:
    """A piece of a text as the Markdown tokens have it: `kind` is TEXT, CODE_SPAN, FENCE, CODE or
    HTML (block or inline); `line` is the 1-based line it starts on; `content` is the token's text
    (an HTML token's source)."""

    __slots__ = ("kind", "line", "content")

    def __init__(self, kind: str, line: int, content: str) -> None:
        self.kind = kind
        self.line = line
        self.content = content

    def __repr__(self) -> str:
        return f"<Run {self.kind} {self.line} {self.content[:30]!r}>"


def runs(text: str) -> list[Run] | None:
    """The text's leaf tokens in order, each with the line it starts on: what an agent that reads
    Markdown tokens (Claude Code's `@import` scan, claudemd.ts:459-533) sees as text, as code and
    as HTML. None when the text is over `MAX_CHARS` and was not parsed."""
    if len(text) > MAX_CHARS:
        return None
    found: list[Run] = []
    for token in _parse(text):
        if token.map is None:
            continue
        line = token.map[0] + 1
        if token.type in ("fence", "code_block"):
            found.append(Run(FENCE if token.type == "fence" else CODE, line, token.content))
        elif token.type == "html_block":
            found.append(Run(HTML, line, token.content))
        elif token.type == "inline":
            for child in token.children or ():
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                elif child.type == "text":
                    found.append(Run(TEXT, line, child.content))
                elif child.type == "code_inline":
                    found.append(Run(CODE_SPAN, line, child.content))
                elif child.type == "html_inline":
                    found.append(Run(HTML, line, child.content))
                    line += child.content.count("\n")
    return found


def links(text: str) -> list[tuple[int, str]] | None:
    """Each link of the text as its 1-based line and destination (`href`, reference links
    resolved, as CommonMark normalises it: percent-encoded), in order; never one inside code or
    HTML. None when the text is over `MAX_CHARS` and was not parsed."""
    if len(text) > MAX_CHARS:
        return None
    found: list[tuple[int, str]] = []
    for token in _parse(text):
        if token.type != "inline" or token.map is None:
            continue
        line = token.map[0] + 1
        cursor = 0  # where in the inline's source the next code span is looked for
        for child in token.children or ():
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "link_open":
                found.append((line, str(child.attrGet("href") or "")))
            elif child.type == "code_inline":  # its line endings are spaces in `content`: count the source's
                start, cursor = _code_span(token.content, cursor, child.markup)
                line += token.content.count("\n", start, cursor)
            elif child.type in ("text", "html_inline"):
                line += child.content.count("\n")
    return found


def _code_span(source: str, start: int, fence: str) -> tuple[int, int]:
    """Where the code span opened by the backtick run `fence` lies in an inline's `source`, from
    `start` on (an empty span at `start` when it cannot be found)."""
    opening = re.compile(rf"(?<![`\\]){fence}(?!`)").search(source, start)
    if opening is None:
        return start, start
    closing = re.compile(rf"(?<!`){fence}(?!`)").search(source, opening.end())
    return (opening.start(), closing.end()) if closing else (start, start)


def _parse(text: str) -> list:
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt

        _parser = MarkdownIt("commonmark")
    return _parser.parse(text)
