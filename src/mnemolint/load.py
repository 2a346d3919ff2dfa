"""What an agent loads of `MEMORY.md`, and the warning it appends when it cuts the index.

The one place that simulates the agents' index loaders, for the commands
that show what an agent gets (`preview`, the post-write hook, the Python API) and for the index
rules that count per reader. Both agents trim the text, keep its first 200 lines, then cut at the
last newline at or before 25,000 UTF-16 units (a hard cut when there is none). What each counts
and the words of its warning are its profile's (`Memory.counted`, `Memory.warning`): Claude Code
first removes the frontmatter and the block-level HTML comments, so an index whose first 60 lines
are a commented-out block is not over its cap there; Wave counts the file as it is.

Pure text in, facts out: nothing here reads a file, imports Markdown or YAML, or prints.
"""

from __future__ import annotations

from mnemolint.agents.base import Cut
from mnemolint.parse.textutil import js_trim, utf16_len, utf16_prefix_index

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.agents.base import Agent, Memory


def counted_text(text: str, reader: Agent) -> str:
    """The text of `MEMORY.md` that `reader` counts against its caps (before trimming): its profile's
    `Memory.counted` (Claude Code's without the frontmatter and block comments), else the text."""
    counted = reader.memory.counted if reader.memory is not None else None
    return text if counted is None else counted(text)


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

    def __init__(self, reader: Agent) -> None:
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


def load(text: str, reader: Agent, max_lines: int = 200, max_chars: int = 25_000) -> Load:
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
    cut = Cut(
        result.lines,
        result.chars,
        (result.over_lines, result.over_chars),
        result.loaded_lines,
        hard_cut,
        kept_units,
        dropped,
        (max_lines, max_chars),
    )
    result.quoted, result.warning = _memory(reader).warning(cut)  # each agent's own words
    return result


def _memory(reader: Agent) -> Memory:
    if reader.memory is None:
        raise ValueError(f"{reader.title} loads no MEMORY.md")
    return reader.memory
