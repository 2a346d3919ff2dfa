"""The language server's core without a client: positions in the protocol's units, the session's
reuse of unchanged files between runs, and bounded work on hostile buffers."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")

from lsprotocol.types import Position  # noqa: E402

from mnemolint.config import load_settings  # noqa: E402
from mnemolint.lsp.positions import UTF8, UTF16, UTF32, Lines  # noqa: E402
from mnemolint.lsp.session import Session  # noqa: E402
from mnemolint.parse import document as documents  # noqa: E402


@pytest.fixture(autouse=True)
def _no_overlay_left():
    """A session's buffers stand for their files process-wide: none outlives its test."""
    yield
    documents.overlay({})


TOPIC = "---\nname: {n}\ndescription: About {n}\ntype: project\n---\n\n# {n}\n\nBody of {n}.\n"


def test_positions_count_in_the_negotiated_unit() -> None:
    text = "a😀b\r\nsecond\n"  # an astral character: two UTF-16 units, four UTF-8 bytes
    for encoding, character in ((UTF16, 3), (UTF8, 5), (UTF32, 2)):
        lines = Lines(text, encoding)
        assert lines.position(1, 3) == Position(0, character)  # before `b` (column 3 in code points)
        assert lines.offset(Position(0, character)) == 2
        assert lines.at_offset(text.index("second")) == Position(1, 0)
    whole = Lines(text).line_range(1, None, None, None)
    assert (whole.start, whole.end) == (Position(0, 0), Position(0, 4))  # the `\r` is not in the range
    assert Lines(text).line_range(None, None, None, None).start == Position(0, 0)  # a whole-file finding
    assert Lines(text).position(99) == Position(2, 0)  # past the end: clamped


def test_positions_are_linear_on_a_megabyte_line() -> None:
    text = "😀" * 500_000 + "\n" + "x" * 500_000
    started = time.perf_counter()
    lines = Lines(text)
    lines.line_range(1, 400_000, 2, 400_000)
    lines.offset(Position(0, 999_999))
    lines.span(0, len(text))
    assert time.perf_counter() - started < 5


def _tree(root: Path, count: int, name: str = "memory") -> Path:
    memory = root / name
    memory.mkdir()
    index = ["# Memory", ""]
    for number in range(count):
        (memory / f"t{number}.md").write_text(TOPIC.format(n=f"t{number}"), encoding="utf-8")
        index.append(f"- [T{number}](t{number}.md) — about t{number}")
    (memory / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    age(root)
    return memory


def age(root: Path) -> None:
    """Every file and directory of `root` (and `root`) an hour old: older than the racy window, so
    that a run may keep what it read, and the language server its tree (lsp/kept.py)."""
    past = time.time() - 3600
    for path in [*root.rglob("*"), root]:
        os.utime(path, (past, past), follow_symlinks=False)


def _document(session: Session, path: Path):
    folder = session.folder_of(str(path))
    assert folder is not None and folder.result is not None
    return next(document for document in folder.result.tree.documents if document.path == str(path))


def test_an_unchanged_file_is_read_once_and_a_changed_one_again(tmp_path: Path) -> None:
    memory = _tree(tmp_path, 5)
    session = Session(lambda root: load_settings(None, root))
    folder = session.add_folder(str(tmp_path))
    index = memory / "MEMORY.md"
    session.open(str(index), index.read_text(encoding="utf-8"), 1)
    session.lint(folder)
    kept, changed = _document(session, memory / "t1.md"), memory / "t2.md"
    assert kept.text is not None
    changed.write_text(TOPIC.format(n="t2") + "More.\n", encoding="utf-8")
    session.change(str(index), index.read_text(encoding="utf-8") + "\n", 2)
    session.lint(folder)
    assert _document(session, memory / "t1.md").text is kept.text  # taken over, not read again
    assert _document(session, changed).text.endswith("More.\n")  # its size and mtime moved: read again
    assert _document(session, index).text.endswith("\n\n")  # the buffer, never the disk


def test_a_buffer_is_read_from_the_overlay_only_while_it_is_open(tmp_path: Path) -> None:
    memory = _tree(tmp_path, 1)
    session = Session(lambda root: load_settings(None, root))
    folder = session.add_folder(str(tmp_path))
    topic = str(memory / "t0.md")
    session.open(topic, "edited\n", 1)
    assert documents.overlaid(topic)
    session.lint(folder)
    assert _document(session, memory / "t0.md").text == "edited\n"
    session.close(topic)
    assert not documents.overlaid(topic)
    session.remove_folder(str(tmp_path))
    assert session.folder_of(topic) is None


def test_hover_on_an_entry_past_the_cut_says_the_agent_never_sees_it(tmp_path: Path) -> None:
    from mnemolint.lsp.navigation import hover

    memory = tmp_path / ".claude" / "projects" / "p" / "memory"  # Claude Code's layout: one reader
    memory.mkdir(parents=True)
    (memory / "t0.md").write_text(TOPIC.format(n="t0"), encoding="utf-8")
    index = "# Memory\n\n" + "".join(f"- note {number}\n" for number in range(230)) + "- [T0](t0.md) — about t0\n"
    session = Session(lambda root: load_settings(None, root))
    session.add_folder(str(tmp_path))
    path = str(memory / "MEMORY.md")
    (memory / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    session.open(path, index, 1)  # the buffer, over the cap; the file on disk is not
    shown = hover(session, path, Position(232, 4), "utf-16")
    assert shown is not None and "`t0.md` → `t0.md`" in shown
    assert "Claude Code never sees this entry: it lies past the cut (200 of 233 lines loaded)" in shown, shown
    assert "- [t0] t0.md" in shown or "t0.md (" in shown  # its manifest line


def test_links_and_hovers_are_bounded_on_a_megabyte_buffer(tmp_path: Path) -> None:
    from mnemolint.lsp.navigation import hover, links

    memory = _tree(tmp_path, 1)
    entry = "[😀](t0.md) "
    text = "# Memory\n\n- " + entry * (900_000 // len(entry.encode("utf-8"))) + "\n"
    session = Session(lambda root: load_settings(None, root))
    session.add_folder(str(tmp_path))
    path = str(memory / "MEMORY.md")
    session.open(path, text, 1)
    started = time.perf_counter()
    found = links(session, path, UTF16)
    hovered = hover(session, path, Position(2, 2 + 12 * 5000 + 6), UTF16)
    assert time.perf_counter() - started < 60  # the lint of the 1 MB index included; a quadratic pass takes hours
    assert len(found) == text.count("](t0.md)") and found[1].range.start.character == 2 + 12  # 😀: two units
    assert hovered is not None and "`t0.md` → `t0.md`" in hovered


def test_a_change_after_a_quiet_spell_is_linted_at_once_and_a_burst_once_more(tmp_path: Path) -> None:
    import asyncio

    from mnemolint.lsp import server as lsp_server

    made = lsp_server.build(lambda root: load_settings(None, root))
    folder = made.session.add_folder(str(tmp_path))
    lints: list[float] = []

    def lint(linted) -> dict:
        lints.append(time.perf_counter())
        return {}

    made.session.lint = lint  # type: ignore[method-assign]

    async def typing() -> None:
        made.later(folder)  # the folder was quiet: linted now, not after the debounce
        assert len(lints) == 1
        for _ in range(5):  # a burst right after it: one lint, once the burst is over
            made.later(folder)
        assert len(lints) == 1 and folder.root in made.pending
        for _ in range(200):
            if len(lints) == 2:
                break
            await asyncio.sleep(0.01)
        assert len(lints) == 2 and lints[1] - lints[0] >= lsp_server.DEBOUNCE
        await asyncio.sleep(lsp_server.DEBOUNCE * 2)
        made.later(folder)  # quiet again
        assert len(lints) == 3

    asyncio.run(typing())
