"""A document released after its per-file rules (`Document.release`, `lint(..., release=True)`):
what later rules read of it is kept, its text is read again only if asked for, and the findings
of a run that releases are those of one that does not, in one process or two."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import preview_settings, write_tree

from mnemolint import parallel
from mnemolint.engine import lint
from mnemolint.kinds.memory import TOPIC, MemoryDir
from mnemolint.model import Diagnostic
from mnemolint.parse import document as document_module
from mnemolint.parse.document import CITES, Document

TOPIC_TEXT = (
    "---\nname: Deploy\ndescription: How a release goes out\ntype: project\nrelates_to: build-flags.md\n---\n\n"
    "# Deploy\n\nSee [the flags](build-flags.md); the retry is in `api/middleware.py:42`.\n"
    "<!-- mnemolint-disable-next-line MEM201 -->\nA line.\n"
)
OPTIONS = {"max-file-bytes": 1 << 20, "yaml-max-depth": 20}

# A memory dir whose container and tree rules read the topics' frontmatter (MEM103, MEM104, MEM208,
# MEM209), their links and relations (MEM212), their citations (CIT001) and whole bodies (a
# secondary index without frontmatter), and a suppression comment (SUP001).
TREE = {
    "api/app.py": "a = 1\nb = 2\n",
    "api/other.py": "c = 3\n",
    "memory/MEMORY.md": "# Memory\n\n- [Deploy](deploy.md) — How a release goes out\n- [Gone](gone.md) — Not there\n"
    "- [Archive](archive.md) — older entries\n- [Deploy again](deploy-2.md) — " + "a long line " * 20 + "\n",
    "memory/deploy.md": TOPIC_TEXT,
    "memory/deploy-2.md": TOPIC_TEXT.replace("build-flags.md)", "missing-flags.md)"),
    "memory/build-flags.md": "---\nname: Build flags\ndescription: The flags\ntype: reference\n---\n\n"
    "Cites `api/app.py:1` and `api/gone.py:3`.\n<!-- mnemolint-disable MEM999 -->\n",
    "memory/archive.md": "# Archive\n\n- [Deploy](deploy.md) — How a release goes out\n"
    "- [Build flags](build-flags.md) — The flags\n- [Old](old.md) — gone\n",
    "memory/unindexed.md": "---\nname: Unindexed\ndescription: Nobody links here\ntype: user\n---\n\nBody.\n",
}


def findings(result: list[Diagnostic]) -> list[tuple]:
    return [(d.code, d.path, d.line, d.column, d.end_line, d.end_column, d.message, d.related) for d in result]


def test_a_released_document_reads_the_same_text_again(tmp_path: Path) -> None:
    path = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT}) / "memory" / "deploy.md"
    document = Document(str(path), TOPIC, OPTIONS, MemoryDir(str(tmp_path / "memory")))
    text, lines = document.text, list(document.lines)
    document.release()
    assert document._text is None and document._lines is None  # dropped, not only hidden
    assert document.text == text and document.lines == lines
    assert document.line_offset(3) == text.index("description")


def test_what_later_rules_read_is_kept_without_the_file(tmp_path: Path) -> None:
    """Frontmatter, suppressions, marks and sizes answer from what release kept: the file is gone."""
    path = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT}) / "memory" / "deploy.md"
    document = Document(str(path), TOPIC, OPTIONS, MemoryDir(str(tmp_path / "memory")))
    assert document.text == TOPIC_TEXT
    document.release()
    path.unlink()
    assert document.frontmatter.text("name") == "Deploy"
    assert document.frontmatter.key_line("description") == 3
    assert document.suppressions is not None
    assert document.holds("](") and document.holds("relates_to") and document.holds(CITES)
    assert not document.holds("supersedes")
    assert document.readable and document.size == len(TOPIC_TEXT.encode()) and not document.too_large
    assert document._text is None
    assert document.text is None  # asked for, it is read again: the file is gone now
    assert document.read_error


def test_a_given_text_is_never_released(tmp_path: Path) -> None:
    """A fix's text not yet written (`preset`) or standard input (`take`) is not the file's."""
    path = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT}) / "memory" / "deploy.md"
    fixed = Document(str(path), TOPIC, OPTIONS)
    fixed.preset("fixed\n")
    piped = Document(str(path), TOPIC, OPTIONS)
    piped.take(b"piped\n", 6)
    for document, text in ((fixed, "fixed\n"), (piped, "piped\n")):
        document.release()
        assert document.text == text


def test_texts_read_again_are_held_within_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(document_module, "REREAD_BYTES", 3 * (2 * len(TOPIC_TEXT.encode()) + 512))
    monkeypatch.setattr(document_module, "_REREADS", document_module._Rereads())
    write_tree(tmp_path, {f"memory/t{n}.md": TOPIC_TEXT for n in range(10)})
    documents = [Document(str(tmp_path / "memory" / f"t{n}.md"), TOPIC, OPTIONS) for n in range(10)]
    for document in documents:
        assert document.text == TOPIC_TEXT
        document.release()
    for document in documents:
        assert document.text == TOPIC_TEXT
        assert sum(each._text is not None for each in documents) <= 3
    assert documents[-1]._text is not None  # the newest keeps its own


@pytest.mark.parametrize("worker", [False, True], ids=["one process", "forked worker"])
def test_container_and_tree_rules_see_what_they_saw_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker: bool
) -> None:
    """Every rule, each text read again held one at a time: the findings are those of a run that
    keeps every text, and the run did release (and read again) documents."""
    write_tree(tmp_path, TREE)
    settings = preview_settings(tmp_path)
    kept = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "RELEASE_MIN", 1)  # a run this large releases
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)  # and may fork
    monkeypatch.setattr(parallel, "_cores", lambda: 2 if worker else 1)
    monkeypatch.setattr(parallel, "PART", 2)  # the worker's documents come back in several parts
    read_again: list[str] = []

    class Counted(document_module._Rereads):
        def hold(self, document: Document) -> None:
            read_again.append(document.rel)
            super().hold(document)

    monkeypatch.setattr(document_module, "REREAD_BYTES", 1)
    monkeypatch.setattr(document_module, "_REREADS", Counted())
    released = lint([str(tmp_path)], settings, release=True)
    assert findings(released.diagnostics) == findings(kept.diagnostics)
    codes = {d.code for d in kept.diagnostics}
    assert {"MEM103", "MEM104", "MEM208", "MEM212", "CIT001", "SUP001"} <= codes, codes
    assert all(document._released for document in released.tree.documents)
    assert read_again  # some rules asked for texts again
    assert sum(document._text is not None for document in released.tree.documents) <= 1


def test_a_small_run_keeps_its_texts(tmp_path: Path) -> None:
    """Below `RELEASE_MIN` documents, releasing would cost more time than the memory is worth."""
    write_tree(tmp_path, TREE)
    result = lint([str(tmp_path)], preview_settings(tmp_path), release=True)
    assert not any(document._released for document in result.tree.documents)


def test_a_worker_that_cannot_send_its_states_costs_nothing_but_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the worker sends must pickle; where it does not, the parent checks that half itself."""
    write_tree(tmp_path, TREE)
    settings = preview_settings(tmp_path)
    expected = findings(lint([str(tmp_path)], settings).diagnostics)
    monkeypatch.setattr(parallel, "RELEASE_MIN", 1)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(Document, "export", lambda self, shipped=(): lambda: None)  # a lambda does not pickle
    assert findings(lint([str(tmp_path)], settings, release=True).diagnostics) == expected


def test_a_frontmatter_parser_that_raises_keeps_the_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Releasing is never what ends a run: the rule that reads the frontmatter reports the bug.
    An unclosed block is parsed as the text is released; a closed one is parsed only when asked."""
    unclosed = TOPIC_TEXT.replace("---\n\n# Deploy", "\n# Deploy")
    tree = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT, "memory/unclosed.md": unclosed})
    documents = [
        Document(str(tree / "memory" / name), TOPIC, OPTIONS, MemoryDir(str(tmp_path / "memory")))
        for name in ("unclosed.md", "deploy.md")
    ]

    def broken(lines: list[str], depth: int) -> None:
        raise RecursionError("a parser's bug")

    monkeypatch.setattr(document_module, "split_and_parse", broken)
    for document in documents:
        assert document.text is not None
        document.release()
    assert documents[0]._text == unclosed and not documents[0]._released
    assert documents[1]._released and documents[1]._text is None
    with pytest.raises(RecursionError):
        documents[1].frontmatter  # noqa: B018 - the rule that asks gets the error, and reports it


def test_a_released_frontmatter_is_parsed_from_its_lines_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`release` keeps a closed block's lines, not its parse: a run whose rules never read it never
    parses it; asked, it is what parsing the whole text gives, without reading the file again, in
    this process, in the cache's facts and after a worker's `export`."""
    tree = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT.replace("\n", "\r\n")})
    path = tree / "memory" / "deploy.md"
    memdir = MemoryDir(str(tmp_path / "memory"))
    whole = Document(str(path), TOPIC, OPTIONS, memdir).frontmatter
    parsed: list[int] = []
    real = document_module.split_and_parse

    def counted(lines: list[str], depth: int) -> object:
        parsed.append(len(lines))
        return real(lines, depth)

    monkeypatch.setattr(document_module, "split_and_parse", counted)
    released = Document(str(path), TOPIC, OPTIONS, memdir)
    assert released.text is not None
    released.release()
    moved = Document(str(path), TOPIC, OPTIONS, memdir)
    moved.recall(released.facts())
    path.unlink()
    assert not parsed
    for document in (released, moved):
        front = document.frontmatter
        assert (front.status, front.data, front.close_line, front.yaml_lines) == (
            whole.status,
            whole.data,
            whole.close_line,
            whole.yaml_lines,
        )
        assert front.key_line("relates_to") == whole.key_line("relates_to") == 5
        assert document.read_error is None  # not read again: the file is gone
    assert parsed == [6, 6]  # its six lines up to the closing fence, not the whole text


def test_a_parsed_frontmatter_and_what_was_derived_go_with_the_text_but_the_member_facts_stay(
    tmp_path: Path,
) -> None:
    """Released by the engine (`kept`: the keys container rules read), a document keeps of what the
    per-file rules made only those keys, and of its parsed frontmatter only the block's lines
    (a parsed block and its values cost about four times its lines): asked again, the block is
    what it was, parsed from those lines without reading the file."""
    tree = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT})
    path = tree / "memory" / "deploy.md"
    memdir = MemoryDir(str(tmp_path / "memory"))
    document = Document(str(path), TOPIC, OPTIONS, memdir)
    whole = document.frontmatter
    assert whole.data is not None
    assert document.derived("titled", lambda each: "the title's facts") == "the title's facts"
    assert document.derived("memory frontmatter", lambda each: each.frontmatter) is whole
    document.release(("titled", "not made"))
    assert document._frontmatter is None
    assert document._head == "\n".join(TOPIC_TEXT.split("\n")[:6])
    assert document._derived == {"titled": "the title's facts"}
    path.unlink()
    again = document.frontmatter
    assert again is not whole
    assert (again.status, again.data, again.close_line, again.yaml_lines) == (
        whole.status,
        whole.data,
        whole.close_line,
        whole.yaml_lines,
    )
    assert document.read_error is None  # not read again: the file is gone


def test_a_document_read_again_and_released_again_keeps_what_was_derived(tmp_path: Path) -> None:
    """Released again after a container rule read its text (`_Rereads`, no `kept`): what that rule
    derived stays, so the rule never makes it a second time."""
    tree = write_tree(tmp_path, {"memory/deploy.md": TOPIC_TEXT})
    document = Document(str(tree / "memory" / "deploy.md"), TOPIC, OPTIONS, MemoryDir(str(tmp_path / "memory")))
    assert document.text is not None
    document.release(())
    assert document._derived is None
    assert document.text == TOPIC_TEXT  # read again
    document.derived("secondary index", lambda each: None)
    front = document.frontmatter
    document.release()
    assert document._derived == {"secondary index": None}
    assert document.frontmatter is front


@pytest.mark.parametrize("worker", [False, True], ids=["one process", "forked worker"])
def test_a_released_run_keeps_of_each_topic_what_container_rules_read_and_parses_none_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker: bool
) -> None:
    """`lint(..., release=True)` with every rule: what the topic rules derived for themselves (the
    judged frontmatter, the size, the secrets) goes with the text, and no container rule parses
    again the frontmatter of a topic whose values it does not read (a topic holding a link is asked
    whether it is a secondary index: a block opens it, known from its lines; MEM212 follows the
    link in its body)."""
    no_relation = TOPIC_TEXT.replace("relates_to: build-flags.md\n", "")  # its body still links build-flags.md
    topics = {f"memory/t{n:02d}.md": no_relation.replace("Deploy", f"Deploy {n}") for n in range(12)}
    write_tree(tmp_path, {**topics, "memory/MEMORY.md": "# Memory\n\nNo entries yet.\n"})
    settings = preview_settings(tmp_path)
    kept = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "RELEASE_MIN", 1)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2 if worker else 1)
    monkeypatch.setattr(parallel, "PART", 3)
    checked, real = parallel.check_documents, document_module.split_and_parse
    parsed_after: list[int] = []
    phase: list[str] = []

    def per_file(*args: object) -> parallel.Checked:
        done = checked(*args)  # type: ignore[arg-type]
        phase.append("after")
        return done

    def counted(lines: list[str], depth: int) -> object:
        if phase:
            parsed_after.append(len(lines))
        return real(lines, depth)

    monkeypatch.setattr(parallel, "check_documents", per_file)
    monkeypatch.setattr(document_module, "split_and_parse", counted)
    released = lint([str(tmp_path)], settings, release=True)
    assert findings(released.diagnostics) == findings(kept.diagnostics)
    assert {"MEM105", "MEM212"} <= {d.code for d in kept.diagnostics}  # the container rules did run
    assert not parsed_after
    own = {"memory frontmatter", "memory size", "credible secrets"}  # what the topic rules share
    for document in released.tree.documents:
        if document.kind is TOPIC:
            assert document._released and document._frontmatter is None and document._head is not None
            assert not own & set(document._derived or ()), document._derived
