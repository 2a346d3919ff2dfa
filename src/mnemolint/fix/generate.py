"""Index lines generated from topic files (Wave's capacity rules for a generated index).

One line per topic, `- [Title](path.md) — <description>`: the title is the frontmatter `name`
(else the file's stem), the description its folded value with whitespace collapsed, the whole
line at most `index-line-max-chars` UTF-16 units. Every line is read back with mnemolint's own
index reader before it is used: a line the linter did not see as a link to its topic would be
added again on every run. A generated index, and the lines added to an existing one, keep to one
budget (`index-target-lines` / `index-target-chars` of the trimmed text, counted as the agent's
loader counts).

Imported only when fixes are applied or `mnemolint index` runs, never by a plain `check`.
"""

from __future__ import annotations

import posixpath

from mnemolint.kinds.memory import TYPES, MemoryDir, unindexable
from mnemolint.model import Edit
from mnemolint.parse.document import BOM, Document
from mnemolint.parse.index_lines import classify
from mnemolint.parse.textutil import dominant_eol, js_lstrip_count, js_trim, utf16_len, utf16_prefix_index

SEPARATOR = " — "
# Link targets are percent-encoded where the index reader would take them for an anchor, a query,
# a URL scheme, an escape or a code span; a name with a space goes in `<…>`.
_TARGET = str.maketrans({"%": "%25", "#": "%23", "?": "%3F", ":": "%3A", "<": "%3C", ">": "%3E", "`": "%60"})
# Titles: brackets become parentheses (the index reader, like the agent, takes the last `[` before
# `](` for the start of the link, and a title without brackets cannot hold a `](`), backslashes are
# escaped, and backticks dropped so that they cannot pair with one in the description into a code
# span that swallows the link.
_TITLE = str.maketrans({"[": "(", "]": ")", "\\": "\\\\", "`": None})


class Entry:
    """A topic's index line, or (`line` empty) the problem that keeps it from having one."""

    __slots__ = ("topic", "line", "problem")

    def __init__(self, topic: Document, line: str, problem: str = "") -> None:
        self.topic = topic
        self.line = line
        self.problem = problem


class Index:
    """A generated index: its lines, the topics skipped (no line possible) and left out (no room)."""

    __slots__ = ("lines", "skipped", "left_out")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.skipped: list[Entry] = []
        self.left_out: list[Document] = []

    def text(self, eol: str = "\n") -> str:
        return "".join(line + eol for line in self.lines)


class Budget:
    """Lines and UTF-16 characters of the trimmed index against the caps generation keeps to."""

    __slots__ = ("lines", "chars", "eol", "max_lines", "max_chars")

    def __init__(self, head: str, eol: str, options: dict) -> None:
        """`head` is the index text before the point where lines are added (blank lines after it
        are trimmed by the loader)."""
        kept = head[js_lstrip_count(head) :].rstrip("\r\n")
        self.lines = kept.count("\n") + 1 if kept else 0
        self.chars = utf16_len(kept)
        self.eol = len(eol)
        self.max_lines = options["index-target-lines"]
        self.max_chars = options["index-target-chars"]

    @property
    def full(self) -> bool:
        """No line fits any more."""
        return self.lines >= self.max_lines

    def take(self, line: str) -> bool:
        """Count `line` in when it fits."""
        chars = self.chars + utf16_len(line) + (self.eol if self.lines else 0)
        if self.lines + 1 > self.max_lines or chars > self.max_chars:
            return False
        self.lines, self.chars = self.lines + 1, chars
        return True

    def __str__(self) -> str:
        return describe_budget(self.max_lines, self.max_chars)


def describe_budget(max_lines: int, max_chars: int) -> str:
    return f"the index's budget of {max_lines} lines / {max_chars:,} characters"


def order(topic: Document) -> tuple[int, str]:
    """By `type` (user, feedback, project, reference, then untyped), then path."""
    kind = topic.frontmatter.text("type")
    return (TYPES.index(kind) if kind in TYPES else len(TYPES), topic.rel)


def entry(memdir: MemoryDir, topic: Document, limit: int) -> Entry:
    """The topic's line, at most `limit` UTF-16 units: the description is cut with "…" to fit,
    or left out when not even its first character fits; a title too long for the line is cut.

    The line never carries credential-shaped text (`redact.find_secrets`, the detector that masks
    every output): `MEMORY.md` is loaded into every session. A title or description that holds
    some, as YAML decodes it or as the file spells it, is left out (the line is titled with the
    file's stem and says nothing more; SEC001 reports the value in the topic), and a topic whose
    path holds some gets no line at all.
    """
    problem = unindexable(topic.rel) or (_SECRET_PATH if _carries_secret(topic.rel) else None)
    if problem:
        return Entry(topic, "", problem)
    front = topic.frontmatter
    stem = posixpath.splitext(posixpath.basename(topic.rel))[0]
    name = "" if _secret_value(topic, "name") else _collapse(front.text("name"))
    title = _no_comment(name.translate(_TITLE) or stem.translate(_TITLE))
    target = topic.rel.translate(_TARGET)
    if target.startswith("~"):  # the reader takes `~/…` for a home path
        target = "%7E" + target[1:]
    if any(char.isspace() for char in target):
        target = f"<{target}>"
    over = utf16_len(f"- [{title}]({target})") - limit
    if over > 0:
        title = _shorten(title, utf16_len(title) - over - 1)
        if not title:
            return Entry(topic, "", f"its path is too long for a {limit}-character index line")
    link = f"- [{title}]({target})"
    description = "" if _secret_value(topic, "description") else front.text("description")
    description = _no_comment(_collapse(description).replace("](", "]\\("))
    room = limit - utf16_len(link) - len(SEPARATOR)
    if utf16_len(description) > room:
        description = _shorten(description, room - 1)
    line = f"{link}{SEPARATOR}{description}" if description else link
    if _carries_secret(line):  # pieces that are harmless alone, credential-shaped together
        line = link if not _carries_secret(link) else f"- [{stem.translate(_TITLE)}]({target})"
        if _carries_secret(line):
            return Entry(topic, "", _SECRET_PATH)
    if not _reads_back(memdir, line, topic.rel):
        return Entry(topic, "", "its index line would not read back as a link to it")
    return Entry(topic, line)


_SECRET_PATH = "its path holds credential-shaped text, which an index line would copy into every session"


def _carries_secret(text: str) -> bool:
    from mnemolint.redact import find_secrets

    return bool(find_secrets(text))


def _secret_value(topic: Document, key: str) -> bool:
    """Whether the frontmatter value of `key` holds credential-shaped text, as YAML decodes it
    (`"\\x67hp_…"` is `ghp_…`) or as the file spells it (its key's lines, up to the next key)."""
    front = topic.frontmatter
    if _carries_secret(front.text(key) or ""):
        return True
    line = front.key_line(key)
    if line is None:
        return False
    first = line - front.fence_line - 1
    raw = [front.yaml_lines[first]]
    for text in front.yaml_lines[first + 1 :]:
        if text[:1] not in (" ", "\t", ""):
            break
        raw.append(text)
    return _carries_secret("\n".join(raw))


def generate(memdir: MemoryDir, options: dict, eol: str = "\n") -> Index:
    """The whole index for `memdir`, in generation order, within the budget."""
    limit = options["index-line-max-chars"]
    budget = Budget("", eol, options)
    index = Index()
    for topic in sorted(memdir.topics, key=order):
        found = entry(memdir, topic, limit)
        if found.problem:
            index.skipped.append(found)
        elif budget.take(found.line):
            index.lines.append(found.line)
        else:
            index.left_out.append(topic)
    return index


def create(memdir: MemoryDir, options: dict) -> tuple[Edit, ...] | str:
    """MEM106: the edit that writes a missing index; never an empty one, which would block the
    agent's own generation."""
    text = generate(memdir, options).text()
    return (Edit(0, 0, text),) if text else "no topic file can be written as an index line (see MEM207)"


def replacement(memdir: MemoryDir, number: int, topic: Document, options: dict) -> tuple[Edit, ...] | str:
    """MEM103, MEM109: line `number` of the index replaced by the topic's line, its ending kept."""
    index = memdir.index
    assert index is not None, "MEM103 and MEM109 fire on index lines"
    found = entry(memdir, topic, options["index-line-max-chars"])
    if found.problem:
        return found.problem
    start = index.line_offset(number)
    return (Edit(start, start + len(index.lines[number - 1].rstrip("\r")), found.line),)


class Appender:
    """MEM105: orphans' lines added after the last non-blank line of an existing index, each in
    turn while it fits the budget, in the index's line ending and keeping its final-newline state.
    Room is claimed in the order the fixes are computed, and only by those: a topic whose finding
    is suppressed takes none."""

    def __init__(self, memdir: MemoryDir, options: dict) -> None:
        index = memdir.index
        assert index is not None and index.text is not None, "MEM105 needs a readable index"
        lines, text = index.lines, index.text
        last = max((number for number, line in enumerate(lines) if js_trim(line)), default=-1)
        if last < 0:  # nothing but blank lines (or a BOM): the lines go first
            self.offset, self.eol_first = (1 if text.startswith(BOM) else 0), False
        elif last == len(lines) - 1:  # no line ending after it: start the new lines with one
            self.offset, self.eol_first = len(text), True
        else:
            self.offset, self.eol_first = index.line_offset(last + 2), False
        self.eol = dominant_eol(lines)
        self.budget = Budget(text[: self.offset], self.eol, options)
        self.memdir = memdir
        self.limit = options["index-line-max-chars"]
        self.problem = ""
        if not classify([*lines[: last + 1], "- [x](x.md)"], index.frontmatter.close_line)[-1].entry:
            self.problem = (
                "MEMORY.md ends inside an unclosed code block, HTML comment or frontmatter, where an added "
                "line would not be read as an entry"
            )

    def edits_for(self, topic: Document) -> tuple[Edit, ...] | str:
        if self.problem:
            return self.problem
        # With no line left, no line is built: a large dir's orphans are then not even parsed.
        found = None if self.budget.full else entry(self.memdir, topic, self.limit)
        if found is not None and found.problem:
            return found.problem
        if found is None or not self.budget.take(found.line):
            return f"no room left in {self.budget}: make room in MEMORY.md, then run --fix again"
        line = self.eol + found.line if self.eol_first else found.line + self.eol
        return (Edit(self.offset, self.offset, line),)


def _collapse(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _no_comment(text: str) -> str:
    """`<!--` escaped: an HTML comment opened on one line would hide the entries after it."""
    return text.replace("<!--", "<\\!--")


def _shorten(text: str, units: int) -> str:
    """`text` cut at a character boundary to `units` UTF-16 units, then "…"; "" when nothing is left.

    A trailing backslash is dropped with the spaces: it would escape what follows.
    """
    kept = text[: utf16_prefix_index(text, units)].rstrip(" \\") if units > 0 else ""
    return kept + "…" if kept else ""


def _reads_back(memdir: MemoryDir, line: str, rel: str) -> bool:
    """Whether the index reader sees `line` as one entry linking exactly the topic at `rel`."""
    [parsed] = classify([line], 0)
    if not parsed.entry or len(parsed.links) != 1:
        return False
    resolved = memdir.resolve(parsed.links[0].target)
    return resolved is not None and resolved.problem is None and resolved.rel == rel
