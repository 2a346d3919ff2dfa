"""Code actions: each finding's fix (a quick fix when it is safe, marked when it is not), every
safe fix of a file at once, and a suppression comment for a finding's line.

mnemolint writes nothing here: the editor applies the edit. What lands is still judged as the
fixer judges it — a fix that would write credential-shaped text the file does not hold is not
offered (`fixer.writes_secret`), and neither is an edit of a file the writer would refuse to
replace (`writer.preflight`: a link, outside the folder, a file it never replaces).
"""

from __future__ import annotations

import os

from lsprotocol import types

from mnemolint.lsp.convert import uri_of
from mnemolint.lsp.positions import Lines
from mnemolint.model import SAFE, Diagnostic

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.lsp.session import Folder, Session
    from mnemolint.parse.document import Document

FIX_ALL = types.CodeActionKind.SourceFixAll + ".mnemolint"  # what `editor.codeActionsOnSave` asks for
FIX_ALL_TITLE = "mnemolint: fix all safe fixes in this file"


def fix_action(session: Session, folder: Folder, finding: Diagnostic, encoding: str) -> types.CodeAction | None:
    """The finding's own fix as an action, or None when it cannot be made here and now."""
    from mnemolint.fix.fixer import writes_secret

    fix = finding.fix
    if fix is None or folder.settings is None:
        return None
    target = fix.path or finding.path
    edits = fix.compute()
    if isinstance(edits, str) or not edits or not _writable(folder, target):
        return None
    exists = os.path.lexists(target)
    text = session.text_of(target, folder.settings.options) if exists else ""
    if text is None or writes_secret(edits, text):
        return None
    lines = Lines(text, encoding)
    changes: list = []
    if not exists:
        changes.append(types.CreateFile(uri=uri_of(target)))
    edited = [types.TextEdit(range=lines.span(edit.start, edit.end), new_text=edit.content) for edit in edits]
    changes.append(_edit_of(session, target, edited))
    safe = fix.applicability == SAFE
    title = (
        f"mnemolint: {fix.message} ({finding.code})"
        if safe
        else f"mnemolint: {fix.message} ({finding.code}, unsafe fix: review it)"
    )
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        is_preferred=safe,
        edit=types.WorkspaceEdit(document_changes=changes),
    )


def fix_all_edit(session: Session, folder: Folder, path: str, encoding: str) -> types.WorkspaceEdit | None:
    """Every safe fix of the findings on `path`, as the fixer would make them (in rounds, on the
    text being edited), as one edit per changed file; None when nothing changes."""
    from mnemolint.fix.fixer import fix

    if folder.settings is None:
        return None
    folder.enter()
    outcome = fix([path], folder.settings, unsafe=False, write=False)
    changes: list = []
    for changed, (before, after) in sorted(outcome.changes.items()):
        if not _writable(folder, changed):
            continue
        if before is None:
            changes.append(types.CreateFile(uri=uri_of(changed)))
        whole = Lines(before or "", encoding).whole()
        changes.append(_edit_of(session, changed, [types.TextEdit(range=whole, new_text=after)]))
    return types.WorkspaceEdit(document_changes=changes) if changes else None


def suppression_action(session: Session, finding: Diagnostic, encoding: str) -> types.CodeAction | None:
    """A `<!-- mnemolint-disable-next-line CODE -->` above the finding's line; for a whole-file
    finding, or one in the frontmatter (where a comment would break the YAML), a
    `<!-- mnemolint-disable-file CODE -->` after the frontmatter. Only kinds that read suppression
    comments get one."""
    buffer = session.buffers.get(finding.path)
    document = _document(session, finding.path)
    if buffer is None or document is None or document.kind is None or not document.kind.suppressions:
        return None
    lines = Lines(buffer.text, encoding)
    close = document.frontmatter.close_line if document.frontmatter.present else 0
    if finding.line is None or finding.line <= close:
        at_line, comment, scope = close + 1, f"<!-- mnemolint-disable-file {finding.code} -->", "in this file"
    else:
        at_line, comment, scope = finding.line, f"<!-- mnemolint-disable-next-line {finding.code} -->", "on this line"
    start = lines.position(at_line) if at_line <= len(lines.lines) else lines.at_offset(len(buffer.text))
    ending = "\r\n" if lines.lines[0].endswith("\r") else "\n"
    text = comment + ending if at_line <= len(lines.lines) else ending + comment + ending
    edit = types.TextEdit(range=types.Range(start, start), new_text=text)
    return types.CodeAction(
        title=f"mnemolint: suppress {finding.code} {scope}",
        kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(document_changes=[_edit_of(session, finding.path, [edit])]),
    )


def _edit_of(session: Session, path: str, edits: list[types.TextEdit]) -> types.TextDocumentEdit:
    """Edits of one file, pinned to the buffer's version when it is open (the editor refuses them
    once the text has moved on)."""
    buffer = session.buffers.get(path)
    version = buffer.version if buffer is not None else None
    return types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri_of(path), version=version),
        edits=edits,
    )


def _writable(folder: Folder, path: str) -> bool:
    """Whether mnemolint's writer would write `path` in this folder (`writer.preflight`)."""
    from mnemolint.fix import writer

    if not folder.owns(path):
        return False
    try:
        writer.preflight(path, folder.root)
    except writer.NotWritten:
        return False
    return True


def _document(session: Session, path: str) -> Document | None:
    """The last run's document of `path`, for its kind and frontmatter."""
    folder = session.folder_of(path)
    result = folder.result if folder is not None else None
    if result is None:
        return None
    return next((document for document in result.tree.documents if document.path == path), None)
