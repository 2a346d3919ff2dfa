"""MEM2xx: topic files, the `.md` files beside `MEMORY.md` (seed 000, capacity 11–12, prompt 1, 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mnemolint.kinds.memory import SKIPPED, TOPIC, TYPES, unindexable
from mnemolint.kinds.rules import RULE_FILE
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.options import INT, RATIO, Option
from mnemolint.parse import frontmatter as fm
from mnemolint.parse.document import Document
from mnemolint.parse.textutil import quote, utf16_len
from mnemolint.rules.base import Family, rule

MAX_BYTES = Option(
    "topic-max-bytes", INT, 4_096, "UTF-8 bytes of a trimmed topic file, frontmatter included (seed 000, capacity 11)"
)
MAX_LINES = Option("topic-max-lines", INT, 200, "lines of a trimmed topic file (seed 000, capacity 11)")
WARN_RATIO = Option("topic-warn-ratio", RATIO, 0.8, "topic occupancy that starts the warning (seed 000, capacity 11)")
DESCRIPTION_MAX = Option(
    "description-max-chars", INT, 300, "longest `description` before it must be compressed (seed 000, capacity 12)"
)
DESCRIPTION_TARGET = Option(
    "description-target-chars", INT, 150, "what a too-long description should be compressed to (seed 000, capacity 12)"
)
_ONE_OF_TYPES = f"{', '.join(TYPES[:-1])} or {TYPES[-1]}"
_ONE_THING = "One file, one thing: summarise instead of appending, and split different things into their own files."


def _measure(document: Document, options: dict) -> tuple[float, str] | None:
    if document.text is None and not document.too_large:
        return None
    size, lines = document.trimmed_size
    max_bytes, max_lines = options["topic-max-bytes"], options["topic-max-lines"]
    ratio = max(size / max_bytes, (lines or 0) / max_lines)
    shown = f"{size:,} of {max_bytes:,} bytes" + (f", {lines:,} of {max_lines} lines" if lines is not None else "")
    return ratio, shown


@rule(
    "MEM201",
    "topic-over-limit",
    ERROR,
    reads=(TOPIC,),
    summary="A topic file is over {topic-max-bytes} bytes or {topic-max-lines} lines.",
    options=(MAX_BYTES, MAX_LINES),
    cacheable=True,
)
def topic_over_limit(document: Document, options: dict) -> Iterator[Hit]:
    measured = _measure(document, options)
    if measured and measured[0] > 1:
        yield Hit(
            f"Topic file is over its cap ({measured[1]}): the part past it is not visible to the agent. "
            f"Rewrite it now. {_ONE_THING}"
        )


@rule(
    "MEM202",
    "topic-near-limit",
    WARNING,
    reads=(TOPIC,),
    summary="A topic file is at {topic-warn-ratio} or more of its {topic-max-bytes}-byte / {topic-max-lines}-line cap.",
    options=(MAX_BYTES, MAX_LINES, WARN_RATIO),
    cacheable=True,
)
def topic_near_limit(document: Document, options: dict) -> Iterator[Hit]:
    measured = _measure(document, options)
    if measured and options["topic-warn-ratio"] <= measured[0] <= 1:
        yield Hit(f"Topic file is at {measured[0]:.0%} of its cap ({measured[1]}). {_ONE_THING}")


def _readable_frontmatter(document: Document) -> fm.FrontMatter | None:
    """The frontmatter when its fields can be judged; broken YAML is FM0xx's to report."""
    if document.text is None:
        return None
    front = document.frontmatter
    return front if front.status in (fm.OK, fm.NONE) else None


@rule(
    "MEM203",
    "topic-missing-description",
    WARNING,
    reads=(TOPIC,),
    summary="A topic file has no frontmatter `description`, so it cannot be indexed.",
    cacheable=True,
)
def topic_missing_description(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None or (front.text("description") or "").strip():
        return
    raw = (front.data or {}).get("description")
    if isinstance(raw, (list, dict)):
        where = f"`description` is a {'list' if isinstance(raw, list) else 'mapping'}, not one line of text"
    elif front.present:
        where = "frontmatter has no `description`"
    else:
        where = "file has no frontmatter"
    yield Hit(
        f"Topic {where}: the description is the only source of its index line and manifest entry, so "
        "the topic cannot be indexed. Add `description: <one-line summary>` to the frontmatter.",
        line=1 if front.present else None,
    )


@rule(
    "MEM204",
    "topic-description-too-long",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's `description` is over {description-max-chars} characters.",
    options=(DESCRIPTION_MAX, DESCRIPTION_TARGET),
    cacheable=True,
)
def topic_description_too_long(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    description = front.text("description") if front else None
    if front is None or description is None:
        return
    length = utf16_len(description.strip())  # a `>`/`|` block keeps a final newline
    if length > options["description-max-chars"]:
        yield Hit(
            f"Description is {length:,} characters (limit: {options['description-max-chars']}): it becomes "
            f"the topic's index line, so compress it to about {options['description-target-chars']}.",
            line=front.key_line("description") or 1,
        )


def _field(front: fm.FrontMatter, key: str) -> tuple[object, bool]:
    """A field's value and whether it sits under `metadata:` (Claude Code reads it there too)."""
    data = front.data or {}
    if key in data:
        return data[key], False
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and key in metadata:
        return metadata[key], True
    return None, False


@rule(
    "MEM205",
    "topic-missing-field",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's frontmatter lacks `name` or `type`.",
    cacheable=True,
)
def topic_missing_field(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None:
        return
    reads_metadata_block = document.reader.reads_metadata_block
    missing, nested = [], []
    for key in ("name", "type"):
        value, under_metadata = _field(front, key)
        if value is None or value == "":
            missing.append(f"`{key}`")
        elif under_metadata and not reads_metadata_block:
            nested.append(f"`{key}`")
    if missing:
        yield Hit(
            f"Topic frontmatter lacks {' and '.join(missing)}: memory files carry name, description and "
            "type, so the agent can title the entry and file it under one of its four memory types.",
            line=1 if front.present else None,
        )
    if nested:
        yield Hit(
            f"{' and '.join(nested)} {'is' if len(nested) == 1 else 'are'} nested under `metadata:`, which "
            "Wave's reader does not look into: move it to the top level of the frontmatter.",
            line=front.key_line("metadata") or 1,
        )


@rule(
    "MEM206",
    "topic-invalid-type",
    WARNING,
    reads=(TOPIC,),
    summary=f"A topic's `type` is not one of {', '.join(TYPES)}.",
    cacheable=True,
)
def topic_invalid_type(document: Document, options: dict) -> Iterator[Hit]:
    front = _readable_frontmatter(document)
    if front is None:
        return
    value, under_metadata = _field(front, "type")
    if value is None or value == "":
        return
    if isinstance(value, str) and value.lower() in TYPES:
        return
    shown = quote(value) if isinstance(value, str) else type(value).__name__
    line = front.key_line("metadata" if under_metadata else "type") or 1
    yield Hit(
        f"`type: {shown}` is not a memory type: the agent files memories under {_ONE_OF_TYPES} only.",
        line=line,
    )


@rule(
    "MEM207",
    "topic-unindexable-name",
    WARNING,
    reads=(TOPIC,),
    summary="A topic's file name cannot be written as an index link, so index generation skips it.",
    cacheable=True,
)
def topic_unindexable_name(document: Document, options: dict) -> Iterator[Hit]:
    problem = unindexable(document.rel)
    if problem:
        yield Hit(SKIPPED.format(problem=problem))


_BLOCK_SCALAR = re.compile(r"^[A-Za-z_][\w-]*:[ \t]*[>|][-+]?[ \t]*$")
_NEEDS_QUOTES = re.compile(r":\s|\s#|^[\s\-?:,\[\]{}#&*!|>'\"%@`]|\s$")


@rule(
    "MEM211",
    "frontmatter-misread",
    WARNING,
    reads=(TOPIC, RULE_FILE),
    summary="A frontmatter field that Wave's own reader takes differently from YAML.",
    cacheable=True,
)
def frontmatter_misread(document: Document, options: dict) -> Iterator[Hit]:
    if not document.reader.own_frontmatter_reader or document.text is None:
        return
    front = document.frontmatter
    if front.status != fm.OK or not isinstance(front.data, dict) or not front.data:
        return
    from mnemolint.parse import wave_frontmatter

    if document.text.startswith("\ufeff"):
        yield Hit(
            "The file starts with a byte-order mark, so Wave's reader finds no frontmatter in it at all "
            f"(YAML readers find {len(front.data)} field{'s' if len(front.data) != 1 else ''}): Wave gets none "
            "of them. Save the file as UTF-8 without a BOM (TXT001's fix).",
            line=1,
        )
        return
    wave = wave_frontmatter.read(document.text)
    if wave is None:
        return
    for key, truth in front.data.items():
        line = front.key_line(key) or 1
        if key == "metadata" and isinstance(truth, dict) and "description" in truth and "description" not in front.data:
            yield Hit(
                f"`metadata:` is one string to Wave's reader (`{quote(str(wave.get(key, '')))}`), so the nested "
                "`description` is lost there: Wave gets no description. Move `description:` to the top level.",
                line=line,
            )
        if key == "paths" or not isinstance(truth, str):
            continue  # rule `paths` are WAV010's; Wave keeps no other type to compare
        got = wave.get(key)
        expected = truth.strip()
        if got == expected:
            continue
        why = _why(got, expected)
        if why == _COMMENT:  # the `#…` may be text YAML drops: both spellings keep what was meant
            advice = (
                f"If the `#…` is part of the text, quote it: {_rewrite(key, str(got), quoted=True)}; if it is "
                "a comment, move it to a line of its own"
            )
        else:
            advice = f"Write it so that every reader gets the same: {_rewrite(key, expected)}"
        yield Hit(
            f"`{key}`: Wave's reader gets {_shown(got)} where YAML gives {_shown(expected)}{why}. {advice}.",
            line=line,
        )
    for key in wave:
        if key not in front.data and not any(isinstance(v, dict) and key in v for v in front.data.values()):
            yield Hit(
                f"`{key}:` is a continuation line of another value in YAML, but Wave's reader ignores "
                f"indentation and takes it as a key of its own (`{key}` = {_shown(wave[key])}). Put the value "
                "on one line.",
                line=front.key_line(key) or _line_of(front, key),
            )
    kind = front.data.get("type")
    if isinstance(kind, str) and kind not in TYPES and kind.lower() in TYPES and wave.get("type") == kind:
        yield Hit(
            f"`type: {quote(kind)}`: Wave matches the type case-sensitively, so this memory has no type there "
            f"(it is filed untyped). Write `type: {kind.lower()}`.",
            line=front.key_line("type") or 1,
        )
    scalars = [text for text in front.yaml_lines if _BLOCK_SCALAR.match(text.rstrip("\r"))]
    if scalars:
        yield Hit(
            f"`{scalars[0].split(':', 1)[0]}` is a block scalar (`{scalars[0].split(':', 1)[1].strip()}`): the "
            "older Wave reader (W-HEAD) takes it as that literal text and loses the value, which the newer one "
            "reads. Write the value on one line if the file must work with older Wave versions.",
            line=_line_of(front, scalars[0].split(":", 1)[0]),
            severity=INFO,
        )


_COMMENT = " (it keeps an inline `# comment` as part of the value)"


def _shown(value: object) -> str:
    if value is None or value == []:
        return "nothing"
    if isinstance(value, list):
        return "the list " + ", ".join(f"`{quote(item)}`" for item in value)
    return f"`{quote(str(value))}`"


def _why(got: object, expected: str) -> str:
    """What in Wave's reader made the difference (READERS.md §1)."""
    if not isinstance(got, str):
        return ""
    if "#" in got and got.startswith(expected.rstrip()):
        return _COMMENT
    if got == re.sub(r"^[\"']|[\"']$", "", expected):
        return " (it strips a quote at either end, even one that does not close)"
    if got and expected.startswith(got) and len(got) < len(expected):
        return " (it drops the continuation lines of a plain value that starts on the key's line)"
    return ""


def _rewrite(key: str, value: str, quoted: bool = False) -> str:
    """A one-line spelling that YAML and Wave read alike; none when no quoting is safe for both."""
    if "\n" in value:
        return "one line per value, or a `|` block (read alike by YAML and the newer Wave)"
    if not quoted and not _NEEDS_QUOTES.search(value) and value[-1:] not in "\"'":
        return f"`{key}: {quote(value)}`"
    if "'" not in value:
        return f"`{key}: '{quote(value)}'`"
    if '"' not in value:
        return f'`{key}: "{quote(value)}"`'
    return "a wording without quotes at either end"


def _line_of(front: fm.FrontMatter, key: str) -> int:
    """The file line of the first frontmatter line that starts `key:` at any indentation."""
    for offset, text in enumerate(front.yaml_lines):
        if text.strip().startswith(f"{key}:"):
            return front.fence_line + 1 + offset
    return front.fence_line or 1


FAMILY = Family(
    "MEM2",
    "topic files",
    "topic",
    (
        topic_over_limit,
        topic_near_limit,
        topic_missing_description,
        topic_description_too_long,
        topic_missing_field,
        topic_invalid_type,
        topic_unindexable_name,
        frontmatter_misread,
    ),
)
