"""What an agent loads of `MEMORY.md`, and the warning it appends when it cuts the index.

The one place that simulates the agents' index loaders, for the commands
that show what an agent gets (`preview`, the post-write hook, the Python API) and for the index
rules that count per reader. Both agents trim the text, keep its first 200 lines, then cut at the
last newline at or before 25,000 UTF-16 units (a hard cut when there is none). Claude Code first
removes the frontmatter and the block-level HTML comments: an index whose first 60 lines are a
commented-out block is not over its cap there; its warning text is its profile's
(agents/claude_code.py). Wave counts the file as it is (memoryEntrypoint.ts:42-99).

Pure text in, facts out: nothing here reads a file, imports Markdown or YAML, or prints.
"""

from __future__ import annotations

import re

from mnemolint.parse.textutil import js_trim, utf16_len, utf16_prefix_index
from mnemolint.patterns import Lazy
from mnemolint.readers import WAVE

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.readers import Reader

_COMMENT_START = re.compile(r"( {0,3})<!--")
_COMMENT_SPAN = re.compile(r"<!--[\s\S]*?-->")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = Lazy(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")


def agent_for(path: str) -> str:
    """The agent that reads a memory file at `path` by default: Wave under `.wave/`, else Claude Code."""
    import os

    return "wave" if f"{os.sep}{WAVE.home}{os.sep}" in os.sep + path + os.sep else "claude-code"


def counted_text(text: str, reader: Reader) -> str:
    """The text of `MEMORY.md` that `reader` counts against its caps (before trimming): Claude Code's
    without the frontmatter as it splits it (up to the first `---`, cl32c) and block comments."""
    if not reader.strips_index_markup:
        return text
    from mnemolint.agents.claude_code import split_frontmatter

    return strip_block_comments(split_frontmatter(text)[1])


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
    cut, unless `in_line`: the cut falls inside line 1, which counts as loaded); `loaded_lines`
    counts the lines the agent reports as loaded; `quoted` is the dropped line the agent's warning
    quotes ("" for none); `warning` is the agent's own warning text, None when nothing was cut.
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
        "in_line",
        "quoted",
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
        self.in_line = False
        self.quoted = ""
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
    result.loaded, result.remainder, result.in_line = kept, trimmed[len(kept) :], hard_cut
    dropped = result.remainder.split("\n")
    result.loaded_lines = result.lines - len(dropped) + 1 if result.remainder else result.lines
    kept_units = max_chars if hard_cut else utf16_len(kept)  # JavaScript's slice keeps a split pair's half
    if result.reader.strips_index_markup:  # Claude Code quotes the line after the cut, blank or not
        from mnemolint.agents.claude_code import index_warning

        result.quoted = "" if hard_cut else js_trim(dropped[1])
        result.warning = index_warning(
            result.lines,
            result.chars,
            result.over_lines,
            result.over_chars,
            None if hard_cut else result.loaded_lines,
            kept_units,
            result.quoted,
            max_lines,
            max_chars,
        )
    else:
        result.quoted = js_trim(next((line for line in dropped if js_trim(line)), ""))
        result.warning = _wave_warning(result, kept_units, max_lines, max_chars)
    return result


def _wave_warning(result: Load, kept_units: int, max_lines: int, max_chars: int) -> str:
    """Wave's own text, which names the loss in characters (memoryEntrypoint.ts:73-99)."""
    advice = "Keep index entries to one line under ~150 chars; move detail into topic files."
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
        snippet = result.quoted[: utf16_prefix_index(result.quoted, 80)]
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
