"""`check --add-noqa`: a suppression comment for each finding, written through the fixer's writer,
on a real memory dir through the CLI; a second run changes nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

LONG = "- [Build](build.md) — " + "how to build, " * 12  # MEM103, and it ends with a space
FENCE = "```text\n" + "x" * 160 + "\n```\n"  # MEM108 on its first line: code, which takes no trailing comment
TOPIC = "---\nname: {0}\ndescription: {0}\ntype: {1}\n---\n{2}"

FILES: dict[str, str | bytes] = {
    "memory/MEMORY.md": f"# Index\n\n{LONG}\n- [Deploy](deploy.md) — deploy\n\n{FENCE}",
    "memory/build.md": TOPIC.format("Build", "projekt", "Run `make build`.\n"),  # MEM206, in the frontmatter
    "memory/deploy.md": TOPIC.format("Deploy", "project", "See [flags](flags.md)."),  # MEM212, no final newline
    "memory/orphan.md": TOPIC.format("Orphan", "project", "body\n"),  # MEM105, about the whole file
    "memory/bad.md": b"---\nname: Bad\ndescription: bad\ntype: project\n---\nbad \xff byte\n",  # not UTF-8: no comment
}

EXPECTED = {
    "memory/MEMORY.md": (
        "<!-- mnemolint-disable-file MEM108 -->\n# Index\n\n"
        f"{LONG}<!-- mnemolint-disable-line MEM103 -->\n- [Deploy](deploy.md) — deploy\n\n{FENCE}"
    ),
    "memory/build.md": TOPIC.format("Build", "projekt", "<!-- mnemolint-disable-file MEM206 -->\nRun `make build`.\n"),
    "memory/deploy.md": TOPIC.format(
        "Deploy", "project", "See [flags](flags.md). <!-- mnemolint-disable-line MEM212 -->"
    ),
    "memory/orphan.md": TOPIC.format("Orphan", "project", "<!-- mnemolint-disable-file MEM105 -->\nbody\n"),
}


def test_add_noqa_silences_every_finding_that_can_take_a_comment_and_a_second_run_changes_nothing(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, FILES)
    before = run_cli("check", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert before.returncode == 1
    added = run_cli("check", "--no-cache", "--add-noqa", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stderr.startswith("Silenced 5 findings with suppression comments in 4 files.\n2 findings left:")
    for rel, text in EXPECTED.items():
        assert (tmp_path / rel).read_bytes().decode("utf-8") == text, rel
    assert (tmp_path / "memory/bad.md").read_bytes() == FILES["memory/bad.md"]
    after = run_cli("check", "--no-cache", "--preview", cwd=tmp_path)  # SUP001 on: no comment added is unused
    assert [line.split()[:2] for line in after.stdout.splitlines()[:-1]] == [
        ["memory/bad.md:", "MEM105"],
        ["memory/bad.md:6:5:", "TXT002"],
    ]
    stamps = {rel: (tmp_path / rel).stat().st_mtime_ns for rel in FILES}
    again = run_cli("check", "--no-cache", "--add-noqa", cwd=tmp_path)
    assert again.stderr.startswith("Silenced 0 findings with suppression comments in 0 files.\n")
    assert {rel: (tmp_path / rel).stat().st_mtime_ns for rel in FILES} == stamps


def test_add_noqa_with_diff_shows_the_comments_and_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, FILES)
    shown = run_cli("check", "--no-cache", "--add-noqa", "--diff", cwd=tmp_path)
    assert shown.returncode == 0
    assert "+<!-- mnemolint-disable-file MEM105 -->\n" in shown.stdout
    assert shown.stderr.startswith("Would silence 5 findings with suppression comments in 4 files.\n")
    assert (tmp_path / "memory/orphan.md").read_text(encoding="utf-8") == FILES["memory/orphan.md"]


def test_add_noqa_adds_codes_to_the_comment_a_line_has_and_keeps_crlf(tmp_path: Path) -> None:
    index = f"# Index\r\n{LONG.rstrip()} <!-- mnemolint-disable-line TXT004 -->\r\n".replace("build.md", "a.md")
    write_tree(tmp_path, {"memory/MEMORY.md": index, "memory/a.md": TOPIC.format("A", "project", "a\r\n")})
    assert run_cli("check", "--no-cache", "--add-noqa", "--select", "MEM103", cwd=tmp_path).returncode == 0
    assert (tmp_path / "memory/MEMORY.md").read_bytes().decode() == index.replace("TXT004", "TXT004,MEM103")


def test_a_file_comment_goes_at_the_end_when_the_frontmatter_never_closes(tmp_path: Path) -> None:
    write_tree(tmp_path, {"memory/MEMORY.md": "# Index\n", "memory/a.md": "---\nname: A\ndescription: a"})
    assert run_cli("check", "--no-cache", "--add-noqa", cwd=tmp_path).returncode == 0
    text = (tmp_path / "memory/a.md").read_text(encoding="utf-8")
    assert text.startswith("---\nname: A\ndescription: a\n<!-- mnemolint-disable-file ")
    assert run_cli("check", "--no-cache", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    ("lines", "expected"), [(1_000, "TXT004,MEM103 -->"), (5_500, "+<!-- mnemolint-disable-file MEM103 -->")]
)
def test_many_findings_on_lines_with_comments_are_planned_in_bounded_time(
    tmp_path: Path, lines: int, expected: str
) -> None:
    """Each line's comment is found once per file, not once per finding; a text too large for the
    Markdown layer (over 256 KiB) cannot be told code from text, so it gets one `disable-file`."""
    line = f"{LONG.rstrip()} <!-- mnemolint-disable-line TXT004 -->"
    index = "\n".join([line] * lines) + "\n"
    write_tree(tmp_path, {"memory/MEMORY.md": index, "memory/build.md": TOPIC.format("Build", "project", "b\n")})
    start = time.monotonic()
    shown = run_cli("check", "--no-cache", "--add-noqa", "--diff", "--select", "MEM103", cwd=tmp_path)
    assert time.monotonic() - start < 60
    assert shown.stderr.startswith(f"Would silence {lines:,} findings with suppression comments in 1 file.\n")
    assert shown.stdout.count(expected) == (lines if lines < 2_000 else 1)


def test_add_noqa_takes_neither_fix_nor_a_baseline(tmp_path: Path) -> None:
    write_tree(tmp_path, FILES)
    for extra in (["--fix"], ["--baseline", "b.json"]):
        result = run_cli("check", "--add-noqa", *extra, cwd=tmp_path)
        assert (result.returncode, result.stderr) == (
            2,
            "mnemolint: error: --add-noqa silences the findings there are: it takes neither --fix nor a baseline\n",
        )
    assert (tmp_path / "memory/orphan.md").read_text(encoding="utf-8") == FILES["memory/orphan.md"]
