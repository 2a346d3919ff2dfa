"""Small hostile inputs stay cheap: every pattern, lookup and walk is linear, no worker outlives its run.

Each reproduction of issue 7's "Hangs" (`repro.sh redos1 redos2 diamond orphan`, and the 2 MB index
whose suppression lookup took 436 s) is a test here, timed against a bound that the old code missed
by an order of magnitude; hypothesis then times 1 MB adversarial strings against each rewritten
pattern, and checks on short strings that the rewrite accepts exactly what the old one did.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli, run_lint, write_tree
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.parse import suppress
from mnemolint.parse.frontmatter import _AMBIGUOUS

MEGABYTE = 1 << 20
TOPIC = "---\nname: {0}\ndescription: {0}\ntype: user\n---\n"
adversarial = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
equivalent = settings(max_examples=300, deadline=None)


def timed(action, *args, **keywords):
    """`action(*args, **keywords)` and the seconds it took."""
    started = time.perf_counter()
    result = action(*args, **keywords)
    return result, time.perf_counter() - started


def megabyte_of(pieces: list[str]) -> str:
    """`pieces` repeated up to 1 MB: the shape an attacker repeats, at a size that shows a square."""
    unit = "".join(pieces) or " "
    return (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]


# --- suppression comments: the scan ---------------------------------------------------------------

# The pattern before issue 7: quadratic over a run of spaces, and the reference for what it accepts.
OLD_DIRECTIVE = re.compile(r"<!--\s*mnemolint-(disable-next-line|disable-file|disable|enable)\b([^>]*?)\s*-->")
DIRECTIVE_PIECES = [
    "<!--",
    "<!-- mnemolint-",
    "mnemolint-disable",
    "mnemolint-disable-next-line",
    "mnemolint-disable-file",
    "mnemolint-enable",
    "-next-line",
    "-file",
    " ",
    "\t",
    "\u00a0",
    "-",
    "--",
    ">",
    "-->",
    ",",
    "MEM103",
    "MEM1",
    "x",
    "_",
]


def scan(line: str) -> list[tuple[str, list[str]]]:
    return [(action, suppress._selectors(codes)) for action, codes, _, _ in suppress._directives(line)]


@equivalent
@given(st.lists(st.sampled_from(DIRECTIVE_PIECES), max_size=14).map("".join))
def test_the_directive_scanner_accepts_exactly_what_the_old_pattern_did(line: str) -> None:
    old = [(match.group(1), suppress._selectors(match.group(2))) for match in OLD_DIRECTIVE.finditer(line)]
    assert scan(line) == old


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<!-- mnemolint-disable MEM103, MEM104 -->", [("disable", ["MEM103", "MEM104"])]),
        ("<!--mnemolint-enable-->", [("enable", ["ALL"])]),
        ("<!-- mnemolint-disable-next-linex -->", [("disable", ["-next-linex"])]),
        ("<!-- mnemolint-disable-file->", []),
        ("<!-- mnemolint-disable a > <!-- mnemolint-enable b -->", [("enable", ["b"])]),
        ("<!-- mnemolint-disable <!-- mnemolint-enable -->", [("disable", ["<!--", "mnemolint-enable"])]),
    ],
)
def test_the_directive_scanner_keeps_the_accepted_syntax(line: str, expected: list) -> None:
    assert scan(line) == expected


@adversarial
@given(st.lists(st.sampled_from(DIRECTIVE_PIECES), max_size=3), st.lists(st.sampled_from(DIRECTIVE_PIECES), min_size=1))
@example(["<!-- mnemolint-disable"], [" "])  # repro.sh redos1, at 1 MB
@example([], ["<!-- mnemolint-disable", " "])  # a directive start every 23 characters, and no `>`
@example([], ["<!-- mnemolint-enable", "-"])
def test_a_megabyte_of_directive_fragments_scans_in_linear_time(head: list[str], filler: list[str]) -> None:
    text = "".join(head) + megabyte_of(filler)
    _, elapsed = timed(suppress.parse, text, text.split("\n"))
    assert elapsed < 2, elapsed


def test_redos1_a_directive_then_200_kb_of_spaces_is_checked_at_once(tmp_path: Path) -> None:
    """repro.sh redos1 (at 200 KB, as in the issue): the old pattern took 80 s."""
    write_tree(tmp_path, {"mem/MEMORY.md": "# M\n", "mem/a.md": "<!-- mnemolint-disable" + " " * 200_000 + "\n"})
    result, elapsed = timed(run_cli, "check", "mem", cwd=tmp_path)
    assert elapsed < 10, elapsed
    assert (result.returncode, result.stderr) == (1, "")
    assert [line.split()[1] for line in result.stdout.splitlines()[:-1]] == ["MEM105", "MEM203", "MEM205"]


# --- suppression comments: the lookup -------------------------------------------------------------

CODES = ["MEM103", "MEM104", "MEM2", "TXT001"]
SELECTORS = ["", "MEM103", "MEM104", "MEM1", "MEM", "ALL", "MEM103,MEM104"]
ACTIONS = ["disable", "enable", "disable-next-line", "disable-file", "disable-line"]
directive = st.tuples(st.sampled_from(ACTIONS), st.sampled_from(SELECTORS)).map(
    lambda pair: f"<!-- mnemolint-{pair[0]} {pair[1]} -->"
)
document_lines = st.lists(st.lists(st.one_of(directive, st.just("text")), max_size=3).map(" ".join), max_size=8)


def covered_by_replay(lines: list[str], code: str, line: int | None) -> bool:
    """Replay the directives in order: a range covers every line on which its selector was open, a
    `disable-line` its own line."""
    open_now: set[str] = set()
    file_wide: set[str] = set()
    covered: set[tuple[str, int]] = set()
    for number, text in enumerate(lines, start=1):
        covered.update((selector, number) for selector in open_now)
        for action, selectors in scan(text):
            if action == "disable-file":
                file_wide.update(selectors)
            elif action in ("disable-next-line", "disable-line"):
                covered.update((selector, number + (action == "disable-next-line")) for selector in selectors)
            elif action == "disable":
                open_now.update(selectors)
                covered.update((selector, number) for selector in selectors)
            else:
                open_now -= set(open_now if selectors == ["ALL"] else selectors)
    named = file_wide | {selector for selector, _ in covered}
    matching = {selector for selector in named if selector == "ALL" or code.startswith(selector)}
    if matching & file_wide:
        return True
    return line is not None and any((selector, line) in covered for selector in matching)


@equivalent
@given(document_lines)
def test_the_indexed_lookup_agrees_with_replaying_the_comments(lines: list[str]) -> None:
    marks = suppress.parse("\n".join(lines) + " mnemolint-", lines)
    assert marks is not None
    for code in CODES:
        for line in [None, *range(1, len(lines) + 2)]:
            assert marks.covers(code, line) == covered_by_replay(lines, code, line), (code, line)


def test_a_2_mb_index_of_suppressed_lines_is_filtered_at_once(tmp_path: Path) -> None:
    """The old lookup checked every range for every finding: 21,000 broken links, each line with a
    range of its own (for MEM104 on even lines, MEM105 on odd ones), took 15 s; the issue's, 436 s."""
    count = 21_000
    entries = [
        f"- [T{n}](/t{n}.md) — t<!-- mnemolint-disable {code} --><!-- mnemolint-enable {code} -->"
        for n in range(count)
        for code in ["MEM105" if n % 2 else "MEM104"]
    ]
    write_tree(tmp_path, {"mem/MEMORY.md": "\n".join(entries) + "\n"})
    assert (tmp_path / "mem/MEMORY.md").stat().st_size > 1_900_000
    found, elapsed = timed(run_lint, tmp_path, None, ["MEM104"])
    assert elapsed < 10, elapsed
    assert [(d.code, d.line) for d in found] == [("MEM104", n + 1) for n in range(1, count, 2)]


def test_the_lookup_is_the_same_for_one_range_or_a_hundred_thousand() -> None:
    lines = [f"<!-- mnemolint-disable X{n} --><!-- mnemolint-enable X{n} -->" for n in range(100_000)]
    lines += ["<!-- mnemolint-disable MEM1 -->", "", "<!-- mnemolint-enable -->", ""]
    marks = suppress.parse("\n".join(lines), lines)
    assert marks is not None

    def ask_everything() -> set[tuple[str, int]]:
        asked = [(code, line) for line in range(1, len(lines) + 2) for code in ("X5", "X50", "MEM104")]
        return {(code, line) for code, line in asked if marks.covers(code, line)}

    covered, elapsed = timed(ask_everything)
    assert elapsed < 5, elapsed
    mem104 = {("MEM104", line) for line in (100_001, 100_002, 100_003)}
    assert covered == {("X5", 6), ("X50", 6), ("X50", 51), *mem104}  # `X5` is a prefix of `X50`


# --- FM004's ambiguous-scalar pattern -------------------------------------------------------------

# The pattern before issue 7 (`[0-9_]*_[0-9_]*` backtracks quadratically), the reference for FM004.
OLD_AMBIGUOUS = r"""(?x)
    (?P<bool>y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)
    |(?P<int>[-+]?0[0-7_]+|[-+]?0b[01_]+|[-+]?0o[0-7]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+|[-+]?[0-9][0-9]*_[0-9_]*)
    |(?P<float>[-+]?[0-9]+[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*\.[0-9_]*_[0-9_]*)
    |(?P<date>[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
        (?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?)
    """
SCALAR_PIECES = list("0123456789_.:eE+-boxTtZ ") + ["\t", "2024-01-01", "12:30:00", "0b", "0o", "yes", "1_0.5_", ":55"]


def reading(pattern: str, value: str) -> str | None:
    match = re.fullmatch(pattern, value)
    return None if match is None else match.lastgroup


@equivalent
@given(st.lists(st.sampled_from(SCALAR_PIECES), max_size=12).map("".join))
def test_the_fm004_pattern_reads_exactly_what_the_old_one_did(value: str) -> None:
    assert reading(_AMBIGUOUS, value) == reading(OLD_AMBIGUOUS, value)


@adversarial
@given(
    st.sampled_from(["1.", "1", "-0", "+1:", "2024-01-01", "2024-01-01T10:00:00.", "0b", "1e", "1_0."]),
    st.lists(st.sampled_from(SCALAR_PIECES), min_size=1, max_size=4),
)
@example("1.", ["_"])  # repro.sh redos2, at 1 MB
@example("1_0.", ["1", "_"])
@example("1", [":55"])
def test_a_megabyte_scalar_is_judged_in_linear_time(start: str, filler: list[str]) -> None:
    value = start + megabyte_of(filler) + "x"
    _, elapsed = timed(re.fullmatch, _AMBIGUOUS, value)
    assert elapsed < 2, elapsed


def test_redos2_a_description_of_80_kb_of_underscores_is_checked_at_once(tmp_path: Path) -> None:
    """repro.sh redos2 at 80 KB, as in the issue: the old pattern took 45 s."""
    files = {"mem/MEMORY.md": "- [A](a.md) — a\n", "mem/a.md": "---\ndescription: 1." + "_" * 80_000 + "x\n---\n"}
    write_tree(tmp_path, files)
    result, elapsed = timed(run_cli, "check", "mem", cwd=tmp_path)
    assert elapsed < 10, elapsed
    assert result.stderr == "" and "FM004" not in result.stdout and result.returncode == 1


# --- the walk: a symlink diamond ------------------------------------------------------------------


def discovered(root: Path):
    return discover([str(root)], load_settings(None, str(root)))


def diamond(root: Path, depth: int, memdir: str | None = None) -> None:
    """`l0` … `l{depth}`, each level with two links `a` and `b` to the next (repro.sh diamond);
    with `memdir`, that memory dir links into the top level twice as well."""
    write_tree(root, {"mem/MEMORY.md": "# M\n", **{f"l{n}/t{n}.md": TOPIC.format(n) for n in range(depth + 1)}})
    for n in range(depth):
        for name in "ab":
            os.symlink(f"../l{n + 1}", root / f"l{n}" / name)
    if memdir:
        for name in "ab":
            os.symlink("../l0", root / memdir / name)


def test_a_symlink_diamond_walks_each_directory_once(tmp_path: Path) -> None:
    """repro.sh diamond: depth 16 took 102 s (2^16 paths); depth 24 would take days."""
    diamond(tmp_path, 24)
    tree, elapsed = timed(discovered, tmp_path)
    assert elapsed < 5, elapsed
    assert len(tree.links) == 48 and not any(link.problem for link in tree.links)
    assert [document.rel for document in tree.documents] == ["MEMORY.md"]
    result = run_cli("check", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "All checks passed: 1 memory file checked.\n")


def test_a_diamond_below_a_memory_dir_gives_each_topic_once_under_its_first_link(tmp_path: Path) -> None:
    diamond(tmp_path, 20, memdir="mem")
    tree, elapsed = timed(discovered, tmp_path)
    assert elapsed < 5, elapsed
    topics = [document.rel for document in tree.documents if document.rel != "MEMORY.md"]
    assert topics == ["a/" + "a/" * n + f"t{n}.md" for n in range(21)]


def test_a_memory_dir_reached_directly_and_through_a_link_is_linted_once_by_its_real_name(tmp_path: Path) -> None:
    write_tree(tmp_path, {"proj/mem/MEMORY.md": "- [Gone](gone.md) — g\n"})
    os.symlink("proj/mem", tmp_path / "alias")  # sorts first: the real name still wins
    tree = discovered(tmp_path)
    assert [memdir.path for memdir in tree.containers] == [str(tmp_path / "proj" / "mem")]
    assert [link.path for link in tree.links] == [str(tmp_path / "alias")]


def test_a_directory_linked_from_two_memory_dirs_belongs_to_both(tmp_path: Path) -> None:
    """Once per memory dir, not once in all: each index may link to the topics under its own name."""
    write_tree(tmp_path, {"one/MEMORY.md": "# 1\n", "two/MEMORY.md": "# 2\n", "shared/s.md": TOPIC.format("s")})
    for memdir in ("one", "two"):
        os.symlink("../shared", tmp_path / memdir / "shared")
    tree = discovered(tmp_path)
    assert sorted(document.path[len(str(tmp_path)) + 1 :] for document in tree.documents) == [
        "one/MEMORY.md",
        "one/shared/s.md",
        "two/MEMORY.md",
        "two/shared/s.md",
    ]


# --- the forked worker dies with its parent -------------------------------------------------------

needs_worker = pytest.mark.skipif(
    not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
    reason="the worker is forked on Linux with two cores or more",
)
WITHOUT_CTYPES = "import runpy, sys; sys.modules['ctypes'] = None; runpy.run_module('mnemolint', run_name='__main__')"


def _state(pid: int) -> str | None:
    """A process's state letter from /proc, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as handle:
                if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z", "X")


@needs_worker
@pytest.mark.parametrize("launch", [["-m", "mnemolint"], ["-c", WITHOUT_CTYPES]], ids=["prctl", "without-ctypes"])
def test_a_killed_parent_takes_its_worker_with_it(tmp_path: Path, launch: list[str]) -> None:
    """repro.sh orphan: the worker used to wait on its pipe forever. The parent is stopped once the
    worker exists, so it cannot finish first, then killed; the worker must be gone within seconds."""
    write_tree(tmp_path, {"o/mem/MEMORY.md": "# M\n", **{f"o/mem/t{n}.md": "x\n" for n in range(3000)}})
    parent = subprocess.Popen([sys.executable, *launch, "check", "o"], cwd=tmp_path, stdout=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not workers and parent.poll() is None and time.monotonic() < deadline:
            workers = _children(parent.pid)
        os.kill(parent.pid, signal.SIGSTOP)
        assert len(workers) == 1 and _alive(workers[0]), "no worker was running when the parent stopped"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        _wait_until_gone(workers[0], 5)
        assert not _alive(workers[0]), "the worker outlived its parent"
    finally:
        parent.kill()
        for worker in workers:
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


def _wait_until_gone(pid: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)


@needs_worker
def test_a_run_with_a_worker_still_finds_everything(tmp_path: Path) -> None:
    """The worker's half is reported in full, with and without ctypes to arm the parent-death signal."""
    write_tree(tmp_path, {"o/mem/MEMORY.md": "# M\n", **{f"o/mem/t{n}.md": "x\n" for n in range(1600)}})
    with_ctypes, without = (
        subprocess.run(
            [sys.executable, *launch, "check", "--preview", "o"], cwd=tmp_path, capture_output=True, text=True
        )
        for launch in (["-m", "mnemolint"], ["-c", WITHOUT_CTYPES])
    )
    assert with_ctypes.stdout == without.stdout
    summary = "Found 4,800 findings (0 errors, 4,800 warnings, 0 infos) in 1,601 memory files.\n"
    assert with_ctypes.stdout.endswith(summary)


def test_an_index_head_is_judged_once_however_many_of_its_topics_are_named(tmp_path: Path) -> None:
    """Whether a folder holding `MEMORY.md` is a memory dir is read from the index's head: once per
    run, not once per topic pre-commit names (300 here), even when that head is 64 KiB of blank lines."""
    files = {"memory/MEMORY.md": "\n" * 65_536, **{f"memory/t{n}.md": TOPIC.format(n) for n in range(300)}}
    write_tree(tmp_path, files)
    named = [tmp_path / "memory" / f"t{n}.md" for n in range(300)]
    _, seconds = timed(run_lint, tmp_path, named)
    assert seconds < 10, f"{seconds:.1f} s for 300 topics named alone"
