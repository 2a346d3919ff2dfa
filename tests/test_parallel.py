"""The split of the per-file work between this process and the forked worker (`parallel.py`):
every document is checked exactly once, by one process or the other, its findings gathered in
the documents' order; whichever process is slower takes fewer parts; and a whole run says what
one process says."""

from __future__ import annotations

import os
import time
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import preview_settings, write_tree
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from mnemolint import parallel
from mnemolint.config import load_settings
from mnemolint.engine import lint
from mnemolint.kinds.memory import TOPIC, MemoryDir
from mnemolint.parse.document import Document

OPTIONS = {"max-file-bytes": 1 << 20, "yaml-max-depth": 20}
TOPIC_TEXT = "---\nname: t\ndescription: A topic\ntype: user\n---\n\nBody.\n"


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 3)


def documents(tmp_path: Path, count: int) -> list[Document]:
    write_tree(tmp_path, {f"memory/t{n:03d}.md": TOPIC_TEXT for n in range(count)})
    memdir = MemoryDir(str(tmp_path / "memory"))
    return [Document(str(tmp_path / "memory" / f"t{n:03d}.md"), TOPIC, OPTIONS, memdir) for n in range(count)]


def checked_by(slow: str, pause: float = 0.0) -> parallel.Check:
    """A check that says, as its internal errors, which process checked each document; the
    `slow` one ("parent", "worker" or "") pauses on each part."""
    parent = os.getpid()

    def check(part: list[Document]) -> parallel.Checked:
        here = "parent" if os.getpid() == parent else "worker"
        if here == slow:
            time.sleep(pause)
        for document in part:
            assert document.text is not None
        return [], [f"{here} {os.path.basename(document.path)}" for document in part], []

    return check


@pytest.mark.usefixtures("two_cores")
def test_every_document_is_checked_once_in_order(tmp_path: Path) -> None:
    docs = documents(tmp_path, 31)
    _, said, _ = parallel.check_documents(docs, checked_by(""))
    assert [line.split()[1] for line in said] == [f"t{n:03d}.md" for n in range(31)]
    assert said[0].startswith("worker ")  # the first part is always the worker's


@pytest.mark.usefixtures("two_cores")
@pytest.mark.parametrize("slow", ["worker", "parent"])
def test_the_slower_process_takes_fewer_parts(tmp_path: Path, slow: str) -> None:
    docs = documents(tmp_path, 30)  # ten parts
    _, said, _ = parallel.check_documents(docs, checked_by(slow, 0.2))
    assert sorted(line.split()[1] for line in said) == [f"t{n:03d}.md" for n in range(30)]
    by_slow = sum(line.startswith(slow) for line in said)
    assert 0 < by_slow <= len(said) // 2, said


def dying(where: str) -> parallel.Check:
    """A check whose worker dies on its second part: `where` "checking" (killed in a rule), or
    "holding the lock" (killed while it holds the lock on the board, before it takes a part)."""
    parent = os.getpid()
    parts = [0]
    labelled = checked_by("")

    def check(part: list[Document]) -> parallel.Checked:
        if os.getpid() != parent:
            parts[0] += 1
            if parts[0] == 2:
                if where == "holding the lock":
                    while not parallel._locked(parallel._held_board.lock[0], None):
                        pass
                os._exit(9)
        return labelled(part)

    return check


@pytest.mark.usefixtures("two_cores")
@pytest.mark.parametrize("where", ["checking", "holding the lock"])
def test_a_worker_that_dies_leaves_its_parts_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Whatever it took and did not answer is checked here, and a lock it died holding is not waited for."""
    real = parallel._Board.__init__

    def kept(self: parallel._Board, count: int) -> None:
        real(self, count)
        parallel._held_board = self  # type: ignore[attr-defined]

    monkeypatch.setattr(parallel._Board, "__init__", kept)
    docs = documents(tmp_path, 30)
    started = time.monotonic()
    _, said, _ = parallel.check_documents(docs, dying(where))
    assert [line.split()[1] for line in said] == [f"t{n:03d}.md" for n in range(30)]
    assert said[0].startswith("worker ") and "parent t003.md" in said  # its first part answered, its second not
    assert time.monotonic() - started < 10


@pytest.mark.usefixtures("two_cores")
def test_this_process_left_by_an_exception_leaves_no_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C in this process alone, or a bug in a rule here: the exception goes up at once, and
    the worker, busy or waiting for the lock, is ended and reaped, not waited for."""
    real = parallel._Board.__init__

    def kept(self: parallel._Board, count: int) -> None:
        real(self, count)
        parallel._held_board = self  # type: ignore[attr-defined]

    monkeypatch.setattr(parallel._Board, "__init__", kept)
    parent = os.getpid()

    def check(part: list[Document]) -> parallel.Checked:
        if os.getpid() == parent:
            raise KeyboardInterrupt
        time.sleep(0.3)
        return [], [], []

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        parallel.check_documents(documents(tmp_path, 30), check)
    assert time.monotonic() - started < 2
    worker = parallel._held_board.worker  # type: ignore[attr-defined]
    assert worker is not None
    with pytest.raises(ProcessLookupError):  # killed and reaped: no such process left
        os.kill(worker, 0)


def test_a_run_over_two_processes_says_what_one_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Topics with findings of per-file, container and suppression rules, some of them released."""
    files = {
        f"memory/t{n:03d}.md": TOPIC_TEXT.replace("description: A topic\n", "" if n % 3 else "description: A\n")
        + ("<!-- mnemolint-disable-next-line MEM9 -->\nx\n" if n % 7 == 0 else "")
        for n in range(40)
    }
    files["memory/MEMORY.md"] = "# Memory\n\n" + "".join(f"- [T{n}](t{n:03d}.md) — A topic\n" for n in range(45))
    write_tree(tmp_path, files)
    settings = preview_settings(tmp_path)
    alone = lint([str(tmp_path)], settings, release=True)
    monkeypatch.setattr(parallel, "RELEASE_MIN", 1)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)
    shared = lint([str(tmp_path)], settings, release=True)
    seen = [(d.code, d.path, d.line, d.column, d.message) for d in shared.diagnostics]
    assert seen == [(d.code, d.path, d.line, d.column, d.message) for d in alone.diagnostics]
    assert len(set(seen)) == len(seen)
    assert {"MEM104", "MEM203", "SUP001"} <= {d.code for d in shared.diagnostics}
    assert all(document._released for document in shared.tree.documents if document.rel != "MEMORY.md")


def test_the_parent_reads_no_topic_the_worker_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without releasing or a cache, the worker still sends each text's marks: the index rules,
    which ask every topic whether it holds a link, need not read the worker's topics again."""
    files = {f"memory/t{n:03d}.md": TOPIC_TEXT for n in range(24)}
    files["memory/t005.md"] = "# Archive\n\n" + "".join(f"- [T{n}](t{n:03d}.md) — A topic\n" for n in range(3))
    files["memory/MEMORY.md"] = "# Memory\n\n- [T0](t000.md) — A topic\n- [Gone](gone.md) — x\n"
    write_tree(tmp_path, files)
    settings = load_settings(None, str(tmp_path))
    alone = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)
    parent = os.getpid()
    read_after: list[str] = []  # by this process, once the per-file rules have run
    checked = parallel.check_documents
    real = Document._load
    phase: list[str] = []

    def per_file(documents: list[Document], check: parallel.Check, *args: object) -> parallel.Checked:
        done = checked(documents, check, *args)  # type: ignore[arg-type]
        phase.append("after")
        return done

    def counted(self: Document) -> None:
        if phase and os.getpid() == parent:
            read_after.append(self.rel)
        real(self)

    monkeypatch.setattr(parallel, "check_documents", per_file)
    monkeypatch.setattr(Document, "_load", counted)
    shared = lint([str(tmp_path)], settings)
    assert [d.sort_key() + (d.message,) for d in shared.diagnostics] == [
        d.sort_key() + (d.message,) for d in alone.diagnostics
    ]
    assert "MEM104" in {d.code for d in shared.diagnostics}  # the archive's links were read
    assert set(read_after) <= {"MEMORY.md", "t005.md"}, read_after  # the indexes, which their rules read whole


def test_the_parent_parses_no_frontmatter_the_worker_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every rule, the worker sends a frontmatter block's lines, not its parse, and what the
    container rules read of each topic (MEM109 its description, MEM208 its title) computed: this
    process parses no block of a topic the worker checked, and says what one process says."""
    files = {
        f"memory/t{n:03d}.md": TOPIC_TEXT.replace("name: t", f"name: t{n}").replace(
            "A topic", f"Topic {n} on the build" if n % 4 else "Gone stale"
        )
        for n in range(24)
    }
    index = "".join(f"- [T{n}](t{n:03d}.md) — Topic {n} on the build\n" for n in range(24))
    write_tree(tmp_path, {**files, "memory/MEMORY.md": "# Memory\n\n" + index})
    settings = preview_settings(tmp_path)
    alone = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)
    parent = os.getpid()
    checked_here: set[str] = set()
    parsed_after: list[str] = []
    real_check = parallel.check_documents
    real_parse = Document.frontmatter.fget
    phase: list[str] = []

    def per_file(documents: list[Document], check: parallel.Check, *args: object) -> parallel.Checked:
        def here(part: list[Document]) -> parallel.Checked:
            if os.getpid() == parent:
                checked_here.update(document.rel for document in part)
            return check(part)

        done = real_check(documents, here, *args)  # type: ignore[arg-type]
        phase.append("after")
        return done

    def parsed(self: Document) -> object:
        if phase and os.getpid() == parent and self._frontmatter is None:
            parsed_after.append(self.rel)
        return real_parse(self)

    monkeypatch.setattr(parallel, "check_documents", per_file)
    monkeypatch.setattr(Document, "frontmatter", property(parsed))
    shared = lint([str(tmp_path)], settings)
    assert [d.sort_key() + (d.message,) for d in shared.diagnostics] == [
        d.sort_key() + (d.message,) for d in alone.diagnostics
    ]
    assert "MEM109" in {d.code for d in shared.diagnostics}  # the stale descriptions, judged from the shipped ones
    assert checked_here and len(checked_here) < 25  # both processes checked topics
    # The index rules read the index whole (its frontmatter too), wherever it was checked.
    theirs = [
        document for document in shared.tree.documents if document.kind is TOPIC and document.rel not in checked_here
    ]
    assert theirs and [document.rel for document in theirs if document._frontmatter is not None] == []  # lines came
    assert [rel for rel in parsed_after if rel in {document.rel for document in theirs}] == []


@given(count=st.integers(min_value=1, max_value=120_000), part=st.integers(min_value=1, max_value=600))
@hypothesis_settings(max_examples=300, deadline=None)
def test_the_parts_cover_the_documents_in_order_and_shrink_toward_the_middle(count: int, part: int) -> None:
    """Every document in one part, in order, none larger than `PART`, two parts at least; the
    parts grow from the middle outward (the two processes meet near it, and the one that ends first
    waits for what the other holds), those nearest it no larger than `LAST_PART`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "PART", part)
        parts = parallel._parts(list(range(count)))
    assert [each for chunk in parts for each in chunk] == list(range(count))
    assert all(0 < len(chunk) <= part for chunk in parts)
    assert len(parts) >= min(count, 2)
    least = min(parallel.LAST_PART, part)
    sizes = [len(chunk) for chunk in parts]
    middle = next(number for number, chunk in enumerate(parts) if chunk[-1] >= -(-count // 2) - 1)
    before, after = sizes[: middle + 1], sizes[middle + 1 :]
    assert all(a >= b or b <= 2 * least for a, b in pairwise(before)), sizes  # shrink to the middle
    assert all(a <= b or a <= 2 * least for a, b in pairwise(after)), sizes  # and grow after it
    assert max(sizes[max(middle - 1, 0) : middle + 3]) <= 2 * least, sizes


def test_fewer_documents_are_shared_the_more_per_file_rules_check_each(tmp_path: Path) -> None:
    """Each document counts as `DOCUMENT_COST` rules of work and its per-file rules: a run of 1,000
    topics is shared when every rule (20 on a topic) checks them, not when none does."""
    docs = documents(tmp_path, 1000)
    assert not parallel._worth_a_worker(docs, None)
    assert not parallel._worth_a_worker(docs, lambda document: 0)
    assert parallel._worth_a_worker(docs, lambda document: 20)
    assert parallel._worth_a_worker(docs * 3, lambda document: 0)  # MIN_DOCUMENTS, rules or not
    assert not parallel._worth_a_worker(docs[:700], lambda document: 20)


def test_a_run_with_every_rule_shares_fewer_files_than_one_with_the_default_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine tells `check_documents` how many per-file rules check each document."""
    files = {f"memory/t{n:03d}.md": TOPIC_TEXT for n in range(40)}
    write_tree(tmp_path, {**files, "memory/MEMORY.md": "# Memory\n\n- [T0](t000.md) — A topic\n"})
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 100)  # 40 topics: shared only when their rules weigh
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    shared: list[bool] = []
    worth = parallel._worth_a_worker
    monkeypatch.setattr(
        parallel, "_worth_a_worker", lambda docs, rules: shared.append(worth(docs, rules)) or shared[-1]
    )
    lint([str(tmp_path)], load_settings(None, str(tmp_path)))
    lint([str(tmp_path)], preview_settings(tmp_path))
    assert shared == [False, True]
