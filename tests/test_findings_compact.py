"""What a large memory dir keeps a finding or a topic: MEM105's fix is its rule's one function and
the orphan topic (`Fix.of`), not a closure each; the title facts MEM208, MEM209 and MEM212
compare share what the topics have in common, and say the same as the titles themselves."""

from __future__ import annotations

from pathlib import Path

from conftest import preview_settings, write_tree

from mnemolint.engine import lint
from mnemolint.kinds.memory import MemoryDir
from mnemolint.model import SAFE, Edit, Fix
from mnemolint.rules.topic import _PROJECT, _titled


def topic(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: About {name}\ntype: project\n{extra}---\n\nBody.\n"


def memory_dir(tmp_path: Path, topics: dict[str, str]) -> tuple[list, MemoryDir]:
    write_tree(tmp_path, {"memory/MEMORY.md": "# Memory\n", **{f"memory/{rel}": text for rel, text in topics.items()}})
    result = lint([str(tmp_path)], preview_settings(tmp_path))
    (memdir,) = [container for container in result.tree.containers if isinstance(container, MemoryDir)]
    return result.diagnostics, memdir


def test_a_fix_is_built_with_what_it_was_given() -> None:
    calls: list[object] = []

    def build(*given: object) -> str:
        calls.append(given)
        return "no room"

    assert Fix(SAFE, "m", build=build, of="topic").compute() == Fix(SAFE, "m", build=build).compute() == "no room"
    assert calls == [("topic",), ()]
    assert Fix(SAFE, "m", (Edit(1, 2),)).compute()[0].end == 2


def test_the_orphans_share_one_build_and_each_names_its_topic(tmp_path: Path) -> None:
    findings, memdir = memory_dir(tmp_path, {f"t{n}.md": topic(f"Note {n}") for n in range(5)})
    orphans = [finding for finding in findings if finding.code == "MEM105"]
    assert len(orphans) == 5
    assert len({id(finding.fix.build) for finding in orphans}) == 1
    assert [finding.fix.of.path for finding in orphans] == [finding.path for finding in orphans]
    lines = [finding.fix.compute()[0].content for finding in orphans]  # the lines claim the room in turn
    assert lines == [f"- [Note {n}](t{n}.md) — About Note {n}\n" for n in range(5)]


def test_title_facts_share_the_name_the_key_and_equal_words(tmp_path: Path) -> None:
    _, memdir = memory_dir(
        tmp_path,
        {
            "a.md": topic("deploy-notes 1"),
            "b.md": topic("Deploy notes 2"),
            "c.md": topic("deploy notes 3", "scope: user\n"),
        },
    )
    titles = _titled(memdir)
    first, second, third = titles.facts
    assert first.title is titles.topics[0].frontmatter.data["name"]  # already normal: the same string
    assert second.title == "deploy notes 2"
    assert first.key is second.key is _PROJECT
    assert third.key == ("user", None)
    assert first.words is second.words is third.words == ("deploy", "notes")
    assert [facts.numbers for facts in titles.facts] == ["1", "2", "3"]


def test_numbers_written_apart_are_another_series(tmp_path: Path) -> None:
    """`Build 1 2 notes` is not `Build 12 notes`: their numbers differ, so they are never compared;
    `build-12 notes` is the same words and number written apart, which MEM209 reports."""
    findings, _ = memory_dir(
        tmp_path,
        {"a.md": topic("Build 12 notes"), "b.md": topic("Build 1 2 notes"), "c.md": topic("build-12 notes")},
    )
    similar = [(Path(finding.path).name, finding.message) for finding in findings if finding.code == "MEM209"]
    assert len(similar) == 1, similar
    assert similar[0][0] == "c.md"
    assert "close to `Build 12 notes` of `a.md` (overlap 1.00" in similar[0][1]
