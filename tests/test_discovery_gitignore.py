"""`respect-gitignore`: in a git work tree, what its `.gitignore` files ignore is not walked, as
ruff does, judged by mnemolint's own ignore engine (never by running git) and cross-checked with
git itself; where an agent's convention keeps files out of git that it loads, they are linted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import git, run_cli, write_tree
from hypothesis import example, given
from hypothesis import strategies as st

BROKEN = "- [Gone](gone.md) — a deleted topic\n"
TOPIC = "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n"


def reported(*args: str, cwd: Path, env: dict[str, str] | None = None) -> set[str]:
    process = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=cwd, env=env)
    assert process.returncode in (0, 1), process.stderr
    assert "Traceback" not in process.stderr
    return {finding["path"] for finding in json.loads(process.stdout)}


def shown(*args: str, cwd: Path, env: dict[str, str] | None = None) -> set[str]:
    process = run_cli("check", "--show-files", *args, cwd=cwd, env=env)
    assert process.returncode == 0, process.stderr
    return {line.split("\t")[0] for line in process.stdout.splitlines()}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_tree(
        tmp_path,
        {
            ".gitignore": "build/\n",
            "memory/MEMORY.md": BROKEN,
            "build/memory/MEMORY.md": BROKEN,
        },
    )
    git("init", "-q", cwd=root)
    return root


def test_an_ignored_memory_dir_is_not_linted(repo: Path) -> None:
    assert reported(cwd=repo) == {"memory/MEMORY.md"}


@pytest.mark.parametrize("how", ["flag", "config"])
def test_respect_gitignore_turned_off(repo: Path, how: str) -> None:
    if how == "config":
        (repo / "mnemolint.toml").write_text("respect-gitignore = false\n", encoding="utf-8")
    flags = ["--no-respect-gitignore"] if how == "flag" else []
    assert reported(*flags, cwd=repo) == {"memory/MEMORY.md", "build/memory/MEMORY.md"}


def test_the_flag_beats_the_config(repo: Path) -> None:
    (repo / "mnemolint.toml").write_text("respect-gitignore = false\n", encoding="utf-8")
    assert reported("--respect-gitignore", cwd=repo) == {"memory/MEMORY.md"}


@pytest.mark.parametrize("named", ["build", "build/memory", "build/memory/MEMORY.md"])
def test_a_named_path_is_linted_though_ignored(repo: Path, named: str) -> None:
    """As in ruff, the ignore rules prune the walk; what the user names is linted."""
    assert reported(named, cwd=repo) == {"build/memory/MEMORY.md"}


def test_outside_a_git_work_tree_no_gitignore_counts(repo: Path) -> None:
    """git and ruff read `.gitignore` only in a work tree: a copy without `.git` lints everything."""
    import shutil

    shutil.rmtree(repo / ".git")
    assert reported(cwd=repo) == {"memory/MEMORY.md", "build/memory/MEMORY.md"}


def test_git_is_never_run_for_it(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """With no git on PATH the answer is the same: the walk reads the `.gitignore` files itself."""
    empty = tmp_path_factory.mktemp("no-git-here")
    assert reported(cwd=repo, env={"PATH": str(empty)}) == {"memory/MEMORY.md"}


# Patterns of every shape git knows, in nested files: the files mnemolint walks must be exactly
# those git does not ignore (`git ls-files --others --exclude-standard`).
GITIGNORES = {
    ".gitignore": "*.tmp.md\n/top-only/\ndeep/**/drafts/\n!keep.tmp.md\nnotes/*\n!notes/memory/\nsecret[0-9]/\n",
    "team/.gitignore": "*.md\n!MEMORY.md\n!/kept/**\n",
    "memory/.gitignore": "private.md\n",
}
FILES = [
    "memory/MEMORY.md",
    "memory/a.md",
    "memory/private.md",
    "memory/x.tmp.md",
    "memory/keep.tmp.md",
    "top-only/memory/MEMORY.md",
    "sub/top-only/memory/MEMORY.md",
    "deep/a/b/drafts/memory/MEMORY.md",
    "deep/a/b/final/memory/MEMORY.md",
    "notes/memory/MEMORY.md",
    "notes/other/memory/MEMORY.md",
    "secret1/memory/MEMORY.md",
    "team/memory/MEMORY.md",
    "team/memory/topic.md",
    "team/kept/memory/MEMORY.md",
    "team/kept/memory/topic.md",
]


def test_the_walk_agrees_with_git(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**GITIGNORES, **{path: TOPIC for path in FILES}})
    git("init", "-q", cwd=root)
    not_ignored = set(git("ls-files", "--others", "--exclude-standard", cwd=root).split())
    walked = shown(cwd=root)
    assert walked - not_ignored == set()  # nothing git ignores is walked
    assert {path for path in FILES if path in not_ignored} <= walked  # every memory file git keeps is
    assert {"memory/private.md", "team/memory/topic.md", "deep/a/b/drafts/memory/MEMORY.md"}.isdisjoint(walked)
    assert {"team/kept/memory/topic.md", "memory/keep.tmp.md", "notes/memory/MEMORY.md"} <= walked


def test_what_an_agent_loads_though_its_convention_ignores_it(tmp_path: Path) -> None:
    """`CLAUDE.local.md` is Claude Code's personal file and the `.ai-memory` skill ignores its dated
    logs on purpose: both are loaded by the agent, so both are linted, ignored or not."""
    root = write_tree(
        tmp_path,
        {
            ".gitignore": "CLAUDE.local.md\n.ai-memory/*/\n!.ai-memory/project_memory.md\n!.ai-memory/handoff.md\n",
            "CLAUDE.md": "# Project\n",
            "CLAUDE.local.md": "# Mine\n",
            ".ai-memory/project_memory.md": "# P\n",
            ".ai-memory/handoff.md": "none\n",
            ".ai-memory/20261130/daily.md": "# log\n",
        },
    )
    git("init", "-q", cwd=root)
    walked = shown(cwd=root)
    assert {"CLAUDE.local.md", ".ai-memory/20261130/daily.md", "CLAUDE.md"} <= walked
    (root / ".gitignore").write_text(".ai-memory/\n", encoding="utf-8")  # the whole dir: GIT002's case
    assert ".ai-memory/project_memory.md" in shown(cwd=root)
    codes = {
        finding["code"]
        for finding in json.loads(
            run_cli("check", "--no-cache", "--output-format", "json", "--now", "2026-12-01", cwd=root).stdout
        )
    }
    assert "GIT002" in codes  # the shared files ignored: reported, since the dir was still walked


def test_an_ignored_symlink_is_left_where_it_is(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {".gitignore": "linked\n", "memory/MEMORY.md": "- [A](a.md) — About a\n"})
    (root / "memory" / "a.md").write_text(TOPIC, encoding="utf-8")
    os.symlink("/etc", root / "memory" / "linked")
    git("init", "-q", cwd=root)
    process = run_cli("check", "--no-cache", "--output-format", "json", cwd=root)
    assert "LNK" not in process.stdout  # git ignores the link by its name, so mnemolint does too
    process = run_cli("check", "--no-cache", "--output-format", "json", "--no-respect-gitignore", cwd=root)
    assert "LNK006" in process.stdout


def test_a_hostile_gitignore_costs_bounded_time(tmp_path: Path) -> None:
    """1 MB of many-wildcard lines against long names: the walk's answers stay linear (safe_regex)."""
    lines = "".join(f"*a*a*a*a*a*a*a*a*a*a*b{index}\n" for index in range(40_000))[:1_000_000]
    files = {".gitignore": lines, "memory/MEMORY.md": "- [A](a.md) — About a\n", "memory/a.md": TOPIC}
    files.update({f"memory/{'a' * 200}{index}.txt": "x\n" for index in range(30)})
    root = write_tree(tmp_path, files)
    git("init", "-q", cwd=root)
    start = time.monotonic()
    assert shown(cwd=root) >= {"memory/MEMORY.md", "memory/a.md"}
    assert time.monotonic() - start < 30


# The common lines are read without importing pathspec (~100 ms at start-up, on every commit):
# their expression must be exactly the one pathspec makes, or the line is left to pathspec.
COMMON = ["build/", "/build/", "/dist", "node_modules", "a/b", "docs/api/", "*.log", "!keep.log", ".env", "*.egg-info/"]
COMMON += ["", "   ", "# a comment", "日本語/", "é.md", "a.b-c_d~", "!/x/y/"]


@given(st.lists(st.sampled_from([*"ab./*!# -_é\\[]?", "**"]), max_size=8).map("".join))
@example("foo   ")
@example("!")
@example("./x")
def test_a_common_line_is_read_as_pathspec_reads_it(line: str) -> None:
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    from mnemolint.kinds.gitignore import _simple

    ours = _simple(line)
    if ours is not None:
        assert ours == GitIgnoreSpecPattern.pattern_to_regex(line)


@pytest.mark.parametrize("line", COMMON)
def test_the_common_lines_are_ours_to_read(line: str) -> None:
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    from mnemolint.kinds.gitignore import _simple

    assert _simple(line) == GitIgnoreSpecPattern.pattern_to_regex(line)


def test_a_common_gitignore_costs_no_pathspec_import(repo: Path) -> None:
    (repo / ".gitignore").write_text("\n".join(COMMON) + "\n", encoding="utf-8")
    script = (
        "import sys\nfrom mnemolint.cli import main\nmain(['check', '--no-cache', '-q'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('pathspec')))\n"
    )
    process = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=60)
    assert process.stdout.strip().splitlines()[-1] == "[]", process.stderr
