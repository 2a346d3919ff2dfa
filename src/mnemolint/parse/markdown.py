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
_token_parser: Any = None  # the same, escapes kept as their own tokens (runs)


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
ITEM_TEXT = "item text"  # a line of a list item's paragraph as written: its code spans and comments included
CODE_SPAN = "code span"


class Run:
    """A piece of a text as the Markdown tokens have it: `kind` is TEXT, ITEM_TEXT, CODE_SPAN,
    FENCE, CODE or HTML (block or inline); `line` is the 1-based line it starts on; `content` is
    the token's text (an HTML token's source)."""

    __slots__ = ("kind", "line", "content")

    def __init__(self, kind: str, line: int, content: str) -> None:
        self.kind = kind
        self.line = line
        self.content = content

    def __repr__(self) -> str:
        return f"<Run {self.kind} {self.line} {self.content[:30]!r}>"


def runs(text: str) -> list[Run] | None:
    """The text's leaf tokens in order, each with the line it starts on: what an agent that reads
    Markdown tokens (Claude Code's `@import` scan) sees as text, as code and as HTML. A paragraph
    directly in a list item also gives each of its lines as written (ITEM_TEXT): Claude Code scans
    a list item's text whole, its code spans and HTML comments included. An escaped character
    (`\\@`) is no text. None when the text is over `MAX_CHARS` and was not parsed."""
    if len(text) > MAX_CHARS:
        return None
    found: list[Run] = []
    containers: list[str] = []  # the open list items and block quotes, innermost last
    for token in _parse(text, tokens=True):
        if token.type in ("list_item_open", "blockquote_open"):
            containers.append(token.type)
        elif token.type in ("list_item_close", "blockquote_close"):
            containers.pop()
        if token.map is None:
            continue
        line = token.map[0] + 1
        if token.type in ("fence", "code_block"):
            found.append(Run(FENCE if token.type == "fence" else CODE, line, token.content))
        elif token.type == "html_block":
            found.append(Run(HTML, line, token.content))
        elif token.type == "inline":
            if containers and containers[-1] == "list_item_open":
                found.extend(Run(ITEM_TEXT, line + at, piece) for at, piece in enumerate(token.content.split("\n")))
            pending = ""  # text tokens side by side are one text; an escape ends one
            for child in token.children or ():
                if child.type == "text" or (child.type == "text_special" and child.content == child.markup):
                    pending += child.content  # a backslash before what it cannot escape is text
                    continue
                if pending:
                    found.append(Run(TEXT, line, pending))
                    pending = ""
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                elif child.type == "code_inline":
                    found.append(Run(CODE_SPAN, line, child.content))
                elif child.type == "html_inline":
                    found.append(Run(HTML, line, child.content))
                    line += child.content.count("\n")
            if pending:
                found.append(Run(TEXT, line, pending))
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


def _parse(text: str, tokens: bool = False) -> list:
    """The CommonMark tokens of `text`; with `tokens`, escapes (`\\@`) are kept apart from the text
    beside them (markdown-it's `text_join` off), as a reader of raw tokens sees them."""
    global _parser, _token_parser
    if _parser is None:
        from markdown_it import MarkdownIt

        _parser = MarkdownIt("commonmark")
        _token_parser = MarkdownIt("commonmark").disable("text_join")
    return (_token_parser if tokens else _parser).parse(text)
