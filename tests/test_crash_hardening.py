"""Issue 7, crashes: bad input becomes a finding or one line with exit 2, never a traceback.

Each reproduction of `repro.sh bigint` and `repro.sh cfg` is here with real files and the real CLI,
plus the smaller defects: output that cannot be written (a real /dev/full, a really closed
descriptor), paths that lint nothing, UTF-32 text, and empty selector lists.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import codes, run_cli, run_lint, write_tree

from mnemolint.config import MAX_GLOBS
from mnemolint.parse import frontmatter as frontmatter_module
from mnemolint.parse.frontmatter import OK, split_and_parse

BIG = "1" * 4301  # one digit past Python's int-string limit
INDEX = {"n/mem/MEMORY.md": "- [A](a.md) — a\n"}


def topic(description: str) -> str:
    return f"---\nname: A\ndescription: {description}\ntype: user\n---\n"


def assert_no_traceback(process: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in process.stderr, process.stderr
    assert "internal error" not in process.stderr, process.stderr


def assert_usage_error(process: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit 2 and exactly one line on stderr, holding each fragment."""
    assert process.returncode == 2, (process.returncode, process.stderr)
    lines = process.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mnemolint: error: "), process.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# --- bigint: typed YAML scalars never raise while they are built ---------------------------------


def test_bigint_reproduction_check_index_and_fix_report_instead_of_crashing(tmp_path: Path) -> None:
    """`repro.sh bigint`: was 10 internal errors in `check` and a ValueError traceback in `index`/`--fix`."""
    write_tree(tmp_path, {**INDEX, "n/mem/a.md": topic(BIG)})
    check = run_cli("check", "n", cwd=tmp_path)
    assert_no_traceback(check)
    assert check.returncode == 1
    # The number is kept as written, so the rules judge the description the human wrote.
    assert "n/mem/a.md:3:1: MEM204 Description is 4,301 characters" in check.stdout
    index = run_cli("index", "n/mem", cwd=tmp_path)
    assert_no_traceback(index)
    assert index.returncode == 0 and index.stdout.startswith("- [A](a.md) — 1111")
    fix = run_cli("check", "--fix", "n", cwd=tmp_path)
    assert_no_traceback(fix)
    assert "remaining." in fix.stdout


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        (BIG, BIG),
        ("-" + "1" * 4300, "-" + "1" * 4300),
        ("0x" + "f" * 4000, "0x" + "f" * 4000),  # builds, but too large to print back in decimal
        ("0o" + "7" * 5000, "0o" + "7" * 5000),
        ("2024-13-45", "2024-13-45"),  # the timestamp pattern, but no date
        ("2024-02-30", "2024-02-30"),
        ("2024-01-01 25:61:61", "2024-01-01 25:61:61"),
        ("2024-1-1T1:00:00+99:99", "2024-1-1T1:00:00+99:99"),
        ("0b_", "0b_"),  # the integer pattern, but no digit
        ("-_", "-_"),
        ("._", "._"),  # the float pattern, but no digit
        ("!!int 0b_", "0b_"),  # the tag the value would get anyway
    ],
)
def test_a_plain_scalar_that_is_no_value_of_its_type_keeps_its_text(value: str, kept: str) -> None:
    front = split_and_parse(["---", f"description: {value}", "---"], 16)
    assert (front.status, front.data) == (OK, {"description": kept})
    assert front.text("description") == kept


@pytest.mark.parametrize(
    ("value", "typed"),
    [("1" * 4300, int("1" * 4300)), ("0x" + "f" * 100, int("f" * 100, 16)), ("5", 5), ("1e99999", float("inf"))],
)
def test_numbers_within_the_limit_are_still_numbers(value: str, typed: object) -> None:
    front = split_and_parse(["---", f"description: {value}", "---"], 16)
    assert front.data == {"description": typed}
    assert front.text("description") == str(typed)  # printable: no ValueError from str()


@pytest.mark.parametrize("value", ["!!int abc", "!!float x", "!!bool maybe"])
def test_an_explicit_tag_that_does_not_fit_its_value_is_invalid_yaml(tmp_path: Path, value: str) -> None:
    """ruamel raised ValueError or KeyError for these: every rule on the file crashed."""
    tag = value.split()[0]
    write_tree(tmp_path, {**INDEX, "n/mem/a.md": topic(value)})
    process = run_cli("check", "--output-format", "json", "n", cwd=tmp_path)
    assert_no_traceback(process)
    assert (
        f"FM001 Invalid YAML in frontmatter: the value does not fit its tag `{tag}`"
        in run_cli("check", "n", cwd=tmp_path).stdout
    )
    assert '"line": 3' in process.stdout


def test_the_pure_python_loader_is_as_tolerant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frontmatter_module, "_loader_class", frontmatter_module.pure_loader_class())
    for value in (BIG, "2024-13-45", "0b_"):
        assert split_and_parse(["---", f"d: {value}", "---"], 16).data == {"d": value}
    assert split_and_parse(["---", "d: !!bool maybe", "---"], 16).error == "the value does not fit its tag `!!bool`"


def test_a_long_number_costs_no_quadratic_conversion() -> None:
    """The int-string limit is not lifted: 1.5 MB of digits is kept as text without converting it."""
    digits = "7" * 1_500_000
    started = time.perf_counter()
    front = split_and_parse(["---", f"d: {digits}", "---"], 16)
    assert front.data == {"d": digits}
    assert time.perf_counter() - started < 5


# --- a rule that crashes keeps the findings made before, and is told once ------------------------


def _yields_then_fails(real: object) -> object:
    def check(target: object, options: dict) -> Iterator[object]:
        yield from real(target, options)  # type: ignore[operator]
        raise RuntimeError("a bug after its findings")

    return check


@pytest.mark.parametrize(("code", "path"), [("MEM203", "n/mem/a.md"), ("MEM104", "n/mem/MEMORY.md")])
def test_a_rule_that_fails_mid_run_keeps_its_findings_and_the_files_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, code: str, path: str
) -> None:
    """A per-file rule (MEM203) and a memory-dir rule (MEM104) that raise after yielding."""
    from mnemolint.rules import BY_CODE

    files = {"n/mem/MEMORY.md": "- [A](a.md) — a\n- [gone](gone.md)\n", "n/mem/a.md": "---\nname: A\n---\n"}
    write_tree(tmp_path, files)
    before = codes(run_lint(tmp_path))
    assert code in before and "MEM205" in before  # MEM205: another rule's finding on the same file
    rule = BY_CODE[code]
    monkeypatch.setattr(rule, "check", _yields_then_fails(rule.check))
    capsys.readouterr()
    assert codes(run_lint(tmp_path)) == before
    message = f"mnemolint: internal error in {code} on {tmp_path / path}: RuntimeError: a bug after its findings"
    assert capsys.readouterr().err.splitlines() == [message]


def test_a_rule_that_fails_in_every_fix_round_is_told_once(tmp_path: Path) -> None:
    """The fixer lints again after its edits: the same bug is one line on stderr, not one per round."""
    write_tree(tmp_path, {"n/mem/MEMORY.md": "- [A](a.md) — a\n- [gone](gone.md)\n", "n/mem/a.md": topic("a")})
    script = (
        "import sys\nfrom mnemolint.rules import BY_CODE\nfrom mnemolint.cli import main\n"
        "def broken(target, options):\n    raise RuntimeError('a bug')\n    yield\n"
        "BY_CODE['MEM108'].check = broken\nsys.exit(main(['check', '--preview', '--fix', 'n']))\n"
    )
    process = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "1 fixed" in process.stdout  # linted before and after the fix
    assert process.stderr.count("internal error in MEM108") == 1, process.stderr


# --- cfg: config shapes and globs are validated at load ------------------------------------------


@pytest.mark.parametrize(
    ("pyproject", "fragments"),
    [
        ('[[tool.mnemolint]]\nselect = ["ALL"]\n', ("`tool.mnemolint` must be a table, not an array of tables",)),
        ("tool.mnemolint = 5\n# [tool.mnemolint]\n", ("`tool.mnemolint` must be a table, not an integer",)),
        ('tool = "[tool.mnemolint]"\n', ("`tool` must be a table, not a string",)),
        ("[tool]\nmnemolint = [1]\n# [tool.mnemolint]\n", ("`tool.mnemolint` must be a table, not an array",)),
        ("[tool]\nmnemolint = 1979-05-27\n# [tool.mnemolint]\n", ("`tool.mnemolint` must be a table, not a date",)),
        ('[tool.mnemolint]\nexclude = ["{1..2000}"]\n', ("`exclude` expands to more than 200 globs",)),
        ('[tool.mnemolint]\nexclude = ["' + "{a,b}" * 12 + '"]\n', ("`exclude` expands",)),
        ('[tool.mnemolint]\nextend-exclude = ["{1..2000}"]\n', ("`extend-exclude` expands",)),
        ('[tool.mnemolint]\nmemory-dirs = ["{1..2000}"]\n', ("`memory-dirs` expands",)),
        ('[tool.mnemolint.per-file-ignores]\n"{1..2000}" = ["MEM1"]\n', ("`per-file-ignores` glob `{1..2000}`",)),
        (  # the budget is shared: 150 + 51 globs
            '[tool.mnemolint]\nexclude = ["{1..150}"]\nextend-exclude = ["{1..51}"]\n',
            ("`extend-exclude` expands to more than 200 globs in all",),
        ),
        ('[tool.mnemolint]\nselect = [""]\n', ("pyproject.toml: `select`: empty rule selector",)),
        ('[tool.mnemolint]\nignore = [" "]\n', ("pyproject.toml: `ignore`: empty rule selector",)),
        ("[tool.mnemolint]\nindex-max-lines = 1" + "0" * 5000 + "\n", ("an integer too long to read",)),
        ("[tool.mnemolint]\na = " + "[" * 50_000 + "]" * 50_000 + "\n", ("nested too deeply",)),
    ],
    ids=[
        "array-of-tables",
        "int",
        "tool-string",
        "array",
        "date",
        "exclude-range",
        "exclude-braces",
        "extend-exclude",
        "memory-dirs",
        "per-file-ignores",
        "shared-budget",
        "empty-select",
        "blank-ignore",
        "long-int",
        "deep-array",
    ],
)
def test_cfg_reproductions_are_one_line_usage_errors(tmp_path: Path, pyproject: str, fragments: tuple) -> None:
    """`repro.sh cfg`: AttributeError (exit 1) or PatternLimitException tracebacks before."""
    write_tree(tmp_path, {"c/mem/MEMORY.md": "# M\n- [gone](gone.md)\n", "c/pyproject.toml": pyproject})
    assert_usage_error(run_cli("check", "c", cwd=tmp_path), *fragments)
    # `--config` reads the same file without the nearest-file search.
    assert_usage_error(run_cli("check", "--config", "c/pyproject.toml", "c", cwd=tmp_path), *fragments)


def test_globs_up_to_the_budget_still_work(tmp_path: Path) -> None:
    excluded = "{" + ",".join(f"x{n}.md" for n in range(MAX_GLOBS - 1)) + "}"
    pyproject = f'[tool.mnemolint]\nexclude = ["{excluded}"]\nextend-exclude = ["gone*.md"]\n'
    write_tree(tmp_path, {"c/pyproject.toml": pyproject, "c/mem/MEMORY.md": "# M\n", "c/mem/x7.md": "no frontmatter\n"})
    process = run_cli("check", "c", cwd=tmp_path)
    assert process.returncode == 0 and "1 memory file" in process.stdout, process.stdout + process.stderr


# --- output that cannot be written ---------------------------------------------------------------


def _finding_tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path, {"c/mem/MEMORY.md": "# M\n- [gone](gone.md)\n"})


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["check", "c"],
        ["check", "--output-format", "sarif", "c"],
        ["check", "--diff", "c"],
        ["rules"],
        ["index", "c/mem"],
    ],
    ids=["check", "sarif", "diff", "rules", "index"],
)
def test_a_full_stdout_is_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    _finding_tree(tmp_path)
    with open("/dev/full", "w") as full:
        process = subprocess.run(
            [sys.executable, "-m", "mnemolint", *args], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert_usage_error(process, "cannot write the output: No space left on device")


def _with_closed(fds: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run the CLI with descriptors `fds` ("1", "12") really closed, stderr read through fd 3 when 2 is."""
    script = (
        "import os, sys\n"
        f"for fd in {[int(fd) for fd in fds]}:\n    os.close(fd)\n"
        f"os.execv(sys.executable, [sys.executable, '-m', 'mnemolint', *{args!r}])\n"
    )
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60)


def test_a_closed_stdout_is_one_line_and_exit_2(tmp_path: Path) -> None:
    _finding_tree(tmp_path)
    process = _with_closed("1", ["check", "c"], tmp_path)
    assert_usage_error(process, "cannot write the output: standard output is closed")


def test_closed_stdout_and_stderr_still_exit_2(tmp_path: Path) -> None:
    _finding_tree(tmp_path)
    assert _with_closed("12", ["check", "c"], tmp_path).returncode == 2


def test_nothing_to_write_to_a_closed_stdout_is_no_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"c/mem/MEMORY.md": "# M\n"})
    process = _with_closed("1", ["check", "-q", "c"], tmp_path)
    assert (process.returncode, process.stderr) == (0, "")


def test_a_reader_that_goes_away_is_still_quiet(tmp_path: Path) -> None:
    """BrokenPipe keeps today's behaviour: exit 0, nothing on stderr."""
    write_tree(tmp_path, {f"c/mem/t{n}.md": "no frontmatter\n" for n in range(300)} | {"c/mem/MEMORY.md": "# M\n"})
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first write
    with os.fdopen(writer, "w") as pipe:
        command = [sys.executable, "-m", "mnemolint", "check", "c"]
        process = subprocess.run(command, cwd=tmp_path, stdout=pipe, stderr=subprocess.PIPE, text=True)
    assert (process.returncode, process.stderr) == (0, "")


# --- paths that lint nothing ---------------------------------------------------------------------

NOTHING = "mnemolint: warning: nothing was linted: "


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        (["notes.txt"], "notes.txt is not a memory file"),
        (["mem/README.md"], "mem/README.md is not a memory file"),
        (["stray.md"], "stray.md is not a memory file"),
        (["empty"], "no memory file in empty"),
        (["notes.txt", "empty", "notes.txt"], "notes.txt is not a memory file; no memory file in empty."),
    ],
)
def test_a_path_that_lints_nothing_is_a_warning_with_exit_0(tmp_path: Path, given: list[str], reason: str) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "# M\n", "mem/README.md": "hi\n", "notes.txt": "hi\n", "stray.md": "hi\n"})
    (tmp_path / "empty").mkdir()
    process = run_cli("check", *given, cwd=tmp_path)
    assert process.returncode == 0
    [line] = process.stderr.splitlines()
    assert line.startswith(NOTHING + reason), line
    assert run_cli("check", "-q", *given, cwd=tmp_path).stderr == ""
    assert run_cli("check", "--fix", *given, cwd=tmp_path).stderr.startswith(NOTHING + reason)
    # With one memory file among them there is no warning.
    assert run_cli("check", *given, "mem/MEMORY.md", cwd=tmp_path).stderr == ""


def test_many_paths_that_lint_nothing_are_counted(tmp_path: Path) -> None:
    names = [f"n{number}.txt" for number in range(5)]
    write_tree(tmp_path, {name: "x\n" for name in names})
    assert "(and 2 more paths)." in run_cli("check", *names, cwd=tmp_path).stderr


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda path: os.mkfifo(path), "a named pipe (FIFO)"),
        (lambda path: os.symlink("/dev/null", path) or None, None),  # a link is judged where it stands
    ],
    ids=["fifo", "link-to-device"],
)
def test_a_fifo_on_the_command_line_is_a_usage_error_and_never_blocks(tmp_path: Path, make, kind: str | None) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "# M\n"})
    make(tmp_path / "mem" / "pipe.md")
    started = time.monotonic()
    process = run_cli("check", "mem/pipe.md", cwd=tmp_path)
    assert time.monotonic() - started < 30
    if kind:
        assert_usage_error(process, f"mem/pipe.md is {kind}, not a file or directory")
    else:
        assert_no_traceback(process)
        assert process.returncode in (0, 1)


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_on_the_command_line_is_a_usage_error() -> None:
    assert_usage_error(run_cli("check", "/dev/null"), "/dev/null is a character device")


def test_a_path_below_a_file_is_not_found(tmp_path: Path) -> None:
    write_tree(tmp_path, {"notes.txt": "x\n"})
    assert_usage_error(run_cli("check", "notes.txt/x", cwd=tmp_path), "path not found: notes.txt/x")


# --- UTF-32 is named for what it is --------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "shown"),
    [
        ("utf-32", "UTF-32 (it starts with a UTF-32 byte-order mark)"),
        ("utf-32-le", "UTF-32 (it has no byte-order mark, but its NUL bytes fall where UTF-32 puts them)"),
        ("utf-32-be", "UTF-32 (it has no byte-order mark, but its NUL bytes fall where UTF-32 puts them)"),
        ("utf-16", "UTF-16 (it starts with a UTF-16 byte-order mark)"),
        ("utf-16-le", "UTF-16 (it has no byte-order mark, but its NUL bytes fall where UTF-16 puts them)"),
        ("utf-16-be", "UTF-16 (it has no byte-order mark, but its NUL bytes fall where UTF-16 puts them)"),
    ],
)
def test_txt002_names_the_wide_encoding(tmp_path: Path, encoding: str, shown: str) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "# M\n", "mem/t.md": topic("a").encode(encoding)})
    [finding] = run_lint(tmp_path, select=["TXT002"])
    assert finding.message == f"File is {shown}: memory files are UTF-8. Re-save it."


def test_other_nul_bytes_are_binary(tmp_path: Path) -> None:
    write_tree(tmp_path, {"mem/MEMORY.md": "# M\n", "mem/png.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"})
    write_tree(tmp_path, {"mem/zeros.md": b"\x00" * 64})
    messages = {finding.path.rsplit("/", 1)[1]: finding.message for finding in run_lint(tmp_path, select=["TXT002"])}
    assert messages == dict.fromkeys(
        ("png.md", "zeros.md"), "File holds NUL bytes: it is binary, not a text memory the agent can read."
    )


# --- an explicitly empty selector list -----------------------------------------------------------


@pytest.mark.parametrize("option", ["--select", "--extend-select", "--ignore"])
@pytest.mark.parametrize("value", [",", "", " , "])
def test_an_empty_selector_list_is_a_usage_error(tmp_path: Path, option: str, value: str) -> None:
    """`--select ,` selected nothing and passed silently."""
    _finding_tree(tmp_path)
    assert_usage_error(run_cli("check", f"{option}={value}", "c", cwd=tmp_path), f"argument {option}: no rule selector")


def test_empty_items_beside_a_selector_are_ignored(tmp_path: Path) -> None:
    _finding_tree(tmp_path)
    process = run_cli("check", "--select", "MEM104,,", "c", cwd=tmp_path)
    assert process.returncode == 1 and "MEM104" in process.stdout
