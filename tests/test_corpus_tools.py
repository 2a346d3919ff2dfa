"""tools/corpus: the collector picks a repository's memory files into a manifest and rebuilds a
tree the rules read as they would read the repository (placeholders with the real line counts,
links as they were, one git commit); the fix check tells a moved line from a lost one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

TOOLS = Path(__file__).resolve().parents[1] / "tools" / "corpus"
sys.path.insert(0, str(TOOLS))

import collect  # noqa: E402
import fixcheck  # noqa: E402

GIT = [*collect.GIT, "-c", "user.name=t", "-c", "user.email=t@invalid"]


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    """A fetched repository as the search tool leaves it: a bare git dir at <owner>+<name>/repo."""
    work = write_tree(
        tmp_path / "work",
        {
            ".claude/memory/MEMORY.md": "- [Build](build.md) — see `src/app.py:2` and `src/app.py:9`\n",
            ".claude/memory/build.md": "---\nname: build\ndescription: how to build\ntype: project\n---\nrun make\n",
            ".claude/rules/py.md": "---\npaths: ['src/**/*.py']\n---\nuse types\n",
            "AGENTS.md": "@docs/guide.md\n",
            "docs/guide.md": "guide\n",
            "docs/other.md": "not imported\n",
            "src/app.py": "a = 1\nb = 2\nc = 3\n",
            "logo.png": b"\x89PNG\0\0\n\n",
            ".gitignore": "*.log\n",
        },
    )
    os.symlink("../docs/guide.md", work / "src" / "guide-link.md")
    subprocess.run([*GIT, "-C", str(work), "init", "-q"], check=True)
    subprocess.run([*GIT, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(work), "commit", "-q", "-m", "x"], check=True)
    bare = tmp_path / "mirrors" / "someone+memories" / "repo"
    subprocess.run([*GIT, "clone", "-q", "--bare", str(work), str(bare)], check=True)
    return bare


def test_select_takes_the_memory_files_and_what_they_import(mirror: Path) -> None:
    commit = collect.git(str(mirror), "rev-parse", "HEAD").decode().strip()
    rows = {row["path"]: row for row in collect.select(str(mirror), "someone/memories", commit)}
    assert {path: row["kind"] for path, row in rows.items()} == {
        ".claude/memory/MEMORY.md": "memory-index",
        ".claude/memory/build.md": "memory-topic",
        ".claude/rules/py.md": "claude-rule",
        "AGENTS.md": "root-instructions",
        "docs/guide.md": "import",
        ".gitignore": "gitignore",
    }
    assert {row["split"] for row in rows.values()} == {collect.split("someone/memories")}
    assert rows["AGENTS.md"]["bytes"] == str(len("@docs/guide.md\n"))


def test_build_rebuilds_a_tree_the_rules_read_like_the_repository(mirror: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.tsv"
    result = subprocess.run(
        [sys.executable, str(TOOLS / "collect.py"), "select", "--mirror", str(mirror), "--repo", "someone/memories"],
        capture_output=True,
        text=True,
        check=True,
    )
    manifest.write_text("\t".join(collect.COLUMNS) + "\n" + result.stdout, encoding="utf-8")
    out = tmp_path / "out"
    build = [sys.executable, str(TOOLS / "collect.py"), "build", "--manifest", str(manifest), "--out", str(out)]
    subprocess.run([*build, "--mirrors", str(tmp_path / "mirrors")], check=True, capture_output=True)
    root = out / "someone__memories"
    assert (root / "src" / "app.py").read_bytes() == b"\n\n\n"  # three lines, no code
    assert (root / "docs" / "other.md").read_bytes() == b"\n"
    assert (root / "logo.png").read_bytes() == b""  # binary: no lines to count
    assert (root / "docs" / "guide.md").read_text() == "guide\n"
    assert os.readlink(root / "src" / "guide-link.md") == "../docs/guide.md"
    tracked = subprocess.run([*GIT, "-C", str(root), "ls-files"], capture_output=True, text=True, check=True)
    assert "src/app.py" in tracked.stdout.split("\n")

    findings = json.loads(run_cli("check", "--output-format", "json", ".", cwd=root).stdout)
    cited = [f for f in findings if f["code"] == "CIT002"]
    assert [f["message"].split("`")[1] for f in cited] == ["src/app.py:9"]  # line 2 is there, 9 is not
    assert not [f for f in findings if f["code"] == "WAV002"]  # `src/**/*.py` meets the placeholder


def test_build_refuses_content_that_is_not_the_manifests(mirror: Path, tmp_path: Path) -> None:
    commit = collect.git(str(mirror), "rev-parse", "HEAD").decode().strip()
    rows = collect.select(str(mirror), "someone/memories", commit)
    rows[0]["sha256"] = "0" * 64
    with pytest.raises(SystemExit, match="differs from the manifest"):
        collect.build(rows, "someone/memories", str(mirror), tmp_path / "out")


def test_a_path_out_of_the_tree_is_refused(tmp_path: Path) -> None:
    for bad in ("../x", "/etc/x", "a/../../x", ".git/hooks/post-checkout"):
        with pytest.raises(ValueError):
            collect.safe_target(tmp_path, bad)


def test_the_split_is_fixed_by_the_name_and_written_down() -> None:
    """sha256 of the name, first byte even: tuning. The shared corpus was tuned on, whatever its hash."""
    assert collect.split("0SxD/memory-export") == "held-out"  # first byte 3
    rows = collect.read_manifest(Path(__file__).parent / "corpus" / "split2.tsv")
    for row in rows:
        assert row["by_hash"] == collect.split(row["repo"])
        assert row["used_as"] == ("tuning" if row["origin"] == "shared-corpus" else row["by_hash"])
    listed = {row["repo"] for row in collect.read_manifest(Path(__file__).parent / "corpus" / "manifest2.tsv")}
    assert listed == {row["repo"] for row in rows if row["origin"] == "manifest2"}


def test_fixcheck_tells_moved_and_re_encoded_lines_from_lost_ones() -> None:
    before = b"# Index\r\n- [A](a.md) \xe2\x80\x94 alpha\r\n- [B](b.md) \xe2\x80\x94 beta\r\n\r\n"
    reordered = b"# Index\n- [B](b.md) \xe2\x80\x94 beta\n- [A](a.md) \xe2\x80\x94 alpha\n- [C](c.md)\n"
    fates = fixcheck.compare(before, reordered)
    assert fates["lost"] == 0 and fates["added"] == 1 and fates["blank"] == 1
    rewritten = b"# Index\n- [a](a.md) \xe2\x80\x94 generated\n- [B](b.md) \xe2\x80\x94 beta\n"
    assert fixcheck.compare(before, rewritten)["lost"] == 1
