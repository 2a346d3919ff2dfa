"""The rule files of Cursor, Copilot, Windsurf and Cline stay cheap on 1 MB of hostile input: the
line reader, the glob readings and the dead-glob search are linear, and at most `MAX_PATTERNS`
patterns of one file are matched."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import run_lint, write_tree

from mnemolint.kinds.editor_rules import MAX_PATTERNS, read_fields

MEGABYTE = 1 << 20


def megabyte_of(unit: str) -> str:
    return (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]


HOSTILE = {
    "commas": "---\nglobs: " + megabyte_of("*a*a*a,") + "\n---\nx\n",
    "braces": "---\nglobs: " + megabyte_of("{a,") + "\n---\nx\n",
    "block list": "---\nglobs:\n" + megabyte_of("  - **/x/**/y/**/z\n") + "---\nx\n",
    "keys": "---\n" + megabyte_of("k: v\n") + "---\nx\n",
    "unclosed": "---\n" + megabyte_of("globs: ['a', \"b\" # c\n"),
    "quotes": "---\napplyTo: " + megabyte_of("'\"") + "\n---\nx\n",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_reader_is_linear(name: str) -> None:
    started = time.perf_counter()
    fields = read_fields(HOSTILE[name])
    assert len(fields.patterns("globs")) <= MAX_PATTERNS
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("name", list(HOSTILE))
def test_every_family_stays_bounded(name: str, tmp_path: Path) -> None:
    text = HOSTILE[name]
    files = {f"src/f{index}.ts": "x\n" for index in range(200)}
    files.update(
        {
            ".cursor/rules/a.mdc": text,
            ".github/instructions/a.instructions.md": text.replace("globs:", "applyTo:"),
            ".windsurf/rules/a.md": text.replace("---\n", "---\ntrigger: glob\n", 1),
            ".clinerules/a.md": text.replace("globs:", "paths:"),
        }
    )
    write_tree(tmp_path, files)
    started = time.perf_counter()
    found = run_lint(tmp_path, select=["CUR", "CPL", "WSF", "CLN"], preview=True, max_file_bytes=2 * MEGABYTE)
    assert not [d for d in found if d.code.startswith("MNL")], found
    assert time.perf_counter() - started < 30
