"""The language server keeps a folder's last tree between keystrokes (lsp/kept.py): it is renewed,
not walked again, while nothing it was made of changed, and walked again — with the findings a
fresh lint gives — as soon as something did: a file created, deleted or renamed, a link target
appearing or gone, a marker file that no longer makes its folder a container, a `.gitignore`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")

from test_lsp_session import TOPIC, _tree, age  # noqa: E402

from mnemolint import engine  # noqa: E402
from mnemolint.config import load_settings  # noqa: E402
from mnemolint.discover import walk  # noqa: E402
from mnemolint.lsp.session import Session  # noqa: E402
from mnemolint.parse import document as documents  # noqa: E402
from mnemolint.report import shown  # noqa: E402

PAST = time.time() - 3600  # older than the racy window: a tree may be kept


@pytest.fixture(autouse=True)
def _no_overlay_left():
    yield
    documents.overlay({})


class Walks:
    """How many times the session walked (a fresh lint's own walk, `engine.discover`, is not counted)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = walk.discover

        def counted(*args, **kwargs):
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(walk, "discover", counted)


def _session(root: Path, preview: bool = True) -> tuple[Session, object]:
    def settings(folder: str):
        made = load_settings(None, folder)
        made.preview = preview
        return made

    session = Session(settings)
    return session, session.add_folder(str(root))


def _fresh(session: Session, folder) -> dict[str, list[tuple]]:
    """What a lint without anything kept finds on each open buffer (the same texts)."""
    paths = session.open_in(folder)
    documents.overlay(session._texts())
    folder.enter()
    found = shown(engine.lint(paths, folder.settings).diagnostics)
    return {path: [_said(each) for each in found if each.path == path] for path in paths}


def _said(diagnostic) -> tuple:
    return (diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.message, diagnostic.related)


def _index_open(root: Path, below: str, entries: str) -> tuple[Path, Session, object, str, str]:
    """A memory dir of 3 topics with an empty folder `below` it, and its index open with `entries`
    added: the dir, the session, its folder, the index's path and the buffer's text."""
    memory = _tree(root, 3)
    (memory / below).mkdir()
    age(root)
    session, folder = _session(root, preview=False)
    index = str(memory / "MEMORY.md")
    text = (memory / "MEMORY.md").read_text(encoding="utf-8") + entries
    session.open(index, text, 1)
    return memory, session, folder, index, text


def _linted(session: Session, folder) -> dict[str, list[tuple]]:
    return {path: [_said(each) for each in found] for path, found in session.lint(folder).items()}


def test_keystrokes_renew_the_tree_and_find_what_a_fresh_lint_finds(tmp_path: Path, monkeypatch) -> None:
    memory = _tree(tmp_path, 12)
    session, folder = _session(tmp_path)
    index, topic = str(memory / "MEMORY.md"), str(memory / "t3.md")
    texts = {index: (memory / "MEMORY.md").read_text(encoding="utf-8"), topic: TOPIC.format(n="t3")}
    for path, text in texts.items():
        session.open(path, text, 1)
    session.lint(folder)
    walks = Walks(monkeypatch)
    edits = [
        (topic, lambda text: text + "More.\n"),
        (topic, lambda text: text.replace("name: t3", "name: t4")),  # the title of another topic: MEM208
        (index, lambda text: text.replace("- [T3](t3.md) — about t3\n", "")),  # the open topic unlinked: MEM105
        (index, lambda text: text + "- [Gone](gone.md) — missing\n"),  # MEM104
        (topic, lambda text: text.replace("---\nname", "--\nname")),  # no frontmatter any more
        (index, lambda text: text.replace("- [T5](t5.md) — about t5", "- [T5](t5.md) — about something else")),
        (topic, lambda text: TOPIC.format(n="t3")),
        (index, lambda text: "# Memory\n\n" + "\n".join(f"- [T{n}](t{n}.md) — about t{n}" for n in range(12)) + "\n"),
    ]
    for version, (path, edit) in enumerate(edits, start=2):
        texts[path] = edit(texts[path])
        session.change(path, texts[path], version)
        assert _linted(session, folder) == _fresh(session, folder), f"after edit {version - 1}"
    assert walks.count == 0  # no keystroke walked


def test_a_file_created_or_deleted_unseen_is_found_on_the_next_keystroke(tmp_path: Path, monkeypatch) -> None:
    memory, session, folder, index, text = _index_open(
        tmp_path, "files", "- [Later](later.md) — soon\n- [Spec](files/spec.txt)\n"
    )
    walks = Walks(monkeypatch)
    version = 1

    def keystroke() -> list[str]:
        nonlocal text, version
        text, version = text + " ", version + 1
        session.change(index, text, version)
        return sorted({found[0] + ":" + found[3].split("`")[1] for found in _linted(session, folder)[index]})

    assert keystroke() == ["MEM104:files/spec.txt", "MEM104:later.md"]
    assert keystroke() == ["MEM104:files/spec.txt", "MEM104:later.md"]
    walked = walks.count
    assert walked == 1 and folder.kept is not None  # the second keystroke renewed the first's tree
    (memory / "later.md").write_text(TOPIC.format(n="later"), encoding="utf-8")  # a topic appears
    assert keystroke() == ["MEM104:files/spec.txt"]
    (memory / "files" / "spec.txt").write_text("spec\n", encoding="utf-8")  # a link target in a folder below
    assert keystroke() == []
    (memory / "later.md").unlink()
    assert keystroke() == ["MEM104:later.md"]
    (memory / "files" / "spec.txt").rename(memory / "files" / "spec.md")
    assert keystroke() == ["MEM104:files/spec.txt", "MEM104:later.md"]
    assert walks.count == walked + 4  # each change walked again


def test_an_index_that_no_longer_reads_as_one_is_walked_again(tmp_path: Path) -> None:
    notes = _tree(tmp_path, 2, name="notes")  # not an agent's layout: the index must read as one
    session, folder = _session(tmp_path, preview=False)
    index, topic = str(notes / "MEMORY.md"), str(notes / "t0.md")
    session.open(topic, TOPIC.format(n="t0"), 1)
    session.open(index, (notes / "MEMORY.md").read_text(encoding="utf-8"), 1)
    session.lint(folder)
    session.change(topic, TOPIC.format(n="t0") + "x\n", 2)
    session.lint(folder)
    assert folder.kept is not None and folder.result.tree.containers
    prose = "# Journal\n\n" + "".join(f"Today I wrote line {n} of prose.\n\n" for n in range(12))
    session.change(index, prose, 2)
    assert _linted(session, folder) == _fresh(session, folder)
    assert not folder.result.tree.containers  # the folder is no memory dir now: its files no topics


def test_what_keeps_a_tree_from_standing(tmp_path: Path) -> None:
    from mnemolint.lsp.kept import Kept

    memory = _tree(tmp_path, 2)
    session, folder = _session(tmp_path, preview=False)
    index = str(memory / "MEMORY.md")
    session.open(index, (memory / "MEMORY.md").read_text(encoding="utf-8"), 1)
    session.lint(folder)
    kept, paths, texts = folder.kept, session.open_in(folder), session._texts()
    assert kept is not None and kept.stands(paths, texts)
    assert not kept.stands([*paths, str(memory / "t0.md")], texts)  # another buffer opened
    (tmp_path / ".gitignore").write_text("t1.md\n", encoding="utf-8")  # above the walked folder
    assert not kept.stands(paths, texts)
    os.utime(tmp_path / ".gitignore", (PAST, PAST))
    session.lint(folder)
    assert folder.kept is not None and folder.kept.stands(paths, texts)
    os.chmod(memory, 0o500)  # its permissions: its change time moves
    try:
        assert not folder.kept.stands(paths, texts)
    finally:
        os.chmod(memory, 0o700)
    os.utime(memory)  # an entry of it changed just now: another change may keep its times
    started = time.time_ns()
    assert Kept.of(folder.result.tree, paths, started, texts) is None
    age(tmp_path)
    assert Kept.of(folder.result.tree, paths, started, texts) is not None
    (memory / "link.md").symlink_to(memory / "t0.md")
    age(tmp_path)
    session.lint(folder)
    assert folder.result.tree.links and folder.kept is None  # where a link leads is not in a directory's times
    folder.forget_tree()


def test_files_changed_outside_the_editor_forget_the_tree(tmp_path: Path) -> None:
    memory = _tree(tmp_path, 2)
    session, folder = _session(tmp_path, preview=False)
    session.open(str(memory / "MEMORY.md"), (memory / "MEMORY.md").read_text(encoding="utf-8"), 1)
    session.lint(folder)
    assert folder.kept is not None
    folder.forget_tree()  # what a watched-files notification does
    assert folder.kept is None
    folder.reload()
    assert folder.kept is None


def test_a_link_target_no_walk_lists_is_asked_again_on_each_keystroke(tmp_path: Path, monkeypatch) -> None:
    """A renewed tree carries the links resolved by the topics' names alone (`MemoryDir.carry`),
    never an answer of the file system: a target in a folder the walk leaves out (`node_modules`)
    can appear with no walked directory changing."""
    memory, session, folder, index, text = _index_open(
        tmp_path, "node_modules", "- [Vendored](node_modules/notes.md) — kept there\n"
    )
    session.lint(folder)
    walks = Walks(monkeypatch)
    session.change(index, text + " ", 2)
    assert [found[0] for found in _linted(session, folder)[index]] == ["MEM104"]
    (memory / "node_modules" / "notes.md").write_text("notes\n", encoding="utf-8")
    session.change(index, text + "  ", 3)
    assert _linted(session, folder)[index] == []
    assert walks.count == 0 and folder.kept is not None  # found in the renewed tree, not by a new walk
