"""`mnemolint server` driven by a real LSP client over stdio (pytest-lsp): initialize, open, change,
code actions, hover, links, the code lens and its command, watched files, shutdown."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.filterwarnings("ignore::pytest_lsp.LspSpecificationWarning")

SERVER = [sys.executable, "-m", "mnemolint", "server"]
TOPIC = "---\nname: build\ndescription: How the build runs\ntype: project\n---\n\n# Build\n\nRun `make ci`.\n"
INDEX = "# Memory\n\n- [Build](build.md) — how the build runs\n"


def uri(path) -> str:
    return path.as_uri()


@pytest.fixture
def project(tmp_path):
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    (memory / "build.md").write_text(TOPIC, encoding="utf-8")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, project):
    lsp_client.registrations = []  # what the server asks the editor to watch

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            workspace_folders=[types.WorkspaceFolder(uri=uri(project), name="project")],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def until(check, what: str = "the server's answer", seconds: float = 20.0):
    """Poll `check()` until it returns something truthy (the client stores what the server sends)."""
    for _ in range(int(seconds / 0.05)):
        found = check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def codes(client: LanguageClient, target: str) -> list[str] | None:
    found = client.diagnostics.get(target)
    return None if found is None else [str(d.code) for d in found]


def open_file(client: LanguageClient, path, text: str | None = None) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=text)
        )
    )
    return uri(path)


@pytest.mark.asyncio
async def test_open_and_change_lint_the_buffer_not_the_disk(client: LanguageClient, project):
    index = open_file(client, project / "memory" / "MEMORY.md")
    await until(lambda: codes(client, index) == [])
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=index, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=INDEX + "- [Gone](gone.md) — missing\n")],
        )
    )
    await until(lambda: codes(client, index) == ["MEM104"])
    assert client.diagnostics[index][0].range.start.line == 3
