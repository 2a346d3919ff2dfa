"""The Markdown layer: CommonMark blocks with 1-based line spans, and a size cap instead of a parse."""

from __future__ import annotations

import time

import pytest

from mnemolint.parse import markdown

PAGE = """# Title

Some `code span` and text.

```text file=memory/MEMORY.md
- [A](a.md) — a
## not a heading
```

    indented code

<!-- @hidden.md -->

- item

  ~~~
  in a list
  ~~~
"""


def test_blocks_have_kinds_and_line_spans() -> None:
    found = [(block.kind, block.start_line, block.end_line) for block in markdown.blocks(PAGE)]
    assert found == [
        ("heading", 1, 1),
        ("paragraph", 3, 3),
        ("fence", 5, 8),
        ("code", 10, 10),
        ("html", 12, 12),
        ("paragraph", 14, 14),
        ("fence", 16, 18),
    ]


def test_fences_carry_info_and_body() -> None:
    first, nested = markdown.fences(PAGE)
    assert first.info == "text file=memory/MEMORY.md"
    assert first.content == "- [A](a.md) — a\n## not a heading\n"
    assert nested.content == "in a list\n"


def test_a_heading_inside_a_fence_is_content() -> None:
    headings = [block for block in markdown.blocks(PAGE) if block.kind == markdown.HEADING]
    assert [(block.level, block.content) for block in headings] == [(1, "Title")]


def test_code_lines_cover_fences_indented_code_and_html() -> None:
    assert markdown.code_lines(PAGE) == {5, 6, 7, 8, 10, 12, 16, 17, 18}


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert [(b.kind, b.start_line, b.end_line) for b in markdown.blocks("text\n\n```\ncode\nmore\n")] == [
        ("paragraph", 1, 1),
        ("fence", 3, 5),
    ]


def test_text_over_the_cap_is_not_parsed() -> None:
    huge = "x" * (markdown.MAX_CHARS + 1)
    assert markdown.blocks(huge) is None
    assert markdown.code_lines(huge) is None
    assert markdown.fences(huge) == []


@pytest.mark.parametrize("piece", ["[", "*_", "x\n"])  # the slowest shapes measured
def test_adversarial_text_at_the_cap_parses_in_bounded_time(piece: str) -> None:
    text = (piece * markdown.MAX_CHARS)[: markdown.MAX_CHARS]
    started = time.perf_counter()
    markdown.blocks(text)
    assert time.perf_counter() - started < 20
