"""CIT rules: code is what the Markdown layer says is code, and a citation the memory ties to
another codebase is not judged against this project. Real project files in tmp_path."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import only, run_lint, write_tree

from mnemolint.parse.citations import _FOREIGN, find

TOPIC = "---\nname: Bridge\ndescription: {description}\ntype: reference\n---\n"
INDEX = "- [Bridge](bridge.md) — bridge notes\n"
CODE = "".join(f"line {n}\n" for n in range(1, 11))  # the project's only bridge.ts: 10 lines


def cit002(tmp_path: Path, body: str, description: str = "how the bridge works") -> list[int]:
    """The lines CIT002 reports in a memory saying `body`, in a project whose only `bridge.ts` is short."""
    write_tree(
        tmp_path,
        {
            ".claude/memory/MEMORY.md": INDEX,
            ".claude/memory/bridge.md": TOPIC.format(description=description) + body,
            "src/bridge.ts": CODE,
        },
    )
    return [d.line for d in only(run_lint(tmp_path, select=["CIT"]), "CIT002")]


def test_a_four_backtick_fence_holds_a_three_backtick_line(tmp_path: Path) -> None:
    body = "````markdown\n```\nsrc/bridge.ts:3038\n```\nbridge.ts:40\n````\nAfter: src/bridge.ts:50\n"
    assert cit002(tmp_path, body) == [12]  # only the line after the fence closed


def test_indented_code_and_tilde_fences_are_code(tmp_path: Path) -> None:
    body = "Text.\n\n    src/bridge.ts:3038\n\n~~~~\n~~~\nbridge.ts:40\n~~~~\nsrc/bridge.ts:50\n"
    assert cit002(tmp_path, body) == [14]


def test_a_text_too_large_to_parse_has_its_fences_closed_as_commonmark_closes_them() -> None:
    filler = ["x" * 99] * 3000  # 300 KB: over the Markdown layer's cap
    lines = [*filler, "````", "```", "a/b.py:1", "```", "````", "c/d.py:2", "``` not a fence `", "e/f.py:3"]
    assert [c.path for c in find(lines)] == ["c/d.py", "e/f.py"]


@pytest.mark.parametrize(
    "body",
    [
        "In the claude-code repo, the bridge loop is at bridge.ts:3038.\n",
        "Upstream, the bridge loop is at bridge.ts:3038.\n",
        "See https://github.com/anthropics/claude-code/blob/main/src/bridge.ts — bridge.ts:3038.\n",
        "anthropics/claude-code@1a2b3c4d: bridge.ts:3038\n",
        "Fixed in anthropics/claude-code#512 (bridge.ts:3038).\n",
        "Another repository's bridge.ts:3038 does it differently.\n",
        "## Notes on the upstream bridge\n\nThe loop: bridge.ts:3038.\n\n### Detail\n\nbridge.ts:3050\n",
    ],
    ids=["in-the-x-repo", "upstream", "code-host-url", "owner-repo-at-sha", "owner-repo-issue", "another", "heading"],
)
def test_a_citation_of_another_codebase_is_not_judged_here(tmp_path: Path, body: str) -> None:
    assert cit002(tmp_path, body) == []


def test_a_frontmatter_about_another_codebase_covers_the_whole_memory(tmp_path: Path) -> None:
    assert cit002(tmp_path, "The loop: bridge.ts:3038.\n", description="the other repository's bridge") == []


@pytest.mark.parametrize(
    "body",
    [
        "The bridge loop is at bridge.ts:3038.\n",
        "In this repo, the bridge loop is at bridge.ts:3038.\n",
        "In the main repo: src/bridge.ts:3038\n",
        "## Upstream notes\n\nx\n\n## Ours\n\nsrc/bridge.ts:3038\n",  # a later heading of the same level ends it
    ],
    ids=["plain", "this-repo", "the-main-repo", "after-the-heading"],
)
def test_a_citation_of_this_project_is_still_judged(tmp_path: Path, body: str) -> None:
    assert cit002(tmp_path, body)


@pytest.mark.parametrize("unit", ["a-", "in ", "repo ", "x/", "in the a", "---/", "repo a/b", "a/b@"])
def test_the_foreign_pattern_is_linear_on_a_megabyte_line(unit: str) -> None:
    """About a second on a busy machine; a square on 1 MB would take hours."""
    line = unit * ((1 << 20) // len(unit))
    started = time.perf_counter()
    _FOREIGN.search(line)
    assert time.perf_counter() - started < 15
