"""Issue 20's hangs of the second review, each bounded: a code span line of backticks (AIM002),
gitignore and rule-glob patterns that backtrack, a session log too large to read or send on.

Each reproduction (`repro2.sh codespan-redos gitignore-redos glob-redos sarifbig jsonlsparse
hookstdin`) is a real run of the CLI here, timed against a bound the old code missed by an order of
magnitude or more; hypothesis shows on short inputs that each rewrite agrees with the reference it
replaces (markdown-it-py for code spans, pathspec for gitignore patterns).
"""

from __future__ import annotations

import json
import os
import pty
import re
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from conftest import run_cli, write_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pathspec import GitIgnoreSpec

from mnemolint.kinds.gitignore import Ignores, _Spec
from mnemolint.parse import globs, safe_regex
from mnemolint.parse.template import blank_code_spans

MEGABYTE = 1 << 20
equivalent = settings(max_examples=400, deadline=None)


def timed_cli(*args: str, cwd: Path | None = None, **keywords) -> tuple:
    """Run the CLI; the completed process and the seconds it took."""
    started = time.perf_counter()
    process = run_cli(*args, cwd=cwd, **keywords)
    return process, time.perf_counter() - started


# --- AIM002: inline code spans -------------------------------------------------------------------

_INLINE = MarkdownIt("zero").enable("backticks")


def commonmark_blanked(line: str) -> str:
    """`line` with each code span CommonMark finds (markdown-it-py) replaced by a space."""
    tokens = _INLINE.parseInline(line)[0].children or []
    return "".join(" " if token.type == "code_inline" else token.content for token in tokens)


@equivalent
@given(st.text(alphabet="` a", max_size=24))
def test_code_spans_are_blanked_as_commonmark_reads_them(line: str) -> None:
    assert blank_code_spans(line) == commonmark_blanked(line)


def test_a_megabyte_of_backticks_is_blanked_in_linear_time() -> None:
    shapes = ["x " + "`" * MEGABYTE, "`a" * (MEGABYTE // 2), "`".join("a" * k for k in range(1400)), "``a`" * 260_000]
    for line in shapes:
        started = time.perf_counter()
        blank_code_spans(line)
        assert time.perf_counter() - started < 10, line[:20]


def test_codespan_redos_a_line_of_1500_backticks_is_checked_at_once(tmp_path: Path) -> None:
    """repro2.sh codespan-redos: 1,500 backticks on one line of project_memory.md took 53.8 s."""
    write_tree(tmp_path, {".ai-memory/project_memory.md": "# Project memory\n\nx " + "`" * 1500 + "\n"})
    process, seconds = timed_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert process.returncode in (0, 1), process.stderr
    assert seconds < 10


# --- the hook's stdin ----------------------------------------------------------------------------


def hook_with_stdin(stdin, **keywords) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mnemolint", "hook", "post-tool-use"],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        **keywords,
    )


def test_hookstdin_a_stream_that_never_ends_is_one_line_and_exit_0() -> None:
    """repro2.sh hookstdin: `hook < /dev/zero` was a MemoryError traceback and exit 1."""

    def two_gigabytes() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    with open(os.devnull if not os.path.exists("/dev/zero") else "/dev/zero", "rb") as zero:
        process = hook_with_stdin(zero, preexec_fn=two_gigabytes)
    assert process.returncode == 0
    assert process.stderr.strip().splitlines() == [
        "mnemolint hook: the hook event on stdin is over 8 MB; nothing was checked"
    ]


def test_an_event_of_the_largest_size_read_is_still_answered(tmp_path: Path) -> None:
    memory = tmp_path / ".claude" / "projects" / "p" / "memory"
    write_tree(memory, {"MEMORY.md": "# Memory\n\n- [A](a.md) — a\n", "a.md": "no frontmatter\n"})
    event = {"tool_name": "Write", "tool_input": {"file_path": str(memory / "a.md"), "content": "x" * (7 << 20)}}
    process = run_cli("hook", "post-tool-use", stdin=json.dumps(event))
    assert process.returncode == 0 and "additionalContext" in process.stdout, process.stderr


def test_a_terminal_on_stdin_gets_a_hint_and_no_wait() -> None:
    main, terminal = pty.openpty()
    try:
        process = hook_with_stdin(terminal)
    finally:
        os.close(main)
        os.close(terminal)
    assert process.returncode == 0
    assert "read on stdin, as an agent pipes it" in process.stderr and len(process.stderr.splitlines()) == 1


# --- session logs too large to read ---------------------------------------------------------------

SESSION = ".ai-memory/20250101/session_memory_20250101-1200.jsonl"


def sparse_session(root: Path, size: int, head: bytes = b"") -> Path:
    write_tree(root, {".ai-memory/project_memory.md": "# P\n", SESSION: head})
    os.truncate(root / SESSION, size)
    return root / SESSION


def test_sarifbig_a_6_gb_log_still_gives_sarif_in_bounded_memory(tmp_path: Path) -> None:
    """repro2.sh sarifbig: SARIF read the whole log for a fingerprint: MemoryError, rc=1, no SARIF."""
    sparse_session(tmp_path, 6 << 30, b"not json\n")

    def four_gigabytes() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    started = time.perf_counter()
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "mnemolint",
            "check",
            "--preview",
            "--no-cache",
            "--output-format",
            "sarif",
            "--exit-zero",
            ".",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=four_gigabytes,
    )
    assert process.returncode == 0, process.stderr
    assert time.perf_counter() - started < 30
    results = json.loads(process.stdout)["runs"][0]["results"]
    session = [result for result in results if result["ruleId"] == "AIM008"]
    assert session and all(result["partialFingerprints"] for result in session)


def test_jsonlsparse_a_20_gb_log_is_read_up_to_the_cap_and_says_so(tmp_path: Path) -> None:
    """repro2.sh jsonlsparse: a sparse 20 GB log was streamed whole, 44–54 s."""
    sparse_session(tmp_path, 20 << 30)
    process, seconds = timed_cli("check", "--no-cache", "--select", "AIM008", ".", cwd=tmp_path)
    assert seconds < 20
    assert "AIM008 Only the first 256 MB of this file were checked" in process.stdout, process.stdout
    assert f"the {(20 << 30) - (256 << 20):,} bytes after them were not read" in process.stdout


# --- gitignore patterns and Claude Code rule globs ---------------------------------------------

PATTERN_PIECES = ["*", "**", "/", "a", "b", "?", "[ab]", "[!a]", "\\*", "!", "#", " ", ".", "A"]
NAME_PIECES = ["a", "b", "/", "ab", "ba", ".", "*", "A", " "]
patterns = st.lists(st.sampled_from(PATTERN_PIECES), min_size=1, max_size=8).map("".join)
paths = (
    st.lists(st.sampled_from(NAME_PIECES), min_size=1, max_size=8)
    .map("".join)
    .filter(lambda path: not path.startswith("/") and "//" not in path)
    .filter(lambda path: not {".", ".."} & set(path.split("/")))  # relative paths as a walk makes them
)


def pathspec_patterns(line: str) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        try:
            return [pattern for pattern in GitIgnoreSpec.from_lines([line]).patterns if pattern.regex is not None]
        except ValueError:
            return []


@equivalent
@given(patterns, paths, st.booleans())
def test_the_safe_matcher_finds_what_the_engine_finds(line: str, path: str, ignore_case: bool) -> None:
    """The same match or none, through the directory mark or not, for every expression pathspec makes."""
    for pattern in pathspec_patterns(line):
        regex = re.compile(pattern.regex.pattern, re.IGNORECASE if ignore_case else 0)
        expected, found = regex.search(path), safe_regex.SafeRegex(regex).search(path)
        assert (expected is None) == (found is None), (pattern.regex.pattern, path)
        if expected is not None and found is not None:
            assert expected.groupdict() == found.groupdict(), (pattern.regex.pattern, path)
        assert (regex.match(path) is None) == (safe_regex.SafeRegex(regex).match(path) is None)


@equivalent
@given(st.lists(patterns, min_size=1, max_size=5), paths, st.booleans())
def test_a_gitignore_answers_as_pathspecs_gitignore_spec(lines: list[str], path: str, directory: bool) -> None:
    text = "\n".join(lines)
    rel = path + ("/" if directory and not path.endswith("/") else "")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        kept = [line for line in lines if pathspec_patterns(line)]
        expected = GitIgnoreSpec.from_lines(kept).check_file(rel)
    verdict = _Spec("/p/.gitignore", text, Ignores("/p", {}, {})).check(rel)
    if expected.include is None:
        assert verdict is None
    else:
        assert verdict is not None and verdict.ignored == expected.include
        assert verdict.source is not None and verdict.source.pattern == kept[expected.index]


def nested_stars(count: int) -> str:
    return "*a" * count + "*b"


def test_gitignore_redos_a_line_of_ten_stars_and_a_long_name_is_checked_at_once(tmp_path: Path) -> None:
    """repro2.sh gitignore-redos: `*a*a*a*a*a*a*a*a*a*a*b` and a 60-character name ran past 120 s."""
    write_tree(
        tmp_path,
        {
            ".ai-memory/project_memory.md": "# P\n",
            f".ai-memory/20250101/session_{'a' * 60}.jsonl": "{}\n",
            ".gitignore": nested_stars(10) + "\n",
        },
    )
    process, seconds = timed_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert process.returncode == 1 and "GIT001" in process.stdout
    assert seconds < 20


def test_a_megabyte_gitignore_of_such_lines_is_bounded(tmp_path: Path) -> None:
    names = {f"d{n}/{'a' * 200}{n}": "" for n in range(5)}
    write_tree(tmp_path, {".gitignore": (nested_stars(10) + "\n") * (MEGABYTE // 23), **names})
    ignores = Ignores(str(tmp_path), {}, {"max-file-bytes": 2 * MEGABYTE, "yaml-max-depth": 16})
    started = time.perf_counter()
    assert not any(ignores.check(str(tmp_path / name)).ignored for name in names)
    assert time.perf_counter() - started < 30


@pytest.mark.parametrize("length", [30, 40, 60])
def test_glob_redos_a_rule_glob_of_ten_stars_is_matched_at_once(tmp_path: Path, length: int) -> None:
    """repro2.sh glob-redos: WAV002 matching it against a 30/40/60-character name: 1.3 s/35.7 s/killed."""
    write_tree(
        tmp_path,
        {
            f"src/{'a' * length}": "",
            f"src/{'a' * length}b": "",
            ".claude/rules/r.md": f'---\npaths:\n  - "{nested_stars(10)}"\n  - "{nested_stars(10)}c"\n---\nrule\n',
        },
    )
    process, seconds = timed_cli("check", "--no-cache", "--select", "WAV", ".", cwd=tmp_path)
    assert seconds < 20
    assert "WAV002" in process.stdout and f"`{nested_stars(10)}c` matches no file" in process.stdout
    assert f"`{nested_stars(10)}` matches no file" not in process.stdout  # it matches the name ending in b


def test_a_megabyte_rule_file_of_such_globs_is_bounded_and_says_what_it_left(tmp_path: Path) -> None:
    line = f'  - "{nested_stars(10)}"\n'
    write_tree(
        tmp_path,
        {
            **{f"src/{'a' * 60}{n}": "" for n in range(5)},
            ".claude/rules/r.md": "---\npaths:\n" + line * (MEGABYTE // len(line)) + "---\nrule\n",
        },
    )
    process, seconds = timed_cli("check", "--no-cache", "--select", "WAV002,WAV004", ".", cwd=tmp_path)
    assert seconds < 60
    assert (
        "WAV004" in process.stdout and "one file may hold at most 16 patterns of this many wildcards" in process.stdout
    )


@pytest.mark.parametrize(
    "pattern",
    ["+(a|aa)+(a|aa)b", "*(a|b)c", "**/a/**/a/**/a/**/a/**/b", "*a*a*a*a*a*b"],
)
def test_a_wave_glob_that_would_backtrack_is_a_syntax_finding(pattern: str) -> None:
    """wcmatch's expression of `+(a|aa)+(a|aa)b` took 7 s on 30 characters, doubling with each."""
    glob = globs.compile_wave(pattern, 1000)
    assert glob.problem == globs.SYNTAX and "too complex to match in bounded time" in glob.why
    assert globs.compile_wave("src/**/*.{ts,tsx}", 1000).problem is None
