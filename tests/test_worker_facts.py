"""A forked worker sends back the facts of every document it read (`Document.export`), released
or not: the parent's container rules read its frontmatter, marks and sizes from there instead of
reading and parsing the file a second time, and the findings are those of one process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import preview_settings, write_tree
from test_document_release import TREE, findings

from mnemolint import parallel
from mnemolint.engine import lint
from mnemolint.parse.document import Document

# The shared tree, and enough plain topics beside it that both processes get some of each.
WIDE = {
    **TREE,
    **{
        f"memory/plain-{n}.md": f"---\nname: Plain {n}\ndescription: Topic {n}\ntype: user\n---\n\nBody {n}.\n"
        for n in range(40)
    },
}


@pytest.mark.parametrize("release", [False, True], ids=["kept", "released"])
def test_the_parent_reads_again_only_what_a_rule_asks_the_text_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, release: bool
) -> None:
    write_tree(tmp_path, WIDE)
    settings = preview_settings(tmp_path)
    alone = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)  # both processes take parts; the worker the first
    monkeypatch.setattr(parallel, "RELEASE_MIN", 1 if release else 1 << 62)
    parent, during, after = os.getpid(), [], []  # the parent's reads, in and after the per-file rules
    original, checked = Document._read, parallel.check_documents

    def per_file(documents: list[Document], check: parallel.Check, *args: object) -> parallel.Checked:
        done = checked(documents, check, *args)  # type: ignore[arg-type]
        during.append(None)  # the mark: what is read from here on is read again
        return done

    def counted(self: Document) -> None:
        if os.getpid() == parent:  # the worker's reads stay in its own copy of the lists
            (after if during and during[-1] is None else during).append(os.path.basename(self.path))
        original(self)

    monkeypatch.setattr(parallel, "check_documents", per_file)
    monkeypatch.setattr(Document, "_read", counted)
    split = lint([str(tmp_path)], settings, release=release)
    assert findings(split.diagnostics) == findings(alone.diagnostics)
    assert len(during) - 1 < len(split.tree.documents)  # the worker checked some of the files
    # The worker's plain topics hold no link, no relation, no citation: no rule needs their text in
    # the parent, which reads none of them again.
    assert not [name for name in after if name.startswith("plain-")], sorted(after)


def test_the_title_facts_of_every_topic_are_made_by_the_per_file_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MEM208 and MEM209 compare every topic's title facts (`member_facts`): each process makes
    them for the topics it checks, the worker sends its own back, and the parent's container
    stage makes none; the findings are those of one process."""
    from mnemolint.rules import topic

    write_tree(tmp_path, WIDE)
    settings = preview_settings(tmp_path)
    alone = lint([str(tmp_path)], settings)
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "PART", 4)
    parent, phase, made_after = os.getpid(), [], []
    checked, normal = parallel.check_documents, topic._normal

    def per_file(
        documents: list[Document], check: parallel.Check, shipped: tuple[str, ...] = (), *rest: object
    ) -> parallel.Checked:
        assert "titled" in shipped
        done = checked(documents, check, shipped, *rest)  # type: ignore[arg-type]
        phase.append("after")
        return done

    def counted(text: str) -> str:
        if phase and os.getpid() == parent:
            made_after.append(text)
        return normal(text)

    monkeypatch.setattr(parallel, "check_documents", per_file)
    monkeypatch.setattr(topic, "_normal", counted)
    split = lint([str(tmp_path)], settings)
    assert findings(split.diagnostics) == findings(alone.diagnostics)
    assert "MEM208" in {diagnostic.code for diagnostic in split.diagnostics}  # the tree's twins
    assert not made_after, made_after
