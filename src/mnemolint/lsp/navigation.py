"""Hover, document links and the code lens: what a code means, where an index entry or an `@import`
leads and what the agent loads of it, and what an agent loads of a whole `MEMORY.md`.

Everything here reads the last run's tree (`Session.fresh`), so the index entries, the topics they
resolve to and the imports are the ones the findings were computed on; text quoted from a file is
redacted (`report.printable`), and a link is offered only to a file inside the workspace folder,
never through a dangerous link.
"""

from __future__ import annotations

import os
import posixpath

from lsprotocol import types

from mnemolint.lsp.convert import uri_of
from mnemolint.lsp.positions import Lines, units
from mnemolint.patterns import Lazy
from mnemolint.report import printable

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mnemolint.agents.base import Agent
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.lsp.session import Folder, Session
    from mnemolint.parse.document import Document
    from mnemolint.parse.imports import Import
    from mnemolint.parse.index_lines import IndexLine, Link

PREVIEW = "mnemolint.preview"  # the command: what an agent loads of a MEMORY.md
_CODE = Lazy(r"\b[A-Z]{2,4}[0-9]{3}\b")


def document_at(session: Session, path: str) -> tuple[Folder, Document] | None:
    """The folder and the up-to-date run's document of an open buffer."""
    folder = session.folder_of(path)
    result = session.fresh(folder) if folder is not None else None
    if folder is None or result is None:
        return None
    found = next((document for document in result.tree.documents if document.path == path), None)
    return (folder, found) if found is not None else None


# Hover


def hover(session: Session, path: str, position: types.Position, encoding: str) -> str | None:
    """Markdown for the place `position` of the buffer `path`: the rule of each code there (in a
    finding or written in the text), and where an index link or an `@import` there leads."""
    found = document_at(session, path)
    if found is None:
        return None
    folder, document = found
    lines = Lines(session.buffers[path].text, encoding)
    column = lines.offset(position) - lines.starts[min(position.line, len(lines.lines) - 1)] + 1
    parts = [_rule(code) for code in _codes_at(session, path, lines, position)]
    link = _link_at(document, position.line + 1, column)
    if link is not None:
        parts.append(_entry_hover(folder, *link))
    imported = _import_at(document, position.line + 1, column)
    if imported is not None:
        parts.append(_import_hover(folder, document, imported))
    return "\n\n---\n\n".join(part for part in parts if part) or None


def _codes_at(session: Session, path: str, lines: Lines, position: types.Position) -> list[str]:
    """The codes of the findings covering `position`, then those written at it (a suppression
    comment's), each once."""
    from mnemolint.rules import BY_CODE

    codes = []
    for finding in session.findings.get(path, []):
        span = lines.line_range(finding.line, finding.column, finding.end_line, finding.end_column)
        if span.start.line <= position.line <= span.end.line:
            codes.append(finding.code)
    if position.line < len(lines.lines):
        text = lines.lines[position.line]
        for match in _CODE.finditer(text):
            start, end = units(text[: match.start()], lines.encoding), units(text[: match.end()], lines.encoding)
            if start <= position.character <= end and match.group() in BY_CODE:
                codes.append(match.group())
    return list(dict.fromkeys(codes))


def _rule(code: str) -> str:
    """A rule's summary and its page, as a hover shows them."""
    from mnemolint.catalog import rule_url
    from mnemolint.rules import BY_CODE

    rule = BY_CODE[code]
    note = " (preview rule: runs only with `--preview`)" if rule.preview else ""
    page = f"[{code}: the rule's page]({rule_url(code)})"
    return f"**{code}** `{rule.name}` ({rule.severity}){note}: {rule.summary}\n\n{page}"


def _listing(document: Document) -> tuple[MemoryDir, list[IndexLine], str] | None:
    """The memory dir, classified lines and link base of `document` when it is an index (its
    `MEMORY.md` or a secondary index)."""
    from mnemolint.kinds.memory import MemoryDir

    memdir = document.container
    if not isinstance(memdir, MemoryDir):
        return None
    for listed, lines, base in memdir.listings():
        if listed is document:
            return memdir, lines, base
    return None


def _link_at(document: Document, line: int, column: int) -> tuple[MemoryDir, IndexLine, Link, str] | None:
    listing = _listing(document)
    if listing is None:
        return None
    memdir, lines, base = listing
    for entry in lines:
        if entry.number == line:
            for link in entry.links:
                if link.column <= column < link.end_column:
                    return memdir, entry, link, base
    return None


def _entry_hover(folder: Folder, memdir: MemoryDir, entry: IndexLine, link: Link, base: str) -> str:
    """Where an index link leads, and what each agent reading the index loads of the entry and of
    the topic: whether the line is within the loaded part, and the topic's fields as it reads them."""
    resolved = memdir.resolve(link.target, base)
    target = printable(link.target)
    if resolved is None:
        return f"`{target}`: an anchor in this page, not a topic."
    if resolved.problem is not None:
        return f"`{target}`: {resolved.problem}" + (f" (`{printable(resolved.rel)}`)" if resolved.rel else "") + "."
    lines = [f"`{target}` → `{printable(resolved.rel or '')}` in {printable(_shown(folder, memdir.path))}"]
    if entry in memdir.lines:
        lines.extend(f"- {reader.title} {_loaded(memdir, link, reader)}" for reader in memdir.readers)
    else:
        lines.append("- This is a secondary index: no agent loads it at the start of a session, only when it opens it.")
    topic = memdir.topic_by_rel.get(resolved.rel or "")
    if topic is not None:
        lines.append(_topic_facts(memdir, topic))
    return "\n".join(lines)


def _loaded(memdir: MemoryDir, link: Link, reader: Agent) -> str:
    """Whether `reader` loads the `MEMORY.md` entry of `link`, by `preview`'s answer: the entries
    it drops past its cut."""
    from mnemolint import preview
    from mnemolint.redact import redact

    options = memdir.index.options  # type: ignore[union-attr]
    facts = memdir.derived(f"preview {reader.name}", lambda memdir: preview.memory(memdir, reader, options))
    loaded, total = facts["loaded"], facts["total"]
    if facts["warning"] is None:
        return "loads this entry (nothing of the index is cut)."
    title, target = redact(link.title), redact(link.target)
    if any(dropped["title"] == title and dropped["target"] == target for dropped in facts["dropped"]):
        return f"never sees this entry: it lies past the cut ({loaded['lines']:,} of {total['lines']:,} lines loaded)."
    return f"loads this entry (the index is cut after {loaded['lines']:,} of {total['lines']:,} lines, below it)."


def _topic_facts(memdir: MemoryDir, topic: Document) -> str:
    """The topic's size and the fields the agent seeds its memory scan with (the manifest's line)."""
    from mnemolint.commands.manifest import entries

    size, lines = topic.trimmed_size
    line_count = f", {lines:,} lines" if lines is not None else ""
    manifest = next((entry for entry in entries(memdir, topic.options) if entry.rel == topic.rel), None)
    said = f"\n\nIts line in the memory manifest:\n\n    {printable(manifest.line())}" if manifest else ""
    return f"\nThe topic: {size:,} bytes{line_count}; the agent reads it whole when it follows the link.{said}"


def _import_at(document: Document, line: int, column: int) -> Import | None:
    from mnemolint.parse.imports import imports

    if document.kind is None or not document.kind.instructions or document.text is None:
        return None
    for found in imports(document.text, os.path.dirname(document.path)):
        if found.line == line and found.column <= column <= found.column + len(found.written):
            return found
    return None


def _import_hover(folder: Folder, document: Document, found: Import) -> str:
    """Where an `@import` leads and whether Claude Code loads it, as its loader follows imports
    from this file (depth first, each file once, nothing outside the folder read)."""
    from mnemolint.parse.imports import IMPORTED, expand

    written = printable(found.written)
    if found.where != IMPORTED:
        return f"`@{written}` is {found.where}: Claude Code does not import it."
    if found.path is None:
        return f"`@{written}` names a file in the home folder: it depends on whose session reads it."
    target = found.path
    shown = printable(_shown(folder, target))
    expansion = expand(document, folder.root)
    depth = dict(expansion.loaded).get(target)
    if depth is not None:
        text = expansion.texts.get(target, "")
        lines = text.count("\n") + 1 if text else 0
        brought = [path for path, level in expansion.loaded if level > depth]
        more = f"; with it, files it imports ({len(brought):,} in all below this file)" if brought else ""
        return (
            f"`@{written}` → `{shown}`: Claude Code loads it whole ({len(text):,} characters, {lines:,} lines) "
            f"at import depth {depth}{more}."
        )
    for field, why in (
        ("missing", "no such file: nothing is loaded"),
        ("outside", "outside the folder: mnemolint does not read it"),
        ("sensitive", "a credential or system file: never read"),
        ("cycles", "it leads back to a file of its own chain: not loaded again"),
    ):
        if any(edge.target.path == target for edge in getattr(expansion, field)):
            return f"`@{written}` → `{shown}`: {why}."
    if any(edge.target.path == target for edge, _ in expansion.too_deep):
        return f"`@{written}` → `{shown}`: past Claude Code's import depth limit: never loaded."
    return f"`@{written}` → `{shown}`: already loaded earlier in the chain, or not a text file."


def _shown(folder: Folder, path: str) -> str:
    return os.path.relpath(path, folder.root).replace(os.sep, "/")


# Document links


def links(session: Session, path: str, encoding: str) -> list[types.DocumentLink]:
    """A link for each index entry and each `@import` that leads to a file in the folder."""
    found = document_at(session, path)
    if found is None:
        return []
    folder, document = found
    lines = Lines(session.buffers[path].text, encoding)
    uris: dict[str, str | None] = {}  # each target judged once, however many links name it
    made = []
    for line, start, end, target, tooltip in _targets(folder, document):
        if target not in uris:
            uris[target] = uri_of(target) if folder.owns(target) and os.path.isfile(target) else None
        if uris[target] is not None:
            span = types.Range(lines.position(line, start), lines.position(line, end))
            made.append(types.DocumentLink(range=span, target=uris[target], tooltip=tooltip))
    return made


def _targets(folder: Folder, document: Document) -> Iterator[tuple[int, int, int, str, str]]:
    """(line, first column, end column, file, tooltip) of each index link and `@import`."""
    listing = _listing(document)
    if listing is not None:
        memdir, lines, base = listing
        for entry in lines:
            for link in entry.links:
                resolved = memdir.resolve(link.target, base)
                if resolved is not None and resolved.problem is None and resolved.rel:
                    target = os.path.join(memdir.path, *posixpath.normpath(resolved.rel).split("/"))
                    yield entry.number, link.column, link.end_column, target, "the topic"
    if document.kind is not None and document.kind.instructions and document.text is not None:
        from mnemolint.parse.imports import IMPORTED, imports

        for found in imports(document.text, os.path.dirname(document.path)):
            if found.where == IMPORTED and found.path is not None:
                end = found.column + len(found.written) + 1
                yield found.line, found.column, end, found.path, "imported by Claude Code"


# Code lens and the preview command


def lenses(session: Session, path: str) -> list[types.CodeLens]:
    """On a `MEMORY.md`: one lens per agent that reads it, running the preview command."""
    from mnemolint.kinds.memory import INDEX

    found = document_at(session, path)
    if found is None or found[1].kind is not INDEX:
        return []
    memdir = found[1].container
    start = types.Position(0, 0)
    return [
        types.CodeLens(
            range=types.Range(start, start),
            command=types.Command(
                title=f"mnemolint: what does {reader.title} load?",
                command=PREVIEW,
                arguments=[uri_of(path), reader.name],
            ),
        )
        for reader in memdir.readers  # type: ignore[union-attr]
    ]


def preview(session: Session, path: str, agent: str | None) -> dict:
    """`mnemolint preview`'s answer for the index `path` (an open buffer, read as the editor holds
    it): its facts and the text the command prints, redacted."""
    from mnemolint import preview
    from mnemolint.agents import memory_readers
    from mnemolint.errors import ConfigError
    from mnemolint.kinds.memory import INDEX

    found = document_at(session, path)
    if found is None or found[1].kind is not INDEX:
        raise ConfigError("the preview command takes an open MEMORY.md of a workspace folder")
    folder, document = found
    memdir = document.container
    names = [reader.name for reader in memory_readers()]
    if agent is not None and agent not in names:
        raise ConfigError(f"agent must be one of {', '.join(names)}, not {agent!r}")
    reader = preview.reader_of(memdir, agent)  # type: ignore[arg-type]
    facts = preview.memory(memdir, reader, document.options)  # type: ignore[arg-type]
    facts["index"] = _shown(folder, facts["index"])
    return {"agent": reader.name, "facts": facts, "text": preview.describe_memory(facts, reader)}
