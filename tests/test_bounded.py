"""Small hostile inputs stay cheap: every pattern, lookup and walk is linear, no worker outlives its run.

Each reproduction of issue 7's "Hangs" (`repro.sh redos1 redos2 diamond orphan`, and the 2 MB index
whose suppression lookup took 436 s) is a test here, timed against a bound that the old code missed
by an order of magnitude; hypothesis then times 1 MB adversarial strings against each rewritten
pattern, and checks on short strings that the rewrite accepts exactly what the old one did.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from conftest import run_cli, run_lint, write_tree
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mnemolint import suppress

MEGABYTE = 1 << 20
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
    return [(action, suppress._selectors(codes)) for action, codes in suppress._directives(line)]


@equivalent
@given(st.lists(st.sampled_from(DIRECTIVE_PIECES), max_size=14).map("".join))
def test_the_directive_scanner_accepts_exactly_what_the_old_pattern_did(line: str) -> None:
    old = [(match.group(1), suppress._selectors(match.group(2))) for match in OLD_DIRECTIVE.finditer(line)]
    assert scan(line) == old


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<!-- mnemolint-disable MEM103, MEM104 -->", [("disable", ["MEM103", "MEM104"])]),
        ("<!--mnemolint-enable-->", [("enable", ["*"])]),
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
SELECTORS = ["", "MEM103", "MEM104", "MEM1", "MEM", "*", "MEM103,MEM104"]
ACTIONS = ["disable", "enable", "disable-next-line", "disable-file"]
directive = st.tuples(st.sampled_from(ACTIONS), st.sampled_from(SELECTORS)).map(
    lambda pair: f"<!-- mnemolint-{pair[0]} {pair[1]} -->"
)
document_lines = st.lists(st.lists(st.one_of(directive, st.just("text")), max_size=3).map(" ".join), max_size=8)


def covered_by_replay(lines: list[str], code: str, line: int | None) -> bool:
    """Replay the directives in order: a range covers every line on which its selector was open."""
    open_now: set[str] = set()
    file_wide: set[str] = set()
    covered: set[tuple[str, int]] = set()
    for number, text in enumerate(lines, start=1):
        covered.update((selector, number) for selector in open_now)
        for action, selectors in scan(text):
            if action == "disable-file":
                file_wide.update(selectors)
            elif action == "disable-next-line":
                covered.update((selector, number + 1) for selector in selectors)
            elif action == "disable":
                open_now.update(selectors)
                covered.update((selector, number) for selector in selectors)
            else:
                open_now -= set(open_now if selectors == ["*"] else selectors)
    named = file_wide | {selector for selector, _ in covered}
    matching = {selector for selector in named if selector == "*" or code.startswith(selector)}
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
        f"- [T{n}](t{n}.md) — t<!-- mnemolint-disable {code} --><!-- mnemolint-enable {code} -->"
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
