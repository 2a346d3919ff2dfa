"""Wave's own frontmatter reader, as it behaves (W-IDX `utils/frontmatterYaml.ts`).

Wave ships no YAML library: a hand-written reader takes `key: value` lines, block lists, block
scalars and indented plain values, and nothing else. Its values are strings or lists of strings,
never coerced (`priority: 5` is "5"); a flow list `[a, b]` stays that literal string; a plain
value starting on the key's line loses its indented continuation lines; inline `# comments`
stay in the value; one leading and one trailing quote are stripped independently; the last of
duplicate keys wins; a BOM hides the whole block. Rules compare this with the YAML 1.2 truth and
report where the agent falls short of it.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    Value = str | list[str]

# Wave's block split (frontmatterYaml.ts:20-21): `---` lines, CRLF allowed, a closing `---` at the
# very end of the file accepted; no BOM, and an empty block (`---\n---`) does not match.
_BLOCK = re.compile(r"---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n([\s\S]*))?\Z")
_INDICATOR = re.compile(r"([>|])[-+]?\Z")
_QUOTES = re.compile(r"^[\"']|[\"']$")


def block(text: str) -> str | None:
    """The frontmatter block Wave sees (without the `---` lines), or None when it sees none."""
    match = _BLOCK.match(text)
    return match.group(1) if match else None


def split(text: str) -> tuple[dict[str, Value] | None, str]:
    """(fields, body) as Wave reads `text`: fields None when it finds no frontmatter, and the body
    is then the whole text; after a closing `---` at the very end the body is empty."""
    match = _BLOCK.match(text)
    if match is None:
        return None, text
    return parse(match.group(1)), match.group(2) or ""


def read(text: str) -> dict[str, Value] | None:
    """The fields Wave's reader takes from a file's text; None when it finds no frontmatter."""
    found = block(text)
    return None if found is None else parse(found)


def parse(yaml: str) -> dict[str, Value]:
    """Wave's reading of a frontmatter block: every key with its string or list of strings."""
    fields: dict[str, Value] = {}
    lines = [line[:-1] if line.endswith("\r") else line for line in yaml.split("\n")]
    key: str | None = None
    index = 0
    while index < len(lines):
        raw = lines[index]
        index += 1
        trimmed = raw.strip()
        if not trimmed or trimmed.startswith("#"):
            continue
        if trimmed.startswith("-") and key:  # an item of the key above, at any indentation
            item = _unquote(trimmed[1:].strip())
            if item:
                existing = fields.get(key)
                if isinstance(existing, list):
                    existing.append(item)
                else:
                    fields[key] = [item]
            continue
        name, colon, value = trimmed.partition(":")
        name = name.strip()
        if not colon or not name:
            continue
        key = name
        value = value.strip()
        indent = len(raw) - len(raw.lstrip())
        indicator = _INDICATOR.match(value)
        if indicator:
            fields[name], index = _block_scalar(lines, index, indent, indicator.group(1))
        elif value:
            fields[name] = _unquote(value)
        else:
            fields[name], index = _indented(lines, index, indent)
    return fields


def _unquote(value: str) -> str:
    return _QUOTES.sub("", value)


def _block_scalar(lines: list[str], index: int, key_indent: int, indicator: str) -> tuple[str, int]:
    """A `>`/`|` block: lines blank or deeper than the key, folded (`>`) or kept (`|`), then
    trimmed whatever the chomping indicator says."""
    base: int | None = None
    kept: list[str] = []
    while index < len(lines):
        raw = lines[index]
        if not raw.strip():
            if base is not None:
                kept.append("")
            index += 1
            continue
        indent = len(raw) - len(raw.lstrip())
        if indent <= key_indent:
            break
        if base is None:
            base = indent
        if indent < base:
            break
        kept.append(raw[base:])
        index += 1
    while kept and kept[-1] == "":
        kept.pop()
    return (_fold(kept) if indicator == ">" else "\n".join(kept)).strip(), index


def _fold(lines: list[str]) -> str:
    """`>` folding: a single break becomes a space, each blank line one line break."""
    out: list[str] = []
    for position, line in enumerate(lines):
        out.append("\n" if line == "" else line)
        if line and position + 1 < len(lines) and lines[position + 1] != "":
            out.append(" ")
    return "".join(out)


def _indented(lines: list[str], index: int, key_indent: int) -> tuple[Value, int]:
    """A value that starts on the next lines: a block list (only `- ` items count), or plain text
    lines joined with spaces, up to a blank line or a line no deeper than the key."""
    items: list[str] = []
    words: list[str] = []
    while index < len(lines):
        raw = lines[index]
        if not raw.strip() or len(raw) - len(raw.lstrip()) <= key_indent:
            break
        trimmed = raw.strip()
        if trimmed.startswith("- "):
            items.append(_unquote(trimmed[1:].strip()))
        elif items:
            break
        else:
            words.append(trimmed)
        index += 1
    if items:
        return items, index
    return (" ".join(words) if words else []), index
