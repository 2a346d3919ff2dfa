"""`mnemolint mcp`: the MCP server, driven by the MCP SDK's own client over stdio.

Each test spawns `python -m mnemolint mcp --root <tmp project>` as an agent would, on a real memory
tree, and checks what the agent gets: findings as data with secrets masked, a dry-run diff that
leaves the file alone, a write through the writer that a second call finds nothing to redo, and
paths outside the root refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_tree

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

pytest.importorskip("mcp")

import anyio  # noqa: E402  (the SDK brings it)
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

MEM = ".claude/projects/p/memory"
INDEX = f"{MEM}/MEMORY.md"
SECRET_BODY = "Q9w8E7r6T5" * 3 + "y4U3i2"
SECRET = "ghp_" + SECRET_BODY
BUILD = "---\nname: Build\ndescription: how to build\ntype: project\n---\n\nBody.\n"
NOTES = f"---\nname: Notes\ndescription: deploy notes\ntype: project\n---\n\nDeploy with {SECRET}.\n"
INDEX_TEXT = "# Memory\n\n- [Build](build.md) — how to build\n- [Notes](notes.md) — deploy notes\n- [gone](gone.md)\n"
TOOLS = {"lint", "preview", "explain_rules", "fix", "rule"}
DOCS = Path(__file__).resolve().parent.parent  # the checkout: README.md, docs/, pyproject.toml


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_tree(tmp_path, {"secret-outside.md": f"token {SECRET}\n"})  # beside the project, not in it
    return write_tree(root, {INDEX: INDEX_TEXT, f"{MEM}/build.md": BUILD, f"{MEM}/notes.md": NOTES})


def session(root: Path, calls: list[tuple[str, dict]]) -> tuple[object, object, list]:
    """The initialize result, the tool list and each call's result, from one server process."""

    async def talk() -> tuple[object, object, list]:
        server = StdioServerParameters(command=sys.executable, args=["-m", "mnemolint", "mcp", "--root", str(root)])
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            started = await client.initialize()
            tools = await client.list_tools()
            results = [await client.call_tool(name, arguments) for name, arguments in calls]
            return started, tools, results

    return anyio.run(talk)


def answer(result) -> dict:
    """A tool result's JSON answer (its text content: what the agent reads)."""
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def error(result) -> str:
    assert result.is_error
    return result.content[0].text


def test_initialize_lists_the_tools_with_descriptions(project: Path) -> None:
    started, tools, _ = session(project, [])
    assert started.server_info.name == "mnemolint"
    assert {tool.name for tool in tools.tools} == TOOLS
    for tool in tools.tools:
        assert tool.description and "Call " in tool.description  # says when to call it


def test_lint_returns_findings_with_the_secret_masked(project: Path) -> None:
    _, _, [result] = session(project, [("lint", {"path": ".", "preview": True})])  # SEC001 is a preview rule
    found = answer(result)
    codes = {finding["code"] for finding in found["findings"]}
    assert "SEC001" in codes and "MEM104" in codes  # the secret and the broken entry
    assert found["count"] == len(found["findings"]) and not found["truncated"]
    assert all(not finding["path"].startswith("/") for finding in found["findings"])
    raw = json.dumps([content.model_dump() for content in result.content]) + json.dumps(result.structured_content)
    assert SECRET_BODY not in raw


def test_a_long_answer_lists_the_first_findings_and_counts_them_all(tmp_path: Path) -> None:
    topics = {f"{MEM}/t{number}.md": "no frontmatter\n" for number in range(80)}  # 3 findings each
    root = write_tree(tmp_path, {INDEX: "- [T0](t0.md)\n", **topics})
    _, _, [result] = session(root, [("lint", {"preview": True})])
    found = answer(result)
    assert found["count"] > 200 and found["truncated"] is True
    assert len(found["findings"]) == 200


def test_preview_explain_rules_and_rule(project: Path) -> None:
    write_tree(project, {".claude/rules/style.md": "---\npaths: ['src/**']\n---\nUse tabs.\n"})
    calls = [
        ("preview", {"directory": MEM}),
        ("explain_rules", {"file": "src/app.py", "agent": "claude-code"}),
        ("rule", {"code": "mem104"}),
        ("rule", {"code": "NOPE1"}),
    ]
    _, _, [preview, explained, page, unknown] = session(project, calls)
    facts = answer(preview)
    assert facts["agent"] == "claude-code" and facts["index"] == INDEX
    assert facts["total"]["lines"] == 5 and facts["warning"] is None
    [claude] = answer(explained)["agents"]
    assert claude["agent"] == "claude-code"
    assert [entry["path"] for entry in claude["applying"]] == [".claude/rules/style.md"]
    assert answer(page)["code"] == "MEM104" and "MEM104" in answer(page)["page"]
    assert "unknown rule" in error(unknown)


def test_fix_is_a_dry_run_unless_asked_and_then_writes_once(project: Path) -> None:
    before = (project / INDEX).read_bytes()
    _, _, [dry] = session(project, [("fix", {"path": MEM})])
    found = answer(dry)
    assert found["written"] is False and found["fixed"] >= 1
    assert "-- [gone](gone.md)" in found["diff"]
    assert SECRET_BODY not in json.dumps(found)
    assert (project / INDEX).read_bytes() == before
    _, _, [written, again] = session(project, [("fix", {"path": MEM, "write": True}), ("fix", {"path": MEM})])
    assert answer(written)["written"] is True
    assert "gone.md" not in (project / INDEX).read_text(encoding="utf-8")
    assert answer(again)["diff"] == "" and answer(again)["fixed"] == 0
    assert (project / f"{MEM}/notes.md").read_text(encoding="utf-8") == NOTES  # the secret is not a safe fix


def test_paths_outside_the_root_are_refused(project: Path) -> None:
    (project / "link").symlink_to(project.parent)
    calls = [
        ("lint", {"path": "../secret-outside.md"}),
        ("lint", {"path": str(project.parent / "secret-outside.md")}),
        ("lint", {"path": "link/secret-outside.md"}),
        ("fix", {"path": "..", "write": True}),
        ("explain_rules", {"file": "../x.md"}),
        ("preview", {"directory": "link"}),
    ]
    _, _, results = session(project, calls)
    for result in results:
        assert "outside the project root" in error(result)
        assert SECRET_BODY not in error(result)


def test_a_call_over_the_time_limit_is_stopped(project: Path) -> None:
    async def talk() -> object:
        args = ["-m", "mnemolint", "mcp", "--root", str(project), "--timeout", "0.001"]
        server = StdioServerParameters(command=sys.executable, args=args)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool("lint", {"path": "."})

    assert "took longer than 0.001 seconds" in error(anyio.run(talk))


def test_without_the_extra_the_command_says_what_to_install(project: Path) -> None:
    hide = "import runpy, sys; sys.modules['mcp'] = None; runpy.run_module('mnemolint', run_name='__main__')"
    done = subprocess.run(
        [sys.executable, "-c", hide, "mcp", "--root", str(project)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'mnemolint[mcp]'" in lines[0], done.stderr
    extras = tomllib.loads((DOCS / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(need.startswith("mcp>=") for need in extras["mcp"])  # the extra the line names is there
    assert any(need.startswith("mcp>=") for need in extras["test"])  # and the tests run with it


# --- the set-up snippets of docs/mcp.md and the README start the server they show --------------


def snippets() -> list[tuple[str, str, list[str]]]:
    """(where, command, args) of every agent set-up snippet: JSON `mcpServers`, Codex's TOML
    `mcp_servers` and `claude mcp add … -- COMMAND ARGS`."""
    import re
    import shlex

    found = []
    for name in ("docs/mcp.md", "README.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        for language, block in re.findall(r"```(json|toml|sh)\n(.*?)```", text, re.DOTALL):
            if language == "json" and "mcpServers" in block:
                server = json.loads(block)["mcpServers"]["mnemolint"]
                found.append((f"{name} json", server["command"], server["args"]))
            elif language == "toml" and "mcp_servers" in block:
                server = tomllib.loads(block)["mcp_servers"]["mnemolint"]
                found.append((f"{name} toml", server["command"], server["args"]))
            for line in block.splitlines() if language == "sh" else ():
                if line.startswith("claude mcp add"):
                    words = shlex.split(line, comments=True)
                    command, *args = words[words.index("--") + 1 :]
                    found.append((f"{name} claude", command, args))
        for line in re.findall(r"`(\{\"mcpServers\".*?\})`", text):
            server = json.loads(line)["mcpServers"]["mnemolint"]
            found.append((f"{name} inline json", server["command"], server["args"]))
    return found


def test_every_snippet_names_the_command_that_starts_the_server(project: Path) -> None:
    found = snippets()
    where = {place.split()[0] + " " + place.split()[-1] for place, _, _ in found}
    assert {"docs/mcp.md json", "docs/mcp.md toml", "docs/mcp.md claude", "README.md toml"} <= where
    assert {(command, tuple(args)) for _, command, args in found} == {("mnemolint", ("mcp",))}
    script = Path(sys.executable).with_name("mnemolint")  # the installed console script
    if not script.exists():
        pytest.skip("mnemolint is not installed as a script next to this interpreter")

    async def talk() -> object:
        server = StdioServerParameters(command=str(script), args=["mcp"], cwd=str(project))
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool("lint", {"preview": True})

    assert "SEC001" in {finding["code"] for finding in answer(anyio.run(talk))["findings"]}
