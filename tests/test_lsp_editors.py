"""The editor set-ups of docs/editors.md start the server they show, the README's install line
installs one that starts, and without the extra the command says what to install."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig  # noqa: E402

EDITORS = PROJECT / "docs" / "editors.md"


def blocks(path: Path) -> list[tuple[str, str, str]]:
    """(section, language, text) of each fenced block, by the `## ` section it is in."""
    found, section = [], ""
    text = path.read_text(encoding="utf-8")
    for part in re.split(r"^(## .*)$", text, flags=re.M):
        if part.startswith("## "):
            section = part[3:].strip()
            continue
        found.extend((section, language, block) for language, block in re.findall(r"```(\w+)\n(.*?)```", part, re.S))
    return found


def commands() -> dict[str, set[tuple[str, ...]]]:
    """The command line each editor's snippet starts the server with, by section: each editor's
    in docs/editors.md, and the README's "In your editor"."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for section, language, block in blocks(EDITORS) + blocks(PROJECT / "README.md"):
        lines: list[tuple[str, ...]] = []
        if language == "json" and "glspc.server.command" in block:
            settings = json.loads(block)
            lines.append((settings["glspc.server.command"], *settings["glspc.server.commandArguments"]))
            assert "markdown" in settings["glspc.server.languageId"]
        elif language == "json" and '"lsp"' in block:
            binary = json.loads(block)["lsp"]["mnemolint"]["binary"]
            lines.append((binary["path"], *binary["arguments"]))
        elif language == "lua":
            (cmd,) = re.findall(r"cmd = \{([^}]*)\}", block)
            lines.append(tuple(re.findall(r"'([^']*)'", cmd)))
        elif language == "toml" and "language-server" in block:
            server = tomllib.loads(block)
            mnemolint = server["language-server"]["mnemolint"]
            lines.append((mnemolint["command"], *mnemolint["args"]))
            (markdown,) = [entry for entry in server["language"] if entry["name"] == "markdown"]
            assert "mnemolint" in markdown["language-servers"]
        elif language == "toml" and "language_servers" in block:
            assert tomllib.loads(block)["language_servers"]["mnemolint"]["languages"] == ["Markdown"]
        elif language == "rust":
            (program,) = re.findall(r'\.which\("([^"]+)"\)', block)
            (args,) = re.findall(r"args: vec!\[([^\]]*)\]", block)
            lines.append((program, *re.findall(r'"([^"]*)"\.into\(\)', args)))
        for line in lines:
            found.setdefault(section, set()).add(line)
    return found


def test_each_editor_has_a_snippet_and_all_start_the_same_server() -> None:
    found = commands()
    assert set(found) == {"VS Code", "Neovim", "Helix", "Zed", "In your editor"}, found
    assert set().union(*found.values()) == {("mnemolint", "server")}


async def _starts(command: list[str], root: Path) -> types.InitializeResult:
    client = await ClientServerConfig(server_command=command).start()
    try:
        return await client.initialize_session(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=root.as_uri())
        )
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_the_snippets_command_line_starts_the_installed_server(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("mnemolint")  # the console script, as an editor runs it
    if not script.exists():
        pytest.skip("mnemolint is not installed as a script next to this interpreter")
    for program, *args in set().union(*commands().values()):
        assert program == "mnemolint"
        started = await _starts([str(script), *args], tmp_path)
        assert started.server_info is not None and started.server_info.name == "mnemolint"
        assert started.capabilities.code_action_provider and started.capabilities.hover_provider


def test_without_the_extra_the_command_says_what_to_install(tmp_path: Path) -> None:
    hide = "import runpy, sys; sys.modules['pygls'] = None; runpy.run_module('mnemolint', run_name='__main__')"
    done = subprocess.run(
        [sys.executable, "-c", hide, "server"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    assert (done.returncode, done.stdout) == (2, "")
    (line,) = done.stderr.strip().splitlines()
    assert "pip install 'mnemolint[server]'" in line, done.stderr
    extras = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert {need.split(">")[0] for need in extras["server"]} == {"pygls", "lsprotocol"}
    assert {"pygls", "lsprotocol", "pytest-lsp"} <= {need.split(">")[0] for need in extras["test"]}


@pytest.mark.packaging
@pytest.mark.asyncio
async def test_the_readme_install_line_installs_a_server_that_starts(wheelhouse: Path, tmp_path: Path) -> None:
    """`pip install 'mnemolint[server]'` as the README and docs/editors.md write it, resolved from
    the wheelhouse (this checkout's wheel and its extra's dependencies) into a clean venv."""
    import os
    import shlex

    lines = {
        line.strip()
        for name in ("README.md", "docs/editors.md")
        for line in (PROJECT / name).read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("pip install") and "[server]" in line
    }
    assert lines == {"pip install 'mnemolint[server]'"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(PIP_FIND_LINKS=str(wheelhouse), PIP_NO_INDEX="1")
    (line,) = lines
    words = shlex.split(line)
    subprocess.run([str(venv / "bin" / "pip"), *words[1:], "--quiet"], check=True, env=env, timeout=600)
    started = await _starts([str(venv / "bin" / "mnemolint"), "server"], tmp_path)
    assert started.server_info is not None and started.server_info.name == "mnemolint"


def test_a_bad_selection_on_the_command_line_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mnemolint", "server", "--select", "NOPE"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    assert (done.returncode, done.stdout) == (2, "") and "NOPE" in done.stderr
