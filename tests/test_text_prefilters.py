"""The substring tests the per-file text rules run before their scans (TXT003's CR, TXT004's
path marks) answer no only where the scan finds nothing, and the marks a document is found to hold
for the container rules (`Document.holds`) are those `MARKS` says: hypothesis compares each rule's findings
with its test in place and with the test answering yes for every text, on texts made of what the
scans look for. A test that forgets a mark is caught by the same comparison (the last tests), so
the property is not one that every prefilter passes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from mnemolint.kinds.memory import TOPIC
from mnemolint.options import defaults
from mnemolint.parse import document as document_module
from mnemolint.parse.citations import may_cite
from mnemolint.parse.document import Document
from mnemolint.rules import text as text_rules

equivalent = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# What the path scan and its exceptions look for, and what stands around it.
_PATH_PIECES = [
    "/home/",
    "/Users/",
    "/home/ubuntu/",
    "/Users/alice/",
    "C:\\",
    "D:\\\\",
    "c:/Users/",
    "E:/Documents and Settings/",
    ":\\",
    ":/",
    ":/Users",
    "/",
    ":",
    "\\",
    "home",
    "Users",
    "bob",
    "pat",
    "x.md",
    "...",
    "~/",
    "e.g. ",
    "for example ",
    "`",
    "```\n",
    "    ",
    " ",
    "\n",
    "\r\n",
    "\r",
    "%USERNAME%",
    "https://h/home/x",
    "ü",
]
_MARK_PIECES = [
    "]",
    "(",
    ":",
    "](",
    "]:",
    "relates_to",
    "relates",
    "supersede",
    "supersedes",
    "superseded_by",
    "_by",
    "s",
    "相关文件",
    "src/a.py:12",
    ".md#L3",
    ".x",
    ":1",
    "#L",
    " ",
    "\n",
    "ü",
]
_LINE_PIECES = ["a", " ", "\n", "\r\n", "\r", "\r\r\n", "\n\r", "---\n", "ü"]


def texts(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=40).map("".join)


def findings(rule, text: str) -> list[tuple]:
    document = Document("/work/memory/topic.md", TOPIC, defaults())
    document.preset(text)
    return [
        (hit.message, hit.line, hit.column, hit.end_line, hit.end_column, _fix(hit.fix))
        for hit in rule.check(document, document.options)
    ]


def _fix(fix) -> tuple | None:
    return None if fix is None else (fix.applicability, fix.message, tuple(map(repr, fix.edits)), fix.path)


def unfiltered(monkeypatch: pytest.MonkeyPatch, name: str, rule, text: str) -> list[tuple]:
    with monkeypatch.context() as patched:
        patched.setattr(text_rules, name, lambda text: True)
        return findings(rule, text)


@equivalent
@given(texts(_PATH_PIECES))
def test_txt004_finds_with_its_mark_test_what_it_finds_without(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert findings(text_rules.absolute_path, text) == unfiltered(
            monkeypatch, "_marked", text_rules.absolute_path, text
        )


@equivalent
@given(texts(_PATH_PIECES))
def test_the_mark_test_is_the_marks_and_holds_every_path_match(text: str) -> None:
    assert text_rules._marked(text) == any(mark in text for mark in text_rules._MARKS)
    if text_rules._ABSOLUTE.search(text):
        assert text_rules._marked(text)


@equivalent
@given(texts(_LINE_PIECES))
def test_txt003_finds_with_its_cr_test_what_it_finds_without(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        expected = unfiltered(monkeypatch, "_crlf", text_rules.mixed_line_endings, text)
    assert findings(text_rules.mixed_line_endings, text) == expected


def test_the_comparison_catches_a_mark_test_that_forgets_a_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """A prefilter without the drive marks (`:\\`, `:/Users`): the comparison above finds a text it
    wrongly rules out."""

    def disagrees(text: str) -> bool:
        with monkeypatch.context() as wrong:
            wrong.setattr(text_rules, "_marked", lambda text: "/home/" in text or "/Users/" in text)
            filtered = findings(text_rules.absolute_path, text)
        return filtered != findings(text_rules.absolute_path, text)

    found = find(texts(_PATH_PIECES), disagrees, settings=settings(max_examples=2_000, deadline=None))
    assert ":" in found


def test_the_comparison_catches_a_cr_test_that_asks_for_a_lone_cr(monkeypatch: pytest.MonkeyPatch) -> None:
    def disagrees(text: str) -> bool:
        with monkeypatch.context() as wrong:
            wrong.setattr(text_rules, "_crlf", lambda text: "\r" in text and "\r\n" not in text)
            filtered = findings(text_rules.mixed_line_endings, text)
        return filtered != findings(text_rules.mixed_line_endings, text)

    assert "\r\n" in find(texts(_LINE_PIECES), disagrees, settings=settings(max_examples=2_000, deadline=None))


@equivalent
@given(texts(_MARK_PIECES))
def test_the_marks_found_are_those_marks_says(text: str) -> None:
    held = {mark: may_cite(text) if mark == document_module.CITES else mark in text for mark in document_module.MARKS}
    expected = tuple(mark for mark in document_module.MARKS if held[mark])
    assert document_module._marks_of(text) == expected
