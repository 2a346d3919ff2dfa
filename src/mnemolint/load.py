"""What an agent loads of `MEMORY.md`, and the warning it appends when it cuts the index.

The one place that simulates the agents' index loaders, for the commands
that show what an agent gets (`preview`, the post-write hook, the Python API) and for the index
rules that count per reader. Both agents trim the text, keep its first 200 lines, then cut at the
last newline at or before 25,000 UTF-16 units (a hard cut when there is none). Claude Code first
removes the frontmatter and the block-level HTML comments (claudemd.ts:292-385): an index whose
first 60 lines are a commented-out block is not over its cap there. Wave counts the file as it is
(memoryEntrypoint.ts:42-99) and names what it dropped; Claude Code gives KB figures only.

Pure text in, facts out: nothing here reads a file, imports Markdown or YAML, or prints.
"""

from __future__ import annotations

import re

from mnemolint.parse.frontmatter import after
from mnemolint.parse.textutil import js_trim, utf16_len, utf16_prefix_index
from mnemolint.patterns import Lazy
from mnemolint.readers import CLAUDE, WAVE

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.readers import Reader

# The one-line advice each agent's own warning gives (Claude Code's prompt says ~150, its warning ~200).
_ADVICE_CHARS = {WAVE.name: 150, CLAUDE.name: 200}

_COMMENT_START = re.compile(r"( {0,3})<!--")
_COMMENT_SPAN = re.compile(r"<!--[\s\S]*?-->")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = Lazy(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")


def agent_for(path: str) -> str:
    """The agent that reads a memory file at `path` by default: Wave under `.wave/`, else Claude Code."""
    import os

    return "wave" if f"{os.sep}{WAVE.home}{os.sep}" in os.sep + path + os.sep else "claude-code"


def counted_text(text: str, reader: Reader) -> str:
    """The text of `MEMORY.md` that `reader` counts against its caps (before trimming)."""
    if not reader.strips_index_markup:
        return text
    return strip_block_comments(after(text)[1])


def strip_block_comments(text: str) -> str:
    """Claude Code's `stripHtmlCommentsFromTokens`: every top-level HTML block that starts with
    `<!--` and holds a `-->` loses its comment spans (and, being a marked `html` token, the
    newlines after it); what is left on its lines stays when it is not blank. An unclosed `<!--`,
    a comment inside a paragraph line, a fence or a list item, stays. marked normalises line
    endings to `\\n` when it lexes, which happens only when there is a comment."""
    if "<!--" not in text:
        return text
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    fence: str | None = None
    in_list = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if fence is not None:
            fence = None if line.strip().startswith(fence) else fence
            out.append(line)
            index += 1
            continue
        opened = _FENCE.match(line)
        start = _COMMENT_START.match(line)
        if opened:
            fence = opened.group(1)
        elif start and not (in_list and start.group(1)):
            end = _block_end(lines, index, start.end())
            if end is not None:
                after = end + 1
                while after < len(lines) - 1 and lines[after] == "":
                    after += 1  # the token's raw takes the newlines after the block
                block = "\n".join(lines[index:after]) + ("\n" if after < len(lines) else "")
                residue = _COMMENT_SPAN.sub("", block)
                if residue.strip():
                    out.extend(residue.split("\n")[:-1] if residue.endswith("\n") else residue.split("\n"))
                index = after
                continue
        if line.strip():
            in_list = bool(_LIST_ITEM.match(line)) or (in_list and line[:1] in " \t")
        out.append(line)
        index += 1
    return "\n".join(out)


def _block_end(lines: list[str], index: int, column: int) -> int | None:
    """The line holding the `-->` that closes a comment opened at `column` of line `index`."""
    if "-->" in lines[index][column:]:
        return index
    return next((at for at in range(index + 1, len(lines)) if "-->" in lines[at]), None)


class Load:
    """What `reader` keeps of an index (numbers of the trimmed counted text, as the agent has them).

    `loaded` is the kept text; `remainder` what was dropped (it starts with the newline at the
    cut); `loaded_lines` counts the lines the agent reports as loaded; `warning` is the agent's
    own warning text, None when nothing was cut.
    """

    __slots__ = (
        "reader",
        "lines",
        "chars",
        "over_lines",
        "over_chars",
        "loaded",
        "remainder",
        "loaded_lines",
        "warning",
    )

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.lines = 0
        self.chars = 0
        self.over_lines = False
        self.over_chars = False
        self.loaded = ""
        self.remainder = ""
        self.loaded_lines = 0
        self.warning: str | None = None

    @property
    def cut(self) -> bool:
        return self.over_lines or self.over_chars

    @property
    def dropped_lines(self) -> int:
        return self.lines - self.loaded_lines


def load(text: str, reader: Reader, max_lines: int = 200, max_chars: int = 25_000) -> Load:
    """Apply `reader`'s index loader to the text of `MEMORY.md`."""
    result = Load(reader)
    trimmed = js_trim(counted_text(text, reader))
    lines = trimmed.split("\n")
    result.lines, result.chars = len(lines), utf16_len(trimmed)
    result.over_lines, result.over_chars = result.lines > max_lines, result.chars > max_chars
    if not result.cut:
        result.loaded, result.loaded_lines = trimmed, result.lines
        return result
    kept = "\n".join(lines[:max_lines]) if result.over_lines else trimmed
    hard_cut = False
    if utf16_len(kept) > max_chars:
        limit = utf16_prefix_index(kept, max_chars)
        newline = kept.rfind("\n", 0, limit + 1)
        hard_cut = newline <= 0
        kept = kept[: limit if hard_cut else newline]
    result.loaded, result.remainder = kept, trimmed[len(kept) :]
    dropped = result.remainder.split("\n")
    result.loaded_lines = result.lines - len(dropped) + 1 if result.remainder else result.lines
    kept_units = max_chars if hard_cut else utf16_len(kept)  # JavaScript's slice keeps a split pair's half
    result.warning = _warning(result, dropped, kept_units, max_lines, max_chars)
    return result


def _warning(result: Load, dropped: list[str], kept_units: int, max_lines: int, max_chars: int) -> str:
    """The agent's own text: Wave's names the loss (memoryEntrypoint.ts:73-99), Claude Code's its size
    in KB (memdir.ts:87-97)."""
    advice = (
        f"Keep index entries to one line under ~{_ADVICE_CHARS[result.reader.name]} chars; "
        "move detail into topic files."
    )
    if result.reader.strips_index_markup:
        size, limit = kilobytes(result.chars), kilobytes(max_chars)
        reason = _reason(
            result,
            f"{size} (limit: {limit}) — index entries are too long",
            f"{result.lines} lines and {size}",
            max_lines,
        )
        return f"> WARNING: MEMORY.md is {reason}. Only part of it was loaded. {advice}"
    chars = f"{result.chars} characters"
    reason = _reason(
        result,
        f"{chars} (limit: {max_chars}) — index entries are too long",
        f"{result.lines} lines and {chars}",
        max_lines,
    )
    if result.loaded_lines <= 1:
        cut = f"everything after the first {kept_units} characters of line 1 was cut off"
    else:
        first = next((line for line in dropped if js_trim(line)), "")
        snippet = js_trim(first)
        snippet = snippet[: utf16_prefix_index(snippet, 80)]
        quoted = f' ("{snippet}")' if snippet else ""
        cut = (
            f"{result.dropped_lines} of {result.lines} lines were cut off, starting at line "
            f"{result.loaded_lines + 1}{quoted}"
        )
    return f"> WARNING: MEMORY.md is {reason}. Only part of it was loaded: {cut}. {advice}"


def _reason(result: Load, chars_only: str, both: str, max_lines: int) -> str:
    if result.over_chars and not result.over_lines:
        return chars_only
    if result.over_lines and not result.over_chars:
        return f"{result.lines} lines (limit: {max_lines})"
    return both


def kilobytes(size: int) -> str:
    """Claude Code's `formatFileSize`: 1024-based, one decimal rounded half up as `toFixed` does
    (the value is exact in binary), a trailing `.0` dropped; `N bytes` under 1 KB."""
    if size < 1024:
        return f"{size} bytes"
    from decimal import ROUND_HALF_UP, Decimal

    value, unit = Decimal(size) / 1024, "KB"
    for larger in ("MB", "GB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    shown = str(value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)).removesuffix(".0")
    return f"{shown}{unit}"


class CodexPart:
    """What Codex keeps of one file of an `AGENTS.md` chain (project_doc.rs `read_project_docs`):
    `size` its bytes, `kept` the bytes it reads (all of them unless the budget ran out), `budget`
    what was left of `project_doc_max_bytes` when it came to this file, `split` whether the cut
    falls inside a UTF-8 character (Codex then shows U+FFFD), `empty` whether the kept text is
    blank, so that it takes no budget and joins nothing; `blank` whether the whole file is, so
    that cutting it loses nothing."""

    __slots__ = ("path", "size", "kept", "budget", "split", "empty", "blank")

    def __init__(self, path: str, size: int, kept: int, budget: int, split: bool, empty: bool, blank: bool) -> None:
        self.path = path
        self.size = size
        self.kept = kept
        self.budget = budget
        self.split = split
        self.empty = empty
        self.blank = blank

    @property
    def cut(self) -> bool:
        return self.kept < self.size


def codex_load(files: list[tuple[str, bytes]], max_bytes: int) -> tuple[list[CodexPart], str]:
    """Codex's reading of the chain `files` (root first, one file per folder): each file read up to
    what is left of `max_bytes`, decoded lossily, kept only when not blank (a blank one takes no
    budget), the kept texts joined with a blank line (project_doc.rs, openai/codex@0bd53e4). Returns
    each file's part and the text Codex loads."""
    remaining = max_bytes
    parts: list[CodexPart] = []
    texts: list[str] = []
    for path, data in files:
        kept = data[: max(remaining, 0)]
        text = kept.decode("utf-8", "replace")
        split = len(kept) < len(data) and _splits_character(data, len(kept))
        empty = not text.strip()
        blank = empty and not data.decode("utf-8", "replace").strip()
        parts.append(CodexPart(path, len(data), len(kept), max(remaining, 0), split, empty, blank))
        if not empty:
            texts.append(text)
            remaining -= len(kept)
    return parts, "\n\n".join(texts)


def _splits_character(data: bytes, at: int) -> bool:
    """Whether a cut at byte `at` falls inside a UTF-8 sequence (the next byte is a continuation)."""
    return 0 < at < len(data) and 0x80 <= data[at] < 0xC0
