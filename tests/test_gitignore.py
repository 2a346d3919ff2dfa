"""GIT001–GIT003 and the ignore evaluation behind them, cross-checked with git in real repositories."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import GIT_ENV, codes, git, preview_settings, run_cli, run_lint, write_tree

from mnemolint.fix import fixer
from mnemolint.kinds.gitignore import Ignores
from mnemolint.options import defaults

NOW = "2026-12-01"
SEED = ".ai-memory/*/\n!.ai-memory/project_memory.md\n!.ai-memory/handoff.md\n"
MEMORY = {
    ".ai-memory/project_memory.md": "# P\n",
    ".ai-memory/handoff.md": "无未完成交接项\n",
    ".ai-memory/20261130/daily.md": "# 工作日志 - [2026-11-30]\n",
}


def lint(root: Path, select: list[str]):
    return run_lint(root, select=select, now=NOW)


# Root and nested .gitignore files: negation, directory-only, anchoring, `**`, character classes,
# escapes, a re-include under an excluded directory (which git never honours), trailing spaces.
GITIGNORES = {
    ".gitignore": "\n".join(
        [
            "# comment",
            "*.log",
            "!keep.log",
            "/build/",
            "docs/**/*.tmp",
            "cache/",
            "!cache/keep.txt",
            "secret[0-9].md",
            r"\#hash.md",
            "trailing.md   ",
            ".ai-memory/*/",
            "!.ai-memory/project_memory.md",
            "!.ai-memory/handoff.md",
            "a/**/b",
            "*.bak",
            "",
        ]
    ),
    "sub/.gitignore": "*.md\n!README.md\n/local/\n",
    ".ai-memory/.gitignore": "!20261130/\n",
}
PATHS = [
    "x.log",
    "keep.log",
    "sub/keep.log",
    "build/out.js",
    "src/build/out.js",
    "docs/a/b/c.tmp",
    "docs/c.tmp",
    "cache/keep.txt",
    "cache/x.txt",
    "secret1.md",
    "secretx.md",
    "#hash.md",
    "trailing.md",
    "sub/notes.md",
    "sub/README.md",
    "sub/local/x.txt",
    "local/x.txt",
    ".ai-memory/project_memory.md",
    ".ai-memory/handoff.md",
    ".ai-memory/20261130/daily.md",
    ".ai-memory/20261129/daily.md",
    "a/b",
    "a/x/y/b",
    "old.bak",
    "sub/deeper/old.bak",
]


def test_ignore_status_agrees_with_git_check_ignore(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**GITIGNORES, **{path: "x\n" for path in PATHS}})
    git("init", "-q", cwd=root)
    ignores = Ignores(str(root), {}, defaults())
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=root,
        input="\n".join(PATHS) + "\n",
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        timeout=60,
    )
    by_git = set(done.stdout.split("\n")) - {""}
    ours = {path for path in PATHS if ignores.check(str(root / path)).ignored}
    assert ours == by_git
    assert len(by_git) >= 10 and len(set(PATHS) - by_git) >= 8  # both outcomes well exercised


def test_the_line_responsible_is_named(tmp_path: Path) -> None:
    root = write_tree(tmp_path, GITIGNORES)
    verdict = Ignores(str(root), {}, defaults()).check(str(root / "sub" / "notes.md"))
    assert verdict.ignored and verdict.source is not None
    assert (verdict.source.path, verdict.source.line, verdict.source.pattern) == (
        str(root / "sub/.gitignore"),
        1,
        "*.md",
    )


def test_git001_fires_without_the_seed_lines_and_not_with_them(tree) -> None:
    root = tree({**MEMORY, ".gitignore": "node_modules/\n"})
    [finding] = lint(root, ["GIT"])
    assert (finding.code, finding.path, finding.line) == ("GIT001", str(root / ".gitignore"), None)
    assert "`.ai-memory/20261130/`" in finding.message
    assert lint(tree({".gitignore": SEED}), ["GIT"]) == []


def test_git001_points_at_the_line_that_re_includes_the_logs(tree) -> None:
    root = tree({**MEMORY, ".gitignore": SEED + "!.ai-memory/20261130/\n"})
    [finding] = lint(root, ["GIT001"])
    assert finding.line == 4 and "re-includes them" in finding.message


def fix(root: Path):
    return fixer.fix([str(root)], preview_settings(root), write=True)


def test_git001_fix_creates_the_gitignore_and_a_second_fix_changes_nothing(tmp_path: Path) -> None:
    root = write_tree(tmp_path, MEMORY)
    outcome = fix(root)
    assert (root / ".gitignore").read_text() == SEED
    assert "GIT001" in codes(outcome.fixed) and not [d for d in outcome.diagnostics if d.code.startswith("GIT")]
    again = fix(root)
    assert again.changes == {} and (root / ".gitignore").read_text() == SEED


def test_git001_fix_appends_the_missing_lines_in_the_files_line_endings(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**MEMORY, ".gitignore": "node_modules/\r\n!.ai-memory/handoff.md"})
    fix(root)
    written = (root / ".gitignore").read_bytes()
    assert written == b"node_modules/\r\n!.ai-memory/handoff.md\r\n.ai-memory/*/\r\n!.ai-memory/project_memory.md\r\n"
    assert [name for name in os.listdir(root) if name.startswith(".gitignore")] == [".gitignore"]  # no temp, no lock


def test_git002_fix_keeps_the_directory_line_as_a_comment_and_git_agrees(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**MEMORY, ".gitignore": "*.log\n.ai-memory/\n"})
    git("init", "-q", cwd=root)
    found = lint(root, ["GIT"])
    assert [(finding.code, finding.line) for finding in found] == [("GIT002", 2), ("GIT002", 2)]
    fix(root)
    assert (root / ".gitignore").read_text() == "*.log\n# .ai-memory/\n" + SEED
    assert fix(root).changes == {}
    status = git("status", "--porcelain", "--untracked-files=all", cwd=root)
    assert ".ai-memory/project_memory.md" in status and ".ai-memory/handoff.md" in status
    assert "daily.md" not in status


def test_git002_fix_appends_a_re_include_when_that_is_enough(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**MEMORY, ".gitignore": ".ai-memory/*/\n*.md\n"})
    fix(root)
    text = (root / ".gitignore").read_text()
    assert text == ".ai-memory/*/\n*.md\n!.ai-memory/project_memory.md\n!.ai-memory/handoff.md\n"
    assert lint(root, ["GIT"]) == []


def test_git003_tracked_logs_with_the_command_and_never_outside_git(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {**MEMORY, ".gitignore": SEED})
    assert lint(root, ["GIT003"]) == []  # no work tree: nothing tracked
    git("init", "-q", cwd=root)
    git("add", "-f", ".", cwd=root)
    [finding] = lint(root, ["GIT003"])
    assert finding.path == str(root / ".ai-memory" / "20261130" / "daily.md")
    assert "`git rm --cached -- .ai-memory/20261130/daily.md`" in finding.message


def test_without_git_on_the_path_nothing_fails(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**MEMORY, ".gitignore": SEED})
    git("init", "-q", cwd=root)
    git("add", "-f", ".", cwd=root)
    result = run_cli("check", "--select", "GIT,AIM010", str(root), env={"PATH": str(tmp_path / "no-bin")})
    assert (result.returncode, result.stderr) == (0, ""), result.stdout + result.stderr


@pytest.mark.parametrize("name", ["project_memory.md", "handoff.md"])
def test_git002_even_before_the_shared_file_exists(tree, name: str) -> None:
    root = tree({".ai-memory/20261130/daily.md": "x\n", ".gitignore": f".ai-memory/*/\n.ai-memory/{name}\n"})
    assert codes(lint(root, ["GIT"])) == ["GIT002"]


def test_a_line_pathspec_cannot_compile_is_left_out_not_a_crash(tree) -> None:
    root = tree({**MEMORY, ".gitignore": "[Y-M]\n" + SEED})
    assert lint(root, ["GIT"]) == []
