"""`mnemolint preview` and `mnemolint manifest` on real memory dirs, through the CLI; their output
pinned as snapshots (time injected with --now, mtimes set with os.utime)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.clock import parse
from mnemolint.commands.manifest import age_days, staleness_note

TOPIC = "---\nname: {0}\ndescription: {1}\ntype: {2}\n---\nBody.\n"


@pytest.fixture
def overflowing(tmp_path: Path) -> Path:
    """An index whose last lines fall past the load cap: t0 is linked again there, t200…t204 only
    there. A commented-out block of 40 lines counts for Wave, not for Claude Code."""
    lines = ["# Memory", "<!--", *(f"old note {number}" for number in range(40)), "-->"]
    lines += [f"- [Topic {number}](t{number}.md) — t{number} notes" for number in range(205)]
    lines.insert(-3, "- [Topic 0 again](t0.md) — t0 notes")
    files: dict[str, str | bytes] = {"mem/MEMORY.md": "\n".join(lines) + "\n"}
    files.update(
        {f"mem/t{number}.md": TOPIC.format(f"t{number}", f"t{number} notes", "project") for number in range(205)}
    )
    return write_tree(tmp_path, files)


@pytest.mark.parametrize("agent", ["wave", "claude-code"])
def test_preview_text(overflowing: Path, agent: str, snapshot) -> None:
    process = run_cli("preview", "mem", "--agent", agent, cwd=overflowing)
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout == snapshot


@pytest.mark.parametrize("agent", ["wave", "claude-code"])
def test_preview_json(overflowing: Path, agent: str, snapshot) -> None:
    process = run_cli("preview", "mem", "--agent", agent, "--output-format", "json", cwd=overflowing)
    facts = json.loads(process.stdout)
    assert facts == snapshot
    assert "t0.md" not in facts["unreachable"]  # linked again past the cut, but loaded before it


# A memory dir with no MEMORY.md yet is one because the configuration says so.
CONFIGURED = {"mnemolint.toml": 'memory-dirs = ["mem"]\n'}


def test_preview_of_a_dir_without_an_index_shows_the_generated_one(tmp_path: Path, snapshot) -> None:
    write_tree(
        tmp_path,
        {
            **CONFIGURED,
            "mem/b.md": TOPIC.format("Beta", "the second topic", "reference"),
            "mem/a.md": TOPIC.format("Alpha", "the first topic", "user"),
        },
    )
    process = run_cli("preview", "mem", cwd=tmp_path)
    assert process.stdout == snapshot
    assert "not yet written" in process.stdout and not (tmp_path / "mem" / "MEMORY.md").exists()


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"mem/MEMORY.md": "\n  \n"}, "mem/MEMORY.md is empty: Claude Code loads no memory section from it.\n"),
        (
            {"mem/MEMORY.md": "<!-- only a comment -->\n"},
            "mem/MEMORY.md is empty: Claude Code loads no memory section from it.\n",
        ),
        (
            {**CONFIGURED, "mem/notes.txt": "x"},
            "mem/MEMORY.md does not exist: Claude Code loads no memory section from it.\n",
        ),
        ({"mem/MEMORY.md": "- [A](a.md) — a\n", "mem/a.md": "x"}, "Nothing is cut: the whole index is loaded.\n"),
    ],
)
def test_preview_when_nothing_or_all_is_loaded(tmp_path: Path, files: dict, said: str) -> None:
    write_tree(tmp_path, files)
    assert run_cli("preview", "mem", cwd=tmp_path).stdout.endswith(said)


def test_preview_picks_wave_under_dot_wave(tmp_path: Path) -> None:
    write_tree(tmp_path, {".wave/projects/p/memory/MEMORY.md": "\n".join("- x" for _ in range(201))})
    out = run_cli("preview", ".wave/projects/p/memory", cwd=tmp_path).stdout
    assert "as Wave loads it" in out and "1 of 201 lines were cut off, starting at line 201" in out


NOW = "2026-12-01T12:00:00Z"
DAY = 86_400


@pytest.fixture
def dated(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {
        "mem/MEMORY.md": "- [A](a.md)\n",
        "mem/a.md": TOPIC.format("A", "fresh today", "user"),
        "mem/b.md": TOPIC.format("B", "one day old", "feedback"),
        "mem/c.md": TOPIC.format("C", "two days old", "Project"),  # case-sensitive: no tag
        "mem/sub/d.md": "---\nname: D\ntype: reference\n---\nNo description.\n",
        "mem/e.md": "No frontmatter at all.\n",
        "mem/f.md": TOPIC.format("F", "from the future", "project"),
    }
    write_tree(tmp_path, files)
    now = parse(NOW).timestamp()
    ages = {"a.md": 0.2, "b.md": 1.9, "c.md": 2.0, "sub/d.md": 40.5, "e.md": 400, "f.md": -3}
    for rel, days in ages.items():
        moment = now - days * DAY
        os.utime(tmp_path / "mem" / rel, ns=(int(moment * 1e9), int(moment * 1e9) - 123_000_000))
    return tmp_path


def test_manifest(dated: Path, snapshot) -> None:
    process = run_cli("manifest", "mem", "--now", NOW, cwd=dated)
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout == snapshot
    assert "MEMORY.md" not in process.stdout


def test_manifest_with_staleness(dated: Path, snapshot) -> None:
    process = run_cli("manifest", "mem", "--staleness", "--now", NOW, cwd=dated)
    assert process.stdout == snapshot
    notes = [line for line in process.stdout.splitlines() if line.startswith("  <system-reminder>")]
    assert [note.split(" days old")[0].rsplit(" ", 1)[1] for note in notes] == ["2", "40", "400"]


def test_manifest_json(dated: Path, snapshot) -> None:
    process = run_cli("manifest", "mem", "--output-format", "json", "--now", NOW, cwd=dated)
    assert json.loads(process.stdout) == snapshot


def test_manifest_keeps_the_newest_200(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {**CONFIGURED, **{f"mem/t{number:03}.md": TOPIC.format("t", "d", "user") for number in range(205)}}
    )
    for number in range(205):
        os.utime(tmp_path / "mem" / f"t{number:03}.md", (1_700_000_000 + number, 1_700_000_000 + number))
    lines = run_cli("manifest", "mem", cwd=tmp_path).stdout.splitlines()
    assert len(lines) == 200
    assert lines[0].startswith("- [user] t204.md (2023-11-14T22:16:44.000Z)") and lines[-1].startswith(
        "- [user] t005.md"
    )


@pytest.mark.parametrize(("days", "note"), [(0, False), (1.999, False), (2, True), (-5, False)])
def test_staleness_thresholds(days: float, note: bool) -> None:
    now = parse(NOW)
    mtime_ms = now.timestamp() * 1000 - days * 86_400_000
    age = age_days(mtime_ms, now)
    assert age == max(0, int(days // 1))
    assert (staleness_note(age) is not None) is note


@pytest.mark.parametrize("make", ["symlink", "folder"])
def test_a_memory_md_that_is_no_regular_file_is_said_so_not_missing(tmp_path: Path, make: str) -> None:
    """A linked `MEMORY.md` is never followed, and a folder of that name is not an index: preview
    says which, instead of "does not exist" and an index it would generate."""
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "a.md").write_text("---\nname: a\ndescription: a\ntype: user\n---\nx\n")
    if make == "symlink":
        os.symlink(tmp_path / "elsewhere.md", memory / "MEMORY.md")
    else:
        (memory / "MEMORY.md").mkdir()
    result = run_cli("preview", str(memory), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    said = "is a symlink" if make == "symlink" else "is not a regular file"
    assert f"MEMORY.md {said}" in result.stdout and "would generate" not in result.stdout


def test_wave_s_manifest_is_read_with_wave_s_reader(tmp_path: Path) -> None:
    """W-IDX memoryIndex.ts:38-85: every `.md` but MEMORY.md (a README too), fields as Wave's own
    reader takes them: an inline `# comment` stays in the value (so `user # me` is no type), and a
    BOM hides the whole block."""
    memory = tmp_path / ".wave" / "projects" / "p" / "memory"
    write_tree(
        memory,
        {
            "MEMORY.md": "- [c](c.md) — c\n",
            "c.md": "---\ndescription: fixes the build # see notes\ntype: user # me\n---\nx\n",
            "b.md": "\ufeff---\ndescription: hidden\ntype: user\n---\nx\n",
            "README.md": "# notes\n",
        },
    )
    for age, name in enumerate(("c.md", "b.md", "README.md")):
        os.utime(memory / name, ns=(1_700_000_000_000_000_000 - age * 10**12,) * 2)
    result = run_cli("manifest", str(memory), "--now", "2026-12-01", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    without_times = [re.sub(r" \(\S+\)", "", line) for line in result.stdout.splitlines()]
    assert without_times == ["- c.md: fixes the build # see notes", "- b.md", "- README.md"]
