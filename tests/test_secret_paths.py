"""A token in a file name is masked wherever a path is printed: every format's path field, SARIF
artifact URIs, `--diff` headers and the hook's header (`repro2.sh pathsecret`). A path with no
credential-shaped text is printed byte for byte as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

BODY = "R8x2KqLm9Zt4Wv7Yp3Nc6Hb1Jd5Fg0Se2AqZ"
NAME = f"ghp_{BODY}.md"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            f"r/mem/{NAME}": "---\nname: T\ndescription: t\ntype: user\n---\nt\n",
            "r/mem/MEMORY.md": "# M\n",
            f"r/.claude/rules/{NAME}": '---\npaths: ["x/**"]\n---\nr\n',
        },
    )


@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_every_format_masks_a_token_in_a_path(repo: Path, form: str) -> None:
    result = run_cli("check", "--no-cache", "--output-format", form, "r", cwd=repo)
    assert result.returncode == 1
    assert BODY not in result.stdout + result.stderr
    assert result.stdout.count("ghp_***.md") >= 2


def test_sarif_uris_and_json_paths_are_masked_and_plain_ones_kept(repo: Path) -> None:
    sarif = json.loads(run_cli("check", "--no-cache", "--output-format", "sarif", "r", cwd=repo).stdout)
    uris = sorted(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in sarif["runs"][0]["results"]
    )
    assert uris == ["r/.claude/rules/ghp_***.md", "r/mem/ghp_***.md"]
    (repo / "r/mem" / NAME).rename(repo / "r/mem/plain name%.md")
    found = json.loads(run_cli("check", "--no-cache", "--output-format", "json", "r/mem", cwd=repo).stdout)
    assert [each["path"] for each in found] == ["r/mem/plain name%.md"]


def test_diff_header_masks_the_path(repo: Path) -> None:
    topic = repo / "r/mem" / NAME
    topic.write_text("\ufeff" + topic.read_text(encoding="utf-8"), encoding="utf-8")  # TXT001 drops the BOM
    diff = run_cli("check", "--diff", "--no-cache", "r/mem", cwd=repo)
    assert BODY not in diff.stdout + diff.stderr
    assert diff.stdout.startswith("--- a/r/mem/ghp_***.md\n+++ b/r/mem/ghp_***.md\n")


def test_the_hook_header_masks_the_written_path(repo: Path) -> None:
    event = {"tool_name": "Write", "tool_input": {"file_path": str(repo / "r/.claude/rules" / NAME)}}
    result = run_cli("hook", "post-tool-use", cwd=repo, stdin=json.dumps(event))
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith(f"mnemolint, on the write to {repo}/r/.claude/rules/ghp_***.md: ")
    assert BODY not in result.stdout + result.stderr
