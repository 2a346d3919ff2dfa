"""Wave's hand-written frontmatter reader (W-IDX `utils/frontmatterYaml.ts`, READERS.md §1): what
Wave really gets from a memory file, which is not what YAML says.

Strings and lists of strings only, nothing coerced (`priority: 5` is `"5"`); a flow list `[a, b]`
stays one string; a value that starts on the key's line loses its continuation lines (one holding
`: ` becomes a key of its own, since indentation is ignored); a value that starts on the next
line is joined with spaces, or read as a list when it is `- ` items; `>` and `|` blocks are folded
or kept and then trimmed; quotes are stripped at either end independently; inline `# comments`
stay; a BOM before the fence hides the whole block; the last of two equal keys wins.

Pure text in, a dict and the body out, in linear time.
"""

from __future__ import annotations

import re

_BLOCK = re.compile(r"---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n([\s\S]*))?\Z")
_QUOTES = re.compile(r"""^["']|["']$""")
_SCALARS = (">", ">-", ">+", "|", "|-", "|+")


def split(text: str) -> tuple[dict[str, str | list[str]] | None, str]:
    """(fields, body) as Wave reads `text`; fields None when Wave finds no frontmatter block."""
    match = _BLOCK.match(text)
    if match is None:
        return None, text
    return read_block(match.group(1)), match.group(2) or ""


def strip_quotes(value: str) -> str:
    """`value.replace(/^["']|["']$/g, "")`: one quote off each end, balanced or not."""
    return _QUOTES.sub("", value)


def read_block(block: str) -> dict[str, str | list[str]]:
    """The fields of the text between the fences."""
    lines = [line.removesuffix("\r") for line in block.split("\n")]
    data: dict[str, str | list[str]] = {}
    key: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("-") and key is not None:  # an item at the key's own indent
            current = data.get(key)
            items = current if isinstance(current, list) else []
            items.append(strip_quotes(stripped[1:].strip()))
            data[key] = items
            continue
        colon = line.find(":")
        if colon < 0:
            continue  # a continuation without a colon is dropped
        key, value = line[:colon].strip(), line[colon + 1 :].strip()
        indent = len(line) - len(line.lstrip())
        if value in _SCALARS:
            taken, index = _more_indented(lines, index, indent, blank_ends=False)
            data[key] = _block_scalar(taken, folded=value.startswith(">"))
        elif not value:
            taken, index = _more_indented(lines, index, indent, blank_ends=True)
            data[key] = _indented_value([each.strip() for each in taken])
        else:
            data[key] = strip_quotes(value)
    return data


def _more_indented(lines: list[str], index: int, indent: int, *, blank_ends: bool) -> tuple[list[str], int]:
    """The lines from `index` indented deeper than `indent` (blank ones too, unless they end it)."""
    taken: list[str] = []
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            if blank_ends:
                break
        elif len(line) - len(line.lstrip()) <= indent:
            break
        taken.append(line)
        index += 1
    return taken, index


def _indented_value(lines: list[str]) -> str | list[str]:
    """`readIndentedValue`: `- ` items make a list, anything else one space-joined string; none, `[]`."""
    if not lines:
        return []
    if lines[0].startswith("- "):
        return [strip_quotes(line[2:].strip()) for line in lines if line.startswith("- ")]
    return " ".join(lines)


def _block_scalar(lines: list[str], *, folded: bool) -> str:
    """A `>` block folded (a line break is a space, each blank line one newline) or a `|` block kept,
    de-indented by its first line, then trimmed: chomping indicators change nothing."""
    content = [line for line in lines if line.strip()]
    margin = len(content[0]) - len(content[0].lstrip()) if content else 0
    texts = [line[margin:] if line.strip() else "" for line in lines]
    if not folded:
        return "\n".join(texts).strip()
    parts: list[str] = []
    for text in texts:
        if not text:
            parts.append("\n")
        elif parts and parts[-1] != "\n":
            parts.append(" " + text)
        else:
            parts.append(text)
    return "".join(parts).strip()
