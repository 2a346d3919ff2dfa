"""mnemolint.api: `lint`, `read`, `preview` on real files; and a differential test of `read` against
python-frontmatter's own loader on cases taken from the shapes found in ../shared/corpus/, pinning
case by case where the two disagree and why."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

import frontmatter
import pytest
import yaml
from conftest import write_tree

from mnemolint import api
from mnemolint.errors import ConfigError

TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\nBody.\n"


def test_lint_finds_what_check_finds(tmp_path: Path) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "- [A](a.md) — a notes\n- [gone](gone.md)\n", "mem/a.md": TOPIC.format("a")})
    found = api.lint(tmp_path / "mem")
    assert [(finding.code, Path(finding.path).name, finding.line) for finding in found] == [("MEM104", "MEMORY.md", 2)]
    assert api.lint([tmp_path / "mem"], {"ignore": ["MEM104"]}) == []
    assert api.lint([]) == []


def test_lint_takes_a_config_file_and_refuses_a_bad_setting(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"mem/MEMORY.md": "- [A](a.md) — a notes\n", "mem/a.md": TOPIC.format("a"), "c.toml": "select = ['MEM2']\n"},
    )
    assert api.lint(tmp_path / "mem", tmp_path / "c.toml") == []
    with pytest.raises(ConfigError, match="index-max-lines"):
        api.lint(tmp_path / "mem", {"index-max-lines": "many"})


def test_lint_redacts_secrets_as_every_output_does(tmp_path: Path) -> None:
    keys = "---\nname: keys\ndescription: deploy with AKIAIOSFODNN7EXAMPLE\ntype: reference\n---\nBody.\n"
    write_tree(
        tmp_path, {"mem/MEMORY.md": "- [Keys](keys.md) — deploying by hand is no longer allowed\n", "mem/keys.md": keys}
    )
    found = api.lint(tmp_path / "mem", {"preview": True})  # MEM109 is a preview rule
    [drift] = [finding for finding in found if finding.code == "MEM109"]
    assert "AKIA***" in drift.message and "AKIAIOSFODNN7EXAMPLE" not in drift.message


def test_read_returns_a_post_as_each_agent_reads_it(tmp_path: Path) -> None:
    path = write_tree(tmp_path, {"t.md": "---\nname: t\ndescription: a\n  b\npaths: [a, b]\n---\nBody.\n"}) / "t.md"
    claude = api.read(path)
    assert isinstance(claude, frontmatter.Post)
    assert (claude.metadata, claude.content) == ({"name": "t", "description": "a b", "paths": ["a", "b"]}, "Body.\n")
    wave = api.read(str(path), agent="wave")
    assert wave.metadata == {"name": "t", "description": "a", "paths": "[a, b]"}  # READERS.md §1
    assert wave["description"] == "a" and wave.content == "Body.\n"
    with pytest.raises(ValueError, match="agent must be one of"):
        api.read(path, agent="codex")


def test_preview_returns_the_facts(tmp_path: Path) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "\n".join("- x" for _ in range(203)), "mem/a.md": TOPIC.format("a")})
    facts = api.preview(tmp_path / "mem", agent="wave")
    assert (facts["agent"], facts["total"], facts["loaded"]["lines"]) == (
        "wave",
        {"lines": 203, "characters": 811},
        200,
    )
    assert facts["warning"].startswith("> WARNING: MEMORY.md is 203 lines (limit: 200).")
    assert api.preview(tmp_path / "mem")["agent"] == "claude-code"


def test_python_frontmatter_is_imported_by_read_only() -> None:
    script = (
        "import sys\nfrom mnemolint import api\nprint('frontmatter' in sys.modules)\n"
        "api.lint([])\nprint('frontmatter' in sys.modules)\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert process.stdout == "False\nFalse\n", process.stderr


# (file text, python-frontmatter's metadata or the exception it raises, what Claude Code gets
# through mnemolint's reader, what Wave gets, and why they differ). python-frontmatter strips the
# body as well; that difference is not repeated in each case.
CASES = {
    "agree": (
        "---\nname: x\ndescription: plain\ntype: user\n---\nBody\n",
        {"name": "x", "description": "plain", "type": "user"},
        {"name": "x", "description": "plain", "type": "user"},
        {"name": "x", "description": "plain", "type": "user"},
        "all three read a plain mapping alike",
    ),
    "bom": (
        "\ufeff---\nname: x\ndescription: d\n---\nBody\n",
        {},
        {"name": "x", "description": "d"},
        {},
        "python-frontmatter and Wave see no block behind a BOM; mnemolint reads it (and TXT001 reports the BOM)",
    ),
    "unclosed": (
        "---\nname: x\ndescription: d\nBody\n",
        {},
        {},
        {},
        "an unclosed fence is no frontmatter to anyone (FM003 reports it)",
    ),
    "yaml-1.1-scalars": (
        "---\nname: no\ntype: on\ncount: 010\nratio: 1e3\nwhen: 2024-01-01\n---\nBody\n",
        {"name": False, "type": True, "count": 8, "ratio": "1e3", "when": datetime.date(2024, 1, 1)},
        {"name": "no", "type": "on", "count": 10, "ratio": 1000.0, "when": datetime.date(2024, 1, 1)},
        {"name": "no", "type": "on", "count": "010", "ratio": "1e3", "when": "2024-01-01"},
        "PyYAML is YAML 1.1 (`no` false, `010` octal, `1e3` a string); YAML 1.2 reads `no` as text and "
        "`1e3` as a float; Wave coerces nothing (FM004 reports each)",
    ),
    "list-frontmatter": (
        "---\n- a\n- b\n---\nBody\n",
        {},
        {},
        {},
        "a list is no mapping: python-frontmatter drops it silently, mnemolint too (and FM002 reports it)",
    ),
    "colon-in-value": (  # the most common shape in the corpus: python-frontmatter fails on 430 files
        "---\nname: x\ndescription: 2026-04-20; use `a`: not b\n---\nBody\n",
        yaml.scanner.ScannerError,
        {"name": "x", "description": "2026-04-20; use `a`: not b"},
        {"name": "x", "description": "2026-04-20; use `a`: not b"},
        "invalid YAML: python-frontmatter raises, Claude Code reads it on its second try with the value quoted "
        "(FM001 says so), Wave splits at the first colon and gets the text",
    ),
    "nested-metadata": (  # johnnyt__dotfiles/claude/memory: type under metadata:
        "---\nname: x\nmetadata:\n  type: project\n  origin: s1\n---\nBody\n",
        {"name": "x", "metadata": {"type": "project", "origin": "s1"}},
        {"name": "x", "metadata": {"type": "project", "origin": "s1"}},
        {"name": "x", "metadata": "type: project origin: s1"},
        "Wave reads `metadata:` as one string, so the nested type is lost (MEM205 says so)",
    ),
    "continuation": (
        "---\nname: x\ndescription: first line\n  second line\n---\nBody\n",
        {"name": "x", "description": "first line second line"},
        {"name": "x", "description": "first line second line"},
        {"name": "x", "description": "first line"},
        "Wave drops the continuation of a value that starts on the key's line",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_read_beside_python_frontmatter(tmp_path: Path, case: str) -> None:
    text, theirs, claude, wave, _why = CASES[case]
    path = tmp_path / "topic.md"
    path.write_bytes(text.encode("utf-8"))
    if isinstance(theirs, type):
        with pytest.raises(theirs):
            frontmatter.load(str(path))
    else:
        assert frontmatter.load(str(path)).metadata == theirs
    assert api.read(path).metadata == claude
    assert api.read(path, agent="wave").metadata == wave


def test_read_keeps_the_body_as_the_agent_has_it(tmp_path: Path) -> None:
    path = write_tree(tmp_path, {"t.md": "---\nname: x\n---\n\nBody\n\n"}) / "t.md"
    assert frontmatter.load(str(path)).content == "Body"  # python-frontmatter strips it
    assert api.read(path, agent="wave").content == "\nBody\n\n"
    assert api.read(path).content == "Body\n\n"  # Claude Code's split takes the white space after `---` too
    unclosed = write_tree(tmp_path, {"u.md": "---\nname: x\nBody\n"}) / "u.md"
    assert api.read(unclosed).content == "---\nname: x\nBody\n"


def test_read_takes_any_key_as_metadata(tmp_path: Path) -> None:
    """`content`, `handler` or `1` are frontmatter keys like any other, not `Post` arguments."""
    path = tmp_path / "k.md"
    path.write_text("---\ncontent: x\nhandler: y\n1: hi\n---\nbody\n", encoding="utf-8")
    assert api.read(path).metadata == {"content": "x", "handler": "y", 1: "hi"}
    assert api.read(path, agent="wave").metadata == {"content": "x", "handler": "y", "1": "hi"}


def test_read_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f.md"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        api.read(fifo)
