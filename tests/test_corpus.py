"""Real memory files people wrote (tests/corpus, copied from shared/corpus): the shapes the
seeds never show, each handled on purpose — a finding where the agent loses something, silence
where it does not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli

CORPUS = Path(__file__).resolve().parent / "corpus"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(scope="module")
def findings() -> list[dict]:
    result = run_cli("check", "--output-format", "json", ".", cwd=CORPUS)
    assert result.returncode == 1
    assert result.stderr == ""
    return json.loads(result.stdout)


def where(findings: list[dict], code: str, path: str) -> list[dict]:
    return [f for f in findings if f["code"] == code and f["path"] == path]


def test_an_index_over_the_character_cap_in_110_lines(findings: list[dict]) -> None:
    """Zeta: 50 KB in 110 lines — line length, not line count, makes the agent lose 49 lines."""
    [finding] = where(findings, "MEM101", "Lucent-Financial-Group__Zeta/memory/MEMORY.md")
    assert finding["line"] == 62
    assert finding["message"].startswith(
        "MEMORY.md is 50,056 characters (limit: 25,000): the agent loads only 61 of 110 lines; "
        "49 lines are cut off, starting at line 62"
    )


def test_block_scalar_descriptions_are_read_as_their_folded_text(findings: list[dict]) -> None:
    """`description: >-` is valid YAML whose value is the folded text, never `>-`."""
    zeta = "Lucent-Financial-Group__Zeta/memory/"
    assert not [f for f in findings if f["code"].startswith("FM00") and f["code"] != "FM004" and zeta in f["path"]]
    [long] = where(
        findings,
        "MEM204",
        zeta + "feedback_aaron_accepts_death_trajectories_carry_into_4th_control_structure_substrate_"
        "persists_across_transition_2026_05_12.md",
    )
    assert long["message"].startswith("Description is 672 characters")


def test_a_link_inside_an_html_comment_template_is_not_a_link(findings: list[dict]) -> None:
    index = "Adam-S-Daniel__agentskills/.claude/memory/MEMORY.md"
    assert where(findings, "MEM104", index) == []
    assert len(where(findings, "MEM103", index)) == 2


def test_a_table_index_is_pointers_not_content(findings: list[dict]) -> None:
    """Morrison-Lab writes its index as a table: only the prose above it is content."""
    [content] = where(findings, "MEM108", "Morrison-Lab__ai-config/memories/MEMORY.md")
    assert (content["line"], content["end_line"]) == (3, 11)


def test_type_nested_under_metadata_counts_for_claude_code(findings: list[dict]) -> None:
    memory = "millsks__my-claude-setup/claude/memory/"
    assert not [f for f in findings if f["path"].startswith(memory) and f["code"] in ("MEM205", "MEM206")]


def test_a_link_escaping_the_memory_dir_and_a_bom(findings: list[dict]) -> None:
    [escape] = where(findings, "MEM104", "0SxD__memory-export/MEMORY.md")
    assert "points outside the memory dir" in escape["message"] and escape["line"] == 15
    assert where(findings, "TXT001", "0SxD__memory-export/LICENSE-PENDING.md")


def test_readme_beside_topics_is_not_a_topic(findings: list[dict]) -> None:
    assert not [f for f in findings if f["path"].endswith("/README.md")]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared corpus is not beside this clone")
def test_every_memory_dir_of_the_shared_corpus_without_a_traceback() -> None:
    """Smoke test over every repository of shared/corpus, when it is there."""
    repos = sorted(entry.name for entry in os.scandir(SHARED) if entry.is_dir())
    result = run_cli("check", "--output-format", "json", *repos, cwd=SHARED)
    assert result.returncode in (0, 1), result.stderr
    assert result.stderr == ""
    assert isinstance(json.loads(result.stdout), list)
