"""A `.gitignore` that is a symlink or a FIFO: git reads neither, so neither does mnemolint, and
GIT001 says which it is (never "excluded?"), with no fix the writer would refuse."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, run_lint, write_tree

AI_MEMORY = {".ai-memory/project_memory.md": "# P\n", ".ai-memory/20260101/daily.md": "# 工作日志 - [2026-01-01]\n"}


def project(tmp_path: Path, what: str) -> Path:
    root = write_tree(tmp_path / "repo", {**AI_MEMORY, "ignores": ".ai-memory/*/\n"})
    (root / ".git").mkdir()
    if what == "symlink":
        os.symlink("ignores", root / ".gitignore")  # inside the repository, harmless, and still not read by git
    else:
        os.mkfifo(root / ".gitignore")
    return root


@pytest.mark.parametrize(
    ("what", "said"),
    [("symlink", "is a symlink, which git does not read"), ("fifo", "is a named pipe (FIFO), not a file")],
)
def test_git001_says_what_the_gitignore_is_and_offers_no_fix(tmp_path: Path, what: str, said: str) -> None:
    root = project(tmp_path, what)
    [finding] = run_lint(root, select=["GIT001"], now="2026-01-02")
    assert said in finding.message and "mnemolint did not read" in finding.message
    assert "Replace it with a regular file" in finding.message
    assert finding.fix is None
    result = run_cli("check", "--no-cache", "--select", "GIT", "--fix", "--today", "2026-01-02", ".", cwd=root)
    assert "excluded?" not in result.stdout + result.stderr
    assert os.path.islink(root / ".gitignore") or not os.path.isfile(root / ".gitignore")  # left as it was


def test_a_regular_gitignore_with_the_lines_is_quiet(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {**AI_MEMORY, ".gitignore": ".ai-memory/*/\n"})
    (root / ".git").mkdir()
    assert run_lint(root, select=["GIT001"], now="2026-01-02") == []
