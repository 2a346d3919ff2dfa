"""Read `MEMORY.md` the way the agent loads it: as lines, not as a Markdown tree.

The agent keeps the first 200 lines / 25,000 characters and drops the rest, so what matters is
which lines are pointers (`- [Title](file.md) — summary`), which are content that belongs in a
topic file, and where the load cap cuts. A bounded line scanner does this in linear time even on
a hostile 200 KB line, and costs nothing to import.
"""

from __future__ import annotations

from functools import lru_cache

from mnemolint.parse.textutil import js_lstrip_count, js_trim, utf16_len, utf16_prefix_index
from mnemolint.patterns import Lazy

BLANK = "blank"
HEADING = "heading"
POINTER = "pointer"
TABLE = "table"
RULE = "rule"  # a thematic break: structure, not content
COMMENT = "comment"
FRONTMATTER = "frontmatter"
CODE = "code"
NESTED = "nested"
CONTENT = "content"

_HEADING = Lazy(r" {0,3}#{1,6}(?:[ \t]|$)")
_FENCE = Lazy(r" {0,3}(`{3,}|~{3,})")
_LIST = Lazy(r"([ \t]*)(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+|$)")
_THEMATIC = Lazy(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")
_SEPARATOR = Lazy(r"^[\s—–:|-]+")
_TICKS = Lazy(r"`+")
_TITLE = Lazy(r'"[^"]*"|\'[^\']*\'|\([^()]*\)')
_PAREN = Lazy(r"\\.|[()]")
_MAX_TITLE = 1000  # how far back from `](` a title's `[` is looked for


class Link:
    """An inline link `[title](target)` on one line; columns are 1-based, end exclusive."""

    __slots__ = ("title", "target", "column", "end_column")

    def __init__(self, title: str, target: str, column: int, end_column: int) -> None:
        self.title = title
        self.target = target
        self.column = column
        self.end_column = end_column


class IndexLine:
    __slots__ = ("number", "text", "kind", "links", "_entry")

    def __init__(self, number: int, text: str, kind: str, links: list[Link], entry: bool | None = None) -> None:
        self.number = number
        self.text = text
        self.kind = kind
        self.links = links
        self._entry = entry  # None until asked (`classify` may still change the kind)

    @property
    def entry(self) -> bool:
        """Whether this line is an index entry: a table row with a link, or a pointer whose link
        comes first (`- [Title](file.md) — …`, `- **[Title](file.md)**`), not a link inside prose.
        Found once: several index rules ask it of every line, and the hook keeps it (`cache.IndexFacts`)."""
        if self._entry is None:
            self._entry = self._is_entry()
        return self._entry

    def _is_entry(self) -> bool:
        if self.kind == TABLE:
            return bool(self.links)
        if self.kind != POINTER or not self.links:
            return False
        item = _LIST.match(self.text)
        start = item.end() if item else len(self.text) - len(self.text.lstrip())
        return not self.text[start : self.links[0].column - 1].strip("*_` \t")

    def summary(self) -> str:
        """The entry's text after its link: the summary the agent reads for this topic."""
        if not self.links:
            return ""
        rest = self.text[self.links[0].end_column - 1 :].rstrip("\r")
        return _SEPARATOR.sub("", rest).strip()


class LoadCut:
    """What the agent's loader keeps of an index that is over a cap (trimmed-text numbers)."""

    __slots__ = ("total_lines", "chars", "over_lines", "over_chars", "loaded_lines", "first_dropped", "line1_cut")

    def __init__(self) -> None:
        self.total_lines = 0
        self.chars = 0
        self.over_lines = False
        self.over_chars = False
        self.loaded_lines = 0
        self.first_dropped = 0  # file line number of the first dropped line
        self.line1_cut: int | None = None  # characters of line 1 kept when the char cap cuts it


def find_links(text: str) -> list[Link]:
    """Inline links on a line, outside code spans and HTML comments."""
    return _links(text, False)[0]


def _links(text: str, in_comment: bool) -> tuple[list[Link], bool]:
    """The links of a line that starts inside an HTML comment or not; and whether one is open at its end.

    Linear: each `](` takes the last `[` before it (tracked as the scan goes, at most `_MAX_TITLE`
    back and never inside the link before: links do not nest), parentheses are matched in one pass,
    and a `<…>` destination's `>` and `)` are looked up by searches that only move forward.
    """
    text, in_comment = _mask(text, in_comment)
    links: list[Link] = []
    closing: dict[int, int] | None = None
    angle, after_angle = _Forward(text, ">"), _Forward(text, ")")
    bracket, scanned, floor, position = -1, 0, 0, 0
    while True:
        middle = text.find("](", position)
        if middle < 0:
            return links, in_comment
        position = middle + 2
        found = text.rfind("[", scanned, middle)
        bracket, scanned = (found if found >= 0 else bracket), middle
        if text.startswith("<", middle + 2):  # `<…>` destination: its own `)` after the `>`
            gt = angle.find(middle + 2)
            close = after_angle.find(gt) if gt >= 0 else -1
        else:
            if closing is None:
                closing = _matching_parens(text)
            close = closing.get(middle + 1, -1)
        if close < 0 or bracket < max(floor, middle - _MAX_TITLE):
            continue
        target = text[middle + 2 : close].strip()
        if target.startswith("<") and ">" in target:
            target = target[1 : target.index(">")]
        elif " " in target:
            path, rest = target.split(" ", 1)
            if _TITLE.fullmatch(rest.strip()):  # [t](file.md "title")
                target = path
            # else `[t](my file.md)`: not CommonMark, but what the agent reads is the whole name
        links.append(Link(text[bracket + 1 : middle], target, bracket + 1, close + 2))
        position = floor = close + 1


class _Forward:
    """`str.find` of one character for start points that never move back: linear over all calls."""

    __slots__ = ("text", "char", "at")

    def __init__(self, text: str, char: str) -> None:
        self.text = text
        self.char = char
        self.at = -2  # nothing searched yet; -1: none left

    def find(self, start: int) -> int:
        if self.at != -1 and self.at < start:
            self.at = self.text.find(self.char, start)
        return self.at


def _matching_parens(text: str) -> dict[int, int]:
    r"""For each `(` of the line, the index of the `)` closing it; `\(` and `\)` are escapes.

    CommonMark allows balanced parentheses in a link destination (`[Old](notes(old).md)`).
    """
    if "\\" not in text and text.count("(") == 1:  # one link and no escape, as most index lines have
        start = text.index("(")
        end = text.find(")", start)
        return {start: end} if end >= 0 else {}
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for match in _PAREN.finditer(text):
        char = match.group()
        if char == "(":
            stack.append(match.start())
        elif char == ")" and stack:
            pairs[stack.pop()] = match.start()
    return pairs


def _mask(text: str, in_comment: bool) -> tuple[str, bool]:
    """`text` with code spans and HTML comments blanked out (same length, so columns hold).

    A code span is a run of N backticks up to the next run of exactly N (CommonMark); a run with
    no match is literal. Returns whether an HTML comment is still open at the end of the line.
    Linear: runs are matched through per-length position lists.
    """
    if not in_comment and "`" not in text and "<!--" not in text:
        return text, False
    blanks: list[tuple[int, int]] = []
    position = 0
    if in_comment:
        end = text.find("-->")
        if end < 0:
            return " " * len(text), True
        blanks.append((0, end + 3))
        position = end + 3
    from bisect import bisect_right  # a line with code spans or a comment is rare: not on every start

    runs = [(match.start(), match.end()) for match in _TICKS.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for start, end in runs:
        by_length.setdefault(end - start, []).append(start)
    run = 0
    comment = text.find("<!--", position)
    open_comment = False
    while True:
        while run < len(runs) and runs[run][0] < position:
            run += 1
        if 0 <= comment < position:
            comment = text.find("<!--", position)
        tick = runs[run][0] if run < len(runs) else -1
        if comment < 0 and tick < 0:
            break
        if comment >= 0 and (tick < 0 or comment < tick):
            end = text.find("-->", comment + 4)
            if end < 0:
                blanks.append((comment, len(text)))
                open_comment = True
                break
            blanks.append((comment, end + 3))
            position = end + 3
        else:
            start, end = runs[run]
            starts = by_length[end - start]
            later = bisect_right(starts, start)
            if later < len(starts):
                blanks.append((start, starts[later] + end - start))
                position = starts[later] + end - start
            else:
                position = end  # no closing run: the backticks are literal
    pieces, last = [], 0
    for start, end in blanks:
        pieces.append(text[last:start])
        pieces.append(" " * (end - start))
        last = end
    pieces.append(text[last:])
    return "".join(pieces), open_comment


def classify(lines: list[str], frontmatter_end: int) -> list[IndexLine]:
    """Sort each line of the index into pointer, structure, or content the agent should not load."""
    result: list[IndexLine] = []
    fence: str | None = None
    in_comment = False
    for index, raw in enumerate(lines):
        text = raw.rstrip("\r")
        number = index + 1
        if index < frontmatter_end:
            result.append(IndexLine(number, text, FRONTMATTER, []))
            continue
        if fence is not None:
            if text.strip().startswith(fence):
                fence = None
            result.append(IndexLine(number, text, CODE, []))
            continue
        if in_comment or text.lstrip().startswith("<!--"):
            in_comment = _mask(text, in_comment)[1]
            result.append(IndexLine(number, text, COMMENT, []))
            continue
        fence_match = _FENCE.match(text)
        if fence_match:
            fence = fence_match.group(1)
            result.append(IndexLine(number, text, CODE, []))
            continue
        if len(text) <= _MEMO_LINE:
            shared, in_comment, kind = _plain(text)
            links = list(shared)
        else:
            links, in_comment = _links(text, False)
            kind = _kind(text)
        result.append(IndexLine(number, text, kind, links))
    for line in result:
        if line.kind == POINTER and not line.links:
            line.kind = CONTENT
    _tables_without_links_are_content(result)
    return result


_MEMO_LINE = 1_000  # characters: a longer line is scanned each time, never kept (`_plain`: 8 M at most)


@lru_cache(maxsize=8_192)
def _plain(text: str) -> tuple[tuple[Link, ...], bool, str]:
    """A line's links, whether an HTML comment is open at its end, and its kind, for a line that
    starts outside a comment and a fence: a pure function of its text, kept for the lines seen
    last, so that a language server's keystroke in `MEMORY.md` scans the line it changed, not the
    2,000 others again. (`Link`s are never changed once made.)"""
    links, in_comment = _links(text, False)
    return tuple(links), in_comment, _kind(text)


def _tables_without_links_are_content(lines: list[IndexLine]) -> None:
    """A table whose rows link topics is an index written as a table; one with no link is data."""
    start = 0
    while start < len(lines):
        if lines[start].kind != TABLE:
            start += 1
            continue
        end = start
        while end < len(lines) and lines[end].kind == TABLE:
            end += 1
        if not any(line.links for line in lines[start:end]):
            for line in lines[start:end]:
                line.kind = CONTENT
        start = end


def _kind(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        return BLANK
    if _HEADING.match(text):
        return HEADING
    if stripped.startswith("|"):
        return TABLE
    if _THEMATIC.fullmatch(text.rstrip()):
        return RULE
    item = _LIST.match(text)
    if item:
        return NESTED if len(item.group(1).expandtabs(4)) >= 2 else POINTER
    if text[:1] in " \t":
        return NESTED
    if stripped.startswith("["):  # `[Title](file.md) — …` without its bullet is still one pointer
        return POINTER
    return CONTENT


def load_cut(text: str, max_lines: int, max_chars: int) -> LoadCut:
    """Apply the loader's caps: first `max_lines` lines, then the last newline within `max_chars`.

    Mirrors Wave's loader (`raw.trim()`, `split("\\n")`, `.length` in UTF-16 units). Line numbers
    in the result are lines of the file, not of the trimmed text.
    """
    cut = LoadCut()
    trimmed = js_trim(text)
    leading_lines = text.count("\n", 0, js_lstrip_count(text))
    lines = trimmed.split("\n")
    cut.total_lines = len(lines)
    cut.chars = utf16_len(trimmed)
    cut.over_lines = cut.total_lines > max_lines
    cut.over_chars = cut.chars > max_chars
    content = "\n".join(lines[:max_lines]) if cut.over_lines else trimmed
    if utf16_len(content) > max_chars:
        limit = utf16_prefix_index(content, max_chars)
        newline = content.rfind("\n", 0, limit + 1)
        if newline > 0:
            content = content[:newline]
        else:
            cut.line1_cut = max_chars
            content = content[:limit]
    cut.loaded_lines = content.count("\n") + 1 if cut.line1_cut is None else 1
    cut.first_dropped = leading_lines + cut.loaded_lines + 1
    return cut
