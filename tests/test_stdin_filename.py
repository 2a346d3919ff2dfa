"""`check --stdin-filename PATH -`: standard input linted as the file at PATH (what an editor or a
formatter plugin sends of an unsaved buffer), the memory dir and project around it read from disk."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

TOPIC = "---\nname: {name}\ndescription: About {name}\ntype: user\n---\nbody\n"
DISK = {
    "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n- [B](b.md) — About b\n",
    "memory/a.md": TOPIC.format(name="a"),
    "memory/b.md": TOPIC.format(name="b"),
}
TOKEN = "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"  # split: no token in the source


def findings(*args: str, cwd: Path, stdin: str) -> list[dict]:
    process = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=cwd, stdin=stdin)
    assert process.returncode in (0, 1), process.stderr
    assert "Traceback" not in process.stderr
    return json.loads(process.stdout)


def found(*args: str, cwd: Path, stdin: str) -> set[tuple[str, str, int | None]]:
    return {(item["path"], item["code"], item["line"]) for item in findings(*args, cwd=cwd, stdin=stdin)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, DISK)


def test_an_index_is_linted_from_stdin_with_its_topics_from_disk(project: Path) -> None:
    edited = "# Memory\n\n- [A](a.md) — About a\n- [Gone](gone.md) — a deleted topic\n"
    result = found("--stdin-filename", "memory/MEMORY.md", "-", cwd=project, stdin=edited)
    assert ("memory/MEMORY.md", "MEM104", 4) in result  # the buffer's line, not the disk's
    assert ("memory/b.md", "MEM105", None) in result  # the topic on disk that the buffer no longer links
    assert (project / "memory/MEMORY.md").read_text(encoding="utf-8") == DISK["memory/MEMORY.md"]  # untouched


def test_the_disk_copy_is_not_what_is_linted(project: Path) -> None:
    assert found(cwd=project, stdin="") == set()  # the tree on disk is clean
    assert found("--stdin-filename", "memory/a.md", "-", cwd=project, stdin="no frontmatter\n") >= {
        ("memory/a.md", "MEM203", None)
    }


def test_without_a_dash_stdin_is_read_too(project: Path) -> None:
    """As in ruff, --stdin-filename alone reads standard input."""
    assert ("memory/a.md", "MEM203", None) in found("--stdin-filename", "memory/a.md", cwd=project, stdin="x\n")


def test_other_paths_are_ignored_for_stdin_and_said_so(project: Path) -> None:
    process = run_cli("check", "--no-cache", "--stdin-filename", "memory/a.md", "memory", "-", cwd=project, stdin="x\n")
    assert "mnemolint: warning: ignoring memory: standard input is linted instead" in process.stderr
    assert "memory/a.md" in process.stdout and "memory/b.md" not in process.stdout


def test_a_file_not_yet_on_disk(project: Path) -> None:
    """A new topic an editor has not saved: linted as a topic of the memory dir it would be in."""
    result = found("--stdin-filename", "memory/new.md", "-", cwd=project, stdin="---\nname: new\n---\nbody\n")
    assert {code for path, code, _ in result if path == "memory/new.md"} >= {"MEM203", "MEM105"}  # MEM105: unlinked
    assert not (project / "memory/new.md").exists()


def test_a_new_index_in_a_folder_of_topics(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"notes/a.md": TOPIC.format(name="a"), "notes/b.md": TOPIC.format(name="b")})
    result = found("--stdin-filename", "notes/MEMORY.md", "-", cwd=root, stdin="- [A](a.md) — About a\n")
    assert ("notes/b.md", "MEM105", None) in result  # the folder became a memory dir by its new index


def test_a_file_of_no_kind_is_said_so(project: Path) -> None:
    process = run_cli("check", "--stdin-filename", "notes.txt", "-", cwd=project, stdin="hello\n")
    assert process.returncode == 0
    assert "nothing was linted: notes.txt is not a memory file" in process.stderr


def test_force_exclude_holds_for_stdin(project: Path) -> None:
    (project / "mnemolint.toml").write_text('exclude = ["memory/a.md"]\n', encoding="utf-8")
    assert found("--stdin-filename", "memory/a.md", "-", cwd=project, stdin="x\n")  # named: linted
    process = run_cli("check", "--force-exclude", "--stdin-filename", "memory/a.md", "-", cwd=project, stdin="x\n")
    assert process.returncode == 0 and "memory/a.md is excluded" in process.stderr


def test_the_cache_neither_answers_for_stdin_nor_keeps_it(project: Path) -> None:
    """The cache knows the file on disk by its size and time: it must not stand for the buffer, and
    what the buffer holds must not be kept as the disk file's."""
    assert run_cli("check", cwd=project).returncode == 0  # writes the cache
    broken = "no frontmatter\n"
    assert ("memory/a.md", "MEM203", None) in found("--stdin-filename", "memory/a.md", cwd=project, stdin=broken)
    process = run_cli("check", "--output-format", "json", cwd=project)
    assert process.returncode == 0 and json.loads(process.stdout) == []


def test_a_secret_on_stdin_is_never_printed(project: Path) -> None:
    edited = f"- [A](a.md) — About a\n- [Key]({TOKEN}.md) — a topic named after a token\n"
    for output in ("text", "json", "sarif", "github"):
        process = run_cli(
            "check", "--output-format", output, "--stdin-filename", "memory/MEMORY.md", cwd=project, stdin=edited
        )
        assert process.returncode == 1 and "MEM104" in process.stdout
        assert TOKEN not in process.stdout + process.stderr


def test_stdin_is_size_capped(project: Path) -> None:
    """Past `max-file-bytes` it is a file too large to read (NST002), and reading stops soon after."""
    (project / "mnemolint.toml").write_text("max-file-bytes = 1000\n", encoding="utf-8")
    start = time.monotonic()
    result = found("--stdin-filename", "memory/MEMORY.md", cwd=project, stdin="- [A](a.md) — About a\n" * 200_000)
    assert time.monotonic() - start < 60
    assert ("memory/MEMORY.md", "NST002", None) in result


def test_binary_stdin_is_a_finding(project: Path) -> None:
    result = found("--stdin-filename", "memory/a.md", cwd=project, stdin="a\x00b\x00c\x00")
    assert any(path == "memory/a.md" and code.startswith("TXT") for path, code, _ in result)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["-"], "--stdin-filename", id="a-dash-without-a-name"),
        pytest.param(["--stdin-filename", "memory"], "not the directory", id="a-directory"),
        pytest.param(["--stdin-filename", "memory/a.md", "--fix"], "--fix", id="with-fix"),
        pytest.param(["--stdin-filename", "memory/a.md", "--diff"], "--diff", id="with-diff"),
    ],
)
def test_usage_errors(project: Path, args: list[str], said: str) -> None:
    process = run_cli("check", *args, cwd=project, stdin="x\n")
    assert process.returncode == 2 and said in process.stderr and "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1
