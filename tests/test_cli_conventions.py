"""The command-line conventions a ruff user expects (docs/conventions.md names the test of each):
`--color` and the colour variables, `--output-file`, `--show-fixes`, `--verbose`, the total under
`--statistics`, `rule` by name and as JSON, `rules` as JSON, and `completion bash|zsh|fish`.

Every test runs the real CLI in a subprocess (on a pseudo-terminal where the terminal matters),
and the completion scripts run in the real shells.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import on_terminal, run_cli, write_tree

from mnemolint.catalog import page
from mnemolint.cli import build_parser
from mnemolint.commands import completion
from mnemolint.report.color import use_color
from mnemolint.rules import BY_CODE, RULES

ANSI = re.compile(r"\x1b\[")
LONG = "A description that goes on " + "and on " * 25
# MEM104 (a dead link: safe fix), MEM103 (a long line: unsafe fix), MEM203 (no fix), MEM105 (safe fix).
FIXABLE = {
    "memory/MEMORY.md": f"# Memory\n\n- [A](a.md) — About a\n- [gone](gone.md)\n- [B](b.md) — {LONG}\n",
    "memory/a.md": "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n",
    "memory/b.md": f"---\nname: b\ndescription: {LONG}\ntype: user\n---\nbody\n",
    "memory/c.md": "---\nname: c\ntype: user\n---\nbody\n",
}
COLOUR_VARIABLES = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "TERM")


def environment(**variables: str) -> dict[str, str]:
    """This environment without any colour variable, then `variables`."""
    env = {key: value for key, value in os.environ.items() if key not in COLOUR_VARIABLES + ("GITHUB_ACTIONS",)}
    return {**env, **variables}


def piped(*args: str, cwd: Path, **variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mnemolint", *args],
        cwd=cwd,
        env=environment(**variables),
        capture_output=True,
        text=True,
        timeout=120,
    )


def terminal(*args: str, cwd: Path, **variables: str) -> str:
    return on_terminal(*args, cwd=cwd, env=environment(**variables))


# --- colour --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "variables", "coloured"),
    [
        pytest.param([], {}, False, id="piped"),
        pytest.param([], {"FORCE_COLOR": "1"}, True, id="FORCE_COLOR"),
        pytest.param([], {"CLICOLOR_FORCE": "1"}, True, id="CLICOLOR_FORCE"),
        pytest.param([], {"CLICOLOR_FORCE": "0"}, False, id="CLICOLOR_FORCE=0"),
        pytest.param([], {"FORCE_COLOR": ""}, False, id="FORCE_COLOR-empty"),
        pytest.param([], {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, id="NO_COLOR-beats-FORCE_COLOR"),
        pytest.param(["--color", "always"], {}, True, id="always"),
        pytest.param(["--color", "always"], {"NO_COLOR": "1"}, True, id="always-beats-NO_COLOR"),
        pytest.param(["--color", "never"], {"FORCE_COLOR": "1"}, False, id="never-beats-FORCE_COLOR"),
        pytest.param(["--no-color"], {"FORCE_COLOR": "1"}, False, id="no-color-is-never"),
    ],
)
def test_colour_on_a_pipe(tmp_path: Path, flags: list[str], variables: dict[str, str], coloured: bool) -> None:
    result = piped("check", *flags, cwd=write_tree(tmp_path, FIXABLE), **variables)
    assert result.returncode == 1 and "MEM104" in result.stdout
    assert bool(ANSI.search(result.stdout)) is coloured


@pytest.mark.parametrize(
    ("flags", "variables", "coloured"),
    [
        pytest.param([], {"TERM": "xterm-256color"}, True, id="terminal"),
        pytest.param([], {"TERM": "dumb"}, False, id="TERM=dumb"),
        pytest.param([], {"TERM": "xterm-256color", "CLICOLOR": "0"}, False, id="CLICOLOR=0"),
        pytest.param([], {"TERM": "xterm-256color", "NO_COLOR": "1"}, False, id="NO_COLOR"),
        pytest.param(["--color", "never"], {"TERM": "xterm-256color"}, False, id="never"),
        pytest.param(["--color=auto"], {"TERM": "xterm-256color"}, True, id="auto"),
    ],
)
def test_colour_on_a_terminal(tmp_path: Path, flags: list[str], variables: dict[str, str], coloured: bool) -> None:
    output = terminal("check", *flags, cwd=write_tree(tmp_path, FIXABLE), **variables)
    assert "MEM104" in output
    assert bool(ANSI.search(output)) is coloured


def test_the_colour_decision_in_order() -> None:
    class Terminal:
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), open(os.devnull, "w")  # noqa: SIM115
    with pipe:
        assert use_color("auto", terminal, {}) and not use_color("auto", pipe, {})
        assert not use_color("auto", terminal, {"NO_COLOR": "1", "CLICOLOR_FORCE": "1"})
        assert use_color("auto", pipe, {"FORCE_COLOR": "0"})  # force-color.org: any non-empty value
        assert use_color("auto", terminal, {"NO_COLOR": ""})  # no-color.org: an empty one is unset
        assert use_color("always", pipe, {"NO_COLOR": "1"}) and not use_color("never", terminal, {"FORCE_COLOR": "1"})


def test_rules_is_a_rich_table_on_a_colour_terminal_and_plain_columns_piped(tmp_path: Path) -> None:
    coloured = piped("rules", "--color", "always", cwd=tmp_path, COLUMNS="160")
    assert coloured.returncode == 0 and ANSI.search(coloured.stdout)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout)
    assert [line.split()[0] for line in plain.splitlines() if re.match(r"[A-Z]+\d{3} ", line)] == [
        rule.code for rule in RULES
    ]
    piped_out = piped("rules", cwd=tmp_path).stdout
    assert not ANSI.search(piped_out) and piped_out == run_cli("rules", cwd=tmp_path).stdout


def test_rule_page_is_rendered_markdown_on_a_colour_terminal(tmp_path: Path) -> None:
    rendered = piped("rule", "MEM101", "--color", "always", cwd=tmp_path, COLUMNS="100")
    assert rendered.returncode == 0 and ANSI.search(rendered.stdout)
    text = re.sub(r"\x1b\[[0-9;]*m", "", rendered.stdout)
    assert "MEM101 index-over-load-limit" in text and "What it finds" in text
    assert "## What it finds" not in text and "code: MEM101" not in text  # Markdown rendered, no frontmatter
    assert piped("rule", "MEM101", cwd=tmp_path).stdout == page("MEM101")  # piped: the page as written


def test_preview_is_coloured_by_what_is_lost_and_says_the_same(tmp_path: Path) -> None:
    entries = "".join(f"- [T{n}](t{n}.md) — topic {n}\n" for n in range(5))
    root = write_tree(tmp_path, {"memory/MEMORY.md": entries, "mnemolint.toml": "index-max-lines = 3\n"})
    coloured = piped("preview", "memory", "--color", "always", cwd=root)
    plain = piped("preview", "memory", cwd=root)
    assert coloured.returncode == plain.returncode == 0 and "Dropped entries (2)" in plain.stdout
    assert "\x1b[33m  - T3 (t3.md)" in coloured.stdout  # a dropped entry in yellow (red once unreachable)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout) == plain.stdout and not ANSI.search(plain.stdout)


# --- --output-file -------------------------------------------------------------------------------


def test_output_file_holds_the_report_and_stdout_nothing(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FIXABLE)
    to_stdout = run_cli("check", "--output-format", "json", cwd=root)
    result = run_cli("check", "--output-format", "json", "--output-file", "reports/deep/mnemolint.json", cwd=root)
    assert result.returncode == to_stdout.returncode == 1
    assert result.stdout == "" and result.stderr == ""
    assert (root / "reports/deep/mnemolint.json").read_text(encoding="utf-8") == to_stdout.stdout


def test_output_file_is_never_coloured_in_auto_and_keeps_the_summary(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FIXABLE)
    result = piped("check", "-o", "report.txt", cwd=root)
    written = (root / "report.txt").read_text(encoding="utf-8")
    assert result.stdout == "" and not ANSI.search(written)
    assert written == piped("check", cwd=root).stdout


@pytest.mark.parametrize("link", ["report.sarif", "reports/report.sarif"], ids=["file", "folder"])
def test_output_file_is_never_written_through_a_symlink(tmp_path: Path, link: str) -> None:
    """A repository can hold a link named like the report: the CI job's report must not land where it leads."""
    root = write_tree(tmp_path / "repo", FIXABLE)
    victim = write_tree(tmp_path / "outside", {"report.sarif": "precious\n"})
    if link == "report.sarif":
        (root / link).symlink_to(victim / "report.sarif")
    else:
        (root / "reports").symlink_to(victim)
    result = run_cli("check", "--output-format", "sarif", "--output-file", link, cwd=root)
    assert result.returncode == 2 and "symlink" in result.stderr and len(result.stderr.splitlines()) == 1
    assert (victim / "report.sarif").read_text(encoding="utf-8") == "precious\n"


def test_output_file_that_cannot_be_written_is_a_usage_error(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", FIXABLE)
    (root / "taken").mkdir()
    result = run_cli("check", "-o", "taken", cwd=root)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("mnemolint: error: cannot write --output-file taken")


# --- --show-fixes --------------------------------------------------------------------------------


def test_show_fixes_marks_what_fix_would_fix(tmp_path: Path, snapshot) -> None:
    root = write_tree(tmp_path, FIXABLE)
    result = run_cli("check", "--show-fixes", cwd=root)
    assert result.returncode == 1
    assert result.stdout == snapshot
    marked = [line.split()[1] for line in result.stdout.splitlines() if " [*] " in line and ": " in line]
    assert sorted(marked) == ["MEM104", "MEM105"]  # the safe fixes only; MEM103's is unsafe
    assert "MEM104 [*]" not in run_cli("check", cwd=root).stdout  # no marker without the flag


def test_show_fixes_with_unsafe_fixes_marks_those_too(tmp_path: Path) -> None:
    result = run_cli("check", "--show-fixes", "--unsafe-fixes", cwd=write_tree(tmp_path, FIXABLE))
    marked = sorted(line.split()[1] for line in result.stdout.splitlines() if " [*] " in line and ": " in line)
    assert marked == ["MEM103", "MEM104", "MEM105"]
    assert result.stdout.splitlines()[-1] == "[*] 3 fixable with `--fix --unsafe-fixes`."


def test_show_fixes_after_fix_lists_what_was_fixed(tmp_path: Path, snapshot) -> None:
    root = write_tree(tmp_path, FIXABLE)
    result = run_cli("check", "--fix", "--show-fixes", cwd=root)
    assert result.stdout == snapshot
    assert "[*]" not in result.stdout  # after --fix, what it could fix is fixed: nothing is marked
    assert "- [gone](gone.md)" not in (root / "memory/MEMORY.md").read_text(encoding="utf-8")


# --- --verbose, --statistics ---------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["-v", "--verbose"])
def test_verbose_says_how_the_run_went_on_stderr_only(tmp_path: Path, flag: str) -> None:
    root = write_tree(tmp_path, {**FIXABLE, "mnemolint.toml": 'ignore = ["MEM203"]\n'})
    quiet, verbose = run_cli("check", cwd=root, preview=False), run_cli("check", flag, cwd=root, preview=False)
    assert verbose.stdout == quiet.stdout and quiet.stderr == ""
    said = verbose.stderr.splitlines()
    assert said[0] == f"mnemolint: configuration: {root / 'mnemolint.toml'}"
    assert re.fullmatch(
        rf"mnemolint: rules: \d+ of {len(RULES)} active \(without preview rules\), fail level warning", said[1]
    )
    assert said[2] == f"mnemolint: cache: {root / '.mnemolint_cache'}"
    assert re.fullmatch(r"mnemolint: checked 4 memory files in [\d,]+ ms", said[3])
    assert "cache: not used" in run_cli("check", "-v", "--no-cache", cwd=root).stderr


def test_statistics_end_with_the_total_unless_quiet(tmp_path: Path) -> None:
    root = write_tree(tmp_path, FIXABLE)
    lines = run_cli("check", "--statistics", cwd=root).stdout.splitlines()
    assert lines[-1] == run_cli("check", cwd=root).stdout.splitlines()[-1]
    assert lines[-1].startswith("Found 4 findings")
    assert len(run_cli("check", "--statistics", "--quiet", cwd=root).stdout.splitlines()) == len(lines) - 1
    rows = json.loads(run_cli("check", "--statistics", "--output-format", "json", cwd=root).stdout)
    assert sum(row["count"] for row in rows) == 4  # JSON stays one array, no total in it


# --- rule, rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["index-over-load-limit", "Index-Over-Load-Limit", "mem101"])
def test_rule_by_name_or_code(name: str) -> None:
    result = run_cli("rule", name)
    assert result.returncode == 0 and result.stdout == run_cli("rule", "MEM101").stdout


def test_an_unknown_rule_name_is_a_usage_error() -> None:
    result = run_cli("rule", "index-over-everything")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "index-over-everything" in result.stderr and "neither a code nor a name" in result.stderr


def test_rule_and_rules_as_json_agree() -> None:
    listed = json.loads(run_cli("rules", "--output-format", "json").stdout)
    assert [entry["code"] for entry in listed] == [rule.code for rule in RULES]
    one = json.loads(run_cli("rule", "MEM101", "--output-format", "json").stdout)
    assert {key: value for key, value in one.items() if key != "explanation"} == listed[0]
    assert one["explanation"] == page("MEM101") and one["name"] == BY_CODE["MEM101"].name


# --- completion ----------------------------------------------------------------------------------


def script(shell: str, cwd: Path) -> Path:
    result = run_cli("completion", shell, cwd=cwd)
    assert result.returncode == 0 and result.stderr == ""
    path = cwd / f"mnemolint.{shell}"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def bash_complete(source: Path, words: list[str], cwd: Path) -> list[str]:
    """COMPREPLY for the command line `words` (the last one being completed), from the sourced script."""
    line = " ".join(f"'{word}'" for word in words)
    program = (
        f"source {source}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}\n"
        '_mnemolint\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(["bash", "--norc", "-c", program], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return [line for line in result.stdout.splitlines() if line]


def test_bash_completion_sourced_in_bash(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    source = script("bash", tmp_path / "scripts")  # not among the files completed below
    write_tree(tmp_path, {"mnemolint.toml": "", "memory/MEMORY.md": ""})
    parser = build_parser()
    names = [command.name for command in completion.commands(parser)]
    assert bash_complete(source, ["mnemolint", ""], tmp_path) == [*names, "--help", "--version"]
    assert bash_complete(source, ["mnemolint", "ch"], tmp_path) == ["check"]
    check_options = [
        string
        for action in parser._subparsers._group_actions[0].choices["check"]._actions
        for string in action.option_strings
    ]
    assert sorted(bash_complete(source, ["mnemolint", "check", "-"], tmp_path)) == sorted(check_options)
    assert bash_complete(source, ["mnemolint", "check", "--output-format", ""], tmp_path) == [
        "text",
        "json",
        "sarif",
        "github",
    ]
    assert bash_complete(source, ["mnemolint", "check", "--output-format", "=", "s"], tmp_path) == ["sarif"]
    assert bash_complete(source, ["mnemolint", "check", "--select", "MEM101,MEM10"], tmp_path) == [
        f"MEM101,MEM10{n}" for n in range(1, 10)
    ]
    assert bash_complete(source, ["mnemolint", "rule", "index-over"], tmp_path) == ["index-over-load-limit"]
    assert bash_complete(source, ["mnemolint", "check", "--config", "mnemo"], tmp_path) == ["mnemolint.toml"]
    assert bash_complete(source, ["mnemolint", "preview", "mem"], tmp_path) == ["memory"]
    assert bash_complete(source, ["mnemolint", "check", "--now", ""], tmp_path) == []
    assert bash_complete(source, ["mnemolint", "completion", ""], tmp_path) == ["bash", "zsh", "fish"]


def test_completion_follows_the_parser() -> None:
    """A new option is completed with no edit to the generator: the scripts are made from the parser."""
    parser = build_parser()
    check = parser._subparsers._group_actions[0].choices["check"]
    check.add_argument("--brand-new-flag", choices=("one", "two"))
    for make in (completion.bash, completion.zsh, completion.fish):
        text = make(completion.commands(parser))
        assert "brand-new-flag" in text and "one two" in text


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completion_in_zsh(tmp_path: Path) -> None:
    """The script loaded after compinit in an interactive zsh (on a pseudo-terminal), then a Tab."""
    source = script("zsh", tmp_path)
    driver = tmp_path / "drive.zsh"
    driver.write_text(
        "zmodload zsh/zpty\n"
        "zpty z 'zsh -f -i'\n"
        f"zpty -w z 'PS1=\"> \"; autoload -U compinit; compinit -u -D; source {source}; LISTMAX=1000'\n"
        "sleep 1\n"
        "zpty -w -n z $'mnemolint check --output-format \\t'\n"
        "sleep 2\n"
        'out=""; while zpty -r -t z chunk; do out+=$chunk; done\n'
        'print -r -- "$out"; zpty -d z\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    assert subprocess.run(["zsh", "-n", str(source)], capture_output=True, timeout=60).returncode == 0
    result = subprocess.run(["zsh", "-f", str(driver)], cwd=tmp_path, env=env, capture_output=True, timeout=60)
    shown = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", result.stdout).decode("utf-8", "replace")
    assert re.search(r"github\s+json\s+sarif\s+text", shown), shown


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completion_in_fish(tmp_path: Path) -> None:
    source = script("fish", tmp_path)

    def complete(line: str) -> list[str]:
        program = f"source {source}; complete -C '{line}'"
        result = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return [entry.split("\t")[0] for entry in result.stdout.splitlines()]

    assert complete("mnemolint ch") == ["check"]
    assert complete("mnemolint check --output-format ") == ["github", "json", "sarif", "text"]
    assert complete("mnemolint rule index-ov") == ["index-over-load-limit"]
    assert "--show-fixes" in complete("mnemolint check --show")


# --- docs/conventions.md -------------------------------------------------------------------------


def test_every_test_that_docs_conventions_cites_exists() -> None:
    """Each row's evidence is a real test: `FILE.py::NAME` names a test function defined in that file."""
    tests = Path(__file__).resolve().parent
    text = (tests.parent / "docs" / "conventions.md").read_text(encoding="utf-8")
    cited = re.findall(r"\b(test_\w+\.py)::(test_\w+)", text)
    assert len(cited) > 40
    for module, name in cited:
        assert re.search(rf"^def {name}\(", (tests / module).read_text(encoding="utf-8"), re.M), f"{module}::{name}"


def test_docs_conventions_rows_say_yes_partly_or_no_or_name_who_does_it() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "conventions.md").read_text(encoding="utf-8")
    rows = [
        line.replace("\\|", "/")  # an escaped bar inside a cell (`auto\|always`)
        for line in text.splitlines()
        if line.startswith("| ") and "has it" not in line
    ]
    conventions = [row for row in rows if row.count("|") == 6]  # convention, ruff, mnemolint, has it, test
    assert len(conventions) > 40
    for row in conventions:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[3] in ("yes", "partly", "no") or "*see " in cells[2], row
        assert cells[3] == "no" or cells[4] or "*see " in cells[2], row  # what it has, a test shows
