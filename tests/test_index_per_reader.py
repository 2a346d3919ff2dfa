"""MEM101/MEM102 count `MEMORY.md` the way the agent that reads the dir does (load.py; READERS.md
§3 and B): Claude Code's project memory without its frontmatter and block-level HTML comments,
Wave's raw; where the reader is not known (a plain `memory/`), the stricter count, naming the agent."""

from __future__ import annotations

from pathlib import Path

from conftest import run_lint, write_tree

COMMENTED = "<!--\n" + "".join(f"old entry {number}\n" for number in range(60)) + "-->\n"
ENTRIES = "".join(f"- [T{number}](t{number}.md) — topic {number}\n" for number in range(150))


def index_findings(root: Path, code: str = "MEM101") -> list[tuple[int | None, str]]:
    return [(d.line, d.message) for d in run_lint(root, select=[code]) if d.code == code]


def test_a_commented_block_does_not_put_a_claude_index_over_its_cap(tmp_path: Path) -> None:
    write_tree(tmp_path, {".claude/projects/p/memory/MEMORY.md": COMMENTED + ENTRIES})
    assert index_findings(tmp_path) == []
    assert index_findings(tmp_path, "MEM102") == []  # 150 of 200 lines once the comment is gone


def test_wave_counts_the_same_index_raw(tmp_path: Path) -> None:
    write_tree(tmp_path, {".wave/projects/p/memory/MEMORY.md": COMMENTED + ENTRIES})
    [(line, message)] = index_findings(tmp_path)
    assert line == 201 and "212 lines (limit: 200)" in message and "Claude Code" not in message


def test_unknown_reader_reports_the_stricter_count_and_names_the_agent(tmp_path: Path) -> None:
    write_tree(tmp_path, {"memory/MEMORY.md": COMMENTED + ENTRIES})
    [(line, message)] = index_findings(tmp_path)
    assert line == 201
    assert "That is Wave's count; Claude Code, which strips the frontmatter and block-level HTML comments " in message
    assert "loads all of it." in message


def test_claude_over_its_cap_in_its_own_words(tmp_path: Path) -> None:
    entries = "".join(f"- [T{number}](t{number}.md) — topic {number}\n" for number in range(230))
    write_tree(tmp_path, {".claude/projects/p/memory/MEMORY.md": "---\nname: index\n---\n" + entries})
    [(line, message)] = index_findings(tmp_path)
    assert line == 204  # the first dropped line in the file, below the frontmatter Claude Code strips
    assert message.startswith("MEMORY.md is 230 lines (limit: 200): Claude Code loads only 200 of 230 lines")
    assert message.endswith(
        "It warns: > WARNING: MEMORY.md is 230 lines (limit: 200). Only part of it was loaded: 30 of 230 lines "
        'were cut off, starting at line 201 ("- [T200](t200.md) — topic 200"). Keep index entries to one line '
        "under ~200 chars; move detail into topic files."
    )


def test_claude_kilobyte_figures_when_over_the_characters(tmp_path: Path) -> None:
    write_tree(tmp_path, {".claude/projects/p/memory/MEMORY.md": ("- " + "x" * 148 + "\n") * 180})
    [(_, message)] = index_findings(tmp_path)
    assert "27,179 characters (limit: 25,000)" in message
    assert "> WARNING: MEMORY.md is 26.5KB (limit: 24.4KB) — index entries are too long." in message


def test_claude_one_line_over_the_cap_says_line_one_is_cut(tmp_path: Path) -> None:
    write_tree(tmp_path, {".claude/projects/p/memory/MEMORY.md": "---\nname: i\n---\n- " + "y" * 30_000 + "\n"})
    [(line, message)] = index_findings(tmp_path)
    assert line == 4  # the file's line that is cut, below the frontmatter
    assert "Claude Code loads only the first 25,000 characters of its line 1" in message
    assert "1 of 1 lines" not in message and "0 lines" not in message
    assert message.endswith(
        "Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off. Keep "
        "index entries to one line under ~200 chars; move detail into topic files."
    )


def test_claude_agent_memory_counts_the_raw_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {".claude/agent-memory/reviewer/MEMORY.md": COMMENTED + ENTRIES})
    [(line, message)] = index_findings(tmp_path)
    assert line == 201 and "212 lines (limit: 200)" in message and "That is" not in message
