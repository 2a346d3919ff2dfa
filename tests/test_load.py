"""load.py: what each agent keeps of MEMORY.md and the warning it appends, pinned to the agents'
own code (Wave memoryEntrypoint.ts:42-99 at 0ff7440; Claude Code memdir.ts:57-97 and
claudemd.ts:292-385 at v2.1.88; READERS.md §3 and §B)."""

from __future__ import annotations

import pytest

from mnemolint.agents import CLAUDE_CODE, WAVE, memory_reader
from mnemolint.agents.claude_code import kilobytes, strip_block_comments
from mnemolint.load import counted_text, load


def entries(count: int) -> str:
    return "\n".join(f"- [T{number}](t{number}.md) — topic {number}" for number in range(count))


def test_under_both_caps_nothing_is_cut() -> None:
    for reader in (WAVE, CLAUDE_CODE):
        loaded = load("\n\n" + entries(200) + "\n\n", reader)
        assert (loaded.cut, loaded.warning, loaded.lines, loaded.loaded_lines) == (False, None, 200, 200)


def test_wave_names_the_lines_it_drops_and_the_first_of_them() -> None:
    loaded = load(entries(230), WAVE)
    assert (loaded.loaded_lines, loaded.dropped_lines) == (200, 30)
    assert loaded.warning == (
        "> WARNING: MEMORY.md is 230 lines (limit: 200). Only part of it was loaded: 30 of 230 lines were cut "
        'off, starting at line 201 ("- [T200](t200.md) — topic 200"). Keep index entries to one line under '
        "~150 chars; move detail into topic files."
    )


def test_claude_code_gives_sizes_in_kb_and_its_own_advice() -> None:
    text = "\n".join("- [T](t.md) — " + "x" * 200 for _ in range(150))
    loaded = load(text, CLAUDE_CODE)
    assert loaded.warning == (  # Claude Code 2.1.332's text (oracle cl01b): the quote cut to 79 units and `…`
        "> WARNING: MEMORY.md is 31.5KB (limit: 24.4KB) — index entries are too long. Only part of it was "
        f'loaded: 34 of 150 lines were cut off, starting at line 117 ("- [T](t.md) — {"x" * 65}…"). Keep index '
        "entries to one line under ~200 chars; move detail into topic files."
    )
    both = load("\n".join("x" * 200 for _ in range(230)), CLAUDE_CODE)
    assert "is 230 lines and 45.1KB. Only part of it was loaded: 106 of 230 lines were cut off" in both.warning


def test_the_character_cut_falls_at_a_newline_and_the_snippet_is_80_units() -> None:
    text = "short\n" + ("y" * 140 + "\n") * 200
    loaded = load(text, WAVE, max_lines=500)
    assert loaded.loaded.endswith("y") and "\n" + loaded.loaded.rsplit("\n", 1)[1] in text
    assert f'starting at line {loaded.loaded_lines + 1} ("{"y" * 80}")' in loaded.warning
    assert "characters (limit: 25000) — index entries are too long" in loaded.warning


def test_line_one_cut_and_the_one_character_quirk() -> None:
    hard = load("x" * 30_000, WAVE)
    assert "everything after the first 25000 characters of line 1 was cut off" in hard.warning
    quirk = load("a\n" + "x" * 30_000, WAVE)  # READERS.md §3: the cut lands at the newline after "a"
    assert "everything after the first 1 characters of line 1 was cut off" in quirk.warning


def test_astral_characters_count_twice() -> None:
    loaded = load("😀" * 12_600, WAVE)
    assert loaded.chars == 25_200 and "25200 characters (limit: 25000)" in loaded.warning
    assert "first 25000 characters of line 1" in loaded.warning  # JavaScript's slice length


def test_claude_code_strips_frontmatter_and_block_comments_before_counting() -> None:
    """A commented-out block of 60 lines must not put a Claude Code index over its cap."""
    text = "---\nname: index\n---\n<!--\n" + "old entry\n" * 60 + "-->\n\n" + entries(150)
    assert load(text, WAVE).cut
    claude = load(text, CLAUDE_CODE)
    assert (claude.cut, claude.lines) == (False, 150)
    assert counted_text(text, WAVE) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\n<!-- c -->\n\nb", "a\nb"),  # the html token takes the newlines after it
        ("<!-- c --> keep\nb", " keep\nb"),  # residue on the comment's line stays
        ("<!--\nx\n-->\n- a\n", "- a\n"),
        ("x <!-- inline --> y\n", "x <!-- inline --> y\n"),  # inside a paragraph line: kept
        ("<!-- never closed\n- a\n", "<!-- never closed\n- a\n"),  # unclosed: kept
        ("```\n<!-- in code -->\n```\n", "```\n<!-- in code -->\n```\n"),
        ("- item\n  <!-- in the item -->\n", "- item\n  <!-- in the item -->\n"),
        ("a\r\n<!-- c -->\r\nb\r\n", "a\nb\n"),  # marked normalises line endings when it lexes
        ("no comment\r\n", "no comment\r\n"),
    ],
)
def test_block_comments(text: str, expected: str) -> None:
    assert strip_block_comments(text) == expected


@pytest.mark.parametrize(
    ("size", "shown"),
    [  # 1,280 bytes is 1.25 KB exactly: toFixed rounds the tie up
        (500, "500 bytes"),
        (1024, "1KB"),
        (25_000, "24.4KB"),
        (25_700, "25.1KB"),
        (1_048_576, "1MB"),
        (1127, "1.1KB"),
        (1280, "1.3KB"),
    ],
)
def test_kilobytes_as_claude_code_formats_them(size: int, shown: str) -> None:
    assert kilobytes(size) == shown


def test_the_agent_is_taken_from_the_path() -> None:
    assert memory_reader("/h/.wave/projects/x/memory").name == "wave"
    assert memory_reader("/h/.claude/projects/x/memory").name == "claude-code"
    assert memory_reader("/h/notes").name == "claude-code"
