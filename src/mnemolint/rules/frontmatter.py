"""FM0xx: frontmatter of every memory file, read as YAML 1.2 like the agents' JavaScript loaders."""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.kinds.registry import TAKING_FRONTMATTER, WITH_FRONTMATTER
from mnemolint.model import ERROR, SAFE, UNSAFE, WARNING, Edit, Fix, Hit
from mnemolint.options import YAML_MAX_DEPTH
from mnemolint.parse import frontmatter as fm
from mnemolint.parse.document import Document
from mnemolint.rules.base import Family, rule


def _lost(document: Document) -> str:
    """What an unreadable frontmatter costs the agent, as its kind says (a topic's fields, say)."""
    assert document.kind is not None, "rules reading WITH_FRONTMATTER get documents of a kind"
    return document.kind.unread_frontmatter


# The most common real-world error, with the fix spelled out.
_HINTS = {
    "mapping values are not allowed in this context": "a plain value cannot contain `: `, so quote the value",
    "while scanning an alias": "an unquoted value starting with `*` is a YAML alias, so quote the value",
}


@rule(
    "FM001",
    "invalid-yaml",
    ERROR,
    reads=WITH_FRONTMATTER,
    summary="The frontmatter is not valid YAML.",
    fix=SAFE,
    cacheable=True,
)
def invalid_yaml(document: Document, options: dict) -> Iterator[Hit]:
    front = document.frontmatter
    if not (front.status == fm.INVALID or front.retried):
        return
    hint = next((f" ({text})" for problem, text in _HINTS.items() if problem in front.error), "")
    line, column = front.error_line or front.fence_line, front.error_column
    error = f"{_quoted_error(front.error)}{hint}"
    if front.status == fm.INVALID:
        gets = _own_reading(document)
        yield Hit(
            f"Invalid YAML in frontmatter: {error}; {_lost(document)}, Claude Code's second try (values "
            f"quoted) failing too.{gets}",
            severity=WARNING if gets else None,
            line=line,
            column=column,
        )
        return
    quoted = _quoted(document)
    if not quoted:  # read as it is, a key given twice taking its last value
        yield Hit(
            f"Invalid YAML in frontmatter: {error}. {_second_try(document, twice=True)}; strict YAML 1.2 readers "
            "get nothing from it. Keep one of the two.",
            severity=WARNING,
            line=line,
            column=column,
        )
        return
    keys = ", ".join(f"`{key}`" for key, _ in quoted)
    commented = [(key, value) for key, value in quoted if _COMMENT in value or "\t#" in value]
    from mnemolint.redact import redact

    caveat = "".join(f' It reads `{key}` as "{redact(value)}", the comment with it.' for key, value in commented)
    tail = "" if document.kind is None or document.kind.frontmatter_fields else f" ({_lost(document)})"
    yield Hit(
        f"Invalid YAML in frontmatter: {error}. {_second_try(document)} {keys}, which other YAML readers "
        f"do not do: they get nothing from it.{caveat}{tail} Quote the value as written.",
        severity=WARNING,
        fix=_quote_fix(document, bool(commented)),
        line=line,
        column=column,
    )


_COMMENT = " #"


def _second_try(document: Document, twice: bool = False) -> str:
    """How the file's reader still reads a block strict YAML refuses."""
    from mnemolint.agents import WAVE
    from mnemolint.agents.claude_code import VERSION

    if twice:
        reader = "Wave's line reader" if document.reader is WAVE else f"Claude Code {VERSION}"
        return f"{reader} takes the last value of a key given twice"
    if document.reader is WAVE:
        return "Wave reads the block with its own line reader, and Claude Code would read it once it has quoted"
    return f"Claude Code {VERSION} reads it on its second try, once it has quoted"


def _own_reading(document: Document) -> str:
    """What the file's reader takes from a block no YAML reading accepts, when that is not nothing."""
    from mnemolint.agents import WAVE

    if document.reader is not WAVE or document.text is None:
        return ""
    from mnemolint.parse import wave_frontmatter

    fields = wave_frontmatter.read(document.text) or {}
    return f" Wave's own line reader still takes {', '.join(f'`{key}`' for key in fields)}." if fields else ""


def _quoted(document: Document) -> list[tuple[str, str]]:
    """(key, value) of each line Claude Code's second try quotes, the value as that try reads it."""
    from mnemolint.agents.claude_code import requoted_lines
    from mnemolint.parse.textutil import js_lstrip_count

    lines = document.frontmatter.yaml_lines
    found = []
    for index, new in requoted_lines(lines, document.options["yaml-max-depth"]):
        key, colon, rest = lines[index].partition(":")
        if colon and new.startswith(f"{key}: "):  # a quoted value, not a line whose tabs were replaced
            found.append((key, rest[js_lstrip_count(rest) :]))
    return found


def _quote_fix(document: Document, unsafe: bool) -> Fix | None:
    """The lines rewritten as Claude Code's second try rewrites them, so that every YAML reader
    reads what it reads: safe unless a value holds an inline comment the quotes take in."""
    from mnemolint.agents.claude_code import requoted_lines

    front = document.frontmatter
    edits = []
    for index, line in requoted_lines(front.yaml_lines, document.options["yaml-max-depth"]):
        number = front.fence_line + 1 + index
        start = document.line_offset(number)
        edits.append(Edit(start, start + len(front.yaml_lines[index]), line))
    if not edits:
        return None
    return Fix(UNSAFE if unsafe else SAFE, "Quote the values as Claude Code's second try quotes them", tuple(edits))


_DUPLICATE = 'found duplicate key "'


def _quoted_error(error: str) -> str:
    """The parser's message with the values it quotes redacted: a duplicate key's two values are
    masked whole when the key names a credential (`password`), as neither is credential-shaped alone."""
    from mnemolint.redact import redact, redact_pair

    if not (error.startswith(_DUPLICATE) and error.endswith('")')):
        return redact(error)
    rest, found_original, original = error[len(_DUPLICATE) : -2].rpartition('" (original value: "')
    key, found_value, value = rest.partition('" with value "')
    if not (found_original and found_value):  # not the message this expects
        return redact(error)
    value, original = redact_pair(key, value), redact_pair(key, original)
    return f'{_DUPLICATE}{redact(key)}" with value "{value}" (original value: "{original}")'


_KINDS = {"list": "a list", "str": "a plain string", "int": "a number", "float": "a number", "bool": "a boolean"}


@rule(
    "FM002",
    "not-a-mapping",
    ERROR,
    reads=WITH_FRONTMATTER,
    summary="The frontmatter is valid YAML but not a mapping of keys to values.",
    cacheable=True,
)
def not_a_mapping(document: Document, options: dict) -> Iterator[Hit]:
    front = document.frontmatter
    if front.status == fm.NOT_MAPPING:
        kind = _KINDS.get(front.error, f"a {front.error}")
        yield Hit(
            f"Frontmatter is {kind}, not a mapping of keys such as `description:`; {_lost(document)}.",
            line=front.fence_line + 1,
        )


@rule(
    "FM003",
    "unclosed-frontmatter",
    ERROR,
    reads=TAKING_FRONTMATTER,  # in MEMORY.md a lone `---` on line 1 is a thematic break
    summary="A `---` frontmatter fence on line 1 is never closed.",
    cacheable=True,
)
def unclosed_frontmatter(document: Document, options: dict) -> Iterator[Hit]:
    if document.frontmatter.status == fm.UNCLOSED:
        yield Hit(
            "Frontmatter opened with `---` on line 1 is never closed by a second `---` line: readers "
            "either drop it or swallow the body up to the next `---`. Close it after the last key.",
            line=1,
            column=1,
        )


_WHY = {
    "bool": "YAML 1.1 readers take it as a boolean, YAML 1.2 readers (the agents) as the string",
    "int": "YAML 1.1 and YAML 1.2 readers parse this number differently (octal, base-60 or `_` digits)",
    "float": "YAML 1.1 readers keep it as text, YAML 1.2 readers (the agents) make it a number",
    "date": "some readers (YAML 1.1, js-yaml) turn it into a date object, YAML 1.2 core readers keep the text",
}


@rule(
    "FM004",
    "yaml-ambiguous-scalar",
    WARNING,
    reads=WITH_FRONTMATTER,
    summary="An unquoted value that YAML 1.1 and YAML 1.2 readers take differently, in a field an agent acts on.",
    cacheable=True,
)
def yaml_ambiguous_scalar(document: Document, options: dict) -> Iterator[Hit]:
    keys = document.kind.keys if document.kind is not None else ()
    for item in document.frontmatter.ambiguous:
        if item.key not in keys:
            continue  # a value no agent or rule reads: its type changes nothing the agent does
        yield Hit(
            f'Unquoted `{item.value}`: {_WHY[item.kind]}. Quote it ("{item.value}") so every reader agrees.',
            line=item.line,
            column=item.column,
            end_line=item.line,
            end_column=item.column + len(item.value),
        )


@rule(
    "FM005",
    "yaml-too-complex",
    ERROR,
    reads=WITH_FRONTMATTER,
    summary="Frontmatter with anchors, aliases or absurd nesting, refused rather than expanded.",
    options=(YAML_MAX_DEPTH,),
    cacheable=True,
)
def yaml_too_complex(document: Document, options: dict) -> Iterator[Hit]:
    front = document.frontmatter
    if front.status == fm.TOO_COMPLEX:
        yield Hit(
            f"Frontmatter refused: {front.error}. Memory frontmatter is a few flat keys; anchors and deep "
            "nesting can expand without bound (an alias bomb), so they were not read.",
            line=front.error_line or front.fence_line,
            column=front.error_column,
        )


FAMILY = Family(
    "FM",
    "frontmatter",
    "frontmatter",
    (invalid_yaml, not_a_mapping, unclosed_frontmatter, yaml_ambiguous_scalar, yaml_too_complex),
    cites=("Wave", "Claude Code"),
)
