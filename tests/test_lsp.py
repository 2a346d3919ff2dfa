"""`mnemolint server` driven by a real LSP client over stdio (pytest-lsp): initialize, open, change,
code actions, hover, links, the code lens and its command, watched files, shutdown."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from test_lsp_session import age

pytestmark = pytest.mark.filterwarnings("ignore::pytest_lsp.LspSpecificationWarning")

SERVER = [sys.executable, "-m", "mnemolint", "server"]
TOPIC = "---\nname: build\ndescription: How the build runs\ntype: project\n---\n\n# Build\n\nRun `make ci`.\n"
INDEX = "# Memory\n\n- [Build](build.md) — how the build runs\n"


def uri(path) -> str:
    return path.as_uri()


@pytest.fixture
def project(tmp_path):
    """A memory dir whose configuration turns preview on, as the CLI reads it: most of the
    findings these tests wait for are preview rules' (MEM105's)."""
    (tmp_path / ".mnemolint.toml").write_text("preview = true\n", encoding="utf-8")
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
    change(client, index, 2, INDEX + "- [Gone](gone.md) — missing\n")
    await until(lambda: codes(client, index) == ["MEM104"])
    assert client.diagnostics[index][0].range.start.line == 3


def change(client: LanguageClient, target: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=target, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


@pytest.mark.asyncio
async def test_a_topic_is_judged_against_the_index_as_the_editor_holds_it(client: LanguageClient, project):
    (project / "memory" / "deploy.md").write_text(TOPIC.replace("build", "deploy"), encoding="utf-8")
    topic = open_file(client, project / "memory" / "deploy.md")
    await until(lambda: "MEM105" in (codes(client, topic) or []), "MEM105 on the unlinked topic")
    index = open_file(client, project / "memory" / "MEMORY.md")
    change(client, index, 2, INDEX + "- [Deploy](deploy.md) — how the deploy runs\n")  # not saved
    await until(lambda: codes(client, topic) == [], "the topic linked by the unsaved index")
    assert "deploy.md" not in (project / "memory" / "MEMORY.md").read_text(encoding="utf-8")


BROKEN = INDEX + "- [gone](gone.md)\n"


@pytest.mark.asyncio
async def test_code_actions_fix_suppress_and_fix_all(client: LanguageClient, project):
    index = open_file(client, project / "memory" / "MEMORY.md", BROKEN)
    await until(lambda: codes(client, index) == ["MEM104"])
    line = types.Range(types.Position(3, 0), types.Position(3, 5))
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=index),
            range=line,
            context=types.CodeActionContext(diagnostics=list(client.diagnostics[index])),
        )
    )
    by_title = {action.title: action for action in found}
    fix = next((action for title, action in by_title.items() if "(MEM104)" in title), None)
    assert fix is not None, list(by_title)
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    (edit,) = fix.edit.document_changes[0].edits
    assert edit.new_text == "" and (edit.range.start.line, edit.range.end.line) == (3, 4)
    suppress = by_title["mnemolint: suppress MEM104 on this line"]
    (comment,) = suppress.edit.document_changes[0].edits
    assert comment.new_text == "<!-- mnemolint-disable-next-line MEM104 -->\n" and comment.range.start.line == 3
    fix_all = [action for action in found if action.title.endswith("fix all safe fixes in this file")]
    assert {str(action.kind) for action in fix_all} == {"quickfix", "source.fixAll.mnemolint"}
    resolved = await client.code_action_resolve_async(fix_all[0])
    assert resolved.edit is not None, (fix_all[0].data, type(fix_all[0].data))
    (whole,) = resolved.edit.document_changes[0].edits
    assert whole.new_text == INDEX
    # The suppression comment, once in the buffer, silences the finding.
    change(client, index, 2, INDEX + "<!-- mnemolint-disable-next-line MEM104 -->\n- [gone](gone.md)\n")
    await until(lambda: codes(client, index) == [], "the suppressed finding gone")


@pytest.mark.asyncio
async def test_hover_on_a_code_an_entry_and_an_import(client: LanguageClient, project):
    index = open_file(client, project / "memory" / "MEMORY.md", BROKEN)
    await until(lambda: codes(client, index) == ["MEM104"])
    on_finding = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(3, 4))
    )
    assert "**MEM104**" in on_finding.contents.value and "rules-catalog/MEM104.md" in on_finding.contents.value
    on_entry = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(2, 4))
    )
    value = on_entry.contents.value
    assert "`build.md` → `build.md`" in value and "loads this entry" in value, value
    assert "How the build runs" in value  # the manifest line the agent is seeded with
    (project / "CLAUDE.md").write_text("# Project\n\nSee @memory/build.md and @missing.md\n", encoding="utf-8")
    claude = open_file(client, project / "CLAUDE.md")
    await until(lambda: codes(client, claude) == ["CLD001"], "an instruction file's finding")
    imported = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=claude), position=types.Position(2, 7))
    )
    assert "`@memory/build.md` → `memory/build.md`: Claude Code loads it whole" in imported.contents.value
    missing = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=claude), position=types.Position(2, 28))
    )
    assert "no such file" in missing.contents.value
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=claude))
    )
    assert [link.target for link in links] == [uri(project / "memory" / "build.md")]


@pytest.mark.asyncio
async def test_document_links_code_lens_and_the_preview_command(client: LanguageClient, project):
    index = open_file(client, project / "memory" / "MEMORY.md")
    await until(lambda: codes(client, index) == [])
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=index))
    )
    assert [(link.target, link.range.start.line) for link in links] == [(uri(project / "memory" / "build.md"), 2)]
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=index))
    )
    titles = [lens.command.title for lens in lenses]
    assert titles == ["mnemolint: what does Wave load?", "mnemolint: what does Claude Code load?"], titles
    command = lenses[1].command
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    assert answer["agent"] == "claude-code" and answer["facts"]["index"] == "memory/MEMORY.md"
    assert "Nothing is cut: the whole index is loaded." in answer["text"]
    assert any("Nothing is cut" in message.message for message in client.messages)


@pytest.mark.asyncio
async def test_a_topic_created_outside_the_editor_is_seen(client: LanguageClient, project):
    await until(lambda: client.registrations, "the server's request to watch files")
    (registration,) = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert {"globPattern": "**/*.md"} in registration.register_options["watchers"]
    index = open_file(client, project / "memory" / "MEMORY.md", BROKEN)
    await until(lambda: codes(client, index) == ["MEM104"])
    (project / "memory" / "gone.md").write_text(TOPIC.replace("build", "gone"), encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(project / "memory" / "gone.md"), type=types.FileChangeType.Created)]
        )
    )
    await until(lambda: codes(client, index) == [], "the link no longer broken")


@pytest.mark.asyncio
async def test_nothing_outside_the_folder_or_behind_a_dangerous_link_is_read(client, project, tmp_path):
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    outside.write_text("# Memory\n\n- [gone](gone.md)\n", encoding="utf-8")
    (project / ".env").write_text("TOKEN=x\n", encoding="utf-8")
    (project / "memory" / "leak.md").symlink_to(project / ".env")
    far = open_file(client, outside)
    leak = open_file(client, project / "memory" / "leak.md", "TOKEN=x\n")
    index = open_file(client, project / "memory" / "MEMORY.md")
    await until(lambda: codes(client, index) is not None)  # handled in order: the two before are done
    assert far not in client.diagnostics and leak not in client.diagnostics
    hovered = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=far), position=types.Position(2, 4))
    )
    assert hovered is None
    outside.unlink()


SECRET = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[*SERVER, "--preview"]))
async def preview_client(lsp_client: LanguageClient, project):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=uri(project), name="project")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_the_servers_arguments_select_rules_and_secrets_never_leave(preview_client: LanguageClient, project):
    client = preview_client
    text = TOPIC.replace("Run `make ci`.", f"Deploy with {SECRET}.")
    topic = open_file(client, project / "memory" / "build.md", text)
    (project / ".mnemolint.toml").unlink()  # only the argument turns preview on here
    await until(lambda: "SEC001" in (codes(client, topic) or []), "SEC001, a preview rule, from --preview")
    shown = json.dumps([d.message for d in client.diagnostics[topic]])
    assert SECRET not in shown and SECRET[4:14] not in shown
    line = next(d.range.start.line for d in client.diagnostics[topic] if d.code == "SEC001")
    hovered = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=topic), position=types.Position(line, 14))
    )
    assert "**SEC001**" in hovered.contents.value and SECRET not in hovered.contents.value
    assert (project / "memory" / "build.md").read_text(encoding="utf-8") == TOPIC  # the server wrote nothing


@pytest.mark.asyncio
async def test_a_folder_added_to_the_workspace_is_linted_and_a_removed_one_cleared(client: LanguageClient, tmp_path):
    other = tmp_path.parent / f"{tmp_path.name}-other"
    (other / "memory").mkdir(parents=True)
    (other / "memory" / "MEMORY.md").write_text(BROKEN, encoding="utf-8")
    (other / "memory" / "build.md").write_text(TOPIC, encoding="utf-8")
    index = uri(other / "memory" / "MEMORY.md")
    open_file(client, other / "memory" / "MEMORY.md")
    added = types.WorkspaceFolder(uri=uri(other), name="other")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[added], removed=[]))
    )
    await until(lambda: codes(client, index) == ["MEM104"], "the new folder's open index linted")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[], removed=[added]))
    )
    await until(lambda: codes(client, index) == [], "its findings cleared once it left the workspace")


@pytest.mark.asyncio
async def test_a_client_that_cannot_resolve_gets_the_fix_all_edit_at_once(preview_client: LanguageClient, project):
    client = preview_client  # its capabilities are empty: no `codeAction/resolve` of edits
    index = open_file(client, project / "memory" / "MEMORY.md", BROKEN)
    await until(lambda: "MEM104" in (codes(client, index) or []))
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=index),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    (fix_all,) = found
    assert fix_all.kind == "source.fixAll.mnemolint"
    assert fix_all.edit.document_changes[0].edits[0].new_text == INDEX
    quick = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=index),
            range=types.Range(types.Position(3, 0), types.Position(3, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert {action.kind for action in quick} == {"quickfix"} and len(quick) == 3  # the fix, the comment, fix all


@pytest.mark.asyncio
async def test_the_projects_configuration_is_read_again_when_it_is_saved(client: LanguageClient, project):
    index = open_file(client, project / "memory" / "MEMORY.md", BROKEN)
    await until(lambda: codes(client, index) == ["MEM104"])
    config = project / ".mnemolint.toml"
    config.write_text('ignore = ["MEM104"]\n', encoding="utf-8")
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri(config)))
    )
    await until(lambda: codes(client, index) == [], "MEM104 ignored by the saved configuration")
    config.write_text('select = ["NOPE"]\n', encoding="utf-8")  # a bad one: said once, no diagnostics
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri(config)))
    )
    await until(lambda: any("NOPE" in message.message for message in client.messages), "the configuration error")


def said(client: LanguageClient, target: str) -> list[tuple[str, int, str]] | None:
    found = client.diagnostics.get(target)
    return None if found is None else sorted((str(d.code), d.range.start.line + 1, d.message) for d in found)


def checked(root, texts: dict) -> dict[str, list[tuple[str, int, str]]]:
    """What `mnemolint check` finds on each file of `texts` (path → text) in a copy of `root`
    holding those texts: what the buffers' diagnostics must end as."""
    import shutil
    import subprocess

    copy = root.parent / (root.name + "-checked")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy)
    names = [str(path.relative_to(root)) for path in texts]
    for path, text in texts.items():
        (copy / path.relative_to(root)).write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "mnemolint", "check", "--no-cache", "--output-format", "json", *names]
    run = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False)
    found = json.loads(run.stdout)
    return {
        uri(root / name): sorted(
            (item["code"], item["line"] or 1, item["message"]) for item in found if item["path"] == name
        )
        for name in names
    }


GONE = TOPIC.replace("build", "gone").replace("How the gone runs", "Tracks 14 applications")


@pytest.mark.asyncio
async def test_files_created_and_deleted_outside_the_editor_are_seen_on_the_next_keystroke(
    client: LanguageClient, project
):
    memory = project / "memory"
    (memory / "files").mkdir()
    age(project)
    # MEM109 needs the topic in the tree (its description), MEM104 a target neither a topic nor a file.
    text = INDEX + "- [Gone](gone.md) — tracks 7 applications\n- [Spec](files/spec.txt)\n"
    index = open_file(client, memory / "MEMORY.md", text)
    await until(lambda: codes(client, index) == ["MEM104", "MEM104"])
    version = 1

    def keystroke() -> None:
        nonlocal text, version
        text, version = text + " ", version + 1
        change(client, index, version, text)

    keystroke()  # the tree the first lint walked is kept from here on
    await asyncio.sleep(0.3)
    (memory / "gone.md").write_text(GONE, encoding="utf-8")  # no notification
    keystroke()
    await until(lambda: codes(client, index) == ["MEM109", "MEM104"], "the topic created outside the editor")
    (memory / "files" / "spec.txt").write_text("spec\n", encoding="utf-8")  # a link target a folder below
    keystroke()
    await until(lambda: codes(client, index) == ["MEM109"], "the link target created outside the editor")
    (memory / "gone.md").unlink()
    keystroke()
    await until(lambda: codes(client, index) == ["MEM104"], "the topic deleted outside the editor")
    (memory / "gone.md").write_text(GONE, encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(memory / "gone.md"), type=types.FileChangeType.Created)]
        )
    )
    await until(lambda: codes(client, index) == ["MEM109"], "the topic the file watcher reports")
    (memory / "files" / "spec.txt").unlink()
    keystroke()
    await until(lambda: codes(client, index) == ["MEM109", "MEM104"], "the link target gone")


@pytest.mark.asyncio
async def test_after_keystrokes_the_diagnostics_are_a_fresh_checks(client: LanguageClient, project):
    memory = project / "memory"
    for name in ("deploy", "release", "review"):
        (memory / f"{name}.md").write_text(TOPIC.replace("build", name).replace("Build", name), encoding="utf-8")
    entries = "".join(f"- [{name}]({name}.md) — how the {name} runs\n" for name in ("deploy", "release", "review"))
    (memory / "MEMORY.md").write_text(INDEX + entries, encoding="utf-8")
    age(project)
    paths = {memory / "MEMORY.md": INDEX + entries, memory / "deploy.md": TOPIC.replace("build", "deploy")}
    opened = {path: open_file(client, path, text) for path, text in paths.items()}
    await until(lambda: all(said(client, target) is not None for target in opened.values()))
    edits = [
        (memory / "deploy.md", lambda text: text + "More about it.\n"),
        (memory / "deploy.md", lambda text: text.replace("name: deploy", "name: release")),  # a duplicate title
        (memory / "MEMORY.md", lambda text: text.replace("- [deploy](deploy.md) — how the deploy runs\n", "")),
        (memory / "MEMORY.md", lambda text: text + "- [Gone](gone.md) — missing\n"),
        (memory / "deploy.md", lambda text: text.replace("description: How the deploy runs", "description: Other")),
        (memory / "MEMORY.md", lambda text: text + "- [deploy](deploy.md) — how the deploy runs\n"),
    ]
    versions = dict.fromkeys(paths, 1)
    for path, edit in edits:
        paths[path], versions[path] = edit(paths[path]), versions[path] + 1
        change(client, opened[path], versions[path], paths[path])
        await asyncio.sleep(0.05)  # a keystroke at a time, some within the debounce, some after it
    expected = checked(project, paths)
    assert any(expected.values())  # the edits left findings to agree on
    await until(lambda: all(said(client, opened[path]) == expected[uri(path)] for path in paths), "a fresh check's")
    await asyncio.sleep(0.3)  # nothing later changes them
    assert all(said(client, opened[path]) == expected[uri(path)] for path in paths)
