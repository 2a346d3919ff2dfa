"""Nested instruction files (kinds/instructions.py) and the NST rules (rules/nested.py).

NST001: `AGENTS.md` and `CLAUDE.md` in one folder. Wave reads `AGENTS.md` and ignores `CLAUDE.md`
there (seed 000, nested memory 6; READERS.md §4), Claude Code reads only `CLAUDE.md` (READERS.md
B): the two agents get different instructions unless `CLAUDE.md` imports `AGENTS.md` (an `@`
import outside code, as Claude Code finds it) or the two say the same. NST002: a file that cannot
be read is reported and the walk goes on (seed 000, edge cases).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.agents import CLAUDE_CODE, WAVE
from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.engine import lint
from mnemolint.kinds.instructions import INSTRUCTION_FILE
from mnemolint.model import Diagnostic

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
AGENTS_TEXT = "# Build\n\nRun `make` before committing.\n"


def check(root: Path, select: str = "NST", **options: object) -> list[Diagnostic]:
    """Lint `root`; no rule may raise on the way."""
    settings = load_settings(None, str(root))
    settings.select = [select]
    for key, value in options.items():
        settings.options[key.replace("_", "-")] = value
    result = lint([str(root)], settings)
    assert result.errors == [], result.errors
    return result.diagnostics


def found(diagnostics: list[Diagnostic], root: Path, code: str = "NST001") -> list[tuple[str, str]]:
    """(path relative to root, message) of each `code` finding."""
    return [(os.path.relpath(d.path, root).replace(os.sep, "/"), d.message) for d in diagnostics if d.code == code]


def pair(root: Path, claude: str, agents: str = AGENTS_TEXT, folder: str = "") -> Path:
    prefix = f"{folder}/" if folder else ""
    return write_tree(root, {f"{prefix}AGENTS.md": agents, f"{prefix}CLAUDE.md": claude})


# --- NST001 claude-md-shadowed ----------------------------------------------------------------


@pytest.mark.parametrize("folder", ["", "packages/web"])
def test_nst001_fires_when_the_two_files_differ(tmp_path: Path, folder: str) -> None:
    """At the root and in a nested folder alike: the finding is on `CLAUDE.md`, the file Wave
    ignores there."""
    pair(tmp_path, "# Build\n\nRun `npm test` first.\n", folder=folder)
    [(path, message)] = found(check(tmp_path), tmp_path)
    assert path == (f"{folder}/CLAUDE.md" if folder else "CLAUDE.md")
    assert message.startswith("`AGENTS.md` sits beside this file: Wave reads `AGENTS.md` and ignores `CLAUDE.md` here")
    assert "make this file `@AGENTS.md`" in message


@pytest.mark.parametrize(
    "claude",
    [
        pytest.param("@AGENTS.md\n", id="import"),
        pytest.param("# Claude\n\nSee @AGENTS.md for the build.\n", id="import-in-a-sentence"),
        pytest.param("@./AGENTS.md\n", id="dot-slash"),
        pytest.param("@AGENTS.md#build\n", id="fragment"),
        pytest.param("- @AGENTS.md\n", id="list-item"),
    ],
)
def test_nst001_is_quiet_when_claude_md_imports_agents_md(tmp_path: Path, claude: str) -> None:
    pair(tmp_path, claude)
    assert found(check(tmp_path), tmp_path) == []


def test_nst001_is_quiet_when_both_say_the_same(tmp_path: Path) -> None:
    """Leading and trailing blank lines aside, the same text: both agents get it."""
    pair(tmp_path, "\n" + AGENTS_TEXT + "\n\n")
    assert found(check(tmp_path), tmp_path) == []


@pytest.mark.parametrize(
    "claude",
    [
        pytest.param("```\n@AGENTS.md\n```\n", id="fence"),
        pytest.param("    @AGENTS.md\n", id="indented-code"),
        pytest.param("Write `@AGENTS.md` here.\n", id="code-span"),
        pytest.param("<!--\n@AGENTS.md\n-->\n", id="html-comment"),
    ],
)
def test_nst001_fires_when_the_import_is_only_inside_code(tmp_path: Path, claude: str) -> None:
    """Claude Code ignores `@` imports in code fences, code spans and HTML comments."""
    pair(tmp_path, claude)
    assert [path for path, _ in found(check(tmp_path), tmp_path)] == ["CLAUDE.md"]


def test_nst001_an_import_of_another_agents_md_is_not_this_one(tmp_path: Path) -> None:
    """`@docs/AGENTS.md` resolves relative to `CLAUDE.md`: not the file beside it, and the
    message says so."""
    pair(tmp_path, "@docs/AGENTS.md\n")
    [(_, message)] = found(check(tmp_path), tmp_path)
    assert "`@docs/AGENTS.md` resolves relative to this file" in message


def test_nst001_a_nested_claude_md_importing_the_root_agents_md_does_not_count(tmp_path: Path) -> None:
    """`pkg/CLAUDE.md` with `@../AGENTS.md` imports the root file, not `pkg/AGENTS.md`."""
    write_tree(tmp_path, {"AGENTS.md": "root\n", "pkg/AGENTS.md": AGENTS_TEXT, "pkg/CLAUDE.md": "@../AGENTS.md\n"})
    assert [path for path, _ in found(check(tmp_path), tmp_path)] == ["pkg/CLAUDE.md"]


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({"AGENTS.md": AGENTS_TEXT}, id="agents-only"),
        pytest.param({"CLAUDE.md": "x\n"}, id="claude-only"),
        pytest.param({"AGENTS.md": AGENTS_TEXT, "docs/CLAUDE.md": "x\n"}, id="different-folders"),
        pytest.param({"AGENTS.md": AGENTS_TEXT, "CLAUDE.local.md": "x\n"}, id="local-file"),
    ],
)
def test_nst001_is_quiet_without_a_pair_in_one_folder(tmp_path: Path, files: dict) -> None:
    write_tree(tmp_path, files)
    assert found(check(tmp_path), tmp_path) == []


def test_nst001_each_folder_is_judged_on_its_own(tmp_path: Path) -> None:
    """The root pair agrees (an import); the nested pair does not: one finding, the nested one."""
    write_tree(
        tmp_path,
        {"AGENTS.md": AGENTS_TEXT, "CLAUDE.md": "@AGENTS.md\n", "a/AGENTS.md": "a\n", "a/CLAUDE.md": "b\n"},
    )
    assert [path for path, _ in found(check(tmp_path), tmp_path)] == ["a/CLAUDE.md"]


def test_nst001_through_the_cli(tmp_path: Path) -> None:
    pair(tmp_path, "different\n")
    result = run_cli("check", "--select", "NST", ".", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.startswith("CLAUDE.md: NST001 `AGENTS.md` sits beside this file")


# --- The instruction-file kind ----------------------------------------------------------------


def test_instruction_files_are_found_in_every_folder_with_their_reader(tmp_path: Path) -> None:
    """`AGENTS.md` (Wave), `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md` (Claude Code), at
    any depth; other names are not instruction files."""
    write_tree(
        tmp_path,
        {
            "AGENTS.md": "a\n",
            "CLAUDE.md": "c\n",
            "CLAUDE.local.md": "l\n",
            ".claude/CLAUDE.md": "cc\n",
            "deep/er/AGENTS.md": "a\n",
            "notes/agents.md": "lower case\n",
            "README.md": "r\n",
        },
    )
    tree = discover([str(tmp_path)], load_settings(None, str(tmp_path)))
    kinds = {
        os.path.relpath(d.path, tmp_path): d.kind.reader(d).title for d in tree.documents if d.kind is INSTRUCTION_FILE
    }
    assert kinds == {
        "AGENTS.md": WAVE.title,
        "CLAUDE.md": CLAUDE_CODE.title,
        "CLAUDE.local.md": CLAUDE_CODE.title,
        ".claude/CLAUDE.md": CLAUDE_CODE.title,
        "deep/er/AGENTS.md": WAVE.title,
    }


# --- NST002 memory-file-unreadable ------------------------------------------------------------


@pytest.mark.parametrize("name", ["CLAUDE.md", "AGENTS.md"])
def test_an_unreadable_instruction_file_is_nst002_and_the_walk_goes_on(tmp_path: Path, name: str) -> None:
    """One unreadable file of a pair: NST002 on it, no NST001 guess about it, and the next
    folder's pair is still judged."""
    if IS_ROOT:
        pytest.skip("root reads files whatever their mode")
    pair(tmp_path, "different\n")
    pair(tmp_path, "also different\n", folder="next")
    (tmp_path / name).chmod(0)
    try:
        diagnostics = check(tmp_path)
    finally:
        (tmp_path / name).chmod(0o644)
    assert [path for path, _ in found(diagnostics, tmp_path, "NST002")] == [name]
    assert [path for path, _ in found(diagnostics, tmp_path)] == ["next/CLAUDE.md"]


def test_an_unreadable_folder_is_nst002_and_the_walk_goes_on(tmp_path: Path) -> None:
    if IS_ROOT:
        pytest.skip("root lists folders whatever their mode")
    pair(tmp_path, "x\n", folder="locked")
    pair(tmp_path, "different\n", folder="open")
    (tmp_path / "locked").chmod(0)
    try:
        diagnostics = check(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert [path for path, _ in found(diagnostics, tmp_path, "NST002")] == ["locked"]
    assert [path for path, _ in found(diagnostics, tmp_path)] == ["open/CLAUDE.md"]


def test_a_file_gone_between_walk_and_read_is_nst002(tmp_path: Path) -> None:
    """The read-error path without chmod (root reads any mode): `CLAUDE.md` is listed by the
    walk, then removed before any rule reads it. NST001 does not guess, NST002 reports it."""
    from mnemolint.rules.nested import claude_md_shadowed, memory_file_unreadable

    pair(tmp_path, "different\n")
    settings = load_settings(None, str(tmp_path))
    tree = discover([str(tmp_path)], settings)
    (tmp_path / "CLAUDE.md").unlink()
    assert list(claude_md_shadowed.check(tree, settings.options)) == []
    [claude] = [d for d in tree.documents if d.path.endswith("CLAUDE.md")]
    [hit] = memory_file_unreadable.check(claude, settings.options)
    assert "No such file or directory" in hit.message


def test_a_file_too_large_to_read_is_nst002(tmp_path: Path) -> None:
    """Over `max-file-bytes` an instruction file is not read: NST002 says so, NST001 does not
    compare a text it never read."""
    pair(tmp_path, "x" * 5_000)
    diagnostics = check(tmp_path, max_file_bytes=1_000)
    [(path, message)] = found(diagnostics, tmp_path, "NST002")
    assert path == "CLAUDE.md" and "over max-file-bytes (1,000)" in message
    assert found(diagnostics, tmp_path) == []


def test_nst001_counts_dot_claude_claude_md_beside_agents_md(tmp_path: Path) -> None:
    """Claude Code reads `.claude/CLAUDE.md` as the folder's own (claudemd.ts:878-933); Wave still
    reads only `AGENTS.md` there."""
    write_tree(tmp_path, {"AGENTS.md": "Run the tests.\n", ".claude/CLAUDE.md": "Run make.\n"})
    assert [path for path, _ in found(check(tmp_path), tmp_path)] == [".claude/CLAUDE.md"]
    write_tree(tmp_path, {".claude/CLAUDE.md": "@../AGENTS.md\n"})
    assert found(check(tmp_path), tmp_path) == []


def test_nst001_holds_when_claude_md_is_named_alone(tmp_path: Path) -> None:
    """pre-commit passes the changed file only: the `AGENTS.md` beside it is read for context."""
    write_tree(tmp_path, {"AGENTS.md": "Run the tests.\n", "CLAUDE.md": "Run make.\n"})
    settings = load_settings(None, str(tmp_path))
    settings.select = ["NST001"]
    result = lint([str(tmp_path / "CLAUDE.md")], settings)
    assert [os.path.basename(d.path) for d in result.diagnostics] == ["CLAUDE.md"]


def test_nst001_an_import_in_an_html_comment_is_no_import(tmp_path: Path) -> None:
    """Claude Code skips `@paths` inside HTML comments (READERS.md B): the file is not imported."""
    write_tree(tmp_path, {"AGENTS.md": "Run the tests.\n", "CLAUDE.md": "Intro <!-- @AGENTS.md --> text.\n"})
    [(_, message)] = found(check(tmp_path), tmp_path)
    assert "Its `@AGENTS.md` is inside code or an HTML comment, where Claude Code imports nothing." in message


def test_nst001_is_quiet_when_dot_claude_claude_md_imports_agents_md(tmp_path: Path) -> None:
    """Claude Code reads both `CLAUDE.md` and `.claude/CLAUDE.md`: an import in either brings it."""
    write_tree(
        tmp_path,
        {"AGENTS.md": "Run the tests.\n", "CLAUDE.md": "Also run make.\n", ".claude/CLAUDE.md": "@../AGENTS.md\n"},
    )
    assert found(check(tmp_path), tmp_path) == []
