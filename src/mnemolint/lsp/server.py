"""`mnemolint server`: the language server on stdio, on pygls and lsprotocol (the `[server]` extra).

Diagnostics are published for every open buffer of a workspace folder when one is opened, saved
or closed, and on a change: at once when the folder was quiet (no lint in the last `DEBOUNCE`
seconds: a keystroke is answered in the time of its lint), else `DEBOUNCE` seconds after the last
change of a burst (a paste, fast typing while a lint ran), so a burst costs two lints; files created or
deleted outside the editor (the client's file watcher) and a changed configuration file lint the
open buffers again. The handlers run on the server's one event loop, one at a time, so the
overlay of buffer texts (`parse.document.overlay`) is never changed under a run.

stdout is the protocol's channel: the server takes it for itself and points `sys.stdout` at
stderr, so nothing mnemolint prints can corrupt a message.
"""

from __future__ import annotations

import asyncio
import os
import sys
from enum import Enum

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from mnemolint import __version__
from mnemolint.errors import ConfigError
from mnemolint.lsp import actions, navigation
from mnemolint.lsp.convert import diagnostic, path_of, uri_of
from mnemolint.lsp.positions import UTF8, UTF16, UTF32, Lines
from mnemolint.lsp.session import Folder, Session
from mnemolint.model import SAFE

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

    from mnemolint.config import Settings

DEBOUNCE = 0.03  # seconds of quiet after a change before the buffers are linted again
CONFIG_FILES = (".mnemolint.toml", "mnemolint.toml", "pyproject.toml")
WATCHED = ("**/*.md", "**/.gitignore", "**/*.jsonl", *(f"**/{name}" for name in CONFIG_FILES))


class MnemolintServer(LanguageServer):
    """The pygls server with mnemolint's session and the pending debounced lints."""

    def __init__(self, make_settings: Callable[[str], Settings]) -> None:
        super().__init__("mnemolint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = Session(make_settings)
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.linted: dict[str, float] = {}  # folder root → when (event loop time) its last lint ended

    @property
    def encoding(self) -> str:
        """The position unit the client and the server agreed on (UTF-16 unless it offered another)."""
        chosen = self.workspace.position_encoding
        value = chosen.value if isinstance(chosen, types.PositionEncodingKind) else chosen
        return value if value in (UTF8, UTF32) else UTF16

    def publish(self, folder: Folder) -> None:
        """Lint the open buffers of `folder` and publish each one's findings."""
        self.pending.pop(folder.root, None)
        try:
            found = self.session.lint(folder)
        except (ConfigError, OSError) as error:  # a path the configuration refuses; a folder gone
            self.tell(f"mnemolint: {error}")
            return
        finally:
            self.linted[folder.root] = asyncio.get_running_loop().time()
        if folder.error and not folder.told:
            folder.told = True  # once per reading of the configuration, not on every keystroke
            self.tell(f"mnemolint: {folder.error}")
        for path, findings in found.items():
            buffer = self.session.buffers[path]
            lines = Lines(buffer.text, self.encoding)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri_of(path), version=buffer.version, diagnostics=[diagnostic(each, lines) for each in findings]
                )
            )

    def later(self, folder: Folder, delay: float = DEBOUNCE) -> None:
        """Publish for `folder` now if it was quiet for `delay` seconds, else after `delay`
        seconds unless another change comes first."""
        loop = asyncio.get_running_loop()
        waiting = self.pending.pop(folder.root, None)
        if waiting is not None:
            waiting.cancel()
        elif loop.time() - self.linted.get(folder.root, float("-inf")) >= delay:
            self.publish(folder)
            return
        self.pending[folder.root] = loop.call_later(delay, self.publish, folder)

    def tell(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))

    def clear(self, uri: str) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def build(make_settings: Callable[[str], Settings]) -> MnemolintServer:
    """The server with its features, settings made for each folder by `make_settings`."""
    server = MnemolintServer(make_settings)
    session = server.session

    def resolves_edits() -> bool:
        """Whether the client asks for a code action's edit only when the action is chosen."""
        document = server.client_capabilities.text_document
        action = document.code_action if document else None
        support = action.resolve_support if action else None
        return support is not None and "edit" in support.properties

    def folder_of(uri: str) -> tuple[str, Folder] | None:
        path = path_of(uri)
        folder = session.folder_of(path) if path else None
        return (path, folder) if path and folder else None

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        roots = [path_of(folder.uri) for folder in params.workspace_folders or ()]
        if not roots:
            given = params.root_uri and path_of(params.root_uri) or params.root_path
            roots = [given or os.getcwd()]
        for root in roots:
            if root:
                session.add_folder(root)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        watching = server.client_capabilities.workspace
        changes = watching.did_change_watched_files if watching else None
        if changes is None or not changes.dynamic_registration:
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED]
        )
        registration = types.Registration(
            id="mnemolint-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
        )
        try:
            await server.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except JsonRpcException:  # the client refused: files changed outside it are seen on the next lint
            return

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        session.open(path, params.text_document.text, params.text_document.version)  # read once in a folder
        folder = session.folder_of(path)
        if folder is not None:
            server.publish(folder)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None or path not in session.buffers:
            return
        text = server.workspace.get_text_document(params.text_document.uri).source
        session.change(path, text, params.text_document.version)
        folder = session.folder_of(path)
        if folder is not None:
            server.later(folder)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        found = folder_of(params.text_document.uri)
        if found is not None:
            if os.path.basename(found[0]) in CONFIG_FILES:
                found[1].reload()
            server.publish(found[1])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        folder = session.folder_of(path)
        session.close(path)
        server.clear(params.text_document.uri)
        if folder is not None:
            server.publish(folder)  # the others were judged with its unsaved text

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        for removed in params.event.removed:
            root = path_of(removed.uri)
            if root:
                gone = [path for path in session.buffers if session.folder_of(path) is session.folders.get(root)]
                session.remove_folder(root)
                for path in gone:
                    server.clear(uri_of(path))
        for added in params.event.added:
            root = path_of(added.uri)
            if root:
                server.publish(session.add_folder(root))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(params: types.DidChangeWatchedFilesParams) -> None:
        touched: dict[str, Folder] = {}
        for change in params.changes:
            found = folder_of(change.uri)
            if found is None:
                continue
            if os.path.basename(found[0]) in CONFIG_FILES:
                found[1].reload()
            found[1].forget_tree()
            touched[found[1].root] = found[1]
        for folder in touched.values():
            server.later(folder)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL], resolve_provider=True
        ),
    )
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        found = folder_of(params.text_document.uri)
        if found is None or found[0] not in session.buffers:
            return None
        path, folder = found
        session.fresh(folder)
        wanted = params.context.only
        lines = Lines(session.buffers[path].text, server.encoding)
        result: list[types.CodeAction] = []
        fixable = False
        for finding in session.findings.get(path, []):
            fixable = fixable or finding.fix is not None and finding.fix.applicability == SAFE
            span = lines.line_range(finding.line, finding.column, finding.end_line, finding.end_column)
            if span.end.line < params.range.start.line or span.start.line > params.range.end.line:
                continue
            for action in (
                actions.fix_action(session, folder, finding, server.encoding),
                actions.suppression_action(session, finding, server.encoding),
            ):
                if action is not None:
                    result.append(action)
        if fixable:
            # Its edit runs the fixer over the file's tree: made when it is chosen, where the
            # client can resolve an action's edit, else now.
            edit = None if resolves_edits() else actions.fix_all_edit(session, folder, path, server.encoding)
            for kind in (types.CodeActionKind.QuickFix, actions.FIX_ALL):
                data = {"uri": params.text_document.uri}
                result.append(types.CodeAction(title=actions.FIX_ALL_TITLE, kind=kind, data=data, edit=edit))
        if wanted:
            result = [action for action in result if any(_kind(action.kind).startswith(_kind(kind)) for kind in wanted)]
        return result

    @server.feature(types.CODE_ACTION_RESOLVE)
    def code_action_resolve(action: types.CodeAction) -> types.CodeAction:
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        found = folder_of(uri) if isinstance(uri, str) else None
        if action.edit is None and found is not None and found[0] in session.buffers:
            session.fresh(found[1])
            action.edit = actions.fix_all_edit(session, found[1], found[0], server.encoding)
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        found = folder_of(params.text_document.uri)
        if found is None or found[0] not in session.buffers:
            return None
        text = navigation.hover(session, found[0], params.position, server.encoding)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    def document_link(params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        found = folder_of(params.text_document.uri)
        if found is None or found[0] not in session.buffers:
            return []
        return navigation.links(session, found[0], server.encoding)

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(params: types.CodeLensParams) -> list[types.CodeLens]:
        found = folder_of(params.text_document.uri)
        if found is None or found[0] not in session.buffers:
            return []
        return navigation.lenses(session, found[0])

    @server.command(navigation.PREVIEW)
    def preview(uri: str, agent: str | None = None) -> dict:
        """What `agent` (default: the dir's own) loads of the open MEMORY.md at `uri`."""
        found = folder_of(uri)
        if found is None or found[0] not in session.buffers:
            raise ConfigError("the preview command takes the URI of an open MEMORY.md of a workspace folder")
        answer = navigation.preview(session, found[0], agent)
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=answer["text"]))
        return answer

    return server


def _kind(kind: object) -> str:
    """A code action kind as the protocol writes it (`quickfix`), an enumeration member or not."""
    return kind.value if isinstance(kind, Enum) else str(kind)


def serve(make_settings: Callable[[str], Settings]) -> None:
    """Answer the client on stdin/stdout until it exits."""
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed may reach the protocol's channel
    build(make_settings).start_io(sys.stdin.buffer, channel)
