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
import resource
import subprocess
import sys
import time
from pathlib import Path

from conftest import run_cli, write_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

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
        [sys.executable, "-m", "mnemolint", "check", "--no-cache", "--output-format", "sarif", "--exit-zero", "."],
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
