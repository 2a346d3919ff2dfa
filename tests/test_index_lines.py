"""The counting and line-reading helpers, checked against what the agents' JavaScript loaders do.

Wave's loader (seed 000, SPEC §2): `trimmed = raw.trim(); lines = trimmed.split("\\n").length;
chars = trimmed.length` (UTF-16 code units), then the first 200 lines, then the last `\\n` at or
before 25,000 characters, or a hard cut when line 1 alone is longer.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemolint.parse import index_lines as il
from mnemolint.parse.index_lines import classify, find_links, load_cut
from mnemolint.parse.textutil import js_trim, utf16_len, utf16_prefix_index

MAX_LINES, MAX_CHARS = 200, 25_000


def numbered(count: int, width: int = 20) -> list[str]:
    """`count` distinct lines of exactly `width` characters."""
    return [f"line {n}".ljust(width, "x") for n in range(1, count + 1)]


def cut_of(text: str):
    return load_cut(text, MAX_LINES, MAX_CHARS)


# --- utf16_len / js_trim -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("", 0),
        ("plain ascii", 11),
        ("记忆容量", 4),  # BMP (CJK): one unit each
        ("é", 1),
        ("😀", 2),  # astral: a surrogate pair in JavaScript
        ("a😀b🎉", 6),
        ("\r\n", 2),  # the CR of a CRLF counts
    ],
)
def test_utf16_len_counts_like_javascript_length(text: str, units: int) -> None:
    assert utf16_len(text) == units


@pytest.mark.parametrize(
    ("raw", "trimmed"),
    [
        ("\n\n  text  \n\n", "text"),
        ("\r\ntext\r\n", "text"),
        ("\ufefftext", "text"),  # a BOM is trimmed by JavaScript, not by str.strip()
        ("\u00a0\u3000text\u2028\u2029", "text"),  # NBSP, ideographic space, line/paragraph separators
        ("\x1ctext\x85", "\x1ctext\x85"),  # str.strip() removes these; String.prototype.trim() does not
        ("\u200btext\u200b", "\u200btext\u200b"),  # zero-width space is not whitespace in either
    ],
)
def test_js_trim_removes_exactly_what_string_trim_removes(raw: str, trimmed: str) -> None:
    assert js_trim(raw) == trimmed


@pytest.mark.parametrize(
    ("text", "units", "index"),
    [
        ("abcdef", 3, 3),
        ("ab", 10, 2),
        ("😀😀😀", 2, 1),  # two units = one emoji
        ("😀😀😀", 3, 1),  # never split a surrogate pair: the half emoji stays out
        ("a记😀b", 4, 3),
    ],
)
def test_utf16_prefix_index_converts_units_to_python_indexes(text: str, units: int, index: int) -> None:
    assert utf16_prefix_index(text, units) == index


# --- load_cut ------------------------------------------------------------------------------------


def test_index_under_both_caps_is_loaded_whole() -> None:
    cut = cut_of("\n".join(numbered(10)) + "\n")
    assert (cut.total_lines, cut.over_lines, cut.over_chars, cut.loaded_lines) == (10, False, False, 10)


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("\n".join(numbered(200)) + "\n", 200),  # a final newline is no phantom line 201
        ("\n\n \n" + "\n".join(numbered(200)) + "\n\n\t\n\n", 200),  # blank lines around never count
        ("\r\n".join(numbered(200)) + "\r\n", 200),
    ],
    ids=["final-newline", "blank-lines-around", "crlf"],
)
def test_200_lines_are_not_over_the_line_cap(text: str, total: int) -> None:
    cut = cut_of(text)
    assert cut.total_lines == total
    assert not cut.over_lines


def test_201st_line_is_dropped() -> None:
    cut = cut_of("\n".join(numbered(201)) + "\n")
    assert (cut.total_lines, cut.over_lines, cut.over_chars) == (201, True, False)
    assert (cut.loaded_lines, cut.first_dropped) == (200, 201)


def test_first_dropped_is_a_file_line_counting_leading_blank_lines() -> None:
    cut = cut_of("\n\n\n" + "\n".join(numbered(201)))
    assert cut.loaded_lines == 200
    assert cut.first_dropped == 204


def test_char_cap_cuts_at_the_last_newline_within_25000() -> None:
    # Lines of 1,086 chars: the 23rd line's newline is at index 25,000, so 23 lines load exactly.
    cut = cut_of("\n".join(numbered(24, width=1086)))
    assert cut.chars == 24 * 1087 - 1
    assert (cut.over_lines, cut.over_chars) == (False, True)
    assert (cut.loaded_lines, cut.first_dropped, cut.line1_cut) == (23, 24, None)


def test_char_cap_never_cuts_mid_line() -> None:
    cut = cut_of("\n".join(numbered(24, width=1090)))  # 1,091 per line: 22 lines end by 24,002
    assert (cut.loaded_lines, cut.first_dropped) == (22, 23)


def test_both_caps_apply_lines_first_then_chars() -> None:
    cut = cut_of("\n".join(numbered(201, width=130)))  # 201 × 131 − 1 = 26,330 chars
    assert (cut.over_lines, cut.over_chars, cut.chars) == (True, True, 26_330)
    assert cut.loaded_lines == 190  # 190 × 131 − 1 = 24,889; the 191st line would end at 25,020


@pytest.mark.parametrize(
    ("char", "over"),
    [("😀", True), ("记", False)],
    ids=["emoji-two-units", "cjk-one-unit"],
)
def test_190_lines_of_70_characters_are_over_only_in_utf16(char: str, over: bool) -> None:
    cut = cut_of("\n".join([char * 70] * 190))
    assert cut.total_lines == 190
    assert cut.over_chars is over
    assert cut.chars == 190 * 70 * (2 if over else 1) + 189


def test_a_cr_of_crlf_counts_toward_characters() -> None:
    lines = ["x" * 249] * 100  # LF: 24,999 chars (under); CRLF: 25,098 (over)
    assert not cut_of("\n".join(lines) + "\n").over_chars
    crlf = cut_of("\r\n".join(lines) + "\r\n")
    assert (crlf.over_chars, crlf.chars) == (True, 25_098)


@pytest.mark.parametrize("prefix", ["", "\n\n", "   "], ids=["plain", "blank-lines-before", "spaces-before"])
def test_line_1_longer_than_the_char_cap_is_hard_cut(prefix: str) -> None:
    cut = cut_of(prefix + "x" * 30_000 + "\n- [A](a.md)")
    assert cut.line1_cut == 25_000
    assert cut.loaded_lines == 1


# --- find_links ----------------------------------------------------------------------------------


def link_tuples(text: str) -> list[tuple[str, str, int, int]]:
    return [(link.title, link.target, link.column, link.end_column) for link in find_links(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- [Title](file.md) — summary", [("Title", "file.md", 3, 19)]),
        ("[a](a.md) and [b](sub/b.md)", [("a", "a.md", 1, 10), ("b", "sub/b.md", 15, 28)]),
        ('- [t](file.md "A title")', [("t", "file.md", 3, 25)]),
        ("- [t](<my file.md>)", [("t", "my file.md", 3, 20)]),
        ("- [t]( padded.md )", [("t", "padded.md", 3, 19)]),
        ("- [t](#anchor)", [("t", "#anchor", 3, 15)]),  # found here; resolving skips anchors
        ("- [unclosed](file.md", []),
        ("no links here", []),
    ],
)
def test_find_links_reports_title_target_and_columns(text: str, expected: list) -> None:
    assert link_tuples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "- `[T](topic.md)` is the format",
        "- ``[T](topic.md)`` is the format",
        "<!-- e.g. [T](topic.md) -->",
    ],
    ids=["code-span", "double-backtick-code-span", "html-comment"],
)
def test_find_links_skips_code_spans_and_comments(text: str) -> None:
    assert link_tuples(text) == []


def test_find_links_keeps_links_beside_a_code_span_or_comment() -> None:
    text = "- [A](a.md) `[T](t.md)` <!-- [C](c.md) --> [B](b.md)"
    assert [target for _, target, _, _ in link_tuples(text)] == ["a.md", "b.md"]


def test_find_links_is_linear_on_a_hostile_line() -> None:
    hostile = "[" * 50_000 + "](" * 50_000 + "`" * 1000 + "<!--" * 1000
    start = time.perf_counter()
    find_links(hostile)
    assert time.perf_counter() - start < 1.0  # quadratic scanning would take minutes


# --- classify ------------------------------------------------------------------------------------


def kinds(text: str, frontmatter_end: int = 0) -> list[tuple[int, str, list[str]]]:
    lines = classify(text.split("\n"), frontmatter_end)
    return [(line.number, line.kind, [link.target for link in line.links]) for line in lines]


def test_classify_sorts_each_line_of_an_index() -> None:
    text = "\n".join(
        [
            "# Memory",  # 1
            "",  # 2
            "- [A](a.md) — summary",  # 3
            "  - nested detail",  # 4
            "    indented continuation",  # 5
            "A paragraph of content.",  # 6
            "- a bullet without a link",  # 7
            "| Topic | [A](a.md) |",  # 8
            "---",  # 9
            "1. [B](b.md)",  # 10
        ]
    )
    assert kinds(text) == [
        (1, il.HEADING, []),
        (2, il.BLANK, []),
        (3, il.POINTER, ["a.md"]),
        (4, il.NESTED, []),
        (5, il.NESTED, []),
        (6, il.CONTENT, []),
        (7, il.CONTENT, []),
        (8, il.TABLE, ["a.md"]),
        (9, il.RULE, []),
        (10, il.POINTER, ["b.md"]),
    ]


def test_classify_marks_fenced_code_and_reads_no_links_in_it() -> None:
    text = "- [A](a.md)\n```md\n- [T](t.md)\n```\n~~~\n[U](u.md)\n~~~\n- [B](b.md)"
    assert kinds(text) == [
        (1, il.POINTER, ["a.md"]),
        (2, il.CODE, []),
        (3, il.CODE, []),
        (4, il.CODE, []),
        (5, il.CODE, []),
        (6, il.CODE, []),
        (7, il.CODE, []),
        (8, il.POINTER, ["b.md"]),
    ]


def test_classify_reads_no_links_in_html_comments() -> None:
    text = "\n".join(
        [
            "<!-- e.g. - [T](topic.md) — summary -->",  # 1
            "<!--",  # 2
            "- [T](topic.md)",  # 3
            "-->",  # 4
            "- [A](a.md) <!-- or [T](topic.md) -->",  # 5
            "- [B](b.md) <!-- starts here",  # 6
            "- [T](topic.md) -->",  # 7
            "- [C](c.md)",  # 8
        ]
    )
    assert [(number, targets) for number, _, targets in kinds(text)] == [
        (1, []),
        (2, []),
        (3, []),
        (4, []),
        (5, ["a.md"]),
        (6, ["b.md"]),
        (7, []),
        (8, ["c.md"]),
    ]
    assert [kind for _, kind, _ in kinds(text)][:4] == [il.COMMENT] * 4


def test_classify_marks_frontmatter_lines() -> None:
    assert [kind for _, kind, _ in kinds("---\ntitle: x\n---\n- [A](a.md)", frontmatter_end=3)] == [
        il.FRONTMATTER,
        il.FRONTMATTER,
        il.FRONTMATTER,
        il.POINTER,
    ]


def test_classify_keeps_crlf_out_of_the_text() -> None:
    (line,) = classify(["- [A](a.md) — summary\r"], 0)
    assert line.text == "- [A](a.md) — summary"
    assert line.summary() == "summary"


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("- [A](a.md) — what it holds", "what it holds"),
        ("- [A](a.md) - what it holds", "what it holds"),
        ("- [A](a.md): what it holds", "what it holds"),
        ("- [A](a.md)", ""),
    ],
)
def test_summary_is_the_text_after_the_link(text: str, summary: str) -> None:
    (line,) = classify([text], 0)
    assert line.summary() == summary


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("a—é\u00a0\U0001f600\U00010000\ud800\udcff\uffff"), max_size=40),
    st.integers(0, 50),
)
def test_utf16_counts_are_javascripts(text: str, units: int) -> None:
    """`string.length` counts an astral character twice and a lone surrogate once."""
    widths = [2 if ord(char) > 0xFFFF else 1 for char in text]
    assert utf16_len(text) == sum(widths)
    fits = next((index for index in range(len(text)) if sum(widths[: index + 1]) > units), len(text))
    assert utf16_prefix_index(text, units) == fits


@given(st.text(alphabet="()\\[]a ", max_size=30))
def test_the_one_paren_shortcut_matches_the_full_scan(text: str) -> None:
    """`_matching_parens` takes a shortcut for a line with one `(` and no backslash (most index
    lines): it must pair exactly what the escape-aware stack scan pairs."""
    from mnemolint.parse.index_lines import _PAREN, _matching_parens

    pairs: dict[int, int] = {}
    stack: list[int] = []
    for match in _PAREN.finditer(text):
        if match.group() == "(":
            stack.append(match.start())
        elif match.group() == ")" and stack:
            pairs[stack.pop()] = match.start()
    assert _matching_parens(text) == pairs
