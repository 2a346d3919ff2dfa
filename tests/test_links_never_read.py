"""One rule for every command: a link to a sensitive place (what LNK006 reports, judged by
`paths.dangerous_link`) is never read. Each route below meets such a link to a fake `~/.ssh/config`
and to `.env`; what they hold never appears in any output, and the route says the file was not read
where it has a place to say it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, run_lint, write_tree

from mnemolint import api
from mnemolint.parse.document import Document
from mnemolint.paths import dangerous_link

SECRET = "Host bastion.internal IdentityFile SECRET-KEY-MARKER"
ENV = "DB_PASS=hunter2-MARKER\n"
TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\n{0} body\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home of its own, whose `~/.ssh/config` holds SECRET."""
    home = write_tree(tmp_path / "home", {".ssh/config": f".ai-memory/\n{SECRET}\n", ".ssh/AGENTS.md": SECRET})
    return home


def never_shown(result) -> None:
    assert "MARKER" not in result.stdout + result.stderr, result.stdout + result.stderr


def cli(*args: str, cwd: Path, home: Path):
    return run_cli(*args, cwd=cwd, env={"HOME": str(home)})


def test_the_judgement_is_the_walks(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "r", {".env": ENV, "plain.md": "x\n"})
    (root / "a.md").symlink_to(".env")
    (root / "b.md").symlink_to(home / ".ssh" / "config")
    (root / "c.md").symlink_to("plain.md")
    (root / "ssh").symlink_to(home / ".ssh")
    assert "a `.env` file" in (dangerous_link(str(root / "a.md")) or "")
    assert "a credential folder" in (dangerous_link(str(root / "b.md")) or "")
    assert "a credential folder" in (dangerous_link(str(root / "ssh" / "config")) or "")  # a linked folder
    assert dangerous_link(str(root / "c.md")) is None
    assert dangerous_link(str(root / "plain.md")) is None
    for name in ("a.md", "b.md", "ssh/config"):
        document = Document(str(root / name), None, api_defaults())
        assert document.text is None and "never reads through it" in (document.read_error or "")
    assert Document(str(root / "c.md"), None, api_defaults()).text == "x\n"


def api_defaults() -> dict:
    from mnemolint.options import defaults

    return defaults()


def test_preview_codex_lists_the_links_and_prints_nothing_behind_them(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "r", {".env": ENV, "pkg/x": ""})
    (root / ".git").mkdir()
    (root / "AGENTS.md").symlink_to(".env")
    (root / "pkg" / "AGENTS.md").symlink_to(home / ".ssh" / "config")
    text = cli("preview", "--agent", "codex", "pkg", cwd=root, home=home)
    never_shown(text)
    assert text.stdout.count(": not read: a symlink to") == 2
    as_json = cli("preview", "--agent", "codex", "--output-format", "json", "pkg", cwd=root, home=home)
    never_shown(as_json)
    assert [entry["path"] for entry in json.loads(as_json.stdout)["unread"]] == ["AGENTS.md", "pkg/AGENTS.md"]


def test_a_linked_folder_on_the_codex_chain_is_not_read(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "r", {"AGENTS.md": "# top\n"})
    (root / ".git").mkdir()
    (root / "pkg").symlink_to(home / ".ssh")  # holds an AGENTS.md
    result = cli("preview", "--agent", "codex", "pkg", cwd=root, home=home)
    never_shown(result)
    assert "pkg/AGENTS.md: not read" in result.stdout


def memory_dir(tmp_path: Path, home: Path, index: bool = True) -> Path:
    root = write_tree(tmp_path / "r", {".env": ENV, "mem/a.md": TOPIC.format("a")})
    if index:
        write_tree(root, {"mem/MEMORY.md": "- [A](a.md) — a notes\n- [S](s.md) — s\n- [E](e.md) — e\n"})
    (root / "mem" / "s.md").symlink_to(home / ".ssh" / "config")
    (root / "mem" / "e.md").symlink_to("../.env")
    return root


@pytest.mark.parametrize(
    "command",
    [
        ("check", "--no-cache", "--exit-zero", "mem"),
        ("check", "--no-cache", "--exit-zero", "--output-format", "json", "mem"),
        ("check", "--no-cache", "--exit-zero", "--output-format", "sarif", "mem"),
        ("check", "--no-cache", "--exit-zero", "mem/s.md", "mem/e.md"),  # named, as pre-commit names them
        ("manifest", "mem"),
        ("manifest", "--output-format", "json", "mem"),
        ("index", "mem"),
        ("preview", "mem"),
        ("preview", "--agent", "wave", "--output-format", "json", "mem"),
        ("explain-rules", "--agent", "claude-code", "mem/s.md"),
    ],
)
def test_no_command_reads_a_linked_memory(tmp_path: Path, home: Path, command: tuple[str, ...]) -> None:
    root = memory_dir(tmp_path, home, index=command[0] != "index")
    never_shown(cli(*command, cwd=root, home=home))


def test_preview_of_a_dir_without_index_generates_no_line_from_a_link(tmp_path: Path, home: Path) -> None:
    root = memory_dir(tmp_path, home, index=False)
    (root / "mnemolint.toml").write_text('memory-dirs = ["mem"]\n', encoding="utf-8")  # no index: say it is one
    result = cli("preview", "mem", cwd=root, home=home)
    never_shown(result)
    assert "a.md" in result.stdout


def test_the_hook_never_reads_a_link_it_is_told_was_written(tmp_path: Path, home: Path) -> None:
    root = memory_dir(tmp_path, home)
    for name in ("s.md", "e.md"):
        event = {"cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Write"}
        event["tool_input"] = {"file_path": str(root / "mem" / name)}
        result = run_cli("hook", "post-tool-use", stdin=json.dumps(event), cwd=root, env={"HOME": str(home)})
        never_shown(result)
        assert result.returncode == 0


def test_api_read_refuses_a_link_to_a_sensitive_place(tmp_path: Path, home: Path) -> None:
    root = memory_dir(tmp_path, home)
    for name in ("s.md", "e.md"):
        with pytest.raises(ValueError, match="never reads through it") as raised:
            api.read(root / "mem" / name)
        assert "MARKER" not in str(raised.value)
    assert api.read(root / "mem" / "a.md").metadata["name"] == "a"


def test_a_gitignore_linked_to_a_credential_is_not_read(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "r", {".ai-memory/project_memory.md": "# P\n"})
    (root / ".git").mkdir()
    (root / ".gitignore").symlink_to(home / ".ssh" / "config")
    result = cli("check", "--no-cache", "--exit-zero", ".", cwd=root, home=home)
    never_shown(result)
    assert "LNK006" in result.stdout and "GIT002" not in result.stdout  # its `.ai-memory/` line was never read


def test_a_claude_import_through_a_link_is_not_read(tmp_path: Path, home: Path) -> None:
    root = write_tree(tmp_path / "r", {"CLAUDE.md": "# P\n@notes.md\n@env.md\n", ".env": ENV})
    (root / ".git").mkdir()
    (root / "notes.md").symlink_to(home / ".ssh" / "config")
    (root / "env.md").symlink_to(".env")
    for command in (
        ("check", "--no-cache", "--exit-zero", "."),
        ("explain-rules", "--agent", "claude-code", "--all", "CLAUDE.md"),
    ):
        never_shown(cli(*command, cwd=root, home=home))
    assert all("MARKER" not in d.message for d in run_lint(root))
