"""What the CUR, CPL, WSF and CLN rules share: a rule file's fields as its tool reads them, its
body, and the search for its globs that match no file of the project (WAV002's way: one
combined expression per scan of the listing, each written pattern dead only when none of its
readings matches).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mnemolint.kinds.editor_rules import Fields, ToolRulesDir, body_lines, read_fields
from mnemolint.model import Hit
from mnemolint.parse.document import Document
from mnemolint.parse.globs import Glob
from mnemolint.rules.wave import GLOB_MAX_EXPANSIONS, _unmatched

__all__ = ["GLOB_MAX_EXPANSIONS", "body_of", "dead_globs", "fields_of", "empty_body"]


def fields_of(document: Document) -> Fields:
    """The frontmatter of a rule file read line by line, as Cursor, Copilot and Windsurf read it."""
    return read_fields(document.text or "")


def body_of(document: Document) -> str:
    """The text after the frontmatter."""
    return "\n".join(body_lines(document, fields_of(document)))


def empty_body(document: Document, what: str) -> Iterator[Hit]:
    """A finding when nothing but the frontmatter (or blank lines) is in the file: `what` says
    what the tool then gets."""
    if document.readable and not body_of(document).strip():
        yield Hit(f"This file has no text after its frontmatter: {what}. Write the instructions, or delete the file.")


def dead_globs(
    container: ToolRulesDir,
    patterns_of: Callable[[Document], list[tuple[str, int | None]]],
    compile_pattern: Callable[[str, int], list[Glob]],
    options: dict,
) -> Iterator[tuple[Document, str, int | None]]:
    """Each (rule file, written pattern, its line) of `container` whose pattern matches no file
    in any listing the folder's globs may be matched against (`ToolRulesDir.listings`)."""
    limit = int(options["glob-max-expansions"])
    written: dict[tuple[str, str], tuple[Document, str, int | None]] = {}
    readings: dict[tuple[str, str], list[Glob]] = {}
    for document in container.rules:
        if not document.readable:
            continue
        for pattern, line in patterns_of(document):
            key = (document.path, pattern)
            if key not in readings:
                compiled = compile_pattern(pattern, limit)
                if compiled:  # a pattern no reading can match is another rule's finding, or none
                    readings[key] = compiled
                    written[key] = (document, pattern, line)
    if not readings:
        return
    dead = set(readings)
    for files in container.listings():
        pending = [(key, glob) for key, globs in readings.items() if key in dead for glob in globs]
        unmatched = {id(glob) for _, glob in _unmatched(pending, files)}  # type: ignore[arg-type]
        dead -= {key for key, glob in pending if id(glob) not in unmatched}
    for key in sorted(dead, key=lambda key: (key[0], (written[key][2] or 0))):
        yield written[key]


def pattern_lines(document: Document, fields: Fields, key: str, patterns: list[str]) -> list[tuple[str, int | None]]:
    """Each pattern of `key` with the frontmatter line that holds it (the key's own line when it
    is on none of its own)."""
    first = fields.lines.get(key)
    found = []
    for pattern in patterns:
        line = first
        if first is not None:
            for number in range(first, fields.close or first + 1):
                if pattern in document.lines[number - 1]:
                    line = number
                    break
        found.append((pattern, line))
    return found


def short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
