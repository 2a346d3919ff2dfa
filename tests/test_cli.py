"""The command line as a user runs it: `python -m mnemolint` in a subprocess, on real files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import on_terminal, run_cli

from mnemolint import __version__
from mnemolint.rules import RULES

LONG = "A description that goes on " + "and on " * 25
CLEAN = {
    "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n",
    "memory/a.md": "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n",
}
# One finding each of MEM103 (line 5), MEM104 (line 4), MEM105 (c.md), MEM203 (c.md), FM004 (b.md).
MIXED = {
    **CLEAN,
    "memory/MEMORY.md": f"# Memory\n\n- [A](a.md) — About a\n- [gone](gone.md)\n- [B](b.md) — {LONG}\n",
    "memory/b.md": f"---\nname: b\ndescription: {LONG}\ntype: user\nwhen: no\n---\nbody\n",
    "memory/c.md": "---\nname: c\ntype: user\n---\nbody\n",
}
MIXED_CODES = {"MEM103", "MEM104", "MEM105", "MEM203", "FM004"}
# A single info finding: the index entry no longer matches the topic's description.
DRIFT = {**CLEAN, "memory/MEMORY.md": "- [A](a.md) — About a is no longer used\n"}
ANSI = re.compile(r"\x1b\[")


def json_findings(*args: str, cwd: Path) -> list[dict]:
    process = run_cli("check", "--output-format", "json", *args, cwd=cwd)
    assert process.returncode in (0, 1), process.stderr
    return json.loads(process.stdout)


def reported_codes(*args: str, cwd: Path) -> set[str]:
    return {item["code"] for item in json_findings(*args, cwd=cwd)}


def reported(*args: str, cwd: Path) -> set[tuple[str, str]]:
    return {(item["path"], item["code"]) for item in json_findings(*args, cwd=cwd)}


def assert_usage_error(process: subprocess.CompletedProcess, *names: str) -> None:
    """Exit 2 with exactly one line on stderr naming each of `names`, and no traceback."""
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1, process.stderr
    for name in names:
        assert name in process.stderr


def config(root: Path, name: str, body: str) -> Path:
    """Write a config file; for pyproject.toml the same keys go under `[tool.mnemolint]`."""
    if Path(name).name == "pyproject.toml":
        body = "[project]\nname = 'x'\n\n[tool.mnemolint]\n" + re.sub(r"(?m)^\[", "[tool.mnemolint.", body)
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


# Basics ------------------------------------------------------------------------------------------


def test_version() -> None:
    process = run_cli("--version")
    assert process.returncode == 0
    assert process.stdout.strip() == f"mnemolint {__version__}"


def test_clean_memory_dir_exits_0(tree) -> None:
    process = run_cli("check", cwd=tree(CLEAN))
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout.startswith("All checks passed")


def test_check_defaults_to_the_current_directory(tree) -> None:
    root = tree(MIXED)
    assert run_cli("check", cwd=root).stdout == run_cli("check", ".", cwd=root).stdout


def test_findings_exit_1_in_ruff_style(tree) -> None:
    process = run_cli("check", cwd=tree(MIXED))
    assert (process.returncode, process.stderr) == (1, "")
    lines = process.stdout.splitlines()
    assert any(line.startswith("memory/MEMORY.md:4:3: MEM104 ") and "gone.md" in line for line in lines)
    assert any(line.startswith("memory/c.md: MEM105 ") for line in lines)
    assert lines[-1].startswith("Found 5 findings (1 error, 4 warnings, 0 infos) in 4 memory files")


def test_exit_zero_still_reports(tree) -> None:
    process = run_cli("check", "--exit-zero", cwd=tree(MIXED))
    assert process.returncode == 0
    assert "MEM104" in process.stdout


def test_a_path_that_does_not_exist_is_a_usage_error(tree) -> None:
    assert_usage_error(run_cli("check", "memory", "no/such/dir", cwd=tree(CLEAN)), "no/such/dir")


# Selection ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param([], MIXED_CODES, id="default-all"),
        pytest.param(["--select", "MEM1"], {"MEM103", "MEM104", "MEM105"}, id="select-prefix"),
        pytest.param(["--select", "MEM104,FM004"], {"MEM104", "FM004"}, id="select-codes"),
        pytest.param(["--ignore", "MEM103"], MIXED_CODES - {"MEM103"}, id="ignore-code"),
        pytest.param(["--ignore", "MEM1,FM"], {"MEM203"}, id="ignore-prefixes"),
        pytest.param(
            ["--select", "MEM1", "--extend-select", "FM"], {"MEM103", "MEM104", "MEM105", "FM004"}, id="extend-select"
        ),
        pytest.param(["--select", "MEM104", "--ignore", "MEM1"], {"MEM104"}, id="most-specific-wins"),
        pytest.param(["--select", "ALL", "--ignore", "ALL"], set(), id="ignore-all"),
    ],
)
def test_select_ignore_extend_select(tree, args: list[str], expected: set[str]) -> None:
    assert reported_codes(*args, cwd=tree(MIXED)) == expected


def test_extend_select_adds_to_the_configured_selection(tree) -> None:
    root = tree(MIXED)
    config(root, "mnemolint.toml", 'select = ["MEM2"]\n')
    assert reported_codes(cwd=root) == {"MEM203"}
    assert reported_codes("--extend-select", "FM004", cwd=root) == {"MEM203", "FM004"}
    assert reported_codes("--select", "MEM104", cwd=root) == {"MEM104"}


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_selector_is_a_usage_error_naming_it(tree, option: str) -> None:
    process = run_cli("check", option, "MEM104,XYZ9", cwd=tree(MIXED))
    assert_usage_error(process, "XYZ9")
    assert process.stdout == ""


@pytest.mark.parametrize("args", [["check", "--bogus"], ["--bogus"], ["check", "--output-format", "xml"]])
def test_unknown_option_is_a_one_line_usage_error(tree, args: list[str]) -> None:
    process = run_cli(*args, cwd=tree(CLEAN))
    assert_usage_error(process, args[-1])
    assert "mnemolint mnemolint" not in process.stderr


# Output ------------------------------------------------------------------------------------------

JSON_KEYS = {"code", "name", "severity", "message", "path", "line", "column", "end_line", "end_column", "fix", "url"}


def test_json_output_shape(tree) -> None:
    root = tree(MIXED)
    items = json_findings(str(root / "memory"), cwd=root)  # an absolute argument, paths still cwd-relative
    assert isinstance(items, list) and len(items) == len(MIXED_CODES)
    for item in items:
        assert set(item) == JSON_KEYS
        assert item["severity"] in ("error", "warning", "info")
        assert item["path"].startswith("memory/") and "\\" not in item["path"]
        for key in ("line", "column", "end_line", "end_column"):
            assert item[key] is None or isinstance(item[key], int)
        assert item["fix"] is None or set(item["fix"]) == {"applicability", "message"}
        assert item["url"].endswith(f"/{item['code']}.md")
    broken = next(item for item in items if item["code"] == "MEM104")
    assert broken | {"message": None, "end_column": None, "url": None} == {
        "code": "MEM104",
        "name": "index-broken-link",
        "severity": "error",
        "message": None,
        "path": "memory/MEMORY.md",
        "line": 4,
        "column": 3,
        "end_line": 4,
        "end_column": None,
        "fix": {"applicability": "safe", "message": "Remove the broken entry"},
        "url": None,
    }
    orphan = next(item for item in items if item["code"] == "MEM105")
    assert (orphan["path"], orphan["line"], orphan["column"]) == ("memory/c.md", None, None)


def test_json_paths_are_relative_to_the_current_directory(tree) -> None:
    root = tree(MIXED)
    paths = {item["path"] for item in json_findings(str(root), cwd=root / "memory")}
    assert paths == {"MEMORY.md", "b.md", "c.md"}


def test_json_on_a_clean_dir_is_an_empty_array(tree) -> None:
    process = run_cli("check", "--output-format", "json", cwd=tree(CLEAN))
    assert (process.returncode, json.loads(process.stdout)) == (0, [])


def test_statistics_counts_per_rule(tree) -> None:
    process = run_cli("check", "--statistics", cwd=tree(MIXED))
    assert process.returncode == 1
    *rows, total = [line.split() for line in process.stdout.splitlines()]
    assert total[:2] == ["Found", "5"]  # the summary line closes the counts, as ruff's total does
    assert sorted(rows) == sorted(
        [
            ["1", "FM004", "yaml-ambiguous-scalar"],
            ["1", "MEM103", "index-line-too-long"],
            ["1", "MEM104", "index-broken-link"],
            ["1", "MEM105", "index-orphan-topic"],
            ["1", "MEM203", "topic-missing-description"],
        ]
    )


@pytest.mark.parametrize("flag", ["--quiet", "-q"])
def test_quiet_prints_findings_without_the_summary(tree, flag: str) -> None:
    process = run_cli("check", flag, cwd=tree(MIXED))
    lines = process.stdout.splitlines()
    assert process.returncode == 1
    assert len(lines) == len(MIXED_CODES)
    assert not any(line.startswith(("Found", "All checks")) for line in lines)


def test_quiet_on_a_clean_dir_prints_nothing(tree) -> None:
    process = run_cli("check", "--quiet", cwd=tree(CLEAN))
    assert (process.returncode, process.stdout) == (0, "")


def test_a_yaml_11_float_warning_never_reaches_stderr(tree) -> None:
    root = tree({**CLEAN, "memory/a.md": "---\nname: a\ndescription: About a\ntype: user\nwhen: 1e3\n---\n"})
    process = run_cli("check", cwd=root)
    assert "FM004" in process.stdout
    assert process.stderr == ""


def run_on_terminal(*args: str, cwd: Path, no_color_env: bool) -> str:
    """Run the CLI with stdout on a pseudo-terminal (where colour is allowed); return its output."""
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    if no_color_env:
        env["NO_COLOR"] = "1"
    return on_terminal(*args, cwd=cwd, env=env)


@pytest.mark.parametrize(
    ("flags", "no_color_env", "coloured"),
    [
        pytest.param([], False, True, id="terminal-colours"),
        pytest.param(["--no-color"], False, False, id="no-color-flag"),
        pytest.param([], True, False, id="NO_COLOR-env"),
    ],
)
def test_colour_only_on_a_terminal_and_never_when_disabled(
    tree, flags: list[str], no_color_env: bool, coloured: bool
) -> None:
    output = run_on_terminal("check", *flags, cwd=tree(MIXED), no_color_env=no_color_env)
    assert "MEM104" in output
    assert bool(ANSI.search(output)) is coloured


def test_no_colour_when_piped(tree) -> None:
    process = run_cli("check", cwd=tree(MIXED), env={"NO_COLOR": "", "TERM": "xterm-256color"})
    assert "MEM104" in process.stdout
    assert not ANSI.search(process.stdout)


# Configuration -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pyproject.toml", "mnemolint.toml", ".mnemolint.toml"])
def test_config_file_is_found(tree, name: str) -> None:
    root = tree(MIXED)
    config(root, name, 'ignore = ["MEM104"]\n')
    assert reported_codes(cwd=root) == MIXED_CODES - {"MEM104"}


def test_pyproject_without_a_mnemolint_table_is_not_a_config(tree) -> None:
    root = tree({**MIXED, "memory/pyproject.toml": "[project]\nname = 'y'\n"})
    config(root, "mnemolint.toml", 'ignore = ["MEM104"]\n')
    assert reported_codes("memory", cwd=root) == MIXED_CODES - {"MEM104"}


def test_nearest_config_wins(tree) -> None:
    root = tree({f"proj/{path}": content for path, content in MIXED.items()})
    config(root, "mnemolint.toml", 'ignore = ["MEM104"]\n')
    config(root, "proj/pyproject.toml", 'ignore = ["MEM203"]\n')
    assert reported_codes("proj", cwd=root) == MIXED_CODES - {"MEM203"}


@pytest.mark.parametrize(
    ("names", "winner"),
    [
        pytest.param([".mnemolint.toml", "mnemolint.toml"], ".mnemolint.toml", id="dot-beats-plain"),
        pytest.param(["mnemolint.toml", "pyproject.toml"], "mnemolint.toml", id="plain-beats-pyproject"),
    ],
)
def test_config_precedence_in_one_directory(tree, names: list[str], winner: str) -> None:
    root = tree(MIXED)
    ignores = {".mnemolint.toml": "MEM103", "mnemolint.toml": "MEM104", "pyproject.toml": "MEM105"}
    for name in names:
        config(root, name, f'ignore = ["{ignores[name]}"]\n')
    assert reported_codes(cwd=root) == MIXED_CODES - {ignores[winner]}


@pytest.mark.parametrize(
    ("body", "named"),
    [
        pytest.param("bogus = 1\n", "bogus", id="unknown-key"),
        pytest.param('index-max-lines = "many"\n', "index-max-lines", id="threshold-not-a-number"),
        pytest.param("topic-max-bytes = 1.5\n", "topic-max-bytes", id="threshold-not-an-integer"),
        pytest.param("index-max-lines = -3\n", "index-max-lines", id="threshold-negative"),
        pytest.param("select = 3\n", "select", id="select-not-a-list"),
        pytest.param('fail-level = "fatal"\n', "fail-level", id="bad-fail-level"),
        pytest.param('[severity]\nMEM109 = "loud"\n', "MEM109", id="bad-severity"),
        pytest.param('[severity]\nXYZ9 = "error"\n', "XYZ9", id="severity-unknown-code"),
        pytest.param('[per-file-ignores]\n"a.md" = ["XYZ9"]\n', "XYZ9", id="per-file-ignore-unknown-code"),
        pytest.param('select = ["MEM1", "XYZ9"]\n', "XYZ9", id="select-unknown-code"),
        pytest.param("select = [\n", "mnemolint.toml", id="invalid-toml"),
        pytest.param("index-warn-ratio = 5\n", "index-warn-ratio", id="ratio-above-one"),
        pytest.param('ignore = "LNK"\n', 'write ["LNK"]', id="a-string-for-a-list"),
        pytest.param('[per-file-ignores]\n"a.md" = "MEM1"\n', "a.md", id="per-file-ignore-a-string"),
        pytest.param('[tool.mnemolint]\nselect = ["ALL"]\n', "without the `[tool.mnemolint]` header", id="tool-table"),
    ],
)
def test_bad_config_is_a_usage_error_naming_the_key(tree, body: str, named: str) -> None:
    root = tree(MIXED)
    config(root, "mnemolint.toml", body)
    assert_usage_error(run_cli("check", cwd=root), named)


@pytest.mark.parametrize("name", ["pyproject.toml", "mnemolint.toml"])
def test_severity_override(tree, name: str) -> None:
    root = tree(DRIFT)
    [default] = json_findings("--preview", cwd=root)  # MEM109 is a preview rule
    assert (default["code"], default["severity"]) == ("MEM109", "info")
    config(root, name, 'fail-level = "error"\npreview = true\n\n[severity]\nMEM109 = "error"\n')
    process = run_cli("check", "--output-format", "json", cwd=root)
    [raised] = json.loads(process.stdout)
    assert (raised["code"], raised["severity"], process.returncode) == ("MEM109", "error", 1)


@pytest.mark.parametrize(
    ("level", "exit_code"),
    [("info", 1), ("warning", 1), ("error", 0)],
)
def test_fail_level(tree, level: str, exit_code: int) -> None:
    """A warnings-only tree (MEM105, MEM203) fails unless the fail level is `error`."""
    root = tree({**CLEAN, "memory/c.md": "---\nname: c\ntype: user\n---\nbody\n"})
    config(root, "mnemolint.toml", f'fail-level = "{level}"\n')
    process = run_cli("check", cwd=root)
    assert process.returncode == exit_code
    assert "MEM105" in process.stdout


def test_fail_level_on_the_command_line_beats_config(tree) -> None:
    root = tree(DRIFT)
    config(root, "mnemolint.toml", 'fail-level = "info"\n')
    assert run_cli("check", "--fail-level", "warning", cwd=root).returncode == 0


@pytest.mark.parametrize(
    ("table", "gone"),
    [
        pytest.param('"memory/c.md" = ["MEM203"]', {("memory/c.md", "MEM203")}, id="path-code"),
        pytest.param('"**/c.md" = ["MEM2"]', {("memory/c.md", "MEM203")}, id="globstar-prefix"),
        pytest.param('"memory/*.md" = ["FM"]', {("memory/b.md", "FM004")}, id="glob-family"),
        pytest.param(
            '"memory/MEMORY.md" = ["ALL"]', {("memory/MEMORY.md", "MEM103"), ("memory/MEMORY.md", "MEM104")}, id="all"
        ),
    ],
)
def test_per_file_ignores(tree, table: str, gone: set[tuple[str, str]]) -> None:
    root = tree(MIXED)
    before = reported(cwd=root)
    assert gone <= before
    config(root, "mnemolint.toml", f"[per-file-ignores]\n{table}\n")
    assert reported(cwd=root) == before - gone


BROKEN_INDEX = "- [Gone](gone.md) — a deleted topic\n"


@pytest.mark.parametrize(
    ("patterns", "extra", "excluded"),
    [
        pytest.param('["archive"]', {"archive/MEMORY.md": BROKEN_INDEX}, {"archive/MEMORY.md"}, id="directory-name"),
        pytest.param('["old/**"]', {"old/x/MEMORY.md": BROKEN_INDEX}, {"old/x/MEMORY.md"}, id="globstar"),
        pytest.param('["memory/c.md"]', {}, {"memory/c.md"}, id="one-file"),
    ],
)
def test_exclude(tree, patterns: str, extra: dict[str, str], excluded: set[str]) -> None:
    root = tree({**MIXED, **extra})
    assert excluded <= {path for path, _ in reported(cwd=root)}
    config(root, "mnemolint.toml", f"exclude = {patterns}\n")
    paths = {path for path, _ in reported(cwd=root)}
    assert "memory/MEMORY.md" in paths
    assert paths.isdisjoint(excluded)


@pytest.mark.parametrize("pattern", ["team/alice/notes", "team/*/notes", "**/notes"])
def test_memory_dirs_glob_makes_a_memory_dir(tree, pattern: str) -> None:
    root = tree({"team/alice/notes/topic.md": "---\nname: t\ndescription: A topic\ntype: user\n---\nbody\n"})
    assert reported(cwd=root) == set()
    config(root, "mnemolint.toml", f'memory-dirs = ["{pattern}"]\n')
    assert reported(cwd=root) == {("team/alice/notes/MEMORY.md", "MEM106")}


def test_config_that_is_not_utf8_is_a_usage_error(tree) -> None:
    root = tree(MIXED)
    (root / "mnemolint.toml").write_bytes(b'select = ["\xff"]\n')
    assert_usage_error(run_cli("check", cwd=root), "mnemolint.toml")


def test_severity_override_by_prefix_most_specific_wins(tree) -> None:
    root = tree(MIXED)
    config(root, "mnemolint.toml", '[severity]\nMEM1 = "error"\nMEM105 = "info"\n')
    levels = {(f["code"], f["severity"]) for f in json_findings(cwd=root)}
    assert ("MEM103", "error") in levels and ("MEM105", "info") in levels and ("FM004", "warning") in levels


def test_a_topic_of_a_configured_memory_dir_passed_alone(tree) -> None:
    root = tree({"notes/mem/sub/a.md": "no frontmatter\n"})
    config(root, "mnemolint.toml", 'memory-dirs = ["notes/mem"]\n')
    assert {code for _, code in reported(cwd=root)} == {"MEM106", "MEM203", "MEM205"}
    assert {code for _, code in reported("notes/mem/sub/a.md", cwd=root)} == {"MEM106", "MEM203", "MEM205"}


@pytest.mark.parametrize("args", [["check"], ["index", "memory"]])  # index: a traceback once
def test_a_deleted_working_directory_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    process = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
            "from mnemolint.cli import main; sys.exit(main(sys.argv[2:]))",
            str(gone),
            *args,
        ],
        capture_output=True,
        text=True,
    )
    assert_usage_error(process, "no longer exists")


def test_statistics_as_json(tree) -> None:
    rows = json_findings("--statistics", cwd=tree(MIXED))
    assert {row["code"] for row in rows} == MIXED_CODES
    assert all(set(row) == {"code", "name", "count", "fixable"} and row["count"] >= 1 for row in rows)


# Machine formats: stdout holds the document, everything for a person goes to stderr ----------------


@pytest.mark.parametrize("format_", ["json", "sarif"])
def test_json_and_sarif_stdout_is_one_document_with_fix(tree, format_: str) -> None:
    root = tree(MIXED)
    process = run_cli("check", "--fix", "--output-format", format_, cwd=root)
    assert process.returncode == 1
    document = json.loads(process.stdout)  # the whole of stdout, nothing before or after it
    remaining = document if format_ == "json" else document["runs"][0]["results"]
    assert remaining and process.stderr == f"2 fixed, {len(remaining)} remaining.\n"


def test_json_and_sarif_print_no_summary_anywhere(tree) -> None:
    for format_ in ("json", "sarif"):
        process = run_cli("check", "--output-format", format_, cwd=tree(MIXED))
        assert process.returncode == 1 and process.stderr == ""
        json.loads(process.stdout)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--diff", "--output-format", "json"], "--diff prints a unified diff, not json"),
        (["--diff", "--output-format", "sarif"], "not sarif"),
        (["--diff", "--output-format", "github"], "not github"),
        (["--statistics", "--output-format", "sarif"], "--statistics has no sarif form"),
        (["--statistics", "--output-format", "github"], "--statistics has no github form"),
    ],
)
def test_a_combination_with_no_form_in_the_format_is_a_usage_error(tree, args: list[str], named: str) -> None:
    root = tree(MIXED)
    before = (root / "memory/MEMORY.md").read_bytes()
    process = run_cli("check", *args, cwd=root)
    assert_usage_error(process, named)
    assert process.stdout == "" and (root / "memory/MEMORY.md").read_bytes() == before


def test_diff_and_statistics_keep_their_form_when_github_is_only_the_default(tree) -> None:
    root = tree(MIXED)
    actions = {"GITHUB_ACTIONS": "true"}
    diff = run_cli("check", "--diff", cwd=root, env=actions)
    assert diff.returncode == 1 and diff.stdout.startswith("--- a/memory/MEMORY.md\n")
    statistics = run_cli("check", "--statistics", cwd=root, env=actions)
    assert statistics.returncode == 1
    assert statistics.stdout == run_cli("check", "--statistics", "--output-format", "text", cwd=root).stdout
    assert run_cli("check", "--diff", "--output-format", "text", cwd=root).stdout == diff.stdout


def test_explicit_config_file(tree, tmp_path: Path) -> None:
    root = tree(MIXED)
    config(root, ".mnemolint.toml", 'ignore = ["MEM103"]\n')
    other = config(tmp_path / "elsewhere", "strict.toml", 'ignore = ["MEM104"]\n')
    assert reported_codes("--config", str(other), cwd=root) == MIXED_CODES - {"MEM104"}


def test_explicit_config_file_that_does_not_exist(tree) -> None:
    assert_usage_error(run_cli("check", "--config", "missing.toml", cwd=tree(CLEAN)), "missing.toml")


# Rule catalogue ----------------------------------------------------------------------------------


def test_rules_lists_every_rule() -> None:
    process = run_cli("rules")
    assert process.returncode == 0
    listed = [line.split()[0] for line in process.stdout.splitlines() if re.match(r"[A-Z]+\d{3} ", line)]
    assert listed == [rule.code for rule in RULES]


@pytest.mark.parametrize("code", ["MEM101", "mem101"])
def test_rule_prints_its_page(code: str) -> None:
    process = run_cli("rule", code)
    assert process.returncode == 0
    assert process.stdout.startswith("---\n")
    frontmatter = process.stdout.split("\n---\n", 1)[0]
    assert "code: MEM101" in frontmatter.splitlines()
    assert "# MEM101 index-over-load-limit" in process.stdout


def test_rule_unknown_code_is_a_usage_error() -> None:
    assert_usage_error(run_cli("rule", "NOPE"), "NOPE")


CTRL_C_AT_EXIT = """
import io, sys
from mnemolint import cli

class Interrupted(io.TextIOWrapper):
    '''Standard output where Ctrl-C lands on the first flush after the command is done.'''
    done = False
    def flush(self):
        if Interrupted.done:
            raise KeyboardInterrupt
        super().flush()

def run_then_interrupt():
    code = real_main()
    Interrupted.done = True
    return code

real_main, cli.main = cli.main, run_then_interrupt
sys.stdout = Interrupted(io.BytesIO())
sys.argv = ["mnemolint", "rules"]
cli.entry()
"""


def test_ctrl_c_during_the_last_flush_exits_130_without_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", CTRL_C_AT_EXIT], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 130
    assert "Traceback" not in result.stderr


# The console script as pip writes it, saying on stderr whether `locale` was imported by the end.
CONSOLE_SAYS_LOCALE = """
import sys
from mnemolint import cli

def run_then_tell():
    code = real_main()
    print("locale" in sys.modules, file=sys.stderr)
    return code

real_main, cli.main = cli.main, run_then_tell
sys.argv = ["mnemolint", *sys.argv[1:]]
cli.entry()
"""


def test_the_console_script_never_looks_for_argparse_catalogues(tree) -> None:
    """argparse's words are its own English, looked up nowhere: no `locale` import, whose cost every
    commit would pay; its usage errors read as they always did."""
    root = tree(CLEAN)

    def console(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-c", CONSOLE_SAYS_LOCALE, *args]
        return subprocess.run(command, capture_output=True, text=True, cwd=root, timeout=60)

    checked = console("check", ".")
    assert (checked.returncode, checked.stderr) == (0, "False\n")
    refused = console("hook")
    assert (refused.returncode, refused.stderr.splitlines()[0]) == (
        2,
        "mnemolint: error: the following arguments are required: event (see `mnemolint hook --help`)",
    )
