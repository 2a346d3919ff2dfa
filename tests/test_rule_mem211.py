"""MEM211 frontmatter-misread: each case parsed both ways, the value per reader pinned as data
(YAML 1.2 through parse/frontmatter.py, Wave through parse/wave_frontmatter.py; READERS.md §1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_lint, write_tree

from mnemolint.parse import wave_frontmatter
from mnemolint.parse.frontmatter import split_and_parse

# (frontmatter lines, key, what YAML gives, what Wave gives)
CASES = [
    ("description: a\n  b", "description", "a b", "a"),
    ("description: hello # note", "description", "hello", "hello # note"),
    ('description: say "hi"', "description", 'say "hi"', 'say "hi'),
    ("description: >-\n  a\n  b", "description", "a b", "a b"),
    ("metadata:\n  type: user", "metadata", {"type": "user"}, "type: user"),
    ("type: User", "type", "User", "User"),
]


@pytest.mark.parametrize(("block", "key", "yaml", "wave"), CASES)
def test_value_per_reader(block: str, key: str, yaml: object, wave: object) -> None:
    text = f"---\n{block}\n---\nbody\n"
    front = split_and_parse(text.split("\n"), 16)
    assert front.data is not None and front.data[key] == yaml
    assert (wave_frontmatter.read(text) or {})[key] == wave


def topic(root: Path, block: str, where: str = ".wave/projects/p/memory") -> Path:
    return write_tree(root, {f"{where}/t.md": f"---\nname: t\ntype: user\n{block}\n---\nbody\n"})


def messages(root: Path) -> list[tuple[int | None, str, str]]:
    return [(d.line, d.severity, d.message) for d in run_lint(root, select=["MEM211"])]


def test_continuation_fires_with_the_rewrite(tmp_path: Path) -> None:
    found = messages(topic(tmp_path, "description: a\n  b"))
    assert found == [
        (
            4,
            "warning",
            "`description`: Wave's reader gets `a` where YAML gives `a b` (it drops the continuation lines of a "
            "plain value that starts on the key's line). Write it so that every reader gets the same: "
            "`description: a b`.",
        )
    ]


def test_comment_and_quote(tmp_path: Path) -> None:
    found = messages(topic(tmp_path, 'description: hello # note\ntitle: say "hi"'))
    assert [line for line, _, _ in found] == [4, 5]
    assert "inline `# comment`" in found[0][2] and "quote it: `description: 'hello # note'`" in found[0][2]
    assert "strips a quote" in found[1][2] and "`title: 'say \"hi\"'`" in found[1][2]


def test_bom_hides_the_block(tmp_path: Path) -> None:
    write_tree(tmp_path, {".wave/rules/r.md": "\ufeff---\ndescription: x\n---\nrule\n"})
    found = messages(tmp_path)
    assert len(found) == 1 and "byte-order mark" in found[0][2]


def test_type_case_and_nested_description(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {".wave/projects/p/memory/t.md": "---\nname: t\ntype: User\nmetadata:\n  description: d\n---\nbody\n"},
    )
    found = messages(tmp_path)
    assert len(found) == 2
    assert "case-sensitively" in found[0][2]
    assert "`metadata:` is one string" in found[1][2]


def test_block_scalar_is_info_once_per_file(tmp_path: Path) -> None:
    found = messages(topic(tmp_path, "description: >-\n  a\n  b\nsummary: |\n  c"))
    assert [(line, severity) for line, severity, _ in found] == [(4, "info")]


def test_quiet_for_values_every_reader_reads_alike(tmp_path: Path) -> None:
    assert messages(topic(tmp_path, "description: one line, plain\nwhen: 'quoted: fine'")) == []


def test_quiet_where_the_reader_is_not_wave(tmp_path: Path) -> None:
    assert messages(topic(tmp_path, "description: a\n  b", where=".claude/projects/p/memory")) == []
