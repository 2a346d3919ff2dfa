"""`--output-format github`: workflow-command annotations, one line per finding, escaped per GitHub's rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, run_cli, summary_of

from mnemolint.model import ERROR, INFO, WARNING, Diagnostic, Hit
from mnemolint.report.github_format import annotation, escape_data, escape_property

TOPIC = "---\nname: Build\ndescription: Build notes\ntype: project\n---\nBody.\n"


def diagnostic(path: str, message: str = "Broken.", severity: str = ERROR, **where: int | None) -> Diagnostic:
    return Diagnostic("MEM104", "index-broken-link", severity, path, Hit(message, **where))


def test_github_output(example: Path, snapshot) -> None:
    result = run_cli("check", "--preview", "--output-format", "github", cwd=example)
    assert result.returncode == 1
    assert result.stderr == summary_of(example, "--preview")[1] + "\n"
    assert result.stdout == snapshot


def test_default_format_in_github_actions(example: Path) -> None:
    asked = run_cli("check", "--output-format", "github", cwd=example)
    default = run_cli("check", cwd=example, env={"GITHUB_ACTIONS": "true"})
    assert default.stdout == asked.stdout and default.returncode == 1
    assert run_cli("check", "--output-format", "text", cwd=example, env={"GITHUB_ACTIONS": "true"}).stdout.startswith(
        ".ai-memory/20200115: AIM006 "
    )


def test_stdout_is_workflow_commands_only_the_summary_goes_to_stderr(example: Path) -> None:
    """GitHub reads every stdout line as a possible command; the count is for the log's reader."""
    result = run_cli("check", "--output-format", "github", cwd=example)
    lines = result.stdout.splitlines()
    count, summary = summary_of(example)
    assert len(lines) == count
    assert all(line.startswith(("::error file=", "::warning file=", "::notice file=")) for line in lines)
    assert result.stderr == summary + "\n"
    quiet = run_cli("check", "--output-format", "github", "--quiet", cwd=example)
    assert (quiet.stdout, quiet.stderr) == (result.stdout, "")


def test_a_clean_run_prints_no_command_and_says_so_on_stderr(tree) -> None:
    root = tree({"memory/MEMORY.md": "- [Build](build.md) — Build notes\n", "memory/build.md": TOPIC})
    result = run_cli("check", "--output-format", "github", cwd=root)
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == "All checks passed: 2 memory files checked.\n"


def test_fix_keeps_stdout_to_commands(tree) -> None:
    index = "- [Build](build.md) — Build notes\n- [gone](gone.md)\n"
    root = tree({"memory/MEMORY.md": index, "memory/build.md": TOPIC})
    result = run_cli("check", "--fix", "--output-format", "github", cwd=root)
    assert result.stdout == ""
    assert result.stderr == "All checks passed: 2 memory files checked.\n1 fixed, 0 remaining.\n"


def test_escaping_data() -> None:
    assert escape_data("100% sure\r\nnext: a, b") == "100%25 sure%0D%0Anext: a, b"
    assert escape_data("%0A stays literal") == "%250A stays literal"


def test_escaping_properties() -> None:
    assert escape_property("a,b:c%d\ne\rf") == "a%2Cb%3Ac%25d%0Ae%0Df"


def test_message_with_percent_newlines_commas_colons(tmp_path: Path) -> None:
    message = 'Line 1: 50% of "a, b"\nLine 2:\r\nend'
    line = annotation(diagnostic(str(tmp_path / "MEMORY.md"), message, line=2, column=3), str(tmp_path))
    assert line == (
        '::error file=MEMORY.md,line=2,col=3,title=MEM104 index-broken-link::Line 1: 50%25 of "a, b"%0ALine 2:%0D%0Aend'
    )
    assert "\n" not in line and "\r" not in line


def test_path_with_comma_colon_and_percent(tmp_path: Path) -> None:
    path = tmp_path / "notes, v2: 100%" / "MEMORY.md"
    line = annotation(diagnostic(str(path), line=1, column=1, end_line=1, end_column=5), str(tmp_path))
    assert line.startswith("::error file=notes%2C v2%3A 100%25/MEMORY.md,line=1,col=1,endLine=1,endColumn=5,")


@pytest.mark.parametrize(
    ("where", "location"),
    [
        ({}, "file=m.md"),  # whole file: no line, GitHub annotates the file
        ({"line": 4, "column": 7}, "file=m.md,line=4,col=7"),
        ({"line": 4, "column": 7, "end_line": 4, "end_column": 9}, "file=m.md,line=4,col=7,endLine=4,endColumn=9"),
        ({"line": 25, "column": 1, "end_line": 26}, "file=m.md,line=25,endLine=26"),  # columns are one-line only
    ],
)
def test_locations(tmp_path: Path, where: dict, location: str) -> None:
    line = annotation(diagnostic(str(tmp_path / "m.md"), **where), str(tmp_path))
    assert line == f"::error {location},title=MEM104 index-broken-link::Broken."


@pytest.mark.parametrize(("severity", "command"), [(ERROR, "error"), (WARNING, "warning"), (INFO, "notice")])
def test_levels(tmp_path: Path, severity: str, command: str) -> None:
    assert annotation(diagnostic(str(tmp_path / "m.md"), severity=severity), str(tmp_path)).startswith(f"::{command} ")


def test_paths_are_relative_to_the_repository_root(tree) -> None:
    root = tree({"docs/memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n"})
    git("init", "-q", cwd=root)
    result = run_cli("check", "--output-format", "github", "--quiet", cwd=root / "docs")
    assert result.stdout.startswith("::error file=docs/memory/MEMORY.md,line=1,col=3,")


def test_documented_example_is_real_output(example: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "output-formats.md").read_text(encoding="utf-8")
    shown = text.split("## github\n", 1)[1].split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()
    real = run_cli("check", "--output-format", "github", cwd=example).stdout.splitlines()
    assert len(shown) > 1 and all(line in real for line in shown)
