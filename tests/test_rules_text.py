"""TXT001–TXT003: text hygiene of every memory file (seed 003: UTF-8 without BOM)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import codes, only, run_lint

from mnemolint.kinds.memory import TOPIC
from mnemolint.model import Edit
from mnemolint.options import defaults
from mnemolint.parse.document import Document
from mnemolint.rules.text import invalid_utf8

TOPIC_PATH = "memory/topic.md"
BOM = b"\xef\xbb\xbf"
BODY = "---\nname: topic\ndescription: A topic\ntype: user\n---\nBody with ünïcödé ✓.\n"


def lint_topic(tree, content: str | bytes):
    root = tree({"memory/MEMORY.md": "- [Topic](topic.md) — A topic\n", TOPIC_PATH: content})
    return run_lint(root, select=["TXT"])


def document(root: Path) -> Document:
    path = root / TOPIC_PATH
    return Document(str(path), TOPIC, defaults())


def apply(text: str, edits: tuple[Edit, ...]) -> str:
    """Apply non-overlapping edits, last first so earlier offsets stay valid."""
    for edit in sorted(edits, key=lambda edit: edit.start, reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(BODY, id="lf"),
        pytest.param(BODY.replace("\n", "\r\n"), id="crlf"),
        pytest.param("no final newline", id="one-line"),
        pytest.param("", id="empty"),
        pytest.param("a zero\ufeffwidth no-break space mid-file\n", id="feff-not-at-start"),
    ],
)
def test_clean_text_has_no_txt_findings(tree, content: str) -> None:
    assert lint_topic(tree, content) == []


# TXT001 utf8-bom ---------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [BODY, "# No frontmatter\n", ""], ids=["frontmatter", "plain", "bom-only"])
def test_txt001_fires_on_a_bom_and_its_fix_removes_exactly_the_bom(tree, tmp_path: Path, content: str) -> None:
    [finding] = lint_topic(tree, BOM + content.encode("utf-8"))
    assert (finding.code, finding.line, finding.column) == ("TXT001", 1, 1)
    assert finding.fix is not None and finding.fix.applicability == "safe"
    text = document(tmp_path).text
    assert text == "\ufeff" + content
    assert apply(text, finding.fix.edits) == content


def test_txt001_mentions_the_hidden_frontmatter(tree) -> None:
    [finding] = lint_topic(tree, BOM + BODY.encode("utf-8"))
    assert "frontmatter" in finding.message


# TXT002 invalid-utf8 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "line", "column"),
    [
        pytest.param(b"\xff at the start\n", 1, 1, id="first-byte"),
        pytest.param(b"line one\nab\xffcd\n", 2, 3, id="second-line"),
        pytest.param(b"ok\r\nok\r\nx\xc3(\r\n", 3, 2, id="bad-continuation-crlf"),
        pytest.param(b"one\ntwo\nthree\xe2\x82", 3, 6, id="truncated-at-end"),
        pytest.param(b"latin-1 caf\xe9\nand \xe9 again\n", 1, 12, id="first-of-several"),
    ],
)
def test_txt002_points_at_the_first_bad_byte(tree, content: bytes, line: int, column: int) -> None:
    [finding] = lint_topic(tree, content)
    assert (finding.code, finding.line, finding.column) == ("TXT002", line, column)
    assert finding.severity == "error"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"\x00" * 4096, id="nul-filled"),
        pytest.param(b"# Looks like text\n\x00\x01\x02\n", id="one-nul"),
        pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", id="png"),
    ],
)
def test_txt002_fires_on_binary_content(tree, content: bytes) -> None:
    [finding] = lint_topic(tree, content)
    assert finding.code == "TXT002"
    assert finding.line is None
    assert "NUL" in finding.message


def test_txt002_quiet_on_valid_utf8(tree) -> None:
    assert only(lint_topic(tree, "emoji 🧠, CJK 记忆, accents é\n".encode("utf-8")), "TXT002") == []


# TXT003 mixed-line-endings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "line", "uniform"),
    [
        pytest.param("a\nb\r\nc\nd\n", 2, "\n", id="one-crlf-among-lf"),
        pytest.param("a\r\nb\r\nc\nd\r\ne\n", 3, "\r\n", id="lf-among-crlf"),
        pytest.param("a\r\nb\r\nc\r\nd\nlast-without-ending", 4, "\r\n", id="last-piece-has-no-ending"),
        pytest.param("a\r\nb\n", 1, "\n", id="tie-goes-to-lf"),
    ],
)
def test_txt003_reports_the_first_minority_line_and_its_fix_unifies(
    tree, tmp_path: Path, content: str, line: int, uniform: str
) -> None:
    [finding] = lint_topic(tree, content)
    assert (finding.code, finding.line) == ("TXT003", line)
    assert finding.fix is not None and finding.fix.applicability == "safe"
    fixed = apply(document(tmp_path).text, finding.fix.edits)
    assert fixed == content.replace("\r\n", "\n").replace("\n", uniform)


@pytest.mark.parametrize(
    "content",
    ["a\r\nb\r\nc\r\n", "a\nb\nc\n", "a\r\nb\r\nno final ending", "single line\r\n", "bare\rcarriage\rreturns\n"],
    ids=["pure-crlf", "pure-lf", "crlf-unterminated", "one-line", "bare-cr"],
)
def test_txt003_quiet_on_uniform_line_endings(tree, content: str) -> None:
    assert "TXT003" not in codes(lint_topic(tree, content))


def test_txt002_names_utf16_for_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_bytes("---\nname: t\n---\n".encode("utf-16"))
    [hit] = list(invalid_utf8.check(Document(str(path), TOPIC, defaults()), defaults()))
    assert "UTF-16" in hit.message
