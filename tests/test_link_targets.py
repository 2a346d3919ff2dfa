"""Where an index link points (issue 7, "safe fixes delete human lines"): a target is missing only
when no name it may stand for is there, and one that cannot be examined is never missing.

The scanner that finds the links is linear, even on a hostile line of megabytes ("hangs").

A destination is read as written first (a file may be called `ideas&notes.md` or `a%20b.md`),
then as CommonMark reads it (backslash escapes, entity and numeric references), then
percent-decoded as a browser or an agent opens it. Every case is a real memory dir in a temporary
directory, linted or fixed by the real engine or command.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from conftest import run_cli, write_tree
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mnemolint.kinds.memory import ESCAPES, MISSING, UNKNOWN, MemoryDir
from mnemolint.parse import index_lines as il
from mnemolint.parse.index_lines import find_links

MEM = ".claude/projects/p/memory"  # a memory dir by its location
INDEX = f"{MEM}/MEMORY.md"


def topic(name: str, description: str = "what it holds") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\nBody.\n"


def resolved(directory: Path, target: str) -> tuple[str | None, str | None]:
    """(rel, problem) of `target` in a memory dir whose files are on disk but are not its topics,
    so that every answer comes from the file system."""
    found = MemoryDir(str(directory)).resolve(target)
    assert found is not None
    return found.rel, found.problem


def findings(root: Path, *args: str) -> list[tuple[str, str]]:
    result = run_cli("check", "--output-format", "json", *args, cwd=root)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    return [(item["code"], item["message"]) for item in json.loads(result.stdout)]


# --- the names a file on disk may have -----------------------------------------------------------


@pytest.mark.parametrize("name", ["ideas&notes.md", "tips&times.md", "a%20b.md", "a&amp;b.md", "x&#38;y.md"])
def test_a_file_named_as_the_link_is_written_is_found_and_its_line_kept(tree, name: str) -> None:
    """The `entity` reproduction: `--fix` deleted the human line, leaving a 0-byte MEMORY.md
    (`a%20b.md`: the line was dropped and a generated one appended, the human summary lost)."""
    index = f"- [Mine]({name}) — my own words\n"
    root = tree({INDEX: index, f"{MEM}/{name}": topic("Mine")})
    result = run_cli("check", "--fix", "--preview", cwd=root)
    assert "Traceback" not in result.stderr
    assert (root / INDEX).read_text(encoding="utf-8") == index
    assert [
        code for code, _ in findings(root, "--preview")
    ]  # MEM109: a preview rule == ["MEM109"]  # only the summary that differs, unfixed


@pytest.mark.parametrize(
    ("target", "on_disk"),
    [
        ("a&amp;b.md", "a&b.md"),
        ("caf&eacute;.md", "café.md"),
        ("frac&frac12;.md", "frac½.md"),  # HTML5 names hold digits
        ("a&#38;b.md", "a&b.md"),
        ("a&#x26;b.md", "a&b.md"),
        ("a&#X26;b.md", "a&b.md"),
        ("a&#0;b.md", "a\ufffdb.md"),  # code point 0 reads as U+FFFD
        ("a&#xD800;b.md", "a\ufffdb.md"),  # so does a surrogate
        ("a&#x110000;b.md", "a\ufffdb.md"),  # and anything past Unicode
        ("a\\_b.md", "a_b.md"),
        ("x\\(1\\).md", "x(1).md"),
        ("x\\&amp;.md", "x&amp;.md"),  # an escaped `&` starts no reference
        ("b.md&#35;part", "b.md"),  # a decoded `#` begins a fragment, as in the rendered URL
        ("a%23b.md#part", "a#b.md"),
        ("my%20file.md", "my file.md"),
        ("a%2520b.md", "a%20b.md"),  # how generated lines write a `%` in a name
        ("a&amp;%20b.md", "a& b.md"),  # references first, then percent-decoding
        ("sub\\deep.md", "sub/deep.md"),  # a backslash that escapes nothing separates
    ],
)
def test_a_decoded_name_is_found_when_the_literal_one_is_not_there(tmp_path: Path, target: str, on_disk: str) -> None:
    write_tree(tmp_path, {on_disk: "x\n"})
    assert resolved(tmp_path, target) == (on_disk, None)


@pytest.mark.parametrize(
    "target",
    [
        "a&copy.md",  # no `;`: HTML accepts it, CommonMark does not
        "ideas&notes.md",
        "tips&times.md",
        "a&ampx.md",
        "a&#87654321;.md",  # 8 digits
        "a&#x1234567;.md",  # 7 hex digits
    ],
)
def test_what_commonmark_does_not_decode_is_read_as_written(tmp_path: Path, target: str) -> None:
    """Python's `html.unescape` decodes each of these; CommonMark, and so the agent, does not."""
    import html

    write_tree(tmp_path, {html.unescape(target): "x\n"})
    assert resolved(tmp_path, target)[1] == MISSING
    write_tree(tmp_path, {target: "x\n"})
    assert resolved(tmp_path, target) == (target, None)


def test_the_name_as_written_comes_before_the_decoded_one(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a&amp;b.md": "x\n", "a&b.md": "x\n", "c%20d.md": "x\n", "c d.md": "x\n"})
    assert resolved(tmp_path, "a&amp;b.md") == ("a&amp;b.md", None)
    assert resolved(tmp_path, "c%20d.md") == ("c%20d.md", None)


def test_a_percent_encoded_byte_finds_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"caf\xe9.md")).write_text("x\n")  # Latin-1 bytes, as os.listdir gives them
    assert resolved(tmp_path, "caf%E9.md") == (os.fsdecode(b"caf\xe9.md"), None)


def test_a_missing_target_is_reported_as_it_would_be_opened(tmp_path: Path) -> None:
    assert resolved(tmp_path, "a&amp;%20b.md") == ("a& b.md", MISSING)
    assert resolved(tmp_path, "a%00b.md") == ("a\x00b.md", MISSING)  # no file has a NUL in its name
    assert resolved(tmp_path, "%2e%2e/x.md") == ("../x.md", ESCAPES)
    assert resolved(tmp_path, "&#46;&#46;/x.md") == ("../x.md", ESCAPES)


# --- a target that cannot be examined is never missing -------------------------------------------


def test_a_path_through_a_file_is_missing_and_its_line_dropped(tree) -> None:
    root = tree({INDEX: "- [A](a.md) — a\n- [x](a.md/x.md)\n", f"{MEM}/a.md": topic("A", "a")})
    assert resolved(root / MEM, "a.md/x.md") == ("a.md/x.md", MISSING)  # ENOTDIR
    assert run_cli("check", "--fix", cwd=root).returncode == 0
    assert (root / INDEX).read_text(encoding="utf-8") == "- [A](a.md) — a\n"


def test_a_dangling_link_is_missing(tree) -> None:
    """What it points to was looked for and is not there: the agent follows the entry to nothing."""
    root = tree({INDEX: "- [A](a.md) — a\n"})
    (root / MEM / "a.md").symlink_to("nowhere.md")
    assert resolved(root / MEM, "a.md") == ("a.md", MISSING)


@pytest.mark.parametrize("kind", ["name-too-long", "link-loop"])
def test_a_target_that_cannot_be_examined_is_no_finding_and_no_fix(tree, kind: str) -> None:
    """ENAMETOOLONG and ELOOP arise for root too (EACCES does not: see the test below)."""
    name = "n" * 300 + ".md" if kind == "name-too-long" else "loop.md"
    index = f"- [A](a.md) — a\n- [T]({name}) — mine\n- [gone](gone.md)\n"
    root = tree({INDEX: index, f"{MEM}/a.md": topic("A", "a")})
    if kind == "link-loop":
        (root / MEM / name).symlink_to(name)
    assert resolved(root / MEM, name) == (name, UNKNOWN)
    assert ("MEM104", "`gone.md` does not exist in the memory dir: the agent follows this entry to nothing.") in (
        findings(root)
    )
    assert [code for code, _ in findings(root, "--select", "MEM104")] == ["MEM104"]  # gone.md only
    run_cli("check", "--fix", cwd=root)
    assert (root / INDEX).read_text(encoding="utf-8") == index.replace("- [gone](gone.md)\n", "")


NOBODY = 65534


@pytest.fixture
def shared_dir():
    """A directory an unprivileged user can reach (pytest's own tmp dir is root's alone, 0700)."""
    path = Path(tempfile.mkdtemp(prefix="mnemolint-links-"))
    path.chmod(0o755)
    yield path
    for directory, _, _ in os.walk(path):
        os.chmod(directory, 0o755)
    shutil.rmtree(path)


def _run_unprivileged(args: list[str]) -> tuple[int, str]:
    """`mnemolint ARGS` in a forked child that is not root (the `nobody` user when the tests run as
    root), in this process: its modules are loaded while root may still read them."""
    from mnemolint import cli

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 99
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = cli.main(args)
            os.write(write, out.getvalue().encode())
        except PermissionError:
            code = 98  # no CAP_SETUID here
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        output = pipe.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 98:
        pytest.skip("cannot become an unprivileged user here")
    return code, output


def _locked_tree(root: Path) -> str:
    index = "- [A](a.md) — a\n- [S](locked/s.md) — in a directory no one may search\n- [gone](gone.md)\n"
    write_tree(root, {INDEX: index, f"{MEM}/a.md": topic("A", "a"), f"{MEM}/locked/s.md": topic("S", "s")})
    if os.geteuid() == 0:
        for directory, _, files in os.walk(root):
            os.chown(directory, NOBODY, NOBODY)
            for name in files:
                os.chown(os.path.join(directory, name), NOBODY, NOBODY)
    return index


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_an_unsearchable_directory_keeps_its_topics_lines(shared_dir: Path) -> None:
    """The `chmod 000` case, as a real unprivileged user: the run that reports NST002 for the
    directory deleted the lines of the topics in it. Now they stay; the missing one still goes."""
    from mnemolint import cli

    warm = shared_dir / "warm"  # the same run, readable: every module the fix imports is loaded
    _locked_tree(warm)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["check", "--preview", "--fix", str(warm)])
    root = shared_dir / "root"
    index = _locked_tree(root)
    (root / MEM / "locked").chmod(0)
    code, output = _run_unprivileged(["check", "--preview", "--fix", str(root)])
    assert "NST002" in output and "MEM104" not in output and "Traceback" not in output, output
    assert code == 1  # NST002 remains
    assert (root / INDEX).read_text(encoding="utf-8") == index.replace("- [gone](gone.md)\n", "")


# --- the link scanner is linear ------------------------------------------------------------------

# The pieces a hostile line is made of: every character the scanner looks for, and its pairs.
TOKENS = ["[", "]", "(", ")", "](", "](<", "<", ">", "\\", "`", "``", "<!--", "-->", " ", "a", '"', "[a](b)"]


def _reference_links(text: str) -> list[tuple[int, int]]:
    """The scan spelled out with plain searches (quadratic): the columns `find_links` must give."""
    masked = il._mask(text, False)[0]
    closing = il._matching_parens(masked)
    spans: list[tuple[int, int]] = []
    position = floor = 0
    while (middle := masked.find("](", position)) >= 0:
        position = middle + 2
        if masked.startswith("<", middle + 2):
            angle = masked.find(">", middle + 2)
            close = masked.find(")", angle) if angle >= 0 else -1
        else:
            close = closing.get(middle + 1, -1)
        opening = masked.rfind("[", max(floor, middle - il._MAX_TITLE), middle)
        if close >= 0 and opening >= 0:
            spans.append((opening + 1, close + 2))
            position = floor = close + 1
    return spans


@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
@example("[a](b)](c)")
@example("[t](<a>) [u](<b)")
@settings(max_examples=300, deadline=None)
def test_find_links_finds_what_the_plain_scan_finds(text: str) -> None:
    assert [(link.column, link.end_column) for link in find_links(text)] == _reference_links(text)


def test_a_bracket_that_opened_a_link_opens_no_other() -> None:
    """Links do not nest (CommonMark): `](b.md)` after a link is text, and no title holds a link."""
    assert [link.target for link in find_links("- [a](a.md)](b.md)")] == ["a.md"]
    assert [(link.title, link.target) for link in find_links("[a](a.md) [b](b.md)")] == [("a", "a.md"), ("b", "b.md")]


MEGABYTE = 1_000_000


@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6).map("".join))
@example("](<")  # each `](<` searched the rest of the line for a `>`
@example("](<>")  # and then for a `)`
@example("[a](b)](b)")  # a `[` reused by the links after it: titles of up to 1,000 characters each
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_find_links_is_linear_on_adversarial_1_mb_lines(unit: str) -> None:
    line = (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]
    start = time.perf_counter()
    links = find_links(line)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.5, f"{elapsed:.1f} s on {unit!r} × {MEGABYTE // len(unit):,}"
    # Titles and targets lie in spans that do not overlap: what the links hold is at most the line.
    assert all(before.end_column <= after.column for before, after in zip(links, links[1:], strict=False))


def test_a_2_mb_line_of_angle_destinations_is_checked_in_linear_time(tree) -> None:
    """The `](<` reproduction: each `](<` searched the rest of the line for its `>` (11.5 s)."""
    line = "- [A]" + "](<" * 698_000  # just under max-file-bytes, so the index is read
    root = tree({INDEX: line + "\n"})
    start = time.perf_counter()
    assert find_links(line) == []
    assert time.perf_counter() - start < 1
    start = time.perf_counter()
    result = run_cli("check", "--output-format", "json", cwd=root)
    elapsed = time.perf_counter() - start
    assert result.returncode == 1 and "Traceback" not in result.stderr
    # a line that is no pointer: MEM108, which MEM103 does not repeat inside
    assert {item["code"] for item in json.loads(result.stdout)} >= {"MEM101", "MEM108"}
    assert elapsed < 5, f"{elapsed:.1f} s"
