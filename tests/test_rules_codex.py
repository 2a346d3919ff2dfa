"""Codex's `AGENTS.md` chain (load.codex_load, kinds/instructions.codex_chain) and the CDX rules.

Codex reads one file per folder from the git root down (`AGENTS.override.md` first), each up to
what is left of `project_doc_max_bytes`, decoded lossily; a blank file takes no budget
(openai/codex codex-rs/core/src/project_doc.rs @0bd53e4).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import run_cli, run_lint, write_tree

from mnemolint.agents.codex import load as codex_load


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def repo(root: Path, files: dict[str, str | bytes]) -> Path:
    write_tree(root, files)
    git(root, "init", "-q")
    return root


def found(root: Path, code: str, **options: object) -> list[tuple[str, int | None, str]]:
    return [
        (os.path.relpath(d.path, root).replace(os.sep, "/"), d.line, d.message)
        for d in run_lint(root, select=[code], **options)
        if d.code == code
    ]


def test_codex_load_spends_the_budget_root_first_and_skips_blank_files() -> None:
    parts, text = codex_load([("a", b"12345"), ("blank", b"  \n"), ("b", b"6789"), ("c", b"x")], 7)
    assert [(part.path, part.kept, part.budget, part.cut) for part in parts] == [
        ("a", 5, 7, False),
        ("blank", 2, 2, True),  # blank: read, but it takes no budget and joins nothing
        ("b", 2, 2, True),
        ("c", 0, 0, True),
    ]
    assert text == "12345\n\n67"


def test_codex_load_marks_a_split_character() -> None:
    parts, text = codex_load([("a", "aé".encode())], 2)
    assert parts[0].split and text == "a\ufffd"
    parts, _ = codex_load([("a", "aé".encode())], 3)
    assert not parts[0].cut


def test_five_levels_under_a_30_kib_root(tmp_path: Path) -> None:
    """A 30 KiB root starves the nested files: the first nested one is cut (here inside a
    two-byte character), every deeper one dropped."""
    files: dict[str, str | bytes] = {"AGENTS.md": "r" * (30 * 1024) + "\n"}
    files["a/AGENTS.md"] = "a" * 998 + "\n"
    files["a/b/AGENTS.md"] = "b" + "é" * 1000 + "\n"
    files["a/b/c/AGENTS.md"] = "c\n"
    files["a/b/c/d/AGENTS.md"] = "d\n"
    root = repo(tmp_path, files)
    hits = found(root, "CDX001")
    assert [(path, line) for path, line, _ in hits] == [
        ("a/b/AGENTS.md", 1),
        ("a/b/c/AGENTS.md", None),
        ("a/b/c/d/AGENTS.md", None),
    ]
    cut = hits[0][2]
    assert "reads only the first 1,048 of 2,002 bytes" in cut
    assert "U+FFFD" in cut
    assert "`AGENTS.md` (30,721 bytes), `a/AGENTS.md` (999 bytes)" in cut
    assert hits[1][2].startswith("Codex never reads this file (2 bytes)")


def test_quiet_under_the_budget_and_with_a_raised_limit(tmp_path: Path) -> None:
    root = repo(tmp_path, {"AGENTS.md": "r" * 30_000 + "\n", "a/AGENTS.md": "a" * 5_000 + "\n"})
    assert len(found(root, "CDX001")) == 1
    assert found(root, "CDX001", codex_max_bytes=65_536) == []
    assert found(repo(tmp_path / "small", {"AGENTS.md": "short\n", "a/AGENTS.md": "short\n"}), "CDX001") == []


def test_without_git_only_the_folders_own_file_counts(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "r" * 30_000 + "\n", "a/AGENTS.md": "a" * 5_000 + "\n"})
    assert found(tmp_path, "CDX001") == []


def test_the_override_replaces_agents_md_in_the_chain(tmp_path: Path) -> None:
    root = repo(
        tmp_path,
        {"AGENTS.md": "r" * 32_000 + "\n", "AGENTS.override.md": "short\n", "a/AGENTS.md": "a" * 2_000 + "\n"},
    )
    assert found(root, "CDX001") == []  # Codex reads the override, never the big AGENTS.md


def test_cli_codex_max_bytes(tmp_path: Path) -> None:
    root = repo(tmp_path, {"AGENTS.md": "r" * 100 + "\n", "a/AGENTS.md": "a" * 100 + "\n"})
    done = run_cli("check", "--select", "CDX", "--codex-max-bytes", "150", str(root))
    assert done.returncode == 1 and "CDX001" in done.stdout
    assert run_cli("check", "--select", "CDX", str(root)).returncode == 0
    assert run_cli("check", "--codex-max-bytes", "0", str(root)).returncode == 2


def test_cdx002_fires_on_a_tracked_override_only(tmp_path: Path) -> None:
    root = repo(tmp_path, {"AGENTS.md": "shared\n", "AGENTS.override.md": "mine\n", "a/AGENTS.override.md": "x\n"})
    assert found(root, "CDX002") == []
    git(root, "add", "AGENTS.override.md")
    hits = found(root, "CDX002")
    assert [path for path, _, _ in hits] == ["AGENTS.override.md"]
    assert "`AGENTS.md` beside it is never read by Codex" in hits[0][2]


def test_a_hidden_folder_starts_no_chain(tmp_path: Path) -> None:
    """A skill's `AGENTS.md` under `.agents/skills/x/` is read whole on demand, not as a session's chain."""
    root = repo(tmp_path, {".agents/skills/react/AGENTS.md": "r" * 40_000 + "\n"})
    assert found(root, "CDX001") == []
