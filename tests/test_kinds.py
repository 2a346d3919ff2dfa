"""The kind seam: discovery asks the registry about every file, the engine runs what a rule says
it reads, and a kind without frontmatter or suppression comments never has either parsed.

A kind the project does not ship yet (a root `NOTES.txt` read by no container) is added to the
real registry for one test, where a new kind module's line and manifest entry would put it: among
the kinds a file of that name may be, and in the whole registry."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_lint

from mnemolint.agents import CLAUDE_CODE
from mnemolint.kinds import registry
from mnemolint.kinds.base import Kind
from mnemolint.kinds.memory import INDEX, TOPIC

NOTES = Kind(
    "notes",
    names=("NOTES.txt",),
    container=None,
    matches=lambda rel: rel.rpartition("/")[2] == "NOTES.txt",
    frontmatter=False,
    frontmatter_fields=False,
    suppressions=False,
    reader=lambda document: CLAUDE_CODE,
)


@pytest.fixture
def with_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._at_root, "NOTES.txt", [NOTES])
    monkeypatch.setattr(registry, "KINDS", (*registry.KINDS, NOTES))


def test_the_registry_recognises_memory_files_by_their_path_in_the_memory_dir() -> None:
    memory = INDEX.container
    assert registry.kind_of("MEMORY.md", memory) is INDEX
    assert registry.kind_of("sub/deep.md", memory) is TOPIC
    assert registry.kind_of("README.md", memory) is None
    assert registry.kind_of("notes.txt", memory) is None
    assert registry.kind_of("MEMORY.md", None) is None  # outside every memory dir it is no index


def _documents(root: Path, *paths: str) -> list[tuple[str, str]]:
    from mnemolint.config import Settings
    from mnemolint.discover.walk import discover

    tree = discover([str(root / path) for path in paths] or [str(root)], Settings(str(root)))
    return sorted(
        (str(Path(document.path).relative_to(root)), document.kind.name)
        for document in tree.documents
        if tree.in_focus(document.path)
    )


def test_a_kind_without_a_container_is_found_by_the_walk_and_when_named_alone(with_notes, tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "NOTES.txt").write_text("---\nnot: frontmatter\n---\n<!-- mnemolint-disable -->\n")
    (tmp_path / "pkg" / "other.txt").write_text("x\n")
    assert _documents(tmp_path) == [("pkg/NOTES.txt", "notes")]
    assert _documents(tmp_path, "pkg/NOTES.txt") == [("pkg/NOTES.txt", "notes")]  # the pre-commit case
    assert _documents(tmp_path, "pkg/other.txt") == []


def test_every_file_of_the_tree_is_kept_claimed_or_not(tmp_path: Path) -> None:
    from mnemolint.config import Settings
    from mnemolint.discover.walk import discover

    (tmp_path / "mem").mkdir()
    for name in ("MEMORY.md", "a.md", "image.png", "README.md"):
        (tmp_path / "mem" / name).write_text("x\n")
    (tmp_path / "src.py").write_text("x\n")
    tree = discover([str(tmp_path)], Settings(str(tmp_path)))
    assert [Path(path).name for path in tree.files] == ["src.py", "MEMORY.md", "README.md", "a.md", "image.png"]
    assert sorted(Path(document.path).name for document in tree.documents) == ["MEMORY.md", "a.md"]


def test_a_kind_without_frontmatter_or_suppressions_has_neither_parsed_nor_their_rules_run(
    with_notes, tmp_path: Path
) -> None:
    """A `---` block in it is text, so no FM rule runs; a disable comment in it silences nothing."""
    (tmp_path / "NOTES.txt").write_text("---\n: : bad yaml [\n\ufeffx\r\ny\n<!-- mnemolint-disable -->\n")
    found = run_lint(tmp_path)
    assert [(Path(d.path).name, d.code) for d in found] == [("NOTES.txt", "TXT003")]  # read as text: every kind
