"""`check --add-noqa`: a suppression comment for each finding there is (ruff's `--add-noqa`), so a
large memory can adopt mnemolint and fail only on what is written next.

A finding on a line of text gets `<!-- mnemolint-disable-line CODE -->` at the end of that line,
the codes of one line in one comment (added to the `disable-line` comment the line already has). A
finding about the whole file, or on a line where a comment would change what the file says (the
frontmatter, code, raw HTML, a blank line), gets `<!-- mnemolint-disable-file CODE -->`, on a line
of its own after the frontmatter. `plan` makes these edits as the fixer's `_plan` makes the
findings' fixes, so `fixer.fix` applies them in rounds (a comment that makes a line too long is a
finding the next round silences too) and writes each file once, through `writer`. A finding in a
file of a kind without suppression comments, or one that is not readable text, stays a finding;
SUP001's are left to its own fix.
"""

from __future__ import annotations

from mnemolint.model import Diagnostic, Edit
from mnemolint.parse import suppress
from mnemolint.parse.document import BOM, Document
from mnemolint.parse.frontmatter import NONE
from mnemolint.parse.textutil import dominant_eol

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.engine import Result
    from mnemolint.fix.fixer import Fixes

_NOT_ADDED = ("SUP",)  # an unused suppression is removed by its fix, never silenced


def plan(result: Result, unsafe: bool = False) -> tuple[dict[str, tuple[str | None, Fixes]], list[tuple]]:
    """The comments to add, by file, in the fixer's form (`fixer.Planner`); none is ever unavailable."""
    documents = {document.path: document for document in result.tree.documents}
    wanted: dict[str, dict[int | None, list[Diagnostic]]] = {}  # path → line (None: the file) → findings
    plain: dict[str, set[int]] = {}  # path → the lines a trailing comment may go on
    for diagnostic in result.diagnostics:
        document = documents.get(diagnostic.path)
        if document is None or diagnostic.code.startswith(_NOT_ADDED) or not _takes_comments(document):
            continue
        if document.path not in plain:
            plain[document.path] = _plain_lines(document)
        line = diagnostic.line if diagnostic.line in plain[document.path] else None
        wanted.setdefault(document.path, {}).setdefault(line, []).append(diagnostic)
    targets: dict[str, tuple[str | None, Fixes]] = {}
    for path, by_line in wanted.items():
        document = documents[path]
        comments = _comments(document)
        fixes: Fixes = []
        for line, found in by_line.items():
            codes = list(dict.fromkeys(diagnostic.code for diagnostic in found))
            edits = (_edit(document, line, codes, comments.get(line)),)
            fixes += [(diagnostic, edits) for diagnostic in found]
        targets[path] = (document.text, fixes)
    return targets, []


def _takes_comments(document: Document) -> bool:
    return (
        document.kind is not None
        and document.kind.suppressions
        and document.text is not None
        and not document.decode_error
    )


def _plain_lines(document: Document) -> set[int]:
    """The lines of Markdown text a trailing comment changes nothing on: not blank, not in the
    frontmatter, code or raw HTML (a text too large to parse has none)."""
    from mnemolint.parse import markdown

    code = markdown.code_lines(document.text or "")
    if code is None:
        return set()
    front = document.frontmatter if document.kind is not None and document.kind.frontmatter else None
    if front is not None and front.status != NONE:
        last = front.close_line or len(document.lines)
        code.update(range(front.fence_line or 1, last + 1))
    return {number for number, text in enumerate(document.lines, start=1) if text.strip() and number not in code}


def _comments(document: Document) -> dict[int | None, tuple[int, int, int]]:
    """(line, start, end) of the first comment naming codes that codes can be added to: by line
    for `disable-line`, None for `disable-file` (the first of the file)."""
    found: dict[int | None, tuple[int, int, int]] = {}
    marks = document.suppressions
    for line, start, end, action, selectors in marks.comments if marks is not None else ():
        if selectors != (suppress.ALL,) and action in (suppress.DISABLE_LINE, suppress.DISABLE_FILE):
            found.setdefault(line if action == suppress.DISABLE_LINE else None, (line, start, end))
    return found


def _edit(document: Document, line: int | None, codes: list[str], existing: tuple[int, int, int] | None) -> Edit:
    """The insertion that silences `codes` at `line` (None: the whole file): into `existing`, the
    comment of that kind already there, else a new one."""
    action = suppress.DISABLE_FILE if line is None else suppress.DISABLE_LINE
    if existing is not None:
        where, start, end = existing
        text = document.lines[where - 1][start:end]
        at = document.line_offset(where) + start + suppress.codes_in(text)[-1][1]
        return Edit(at, at, "," + ",".join(codes))
    comment = f"<!-- mnemolint-{action} {','.join(codes)} -->"
    if line is not None:
        text = document.lines[line - 1].rstrip("\r")
        at = document.line_offset(line) + len(text)
        return Edit(at, at, comment if text[-1:].isspace() else " " + comment)
    return _file_comment(document, comment)


def _file_comment(document: Document, comment: str) -> Edit:
    """A `disable-file` comment on a line of its own: after a closed frontmatter, at the end of a
    file whose frontmatter never closes (before it, the fence would no longer open the file), else
    first (after a byte-order mark)."""
    eol = dominant_eol(document.lines)
    text = document.text or ""
    front = document.frontmatter if document.kind is not None and document.kind.frontmatter else None
    if front is None or front.status == NONE:
        at = 1 if text.startswith(BOM) else 0
        return Edit(at, at, comment + eol)
    if front.close_line and front.close_line < len(document.lines):
        at = document.line_offset(front.close_line + 1)
        return Edit(at, at, comment + eol)
    ended = text.endswith("\n")
    return Edit(len(text), len(text), comment + eol if ended else eol + comment)
